/* headroom — `stress`: commit (and touch) memory step by step, like Sysinternals Testlimit,
 * to prove where this machine's ceiling really is (docs/stress.md).
 *
 * The core decides whether a request is safe (the gate), and renders what happened; the
 * platform layer allocates (src/platform/<os>/stress_*.c): on Linux in a child process (an
 * OOM kill then ends the child, not headroom, and its exit releases everything), optionally
 * inside a memory cgroup of a given size; on Windows with VirtualAlloc(MEM_COMMIT), optionally
 * inside a job object with that commit limit. */
#ifndef HR_STRESS_H
#define HR_STRESS_H

#include "core/base/buf.h"
#include "core/base/render.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_STRESS_SCHEMA    "headroom.stress/1"
#define HR_STRESS_MAX_STEPS 512
#define HR_STRESS_MIN_STEP  ((uint64_t)16 << 20) /* 16 MiB */

typedef struct hr_stress_req {
    uint64_t commit_bytes; /* --commit SIZE: the total to reach */
    uint64_t step_bytes;   /* --step SIZE; 0: chosen by hr_stress_gate() */
    bool touch;            /* --touch: write every page (the memory becomes real) */
    bool force;            /* --force: past the safety margin, to the first failure */
    uint64_t cgroup_bytes; /* --cgroup SIZE (Linux memory cgroup / Windows job); 0: none */
    /* Where the cgroup goes (from the snapshot): the version and the process's cgroup
     * directory and path (cgroup v1: a child of it; v2: a child of the hierarchy's root). */
    hr_cgroup_version cgroup_version;
    char cgroup_dir[HR_SNAP_PATH_MAX];
    char cgroup_path[HR_SNAP_PATH_MAX];
} hr_stress_req;

/* One step, as the platform saw it after the step's memory was committed (and touched). */
typedef struct hr_stress_step {
    uint64_t committed_bytes; /* by the stress so far */
    uint64_t charge_bytes;    /* the machine's commit charge now; HR_UNKNOWN */
    uint64_t limit_bytes;     /* the commit limit now; HR_UNKNOWN */
    uint64_t cgroup_bytes;    /* memory the stress cgroup / job uses; HR_UNKNOWN without */
} hr_stress_step;

typedef enum hr_stress_outcome {
    HR_STRESS_REFUSED = 0,  /* the gate said no: nothing was allocated */
    HR_STRESS_REACHED,      /* every step done */
    HR_STRESS_ALLOC_FAILED, /* the OS refused an allocation (the commit limit) */
    HR_STRESS_KILLED,       /* the allocating process was killed (the OOM killer) */
    HR_STRESS_ERROR         /* the test itself could not go on (see failure) */
} hr_stress_outcome;

typedef struct hr_stress_result {
    hr_stress_outcome outcome;
    int step_count;
    hr_stress_step steps[HR_STRESS_MAX_STEPS];
    uint64_t reached_bytes;              /* committed (and touched) before the end */
    uint64_t failed_step_bytes;          /* the size of the step that failed; 0 */
    char failure[256];                   /* the OS's words: "mmap: Cannot allocate memory", "SIGKILL" */
    bool oom_kill_seen;                  /* the cgroup's / kernel's OOM-kill count went up */
    bool released;                       /* everything given back (the child exited / VirtualFree) */
    char cgroup_where[HR_SNAP_PATH_MAX]; /* the cgroup or job it ran in; "" */
} hr_stress_result;

/* What the gate decided, from the snapshot before the first step. */
typedef struct hr_stress_gate {
    bool allowed;
    bool forced;                        /* allowed only because of --force */
    uint64_t step_bytes;                /* the step used */
    uint64_t safe_bytes;                /* the most the request may reach without --force; HR_UNKNOWN */
    uint64_t margin_bytes;              /* kept free of the ceiling */
    uint64_t charge_bytes, limit_bytes; /* before */
    bool enforced;                      /* the OS refuses commit at the limit (Windows; Linux mode 2) */
    hr_msg basis;                       /* how safe_bytes was found; worded where shown */
    hr_msg why;                         /* a refusal's reason, or a note (not set when none) */
    enum {
        HR_STRESS_WHY_NONE = 0,
        HR_STRESS_WHY_NOT_ENFORCED,
        HR_STRESS_WHY_UNKNOWN,
        HR_STRESS_WHY_TOO_BIG
    } why_kind;          /* the same, for the translated text */
    uint64_t want_bytes; /* what the gate weighed (the total, or the cgroup's size) */
} hr_stress_gate;

/* Decide. snap is this machine's, before the test. */
void hr_stress_gate_compute(const hr_snapshot *snap, const hr_stress_req *rq, hr_stress_gate *g);

typedef struct hr_stress_report {
    const hr_stress_req *req;
    const hr_stress_gate *gate;
    const hr_stress_result *res; /* NULL when refused */
    hr_os os;
} hr_stress_report;

/* Text: the head (what will be done, within which margin) — printed before the first step. */
void hr_stress_text_head(const hr_stress_report *r, hr_buf *out);
/* Text: one step's line, printed as it happens (the first with the columns' heads). */
void hr_stress_text_step(const hr_stress_report *r, int i, hr_buf *out);
/* Text: the end (where it stopped and why; what was released). */
void hr_stress_text_end(const hr_stress_report *r, hr_buf *out);
/* The whole report in r->format: text (head, steps, end) or JSON. */
void hr_stress_render(const hr_stress_report *rep, hr_render *r);

const char *hr_stress_outcome_name(hr_stress_outcome o); /* "refused", "reached", ... */

#endif
