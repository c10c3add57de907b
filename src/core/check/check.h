/* headroom — `check`: status + plan in one verdict a non-expert reads in ten seconds.
 *
 * The verdict compares what the machine can back (the commit limit where it is enforced;
 * RAM + disk swap where the OOM killer decides; a cgroup limit caps both) with what the
 * declared workload needs at its peak (a measured --peak-commit, or the estimate below), and
 * lists the one to three things to do and the biggest other memory users (S5.2). */
#ifndef HR_CHECK_H
#define HR_CHECK_H

#include "core/base/buf.h"
#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/msg.h"
#include "core/base/render.h"
#include "core/plan/plan.h"
#include "core/model/snapshot.h"
#include "core/status/status.h"

#define HR_CHECK_SCHEMA          "headroom.check/1"
#define HR_CHECK_MAX_TODO        3
#define HR_CHECK_MAX_OTHERS      5
#define HR_CHECK_OTHER_MIN_BYTES ((uint64_t)100 << 20) /* smaller users are not worth closing */

/* Exit statuses 0/1/2 are the verdicts; HR_VERDICT_UNKNOWN exits 3 (docs/check.md). */
typedef enum hr_check_verdict {
    HR_VERDICT_OK = 0,
    HR_VERDICT_AT_RISK = 1,
    HR_VERDICT_WILL_FAIL = 2,
    HR_VERDICT_UNKNOWN = 3
} hr_check_verdict;

const char *hr_check_verdict_name(hr_check_verdict v);  /* "ok", "at-risk", "will-fail", "unknown" */
const char *hr_check_verdict_label(hr_check_verdict v); /* "OK", "AT RISK", "WILL FAIL", "CANNOT TELL" */

/* hr_workload_need_bytes(): the need model, in plan.h (the plan's container steps use it). */

/* What "can back" is (X.ceiling): which ceiling the capacity is, and the rule behind it. The
 * rule picks the basis; the renderers turn it into the sentence (hr_check_capacity_text), so
 * nothing branches on translated text. X(id, rule, sentence) */
#define HR_CHECK_CAPACITY_BASES(X)                                                                                     \
    X(HR_CAP_WHATIF_PAGING, "X.ceiling",                                                                               \
      HR_N("a hypothetical machine: RAM + the paging file / swap given (--paging)"))                                   \
    X(HR_CAP_WHATIF_UNKNOWN, "S2.2",                                                                                   \
      HR_N("a hypothetical machine: the paging file / swap in use is not known (give --paging)"))                      \
    X(HR_CAP_COMMIT_LIMIT_WIN, "S1.1", HR_N("the commit limit (RAM + paging files)"))                                  \
    X(HR_CAP_COMMIT_LIMIT_LINUX, "X.overcommit", HR_N("the commit limit, enforced (vm.overcommit_memory=2)"))          \
    X(HR_CAP_COMMIT_PARTS_WIN, "S1.1", HR_N("RAM + paging files"))                                                     \
    X(HR_CAP_COMMIT_PARTS_LINUX, "X.overcommit",                                                                       \
      HR_N("the commit limit, enforced (vm.overcommit_memory=2): RAM share + swap"))                                   \
    X(HR_CAP_RAM_SWAP, "X.ceiling",                                                                                    \
      HR_N("RAM + disk swap (the OOM killer acts when both are full; zram not counted)"))                              \
    X(HR_CAP_CGROUP, "X.cgroup", HR_N("the cgroup's memory limit (memory.max + the swap it may use)"))                 \
    X(HR_CAP_UNKNOWN, "S2.2", HR_N("the paging file / swap in use could not be read"))

typedef enum hr_check_capacity_basis {
#define HR_CAP_ENUM(id, rule, text) id,
    HR_CHECK_CAPACITY_BASES(HR_CAP_ENUM)
#undef HR_CAP_ENUM
} hr_check_capacity_basis;

/* The basis as a sentence in the current language (its English msgid: JSON), and the rule it
 * comes from. */
const char *hr_check_capacity_text(hr_check_capacity_basis b);
const char *hr_check_capacity_msgid(hr_check_capacity_basis b);
const char *hr_check_capacity_rule(hr_check_capacity_basis b);

typedef struct hr_check_other {
    hr_proc proc;
    const char *kind; /* "browser", "chat", or NULL */
} hr_check_other;

