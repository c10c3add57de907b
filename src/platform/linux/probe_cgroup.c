/* Container / cgroup limits that cap the process before RAM does: v1, v2 and hybrid. */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/model/cgroup_parse.h"
#include "core/model/mountinfo.h"
#include "core/base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Find the mount of the memory hierarchy: cgroup2, or cgroup v1 with the memory option.
 * Returns 1 when found, 0 when not, or the parse error of a malformed line before it. */
static int find_mount(const char *buf, size_t len, bool v2, hr_mount *out, hr_error *err)
{
    const char *cur = buf, *end = buf + len;
    unsigned lineno = 0;
    hr_mount m;
    int r;
    while ((r = hr_mountinfo_next(&cur, end, "/proc/self/mountinfo", &lineno, &m, err)) == 1) {
        if (v2 ? strcmp(m.fs_type, "cgroup2") == 0
               : strcmp(m.fs_type, "cgroup") == 0 && hr_opt_has(m.super_opts, "memory")) {
            *out = m;
            return 1;
        }
    }
    return r;
}

static uint64_t min_limit(uint64_t a, uint64_t b)
{
    if (a == HR_UNKNOWN)
        return b;
    if (b == HR_UNKNOWN)
        return a;
    return a < b ? a : b;
}

/* Read FILE in dir and every parent up to the mount root: the effective limit is the
 * smallest on the path (a child's "max" does not lift a parent's limit). Levels without the
 * file (the root) are skipped; a file that is there but does not hold a number makes the
 * limit unknown (that level might be the lowest) and is named in the section. */
static uint64_t walk_limit(const char *sysroot, const char *mountp, const char *rel, const char *file, hr_section *sec)
{
    char path[HR_SNAP_PATH_MAX * 2];
    char r[HR_SNAP_PATH_MAX];
    hr_strlcpy(r, rel, sizeof r);
    uint64_t best = HR_UNKNOWN;
    bool bad = false;
    for (;;) {
        snprintf(path, sizeof path, "%s%s/%s", mountp, strcmp(r, "/") == 0 ? "" : r, file);
        char v[64] = "";
        uint64_t x;
        if (hr_lx_read_str(sysroot, path, v, sizeof v) && hr_parse_limit(v, strlen(v), &x))
            best = min_limit(best, x);
        else if (hr_lx_exists(sysroot, path) && !bad) {
            bad = true;
            hr_section_fail(sec, HR_N("%s: not a limit ('%.20s')"), path, v);
        }
        char *slash = strrchr(r, '/');
        if (!slash || strcmp(r, "/") == 0)
            break;
        if (slash == r)
            r[1] = '\0';
        else
            *slash = '\0';
    }
    return bad ? HR_UNKNOWN : best;
}

static uint64_t read_num(const char *sysroot, const char *dir, const char *file)
{
    char path[HR_SNAP_PATH_MAX * 2], v[64];
    uint64_t x;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (hr_lx_read_str(sysroot, path, v, sizeof v) && hr_parse_limit(v, strlen(v), &x))
        return x;
    return HR_UNKNOWN;
}

/* Where this process's memory controller lives: /proc/self/cgroup names the hierarchy and
 * the path, mountinfo where that hierarchy is mounted. Fills g->memory_version, hybrid and
 * path as it learns them, then g->dir (sysroot-relative), *m (the mount) and *rel (the path
 * below the mount, "/" for its root; points into g->path). 1: found; 0: the process has no
 * memory controller (HR_CGROUP_NONE); < 0: err names the file and what is wrong. */
static int locate_memory_cgroup(const char *sysroot, hr_cgroup *g, hr_mount *m, const char **rel, hr_error *err)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_proc_cgroup pc;
    int r = hr_lx_read(sysroot, "/proc/self/cgroup", &b, HR_LX_SMALL_FILE, err);
    if (r == 0)
        r = hr_parse_proc_cgroup(hr_buf_str(&b), b.len, "/proc/self/cgroup", &pc, err);
    if (r != 0) {
        hr_buf_free(&b);
        return r;
    }
    g->hybrid = pc.has_v2 && pc.v1_lines > 0;
    bool v1 = pc.has_v1_memory;
    if (!v1 && !pc.has_v2) {
        g->memory_version = HR_CGROUP_NONE;
        hr_buf_free(&b);
        return 0;
    }
    g->memory_version = v1 ? HR_CGROUP_V1 : HR_CGROUP_V2;
    hr_strlcpy(g->path, v1 ? pc.v1_memory_path : pc.v2_path, sizeof g->path);

    r = hr_lx_read(sysroot, "/proc/self/mountinfo", &b, HR_LX_BIG_FILE, err);
    if (r == 0)
        r = find_mount(hr_buf_str(&b), b.len, !v1, m, err);
    hr_buf_free(&b);
    if (r == 0)
        r = hr_error_set(err, HR_ENOENT, HR_T("no %s mount for the memory controller in /proc/self/mountinfo"),
                         v1 ? HR_T("cgroup (memory)") : "cgroup2");
    if (r < 0)
        return r;
    /* Inside a cgroup namespace the mount's root is the namespace root: strip it. */
    const char *rp = g->path;
    size_t rootn = strlen(m->root);
    if (rootn > 1 && strncmp(rp, m->root, rootn) == 0 && (rp[rootn] == '/' || rp[rootn] == '\0'))
        rp += rootn;
    if (!*rp)
        rp = "/";
    *rel = rp;
    snprintf(g->dir, sizeof g->dir, "%s%s", m->mount_point, strcmp(rp, "/") == 0 ? "" : rp);
    return 1;
}

