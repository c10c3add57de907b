/* headroom — Linux: the watch sampler (platform.h, core/watch/watch.h).
 *
 * Everything is opened and allocated once in hr_sampler_open; a sample re-reads the open
 * /proc and cgroup files with pread at offset 0 into fixed buffers and walks /proc with
 * getdents64 into a fixed buffer, so sampling allocates nothing and keeps going when memory
 * is gone. Sources: /proc/meminfo (RAM, swap, commit), /proc/sys/vm/overcommit_memory,
 * /proc/vmstat (pswpin/pswpout), /proc/pressure/memory (PSI), /proc/diskstats (io_ticks of
 * the disks holding swap, found from /proc/swaps), the memory cgroup's memory.current/max,
 * memory.swap.current/max (the tightest of it and its ancestors), and /proc/<pid>/stat and
 * status of the target process tree. */
#define _GNU_SOURCE
#include "platform/platform.h"
#include "linux_probes.h"
#include "core/base/i18n.h"

#include "core/base/text.h"
#include "core/model/meminfo.h"
#include "core/model/procs.h"
#include "platform/gpu_procs.h"
#include "core/base/hot.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define CG_LEVELS 8
#define SWAP_DEVS 8
#define MAX_PROCS 16384
#define FILE_BUF  16384

typedef struct cg_level {
    int current, max, swap_current, swap_max; /* v1: usage, limit, memsw usage, memsw limit */
    bool v1;
} cg_level;

typedef struct proc_ent {
    int pid, ppid;
    unsigned char mark;
} proc_ent;

struct hr_sampler {
    int meminfo, vmstat, psi, diskstats, overcommit, proc_dir;
    int psi_trigger; /* /proc/pressure/memory with a trigger armed, or -1 */
    bool psi_tried;
    cg_level cg[CG_LEVELS];
    int ncg;
    unsigned swap_major[SWAP_DEVS], swap_minor[SWAP_DEVS];
    int nswap;
    int64_t pid;
    char name[128];
    hr_gpu_procs *gpu;  /* NVML, or NULL */
    int64_t tree[1024]; /* the target tree's pids (for its GPU memory) */
    size_t ntree;
    char buf[FILE_BUF];
    char dents[32768];
    proc_ent procs[MAX_PROCS];
};

