/* headroom — /proc/meminfo parser (S2.2: the Linux side of Task Manager's memory page). */
#ifndef HR_MEMINFO_H
#define HR_MEMINFO_H

#include "core/base/error.h"

#include <stddef.h>
#include <stdint.h>

/* Bytes; HR_UNKNOWN when the kernel did not print the field (never 0 by default). */
typedef struct hr_meminfo {
    uint64_t mem_total, mem_free, mem_available, buffers, cached, shmem;
    uint64_t swap_total, swap_free, swap_cached;
    uint64_t commit_limit, committed_as;
    uint64_t zswap, zswapped;
    uint64_t hugetlb;
} hr_meminfo;

/* Parses by name, never by line number. Fails (HR_EPARSE, message naming `what` and the
 * line) on a malformed value of a field we use; unknown fields are ignored. Succeeds with
 * missing fields left HR_UNKNOWN: the caller decides which it needs. */
int hr_parse_meminfo(const char *buf, size_t len, const char *what, hr_meminfo *out, hr_error *err);

#endif
