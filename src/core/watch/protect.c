/* headroom — watch --protect's policy (protect.h). */
#include "core/watch/protect.h"

#include <string.h>

/* The rules that say the limit is imminent. When none of them fired with this sample (one was
 * already active), the reason is the first active of commit-95, cgroup-near, time-to-limit. */
static bool near_rule(hr_wrule r)
{
    return r == HR_WRULE_COMMIT95 || r == HR_WRULE_TTL || r == HR_WRULE_CGROUP;
}

void hr_protect_init(hr_protect *p)
{
    memset(p, 0, sizeof *p);
}

hr_protect_decision hr_protect_step(hr_protect *p, const hr_protect_in *in)
{
    hr_protect_decision d = { HR_PROTECT_NONE, NULL };
    const bool *a = in->active;
    if (!(a[HR_WRULE_COMMIT95] || a[HR_WRULE_TTL] || a[HR_WRULE_CGROUP])) {
        p->stage = 0;
        return d;
    }
    if (p->stage == 0) {
        /* the warning that fired now names why; else the one that stayed active */
        for (size_t i = 0; i < in->nw && !d.reason; i++)
            if (near_rule(in->wr[i].rule))
                d.reason = hr_wrule_id(in->wr[i].rule);
        if (!d.reason)
            d.reason = hr_wrule_id(a[HR_WRULE_COMMIT95] ? HR_WRULE_COMMIT95
                                   : a[HR_WRULE_CGROUP] ? HR_WRULE_CGROUP
                                                        : HR_WRULE_TTL);
        d.act = HR_PROTECT_FREE;
        p->stage = 1;
        p->freed_at = in->t_ms;
        p->fill_at_free = in->fill;
        return d;
    }
    /* ComfyUI frees between prompts: a prompt that keeps growing has to stop */
    int64_t settle = 2 * in->interval_ms < 2000 ? 2000 : 2 * in->interval_ms;
    if (p->stage == 1 && in->t_ms - p->freed_at >= settle && in->slope_bps > in->climb_bps &&
        in->fill > p->fill_at_free) {
        d.act = HR_PROTECT_INTERRUPT;
        d.reason = "still-climbing";
        p->stage = 2;
    }
    return d;
}
