/* Fuzz /proc/<pid>/cgroup parsing (v1, v2, hybrid). */
#include "core/model/cgroup_parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_proc_cgroup pc;
    hr_error err = {0};
    if (hr_parse_proc_cgroup((const char *)data, size, "/proc/self/cgroup", &pc, &err) != 0)
        return 0;
    if (!memchr(pc.v1_memory_path, '\0', sizeof pc.v1_memory_path) ||
        !memchr(pc.v2_path, '\0', sizeof pc.v2_path) || pc.v1_lines < 0)
        abort();
    if (!pc.has_v2 && pc.v2_path[0])
        abort();
    if (!pc.has_v1_memory && pc.v1_memory_path[0])
        abort();
    return 0;
}
