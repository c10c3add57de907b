/* headroom — a Unix time as UTC text, without the C library's time zone machinery (the
 * same result on every OS, and testable with any instant). */
#ifndef HR_UTC_H
#define HR_UTC_H

#include <stdbool.h>
#include <stdint.h>

#define HR_UTC_STAMP_MAX 24

/* "2024-05-01T12:00:00Z", or compact (for file names) "20240501T120000Z". Instants before
 * 1970 or after 9999 are clamped to those years' ends of the range. */
void hr_utc_stamp(int64_t unix_s, bool compact, char out[HR_UTC_STAMP_MAX]);

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), the inverse of hr_utc_stamp's date: eras
 * of 400 years counted from 1 March, so the leap day ends a year. Inline: diagnose calls it on
 * every timestamped line. */
static inline int64_t hr_utc_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

#endif
