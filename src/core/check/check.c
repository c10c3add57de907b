/* headroom — the check verdict: what the machine can back vs what the workload needs. */
#include "core/check/check.h"

#include "core/base/i18n.h"

#include "core/model/commit_ceiling.h"
#include "core/model/procs.h"
#include "core/base/size.h"

#include <stdio.h>
#include <string.h>

const char *hr_check_verdict_name(hr_check_verdict v)
{
    switch (v) {
    case HR_VERDICT_OK: return "ok";
    case HR_VERDICT_AT_RISK: return "at-risk";
    case HR_VERDICT_WILL_FAIL: return "will-fail";
    default: return "unknown";
    }
}

const char *hr_check_verdict_label(hr_check_verdict v)
{
    switch (v) {
    case HR_VERDICT_OK: return hr_tr(HR_N("OK"));
    case HR_VERDICT_AT_RISK: return hr_tr(HR_N("AT RISK"));
    case HR_VERDICT_WILL_FAIL: return hr_tr(HR_N("WILL FAIL"));
    default: return hr_tr(HR_N("CANNOT TELL"));
    }
}

/* The verdict is the one rule's (core/model/run_need.h: S1.1, S4.1). */
static hr_check_verdict judge(uint64_t capacity, const hr_run_need *n)
{
    return (hr_check_verdict)hr_run_judge(n, capacity);
}

static uint64_t with_gap(uint64_t capacity, uint64_t gap)
{
    return capacity == HR_UNKNOWN ? capacity : hr_sat_add(capacity, gap);
}

static const struct {
    const char *rule, *text;
} capacity_bases[] = {
#define HR_CAP_ROW(id, rule, text) [id] = { rule, text },
    HR_CHECK_CAPACITY_BASES(HR_CAP_ROW)
#undef HR_CAP_ROW
};

const char *hr_check_capacity_msgid(hr_check_capacity_basis b)
{
    return capacity_bases[(unsigned)b < sizeof capacity_bases / sizeof capacity_bases[0] ? b : HR_CAP_UNKNOWN].text;
}

const char *hr_check_capacity_text(hr_check_capacity_basis b)
{
    return hr_tr(hr_check_capacity_msgid(b));
}

const char *hr_check_verdict_text(const hr_check *c, hr_lang lang, char *buf, size_t cap)
{
    if (cap)
        hr_msg_format(&c->verdict_msg, lang, buf, cap < HR_PLAN_TEXT_MAX ? cap : HR_PLAN_TEXT_MAX);
    return buf;
}

const char *hr_check_need_basis_text(const hr_check *c, hr_lang lang, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    if (cap > HR_CHECK_BASIS_MAX)
        cap = HR_CHECK_BASIS_MAX;
    if (c->need_peak.from != HR_PEAK_GIVEN)
        return hr_peak_basis_text(&c->need_peak, lang, buf, cap);
    hr_msg_format(&c->need_basis_msg, lang, buf, cap);
    return buf;
}

const char *hr_check_capacity_rule(hr_check_capacity_basis b)
{
    return capacity_bases[(unsigned)b < sizeof capacity_bases / sizeof capacity_bases[0] ? b : HR_CAP_UNKNOWN].rule;
}

/* What the machine can back now: the real ceiling (core/model/commit_ceiling.h, the one
 * status shows), with the RAM given by --ram when it differs from the machine's. st is the
 * status report of the machine judged (NULL: a hypothetical one). */
static uint64_t capacity_now(const hr_status *st, const hr_plan *p, hr_check_capacity_basis *basis)
{
    const hr_plan_facts *f = &p->facts;
    if ((!st || f->hypothetical) && f->disk_paging_bytes != HR_UNKNOWN) {
        /* A what-if machine described in full (--paging): RAM + that paging file / swap. */
        hr_ceiling ce;
        hr_ceiling_from(NULL, f->os, f->ram_bytes, f->disk_paging_bytes, &ce);
        *basis = HR_CAP_WHATIF_PAGING;
        return ce.bytes;
    }
    if (!st || f->hypothetical) {
        *basis = HR_CAP_WHATIF_UNKNOWN;
        return HR_UNKNOWN;
    }
    const hr_ceiling_facts *m = &st->ceiling_facts;
    const uint64_t ram = f->ram_bytes != m->ram_bytes ? f->ram_bytes : HR_UNKNOWN;
    const uint64_t disk = f->disk_paging_bytes != m->disk_paging_bytes ? f->disk_paging_bytes : HR_UNKNOWN;
    hr_ceiling ce;
    hr_ceiling_from(m, f->os, ram, disk, &ce);
    const bool win = f->os == HR_OS_WINDOWS;
    switch (ce.basis) {
    case HR_CEILING_COMMIT_LIMIT: *basis = win ? HR_CAP_COMMIT_LIMIT_WIN : HR_CAP_COMMIT_LIMIT_LINUX; break;
    case HR_CEILING_COMMIT_PARTS: *basis = win ? HR_CAP_COMMIT_PARTS_WIN : HR_CAP_COMMIT_PARTS_LINUX; break;
    case HR_CEILING_RAM_SWAP: *basis = HR_CAP_RAM_SWAP; break;
    case HR_CEILING_CGROUP: *basis = HR_CAP_CGROUP; break;
    case HR_CEILING_UNKNOWN: *basis = HR_CAP_UNKNOWN; break;
    }
    return ce.bytes;
}

