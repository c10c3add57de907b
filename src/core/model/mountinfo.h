/* headroom — /proc/self/mountinfo parser: which file system holds a path, on which device. */
#ifndef HR_MOUNTINFO_H
#define HR_MOUNTINFO_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct hr_mount {
    unsigned major, minor;       /* st_dev of the file system (0:N = anonymous: btrfs, tmpfs) */
    char root[HR_SNAP_PATH_MAX]; /* subtree of the fs mounted here ("/" usually; cgroup paths) */
    char mount_point[HR_SNAP_PATH_MAX];
    char mount_opts[128];
    char fs_type[32];
    char source[256]; /* "/dev/sda2", "overlay", "tmpfs" */
    char super_opts[256];
} hr_mount;

/* Parse the next mount line at *cur; returns 1 with *m filled, 0 at the end, or HR_EPARSE
 * (message naming `what` and the line number) for a malformed line. */
int hr_mountinfo_next(const char **cur, const char *end, const char *what, unsigned *lineno, hr_mount *m,
                      hr_error *err);

/* The mount that holds `path` (longest mount-point prefix; the last of equal ones, as the
 * kernel stacks them). Returns 0, HR_ENOENT, or a parse error. */
int hr_mountinfo_find(const char *buf, size_t len, const char *what, const char *path, hr_mount *out, hr_error *err);

/* Does the comma-separated option list contain opt exactly? */
bool hr_opt_has(const char *opts, const char *opt);

#endif
