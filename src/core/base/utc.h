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

#endif
