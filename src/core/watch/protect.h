/* headroom — watch --protect's policy: when to ask ComfyUI to free memory, and when to
 * interrupt the prompt (docs/watch.md). A pure step: the policy's state and what watch's
 * tick knows now in, the action to take out. The link (the CLI) sends the request and says
 * what happened; whether the request succeeded does not change the policy.
 *
 *   near      commit-95, cgroup-near or time-to-limit is active: the limit is imminent
 *   stage 0   near: ask to free (POST /free), once, with the warning that made it near
 *   stage 1   near, the free has had time to settle (two intervals, at least 2 s), the fill
 *             still climbs faster than watch's climb rate and is above what it was when the
 *             free was asked: interrupt (POST /interrupt), once
 *   not near  back to stage 0: the next approach asks again
 * Pure core: no I/O, no OS headers, no allocation. */
#ifndef HR_WATCH_PROTECT_H
#define HR_WATCH_PROTECT_H

#include "core/watch/watch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hr_protect_act {
    HR_PROTECT_NONE = 0,
    HR_PROTECT_FREE,     /* POST /free: unload the models, free memory */
    HR_PROTECT_INTERRUPT /* POST /interrupt: stop the running prompt */
} hr_protect_act;

/* The policy's state between samples; zero is the start (hr_protect_init). */
typedef struct hr_protect {
    int stage;            /* 0 idle, 1 /free asked, 2 /interrupt asked */
    int64_t freed_at;     /* t_ms of the sample that asked /free */
    int64_t fill_at_free; /* the nearest limit's fill then */
} hr_protect;

/* What one sample tells the policy: watch's state after hr_watch_tick, and the warnings that
 * started firing with it. */
typedef struct hr_protect_in {
    int64_t t_ms;         /* the sample's monotonic time */
    const bool *active;   /* hr_watch.active: HR_WRULE_COUNT entries */
    const hr_warning *wr; /* the warnings that fired with this sample */
    size_t nw;
    int64_t fill;        /* hr_watch.fill */
    double slope_bps;    /* hr_watch.slope_bps */
    double climb_bps;    /* hr_watch.cfg.climb_bps */
    int64_t interval_ms; /* the sampling interval */
} hr_protect_in;

typedef struct hr_protect_decision {
    hr_protect_act act;
    const char *reason; /* the recording's "reason": a warning rule's id, or
                                 * "still-climbing" for the interrupt; NULL with no act */
} hr_protect_decision;

void hr_protect_init(hr_protect *p);
/* One sample: the action to take now, and p moved to its next state. */
hr_protect_decision hr_protect_step(hr_protect *p, const hr_protect_in *in);

#endif