/* What it could back with the plan applied: the same ceiling, with the plan's paging. */
static uint64_t capacity_after(const hr_status *st, const hr_plan *p)
{
    const hr_plan_facts *f = &p->facts;
    uint64_t paging = p->recommended.maximum_bytes;
    /* Linux keeps the swap it has when it already covers the plan (add_bytes 0). */
    if (f->os == HR_OS_LINUX && p->recommended.add_bytes == 0 && f->disk_paging_bytes != HR_UNKNOWN &&
        f->disk_paging_bytes > paging)
        paging = f->disk_paging_bytes;
    hr_ceiling ce;
    hr_ceiling_from(f->hypothetical || !st ? NULL : &st->ceiling_facts, f->os, f->ram_bytes, paging, &ce);
    return ce.bytes;
}

/* Windows "automatically manage" can grow to 3 × RAM, at most an eighth of the system volume
 * (docs/rules.md, sources: page file sizing) — late, after commit passes 90 %, so never better than AT RISK (S1.2). */
static uint64_t automatic_potential(const hr_status *st, const hr_plan *p)
{
    const uint64_t drive = st->system_volume_total_bytes, room = st->system_volume_free_bytes;
    uint64_t ram = p->facts.ram_bytes;
    uint64_t grow = hr_sat_mul(ram, 3) > ((uint64_t)4 << 30) ? hr_sat_mul(ram, 3) : (uint64_t)4 << 30;
    if (drive != HR_UNKNOWN && grow > drive / 8)
        grow = drive / 8;
    if (room != HR_UNKNOWN && grow > room)
        grow = room;
    return hr_sat_add(ram, grow);
}

/* Windows: how much the configured custom files with a range can still grow (maximum − the
 * size in use). */
static uint64_t ranged_growth(const hr_status *st)
{
    uint64_t grow = 0;
    if (!st->configured_read || !st->paging_read || st->configured_automatic == HR_TRI_YES)
        return 0;
    for (int i = 0; i < st->configured_count; i++) {
        const hr_status_configured *e = &st->configured[i];
        if (e->mode != HR_PAGING_MODE_CUSTOM || e->maximum_bytes == HR_UNKNOWN || e->initial_bytes == HR_UNKNOWN ||
            e->initial_bytes >= e->maximum_bytes)
            continue;
        for (int j = 0; j < st->paging_count; j++) {
            const hr_status_paging *pg = &st->paging[j];
            if (hr_same_drive(pg->path, e->path) && pg->size_bytes != HR_UNKNOWN && pg->size_bytes < e->maximum_bytes)
                grow = hr_sat_add(grow, e->maximum_bytes - pg->size_bytes);
        }
    }
    return grow;
}

/* The rule that decided the size: the peak, or the S4 rule that chose within the table. */
static const char *sizing_rule(const hr_plan_recommended *r)
{
    static const char *const deciding[] = { "peak",     "video", "lean-on-ram",    "small-vram",
                                            "big-vram", "light", "worked-example", "row-32-default" };
    for (size_t k = 0; k < sizeof deciding / sizeof deciding[0]; k++)
        for (int i = 0; i < r->reason_count; i++)
            if (strcmp(r->reasons[i].id, deciding[k]) == 0)
                return r->reasons[i].rule;
    return r->reason_count ? r->reasons[0].rule : "S4.1";
}

#define TODO(id_rule, ...) hr_plan_line_add(c->todo, &c->todo_count, HR_CHECK_MAX_TODO, id_rule, __VA_ARGS__)