bool hr_lx_memory_cgroup_dir(const char *sysroot, char *dir, size_t n, hr_cgroup_version *v)
{
    hr_cgroup g;
    hr_mount m;
    const char *rel;
    memset(&g, 0, sizeof g);
    if (locate_memory_cgroup(sysroot, &g, &m, &rel, NULL) != 1)
        return false;
    hr_strlcpy(dir, g.dir, n);
    *v = g.memory_version;
    return true;
}

void hr_lx_probe_cgroup(const char *sysroot, hr_snapshot *s)
{
    hr_cgroup *g = &s->cgroup;
    hr_error err = { 0 };
    hr_mount m;
    const char *rel = "/";
    int r = locate_memory_cgroup(sysroot, g, &m, &rel, &err);
    if (r < 0) {
        hr_section_fail_error(&g->s, &err);
        return;
    }
    if (r == 0) {
        hr_section_ok(&g->s, "/proc/self/cgroup");
        g->memory_max_bytes = g->swap_max_bytes = HR_UNLIMITED;
        return;
    }
    bool v1 = g->memory_version == HR_CGROUP_V1;
    if (!hr_lx_exists(sysroot, g->dir)) {
        hr_section_fail(&g->s, HR_N("%s: cgroup directory not found"), g->dir);
        return;
    }
    hr_section_ok(&g->s, v1 ? HR_N("cgroup v1 memory controller") : "cgroup v2");
    char evbuf[4096];
    char path[HR_SNAP_PATH_MAX * 2];
    if (v1) {
        g->memory_max_bytes = walk_limit(sysroot, m.mount_point, rel, "memory.limit_in_bytes", &g->s);
        g->memsw_max_bytes = walk_limit(sysroot, m.mount_point, rel, "memory.memsw.limit_in_bytes", &g->s);
        g->memory_current_bytes = read_num(sysroot, g->dir, "memory.usage_in_bytes");
        g->memory_peak_bytes = read_num(sysroot, g->dir, "memory.max_usage_in_bytes");
        g->memory_high_bytes = HR_UNKNOWN; /* v1 has no memory.high */
        g->swap_max_bytes = HR_UNKNOWN;
        snprintf(path, sizeof path, "%s/memory.oom_control", g->dir);
        uint64_t k;
        if (hr_lx_read_str(sysroot, path, evbuf, sizeof evbuf) && hr_kv_u64(evbuf, strlen(evbuf), "oom_kill", ' ', &k))
            g->oom_kills = k;
    } else {
        g->memory_max_bytes = walk_limit(sysroot, m.mount_point, rel, "memory.max", &g->s);
        g->memory_high_bytes = walk_limit(sysroot, m.mount_point, rel, "memory.high", &g->s);
        g->swap_max_bytes = walk_limit(sysroot, m.mount_point, rel, "memory.swap.max", &g->s);
        g->memory_current_bytes = read_num(sysroot, g->dir, "memory.current");
        g->memory_peak_bytes = read_num(sysroot, g->dir, "memory.peak");
        snprintf(path, sizeof path, "%s/memory.events", g->dir);
        uint64_t k;
        if (hr_lx_read_str(sysroot, path, evbuf, sizeof evbuf) && hr_kv_u64(evbuf, strlen(evbuf), "oom_kill", ' ', &k))
            g->oom_kills = k;
    }
    /* The root cgroup has no limit files (v2 memory.max, memory.high, memory.swap.max; v1
     * memsw without swap accounting): no limit at all. v1 has no swap-only limit and v2
     * no memory+swap limit: those stay n/a. */
    if (strcmp(rel, "/") == 0) {
        uint64_t *lims[] = { &g->memory_max_bytes, &g->memory_high_bytes, &g->swap_max_bytes, &g->memsw_max_bytes };
        for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++)
            if (*lims[i] == HR_UNKNOWN && !(i == 2 && v1) && !(i == 3 && !v1))
                *lims[i] = HR_UNLIMITED;
    }
    if (g->memory_max_bytes == HR_UNKNOWN && g->s.ok)
        hr_section_fail(&g->s, HR_N("%s: no memory limit file found on the path to the root"), g->dir);
}
