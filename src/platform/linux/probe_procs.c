#include "probe_procs.h"
#include "core/base/i18n.h"

#include "core/model/procs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read at most cap bytes of a small /proc file; -1 on error (errno set). Opened without
 * blocking, and only a regular file is read: a FIFO in a recorded tree must not hang us. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    size_t got = 0;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    return (ssize_t)got;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

int hr_linux_probe_procs(const char *sysroot, hr_procs *out)
{
    char dir[4096];
    const char *root = sysroot && *sysroot ? sysroot : "/";
    size_t rl = strlen(root);
    snprintf(dir, sizeof dir, "%s%sproc", root, rl && root[rl - 1] == '/' ? "" : "/");
    out->count = 0;
    out->python_pid_count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        hr_section_fail(&out->s, "%s: %s", dir, strerror(errno));
        return hr_error_from_errno(errno);
    }
    char *buf = malloc(HR_PROC_STATUS_MAX + 1);
    if (!buf) {
        closedir(d);
        hr_section_fail(&out->s, HR_N("out of memory listing processes"));
        return HR_ENOMEM;
    }
    hr_proc_table t;
    hr_proc_table_init(&t);
    int seen = 0, malformed = 0;
    char first_bad[256] = "";
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!all_digits(e->d_name))
            continue;
        char path[4400];
        if (snprintf(path, sizeof path, "%s/%s/status", dir, e->d_name) >= (int)sizeof path)
            continue;
        ssize_t n = read_small(path, buf, HR_PROC_STATUS_MAX + 1);
        if (n < 0)
            continue; /* gone, or not ours to read */
        hr_proc_status st;
        hr_error err = { 0 };
        int r = hr_proc_status_parse(buf, (size_t)n, &st, &err);
        if (r == HR_ENOENT)
            continue; /* kernel thread */
        if (r < 0) {
            if (!malformed++ && snprintf(first_bad, sizeof first_bad, "%s: %s", path, err.msg) < 0)
                first_bad[0] = '\0';
            continue;
        }
        seen++;
        int64_t pid = strtoll(e->d_name, NULL, 10);
        hr_proc_table_add(&t, st.name, pid, st.rss_bytes, st.anon_bytes + st.swap_bytes);
        const char *kind = hr_proc_kind(st.name);
        if (kind && strcmp(kind, "python") == 0 && out->python_pid_count >= 0) {
            if (out->python_pid_count < HR_MAX_PYTHON_PIDS)
                out->python_pid[out->python_pid_count++] = pid;
            else
                out->python_pid_count = -1;
        }
    }
    closedir(d);
    free(buf);
    hr_proc_table_top(&t, out);
    hr_proc_table_free(&t);
    if (seen == 0) {
        hr_section_fail(&out->s, HR_N("%s: no process could be read%s%s"), dir, first_bad[0] ? ": " : "", first_bad);
        return HR_EPARTIAL;
    }
    hr_section_ok(&out->s, "/proc/[pid]/status");
    if (malformed)
        hr_section_fail(&out->s, HR_N("%d status files malformed, first %s"), malformed, first_bad);
    return 0;
}