static void list_others(const hr_status *st, hr_check *c)
{
    if (!st)
        return;
    for (int i = 0; i < st->proc_count && c->other_count < HR_CHECK_MAX_OTHERS; i++) {
        const hr_proc *pr = &st->procs[i];
        const char *kind = hr_proc_kind(pr->name);
        if ((kind && strcmp(kind, "python") == 0) || strncmp(pr->name, "headroom", 8) == 0)
            continue; /* ComfyUI itself, and us */
        uint64_t held = pr->commit_bytes != HR_UNKNOWN && pr->commit_bytes > pr->resident_bytes ? pr->commit_bytes
                                                                                                : pr->resident_bytes;
        if (held == HR_UNKNOWN || held < HR_CHECK_OTHER_MIN_BYTES)
            continue; /* not worth closing */
        hr_check_other *o = &c->others[c->other_count++];
        o->proc = *pr;
        o->kind = kind;
        if (kind && pr->commit_bytes != HR_UNKNOWN)
            c->others_commit_bytes = hr_sat_add(c->others_commit_bytes, pr->commit_bytes);
    }
}

static void todo_close_apps(hr_check *c)
{
    char list[256] = "";
    size_t used = 0;
    int named = 0;
    for (int i = 0; i < c->other_count && named < 3; i++) {
        const hr_check_other *o = &c->others[i];
        if (!o->kind)
            continue;
        char sz[32];
        hr_size_gb(o->proc.commit_bytes, sz, sizeof sz);
        int w = snprintf(list + used, sizeof list - used, "%s%s (%s)", named ? ", " : "", o->proc.name, sz);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
        named++;
    }
    if (named)
        TODO("close-apps|S5.2", HR_N("close %s before a run: what they hold is taken from the run"), list);
}

/* What the three parts share: the machine judged (its status report; NULL for a hypothetical
 * one), its plan, the need, what the downgrade rows judge by (each found once), and the
 * numbers the sentences quote. */
typedef struct judge_ctx {
    const hr_status *st;
    const hr_plan *p;
    const hr_run_need *need;
    uint64_t growth;            /* how much ranged custom files can still grow (ranged_growth) */
    const hr_plan_line *hazard; /* the most serious fragile-run warning (hazard), or NULL */
    uint64_t gap;               /* RAM's size-class gap, added to what the machine can back */
    char cap[32];               /* what it can back now, as shown */
    char fail_below[32];        /* under it even the low end dies, as shown */
    char must_back[32];         /* what the machine must back, as shown */
    const char *wl;             /* the workflow or workload judged (a workload: its label's msgid) */
    bool wl_msgid;              /* wl is a workload's label: translated where it is shown */
    const char *tier3;          /* "paging file" or "swap", an English msgid */
} judge_ctx;

static void need_basis(const hr_plan_inputs *in, const hr_plan_facts *f, hr_check *c)
{
    const char *assumed = c->workload_assumed ? HR_N(", assumed: give --workload") : "";
    hr_msg *m = &c->need_basis_msg;
    if (in->peak_commit_bytes != HR_UNKNOWN && in->peak_basis.from != HR_PEAK_GIVEN) {
        c->need_peak = in->peak_basis;
        return;
    }
    if (in->peak_commit_bytes != HR_UNKNOWN) {
        hr_msg_set(m, HR_N("the peak commit given (--peak-commit)"));
        return;
    }
    if (f->lean_on_ram) {
        char flags[128];
        hr_comfy_args_describe(&f->comfy, flags, sizeof flags);
        hr_msg_set(m, HR_N("an estimate for %s%s; %s moves the weights to RAM (docs/check.md; S1.2, S4.2)"),
                   hr_workload_label_msgid(c->workload), assumed, flags);
    } else {
        hr_msg_set(m, HR_N("an estimate for %s%s (docs/check.md; S4.1, S4.2)"), hr_workload_label_msgid(c->workload),
                   assumed);
    }
    hr_msg_translate_arg(m, 0);
    hr_msg_translate_arg(m, 1);
}

/* The verdict's sentence quotes the workflow or workload judged (value wl_at, from 0) and,
 * when tier3_at >= 0, the name of the third tier: both worded where it is shown. */
static void says_names(const judge_ctx *x, hr_msg *m, int wl_at, int tier3_at)
{
    if (wl_at >= 0 && x->wl_msgid)
        hr_msg_translate_arg(m, wl_at);
    if (tier3_at >= 0)
        hr_msg_translate_arg(m, tier3_at);
}

