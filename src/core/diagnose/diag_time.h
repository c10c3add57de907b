/* headroom — time in the diagnosis (internal): the logs' own clocks, read as lines go by
 * (static inline: they run on every line), and the run's time window that system records
 * must fall in (diag_time.c). */
#ifndef HR_DIAG_TIME_H
#define HR_DIAG_TIME_H

#include "core/diagnose/diag.h"
#include "core/base/utc.h"
#include "core/diagnose/diag_text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool hr_diag_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* "2025-03-14 20:41:07" (or with a T) at s: local time → Unix seconds, 0 if not a time. */
static inline int64_t hr_diag_parse_stamp(const hr_diag_ctx *c, const char *s, size_t n)
{
    if (n < 19 || !hr_diag_digits(s, 4) || s[4] != '-' || !hr_diag_digits(s + 5, 2) || s[7] != '-' ||
        !hr_diag_digits(s + 8, 2) || (s[10] != ' ' && s[10] != 'T') || !hr_diag_digits(s + 11, 2) || s[13] != ':' ||
        !hr_diag_digits(s + 14, 2) || s[16] != ':' || !hr_diag_digits(s + 17, 2))
        return 0;
    int64_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    unsigned mo = (unsigned)((s[5] - '0') * 10 + (s[6] - '0'));
    unsigned d = (unsigned)((s[8] - '0') * 10 + (s[9] - '0'));
    int64_t h = (s[11] - '0') * 10 + (s[12] - '0');
    int64_t mi = (s[14] - '0') * 10 + (s[15] - '0');
    int64_t se = (s[17] - '0') * 10 + (s[18] - '0');
    if (y < 2000 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return 0;
    return hr_utc_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - c->tz_offset;
}

/* The log's own clock: a time at the start of a line ("[2025-03-14 20:41:07.118] ...",
 * "2025-03-14 20:41:07,118 - INFO") or ComfyUI's "** ComfyUI startup time: ...". */
static inline void hr_diag_note_time(hr_diag_ctx *c, const char *s, size_t n)
{
    if (c->input < 0 || n < 19)
        return;
    size_t i = s[0] == '[' ? 1 : 0;
    int64_t t = 0;
    if (s[i] >= '0' && s[i] <= '9')
        t = hr_diag_parse_stamp(c, s + i, n - i);
    else if (s[0] == '*' && n > 40 && hr_diag_ci_find(s, 30, "startup time: ", false)) {
        /* the segment is not NUL-terminated (it may lie in the read buffer): bounded */
        const char *p = NULL;
        for (size_t k = 0; k + 6 <= n && !p; k++)
            if (memcmp(s + k, "time: ", 6) == 0)
                p = s + k;
        if (p && (size_t)(p - s) + 6 < n)
            t = hr_diag_parse_stamp(c, p + 6, n - (size_t)(p - s) - 6);
    }
    if (t <= 0)
        return;
    hr_diag_input *in = &c->inputs[c->input];
    if (!in->first_time || t < in->first_time)
        in->first_time = t;
    if (t > in->last_time)
        in->last_time = t;
}

/* ComfyUI's "** Platform: Windows" / "** Platform: Linux": the OS the log was written on,
 * whose advice the fix gives wherever the log is read. */
static inline void hr_diag_note_platform(hr_diag_ctx *c, const char *s, size_t n)
{
    if (n < 14 || s[0] != '*' || !hr_diag_ci_find(s, n < 16 ? n : 16, "platform: ", false))
        return;
    if (hr_diag_ci_find(s, n, "windows", true))
        c->log_os = 2;
    else if (hr_diag_ci_find(s, n, "linux", true))
        c->log_os = 1;
}

/* Is the record's time t within the run's time window? Writes the reason when not. */
bool hr_diag_in_run_window(const hr_diag_ctx *c, int64_t t, hr_msg *why);

#endif
