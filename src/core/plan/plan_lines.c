/* headroom — the plan's lists of lines (reasons, warnings, removals, check's to-do), kept as
 * data and formatted in a language only where they are shown. */
#include "core/plan/plan.h"

#include "core/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

hr_plan_line *hr_plan_line_add(hr_plan_line *list, int *count, int max, const char *id_rule, const char *fmt, ...)
{
    if (*count >= max)
        return NULL;
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
    hr_msg_vset(&l->msg, fmt, ap);
    va_end(ap);
    return l;
}

void hr_plan_line_tr(hr_plan_line *l, int i)
{
    if (l)
        hr_msg_translate_arg(&l->msg, i);
}

/* A line is at most HR_PLAN_TEXT_MAX - 1 bytes, as when it was written into a field of that
 * size: a reader's larger buffer does not change what is shown. */
static const char *text_of(const hr_msg *m, hr_lang lang, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    hr_msg_format(m, lang, buf, cap < HR_PLAN_TEXT_MAX ? cap : HR_PLAN_TEXT_MAX);
    return buf;
}

const char *hr_plan_line_text(const hr_plan_line *l, hr_lang lang, char *buf, size_t cap)
{
    if (!l->lead[0] || cap == 0)
        return text_of(&l->msg, lang, buf, cap);
    /* lead: message, the two worded in lang and held to the line's length */
    if (cap > HR_PLAN_TEXT_MAX)
        cap = HR_PLAN_TEXT_MAX;
    int n = snprintf(buf, cap, "%s: ", l->lead_tr ? hr_tr_lang(lang, l->lead) : l->lead);
    if (n >= 0 && (size_t)n < cap)
        hr_msg_format(&l->msg, lang, buf + n, cap - (size_t)n);
    return buf;
}

const char *hr_plan_step_text(const hr_plan_step *s, hr_lang lang, char *buf, size_t cap)
{
    return text_of(&s->msg, lang, buf, cap);
}

const char *hr_plan_advice_text(const hr_plan_recommended *r, hr_lang lang, char *buf, size_t cap)
{
    return text_of(&r->target_advice, lang, buf, cap);
}

const hr_plan_line *hr_plan_find_warning(const hr_plan *p, hr_plan_warning w)
{
    for (int i = 0; i < p->warning_count; i++)
        if (p->warnings[i].warning == w)
            return &p->warnings[i];
    return NULL;
}
