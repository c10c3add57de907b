/* headroom — durations people type: "90s", "30m", "2h", "7d", "1w", "1h30m"; a bare number
 * is seconds. */
#ifndef HR_DURATION_H
#define HR_DURATION_H

#include "core/base/error.h"

#include <stdint.h>

/* HR_EPARSE (message quotes the text) on anything else; HR_ERANGE past 100 years. */
int hr_duration_parse(const char *text, int64_t *seconds, hr_error *err);

#endif