typedef struct hr_check {
    hr_check_verdict verdict;
    char verdict_rule[16];
    hr_msg verdict_msg;   /* the verdict's sentence: hr_check_verdict_text() */
    hr_workload workload; /* the one judged (SDXL when none declared) */
    bool workload_assumed;
    char workflow[64]; /* check --workflow: the workflow judged instead ("" = none) */
    uint64_t need_bytes;
    hr_run_need need;        /* the need the verdict judged: the plan's, or against a memory
                                cgroup's limit the same run without what runs outside it */
    hr_msg need_basis_msg;   /* where the need comes from: hr_check_need_basis_text() */
    hr_peak_basis need_peak; /* or the estimate the peak was taken from (from != GIVEN) */
    uint64_t capacity_bytes; /* HR_UNKNOWN when not known */
    hr_check_capacity_basis capacity_basis;
    uint64_t capacity_after_bytes; /* with the plan applied; HR_UNKNOWN when not known */
    hr_check_verdict verdict_after;
    bool plan_feasible;               /* the plan can be carried out here (a drive has room for it) */
    hr_check_verdict verdict_if_room; /* what the plan would give where there were room for it */
    uint64_t charge_bytes;            /* commit in use now; HR_UNKNOWN */
    int todo_count;
    hr_plan_line todo[HR_CHECK_MAX_TODO];
    int other_count;
    hr_check_other others[HR_CHECK_MAX_OTHERS];
    uint64_t others_commit_bytes; /* browsers + chat apps among them */
    /* The status report of the machine judged, computed once by hr_check_compute(): every
     * part of check and its renderers read it and the plan's facts, never the snapshot.
     * has_status false: no snapshot was given (a hypothetical machine). */
    bool has_status;
    hr_status status;
    const hr_plan *plan; /* the plan for it; the report embeds both */
} hr_check;

/* The verdict's sentence and the need's basis in lang, into buf; returns buf. They are judged
 * as data and worded here: text and HTML pass the user's language (hr_lang_get()), JSON
 * HR_LANG_EN. At most HR_PLAN_TEXT_MAX - 1 and HR_CHECK_BASIS_MAX - 1 bytes, the lengths
 * they have always had. */
#define HR_CHECK_BASIS_MAX 160
const char *hr_check_verdict_text(const hr_check *c, hr_lang lang, char *buf, size_t cap);
const char *hr_check_need_basis_text(const hr_check *c, hr_lang lang, char *buf, size_t cap);

/* The status report of the machine judged: NULL for a hypothetical one (no snapshot, or a
 * plan for another machine than the one read). */
const hr_status *hr_check_judged(const hr_check *c);

/* Judge. snap may be NULL (hypothetical machine: the verdict is then "unknown" for now and
 * given for the plan). plan is the plan for the same snapshot and inputs; out keeps pointers
 * to both (they must outlive it). The status report is made from snap here, once; nothing
 * after this entry reads snap. The paging to-do item is the plan's recommendation in one
 * line: its size, place and files are the plan's. */
void hr_check_compute(const hr_snapshot *snap, const hr_plan_inputs *in, const hr_plan *plan, hr_check *out);

/* Prometheus text: the status report's metrics and the verdict's (docs/export.md); appends. */
void hr_check_prom(const hr_check *c, hr_buf *out);

/* The report in r->format (text, JSON, HTML, Prometheus); the one entry point commands use. */
void hr_check_render(const hr_check *c, hr_render *r);
/* One screen of text (tiers, commit vs need, verdict, to-do, other users); 0 or the buffer's
 * sticky error. */
int hr_check_text(const hr_check *c, hr_buf *out, bool color);
/* {"schema":"headroom.check/1","verdict":...,"status":{...},"plan":{...}}; "status" is null
 * with a reason for a hypothetical machine. */
void hr_check_json(const hr_check *c, hr_json_writer *w);

/* The page (base/html.h): verdict, the three tiers, capacity against need as bars, the to-do
 * list, the other memory users and the plan's steps and notes. */
void hr_check_html(const hr_check *c, hr_buf *out);

/* Tier 1 (VRAM), 2 (RAM), 3 (paging file / swap): its short name and the line describing it
 * (the same words in text and HTML), from the status report (NULL: a hypothetical machine)
 * and the plan's facts. */
const char *hr_check_tier_name(const hr_plan *p, int tier);
void hr_check_tier_value(const hr_status *st, const hr_plan *p, int tier, hr_buf *out);

#endif
