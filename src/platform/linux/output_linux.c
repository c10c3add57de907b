/* headroom — Linux: the files written where the user says (platform.h: --log, --record,
 * --html, -o, --textfile). Everything is done relative to the folder opened once (openat,
 * renameat), so a path swapped after the checks is never the one written. */
#define _GNU_SOURCE 1 /* O_NOFOLLOW, O_DIRECTORY, O_CLOEXEC by name on every libc */
#include "platform/platform.h"
#include "lx_read.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int sys_err(hr_error *err, const char *path)
{
    int e = errno;
    return hr_error_set(err, hr_error_from_errno(e), "%s: %s", path, strerror(e));
}

/* The user sudo ran headroom for (SUDO_UID), or (uid_t)-1: who set the environment of a root
 * process holds root already, so the variable is no way in. */
static uid_t sudo_uid(void)
{
    const char *v = getenv("SUDO_UID");
    char *end;
    if (!v || !*v)
        return (uid_t)-1;
    unsigned long u = strtoul(v, &end, 10);
    return *end || u == 0 || u > 0x7fffffffUL ? (uid_t)-1 : (uid_t)u;
}

/* Open the folder of path (links in the folder's own path are followed: that is where the
 * user pointed) and check it; *base points at the last part. */
static int open_folder(const char *path, int *dfd, const char **base, hr_error *err)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: not a file name"), path);
    if (!slash)
        hr_strlcpy(dir, ".", sizeof dir);
    else if (slash == path)
        hr_strlcpy(dir, "/", sizeof dir);
    else if ((size_t)(slash - path) >= sizeof dir)
        return hr_error_set(err, HR_ERANGE, HR_T("%s: path too long"), path);
    else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return sys_err(err, path); /* the file named, as the user wrote it */
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int r = sys_err(err, dir);
        close(fd);
        return r;
    }
    if (geteuid() == 0) {
        /* As root, a folder someone else can write in is theirs to plant a link or a file
         * in between any check and the write; /tmp (root's, sticky) is not: there nobody
         * can rename or remove what root made. The folder of the user who ran sudo is theirs
         * alone: they hold root already, so `sudo headroom run --log run.log` in their home
         * writes there (the last part is still never followed, and no one else may write). */
        bool others_write = (st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0);
        bool owner_ok = st.st_uid == 0 || (st.st_uid == sudo_uid() && !(st.st_mode & (S_IWGRP | S_IWOTH)));
        if (!owner_ok || (others_write && !(st.st_mode & S_ISVTX))) {
            close(fd);
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("%s: refused: running as root, and the "
                                     "folder %s can be written by another user (owner %u, mode %04o), "
                                     "who could put a link there to a file of root's; write it in a "
                                     "folder only root can write"),
                                path, dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
        }
    }
    *dfd = fd;
    return 0;
}

/* What is at the last part, if anything, must be a regular file of ours (not a link). */
static int check_existing(const char *path, const struct stat *st, bool stream, hr_error *err)
{
    if (S_ISLNK(st->st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; not writing through it"), path);
    if (!S_ISREG(st->st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s: not a regular file; not writing over it"), path);
    if (st->st_uid != geteuid())
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s belongs to user %u, not to the user running "
                                 "headroom (%u); not writing over it"),
                            path, (unsigned)st->st_uid, (unsigned)geteuid());
    /* a second name of the same file (a hard link) would be written through, elsewhere */
    if (stream && st->st_nlink > 1)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s has %lu names (hard links); not writing "
                                 "through it"),
                            path, (unsigned long)st->st_nlink);
    return 0;
}

/* Create ".BASE.XXXXXX" in the folder, new (O_EXCL), with a random part. */
static int make_temp(int dfd, const char *base, char *tmp, size_t n, hr_error *err, const char *path)
{
    static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int tries = 0; tries < 100; tries++) {
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd) {
            uint64_t x = (uint64_t)hr_platform_mono_ms() * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)tries;
            for (size_t i = 0; i < sizeof rnd; i++, x >>= 8)
                rnd[i] = (unsigned char)x;
        }
        char suffix[7];
        for (size_t i = 0; i < 6; i++)
            suffix[i] = abc[rnd[i] % (sizeof abc - 1)];
        suffix[6] = '\0';
        if ((size_t)snprintf(tmp, n, ".%s.%s", base, suffix) >= n)
            return hr_error_set(err, HR_ERANGE, HR_T("%s: path too long"), path);
        int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            return sys_err(err, path);
    }
    return hr_error_set(err, HR_EEXIST, HR_T("%s: no free temporary name beside it"), path);
}

int hr_platform_output_replace(const char *path, const void *data, size_t len, hr_error *err)
{
    int dfd;
    const char *base;
    int r = open_folder(path, &dfd, &base, err);
    if (r < 0)
        return r;
    struct stat st;
    bool existed = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (existed && (r = check_existing(path, &st, false, err)) < 0) {
        close(dfd);
        return r;
    }
    mode_t mode = 0644;
    if (existed) {
        mode = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        mode &= ~um;
    }
    char tmp[NAME_MAX + 1];
    int fd = make_temp(dfd, base, tmp, sizeof tmp, err, path);
    if (fd < 0) {
        close(dfd);
        return fd;
    }
    if (hr_lx_write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0)
        r = sys_err(err, path);
    if (close(fd) != 0 && r == 0)
        r = sys_err(err, path);
    if (r == 0 && renameat(dfd, tmp, dfd, base) != 0)
        r = sys_err(err, path);
    if (r != 0)
        unlinkat(dfd, tmp, 0);
    else
        (void)fsync(dfd); /* the new name on disk too; a file system that cannot is no error */
    close(dfd);
    return r;
}

FILE *hr_platform_output_open(const char *path, hr_error *err)
{
    int dfd;
    const char *base;
    if (open_folder(path, &dfd, &base, err) < 0)
        return NULL;
    /* a device or a FIFO is not even opened (opening some has effects); no O_TRUNC: an
     * existing file is emptied only once the open one is known to be ours */
    struct stat st;
    if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && check_existing(path, &st, true, err) < 0) {
        close(dfd);
        return NULL;
    }
    int fd = openat(dfd, base, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == ELOOP)
            hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; not writing through it"), path);
        else
            sys_err(err, path);
        close(dfd);
        return NULL;
    }
    close(dfd);
    int r = fstat(fd, &st) != 0 ? sys_err(err, path) : check_existing(path, &st, true, err);
    if (r == 0 && ftruncate(fd, 0) != 0)
        r = sys_err(err, path);
    int fl = r == 0 ? fcntl(fd, F_GETFL) : -1;
    if (r == 0 && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0))
        r = sys_err(err, path);
    FILE *f = r == 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        if (r == 0)
            sys_err(err, path);
        close(fd);
    }
    return f;
}
