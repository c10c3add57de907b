/* Test helpers: a plan line's or step's text in the process's language (what `headroom plan`
 * prints), in one of a few rotating buffers so that one CHECK can hold two of them. */
#ifndef HR_TEST_PLAN_TEXT_H
#define HR_TEST_PLAN_TEXT_H

#include "core/plan/plan.h"

static inline char *plan_text_buf(void)
{
    static char bufs[4][HR_PLAN_TEXT_MAX];
    static unsigned next;
    return bufs[next++ % 4];
}

static inline const char *line_text(const hr_plan_line *l)
{
    return hr_plan_line_text(l, hr_lang_get(), plan_text_buf(), HR_PLAN_TEXT_MAX);
}

static inline const char *step_text_of(const hr_plan_step *s)
{
    return hr_plan_step_text(s, hr_lang_get(), plan_text_buf(), HR_PLAN_TEXT_MAX);
}

#endif
