/* headroom — the step loop of apply, OS-neutral (apply_run.h). */
#include "core/apply/apply_run.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/base/utc.h"

#include <stdlib.h>
#include <string.h>

static const hr_apply_op *op_for(const hr_apply_ops *ops, hr_step_kind kind)
{
    for (size_t i = 0; i < ops->op_count; i++)
        if (ops->ops[i].kind == kind)
            return &ops->ops[i];
    return NULL;
}

/* "NAME!": stop after the change, before its record. */
static bool failpoint_before_record(const char *fp, const char *name)
{
    size_t n = strlen(name);
    return fp && strncmp(fp, name, n) == 0 && fp[n] == '!' && fp[n + 1] == '\0';
}

/* One step: 0 done and recorded; 1 stopped at a failpoint; < 0 failed (log says how). */
static int run_step(const hr_apply_ops *ops, hr_apply_state *st, hr_apply_state *before, const char *status_if_failed,
                    const hr_apply_plan *plan, const hr_apply_step *s, const char *failpoint, hr_buf *log,
                    hr_error *err)
{
    const hr_apply_op *op = op_for(ops, s->kind);
    char what[1400]; /* the log is text for the user: in their language */
    hr_apply_step_text(plan, (int)(s - plan->steps), hr_lang_get(), what, sizeof what);
    if (!op)
        return hr_error_set(err, HR_EINTERNAL, HR_T("step %s is not a step of this system"), s->name);
    memset(&st->intent, 0, sizeof st->intent);
    *before = *st;
    int r = op->prepare ? op->prepare(ops->os, st, plan, s, err) : 0;
    bool skip = r == HR_APPLY_STEP_SKIP;
    if (r == 0) {
        r = hr_apply_store_intent(ops->store, st, s->name, st->intent.path, err);
        if (r < 0) {
            hr_buf_printf(log,
                          HR_T("FAILED: [%s] not started: its intent could not be written "
                               "to the state file\n"),
                          s->name);
            return r;
        }
        if (op->perform)
            r = op->perform(ops->os, st, plan, s, err);
        if (r == 0 && failpoint_before_record(failpoint, s->name)) {
            hr_buf_printf(log, HR_T("stopped at failpoint '%s'\n"), failpoint);
            return 1;
        }
    } else if (skip) {
        r = 0;
    }
    if (r < 0) {
        if (op->failure_uncertain && st->intent.step[0]) {
            /* The change may be in place (the rename done, the directory's sync failed):
             * the intent on disk stays, and the next run's recovery tells by what is there
             * whether the change was made. (Clearing it once left an fstab line that
             * rollback did not know of.) */
            hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, what);
            return r;
        }
        /* The step refused, or failed and undid itself: the state as it was before it. */
        *st = *before;
        if (status_if_failed)
            hr_strlcpy(st->status, status_if_failed, sizeof st->status);
        hr_error e2 = { 0 };
        hr_apply_store_save(ops->store, st, &e2);
        hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, what);
        return r;
    }
    memset(&st->intent, 0, sizeof st->intent);
    hr_strlcpy(st->last_step, s->name, sizeof st->last_step);
    if (s->kind == HR_STEP_FINISH)
        hr_strlcpy(st->status, "applied", sizeof st->status);
    r = hr_apply_store_save(ops->store, st, err);
    hr_buf_printf(log, HR_T("done: [%s] %s\n"), s->name, what);
    if (r < 0) {
        /* The step is done and its intent is on disk: the next run finishes it. */
        hr_buf_printf(log, HR_T("FAILED: recording step [%s] as done in the state file\n"), s->name);
        return r;
    }
    if (failpoint && strcmp(failpoint, s->name) == 0) {
        hr_buf_printf(log, HR_T("stopped at failpoint '%s'\n"), s->name);
        return 1;
    }
    return 0;
}

int hr_apply_run(const hr_apply_ops *ops, const hr_apply_plan *plan, const char *failpoint, int64_t now_unix,
                 hr_buf *log, hr_error *err)
{
    if (plan->nothing_to_do)
        return 0;
    hr_apply_state *st = malloc(2 * sizeof *st); /* the state, and a copy before each step */
    if (!st)
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    int have = hr_apply_store_load(ops->store, st, err);
    if (have < 0) {
        free(st);
        return have;
    }
    if (!have) {
        hr_apply_state_init(st, plan->os);
        hr_utc_stamp(now_unix, false, st->started);
    }
    st->started_unix = now_unix; /* the latest change */
    char loaded_status[sizeof st->status];
    hr_strlcpy(loaded_status, st->status, sizeof loaded_status);
    hr_strlcpy(st->status, "in-progress", sizeof st->status);
    bool changed = false; /* a step that changes the system was done by this run */
    int r = 0;
    for (int i = 0; i < plan->step_count && r == 0; i++) {
        const hr_apply_step *s = &plan->steps[i];
        /* Nothing changed yet by this run (a repair whose swapon is refused): a failing step
         * leaves the loaded state's status as it was. */
        r = run_step(ops, st, st + 1, !changed && have ? loaded_status : NULL, plan, s, failpoint, log, err);
        if (s->kind != HR_STEP_RECORD && s->kind != HR_STEP_BACKUP_REGISTRY)
            changed = true;
    }
    free(st);
    return r;
}
