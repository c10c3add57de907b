/* headroom — /proc/<pid>/cgroup: where a process's memory controller lives (v1, v2, hybrid). */
#ifndef HR_CGROUP_PARSE_H
#define HR_CGROUP_PARSE_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct hr_proc_cgroup {
    bool has_v1_memory; /* a "N:...memory...:/path" line */
    char v1_memory_path[HR_SNAP_PATH_MAX];
    bool has_v2; /* the "0::/path" line */
    char v2_path[HR_SNAP_PATH_MAX];
    int v1_lines; /* other v1 hierarchies (hybrid when > 0 with has_v2) */
} hr_proc_cgroup;

/* The memory controller is on v1 when a v1 line names it (hybrid layouts have both), else
 * on v2 when the "0::" line exists. */
int hr_parse_proc_cgroup(const char *buf, size_t len, const char *what, hr_proc_cgroup *out, hr_error *err);

#endif