/* The verdict's sentence and rule for the sizes alone (S1.1, S4.1; X.cgroup in a container). */
static void verdict_says(const judge_ctx *x, hr_check *c)
{
    const char *fb = x->fail_below, *mb = x->must_back;
    const bool lean = x->need->others_low != x->need->others_high; /* a what-if machine's others */
    const bool cgroup = c->capacity_basis == HR_CAP_CGROUP;
    const char *rule = c->verdict == HR_VERDICT_WILL_FAIL
                           ? (cgroup ? hr_check_capacity_rule(c->capacity_basis) : "S1.1")
                       : c->verdict == HR_VERDICT_UNKNOWN ? "S2.2"
                                                          : "S4.1";
    hr_strlcpy(c->verdict_rule, rule, sizeof c->verdict_rule);
    hr_msg *t = &c->verdict_msg;
    if (c->verdict == HR_VERDICT_WILL_FAIL && cgroup) {
        hr_msg_set(t,
                   HR_N("this container may use %s, below the %s that even the low end of %s's need and the other "
                        "programs take: at the limit the kernel kills the run (a cgroup OOM kill), whatever the "
                        "machine has"),
                   x->cap, fb, x->wl);
        says_names(x, t, 2, -1);
    } else if (c->verdict == HR_VERDICT_WILL_FAIL) {
        hr_msg_set(t,
                   lean ? HR_N("this machine can back %s, below the %s that even the low end of %s's need and a lean "
                               "desktop's other programs take: when RAM and the %s are full the run is killed or "
                               "vanishes")
                        : HR_N("this machine can back %s, below the %s that even the low end of %s's need and the "
                               "other programs take: when RAM and the %s are full the run is killed or vanishes"),
                   x->cap, fb, x->wl, x->tier3);
        says_names(x, t, 2, 3);
    } else if (c->verdict == HR_VERDICT_AT_RISK && hr_run_below_high(x->need, with_gap(c->capacity_bytes, x->gap))) {
        /* below the high end itself: the run as it is may die, the extras are not needed */
        char hi[32];
        hr_size_gb(hr_sat_add(x->need->high, x->need->others), hi, sizeof hi);
        hr_msg_set(t,
                   HR_N("this machine can back %s, under the %s that the high end of %s's need and the other "
                        "programs take: the run may die as it is (it must back %s with the margin)"),
                   x->cap, hi, x->wl, mb);
        says_names(x, t, 2, -1);
    } else if (c->verdict == HR_VERDICT_AT_RISK) {
        hr_msg_set(t,
                   HR_N("this machine can back %s, under the %s it must back for %s (the high end of its need, the "
                        "other programs and the margin): ControlNet, LoRAs, upscaling or a batch can tip it over"),
                   x->cap, mb, x->wl);
        says_names(x, t, 2, -1);
    } else if (c->verdict == HR_VERDICT_OK) {
        hr_msg_set(t, HR_N("this machine can back %s; %s needs at most %s with the other programs and the margin"),
                   x->cap, x->wl, mb);
        says_names(x, t, 1, -1);
    } else {
        hr_msg_set(t, HR_N("how much this machine can back is not known (%s)"),
                   hr_check_capacity_msgid(c->capacity_basis));
        hr_msg_translate_arg(t, 0);
    }
}

