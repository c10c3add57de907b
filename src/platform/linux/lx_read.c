#include "lx_read.h"
#include "core/base/i18n.h"

#include "core/model/snapshot.h"
#include "core/base/i18n.h"
#include "core/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool hr_lx_live(const char *sysroot)
{
    return !sysroot || !sysroot[0] || strcmp(sysroot, "/") == 0;
}

void hr_lx_path(const char *sysroot, const char *path, char *out, size_t outn)
{
    if (hr_lx_live(sysroot))
        snprintf(out, outn, "%s", path);
    else
        snprintf(out, outn, "%s%s%s", sysroot, path[0] == '/' ? "" : "/", path);
}

int hr_lx_read(const char *sysroot, const char *path, hr_buf *b, size_t max, hr_error *err)
{
    char full[4096];
    hr_lx_path(sysroot, path, full, sizeof full);
    hr_buf_reset(b);
    /* A cut-short name would open another file (apply reads the state file through here). */
    if (strlen(path) + (hr_lx_live(sysroot) ? 0 : strlen(sysroot) + 1) >= sizeof full)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: path too long"), path);
    int fd = open(full, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        return hr_error_set(err, hr_error_from_errno(e), "%s: %s", path, strerror(e));
    }
    /* Only regular files (what /proc and /sys hold): a FIFO or device in a recorded tree
     * would block or never end. */
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return hr_error_set(err, HR_EPARSE, HR_T("%s: not a regular file"), path);
    }
    char chunk[16384];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            return hr_error_set(err, hr_error_from_errno(e), "%s: %s", path, strerror(e));
        }
        if (n == 0)
            break;
        if (b->len + (size_t)n > max) {
            close(fd);
            return hr_error_set(err, HR_ETOOBIG, HR_T("%s: larger than %zu bytes"), path, max);
        }
        int r = hr_buf_append(b, chunk, (size_t)n);
        if (r) {
            close(fd);
            return hr_error_set(err, r, "%s: %s", path, hr_strerror(r));
        }
    }
    close(fd);
    if (!b->data)
        hr_buf_append(b, "", 0);
    return 0;
}

bool hr_lx_read_str(const char *sysroot, const char *path, char *out, size_t outn)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_SMALL_FILE);
    bool ok = hr_lx_read(sysroot, path, &b, HR_LX_SMALL_FILE, NULL) == 0;
    if (ok) {
        hr_strlcpy(out, hr_buf_str(&b), outn);
        /* Binary junk in an attribute file must not reach the report. */
        for (char *p = out; *p; p++)
            if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
                *p = '?';
        hr_trim(out);
    }
    hr_buf_free(&b);
    return ok;
}

bool hr_lx_read_u64(const char *sysroot, const char *path, unsigned long long *out)
{
    char tmp[64];
    uint64_t v;
    if (!hr_lx_read_str(sysroot, path, tmp, sizeof tmp) || !hr_parse_u64(tmp, strlen(tmp), &v))
        return false;
    *out = v;
    return true;
}

bool hr_lx_exists(const char *sysroot, const char *path)
{
    char full[4096];
    struct stat st;
    hr_lx_path(sysroot, path, full, sizeof full);
    return stat(full, &st) == 0;
}

bool hr_lx_resolve(const char *sysroot, const char *path, char *out, size_t outn)
{
    /* Component by component, as the kernel walks a path: a symlink in the middle (sysfs's
     * /sys/class/drm/card0 -> ../../devices/...) moves the walk before the next component is
     * read, so a relative target after it ("device -> ../..") resolves from the real place. */
    char done[4096] = "", todo[4096];
    if (snprintf(todo, sizeof todo, "%s", path) >= (int)sizeof todo)
        return false;
    int hops = 0;
    for (;;) {
        char *t = todo;
        while (*t == '/')
            t++;
        if (!*t)
            break;
        char *e = strchr(t, '/');
        size_t n = e ? (size_t)(e - t) : strlen(t);
        char comp[256], rest[4096];
        if (n >= sizeof comp)
            return false;
        memcpy(comp, t, n);
        comp[n] = '\0';
        hr_strlcpy(rest, t + n, sizeof rest);
        hr_strlcpy(todo, rest, sizeof todo);
        if (strcmp(comp, ".") == 0)
            continue;
        if (strcmp(comp, "..") == 0) {
            char *slash = strrchr(done, '/');
            if (slash)
                *slash = '\0';
            continue;
        }
        char cand[4096], full[4096], target[4096];
        if (snprintf(cand, sizeof cand, "%s/%s", done, comp) >= (int)sizeof cand)
            return false;
        hr_lx_path(sysroot, cand, full, sizeof full);
        ssize_t len = readlink(full, target, sizeof target - 1);
        if (len < 0) {
            if (errno != EINVAL)
                return false;
            hr_strlcpy(done, cand, sizeof done); /* not a link */
            continue;
        }
        if (++hops > 32)
            return false;
        target[len] = '\0';
        if (target[0] == '/')
            done[0] = '\0';
        if (snprintf(todo, sizeof todo, "%s/%s", target, rest) >= (int)sizeof todo)
            return false;
    }
    hr_strlcpy(out, done[0] ? done : "/", outn);
    return true;
}

bool hr_lx_read_in(const char *dir, const char *name, char *out, size_t outn)
{
    char p[4200];
    if (outn == 0 || (size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p)
        return false;
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t r = read(fd, out, outn - 1);
    close(fd);
    if (r < 0)
        return false;
    out[r] = '\0';
    return true;
}

int hr_lx_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}
