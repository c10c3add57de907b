/* headroom stress on Linux: a child process commits (and touches) step by step; the parent
 * watches the commit charge and limit and the cgroup, so that an OOM kill ends the child and
 * is reported, not suffered. The child's exit gives everything back. (docs/stress.md) */
#define _GNU_SOURCE /* pipe2 */
#include "linux_probes.h"
#include "lx_read.h"
#include "core/base/i18n.h"

#include "core/base/text.h"
#include "core/model/meminfo.h"
#include "platform/platform.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)n ? 0 : -1;
}

static uint64_t read_u64_file(const char *path)
{
    unsigned long long v;
    return hr_lx_read_u64("/", path, &v) ? (uint64_t)v : HR_UNKNOWN;
}

/* "key value" lines: the value of key, or HR_UNKNOWN. */
static uint64_t read_key(const char *path, const char *key)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_SMALL_FILE);
    hr_error err = { 0 };
    uint64_t v = HR_UNKNOWN;
    if (hr_lx_read("/", path, &b, HR_LX_SMALL_FILE, &err) == 0 && !hr_kv_u64(hr_buf_str(&b), b.len, key, ' ', &v))
        v = HR_UNKNOWN;
    hr_buf_free(&b);
    return v;
}

static void commit_now(uint64_t *charge, uint64_t *limit)
{
    *charge = *limit = HR_UNKNOWN;
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_error err = { 0 };
    hr_meminfo mi;
    if (hr_lx_read("/", "/proc/meminfo", &b, HR_LX_BIG_FILE, &err) == 0 &&
        hr_parse_meminfo(hr_buf_str(&b), b.len, "/proc/meminfo", &mi, &err) == 0) {
        *charge = mi.committed_as;
        *limit = mi.commit_limit;
    }
    hr_buf_free(&b);
}

typedef struct stress_cg {
    char dir[HR_SNAP_PATH_MAX + 64];
    int version;
} stress_cg;

/* A new memory cgroup of `bytes`: v1 under this process's own memory cgroup (its limits
 * still apply), v2 under the hierarchy's root (a v2 cgroup with processes cannot have
 * children with controllers). */
static int cg_create(const hr_stress_req *rq, stress_cg *cg, hr_error *err)
{
    memset(cg, 0, sizeof *cg);
    if (geteuid() != 0)
        return hr_error_set(err, HR_EPERM, HR_T("--cgroup creates a memory cgroup: run as root"));
    char parent[HR_SNAP_PATH_MAX];
    if (rq->cgroup_version == HR_CGROUP_V1) {
        snprintf(parent, sizeof parent, "%s", rq->cgroup_dir);
    } else if (rq->cgroup_version == HR_CGROUP_V2) {
        size_t dn = strlen(rq->cgroup_dir), pn = strlen(rq->cgroup_path);
        if (strcmp(rq->cgroup_path, "/") == 0)
            pn = 0;
        if (pn > dn || strcmp(rq->cgroup_dir + dn - pn, rq->cgroup_path) != 0)
            return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: cannot find the cgroup v2 root under %s"),
                                rq->cgroup_dir);
        snprintf(parent, sizeof parent, "%.*s", (int)(dn - pn), rq->cgroup_dir);
    } else {
        return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: no memory cgroup controller here"));
    }
    if (!parent[0])
        return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: no memory cgroup directory known"));
    cg->version = rq->cgroup_version;
    /* groups of stress runs killed before they could remove theirs go first; then a name
     * no later run takes over */
    hr_lx_owned_cg_sweep(parent, "headroom-stress");
    if (!hr_lx_owned_cg_name(parent, "headroom-stress", cg->dir, sizeof cg->dir))
        return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: no memory cgroup directory known"));
    char path[sizeof cg->dir + 64], val[32];
    if (cg->version == HR_CGROUP_V2) {
        char ctl[HR_SNAP_PATH_MAX + 32];
        snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", parent);
        hr_buf b;
        hr_buf_init(&b, HR_LX_SMALL_FILE);
        hr_error e2 = { 0 };
        bool has = hr_lx_read("/", ctl, &b, HR_LX_SMALL_FILE, &e2) == 0 && strstr(hr_buf_str(&b), "memory") != NULL;
        hr_buf_free(&b);
        if (!has && write_file(ctl, "+memory") != 0)
            return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: cannot enable the memory controller in %s: %s"), ctl,
                                strerror(errno));
    }
    if (mkdir(cg->dir, 0755) != 0) {
        int e = errno;
        cg->dir[0] = '\0';
        return hr_error_set(err, e == EACCES || e == EPERM ? HR_EPERM : HR_ENOTSUP,
                            HR_T("--cgroup: cannot create a cgroup under %s: %s"), parent, strerror(e));
    }
    snprintf(val, sizeof val, "%llu", (unsigned long long)rq->cgroup_bytes);
    snprintf(path, sizeof path, "%s/%s", cg->dir, cg->version == HR_CGROUP_V2 ? "memory.max" : "memory.limit_in_bytes");
    if (write_file(path, val) != 0)
        return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: cannot write %s: %s"), path, strerror(errno));
    return 0;
}

