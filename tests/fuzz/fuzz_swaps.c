/* Fuzz /proc/swaps parsing: no crash, bounded output, consistent areas. */
#include "core/model/swaps.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX = 4 };
    hr_swap_area a[MAX];
    int n = -1;
    hr_error err = {0};
    int r = hr_parse_swaps((const char *)data, size, "/proc/swaps", a, MAX, &n, &err);
    if (n < 0 || n > MAX)
        abort();
    if (r != 0)
        return 0;
    for (int i = 0; i < n; i++) {
        if (!memchr(a[i].path, '\0', sizeof a[i].path))
            abort();
        if (a[i].kind < HR_PAGING_FILE || a[i].kind > HR_PAGING_OTHER)
            abort();
        if (a[i].size_bytes % 1024 || a[i].used_bytes % 1024)
            abort();
        if (a[i].kind == HR_PAGING_ZRAM && strncmp(a[i].path, "/dev/zram", 9) != 0)
            abort();
    }
    return 0;
}
