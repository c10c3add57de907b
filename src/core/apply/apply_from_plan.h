/* headroom — apply --from-plan: what apply takes from `plan`, and the dry run of it on the
 * facts of a snapshot.
 *
 * The first is the one place that turns a plan's recommendation into apply's request: the
 * CLI's --from-plan uses it on this machine, and the agreement test
 * (tests/unit/test_plan_apply_agree.c) on every recorded machine. The second builds the
 * apply planner's inputs from the snapshot the plan was made from (the volume's file system
 * and free space, the swap areas in use, the PagingFiles value) and runs the planner — what
 * `apply --from-plan` would decide on that machine, without touching one. */
#ifndef HR_APPLY_FROM_PLAN_H
#define HR_APPLY_FROM_PLAN_H

#include "core/apply/apply_plan.h"
#include "core/base/error.h"
#include "core/model/snapshot.h"
#include "core/plan/plan.h"

#include <stdint.h>

typedef struct hr_apply_take {
    char target[HR_SNAP_PATH_MAX]; /* Windows: the drive ("D:"); Linux: the new file's path */
    uint64_t size_bytes;           /* Linux: the swap file; Windows: initial = maximum (fixed) */
    uint64_t range_min_bytes;      /* Windows, when the plan is a range (0 otherwise) */
    uint64_t range_max_bytes;
    bool allow_shrink; /* the user's --allow-shrink (hr_apply_take_plan leaves it false) */
} hr_apply_take;

/* The plan's size and place for apply on os. HR_ENOENT (with a sentence) when the plan has
 * no place for it, or nothing to add. */
int hr_apply_take_plan(const hr_plan *plan, hr_os os, hr_apply_take *out, hr_error *err);

/* The apply plan for req on the machine snap describes (no state file: headroom changed
 * nothing there; an empty fstab). Returns what the planner returns: 0, or HR_EUNSAFE and
 * friends with the refusal in err. */
int hr_apply_plan_from_snapshot(const hr_snapshot *snap, const hr_apply_take *req, hr_apply_plan *out, hr_error *err);

#endif