static uint64_t cg_current(const stress_cg *cg)
{
    if (!cg->dir[0])
        return HR_UNKNOWN;
    char path[sizeof cg->dir + 32];
    snprintf(path, sizeof path, "%s/%s", cg->dir,
             cg->version == HR_CGROUP_V2 ? "memory.current" : "memory.usage_in_bytes");
    return read_u64_file(path);
}

/* OOM kills in the cgroup, or (without one) on the machine since boot. */
static uint64_t cg_oom_kills(const stress_cg *cg)
{
    if (!cg->dir[0])
        return read_key("/proc/vmstat", "oom_kill");
    char path[sizeof cg->dir + 32];
    snprintf(path, sizeof path, "%s/%s", cg->dir, cg->version == HR_CGROUP_V2 ? "memory.events" : "memory.oom_control");
    return read_key(path, "oom_kill");
}

/* Remove the cgroup; the kernel may take a moment to uncharge a killed child's pages. */
static bool cg_remove(stress_cg *cg)
{
    if (!cg->dir[0])
        return true;
    for (int i = 0; i < 50; i++) {
        if (rmdir(cg->dir) == 0 || errno == ENOENT)
            return true;
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return false;
}

/* The child: wait for "go", then allocate step by step, telling the parent after each step
 * and waiting for its answer (so the parent reads the machine while the step is held). */
static void child(int in, int out, uint64_t total, uint64_t step, bool touch)
{
    write_file("/proc/self/oom_score_adj", "1000"); /* the OOM killer's first choice */
    char c;
    if (read(in, &c, 1) != 1)
        _exit(2);
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    uint64_t done = 0;
    char line[64];
    while (done < total) {
        uint64_t n = total - done < step ? total - done : step;
        void *p = mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            int len = snprintf(line, sizeof line, "F %d\n", errno);
            if (write(out, line, (size_t)len) != len)
                _exit(2);
            _exit(3);
        }
        if (touch)
            for (uint64_t o = 0; o < n; o += (uint64_t)page)
                ((volatile char *)p)[o] = 1;
        done += n;
        int len = snprintf(line, sizeof line, "S %llu\n", (unsigned long long)done);
        if (write(out, line, (size_t)len) != len || read(in, &c, 1) != 1)
            _exit(2);
    }
    if (write(out, "D\n", 2) != 2)
        _exit(2);
    (void)read(in, &c, 1); /* hold everything until the parent has read the last step */
    _exit(0);
}

