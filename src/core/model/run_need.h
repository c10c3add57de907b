/* headroom — the one sizing rule: what a run needs, what the machine must back for it, and the
 * verdict (S1.1, S4.1; docs/check.md "The rule"). check, plan, estimate, export and
 * apply --from-plan (through plan) all judge with it, so they never disagree.
 *
 *   the run's need      low – high: a workflow's estimate (ComfyUI's version unknown: the range
 *                       covers every memory manager it could run), or a measured peak commit
 *   others              what other programs commit: measured now on a live machine, a stated
 *                       allowance for the OS and a browser on a what-if machine (0 when the
 *                       peak was measured system-wide: it holds them already); on a what-if
 *                       machine a range too, from a lean desktop to a busy one (others_low –
 *                       others_high), since nothing of it was read
 *   margin              HR_RUN_MARGIN_PERCENT of the high end (S4.1: ControlNet, LoRAs and
 *                       upscalers push the peak past the one measured)
 *   must back           high + others + margin, and at least high + others_high: OK holds on a
 *                       busy desktop too, never on a guess
 *
 *   verdict             WILL FAIL  capacity < low + others_low (dies even on a lean desktop)
 *                       AT RISK    capacity < must back (below the high end, or inside the margin)
 *                       OK         otherwise */
#ifndef HR_RUN_NEED_H
#define HR_RUN_NEED_H

#include "core/base/json_writer.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_RUN_MARGIN_PERCENT         25
/* A what-if machine: Windows or a Linux desktop idle with one browser open commits about this
 * much before ComfyUI starts (docs/check.md: the allowance and its sources). */
#define HR_RUN_OTHERS_ALLOWANCE_BYTES ((uint64_t)6 << 30)
/* What other programs commit is not read on a what-if machine, and real desktops spread widely
 * around the allowance (docs/check.md "Other programs on a what-if machine"): a lean one (the OS,
 * its services and the GPU driver, no browser) commits about 3 GiB, an ordinary busy one (a
 * browser with its tabs and the usual background programs) about 12 GiB. */
#define HR_RUN_OTHERS_LEAN_BYTES      ((uint64_t)3 << 30)
#define HR_RUN_OTHERS_BUSY_BYTES      ((uint64_t)12 << 30)

typedef enum hr_need_verdict {
    HR_NEED_OK = 0,
    HR_NEED_AT_RISK = 1,
    HR_NEED_WILL_FAIL = 2,
    HR_NEED_UNKNOWN = 3
} hr_need_verdict;

typedef enum hr_others_basis {
    HR_OTHERS_MEASURED = 0,  /* commit now, less ComfyUI's own */
    HR_OTHERS_ALLOWANCE,     /* a what-if machine: HR_RUN_OTHERS_ALLOWANCE_BYTES */
    HR_OTHERS_IN_PEAK,       /* a measured system-wide peak already holds them */
    HR_OTHERS_OUTSIDE_CGROUP /* judged against a memory cgroup's limit: what runs outside the
                                cgroup does not count against it (0) */
} hr_others_basis;

typedef struct hr_run_need {
    bool known;         /* false: nothing set */
    uint64_t low, high; /* the run's own need */
    uint64_t others;
    uint64_t others_low, others_high; /* the others' range: one figure unless a what-if machine */
    hr_others_basis others_basis;
    uint64_t margin;
    uint64_t fail_below; /* low + others_low */
    uint64_t must_back;  /* high + others + margin, at least high + others_high */
} hr_run_need;

/* The basis's name in JSON: "measured", "allowance", "in-peak", "outside-cgroup". */
const char *hr_others_basis_name(hr_others_basis b);
/* The need's members as every JSON document gives them (plan's and check's "need", estimate's
 * "need"), into an open object; sizes in bytes. */
void hr_run_need_json_members(const hr_run_need *n, hr_json_writer *w);

/* Fill n from the run's range and the others' part (low > high is taken as high). */
void hr_run_need_make(hr_run_need *n, uint64_t low, uint64_t high, uint64_t others, hr_others_basis basis);

/* What other programs commit now on a live machine: the commit charge (RAM used + disk swap
 * used where the OOM killer decides), less ComfyUI's own processes. HR_UNKNOWN when not read. */
uint64_t hr_run_others_now(const hr_snapshot *s, hr_os os);

/* A busy desktop's others set what must be backed (more than the allowance and the margin). */
bool hr_run_need_busy_sets(const hr_run_need *n);
/* Is capacity below the high end and the others themselves, with hr_run_judge's tolerance
 * (the run may die as it is, not only with extras)? */
bool hr_run_below_high(const hr_run_need *n, uint64_t capacity);

/* The verdict for a machine that can back capacity (HR_UNKNOWN: HR_NEED_UNKNOWN). */
hr_need_verdict hr_run_judge(const hr_run_need *n, uint64_t capacity);

/* The paging file / swap that makes the limit reach must_back, given the part of the limit
 * RAM gives: whole GiB, up; 0 when RAM alone backs it. */
uint64_t hr_run_paging_bytes(const hr_run_need *n, uint64_t ram_part);

#endif