HR_START static int open_ro(const char *path)
{
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* pread the whole (small) file at offset 0 into s->buf; length, or -1. */
HR_HOT static ssize_t reread(hr_sampler *s, int fd)
{
    if (fd < 0)
        return -1;
    ssize_t n = pread(fd, s->buf, sizeof s->buf - 1, 0);
    if (n < 0)
        return -1;
    s->buf[n] = '\0';
    return n;
}

HR_START static ssize_t read_path(const char *path, char *buf, size_t n)
{
    int fd = open_ro(path);
    if (fd < 0)
        return -1;
    ssize_t r = read(fd, buf, n - 1);
    close(fd);
    if (r < 0)
        return -1;
    buf[r] = '\0';
    return r;
}

/* The memory cgroup of a process: v2 (/sys/fs/cgroup + the "0::" path of /proc/PID/cgroup,
 * when the memory controller is there) or v1 (the "memory" line under
 * /sys/fs/cgroup/memory). *root gets the mount point (the walk up stops there). */
HR_START static bool cgroup_of(int64_t pid, char *out, size_t n, char *root, size_t rootn)
{
    char path[64], buf[4096];
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%lld/cgroup", (long long)pid);
    else
        snprintf(path, sizeof path, "/proc/self/cgroup");
    ssize_t r = read_path(path, buf, sizeof buf);
    if (r <= 0)
        return false;
    const char *cur = buf, *end = buf + r, *line;
    size_t len;
    while (hr_next_line(&cur, end, &line, &len)) {
        const char *c1 = memchr(line, ':', len);
        if (!c1)
            continue;
        const char *c2 = memchr(c1 + 1, ':', (size_t)(line + len - c1 - 1));
        if (!c2)
            continue;
        size_t ctl = (size_t)(c2 - c1 - 1);
        const char *rel = c2 + 1;
        int rl = (int)(line + len - rel);
        if (rl == 1 && rel[0] == '/')
            rl = 0;
        const char *mnt = NULL;
        if (ctl == 6 && strncmp(c1 + 1, "memory", 6) == 0)
            mnt = "/sys/fs/cgroup/memory";
        else if (ctl == 0 && access("/sys/fs/cgroup/cgroup.controllers", R_OK) == 0)
            mnt = "/sys/fs/cgroup";
        if (!mnt)
            continue;
        int w = snprintf(out, n, "%s%.*s", mnt, rl, rel);
        hr_strlcpy(root, mnt, rootn);
        if (w > 0 && (size_t)w < n)
            return true;
    }
    return false;
}

HR_START static void close_cg(hr_sampler *s)
{
    for (int i = 0; i < s->ncg; i++) {
        cg_level *c = &s->cg[i];
        int fds[] = { c->current, c->max, c->swap_current, c->swap_max };
        for (size_t k = 0; k < 4; k++)
            if (fds[k] >= 0)
                close(fds[k]);
    }
    s->ncg = 0;
}

HR_START static void open_cg(hr_sampler *s, const char *dir, const char *root)
{
    close_cg(s);
    char d[4096], p[4200];
    hr_strlcpy(d, dir, sizeof d);
    size_t stop = strlen(root);
    while (s->ncg < CG_LEVELS && strlen(d) >= stop) {
        cg_level *c = &s->cg[s->ncg];
        snprintf(p, sizeof p, "%s/memory.usage_in_bytes", d);
        c->v1 = access(p, R_OK) == 0;
        static const char *const v2n[4] = { "memory.current", "memory.max", "memory.swap.current", "memory.swap.max" };
        static const char *const v1n[4] = { "memory.usage_in_bytes", "memory.limit_in_bytes",
                                            "memory.memsw.usage_in_bytes", "memory.memsw.limit_in_bytes" };
        const char *const *nm = c->v1 ? v1n : v2n;
        snprintf(p, sizeof p, "%s/%s", d, nm[0]);
        c->current = open_ro(p);
        snprintf(p, sizeof p, "%s/%s", d, nm[1]);
        c->max = open_ro(p);
        snprintf(p, sizeof p, "%s/%s", d, nm[2]);
        c->swap_current = open_ro(p);
        snprintf(p, sizeof p, "%s/%s", d, nm[3]);
        c->swap_max = open_ro(p);
        if (c->current >= 0)
            s->ncg++;
        else {
            int fds[] = { c->max, c->swap_current, c->swap_max };
            for (size_t k = 0; k < 3; k++)
                if (fds[k] >= 0)
                    close(fds[k]);
        }
        char *slash = strrchr(d, '/');
        if (!slash || strlen(d) == stop)
            break;
        *slash = '\0';
    }
}

/* The devices holding swap: partitions by their device number, files by their file system's. */
HR_START static void find_swap_devs(hr_sampler *s)
{
    char buf[4096];
    if (read_path("/proc/swaps", buf, sizeof buf) <= 0)
        return;
    const char *cur = buf, *end = buf + strlen(buf), *line;
    size_t n;
    bool first = true;
    while (hr_next_line(&cur, end, &line, &n)) {
        if (first) {
            first = false;
            continue;
        }
        char path[1024];
        size_t k = 0;
        while (k < n && line[k] != ' ' && line[k] != '\t' && k + 1 < sizeof path) {
            path[k] = line[k];
            k++;
        }
        path[k] = '\0';
        char unesc[1024];
        hr_unescape_octal(path, strlen(path), unesc, sizeof unesc);
        struct stat st;
        if (stat(unesc, &st) != 0 || s->nswap >= SWAP_DEVS)
            continue;
        dev_t dv = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
        s->swap_major[s->nswap] = major(dv);
        s->swap_minor[s->nswap] = minor(dv);
        s->nswap++;
    }
}

HR_START int hr_sampler_open(const hr_sampler_opts *opts, hr_sampler **out, hr_error *err)
{
    hr_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return hr_error_set(err, HR_ENOMEM, HR_T("watch: out of memory"));
    s->meminfo = open_ro("/proc/meminfo");
    s->vmstat = open_ro("/proc/vmstat");
    s->psi = open_ro("/proc/pressure/memory");
    s->diskstats = open_ro("/proc/diskstats");
    s->overcommit = open_ro("/proc/sys/vm/overcommit_memory");
    s->proc_dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    s->psi_trigger = -1;
    s->pid = opts->pid;
    if (opts->name)
        hr_strlcpy(s->name, opts->name, sizeof s->name);
    char dir[4096], root[64];
    if (opts->cgroup_dir)
        open_cg(s, opts->cgroup_dir,
                strncmp(opts->cgroup_dir, "/sys/fs/cgroup/memory", 21) == 0 ? "/sys/fs/cgroup/memory"
                                                                            : "/sys/fs/cgroup");
    else if (cgroup_of(opts->pid, dir, sizeof dir, root, sizeof root))
        open_cg(s, dir, root);
    find_swap_devs(s);
    s->gpu = hr_gpu_procs_open();
    if (s->meminfo < 0) {
        hr_sampler_close(s);
        return hr_error_set(err, HR_ENOENT, "watch: /proc/meminfo: %s", strerror(errno));
    }
    *out = s;
    return 0;
}

HR_START void hr_sampler_set_pid(hr_sampler *s, int64_t pid)
{
    s->pid = pid;
}

HR_START void hr_sampler_close(hr_sampler *s)
{
    if (!s)
        return;
    int fds[] = { s->meminfo, s->vmstat, s->psi, s->diskstats, s->overcommit, s->proc_dir, s->psi_trigger };
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    close_cg(s);
    hr_gpu_procs_close(s->gpu);
    free(s);
}

HR_START void *hr_gpu_lib_open(void)
{
    /* the versioned name: the bare .so is a development link, rarely installed */
    return dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
}

HR_START hr_gpu_fn hr_gpu_lib_sym(void *lib, const char *name)
{
    hr_gpu_fn f;
    void *p = dlsym(lib, name);
    memcpy(&f, &p, sizeof f); /* POSIX: dlsym's object pointer converts to a function's */
    return f;
}

HR_START void hr_gpu_lib_close(void *lib)
{
    dlclose(lib);
}

HR_HOT static int64_t num_fd(hr_sampler *s, int fd, bool *unlimited)
{
    *unlimited = false;
    ssize_t n = reread(s, fd);
    if (n <= 0)
        return HR_W_UNKNOWN;
    if (strncmp(s->buf, "max", 3) == 0) {
        *unlimited = true;
        return HR_W_UNLIMITED;
    }
    uint64_t v;
    char *e = s->buf + n;
    while (e > s->buf && (e[-1] == '\n' || e[-1] == ' '))
        e--;
    if (!hr_parse_u64(s->buf, (size_t)(e - s->buf), &v))
        return HR_W_UNKNOWN;
    if (v >= ((uint64_t)1 << 62)) { /* cgroup v1 writes "no limit" as a page-rounded 2^63 */
        *unlimited = true;
        return HR_W_UNLIMITED;
    }
    return (int64_t)v;
}

/* The tightest memory cgroup of the chain: the one with the least room under memory.max. */
HR_HOT static void sample_cgroup(hr_sampler *s, hr_wsample *o)
{
    if (s->ncg == 0)
        return;
    bool unl;
    int best = -1;
    int64_t best_room = INT64_MAX;
    int64_t cur0 = num_fd(s, s->cg[0].current, &unl);
    for (int i = 0; i < s->ncg; i++) {
        int64_t cur = i == 0 ? cur0 : num_fd(s, s->cg[i].current, &unl);
        int64_t max = num_fd(s, s->cg[i].max, &unl);
        if (cur == HR_W_UNKNOWN || max == HR_W_UNKNOWN || max == HR_W_UNLIMITED)
            continue;
        int64_t room = max - cur;
        if (room < best_room) {
            best_room = room;
            best = i;
        }
    }
    int i = best >= 0 ? best : 0;
    o->cg_current = i == 0 ? cur0 : num_fd(s, s->cg[i].current, &unl);
    o->cg_max = num_fd(s, s->cg[i].max, &unl);
    o->cg_swap_current = num_fd(s, s->cg[i].swap_current, &unl);
    o->cg_swap_max = num_fd(s, s->cg[i].swap_max, &unl);
    if (s->cg[i].v1) {
        /* v1 counts memory + swap together (memsw): the swap part is the difference */
        if (o->cg_swap_current != HR_W_UNKNOWN && o->cg_current != HR_W_UNKNOWN)
            o->cg_swap_current = o->cg_swap_current > o->cg_current ? o->cg_swap_current - o->cg_current : 0;
        if (o->cg_swap_max != HR_W_UNKNOWN && o->cg_swap_max != HR_W_UNLIMITED && o->cg_max != HR_W_UNKNOWN &&
            o->cg_max != HR_W_UNLIMITED)
            o->cg_swap_max = o->cg_swap_max > o->cg_max ? o->cg_swap_max - o->cg_max : 0;
    }
}

HR_HOT static double psi_avg10(const char *buf, const char *kind)
{
    const char *p = strstr(buf, kind);
    if (!p)
        return -1.0;
    p = strstr(p, "avg10=");
    if (!p)
        return -1.0;
    p += 6;
    double whole = 0, frac = 0, scale = 0.1;
    bool any = false;
    while (*p >= '0' && *p <= '9') {
        whole = whole * 10 + (*p++ - '0');
        any = true;
    }
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
            frac += (*p - '0') * scale;
    return any ? whole + frac : -1.0;
}

HR_HOT static void sample_disks(hr_sampler *s, hr_wsample *o)
{
    if (s->nswap == 0 || reread(s, s->diskstats) <= 0)
        return;
    /* the busiest of the swap disks: fields major minor name ... io_ticks (13th) */
    const char *cur = s->buf, *end = s->buf + strlen(s->buf), *line;
    size_t n;
    int64_t best = -1;
    while (hr_next_line(&cur, end, &line, &n)) {
        unsigned long long f[14] = { 0 };
        char name[32] = "";
        int k = 0;
        size_t i = 0;
        while (i < n && k < 14) {
            while (i < n && line[i] == ' ')
                i++;
            size_t st = i;
            while (i < n && line[i] != ' ')
                i++;
            if (k == 2) {
                size_t len = i - st < sizeof name - 1 ? i - st : sizeof name - 1;
                memcpy(name, line + st, len);
                name[len] = '\0';
            } else {
                uint64_t v = 0;
                hr_parse_u64(line + st, i - st, &v);
                f[k] = v;
            }
            k++;
        }
        if (k < 13)
            continue;
        for (int d = 0; d < s->nswap; d++) {
            if (f[0] == s->swap_major[d] && f[1] == s->swap_minor[d] && (int64_t)f[12] > best) {
                best = (int64_t)f[12];
                hr_strlcpy(o->disk, name, sizeof o->disk);
            }
        }
    }
    if (best >= 0)
        o->disk_busy_ms_total = best;
}

/* The decimal number at the start of p (a pid: /proc's names, stat's ppid field), 0 if none;
 * what atoi gives for those, without its locale machinery. */
HR_HOT static int small_int(const char *p)
{
    int v = 0;
    for (int k = 0; k < 9 && *p >= '0' && *p <= '9'; k++, p++)
        v = v * 10 + (*p - '0');
    return v;
}

/* "/proc/<pid>/<leaf>" into out (64 bytes), without printf: the tree walk builds two or
 * three of these per process per sample. */
HR_HOT static void proc_path(char *out, int pid, const char *leaf)
{
    char digits[12];
    int nd = 0;
    unsigned v = pid > 0 ? (unsigned)pid : 0;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && nd < (int)sizeof digits);
    memcpy(out, "/proc/", 6);
    size_t k = 6;
    while (nd)
        out[k++] = digits[--nd];
    out[k++] = '/';
    size_t ll = strlen(leaf);
    if (ll > 64 - k - 1)
        ll = 64 - k - 1;
    memcpy(out + k, leaf, ll);
    out[k + ll] = '\0';
}

