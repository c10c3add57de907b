/* headroom — Unix time to UTC text (utc.h). */
#include "core/base/utc.h"

/* n decimal digits of v (0 <= v < 10^n) at *p. */
static char *digits(char *p, int v, int n)
{
    for (int i = n - 1; i >= 0; i--, v /= 10)
        p[i] = (char)('0' + v % 10);
    return p + n;
}

void hr_utc_stamp(int64_t unix_s, bool compact, char out[HR_UTC_STAMP_MAX])
{
    const int64_t max_s = INT64_C(253402300799); /* 9999-12-31T23:59:59Z */
    if (unix_s < 0)
        unix_s = 0;
    if (unix_s > max_s)
        unix_s = max_s;
    int64_t days = unix_s / 86400, secs = unix_s % 86400;
    /* Civil date from a day count: eras of 400 years (146097 days) starting on 1 March, so
     * that the leap day is the last day of a year. */
    int64_t z = days + 719468;
    int64_t era = z / 146097;
    int64_t doe = z - era * 146097;                                      /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                                    /* [0, 11], March = 0 */
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int y = (int)(yoe + era * 400 + (m <= 2));
    int hh = (int)(secs / 3600), mm = (int)(secs / 60 % 60), ss = (int)(secs % 60);
    char *p = digits(out, y, 4);
    if (!compact)
        *p++ = '-';
    p = digits(p, m, 2);
    if (!compact)
        *p++ = '-';
    p = digits(p, d, 2);
    *p++ = 'T';
    p = digits(p, hh, 2);
    if (!compact)
        *p++ = ':';
    p = digits(p, mm, 2);
    if (!compact)
        *p++ = ':';
    p = digits(p, ss, 2);
    *p++ = 'Z';
    *p = '\0';
}
