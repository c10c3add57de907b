/* headroom — Linux: run's child (platform.h). fork + execvp with stdout and stderr on pipes,
 * the child in a memory cgroup of its own where one can be made (cgroup v2 under headroom's
 * own cgroup, else, as root, under the root; cgroup v1 likewise under the memory hierarchy),
 * so that its oom_kill count and its memory peak are its own. The child joins the cgroup
 * itself between fork and exec (writing "0" to cgroup.procs), so nothing it allocates is
 * charged elsewhere. */
#define _GNU_SOURCE
#include "platform/platform.h"
#include "lx_read.h"
#include "linux_probes.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct hr_child {
    pid_t pid;
    int out_fd, err_fd;
    bool reaped;
    int status;
    int64_t reaped_ms;
    char cg[4096]; /* "" when none */
    char cg_parent[4096];
    bool cg_v1;
    int guard; /* hr_lx_guard_start's descriptor, or -1 */
    int64_t start_wall, end_wall;
    char buf[65536];
};

static bool write_file(const char *dir, const char *name, const char *value)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = write(fd, value, strlen(value));
    close(fd);
    return n == (ssize_t)strlen(value);
}

/* The path of this process's cgroup in the hierarchy with this controller ("" = v2). */
static bool own_cgroup_rel(const char *controller, char *out, size_t n)
{
    char buf[4096];
    if (!hr_lx_read_in("/proc/self", "cgroup", buf, sizeof buf))
        return false;
    const char *cur = buf, *end = buf + strlen(buf), *line;
    size_t len;
    size_t cl = strlen(controller);
    while (hr_next_line(&cur, end, &line, &len)) {
        const char *c1 = memchr(line, ':', len);
        if (!c1)
            continue;
        const char *c2 = memchr(c1 + 1, ':', (size_t)(line + len - c1 - 1));
        if (!c2 || (size_t)(c2 - c1 - 1) != cl || strncmp(c1 + 1, controller, cl) != 0)
            continue;
        int rl = (int)(line + len - c2 - 1);
        snprintf(out, n, "%.*s", rl, c2 + 1);
        if (strcmp(out, "/") == 0)
            out[0] = '\0';
        return true;
    }
    return false;
}

static bool try_parent(hr_child *c, const char *parent, bool v1, char *note, size_t note_n)
{
    if (!v1) {
        char ctl[512] = "";
        hr_lx_read_in(parent, "cgroup.subtree_control", ctl, sizeof ctl);
        if (!strstr(ctl, "memory") && !write_file(parent, "cgroup.subtree_control", "+memory")) {
            snprintf(note, note_n, HR_T("%s: cannot enable the memory controller (%s)"), parent, strerror(errno));
            return false;
        }
    }
    /* groups of runs killed before they could remove theirs go first; then a name of our
     * own that no later run will take (never a stale group and its limit) */
    hr_lx_owned_cg_sweep(parent, "headroom-run");
    char dir[4096];
    if (!hr_lx_owned_cg_name(parent, "headroom-run", dir, sizeof dir))
        return false;
    if (mkdir(dir, 0755) != 0) {
        snprintf(note, note_n, "%s: %s", dir, strerror(errno));
        return false;
    }
    char probe[64];
    if (!hr_lx_read_in(dir, v1 ? "memory.usage_in_bytes" : "memory.current", probe, sizeof probe)) {
        snprintf(note, note_n, HR_T("%s: no memory accounting there"), dir);
        rmdir(dir);
        return false;
    }
    hr_strlcpy(c->cg, dir, sizeof c->cg);
    hr_strlcpy(c->cg_parent, parent, sizeof c->cg_parent);
    c->cg_v1 = v1;
    return true;
}

