#include "core/base/duration.h"
#include "core/base/i18n.h"

#include <stdbool.h>
#include <string.h>

int hr_duration_parse(const char *text, int64_t *seconds, hr_error *err)
{
    static const struct {
        const char *unit;
        int64_t secs;
    } units[] = { { "weeks", 604800 }, { "week", 604800 }, { "w", 604800 },  { "days", 86400 }, { "day", 86400 },
                  { "d", 86400 },      { "hours", 3600 },  { "hour", 3600 }, { "h", 3600 },     { "min", 60 },
                  { "m", 60 },         { "sec", 1 },       { "s", 1 } };
    const int64_t limit = (int64_t)100 * 366 * 86400;
    const char *p = text;
    int64_t total = 0;
    bool any = false;
    if (!p || !*p)
        return hr_error_set(err, HR_EPARSE, HR_T("empty duration (examples: 30m, 2h, 7d)"));
    while (*p) {
        if (*p < '0' || *p > '9')
            return hr_error_set(err, HR_EPARSE, HR_T("'%s': not a duration (examples: 30m, 2h, 7d)"), text);
        int64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (*p++ - '0');
            if (v > limit)
                return hr_error_set(err, HR_ERANGE, HR_T("'%s': longer than 100 years"), text);
        }
        int64_t mul = 0;
        if (*p == '\0') {
            mul = 1;
        } else {
            for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
                size_t k = strlen(units[i].unit);
                if (strncmp(p, units[i].unit, k) == 0 && (p[k] == '\0' || (p[k] >= '0' && p[k] <= '9'))) {
                    mul = units[i].secs;
                    p += k;
                    break;
                }
            }
        }
        if (mul == 0)
            return hr_error_set(err, HR_EPARSE, HR_T("'%s': unknown unit (use s, m, h, d or w)"), text);
        total += v * mul;
        if (total > limit)
            return hr_error_set(err, HR_ERANGE, HR_T("'%s': longer than 100 years"), text);
        any = true;
    }
    if (!any || total <= 0)
        return hr_error_set(err, HR_EPARSE, HR_T("'%s': the duration must be more than zero"), text);
    *seconds = total;
    return 0;
}
