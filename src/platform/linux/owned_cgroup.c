/* headroom — Linux: the memory cgroups run and stress make for a child, and what happens to
 * them when headroom itself is killed (linux_probes.h). A group is named after its maker
 * and that maker's start time, so a later process with the same pid never takes over a
 * group (and its limit) left behind; a group whose maker is gone is removed by the next
 * run. A guard process removes the child, everything it started and the group at once when
 * headroom dies without cleaning up (SIGKILL included). */
#define _GNU_SOURCE
#include "linux_probes.h"
#include "lx_read.h"

#include "core/base/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The start time of process pid (field 22 of /proc/PID/stat, clock ticks since boot): with
 * the pid, the name of one process for as long as the machine runs. 0 when it is gone. */
static unsigned long long start_time(long pid)
{
    char p[64], buf[1024];
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *s = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
    if (!s)
        return 0;
    s++;
    for (int field = 3; field < 22 && *s; field++) { /* skip fields 3 to 21 */
        while (*s == ' ')
            s++;
        while (*s && *s != ' ')
            s++;
    }
    return strtoull(s, NULL, 10);
}

bool hr_lx_owned_cg_name(const char *parent, const char *prefix, char *out, size_t n)
{
    long pid = (long)getpid();
    int w = snprintf(out, n, "%s/%s-%ld-%llu", parent, prefix, pid, start_time(pid));
    return w > 0 && (size_t)w < n;
}

void hr_lx_owned_cg_remove(const char *dir)
{
    /* cgroup.kill (Linux 5.14) kills every process in the group at once, forks included;
     * else each one listed, until none is left */
    char p[4200];
    snprintf(p, sizeof p, "%s/cgroup.kill", dir);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (write(fd, "1", 1) != 1) {
            /* an older kernel's refusal: the loop below does it */
        }
        close(fd);
    }
    for (int round = 0; round < 100; round++) {
        char procs[4096];
        if (hr_lx_read_in(dir, "cgroup.procs", procs, sizeof procs)) {
            char *save = NULL;
            for (char *t = strtok_r(procs, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
                long pid = strtol(t, NULL, 10);
                if (pid > 0)
                    kill((pid_t)pid, SIGKILL);
            }
        }
        if (rmdir(dir) == 0 || errno == ENOENT)
            return;
        usleep(20 * 1000); /* the kernel uncharges a killed process's pages a moment later */
    }
}

void hr_lx_owned_cg_sweep(const char *parent, const char *prefix)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    size_t pn = strlen(prefix);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, pn) != 0 || e->d_name[pn] != '-')
            continue;
        char *end;
        long pid = strtol(e->d_name + pn + 1, &end, 10);
        if (pid <= 0)
            continue;
        /* "<prefix>-<pid>" alone is the old name: its maker is not known, and one named so
         * is taken as stale only when that pid is gone */
        unsigned long long start = 0;
        if (*end == '-')
            start = strtoull(end + 1, &end, 10);
        if (*end)
            continue;
        unsigned long long now = start_time(pid);
        if (now != 0 && (start == 0 || now == start))
            continue; /* its maker is alive */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%s", parent, e->d_name);
        hr_lx_owned_cg_remove(dir);
    }
    closedir(d);
}

int hr_lx_guard_start(pid_t pgid, const char *cg)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t g = fork();
    if (g < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (g == 0) {
        /* the guard: holds nothing of headroom's (not its output, not the child's pipes),
         * ignores the terminal's signals, and waits for headroom's end on the pipe */
        int keep = p[0];
        for (int fd = 0; fd < 1024; fd++)
            if (fd != keep)
                close(fd);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            if (null > 2)
                close(null);
        }
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        /* headroom gone already: the read below sees the end at once */
        char c = 0;
        ssize_t n;
        do
            n = read(keep, &c, 1);
        while (n < 0 && errno == EINTR);
        if (n == 1 && c == 'd')
            _exit(0); /* headroom cleaned up itself */
        if (pgid > 0)
            kill(-pgid, SIGKILL);
        if (cg && cg[0])
            hr_lx_owned_cg_remove(cg);
        _exit(0);
    }
    close(p[0]);
    return p[1];
}

void hr_lx_guard_done(int fd, bool cleaned)
{
    if (fd < 0)
        return;
    if (cleaned && write(fd, "d", 1) != 1) {
        /* the guard then cleans: what it kills is gone already */
    }
    close(fd);
}
