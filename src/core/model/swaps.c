#include "core/model/swaps.h"
#include "core/base/i18n.h"

#include "core/base/text.h"

#include <string.h>

/* Split off the next blank-separated field of line[0..n). */
static bool field(const char **p, const char *end, const char **f, size_t *fn)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r'))
        (*p)++;
    if (*p >= end)
        return false;
    *f = *p;
    while (*p < end && **p != ' ' && **p != '\t' && **p != '\r')
        (*p)++;
    *fn = (size_t)(*p - *f);
    return true;
}

int hr_parse_swaps(const char *buf, size_t len, const char *what, hr_swap_area *out, int max, int *count, hr_error *err)
{
    const char *cur = buf, *end = buf + len, *line;
    size_t n;
    unsigned lineno = 0;
    *count = 0;
    if (!hr_next_line(&cur, end, &line, &n) || n < 8 || memcmp(line, "Filename", 8) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: header line 'Filename Type Size Used Priority' missing"), what);
    lineno = 1;
    while (hr_next_line(&cur, end, &line, &n)) {
        lineno++;
        const char *p = line, *le = line + n, *f[5];
        size_t fn[5];
        int k = 0;
        while (k < 5 && field(&p, le, &f[k], &fn[k]))
            k++;
        if (k == 0)
            continue;
        const char *extra;
        size_t extran;
        if (k < 5 || field(&p, le, &extra, &extran))
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: expected 5 fields (path type size used priority)"),
                                what, lineno);
        if (*count >= max)
            return hr_error_set(err, HR_ETOOBIG, HR_T("%s: more than %d swap areas"), what, max);
        hr_swap_area *a = &out[*count];
        memset(a, 0, sizeof *a);
        hr_unescape_octal(f[0], fn[0], a->path, sizeof a->path);
        uint64_t size_kib, used_kib;
        if (!hr_parse_u64(f[2], fn[2], &size_kib) || !hr_parse_u64(f[3], fn[3], &used_kib) ||
            size_kib > UINT64_MAX / 1024 || used_kib > UINT64_MAX / 1024 || !hr_parse_i64(f[4], fn[4], &a->priority))
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: size, used and priority must be numbers"), what,
                                lineno);
        a->size_bytes = size_kib * 1024;
        a->used_bytes = used_kib * 1024;
        if (fn[1] == 4 && memcmp(f[1], "file", 4) == 0)
            a->kind = HR_PAGING_FILE;
        else if (fn[1] == 9 && memcmp(f[1], "partition", 9) == 0)
            a->kind = strncmp(a->path, "/dev/zram", 9) == 0 ? HR_PAGING_ZRAM : HR_PAGING_PARTITION;
        else
            a->kind = HR_PAGING_OTHER;
        (*count)++;
    }
    return 0;
}
