/* headroom — running an apply plan's steps in order, the same way on every OS.
 *
 * The loop, the journal and the bookkeeping live here once; each OS gives a small table of
 * operations, one per kind of step it knows (Linux: create the file, allocate, write the
 * header, swapon, edit fstab, ...; Windows: back up the registry, write PagingFiles). For
 * every step the loop:
 *   1. clears the intent and lets the step's `prepare` say what it will change (the intent's
 *      path and journal facts, the records the step adds to the state);
 *   2. writes that intent to the state file (write-ahead: a kill from here on is finished
 *      or undone by the OS's recovery, which reads the intent);
 *   3. runs `perform`, the change itself;
 *   4. on success clears the intent, records the step as the last one done and saves;
 *      on a failure that undid itself, puts the state back as it was before step 1 and
 *      saves that; on a failure whose outcome is uncertain (a rename whose directory sync
 *      failed, a registry write) leaves the intent on disk for recovery to judge.
 * A failed save is never discarded: the step then reports it and the run stops.
 * Failpoints (tests): "NAME" stops after step NAME is recorded, "NAME!" right after its
 * change and before its record (what a kill there would leave). */
#ifndef HR_APPLY_RUN_H
#define HR_APPLY_RUN_H

#include "core/apply/apply_plan.h"
#include "core/apply/apply_state.h"
#include "core/apply/apply_store.h"
#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What prepare returns besides 0 and an error: the step has nothing to change here (an
 * old area that is not headroom's): no intent, no perform; it is recorded as done. */
#define HR_APPLY_STEP_SKIP 1

typedef struct hr_apply_op {
    hr_step_kind kind;
    /* Before the intent is written: set st->intent.path (and the journal's facts), add the
     * records the step makes. < 0 refuses the step before anything changed. NULL: nothing. */
    int (*prepare)(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err);
    /* The change, and on success its record in st. NULL: the step only records. */
    int (*perform)(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err);
    /* A failed perform may still have made its change: the intent stays on disk. */
    bool failure_uncertain;
} hr_apply_op;

typedef struct hr_apply_ops {
    const hr_apply_store *store;
    void *os; /* handed to every operation */
    const hr_apply_op *ops;
    size_t op_count;
} hr_apply_ops;

/* Run plan's steps. now_unix (the clock now) stamps a new state and the latest change (started_unix: Windows verify tells by it whether the machine has
 * restarted since). Appends "done: [name] what" per step and what failed to log.
 * 0: every step done; 1: stopped at the failpoint; < 0: a step failed (err says why). */
int hr_apply_run(const hr_apply_ops *ops, const hr_apply_plan *plan, const char *failpoint, int64_t now_unix,
                 hr_buf *log, hr_error *err);

#endif