/* Part 1: what the machine can back against what the workload needs (S1.1, S4.1). */
static void judge_capacity(const hr_plan_inputs *in, judge_ctx *x, hr_check *c)
{
    const hr_plan_facts *f = &x->p->facts;
    c->workload = f->workload == HR_WORKLOAD_NONE ? HR_WORKLOAD_SDXL : f->workload;
    c->workload_assumed = f->workload == HR_WORKLOAD_NONE && !in->peak_label[0];
    hr_strlcpy(c->workflow, in->peak_label, sizeof c->workflow);
    c->need_bytes = x->need->high;
    need_basis(in, f, c);

    c->charge_bytes = x->st ? x->st->ceiling_facts.commit.charge_bytes : HR_UNKNOWN;
    c->capacity_bytes = capacity_now(x->st, x->p, &c->capacity_basis);
    c->capacity_after_bytes = capacity_after(x->st, x->p);
    /* A memory cgroup's limit holds what runs inside it: the programs outside it count against
     * RAM and swap, not against the limit the run is judged by (X.cgroup). */
    if (c->capacity_basis == HR_CAP_CGROUP && c->need.known && c->need.others_basis == HR_OTHERS_MEASURED)
        hr_run_need_make(&c->need, c->need.low, c->need.high, 0, HR_OTHERS_OUTSIDE_CGROUP);
    /* RAM is judged at its size class: the 0.1-0.4 GB a "16 GB" machine does not report never
     * flips the verdict (docs/check.md). A cgroup's limit is its own number. */
    x->gap = f->ram_class_bytes != HR_UNKNOWN && f->ram_bytes != HR_UNKNOWN && f->ram_class_bytes > f->ram_bytes &&
                     c->capacity_basis != HR_CAP_CGROUP
                 ? f->ram_class_bytes - f->ram_bytes
                 : 0;
    c->verdict_after = judge(with_gap(c->capacity_after_bytes, x->gap), x->need);
    c->verdict = judge(with_gap(c->capacity_bytes, x->gap), x->need);
    /* A plan with no drive to put the file on is not offered as a way out: what it would give is
     * said as what is needed, and the verdict after it is the verdict now. */
    c->plan_feasible = !(x->st && f->volumes_known && !x->p->recommended.target_known && !f->in_container && !f->wsl2 &&
                         !f->cgroup_limited);
    c->verdict_if_room = c->verdict_after;

    hr_size_gb(c->capacity_bytes, x->cap, sizeof x->cap);
    hr_size_gb(x->need->fail_below, x->fail_below, sizeof x->fail_below);
    hr_size_gb(x->need->must_back, x->must_back, sizeof x->must_back);
    x->wl_msgid = !c->workflow[0];
    x->wl = c->workflow[0] ? c->workflow : hr_workload_label_msgid(c->workload);
    x->tier3 = f->os == HR_OS_WINDOWS ? HR_N("paging file") : HR_N("swap");
    verdict_says(x, c);
}

/* Part 2: facts that move the verdict whatever the sizes (S1.2, S2.3, S3.2, S5.4), each a
 * predicate over the judged machine; the first that holds for the verdict so far moves it. */

/* Windows' automatic file may still grow enough, but late (S1.2). */
static bool auto_may_grow(const judge_ctx *x, hr_check *c)
{
    (void)c;
    return x->st && x->p->facts.os == HR_OS_WINDOWS &&
           (hr_plan_find_warning(x->p, HR_PW_AUTO_MANAGED) || hr_plan_find_warning(x->p, HR_PW_AUTO_FULL_SYSTEM)) &&
           automatic_potential(x->st, x->p) >= x->need->fail_below;
}

static void says_auto(const judge_ctx *x, hr_check *c)
{
    hr_msg_set(&c->verdict_msg,
               HR_N("this machine can back %s now, below the %s that even the low end of %s's need and the other "
                    "programs take; the automatic paging file may grow, but only after commit passes 90 %% and often "
                    "too late"),
               x->cap, x->fail_below, x->wl);
    says_names(x, &c->verdict_msg, 2, -1);
}

/* A ranged custom file (initial < maximum) grows to its maximum when commit needs it, with a
 * stall each time (S3.2): AT RISK, not WILL FAIL, when the maximum would be enough. */
static bool ranged_may_grow(const judge_ctx *x, hr_check *c)
{
    if (!x->st || x->p->facts.os != HR_OS_WINDOWS || x->p->facts.restart_pending)
        return false;
    return x->growth &&
           judge(with_gap(hr_sat_add(c->capacity_bytes, x->growth), x->gap), x->need) != HR_VERDICT_WILL_FAIL;
}

static void says_ranged(const judge_ctx *x, hr_check *c)
{
    char g[32];
    hr_size_gb(hr_sat_add(c->capacity_bytes, x->growth), g, sizeof g);
    hr_msg_set(&c->verdict_msg,
               HR_N("this machine can back %s now, %s once the ranged paging file has grown to its maximum, of the "
                    "%s it must back for %s; each growth stalls the run"),
               x->cap, g, x->must_back, x->wl);
    says_names(x, &c->verdict_msg, 3, -1);
}

/* The plan's warnings that make a run fragile whatever the sizes, most serious first. */
static const hr_plan_line *hazard(const hr_plan *p)
{
    static const hr_plan_warning hazards[] = { HR_PW_AUTO_FULL_SYSTEM, HR_PW_PAGING_ON_REMOVABLE, HR_PW_TEMP_PAGE_FILE,
                                               HR_PW_AUTO_MANAGED, HR_PW_PAGING_DRIVE_FULL };
    for (size_t i = 0; i < sizeof hazards / sizeof hazards[0]; i++) {
        const hr_plan_line *w = hr_plan_find_warning(p, hazards[i]);
        if (w)
            return w;
    }
    return NULL;
}

static bool has_hazard(const judge_ctx *x, hr_check *c)
{
    (void)c;
    return x->hazard != NULL;
}

