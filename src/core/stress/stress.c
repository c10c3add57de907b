/* The safety gate of `stress` (docs/stress.md, rule X.margin). */
#include "core/stress/stress.h"
#include "core/base/i18n.h"

#include "core/base/size.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

#define GIB ((uint64_t)1 << 30)
#define MIB ((uint64_t)1 << 20)

const char *hr_stress_outcome_name(hr_stress_outcome o)
{
    switch (o) {
    case HR_STRESS_REFUSED: return "refused";
    case HR_STRESS_REACHED: return "reached";
    case HR_STRESS_ALLOC_FAILED: return "allocation-failed";
    case HR_STRESS_KILLED: return "killed";
    case HR_STRESS_ERROR: return "error";
    }
    return "error";
}

/* A step: as asked, else a 32nd of the total (at least 16 MiB), whole MiB; never so small
 * that the steps would not fit the report. */
static uint64_t choose_step(const hr_stress_req *rq)
{
    uint64_t total = rq->commit_bytes, step = rq->step_bytes;
    if (step == 0) {
        step = total / 32;
        if (step < HR_STRESS_MIN_STEP)
            step = HR_STRESS_MIN_STEP;
        step = (step + MIB - 1) / MIB * MIB;
    }
    uint64_t floor_step = total / HR_STRESS_MAX_STEPS + (total % HR_STRESS_MAX_STEPS ? 1 : 0);
    if (step < floor_step)
        step = floor_step;
    if (step > total)
        step = total;
    return step;
}

/* The margin kept free below the ceiling: a twentieth of it, at least 1 GiB — what the rest
 * of the machine needs to go on allocating while the test holds the remainder
 * [X.margin]. */
static uint64_t margin_of(uint64_t ceiling)
{
    uint64_t m = ceiling / 20;
    return m < GIB ? GIB : m;
}

static uint64_t free_swap(const hr_snapshot *s)
{
    uint64_t sum = 0;
    for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++) {
        const hr_paging *p = &s->paging[i];
        if (p->size_bytes == HR_UNKNOWN || p->used_bytes == HR_UNKNOWN)
            continue;
        sum = hr_sat_add(sum, p->size_bytes > p->used_bytes ? p->size_bytes - p->used_bytes : 0);
    }
    return sum;
}

void hr_stress_gate_compute(const hr_snapshot *snap, const hr_stress_req *rq, hr_stress_gate *g)
{
    memset(g, 0, sizeof *g);
    g->step_bytes = choose_step(rq);
    g->safe_bytes = HR_UNKNOWN;
    g->charge_bytes = snap->commit.charge_bytes;
    g->limit_bytes = snap->commit.limit_bytes;
    g->enforced = snap->commit.enforced == HR_TRI_YES;
    char a[32], b[32], c[32];

    /* What the test may take without pushing the machine itself over. */
    uint64_t room = HR_UNKNOWN;
    if (g->enforced) {
        /* Windows, Linux mode 2: each commit counts against the limit, touched or not. */
        if (g->charge_bytes != HR_UNKNOWN && g->limit_bytes != HR_UNKNOWN) {
            room = g->limit_bytes > g->charge_bytes ? g->limit_bytes - g->charge_bytes : 0;
            g->margin_bytes = margin_of(g->limit_bytes);
            hr_msg_set(&g->basis, HR_N("commit limit minus commit charge, less the margin (enforced commit)"));
        }
    } else if (rq->touch || rq->cgroup_bytes) {
        /* Linux modes 0/1: only touched memory is real; past RAM + free swap the OOM killer
         * acts. A cgroup keeps the kill inside it, but its size must fit the machine. */
        uint64_t avail = snap->ram.available_bytes;
        if (avail != HR_UNKNOWN && snap->paging_s.ok) {
            room = hr_sat_add(avail, free_swap(snap));
            g->margin_bytes = margin_of(snap->ram.total_bytes != HR_UNKNOWN ? snap->ram.total_bytes : room);
            hr_msg_set(&g->basis, HR_N("available RAM plus free swap, less the margin (the OOM killer decides)"));
        }
    } else {
        /* Linux modes 0/1 without --touch: commit is never refused step by step, nothing is
         * made real; safe, and it proves little — said in why. */
        g->allowed = true;
        g->safe_bytes = HR_UNKNOWN;
        hr_msg_set(&g->basis, HR_N("commit is not enforced and nothing is touched"));
        g->why_kind = HR_STRESS_WHY_NOT_ENFORCED;
        hr_msg_set(&g->why, HR_N("Linux does not refuse commit in overcommit mode 0 or 1: this only raises the "
                                 "commit charge. Add --touch (best inside --cgroup SIZE) to make the memory real."));
        return;
    }
    /* Touched pages are charged to the memory cgroup stress runs in (v1 puts --cgroup's group
     * inside it; v2 puts it under the root): its limit is a ceiling of its own, with a margin
     * of its own, for the rest of the group goes on allocating too [X.margin]. */
    const hr_cgroup *cg = &snap->cgroup;
    uint64_t cg_safe = HR_UNKNOWN;
    if (room != HR_UNKNOWN && rq->touch && !(rq->cgroup_bytes && cg->memory_version == HR_CGROUP_V2) &&
        cg->memory_version != HR_CGROUP_NONE && cg->memory_max_bytes != HR_UNKNOWN &&
        cg->memory_max_bytes != HR_UNLIMITED) {
        uint64_t used = cg->memory_current_bytes != HR_UNKNOWN ? cg->memory_current_bytes : 0;
        uint64_t cg_room = cg->memory_max_bytes > used ? cg->memory_max_bytes - used : 0;
        uint64_t cg_margin = cg->memory_max_bytes / 20 < 64 * MIB ? 64 * MIB : cg->memory_max_bytes / 20;
        cg_safe = cg_room > cg_margin ? cg_room - cg_margin : 0;
    }
    if (room == HR_UNKNOWN) {
        g->allowed = rq->force;
        g->forced = rq->force;
        g->why_kind = HR_STRESS_WHY_UNKNOWN;
        hr_msg_set(&g->why, HR_N("the commit charge and limit (or available RAM and swap) could not be read, so "
                                 "no safety margin can be kept; --force goes on anyway"));
        return;
    }
    g->safe_bytes = room > g->margin_bytes ? room - g->margin_bytes : 0;
    if (cg_safe != HR_UNKNOWN && cg_safe < g->safe_bytes) {
        g->safe_bytes = cg_safe;
        g->margin_bytes = cg->memory_max_bytes / 20 < 64 * MIB ? 64 * MIB : cg->memory_max_bytes / 20;
        hr_msg_set(&g->basis, HR_N("the memory cgroup's limit minus its usage, less the margin"));
    }
    /* With a cgroup, the test's own memory is held to the cgroup: the cgroup must fit. */
    uint64_t want = rq->commit_bytes;
    if (rq->cgroup_bytes && !g->enforced && rq->cgroup_bytes < want)
        want = rq->cgroup_bytes;
    g->want_bytes = want;
    if (want <= g->safe_bytes) {
        g->allowed = true;
        return;
    }
    g->allowed = rq->force;
    g->forced = rq->force;
    g->why_kind = HR_STRESS_WHY_TOO_BIG;
    hr_size_format(want, a, sizeof a);
    hr_size_format(g->safe_bytes, b, sizeof b);
    hr_size_format(g->margin_bytes, c, sizeof c);
    hr_msg_set(&g->why,
               HR_N("%s is more than the %s this machine can give without going under the %s "
                    "safety margin [X.margin]; --force goes on to the first failure"),
               a, b, c);
}
