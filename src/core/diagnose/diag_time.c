/* The run's time window, from the logs' own clocks and the files' mtimes. */
#include "core/diagnose/diag_time.h"

#include "core/diagnose/diag_evidence.h"
#include "core/base/i18n.h"

#include <string.h>

/* Is the record within the run's time window? Writes the reason when not. */
bool hr_diag_in_run_window(const hr_diag_ctx *c, int64_t t, hr_msg *why)
{
    if (t <= 0)
        return true;
    if (c->window_end > 0 && t > c->window_end) {
        hr_msg_set(why, HR_N("after the run's log was last written"));
        return false;
    }
    if (c->window_start > 0 && t < c->window_start) {
        hr_msg_set(why, HR_N("before the run's log begins"));
        return false;
    }
    return true;
}

void hr_diag_set_window(hr_diag_ctx *c)
{
    int64_t start = 0, end = 0;
    const char *start_from = NULL, *end_from = NULL;
    bool mtime_end = false;
    for (size_t i = 0; i < c->ninputs; i++) {
        const hr_diag_input *in = &c->inputs[i];
        if (in->first_time && (!start || in->first_time < start)) {
            start = in->first_time;
            start_from = in->name;
        }
        int64_t e = in->mtime > in->last_time ? in->mtime : in->last_time;
        if (e && e > end) {
            end = e;
            end_from = in->name;
            mtime_end = in->mtime >= in->last_time;
        }
    }
    /* the kill comes after the last line written; a minute of slack before the start for
     * clocks that disagree, ten minutes after the end for a run that was quiet */
    c->window_start = start ? start - 60 : 0;
    c->window_end = end ? end + 600 : 0;
    hr_msg *why = &c->window_why;
    memset(why, 0, sizeof *why);
    /* whole sentences, each translated as one */
    if (start && end && mtime_end)
        hr_msg_set(why, HR_N("from the first time in %.50s to 10 min after %.50s was last written"), start_from,
                   end_from);
    else if (start && end)
        hr_msg_set(why, HR_N("from the first time in %.50s to 10 min after %.50s ends"), start_from, end_from);
    else if (end && mtime_end)
        hr_msg_set(why, HR_N("up to 10 min after %.50s was last written"), end_from);
    else if (end)
        hr_msg_set(why, HR_N("up to 10 min after %.50s ends"), end_from);
}
