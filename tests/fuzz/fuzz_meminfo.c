/* Fuzz /proc/meminfo parsing: no crash, no read past the input, and every size it accepts
 * is a whole number of KiB (the kernel prints kB), or unknown. */
#include "core/model/meminfo.h"
#include "core/model/snapshot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_meminfo mi;
    hr_error err = {0};
    if (hr_parse_meminfo((const char *)data, size, "/proc/meminfo", &mi, &err) != 0) {
        if (!err.msg[0] || !memchr(err.msg, '\0', sizeof err.msg))
            abort();
        return 0;
    }
    const uint64_t *f = &mi.mem_total;
    for (size_t i = 0; i < sizeof mi / sizeof *f; i++)
        if (f[i] != HR_UNKNOWN && f[i] % 1024 != 0)
            abort();
    return 0;
}
