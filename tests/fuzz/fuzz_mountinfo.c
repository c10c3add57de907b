/* Fuzz mountinfo parsing: line by line and the longest-prefix lookup. The found mount's
 * mount point must be a prefix of the path looked up, at a component boundary. */
#include "core/model/mountinfo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_terminated(const hr_mount *m)
{
    if (!memchr(m->root, '\0', sizeof m->root) || !memchr(m->mount_point, '\0', sizeof m->mount_point) ||
        !memchr(m->mount_opts, '\0', sizeof m->mount_opts) || !memchr(m->fs_type, '\0', sizeof m->fs_type) ||
        !memchr(m->source, '\0', sizeof m->source) || !memchr(m->super_opts, '\0', sizeof m->super_opts))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = (const char *)data, *cur = buf, *end = buf + size;
    unsigned lineno = 0, lines = 0;
    hr_mount m;
    hr_error err = {0};
    int r;
    while ((r = hr_mountinfo_next(&cur, end, "mountinfo", &lineno, &m, &err)) == 1) {
        check_terminated(&m);
        if (++lines > size)
            abort(); /* every call consumes at least one line */
        (void)hr_opt_has(m.super_opts, "memory");
        (void)hr_opt_has(m.mount_opts, "ro");
    }
    if (r != 0 && r != HR_EPARSE)
        abort();
    static const char *paths[] = {"/", "/swapfile", "/home/alice/swap file", "/sys/fs/cgroup/memory.max", ""};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (hr_mountinfo_find(buf, size, "mountinfo", paths[i], &m, &err) != 0)
            continue;
        check_terminated(&m);
        size_t l = strlen(m.mount_point);
        if (strncmp(m.mount_point, paths[i], l) != 0)
            abort();
        if (!(l == 1 && m.mount_point[0] == '/') && paths[i][l] != '/' && paths[i][l] != '\0')
            abort();
    }
    return 0;
}