static void make_cgroup(hr_child *c, char *note, size_t note_n)
{
    char rel[4000], parent[4200];
    bool root = geteuid() == 0;
    char ctl[512] = "";
    if (hr_lx_read_in("/sys/fs/cgroup", "cgroup.controllers", ctl, sizeof ctl) && strstr(ctl, "memory")) {
        if (own_cgroup_rel("", rel, sizeof rel) && rel[0]) {
            snprintf(parent, sizeof parent, "/sys/fs/cgroup%s", rel);
            if (try_parent(c, parent, false, note, note_n))
                return;
        }
        if (root && try_parent(c, "/sys/fs/cgroup", false, note, note_n))
            return;
    } else if (access("/sys/fs/cgroup/memory/memory.usage_in_bytes", R_OK) == 0) {
        if (own_cgroup_rel("memory", rel, sizeof rel) && rel[0]) {
            snprintf(parent, sizeof parent, "/sys/fs/cgroup/memory%s", rel);
            if (try_parent(c, parent, true, note, note_n))
                return;
        }
        if (root && try_parent(c, "/sys/fs/cgroup/memory", true, note, note_n))
            return;
    } else {
        snprintf(note, note_n, HR_T("no memory cgroup controller on this machine"));
        return;
    }
    if (!note[0])
        snprintf(note, note_n, HR_T("no memory cgroup could be made (needs root or a delegated cgroup)"));
}

static bool set_limit(hr_child *c, uint64_t bytes)
{
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)bytes);
    if (c->cg_v1) {
        if (!write_file(c->cg, "memory.limit_in_bytes", v))
            return false;
        char p[4200];
        snprintf(p, sizeof p, "%s/memory.memsw.limit_in_bytes", c->cg);
        if (access(p, F_OK) == 0)
            write_file(c->cg, "memory.memsw.limit_in_bytes", v);
        return true;
    }
    if (!write_file(c->cg, "memory.max", v))
        return false;
    write_file(c->cg, "memory.swap.max", "0");
    return true;
}

