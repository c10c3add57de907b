/* headroom — the plan's lists of lines (reasons, warnings, removals, check's to-do). */
#include "core/plan/plan.h"

#include "core/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hr_plan_line_add(hr_plan_line *list, int *count, int max, const char *id_rule, const char *fmt, ...)
{
    if (*count >= max)
        return;
    hr_plan_line *l = &list[(*count)++];
    memset(l, 0, sizeof *l);
    const char *bar = strchr(id_rule, '|');
    if (bar) {
        size_t n = (size_t)(bar - id_rule);
        if (n >= sizeof l->id)
            n = sizeof l->id - 1;
        memcpy(l->id, id_rule, n);
        hr_strlcpy(l->rule, bar + 1, sizeof l->rule);
    } else {
        hr_strlcpy(l->id, id_rule, sizeof l->id);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
}

const hr_plan_line *hr_plan_find_warning(const hr_plan *p, hr_plan_warning w)
{
    for (int i = 0; i < p->warning_count; i++)
        if (p->warnings[i].warning == w)
            return &p->warnings[i];
    return NULL;
}