static void says_hazard(const judge_ctx *x, hr_check *c)
{
    const hr_plan_line *w = x->hazard;
    hr_strlcpy(c->verdict_rule, w->rule, sizeof c->verdict_rule);
    c->verdict_msg = w->msg; /* the warning's own words, worded where it is shown */
}

/* Commit near the limit now, where the limit is enforced (S2.3). */
static bool commit_near_limit(const judge_ctx *x, hr_check *c)
{
    const hr_commit *cm = x->st ? &x->st->ceiling_facts.commit : NULL;
    const bool enforced = x->p->facts.os == HR_OS_WINDOWS || (cm && cm->overcommit_mode == HR_OVERCOMMIT_NEVER);
    return cm && enforced && c->charge_bytes != HR_UNKNOWN && cm->limit_bytes != HR_UNKNOWN && cm->limit_bytes &&
           c->charge_bytes >= cm->limit_bytes / 10 * 9;
}

static void says_commit(const judge_ctx *x, hr_check *c)
{
    hr_msg_set(&c->verdict_msg,
               HR_N("commit is at %llu %% of the limit right now: one more model load and allocations fail"),
               (unsigned long long)(c->charge_bytes / (x->st->ceiling_facts.commit.limit_bytes / 100)));
}

/* OK never comes with a plan that would change something: the machine backs the estimate,
 * but not what the rules ask — no backstop, or a file in the wrong place. */
static bool plan_would_change(const judge_ctx *x, hr_check *c)
{
    (void)c;
    const hr_plan_facts *f = &x->p->facts;
    const bool plan_changes = !x->p->nothing_to_change && !f->in_container && !f->cgroup_limited && !f->wsl2;
    return x->st && plan_changes;
}

static void says_plan(const judge_ctx *x, hr_check *c)
{
    char b[32];
    hr_strlcpy(c->verdict_rule, sizing_rule(&x->p->recommended), sizeof c->verdict_rule);
    hr_size_gb(x->p->recommended.maximum_bytes, b, sizeof b);
    if (x->p->facts.disk_paging_bytes == 0)
        hr_msg_set(&c->verdict_msg,
                   HR_N("this machine can back %s with RAM alone, but with no %s there is no backstop when a run goes "
                        "past the estimate: the rules ask for %s"),
                   x->cap, x->tier3, b);
    else
        hr_msg_set(&c->verdict_msg,
                   HR_N("this machine can back %s, enough for the estimate, but the %s is not what the rules ask: "
                        "%s, as headroom plan says"),
                   x->cap, x->tier3, b);
    says_names(x, &c->verdict_msg, -1, 1);
}

/* In order: a row applies when the verdict so far is `from` and its predicate holds; it sets
 * `to`, the rule (NULL: says() sets the one its evidence cites) and the sentence. */
static const struct downgrade {
    hr_check_verdict from;
    bool (*holds)(const judge_ctx *x, hr_check *c);
    hr_check_verdict to;
    const char *rule;
    void (*says)(const judge_ctx *x, hr_check *c);
} downgrades[] = {
    { HR_VERDICT_WILL_FAIL, auto_may_grow, HR_VERDICT_AT_RISK, "S1.2", says_auto },
    { HR_VERDICT_WILL_FAIL, ranged_may_grow, HR_VERDICT_AT_RISK, "S3.2", says_ranged },
    { HR_VERDICT_OK, has_hazard, HR_VERDICT_AT_RISK, NULL, says_hazard },
    { HR_VERDICT_OK, commit_near_limit, HR_VERDICT_AT_RISK, "S2.3", says_commit },
    { HR_VERDICT_OK, plan_would_change, HR_VERDICT_AT_RISK, NULL, says_plan },
};

static void apply_downgrades(const judge_ctx *x, hr_check *c)
{
    for (size_t i = 0; i < sizeof downgrades / sizeof downgrades[0]; i++) {
        const struct downgrade *d = &downgrades[i];
        if (c->verdict != d->from || !d->holds(x, c))
            continue;
        c->verdict = d->to;
        if (d->rule)
            hr_strlcpy(c->verdict_rule, d->rule, sizeof c->verdict_rule);
        d->says(x, c);
    }
}

/* Part 3: the one to three things to do, most useful first. */