int hr_child_start(const hr_child_opts *o, hr_child **out, char *note, size_t note_n, hr_error *err)
{
    note[0] = '\0';
    hr_child *c = calloc(1, sizeof *c);
    if (!c)
        return hr_error_set(err, HR_ENOMEM, HR_T("run: out of memory"));
    c->out_fd = c->err_fd = -1;
    c->guard = -1;
    if (o->own_cgroup || o->limit_bytes)
        make_cgroup(c, note, note_n);
    if (o->limit_bytes) {
        if (!c->cg[0]) {
            int r = hr_error_set(err, HR_ENOTSUP, HR_T("run: --limit needs a memory cgroup: %s"), note);
            free(c);
            return r;
        }
        if (!set_limit(c, o->limit_bytes)) {
            int r = hr_error_set(err, HR_EIO, HR_T("run: %s: cannot set the memory limit: %s"), c->cg, strerror(errno));
            rmdir(c->cg);
            free(c);
            return r;
        }
    }
    int procs_fd = -1;
    if (c->cg[0]) {
        char p[4200];
        snprintf(p, sizeof p, "%s/cgroup.procs", c->cg);
        procs_fd = open(p, O_WRONLY | O_CLOEXEC);
    }
    int po[2], pe[2], ps[2];
    if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0 || pipe2(ps, O_CLOEXEC) != 0) {
        int r = hr_error_set(err, HR_EIO, HR_T("run: pipe: %s"), strerror(errno));
        if (c->cg[0])
            rmdir(c->cg);
        free(c);
        return r;
    }
    /* output as it happens, so that what the child printed before dying is in the log */
    if (!getenv("PYTHONUNBUFFERED"))
        setenv("PYTHONUNBUFFERED", "1", 0);
    c->start_wall = hr_platform_wall_ms();
    /* the child's standard input: a terminal is not its to read (it runs in a process group
     * of its own, in the background: a read would stop it), anything else is passed on */
    int in_fd = isatty(0) ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int r = hr_error_set(err, HR_EIO, HR_T("run: fork: %s"), strerror(errno));
        if (c->cg[0])
            rmdir(c->cg);
        free(c);
        return r;
    }
    if (pid == 0) {
        /* the child: async-signal-safe calls only until exec. It dies with headroom (a
         * SIGKILL of headroom included; checked again after, in case headroom died
         * first), and leads a process group of its own, so that a signal reaches
         * everything it starts. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        setpgid(0, 0);
        if (in_fd >= 0)
            dup2(in_fd, 0);
        if (procs_fd >= 0) {
            if (write(procs_fd, "0\n", 2) < 0) {
                /* stays in headroom's cgroup; the parent reads no record from it */
            }
        }
        dup2(po[1], 1);
        dup2(pe[1], 2);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(o->argv[0], o->argv);
        int e = errno;
        if (write(ps[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    if (in_fd >= 0)
        close(in_fd);
    close(po[1]);
    close(pe[1]);
    close(ps[1]);
    if (procs_fd >= 0)
        close(procs_fd);
    int e = 0;
    ssize_t n;
    do
        n = read(ps[0], &e, sizeof e);
    while (n < 0 && errno == EINTR);
    close(ps[0]);
    c->pid = pid;
    c->out_fd = po[0];
    c->err_fd = pe[0];
    if (n == (ssize_t)sizeof e) {
        int st;
        waitpid(pid, &st, 0);
        hr_child_close(c);
        return hr_error_set(err, e == ENOENT ? HR_ENOENT : HR_EIO, "run: %s: %s", o->argv[0], strerror(e));
    }
    fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(c->err_fd, F_SETFL, O_NONBLOCK);
    c->guard = hr_lx_guard_start(pid, c->cg);
    *out = c;
    return 0;
}

int64_t hr_child_pid(const hr_child *c)
{
    return c->pid;
}

const char *hr_child_cgroup(const hr_child *c)
{
    return c->cg[0] ? c->cg : NULL;
}

void *hr_child_job(const hr_child *c)
{
    (void)c;
    return NULL;
}

static volatile sig_atomic_t pending_sig;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    (void)si;
    /* the child has a process group of its own: Ctrl-C from the terminal, like a kill or a
     * service manager's stop, reaches headroom alone and is passed on to that group */
    pending_sig = sig;
}

void hr_child_catch_signals(hr_child *c)
{
    (void)c;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: poll returns at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void reap(hr_child *c, int flags)
{
    if (c->reaped)
        return;
    int st;
    pid_t r;
    do
        r = waitpid(c->pid, &st, flags);
    while (r < 0 && errno == EINTR);
    if (r == c->pid) {
        c->reaped = true;
        c->status = st;
        c->reaped_ms = hr_platform_mono_ms();
        c->end_wall = hr_platform_wall_ms();
    }
}

static void drain(hr_child *c, int *fd, int stream, hr_child_out_fn out, void *ctx)
{
    for (;;) {
        ssize_t n = read(*fd, c->buf, sizeof c->buf);
        if (n > 0) {
            out(ctx, stream, c->buf, (size_t)n);
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
            close(*fd);
            *fd = -1;
        }
        return;
    }
}

int hr_child_pump(hr_child *c, int64_t timeout_ms, hr_sampler *wake, hr_child_out_fn out, void *ctx)
{
    if (pending_sig) {
        int s = pending_sig;
        pending_sig = 0;
        if (kill(-c->pid, s) != 0) /* the whole group: what the child started too */
            kill(c->pid, s);
    }
    struct pollfd p[3];
    int np = 0;
    if (c->out_fd >= 0)
        p[np++] = (struct pollfd){ .fd = c->out_fd, .events = POLLIN };
    if (c->err_fd >= 0)
        p[np++] = (struct pollfd){ .fd = c->err_fd, .events = POLLIN };
    int npipes = np;
    /* the sampler's PSI trigger beside the pipes: a memory stall ends the wait early */
    int psi = timeout_ms > 0 ? hr_lx_sampler_psi_fd(wake) : -1;
    if (psi >= 0)
        p[np++] = (struct pollfd){ .fd = psi, .events = POLLPRI };
    bool pressure = false;
    if (np) {
        int r = poll(p, (nfds_t)np, (int)(timeout_ms < 0 ? 0 : timeout_ms));
        if (r > 0) {
            if (c->out_fd >= 0)
                drain(c, &c->out_fd, 1, out, ctx);
            if (c->err_fd >= 0)
                drain(c, &c->err_fd, 2, out, ctx);
            if (psi >= 0)
                pressure = hr_lx_sampler_psi_event(wake, p[npipes].revents) == 1;
        }
    } else if (!c->reaped) {
        hr_platform_sleep_ms(timeout_ms);
    }
    reap(c, WNOHANG);
    if (!c->reaped)
        return pressure ? 2 : 0;
    if (c->out_fd < 0 && c->err_fd < 0)
        return 1;
    /* ended, but something it started still holds the pipes: read what is there, then go */
    if (hr_platform_mono_ms() - c->reaped_ms > 500) {
        if (c->out_fd >= 0)
            drain(c, &c->out_fd, 1, out, ctx);
        if (c->err_fd >= 0)
            drain(c, &c->err_fd, 2, out, ctx);
        if (c->out_fd >= 0)
            close(c->out_fd);
        if (c->err_fd >= 0)
            close(c->err_fd);
        c->out_fd = c->err_fd = -1;
        return 1;
    }
    return 0;
}

static int64_t kv(const char *dir, const char *file, const char *key)
{
    char buf[2048];
    if (!hr_lx_read_in(dir, file, buf, sizeof buf))
        return -1;
    uint64_t v;
    if (!key) {
        return hr_parse_u64(buf, strcspn(buf, "\n"), &v) ? (int64_t)v : -1;
    }
    return hr_kv_u64(buf, strlen(buf), key, ' ', &v) ? (int64_t)v : -1;
}

void hr_child_result(hr_child *c, hr_child_exit *e)
{
    memset(e, 0, sizeof e[0]);
    reap(c, 0);
    e->exited = WIFEXITED(c->status);
    e->code = e->exited ? WEXITSTATUS(c->status) : 0;
    e->signal = WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0;
    e->oom_kill = -1;
    e->peak = -1;
    e->start_wall_ms = c->start_wall;
    e->end_wall_ms = c->end_wall;
    if (c->cg[0]) {
        if (c->cg_v1) {
            e->oom_kill = kv(c->cg, "memory.oom_control", "oom_kill");
            e->peak = kv(c->cg, "memory.max_usage_in_bytes", NULL);
        } else {
            e->oom_kill = kv(c->cg, "memory.events", "oom_kill");
            e->peak = kv(c->cg, "memory.peak", NULL);
        }
    }
}

void hr_child_close(hr_child *c)
{
    if (!c)
        return;
    if (c->out_fd >= 0)
        close(c->out_fd);
    if (c->err_fd >= 0)
        close(c->err_fd);
    if (c->cg[0]) {
        /* what the child left running goes back to headroom's cgroup; then the group goes */
        char procs[4096];
        for (int round = 0; round < 50; round++) {
            if (hr_lx_read_in(c->cg, "cgroup.procs", procs, sizeof procs)) {
                char *save = NULL;
                for (char *t = strtok_r(procs, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
                    char v[32];
                    snprintf(v, sizeof v, "%s\n", t);
                    write_file(c->cg_parent, "cgroup.procs", v);
                }
            }
            if (rmdir(c->cg) == 0 || errno == ENOENT)
                break;
            hr_platform_sleep_ms(20);
        }
    }
    hr_lx_guard_done(c->guard, true);
    free(c);
}

bool hr_platform_write_stream(int stream, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(stream == 2 ? 2 : 1, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}