int hr_platform_stress(const hr_stress_req *rq, uint64_t step_bytes, hr_stress_step_fn step, void *ctx,
                       hr_stress_result *res, hr_error *err)
{
    memset(res, 0, sizeof *res);
    res->outcome = HR_STRESS_ERROR;
    res->released = true;
    if (step_bytes == 0 || rq->commit_bytes == 0)
        return hr_error_set(err, HR_EINVAL, HR_T("stress: nothing to commit"));
    stress_cg cg = { 0 };
    if (rq->cgroup_bytes) {
        int r = cg_create(rq, &cg, err);
        if (r < 0) {
            cg_remove(&cg);
            return r;
        }
        snprintf(res->cgroup_where, sizeof res->cgroup_where, "%s", cg.dir);
    }
    uint64_t oom_before = cg_oom_kills(&cg);
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0) {
        cg_remove(&cg);
        return hr_error_set(err, HR_EIO, HR_T("stress: pipe: %s"), strerror(errno));
    }
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        cg_remove(&cg);
        return hr_error_set(err, HR_EIO, HR_T("stress: pipe: %s"), strerror(errno));
    }
    fflush(NULL);
    pid_t parent_pid = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        cg_remove(&cg);
        return hr_error_set(err, HR_EIO, HR_T("stress: fork: %s"), strerror(e));
    }
    if (pid == 0) {
        /* dies with headroom, whatever kills it */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent_pid)
            _exit(2);
        close(down[1]);
        close(up[0]);
        child(down[0], up[1], rq->commit_bytes, step_bytes, rq->touch);
    }
    close(down[0]);
    close(up[1]);
    /* a SIGKILL of headroom leaves no group behind: the guard removes it */
    int guard = cg.dir[0] ? hr_lx_guard_start(0, cg.dir) : -1;
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN); /* a killed child closes its end */
    bool started = true;
    if (cg.dir[0]) {
        char procs[sizeof cg.dir + 32], pidtext[24];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", cg.dir);
        snprintf(pidtext, sizeof pidtext, "%ld", (long)pid);
        if (write_file(procs, pidtext) != 0) {
            snprintf(res->failure, sizeof res->failure, HR_T("cannot move the child into %s: %s"), procs,
                     strerror(errno));
            started = false;
        }
    }
    FILE *f = fdopen(up[0], "r");
    if (started && f && write(down[1], "g", 1) == 1) {
        char line[64];
        uint64_t prev = 0;
        bool done = false;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == 'S') {
                uint64_t v = strtoull(line + 2, NULL, 10);
                if (res->step_count < HR_STRESS_MAX_STEPS) {
                    hr_stress_step *s = &res->steps[res->step_count];
                    s->committed_bytes = v;
                    commit_now(&s->charge_bytes, &s->limit_bytes);
                    s->cgroup_bytes = cg_current(&cg);
                    res->step_count++;
                    if (step)
                        step(ctx, res->step_count - 1, res);
                }
                res->reached_bytes = prev = v;
                if (write(down[1], "a", 1) != 1)
                    break;
            } else if (line[0] == 'F') {
                int e = atoi(line + 2);
                res->outcome = HR_STRESS_ALLOC_FAILED;
                res->failed_step_bytes = rq->commit_bytes - prev < step_bytes ? rq->commit_bytes - prev : step_bytes;
                snprintf(res->failure, sizeof res->failure, "mmap: %s", strerror(e));
                done = true;
                break;
            } else if (line[0] == 'D') {
                res->outcome = HR_STRESS_REACHED;
                done = true;
                break;
            }
        }
        if (!done) {
            /* The child is gone without a word: killed. */
            res->failed_step_bytes = rq->commit_bytes - prev < step_bytes ? rq->commit_bytes - prev : step_bytes;
            res->outcome = HR_STRESS_KILLED;
        }
    } else if (started) {
        snprintf(res->failure, sizeof res->failure, HR_T("cannot start the child: %s"), strerror(errno));
    }
    close(down[1]); /* let the child exit (it waits for a byte or the end of the pipe) */
    if (!started)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (f)
        fclose(f);
    else
        close(up[0]);
    signal(SIGPIPE, old_pipe);
    if (res->outcome == HR_STRESS_KILLED) {
        if (WIFSIGNALED(status))
            snprintf(res->failure, sizeof res->failure, "signal %d (%s)", WTERMSIG(status),
                     WTERMSIG(status) == SIGKILL ? "SIGKILL" : strsignal(WTERMSIG(status)));
        else
            snprintf(res->failure, sizeof res->failure, HR_T("exit status %d"),
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    uint64_t oom_after = cg_oom_kills(&cg);
    if (oom_before != HR_UNKNOWN && oom_after != HR_UNKNOWN && oom_after > oom_before)
        res->oom_kill_seen = true;
    res->released = cg_remove(&cg);
    hr_lx_guard_done(guard, res->released);
    return 0;
}