/* The plan's one step when it is not "set the file": a restart, a limit, WSL, room. */
static bool todo_not_a_file(const hr_status *st, const hr_plan *p, hr_check *c, const char *size)
{
    const hr_plan_facts *f = &p->facts;
    char id_rule[48], b[32], a[32];
    if (p->step_count > 0 && (strcmp(p->steps[0].id, "restart") == 0 || strcmp(p->steps[0].id, "swapon-all") == 0)) {
        /* Set already, waiting for a restart (S5.1): that one step, not the procedure again. */
        snprintf(id_rule, sizeof id_rule, "%s|S5.1", p->steps[0].id);
        if (f->os == HR_OS_WINDOWS)
            TODO(id_rule,
                 HR_N("restart Windows (Start → Power → Restart, not Shut down: Fast Startup keeps the old "
                      "session): the %s paging file on %s is set and takes effect then"),
                 size, p->recommended.target);
        else
            TODO(id_rule, HR_N("switch on the swap /etc/fstab already names: sudo swapon -a (or restart)"));
    } else if (f->cgroup_limited) {
        /* the limit that makes the cgroup back what the run must: less the swap it may use */
        const uint64_t max = st ? st->ceiling_facts.cgroup_memory_max_bytes : HR_UNKNOWN;
        uint64_t want = c->need.known ? c->need.must_back : c->need_bytes;
        if (c->capacity_basis == HR_CAP_CGROUP && max != HR_UNKNOWN && c->capacity_bytes != HR_UNKNOWN &&
            c->capacity_bytes > max && want > c->capacity_bytes - max)
            want -= c->capacity_bytes - max;
        hr_size_gb(max, b, sizeof b);
        hr_size_gb(want, a, sizeof a);
        const bool may_swap = st && st->ceiling_facts.cgroup_swap_max_bytes != 0;
        TODO("raise-limit|X.cgroup",
             may_swap ? HR_N("raise this container's memory limit (now %s) to at least %s, or give it more swap: it "
                             "may use the swap there is")
                      : HR_N("raise this container's memory limit (now %s) to at least %s: swap cannot "
                             "help until then"),
             b, a);
    } else if (f->wsl2) {
        TODO("wslconfig|X.wsl2",
             HR_N("set swap=%lluGB under [wsl2] in %%UserProfile%%\\.wslconfig, then wsl --shutdown "
                  "(headroom plan shows the steps)"),
             (unsigned long long)(p->recommended.maximum_bytes >> 30));
    } else if (!p->recommended.target_known && p->candidate_count > 0) {
        hr_plan_line_tr(TODO("make-room|S4.3",
                             f->os == HR_OS_WINDOWS
                                 ? HR_N("make room for a %s %s: free space on an SSD, or add one (or shrink a volume "
                                        "in Disk Management to make a partition for it)")
                                 : HR_N("make room for a %s %s: free space on an SSD, or add one"),
                             size, f->os == HR_OS_WINDOWS ? HR_N("paging file") : HR_N("swap file")),
                        1);
    } else {
        return false;
    }
    return true;
}

/* The plan's one step: set the paging file, or add or move swap. */
static void todo_file(const hr_plan *p, hr_check *c, const char *size)
{
    const hr_plan_recommended *r = &p->recommended;
    char id_rule[48], b[32];
    if (p->facts.os == HR_OS_WINDOWS) {
        snprintf(id_rule, sizeof id_rule, "set-paging|%s", sizing_rule(r));
        hr_plan_line *l =
            TODO(id_rule, HR_N("set a %s %s paging file on %s — headroom plan shows the exact steps"), size,
                 r->fixed ? HR_N("fixed") : HR_N("ranged"), r->target_known ? r->target : HR_N("a non-system SSD"));
        hr_plan_line_tr(l, 1);
        if (!r->target_known)
            hr_plan_line_tr(l, 2);
    } else if (r->add_bytes == 0 && p->removal_count > 0) {
        /* The swap kept already covers the size: what is left is moving off a bad place. */
        snprintf(id_rule, sizeof id_rule, "remove-swap|%s", p->removals[0].rule);
        char list[256] = "";
        for (int i = 0; i < p->removal_count; i++) { /* the files themselves, not cut out of a sentence */
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", p->removal_paths[i]);
        }
        TODO(id_rule,
             HR_N("switch off the swap on %s: the swap kept covers %s — headroom plan shows the exact "
                  "commands"),
             list, size);
    } else {
        snprintf(id_rule, sizeof id_rule, "add-swap|%s", sizing_rule(r));
        hr_size_gb(r->add_bytes, b, sizeof b);
        hr_plan_line_tr(TODO(id_rule, HR_N("add a %s swap file%s%s — headroom plan shows the exact commands"), b,
                             r->target_known ? HR_N(" at ") : "", r->target_known ? r->target_path : ""),
                        1);
    }
}