HR_HOT static bool name_matches(hr_sampler *s, int pid, const char *comm)
{
    if (strstr(comm, s->name))
        return true;
    char path[64];
    proc_path(path, pid, "cmdline");
    ssize_t n = read_path(path, s->buf, sizeof s->buf);
    if (n <= 0)
        return false;
    for (ssize_t i = 0; i < n; i++)
        if (s->buf[i] == '\0')
            s->buf[i] = ' ';
    return strstr(s->buf, s->name) != NULL;
}

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* The index of pid in procs[0..n), or -1: bisection when they are in ascending order. */
HR_HOT static int find_proc(const proc_ent *procs, int n, int pid, bool sorted)
{
    if (!sorted) {
        for (int j = 0; j < n; j++)
            if (procs[j].pid == pid)
                return j;
        return -1;
    }
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (procs[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && procs[lo].pid == pid ? lo : -1;
}

/* The process tree: every process under the root pid, or under every process matching the
 * name. RSS and swap from /proc/<pid>/status of each member. */
HR_HOT static void sample_tree(hr_sampler *s, hr_wsample *o)
{
    if ((s->pid <= 0 && !s->name[0]) || s->proc_dir < 0)
        return;
    int np = 0;
    if (lseek(s->proc_dir, 0, SEEK_SET) < 0)
        return;
    for (;;) {
        long r = syscall(SYS_getdents64, s->proc_dir, s->dents, sizeof s->dents);
        if (r <= 0)
            break;
        for (long off = 0; off < r;) {
            struct linux_dirent64 *d = (struct linux_dirent64 *)(void *)(s->dents + off);
            off += d->d_reclen;
            if (d->d_name[0] < '1' || d->d_name[0] > '9' || np >= MAX_PROCS)
                continue;
            int pid = small_int(d->d_name);
            char path[64];
            proc_path(path, pid, "stat");
            ssize_t n = read_path(path, s->buf, sizeof s->buf);
            if (n <= 0)
                continue;
            char *rp = strrchr(s->buf, ')');
            char *lp = strchr(s->buf, '(');
            if (!rp || !lp || rp[1] != ' ' || !rp[2] || !rp[3])
                continue;
            int ppid = small_int(rp + 4);
            *rp = '\0';
            proc_ent *e = &s->procs[np++];
            e->pid = pid;
            e->ppid = ppid;
            e->mark = (s->pid > 0 && pid == s->pid) ||
                      (s->pid <= 0 && s->name[0] && pid != getpid() && name_matches(s, pid, lp + 1));
        }
    }
    /* mark descendants: repeat until nothing changes (trees are shallow). /proc lists pids in
     * ascending order, so a parent is found by bisection and, being older than its children
     * but after a pid wrap, is usually marked in the same pass */
    bool sorted = true;
    for (int i = 1; i < np && sorted; i++)
        sorted = s->procs[i - 1].pid < s->procs[i].pid;
    for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
        changed = 0;
        for (int i = 0; i < np; i++) {
            if (s->procs[i].mark)
                continue;
            int j = find_proc(s->procs, np, s->procs[i].ppid, sorted);
            if (j >= 0 && s->procs[j].mark) {
                s->procs[i].mark = 1;
                changed = 1;
            }
        }
    }
    int64_t rss = 0, swap = 0, count = 0;
    for (int i = 0; i < np; i++) {
        if (!s->procs[i].mark)
            continue;
        char path[64];
        proc_path(path, s->procs[i].pid, "status");
        if (s->ntree < sizeof s->tree / sizeof s->tree[0])
            s->tree[s->ntree] = s->procs[i].pid;
        s->ntree++;
        ssize_t n = read_path(path, s->buf, sizeof s->buf);
        if (n <= 0)
            continue;
        hr_proc_status st;
        hr_error e = { 0 };
        count++;
        if (hr_proc_status_parse(s->buf, (size_t)n, &st, &e) != 0)
            continue;
        rss += (int64_t)st.rss_bytes;
        swap += (int64_t)st.swap_bytes;
    }
    o->proc_count = count;
    o->proc_rss = count ? rss : 0;
    o->proc_swap = count ? swap : 0;
}

/* "\nkey " in /proc/vmstat and the number after it (never the first line: pswpin/pswpout
 * come after nr_free_pages). One memmem instead of a walk over its 180 lines. */
HR_HOT static bool vmstat_u64(const char *buf, size_t len, const char *key, uint64_t *out)
{
    size_t kl = strlen(key);
    const char *p = strstr(buf, key); /* buf ends in the NUL reread() put at len */
    if (!p || (size_t)(p - buf) > len - kl)
        return false;
    const char *v = p + kl, *end = buf + len, *e = v;
    while (e < end && *e >= '0' && *e <= '9')
        e++;
    return hr_parse_u64(v, (size_t)(e - v), out);
}

HR_HOT void hr_sampler_take(hr_sampler *s, hr_wsample *o)
{
    hr_wsample_init(o);
    o->t_ms = hr_platform_mono_ms();
    o->time_ms = hr_platform_wall_ms();
    ssize_t n = reread(s, s->meminfo);
    if (n > 0) {
        hr_meminfo mi;
        hr_error e = { 0 };
        if (hr_parse_meminfo(s->buf, (size_t)n, "/proc/meminfo", &mi, &e) == 0) {
#define SET(dst, v)                                                                                                    \
    do {                                                                                                               \
        if ((v) != HR_UNKNOWN)                                                                                         \
            (dst) = (int64_t)(v);                                                                                      \
    } while (0)
            SET(o->ram_total, mi.mem_total);
            SET(o->ram_available, mi.mem_available);
            if (mi.mem_total != HR_UNKNOWN && mi.mem_available != HR_UNKNOWN)
                o->ram_used = (int64_t)(mi.mem_total - mi.mem_available);
            SET(o->swap_total, mi.swap_total);
            if (mi.swap_total != HR_UNKNOWN && mi.swap_free != HR_UNKNOWN)
                o->swap_used = (int64_t)(mi.swap_total - mi.swap_free);
            SET(o->commit, mi.committed_as);
            SET(o->commit_limit, mi.commit_limit);
#undef SET
        }
    }
    if (reread(s, s->overcommit) > 0)
        o->commit_enforced = s->buf[0] == '2';
    n = reread(s, s->vmstat);
    if (n > 0) {
        uint64_t v;
        if (vmstat_u64(s->buf, (size_t)n, "\npswpin ", &v))
            o->pages_in_total = (int64_t)v;
        if (vmstat_u64(s->buf, (size_t)n, "\npswpout ", &v))
            o->pages_out_total = (int64_t)v;
    }
    if (reread(s, s->psi) > 0) {
        o->psi_some_avg10 = psi_avg10(s->buf, "some");
        o->psi_full_avg10 = psi_avg10(s->buf, "full");
    }
    sample_disks(s, o);
    sample_cgroup(s, o);
    s->ntree = 0;
    sample_tree(s, o);
    /* a tree larger than the list held: its GPU memory is unknown rather than short */
    hr_gpu_procs_sample(s->gpu, s->tree, s->ntree <= sizeof s->tree / sizeof s->tree[0] ? s->ntree : 0, o);
}

HR_HOT int64_t hr_platform_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

HR_HOT int64_t hr_platform_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static volatile int *stop_flag;

HR_HOT static void on_stop(int sig)
{
    if (stop_flag)
        *stop_flag = sig;
}

HR_START void hr_platform_catch_stop(volatile int *flag)
{
    stop_flag = flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a sleep or a read returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* A PSI trigger (the kernel's Documentation/accounting/psi.rst): writing "some <stall us>
 * <window us>" to /proc/pressure/memory makes poll() report POLLPRI once the tasks of the
 * system were stalled on memory that long within the window. 10 %: 100 ms in 1 s; a window
 * that is not a multiple of 2 s needs CAP_SYS_RESOURCE, so 200 ms in 2 s is the fallback
 * (what an ordinary user, or a container without that capability, may arm). The kernel
 * overwrites the last byte written with a NUL: the NUL is written with the text. */
HR_START static int psi_trigger_open(void)
{
    static const char *const trig[] = { "some 100000 1000000", "some 200000 2000000" };
    for (size_t i = 0; i < sizeof trig / sizeof trig[0]; i++) {
        int fd = open("/proc/pressure/memory", O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return -1; /* no PSI (CONFIG_PSI off, psi=0), or not writable */
        if (write(fd, trig[i], strlen(trig[i]) + 1) > 0)
            return fd;
        close(fd);
    }
    return -1;
}

HR_HOT int hr_lx_sampler_psi_fd(hr_sampler *s)
{
    if (!s)
        return -1;
    if (!s->psi_tried) {
        s->psi_tried = true; /* armed on the first wait */
        s->psi_trigger = psi_trigger_open();
    }
    return s->psi_trigger;
}

HR_HOT int hr_lx_sampler_psi_event(hr_sampler *s, short revents)
{
    if (!s || s->psi_trigger < 0)
        return 0;
    if (revents & (POLLERR | POLLNVAL)) {
        /* the trigger is gone: plain timeouts from now on */
        close(s->psi_trigger);
        s->psi_trigger = -1;
        return 0;
    }
    return (revents & POLLPRI) ? 1 : 0;
}

HR_HOT int hr_sampler_wait(hr_sampler *s, int64_t ms)
{
    if (ms <= 0)
        return 0;
    int fd = hr_lx_sampler_psi_fd(s);
    if (fd < 0) {
        hr_platform_sleep_ms(ms);
        return 0;
    }
    struct pollfd p = { .fd = fd, .events = POLLPRI, .revents = 0 };
    int r = poll(&p, 1, ms > INT_MAX ? INT_MAX : (int)ms);
    return r > 0 ? hr_lx_sampler_psi_event(s, p.revents) : 0;
}

HR_HOT void hr_platform_sleep_ms(int64_t ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Lock only what the monitor touches: MCL_ONFAULT locks a page when it is first used, so
 * the untouched bulk of the binary, libc and the reserved buffers never becomes resident
 * (MCL_CURRENT alone faults in every mapped page: the whole of libc, libm and headroom).
 * Only what is mapped now, when the sampling loop's buffers are all allocated: no
 * MCL_FUTURE, which would lock every later allocation too (the ComfyUI link's thread, its
 * stack and the bodies a server sends).
 * A kernel without MCL_ONFAULT (before 4.4) gets no lock rather than that. */
/* Start-up (the dynamic linker, the option and command tables, opening the sources) touches
 * pages of headroom, libc and ld.so that sampling never uses again, and mlockall would pin
 * them for the whole watch. So before locking, every mapping that is readable, never
 * writable, private, backed by a file and holds no copied-on-write page leaves this
 * process's page tables (MADV_DONTNEED): its pages are the file's, they stay in the page
 * cache, and the next use maps them again, then locked. This is what reclaim may do to them
 * at any time; mappings a relocation or a write ever touched (RELRO, .data, the heap, the
 * stack) keep their pages. The list is made first and released after, so that reading
 * /proc/self/smaps does not map back what it just released. */
#define RELEASE_MAX 64

typedef struct smaps_scan {
    uintptr_t start[RELEASE_MAX], len[RELEASE_MAX];
    size_t n;
    uintptr_t cur_start, cur_end;
    bool cur_ok; /* the current mapping is a clean, read-only, private file mapping so far */
} smaps_scan;

HR_START static void smaps_keep(smaps_scan *sc)
{
    if (sc->cur_ok && sc->cur_end > sc->cur_start && sc->n < RELEASE_MAX) {
        sc->start[sc->n] = sc->cur_start;
        sc->len[sc->n] = sc->cur_end - sc->cur_start;
        sc->n++;
    }
    sc->cur_ok = false;
}

/* "1a2b-" → 0x1a2b, *p past the digits */
HR_START static uintptr_t hex_at(const char **p, const char *end)
{
    uintptr_t v = 0;
    for (; *p < end; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return v;
        v = v * 16 + (uintptr_t)d;
    }
    return v;
}

HR_START static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* One line of /proc/self/smaps, [line, end). A mapping's first line is
 * "start-end perms offset dev inode [path]"; the others are "Key: value" (a capital first),
 * of which only Anonymous counts. */
HR_START static void smaps_line(smaps_scan *sc, const char *line, const char *end)
{
    if (end - line > 10 && memcmp(line, "Anonymous:", 10) == 0) {
        const char *p = line + 10;
        while (p < end && (*p == ' ' || *p == '0'))
            p++;
        if (p < end && *p >= '1' && *p <= '9')
            sc->cur_ok = false; /* written once (a relocation, RELRO): its pages are its own */
        return;
    }
    if (line == end || !is_hex(line[0]))
        return;
    smaps_keep(sc);
    const char *p = line;
    uintptr_t lo = hex_at(&p, end);
    if (p == end || *p++ != '-')
        return;
    uintptr_t hi = hex_at(&p, end);
    if (end - p < 5 || *p++ != ' ')
        return;
    const char *perms = p;
    p += 4;
    /* past " offset dev " to the inode: 0 for anonymous and special mappings */
    for (int field = 0; field < 2; field++) {
        while (p < end && *p == ' ')
            p++;
        while (p < end && *p != ' ')
            p++;
    }
    while (p < end && *p == ' ')
        p++;
    sc->cur_start = lo;
    sc->cur_end = hi;
    sc->cur_ok = perms[0] == 'r' && perms[1] == '-' && perms[3] == 'p' && p < end && *p >= '1' && *p <= '9';
}

HR_HOT static void release_startup_pages(void)
{
    int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    static smaps_scan sc;
    static char buf[8192];
    memset(&sc, 0, sizeof sc);
    size_t have = 0;
    bool skipping = false; /* in a line longer than buf: its start was seen, skip the rest */
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n <= 0)
            break;
        have += (size_t)n;
        char *cur = buf, *stop = buf + have, *nl;
        while ((nl = memchr(cur, '\n', (size_t)(stop - cur))) != NULL) {
            if (!skipping)
                smaps_line(&sc, cur, nl);
            skipping = false;
            cur = nl + 1;
        }
        if (cur == buf && have == sizeof buf) {
            smaps_line(&sc, buf, stop); /* its start holds what counts */
            skipping = true;
            cur = stop;
        }
        have = (size_t)(stop - cur);
        memmove(buf, cur, have);
    }
    close(fd);
    smaps_keep(&sc);
    for (size_t i = 0; i < sc.n; i++)
        (void)madvise((void *)sc.start[i], sc.len[i], MADV_DONTNEED);
}

HR_START bool hr_platform_lock_memory(void)
{
#ifdef MCL_ONFAULT
    release_startup_pages();
    return mlockall(MCL_CURRENT | MCL_ONFAULT) == 0;
#else
    return false;
#endif
}
