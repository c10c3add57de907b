#include "core/model/meminfo.h"
#include "core/base/i18n.h"

#include "core/model/snapshot.h"
#include "core/base/text.h"
#include "core/base/hot.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;
    size_t len;
    size_t off;
} fields[] = {
    { "MemTotal", 8, offsetof(hr_meminfo, mem_total) },
    { "MemFree", 7, offsetof(hr_meminfo, mem_free) },
    { "MemAvailable", 12, offsetof(hr_meminfo, mem_available) },
    { "Buffers", 7, offsetof(hr_meminfo, buffers) },
    { "Cached", 6, offsetof(hr_meminfo, cached) },
    { "Shmem", 5, offsetof(hr_meminfo, shmem) },
    { "SwapTotal", 9, offsetof(hr_meminfo, swap_total) },
    { "SwapFree", 8, offsetof(hr_meminfo, swap_free) },
    { "SwapCached", 10, offsetof(hr_meminfo, swap_cached) },
    { "CommitLimit", 11, offsetof(hr_meminfo, commit_limit) },
    { "Committed_AS", 12, offsetof(hr_meminfo, committed_as) },
    { "Zswap", 5, offsetof(hr_meminfo, zswap) },
    { "Zswapped", 8, offsetof(hr_meminfo, zswapped) },
    { "Hugetlb", 7, offsetof(hr_meminfo, hugetlb) },
};

HR_HOT int hr_parse_meminfo(const char *buf, size_t len, const char *what, hr_meminfo *out, hr_error *err)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        *(uint64_t *)((char *)out + fields[i].off) = HR_UNKNOWN;
    const char *cur = buf, *end = buf + len, *line;
    size_t n;
    unsigned lineno = 0;
    while (hr_next_line(&cur, end, &line, &n)) {
        lineno++;
        const char *colon = memchr(line, ':', n);
        if (!colon)
            continue;
        size_t klen = (size_t)(colon - line);
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            if (fields[i].len != klen || fields[i].name[0] != line[0] || memcmp(fields[i].name, line, klen) != 0)
                continue;
            const char *v = colon + 1;
            size_t vn = n - klen - 1;
            /* "12345 kB": every field we use is a size in kB (KiB). A value without the
             * unit is a truncated or foreign file, not a count of bytes. */
            if (vn > 0 && v[vn - 1] == '\r')
                vn--;
            uint64_t val;
            if (vn < 2 || memcmp(v + vn - 2, "kB", 2) != 0)
                return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: %s has no kB unit (truncated?)"), what, lineno,
                                    fields[i].name);
            if (!hr_parse_u64(v, vn - 2, &val) || val > UINT64_MAX / 1024 / 2)
                return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: bad value for %s"), what, lineno,
                                    fields[i].name);
            *(uint64_t *)((char *)out + fields[i].off) = val * 1024;
            break; /* the names are distinct */
        }
    }
    return 0;
}