static void todo_list(const hr_status *st, const hr_plan *p, hr_check *c)
{
    const hr_plan_facts *f = &p->facts;
    const hr_plan_recommended *r = &p->recommended;
    char a[32];
    const bool plan_helps =
        !p->nothing_to_change &&
        (c->verdict != HR_VERDICT_OK || hr_plan_find_warning(p, HR_PW_AUTO_MANAGED) ||
         hr_plan_find_warning(p, HR_PW_AUTO_FULL_SYSTEM) || hr_plan_find_warning(p, HR_PW_PAGING_ON_REMOVABLE));
    hr_size_gb(r->maximum_bytes, a, sizeof a);
    if (plan_helps && !todo_not_a_file(st, p, c, a))
        todo_file(p, c, a);
    const hr_plan_line *full = hr_plan_find_warning(p, HR_PW_PAGING_DRIVE_FULL);
    if (r->room_capped && r->target_known && !full && (plan_helps || c->verdict != HR_VERDICT_OK)) {
        hr_size_gb(r->wanted_bytes, a, sizeof a);
        TODO("more-room|S4.3",
             f->os == HR_OS_WINDOWS
                 ? HR_N("then make room on %s for the full %s: free space there, or shrink a volume in Disk "
                        "Management to make a partition for it")
                 : HR_N("then make room on %s for the full %s: free space there"),
             r->target, a);
    }
    if (full) {
        hr_plan_line *l = TODO("free-room|S3.3", "%s", "");
        if (l)
            l->msg = full->msg; /* the warning's own words, worded where it is shown */
    }
    if (c->verdict != HR_VERDICT_OK || (f->ram_bytes != HR_UNKNOWN && c->others_commit_bytes >= f->ram_bytes / 10))
        todo_close_apps(c);
    if (r->upgrade_ram_first)
        TODO("upgrade-ram|S4.1", HR_N("upgrade RAM to 16 GB or more: the paging file keeps runs alive, but slowly"));
    if (hr_plan_find_warning(p, HR_PW_ON_BATTERY))
        TODO("plug-in|S4.3", HR_N("plug in: on battery, power saving throttles CPU, GPU and paging"));
    if (hr_plan_find_warning(p, HR_PW_HDD_ONLY))
        TODO("add-ram|S3.3", HR_N("add RAM: with only an HDD, paging can be slower than none"));
    /* AT RISK or WILL FAIL never comes with "Nothing to do". */
    if (c->todo_count == 0 && (c->verdict == HR_VERDICT_AT_RISK || c->verdict == HR_VERDICT_WILL_FAIL)) {
        if (strcmp(c->verdict_rule, "S2.3") == 0)
            TODO("close-programs|S5.2",
                 HR_N("close the programs you do not need before a run: commit is near the limit "
                      "now"));
        else
            TODO("measure-peak|S4.1",
                 HR_N("measure the run's peak commit (Task Manager → Performance → Memory: "
                      "Committed, or headroom status during a run) and size from it: headroom plan "
                      "--peak-commit SIZE"));
    }
}

const hr_status *hr_check_judged(const hr_check *c)
{
    return c->has_status && !c->plan->facts.hypothetical ? &c->status : NULL;
}

void hr_check_compute(const hr_snapshot *snap, const hr_plan_inputs *in, const hr_plan *p, hr_check *c)
{
    memset(c, 0, sizeof *c);
    c->plan = p;
    /* The one read of the snapshot: everything below judges the report and the plan. */
    c->has_status = snap != NULL;
    if (snap)
        hr_status_compute(snap, &c->status);
    const hr_status *st = hr_check_judged(c);
    c->need = p->recommended.need;
    judge_ctx x = { .st = st, .p = p, .need = &c->need, .growth = st ? ranged_growth(st) : 0, .hazard = hazard(p) };
    judge_capacity(in, &x, c);
    list_others(st, c);
    apply_downgrades(&x, c);
    todo_list(st, p, c);
    /* The verdict with the plan is the verdict now when the plan cannot be carried out here,
     * and never worse than now: a plan that would lower it is not offered as the way out. */
    if (c->verdict != HR_VERDICT_UNKNOWN && c->verdict_after != HR_VERDICT_UNKNOWN && c->verdict_after > c->verdict)
        c->plan_feasible = false; /* the room there is gives a file too small to help */
    if (!c->plan_feasible)
        c->verdict_after = c->verdict;
}
