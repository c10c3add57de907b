/* headroom — /proc/swaps parser: every active swap area (Linux tier 3, and zram). */
#ifndef HR_SWAPS_H
#define HR_SWAPS_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stddef.h>

typedef struct hr_swap_area {
    char path[HR_SNAP_PATH_MAX]; /* unescaped */
    hr_paging_kind kind;         /* file, partition, or zram (a partition named /dev/zramN) */
    uint64_t size_bytes;         /* usable size: the kernel does not count the header page */
    uint64_t used_bytes;
    int64_t priority;
} hr_swap_area;

/* Fills up to max areas; *count is how many. A header line is required; a malformed area
 * line fails with HR_EPARSE naming `what` and the line number. */
int hr_parse_swaps(const char *buf, size_t len, const char *what, hr_swap_area *out, int max, int *count,
                   hr_error *err);

#endif
