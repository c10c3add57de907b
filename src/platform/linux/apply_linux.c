/* headroom — Linux side of apply / rollback / verify: gather facts, run steps, undo them.
 *
 * Every step leaves the system consistent (the failpoint tests prove it): the state file
 * says what was done before the next step starts; fstab names the new file only once it is
 * a working swap area; the old area goes off only after the new one is on (S3.1). */
#define _GNU_SOURCE 1   /* fallocate(2) */
#include "apply_linux.h"
#include "linux_probes.h"
#include "lx_read.h"

#include "platform/platform.h"

#include "core/apply/apply_state.h"
#include "core/base/i18n.h"
#include "core/model/fstab.h"
#include "core/model/meminfo.h"
#include "core/model/swap_header.h"
#include "core/model/swaps.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_STATE_DIR "/var/lib/headroom"
#define DEFAULT_FSTAB "/etc/fstab"

const char *hr_platform_state_dir(void)
{
    return DEFAULT_STATE_DIR;
}

bool hr_platform_is_admin(void)
{
    return geteuid() == 0;
}

static int sys_err(hr_error *err, const char *what, const char *path)
{
    int e = errno;
    return hr_error_set(err, hr_error_from_errno(e), "%s %s: %s", what, path, strerror(e));
}

static int write_all(int fd, const void *p, size_t n)
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

static void split_dir(const char *path, char *dir, size_t n)
{
    hr_strlcpy(dir, path, n);
    char *slash = strrchr(dir, '/');
    if (!slash)
        hr_strlcpy(dir, ".", n);
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int r = fsync(fd);
    close(fd);
    return r;
}

/* The one temporary name for a file being replaced: recovery finds it by name (no random
 * part), and only one headroom run at a time writes (the state directory's lock). */
void hr_lx_tmp_name(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s%s", path, HR_LX_TMP_SUFFIX);
}

/* Remove PATH.headroom-tmp if it is there (a regular file: a link is removed, never followed). */
void hr_lx_remove_tmp(const char *path)
{
    char tmp[PATH_MAX + 32];
    struct stat st;
    hr_lx_tmp_name(path, tmp, sizeof tmp);
    if (lstat(tmp, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
        unlink(tmp);
}

int hr_platform_atomic_replace(const char *path, const void *data, size_t len, unsigned mode,
                               hr_error *err)
{
    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    split_dir(path, dir, sizeof dir);
    struct stat st;
    bool existed = lstat(path, &st) == 0;
    if (existed && S_ISLNK(st.st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; not replacing it"), path);
    if (strlen(path) + sizeof HR_LX_TMP_SUFFIX > sizeof tmp)
        return hr_error_set(err, HR_ERANGE, HR_T("%s: path too long"), path);
    hr_lx_tmp_name(path, tmp, sizeof tmp);
    hr_lx_remove_tmp(path);   /* left by a run that was killed: ours, by its name */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return sys_err(err, HR_T("create temporary file"), tmp);
    int r = 0;
    if (write_all(fd, data, len) != 0)
        r = sys_err(err, HR_T("write"), tmp);
    else if (fchmod(fd, existed ? (st.st_mode & 07777) : mode) != 0)
        r = sys_err(err, "chmod", tmp);
    else if (existed && fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
        r = sys_err(err, "chown", tmp);
    else if (fsync(fd) != 0)
        r = sys_err(err, "fsync", tmp);
    if (close(fd) != 0 && r == 0)
        r = sys_err(err, HR_T("close"), tmp);
    if (r == 0 && rename(tmp, path) != 0)
        r = sys_err(err, HR_T("rename over"), path);
    if (r != 0) {
        unlink(tmp);
        return r;
    }
    if (fsync_dir(dir) != 0)
        return sys_err(err, HR_T("fsync directory"), dir);
    return 0;
}

static const char *fs_name(unsigned long magic)
{
    switch (magic) {
    case EXT4_SUPER_MAGIC: return "ext4";   /* ext2/3/4 share the magic; one driver */
    case XFS_SUPER_MAGIC: return "xfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case OVERLAYFS_SUPER_MAGIC: return "overlay";
    case NFS_SUPER_MAGIC: return "nfs";
    case FUSE_SUPER_MAGIC: return "fuse";
    case 0xFF534D42: return "cifs";
    case 0xFE534D42: return "smb3";
    case 0x2fc12fc1: return "zfs";
    case 0xF2F52010: return "f2fs";
    case 0x4d44: return "vfat";
    case 0x5346544e: return "ntfs";
    case 0x7366746e: return "ntfs3";
    case SQUASHFS_MAGIC: return "squashfs";
    default: return NULL;
    }
}

int hr_lx_fs_facts(const char *dir, hr_fs_facts *fs, hr_error *err)
{
    memset(fs, 0, sizeof *fs);
    struct statfs sf;
    struct statvfs sv;
    if (statfs(dir, &sf) != 0)
        return sys_err(err, "statfs", dir);
    if (statvfs(dir, &sv) != 0)
        return sys_err(err, "statvfs", dir);
    const char *n = fs_name((unsigned long)sf.f_type);
    if (n)
        hr_strlcpy(fs->type, n, sizeof fs->type);
    else
        snprintf(fs->type, sizeof fs->type, "0x%lx", (unsigned long)sf.f_type);
    fs->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
    fs->free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
    fs->read_only = (sv.f_flag & ST_RDONLY) != 0;
    if (strcmp(fs->type, "btrfs") == 0) {
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct btrfs_ioctl_fs_info_args info;
        memset(&info, 0, sizeof info);
        if (fd >= 0 && ioctl(fd, BTRFS_IOC_FS_INFO, &info) == 0)
            fs->devices = (int)info.num_devices;
        if (fd >= 0)
            close(fd);
    }
    return 0;
}

int hr_lx_random(unsigned char *out, size_t n, hr_error *err)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(out + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return sys_err(err, "getrandom", "");
        }
        got += (size_t)r;
    }
    return 0;
}

int hr_lx_swapfile_create(const char *path, bool btrfs, uint64_t *dev, uint64_t *ino,
                          hr_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return sys_err(err, HR_T("create"), path);
    int r = 0;
    struct stat st;
    if (fchmod(fd, 0600) != 0)   /* whatever the umask */
        r = sys_err(err, "chmod 0600", path);
    if (r == 0 && btrfs) {
        /* No copy-on-write (hence no compression, no checksums): set while empty, or btrfs
         * ignores it. The ioctl takes an int despite the long in its definition. */
        int flags = 0;
        if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0)
            r = sys_err(err, "FS_IOC_GETFLAGS", path);
        else {
            flags |= FS_NOCOW_FL;
            flags &= ~FS_COMPR_FL;
            if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
                r = sys_err(err, HR_T("set no-copy-on-write (FS_IOC_SETFLAGS) on"), path);
            else if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0 || !(flags & FS_NOCOW_FL))
                r = hr_error_set(err, HR_ENOTSUP, HR_T("%s: btrfs did not keep the no-copy-on-write "
                                 "flag"), path);
        }
    }
    if (r == 0 && fstat(fd, &st) != 0)
        r = sys_err(err, "fstat", path);
    if (r == 0 && fsync(fd) != 0)
        r = sys_err(err, "fsync", path);
    close(fd);
    if (r != 0) {
        unlink(path);   /* we created it a moment ago with O_EXCL: it is ours */
        return r;
    }
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    char dir[PATH_MAX];
    split_dir(path, dir, sizeof dir);
    fsync_dir(dir);
    return 0;
}

/* Open our file again, refusing links and anything that is not the file we created. */
static int open_ours(const char *path, int flags, uint64_t dev, uint64_t ino, hr_error *err)
{
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return sys_err(err, HR_T("open"), path);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_dev != dev ||
        (uint64_t)st.st_ino != ino) {
        close(fd);
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom created"), path);
    }
    return fd;
}

int hr_lx_swapfile_allocate(const char *path, uint64_t size, uint64_t dev, uint64_t ino,
                            hr_error *err)
{
    int fd = open_ours(path, O_WRONLY, dev, ino, err);
    if (fd < 0)
        return fd;
    int r = 0;
    if (fallocate(fd, 0, 0, (off_t)size) != 0) {
        if (errno != EOPNOTSUPP && errno != ENOSYS) {
            r = sys_err(err, HR_T("allocate"), path);
        } else {
            /* No fallocate here: write zeros, so that every block exists (no holes). The
             * zeros come from calloc, not a constant array that would sit in the binary. */
            enum { ZEROS = 1 << 20 };
            char *zeros = calloc(1, ZEROS);
            if (!zeros)
                r = hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
            uint64_t done = 0;
            while (r == 0 && done < size) {
                size_t n = size - done < ZEROS ? (size_t)(size - done) : ZEROS;
                if (write_all(fd, zeros, n) != 0)
                    r = sys_err(err, HR_T("write zeros to"), path);
                done += n;
            }
            free(zeros);
        }
    }
    if (r == 0 && fsync(fd) != 0)
        r = sys_err(err, "fsync", path);
    close(fd);
    return r;
}

int hr_lx_swapfile_write_header(const char *path, uint64_t size, size_t page_size,
                                const unsigned char uuid[16], const char *label, uint64_t dev,
                                uint64_t ino, hr_error *err)
{
    unsigned char *page = calloc(1, page_size);
    if (!page)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    int r = hr_swap_header_build(page, page_size, size, uuid, label, err);
    if (r < 0) {
        free(page);
        return r;
    }
    int fd = open_ours(path, O_WRONLY, dev, ino, err);
    if (fd < 0) {
        free(page);
        return fd;
    }
    ssize_t w = pwrite(fd, page, page_size, 0);
    if (w != (ssize_t)page_size)
        r = w < 0 ? sys_err(err, HR_T("write header to"), path)
                  : hr_error_set(err, HR_EIO, HR_T("%s: short write of the header"), path);
    /* A swapon() after this fails unless the signature is really on disk. */
    if (r == 0 && fsync(fd) != 0)
        r = sys_err(err, "fsync", path);
    close(fd);
    free(page);
    return r;
}

/* Turn on swap only on the file headroom made: opened without following links, the same
 * device and inode as recorded at creation, owned by root, mode 0600, one link, a swap
 * header. swapon() is then given the open file (/proc/self/fd/N), so that nothing can swap
 * the name between the check and the call. */
int hr_lx_swapon_checked(const char *path, int priority, uint64_t dev, uint64_t ino,
                         size_t page_size, hr_error *err)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ELOOP ? hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; headroom "
                                             "turns on only the file it created"), path)
                              : sys_err(err, HR_T("open"), path);
    struct stat st;
    int r = 0;
    if (fstat(fd, &st) != 0)
        r = sys_err(err, "fstat", path);
    else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
        r = hr_error_set(err, HR_EUNSAFE, HR_T("%s is not the file headroom created (device and "
                         "inode differ); not turning it on"), path);
    else if (st.st_uid != 0 || (st.st_mode & 07777) != 0600 || st.st_nlink != 1)
        r = hr_error_set(err, HR_EUNSAFE, HR_T("%s: owner %u, mode %04o, %lu links: headroom turns "
                         "on only its own root-owned 0600 file with one link"), path,
                         (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
                         (unsigned long)st.st_nlink);
    if (r == 0) {
        unsigned char *page = malloc(page_size);
        hr_swap_header_info hi;
        hr_error e2 = {0};
        if (!page)
            r = hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
        else if (pread(fd, page, page_size, 0) != (ssize_t)page_size ||
                 hr_swap_header_parse(page, page_size, page_size, &hi, &e2) != 0)
            r = hr_error_set(err, HR_EUNSAFE, HR_T("%s has no swap header; not turning it on"), path);
        free(page);
    }
    if (r == 0) {
        char self[64];
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        int flags = SWAP_FLAG_PREFER | ((priority << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
        struct stat ps;
        const char *name = stat(self, &ps) == 0 && ps.st_ino == st.st_ino ? self : path;
        if (swapon(name, flags) != 0)
            r = sys_err(err, "swapon", path);
    }
    close(fd);
    return r;
}

/* swapoff must bring every page in the area back into RAM. It fails with ENOMEM when it
 * cannot: memory is short, or the pages belong to a memory cgroup that is at its limit
 * (they come back charged to it). Both are often brief (a process about to be killed or to
 * exit), so wait a little and try again before giving up; the area stays on, nothing is lost,
 * and the caller's journal still lets the user run the command again. */
int hr_lx_swapoff(const char *path, hr_error *err)
{
    long wait_ms = 250;
    for (int attempt = 0; swapoff(path) != 0; attempt++) {
        if (errno != ENOMEM || attempt == 5) {
            if (errno == ENOMEM)
                return hr_error_set(err, hr_error_from_errno(ENOMEM),
                                    HR_T("swapoff %s: not enough free memory to take back the pages now in "
                                         "that swap (tried for 8 s); it stays on. Close programs, then run the "
                                         "command again"),
                                    path);
            return sys_err(err, "swapoff", path);
        }
        struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        wait_ms *= 2;
    }
    return 0;
}

int hr_lx_active_swaps(hr_swap_active *out, int max, int *count, hr_error *err)
{
    *count = 0;
    hr_buf b;
    hr_buf_init(&b, (size_t)4 << 20);
    int r = hr_lx_read(NULL, "/proc/swaps", &b, (size_t)4 << 20, err);
    hr_swap_area *areas = calloc(HR_MAX_PAGING, sizeof *areas);
    int n = 0;
    if (r == 0 && !areas)
        r = hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    if (r == 0)
        r = hr_parse_swaps(hr_buf_str(&b), b.len, "/proc/swaps", areas, HR_MAX_PAGING, &n, err);
    hr_buf_free(&b);
    for (int i = 0; r == 0 && i < n && i < max; i++) {
        hr_strlcpy(out[i].path, areas[i].path, sizeof out[i].path);
        out[i].is_file = areas[i].kind == HR_PAGING_FILE;
        out[i].size_bytes = areas[i].size_bytes;
        out[i].used_bytes = areas[i].used_bytes;
        out[i].priority = areas[i].priority;
        (*count)++;
    }
    free(areas);
    return r;
}

/* StrictModes, as sshd checks a user's files: refuse a directory that anyone but root can
 * write, at any level up to /. Above the target directory a root-owned directory with the
 * sticky bit (/tmp) is accepted: there nobody else can rename or delete what root made. */
int hr_lx_dir_root_only(const char *real_dir, hr_error *err)
{
    char p[PATH_MAX];
    hr_strlcpy(p, real_dir, sizeof p);
    bool first = true;
    for (;;) {
        struct stat st;
        if (lstat(p, &st) != 0)
            return sys_err(err, "lstat", p);
        if (!S_ISDIR(st.st_mode))
            return hr_error_set(err, HR_EUNSAFE, HR_T("%s is not a directory"), p);
        bool others_write = (st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0);
        if (st.st_uid != 0)
            return hr_error_set(err, HR_EUNSAFE, HR_T("%s belongs to user %u, not root: its owner "
                                "could replace the swap file (which then holds the memory "
                                "swapped into it); choose a directory only root can write"),
                                p, (unsigned)st.st_uid);
        if (others_write && (first || !(st.st_mode & S_ISVTX)))
            return hr_error_set(err, HR_EUNSAFE, HR_T("%s is writable by users other than root "
                                "(mode %04o): one of them could replace the swap file (which "
                                "then holds the memory swapped into it); choose a directory "
                                "only root can write"), p, (unsigned)(st.st_mode & 07777));
        if (strcmp(p, "/") == 0)
            return 0;
        char up[PATH_MAX];
        split_dir(p, up, sizeof up);
        hr_strlcpy(p, up, sizeof p);
        first = false;
    }
}

/* ---- state file, journal, lock ---- */

static const char *state_dir(const hr_apply_request *rq)
{
    return rq->state_dir ? rq->state_dir : DEFAULT_STATE_DIR;
}

static const char *fstab_path(const hr_apply_request *rq)
{
    return rq->fstab_path ? rq->fstab_path : DEFAULT_FSTAB;
}

static void state_file(const hr_apply_request *rq, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", state_dir(rq), HR_APPLY_STATE_FILE);
}

/* 1: loaded; 0: no state file; <0: error. */
static int state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    char p[PATH_MAX];
    state_file(rq, p, sizeof p);
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    int r = hr_lx_read(NULL, p, &b, HR_APPLY_STATE_MAX_BYTES, err);
    r = hr_apply_state_load(r, &b, p, HR_OS_LINUX, st, err);
    hr_buf_free(&b);
    return r;
}

/* The state directory, made 0700 if it is not there; its parent must exist. */
static int make_state_dir(const char *d, hr_error *err)
{
    if (mkdir(d, 0700) == 0 || errno == EEXIST)
        return 0;
    if (errno == ENOENT) {
        char up[PATH_MAX];
        split_dir(d, up, sizeof up);
        return hr_error_set(err, HR_ENOENT, HR_T("state directory %s: its parent %s does not exist "
                            "(create it, or give --state-dir an existing place)"), d, up);
    }
    return sys_err(err, HR_T("create state directory"), d);
}

static int state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err)
{
    const char *d = state_dir(rq);
    int r = make_state_dir(d, err);
    if (r < 0)
        return r;
    char p[PATH_MAX];
    state_file(rq, p, sizeof p);
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    r = hr_apply_state_write(st, &b);
    if (r == 0)
        r = hr_platform_atomic_replace(p, b.data, b.len, 0600, err);
    else
        hr_error_set(err, r, HR_T("%s: could not render the state"), p);
    hr_buf_free(&b);
    return r;
}

static int lock_fd = -1;

/* Who holds a flock on (dev, ino)? From /proc/locks: "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INO ..." */
static void lock_holder(dev_t dev, ino_t ino, char *out, size_t n)
{
    hr_buf b;
    hr_buf_init(&b, (size_t)1 << 20);
    out[0] = '\0';
    if (hr_lx_read(NULL, "/proc/locks", &b, (size_t)1 << 20, NULL) == 0) {
        char want[64];
        snprintf(want, sizeof want, "%02x:%02x:%llu", major(dev), minor(dev),
                 (unsigned long long)ino);
        const char *line = hr_buf_str(&b);
        while (line && *line) {
            const char *nl = strchr(line, '\n');
            char l[256];
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), line);
            long pid = 0;
            char id[64] = "";
            if (strstr(l, "FLOCK") && sscanf(l, "%*s %*s %*s %*s %ld %63s", &pid, id) == 2 &&
                strcmp(id, want) == 0 && pid > 0) {
                char comm[64] = "", cp[64];
                snprintf(cp, sizeof cp, "/proc/%ld/comm", pid);
                hr_lx_read_str(NULL, cp, comm, sizeof comm);
                snprintf(out, n, "process %ld (%s)", pid, comm[0] ? comm : "?");
                break;
            }
            line = nl ? nl + 1 : NULL;
        }
    }
    hr_buf_free(&b);
}

int hr_platform_lock(const hr_apply_request *rq, bool create, int wait_s, hr_error *err)
{
    if (lock_fd >= 0)
        return 1;
    const char *d = state_dir(rq);
    if (create) {
        int r = make_state_dir(d, err);
        if (r < 0)
            return r;
    }
    for (int tries = 0;; tries++) {
        int fd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT && !create)
                return 0;   /* no state directory: nothing to lock, nothing recorded */
            return sys_err(err, HR_T("open state directory"), d);
        }
        struct stat st, now;
        fstat(fd, &st);
        if (st.st_uid != 0 && geteuid() == 0) {
            close(fd);
            return hr_error_set(err, HR_EUNSAFE, HR_T("state directory %s belongs to user %u, not "
                                "root"), d, (unsigned)st.st_uid);
        }
        int waited = 0;
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                int r = sys_err(err, HR_T("lock"), d);
                close(fd);
                return r;
            }
            if (waited >= wait_s * 10) {
                char who[128];
                lock_holder(st.st_dev, st.st_ino, who, sizeof who);
                close(fd);
                return hr_error_set(err, HR_EBUSY, HR_T("another headroom apply or rollback is "
                                    "working on %s (%s holds its lock); try again when it has "
                                    "finished"), d, who[0] ? who : HR_T("another process"));
            }
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
            waited++;
        }
        /* A rollback may have removed the directory while we waited: lock the one there now. */
        if (stat(d, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino) {
            lock_fd = fd;
            return 1;
        }
        close(fd);
        if (tries == 3)
            return hr_error_set(err, HR_EBUSY, HR_T("state directory %s keeps changing"), d);
        if (create) {
            int r = make_state_dir(d, err);
            if (r < 0)
                return r;
        }
    }
}

void hr_platform_unlock(void)
{
    if (lock_fd >= 0)
        close(lock_fd);
    lock_fd = -1;
}

static void utc_stamp(time_t t, char *out, size_t n, bool compact)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static bool is_active(const char *path)
{
    hr_swap_active *act = calloc(HR_MAX_PAGING, sizeof *act);
    int n = 0;
    hr_error e = {0};
    bool on = false;
    if (act && hr_lx_active_swaps(act, HR_MAX_PAGING, &n, &e) == 0)
        for (int i = 0; i < n; i++)
            if (strcmp(act[i].path, path) == 0)
                on = true;
    free(act);
    return on;
}

/* Is the file at path the one recorded (regular, same device and inode)? */
static bool is_ours(const char *path, uint64_t dev, uint64_t ino)
{
    struct stat s;
    return lstat(path, &s) == 0 && S_ISREG(s.st_mode) && (uint64_t)s.st_dev == dev &&
           (uint64_t)s.st_ino == ino && (dev || ino);
}

static int fstab_hash(const char *fp, uint64_t *h, bool *exists)
{
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_error e = {0};
    int r = hr_lx_read(NULL, fp, &b, HR_FSTAB_MAX_BYTES, &e);
    *exists = r != HR_ENOENT;
    if (r == 0)
        *h = hr_fnv1a64(b.data ? b.data : "", b.len);
    hr_buf_free(&b);
    return r == HR_ENOENT ? 0 : r;
}

/* Finish or undo the step a kill cut short (st->intent), and remove the temporary files a
 * killed run leaves: every later apply, rollback and verify (as root, holding the lock) runs
 * this first. Appends what it did to log. Returns 1 when it changed the state (saved). */
static int recover(const hr_apply_request *rq, hr_apply_state *st, hr_buf *log, hr_error *err)
{
    char sp[PATH_MAX];
    state_file(rq, sp, sizeof sp);
    hr_lx_remove_tmp(sp);
    const char *fp = st->fstab_path[0] ? st->fstab_path : fstab_path(rq);
    hr_lx_remove_tmp(fp);
    if (st->fstab_backup[0])
        hr_lx_remove_tmp(st->fstab_backup);
    const hr_apply_intent *in = &st->intent;
    bool changed = false;
    /* Areas still at their temporary name: without an identity the kill came between the
     * create and its record: the file under that name is ours (only we make that name, in a
     * directory only root can write). */
    for (int i = st->area_count - 1; i >= 0; i--) {
        hr_apply_area *a = &st->areas[i];
        if (!a->tmp[0])
            continue;
        if (!a->device && !a->inode) {
            struct stat s;
            if (lstat(a->tmp, &s) == 0 && S_ISREG(s.st_mode))
                unlink(a->tmp);
            if (log)
                hr_buf_printf(log, HR_T("recovered: removed the unfinished %s\n"), a->tmp);
            hr_apply_state_drop(st, a->path);
            changed = true;
        } else if (!is_ours(a->tmp, a->device, a->inode) && is_ours(a->path, a->device, a->inode)) {
            a->tmp[0] = '\0';   /* the rename to its name was done */
            changed = true;
        }
    }
    if (in->step[0]) {
        if (log)
            hr_buf_printf(log, HR_T("recovered: step '%s' was cut short; "), in->step);
        hr_apply_area *a = in->path[0] ? hr_apply_state_find(st, in->path) : NULL;
        if (strcmp(in->step, "fstab-add") == 0 || strcmp(in->step, "fstab-remove-old") == 0 ||
            strcmp(in->step, "rollback-fstab") == 0) {
            uint64_t h = 0;
            bool exists = false;
            fstab_hash(fp, &h, &exists);
            bool done = in->new_hash ? exists && h == in->new_hash : !exists;
            bool before = in->fstab_created ? !exists : exists && h == in->old_hash;
            if (strcmp(in->step, "rollback-fstab") == 0) {
                if (done)
                    st->fstab_written = false;
            } else if (done || !before) {
                /* Done (or changed by someone else as well): rollback takes out our lines. */
                st->fstab_written = true;
                if (done)
                    st->fstab_written_hash = in->new_hash;
                if (a)
                    a->in_fstab = strcmp(in->step, "fstab-add") == 0;
            }
            if (log)
                hr_buf_printf(log, "%s\n", done ? HR_T("it was done") : before ? HR_T("it was not done")
                                                                          : HR_T("fstab changed"));
        } else if (strcmp(in->step, "swapon") == 0 || strcmp(in->step, "swapoff-old") == 0) {
            if (a)
                a->enabled = is_active(a->path);
            if (log)
                hr_buf_printf(log, is_active(in->path) ? HR_T("%s is on\n") : HR_T("%s is off\n"), in->path);
        } else if (strcmp(in->step, "delete-old") == 0) {
            struct stat s;
            if (a && lstat(a->path, &s) != 0 && !a->tmp[0])
                hr_apply_state_drop(st, a->path);
            if (log)
                hr_buf_printf(log, HR_T("checked %s\n"), in->path);
        } else if (strcmp(in->step, "record") == 0) {
            struct stat s;
            if (st->fstab_backup[0] && lstat(st->fstab_backup, &s) != 0) {
                st->fstab_backup[0] = '\0';
                st->fstab_path[0] = '\0';
            }
            if (log)
                hr_buf_printf(log, HR_T("checked the fstab backup\n"));
        } else if (strcmp(in->step, "finish") == 0) {
            hr_strlcpy(st->status, "applied", sizeof st->status);
            if (log)
                hr_buf_printf(log, HR_T("marked applied\n"));
        } else if (log) {
            hr_buf_printf(log, HR_T("checked\n"));
        }
        memset(&st->intent, 0, sizeof st->intent);
        changed = true;
    }
    if (!changed)
        return 0;
    int r = state_save(rq, st, err);
    return r < 0 ? r : 1;
}

/* ---- facts and plan ---- */

static int read_fstab(const char *path, hr_buf *bytes, hr_fstab *f, bool *existed, hr_error *err)
{
    *existed = true;
    int r = hr_lx_read(NULL, path, bytes, HR_FSTAB_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        *existed = false;
        hr_error_clear(err);
        hr_buf_reset(bytes);
        r = 0;
    }
    if (r == 0)
        r = hr_fstab_parse(f, hr_buf_str(bytes), bytes->len, path, err);
    return r;
}

/* The target with its directory resolved once (symlinked parents followed), the last part
 * kept as given: a target that is itself a link is refused later. */
static int resolve_target(const char *target, char *out, size_t n, bool *is_dir, hr_error *err)
{
    char dir[PATH_MAX], real[PATH_MAX];
    struct stat ts;
    *is_dir = false;
    if (target[0] != '/')
        return hr_error_set(err, HR_EINVAL, HR_T("target '%s' must be an absolute path"), target);
    if (lstat(target, &ts) == 0 && S_ISDIR(ts.st_mode)) {
        if (!realpath(target, real))
            return sys_err(err, HR_T("resolve"), target);
        *is_dir = true;
        hr_strlcpy(out, real, n);
        return 0;
    }
    if (lstat(target, &ts) == 0 && S_ISLNK(ts.st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("target %s is a symbolic link; give the real path "
                            "(headroom never follows links when it creates a swap file)"), target);
    split_dir(target, dir, sizeof dir);
    const char *base = strrchr(target, '/') + 1;
    if (!*base)
        return hr_error_set(err, HR_EINVAL, HR_T("target '%s': no file name"), target);
    if (!realpath(dir, real)) {
        if (errno == ENOENT || errno == ENOTDIR)
            return hr_error_set(err, HR_ENOENT, HR_T("%s: the directory %s does not exist"), target, dir);
        return sys_err(err, HR_T("resolve"), dir);
    }
    int w = snprintf(out, n, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
    if (w < 0 || (size_t)w >= n)
        return hr_error_set(err, HR_ERANGE, HR_T("target '%s': path too long"), target);
    return 0;
}

int hr_platform_apply_plan(const hr_apply_request *rq, hr_apply_plan *plan, hr_error *err)
{
    hr_apply_state st;
    int have = state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (have && lock_fd >= 0) {
        int rr = recover(rq, &st, NULL, err);
        if (rr < 0)
            return rr;
    }
    /* fstab must be a plain file before step 1, like every other precondition. */
    struct stat fs_st;
    if (lstat(fstab_path(rq), &fs_st) == 0 && !S_ISREG(fs_st.st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is %s; headroom edits only a regular fstab "
                            "file (replace the link with the file it points to, or give "
                            "--fstab the real file)"), fstab_path(rq),
                            S_ISLNK(fs_st.st_mode) ? HR_T("a symbolic link") : HR_T("not a regular file"));
    hr_apply_linux_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    hr_buf fb;
    hr_buf_init(&fb, HR_FSTAB_MAX_BYTES);
    hr_fstab f;
    hr_fstab_init(&f);
    bool existed;
    int r = read_fstab(fstab_path(rq), &fb, &f, &existed, err);
    if (r == 0)
        r = hr_lx_active_swaps(in->active, HR_MAX_PAGING, &in->active_count, err);

    char target[PATH_MAX];
    bool is_dir = false;
    if (r == 0)
        r = resolve_target(rq->target ? rq->target : "/", target, sizeof target, &is_dir, err);
    uint64_t size_bytes = rq->size_bytes;
    if (r == 0 && rq->from_plan && have &&
        hr_apply_linux_grow_own(&st, target, rq->size_bytes, target, sizeof target, &size_bytes))
        is_dir = false;
    long ps = sysconf(_SC_PAGESIZE);
    in->page_size = ps > 0 ? (size_t)ps : 4096;
    in->size_bytes = size_bytes;
    in->priority = rq->priority;
    in->allow_shrink = rq->allow_shrink;
    if (r == 0)
        r = hr_apply_linux_choose_path(target, is_dir, size_bytes, rq->priority, in->page_size,
                                       have ? &st : NULL, in->path, sizeof in->path, err);
    if (r == 0) {
        struct stat ps2;
        if (lstat(in->path, &ps2) == 0) {
            in->path_exists = true;
            in->path_is_symlink = S_ISLNK(ps2.st_mode);
        } else if (errno != ENOENT) {
            r = sys_err(err, "lstat", in->path);
        }
        char dir[PATH_MAX];
        split_dir(in->path, dir, sizeof dir);
        struct stat ds;
        if (r == 0 && (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)))
            r = hr_error_set(err, HR_ENOENT, HR_T("%s: the directory %s does not exist"), in->path, dir);
        if (r == 0)
            r = hr_lx_fs_facts(dir, &in->fs, err);
        if (r == 0) {
            hr_error de = {0};
            if (hr_lx_dir_root_only(dir, &de) < 0)
                hr_strlcpy(in->dir_unsafe, de.msg, sizeof in->dir_unsafe);
        }
        if (r == 0) {
            hr_device_init(&in->dev);
            hr_lx_file_device(NULL, dir, &in->dev);
        }
    }
    if (r == 0) {
        in->fstab = &f;
        in->fstab_path = fstab_path(rq);
        in->state = have ? &st : NULL;
        r = hr_apply_plan_linux(in, plan, err);
    }
    hr_fstab_free(&f);
    hr_buf_free(&fb);
    free(in);
    return r;
}

/* ---- running the steps ---- */

/* Compute the new fstab bytes (add and/or remove one swap line). */
static int fstab_compose(const char *fp, const char *add_path, int prio, const char *remove_path,
                         bool strip_nl, hr_buf *bytes, hr_buf *out, bool *existed, bool *added_nl,
                         hr_error *err)
{
    hr_fstab f;
    hr_fstab_init(&f);
    int r = read_fstab(fp, bytes, &f, existed, err);
    if (r == 0 && add_path)
        r = hr_fstab_add_swap(&f, add_path, prio, added_nl, err);
    if (r == 0 && remove_path)
        hr_fstab_remove_swap(&f, remove_path, strip_nl);
    if (r == 0)
        r = hr_fstab_render(&f, out);
    if (r == 0) {
        /* Re-read what we are about to write: it must parse (never write a broken fstab). */
        hr_fstab check;
        r = hr_fstab_parse(&check, hr_buf_str(out), out->len, fp, err);
        hr_fstab_free(&check);
    }
    hr_fstab_free(&f);
    return r;
}

/* The journal's rule: the intent is on disk before the change; a failed write stops here. */
static int intent_save(const hr_apply_request *rq, hr_apply_state *st, const char *step,
                       const char *path, hr_error *err)
{
    hr_strlcpy(st->intent.step, step, sizeof st->intent.step);
    hr_strlcpy(st->intent.path, path ? path : "", sizeof st->intent.path);
    return state_save(rq, st, err);
}

static int fstab_edit(const hr_apply_request *rq, hr_apply_state *st, const char *step,
                      const char *add_path, int prio, const char *remove_path, hr_error *err)
{
    const char *fp = fstab_path(rq);
    hr_buf bytes, out;
    hr_buf_init(&bytes, HR_FSTAB_MAX_BYTES);
    hr_buf_init(&out, HR_FSTAB_MAX_BYTES + 4096);
    bool existed = false, added_nl = false;
    int r = fstab_compose(fp, add_path, prio, remove_path, false, &bytes, &out, &existed,
                          &added_nl, err);
    if (r == 0) {
        if (added_nl)
            st->fstab_added_newline = true;
        st->intent.old_hash = existed ? hr_fnv1a64(bytes.data ? bytes.data : "", bytes.len) : 0;
        st->intent.new_hash = hr_fnv1a64(out.data ? out.data : "", out.len);
        st->intent.fstab_created = !existed;
        r = intent_save(rq, st, step, add_path ? add_path : remove_path, err);
    }
    if (r == 0)
        r = hr_platform_atomic_replace(fp, out.data ? out.data : "", out.len, 0644, err);
    if (r == 0) {
        st->fstab_written = true;
        st->fstab_written_hash = hr_fnv1a64(out.data ? out.data : "", out.len);
    }
    hr_buf_free(&bytes);
    hr_buf_free(&out);
    return r;
}

static int step_record(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    if (st->fstab_path[0])
        return intent_save(rq, st, "record", NULL, err);   /* an earlier apply backed it up */
    const char *fp = fstab_path(rq);
    hr_strlcpy(st->fstab_path, fp, sizeof st->fstab_path);
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    int r = hr_lx_read(NULL, fp, &b, HR_FSTAB_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        hr_error_clear(err);
        st->fstab_existed = false;
        hr_buf_free(&b);
        return intent_save(rq, st, "record", NULL, err);
    }
    if (r == 0) {
        char stamp[32];
        utc_stamp(time(NULL), stamp, sizeof stamp, true);
        snprintf(st->fstab_backup, sizeof st->fstab_backup, "%s/fstab.backup-%s", state_dir(rq),
                 stamp);
        st->fstab_existed = true;
        r = intent_save(rq, st, "record", st->fstab_backup, err);
    }
    if (r == 0)
        r = hr_platform_atomic_replace(st->fstab_backup, b.data ? b.data : "", b.len, 0600, err);
    hr_buf_free(&b);
    return r;
}

/* Rename the finished file from its temporary name to its own, never over another file. */
static int place_file(const char *tmp, const char *path, uint64_t dev, uint64_t ino,
                      hr_error *err)
{
    if (!is_ours(tmp, dev, ino))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom created"), tmp);
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) != 0) {
        if (errno != EINVAL && errno != ENOSYS)
            return sys_err(err, HR_T("rename to"), path);
        /* No RENAME_NOREPLACE on this file system: link (fails if path exists), unlink. */
        if (link(tmp, path) != 0)
            return sys_err(err, HR_T("link to"), path);
        if (unlink(tmp) != 0)
            return sys_err(err, HR_T("remove"), tmp);
    }
    char dir[PATH_MAX];
    split_dir(path, dir, sizeof dir);
    if (fsync_dir(dir) != 0)
        return sys_err(err, HR_T("fsync directory"), dir);
    return 0;
}

int hr_platform_apply_run(const hr_apply_request *rq, const hr_apply_plan *plan, hr_buf *log,
                          hr_error *err)
{
    if (plan->nothing_to_do)
        return 0;
    hr_apply_state st;
    int have = state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (!have) {
        hr_apply_state_init(&st, HR_OS_LINUX);
        time_t now = time(NULL);
        st.started_unix = (int64_t)now;
        utc_stamp(now, st.started, sizeof st.started, false);
    }
    char loaded_status[16];
    hr_strlcpy(loaded_status, st.status, sizeof loaded_status);
    bool changed = false;   /* a step besides "record" was done */
    hr_strlcpy(st.status, "in-progress", sizeof st.status);
    bool btrfs = strcmp(plan->fs_type, "btrfs") == 0;

    for (int i = 0; i < plan->step_count; i++) {
        const hr_apply_step *s = &plan->steps[i];
        hr_apply_area *a = hr_apply_state_find(&st, plan->path);
        hr_apply_area *old = plan->old_path[0] ? hr_apply_state_find(&st, plan->old_path) : NULL;
        int r = 0;
        bool intent_failed = false;
        memset(&st.intent, 0, sizeof st.intent);
        switch (s->kind) {
        case HR_STEP_RECORD:
            r = step_record(rq, &st, err);
            break;
        case HR_STEP_CREATE_FILE: {
            uint64_t dev = 0, ino = 0;
            unsigned char uuid[16];
            char tmp[PATH_MAX + 32];
            hr_lx_tmp_name(plan->path, tmp, sizeof tmp);
            r = hr_lx_random(uuid, sizeof uuid, err);
            if (r == 0) {
                a = hr_apply_state_add(&st, plan->path);
                if (!a) {
                    r = hr_error_set(err, HR_EINTERNAL, HR_T("state: too many areas"));
                    break;
                }
                a->created = true;
                a->size_bytes = plan->size_bytes;
                a->priority = plan->priority;
                a->device = a->inode = 0;
                hr_strlcpy(a->tmp, tmp, sizeof a->tmp);
                hr_uuid_make_v4(uuid);
                hr_uuid_format(uuid, a->uuid);
                r = intent_save(rq, &st, s->name, plan->path, err);
                intent_failed = r < 0;
            }
            if (r == 0)
                r = hr_lx_swapfile_create(tmp, btrfs, &dev, &ino, err);
            if (r == 0) {
                a->device = dev;
                a->inode = ino;
            } else if (a && !intent_failed) {
                hr_apply_state_drop(&st, plan->path);   /* the create cleaned up after itself */
            }
            break;
        }
        case HR_STEP_ALLOCATE:
            r = a ? intent_save(rq, &st, s->name, plan->path, err)
                  : hr_error_set(err, HR_EINTERNAL, HR_T("allocate: no file recorded"));
            intent_failed = r < 0;
            if (r == 0)
                r = hr_lx_swapfile_allocate(a->tmp[0] ? a->tmp : plan->path, plan->size_bytes,
                                            a->device, a->inode, err);
            break;
        case HR_STEP_WRITE_HEADER: {
            unsigned char uuid[16];
            if (!a || hr_uuid_parse(a->uuid, uuid) != 0) {
                r = hr_error_set(err, HR_EINTERNAL, HR_T("write-header: no file recorded"));
                break;
            }
            r = intent_save(rq, &st, s->name, plan->path, err);
            intent_failed = r < 0;
            const char *at = a->tmp[0] ? a->tmp : plan->path;
            if (r == 0)
                r = hr_lx_swapfile_write_header(at, plan->size_bytes, plan->page_size, uuid,
                                                HR_APPLY_SWAP_LABEL, a->device, a->inode, err);
            if (r == 0 && a->tmp[0]) {
                r = place_file(a->tmp, plan->path, a->device, a->inode, err);
                if (r == 0)
                    a->tmp[0] = '\0';
            }
            break;
        }
        case HR_STEP_SWAPON:
            if (!a || !a->created)
                r = hr_error_set(err, HR_EUNSAFE, HR_T("%s: headroom has no record of creating it; "
                                 "not turning it on"), plan->path);
            if (r == 0) {
                r = intent_save(rq, &st, s->name, plan->path, err);
                intent_failed = r < 0;
            }
            if (r == 0)
                r = hr_lx_swapon_checked(plan->path, plan->priority, a->device, a->inode,
                                         plan->page_size, err);
            if (r == 0)
                a->enabled = true;
            break;
        case HR_STEP_FSTAB_ADD:
            r = fstab_edit(rq, &st, s->name, plan->path, plan->priority, NULL, err);
            intent_failed = r < 0 && strcmp(st.intent.step, s->name) != 0;
            if (r == 0 && a)
                a->in_fstab = true;
            break;
        case HR_STEP_SWAPOFF_OLD:
            r = intent_save(rq, &st, s->name, plan->old_path, err);
            intent_failed = r < 0;
            if (r == 0 && is_active(plan->old_path))
                r = hr_lx_swapoff(plan->old_path, err);
            if (r == 0 && old)
                old->enabled = false;
            break;
        case HR_STEP_FSTAB_REMOVE_OLD:
            r = fstab_edit(rq, &st, s->name, NULL, 0, plan->old_path, err);
            intent_failed = r < 0 && strcmp(st.intent.step, s->name) != 0;
            if (r == 0 && old)
                old->in_fstab = false;
            break;
        case HR_STEP_DELETE_OLD:
            if (old) {
                r = intent_save(rq, &st, s->name, plan->old_path, err);
                intent_failed = r < 0;
                if (r == 0 && !is_ours(plan->old_path, old->device, old->inode))
                    r = hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom "
                                     "created; not deleting it"), plan->old_path);
                if (r == 0 && unlink(plan->old_path) != 0)
                    r = sys_err(err, HR_T("delete"), plan->old_path);
                if (r == 0)
                    hr_apply_state_drop(&st, plan->old_path);
            }
            break;
        case HR_STEP_FINISH:
            r = intent_save(rq, &st, s->name, NULL, err);
            intent_failed = r < 0;
            hr_strlcpy(st.status, "applied", sizeof st.status);
            break;
        default:
            r = hr_error_set(err, HR_EINTERNAL, HR_T("step %s is not a Linux step"), s->name);
        }
        if (r == 0) {
            memset(&st.intent, 0, sizeof st.intent);
            hr_strlcpy(st.last_step, s->name, sizeof st.last_step);
            r = state_save(rq, &st, err);
            if (r < 0) {
                /* The step is done and its intent is on disk: the next run finishes it. */
                hr_buf_printf(log, HR_T("done: [%s] %s\n"), s->name, s->what);
                hr_buf_printf(log, HR_T("FAILED: recording step [%s] as done in the state file\n"),
                              s->name);
                return r;
            }
        }
        if (r < 0) {
            if (intent_failed) {
                hr_buf_printf(log, HR_T("FAILED: [%s] not started: its intent could not be written "
                              "to the state file\n"), s->name);
            } else if (s->kind == HR_STEP_FSTAB_ADD || s->kind == HR_STEP_FSTAB_REMOVE_OLD) {
                /* The new fstab may be in place: the rename done, the directory's fsync (or
                 * the open before it) failed. The intent on disk stays, so that the next run
                 * tells by fstab's hash whether the edit was made (recover()); clearing it
                 * here left a line rollback did not know of (ENOSPC, issue 16). */
                hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, s->what);
            } else {
                /* The step failed and undid itself; record that nothing of it is left. */
                hr_error e2 = {0};
                memset(&st.intent, 0, sizeof st.intent);
                if (s->kind == HR_STEP_FINISH)
                    hr_strlcpy(st.status, "in-progress", sizeof st.status);
                if (!changed && have)   /* e.g. a repair whose swapon was refused */
                    hr_strlcpy(st.status, loaded_status, sizeof st.status);
                state_save(rq, &st, &e2);
                hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, s->what);
            }
            return r;
        }
        hr_buf_printf(log, HR_T("done: [%s] %s\n"), s->name, s->what);
        if (s->kind != HR_STEP_RECORD)
            changed = true;
        if (rq->failpoint && strcmp(rq->failpoint, s->name) == 0) {
            hr_buf_printf(log, HR_T("stopped at failpoint '%s'\n"), s->name);
            return 1;
        }
    }
    return 0;
}

/* ---- rollback ---- */

/* Remove our lines from fstab, keeping every other byte (a backup that is gone, or fstab
 * edited since). */
static int fstab_remove_ours(const char *fp, const hr_apply_state *st, const char *pre,
                             bool dry_run, hr_buf *cur, hr_buf *log, hr_error *err)
{
    hr_fstab f;
    int r = hr_fstab_parse(&f, hr_buf_str(cur), cur->len, fp, err);
    if (r < 0)
        return r;
    bool changed = false;
    for (int i = 0; i < st->area_count; i++)
        if (hr_fstab_remove_swap(&f, st->areas[i].path, st->fstab_added_newline) == 0) {
            changed = true;
            hr_buf_printf(log, HR_T("%sremove the line for %s from %s (other lines are kept)\n"), pre,
                          st->areas[i].path, fp);
        }
    hr_buf out;
    hr_buf_init(&out, HR_FSTAB_MAX_BYTES);
    if (changed && !dry_run && (r = hr_fstab_render(&f, &out)) == 0)
        r = hr_platform_atomic_replace(fp, out.data ? out.data : "", out.len, 0644, err);
    hr_buf_free(&out);
    hr_fstab_free(&f);
    return r;
}

static int rollback_fstab(const hr_apply_request *rq, hr_apply_state *st, const char *fp,
                          bool dry_run, hr_buf *log, hr_error *err)
{
    const char *pre = dry_run ? HR_T("would ") : "";
    hr_buf cur, orig;
    hr_buf_init(&cur, HR_FSTAB_MAX_BYTES);
    hr_buf_init(&orig, HR_FSTAB_MAX_BYTES);
    hr_error e2 = {0};
    int r = 0;
    int rr = hr_lx_read(NULL, fp, &cur, HR_FSTAB_MAX_BYTES, &e2);
    uint64_t ch = rr == 0 ? hr_fnv1a64(cur.data ? cur.data : "", cur.len) : 0;
    bool same = rr == 0 && ch == st->fstab_written_hash;
    int br = HR_ENOENT;
    if (same && st->fstab_existed && st->fstab_backup[0])
        br = hr_lx_read(NULL, st->fstab_backup, &orig, HR_FSTAB_MAX_BYTES, &e2);
    if (rr != 0 && rr != HR_ENOENT) {
        r = hr_error_set(err, rr, "%s", e2.msg);
    } else if (rr == HR_ENOENT) {
        /* nothing to take our lines out of */
    } else if (same && !st->fstab_existed) {
        hr_buf_printf(log, HR_T("%sremove %s (headroom created it)\n"), pre, fp);
        if (!dry_run) {
            st->intent.old_hash = ch;
            st->intent.new_hash = 0;
            r = intent_save(rq, st, "rollback-fstab", fp, err);
            if (r == 0 && unlink(fp) != 0)
                r = sys_err(err, HR_T("delete"), fp);
        }
    } else if (same && br == 0) {
        hr_buf_printf(log, HR_T("%srestore %s from %s (its bytes before headroom)\n"), pre, fp,
                      st->fstab_backup);
        if (!dry_run) {
            st->intent.old_hash = ch;
            st->intent.new_hash = hr_fnv1a64(orig.data ? orig.data : "", orig.len);
            r = intent_save(rq, st, "rollback-fstab", fp, err);
            if (r == 0)
                r = hr_platform_atomic_replace(fp, orig.data ? orig.data : "", orig.len, 0644, err);
        }
    } else {
        if (same)
            hr_buf_printf(log, HR_T("the fstab backup %s cannot be read; taking out only headroom's "
                          "lines\n"), st->fstab_backup[0] ? st->fstab_backup : HR_T("(none)"));
        r = fstab_remove_ours(fp, st, pre, dry_run, &cur, log, err);
    }
    hr_buf_free(&cur);
    hr_buf_free(&orig);
    return r;
}

int hr_platform_rollback(const hr_apply_request *rq, bool dry_run, hr_buf *log, hr_error *err)
{
    hr_apply_state st;
    int have = state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (!have) {
        if (!dry_run) {
            /* An apply killed in its first state write, or a rollback at its very end, leaves
             * a temporary state file or an empty directory: ours to remove. */
            char sp[PATH_MAX];
            state_file(rq, sp, sizeof sp);
            hr_lx_remove_tmp(sp);
            rmdir(state_dir(rq));
        }
        hr_buf_puts(log, HR_T("Nothing to roll back: headroom has no record of a change.\n"));
        return 0;
    }
    if (!dry_run) {
        int rr = recover(rq, &st, log, err);
        if (rr < 0)
            return rr;
    }
    const char *pre = dry_run ? HR_T("would ") : "";
    int r = 0;
    const char *fp = st.fstab_path[0] ? st.fstab_path : fstab_path(rq);
    if (!dry_run) {
        hr_strlcpy(st.status, "rolling-back", sizeof st.status);
        if ((r = state_save(rq, &st, err)) < 0)
            return r;
    }

    /* 1. fstab first: no line may name a file that is about to go. */
    if (st.fstab_written) {
        r = rollback_fstab(rq, &st, fp, dry_run, log, err);
        if (r < 0)
            return r;
        if (!dry_run) {
            st.fstab_written = false;
            memset(&st.intent, 0, sizeof st.intent);
            if ((r = state_save(rq, &st, err)) < 0)
                return r;
        }
    }

    /* 2. Swap areas we turned on or created: off, then delete the files we created. */
    for (int i = st.area_count - 1; i >= 0; i--) {
        hr_apply_area *a = &st.areas[i];
        char path[HR_SNAP_PATH_MAX];
        hr_strlcpy(path, a->path, sizeof path);
        if (!dry_run && (r = intent_save(rq, &st, "rollback-area", path, err)) < 0)
            return r;
        if (is_active(a->path)) {
            hr_buf_printf(log, HR_T("%sturn off swap %s\n"), pre, a->path);
            if (!dry_run && (r = hr_lx_swapoff(a->path, err)) < 0)
                return r;
        }
        if (a->created) {
            if (a->tmp[0] && is_ours(a->tmp, a->device, a->inode)) {
                hr_buf_printf(log, HR_T("%sdelete %s (unfinished, created by headroom)\n"), pre, a->tmp);
                if (!dry_run && unlink(a->tmp) != 0)
                    return sys_err(err, HR_T("delete"), a->tmp);
            }
            struct stat s;
            if (lstat(a->path, &s) != 0) {
                if (!a->tmp[0])
                    hr_buf_printf(log, HR_T("%s is already gone\n"), a->path);
            } else if (!is_ours(a->path, a->device, a->inode)) {
                hr_buf_printf(log, HR_T("keep %s: it is not the file headroom created\n"), a->path);
            } else {
                hr_buf_printf(log, HR_T("%sdelete %s (created by headroom)\n"), pre, a->path);
                if (!dry_run && unlink(a->path) != 0)
                    return sys_err(err, HR_T("delete"), a->path);
            }
        }
        if (!dry_run) {
            hr_apply_state_drop(&st, path);
            memset(&st.intent, 0, sizeof st.intent);
            if ((r = state_save(rq, &st, err)) < 0)
                return r;
        }
    }

    /* 3. Our own records: the backup first, the state file last (until it goes, a rollback
     * cut short is found and finished by the next one). */
    char sp[PATH_MAX];
    state_file(rq, sp, sizeof sp);
    hr_buf_printf(log, HR_T("%sremove headroom's records (%s%s%s)\n"), pre, sp,
                  st.fstab_backup[0] ? ", " : "", st.fstab_backup);
    if (!dry_run) {
        if (st.fstab_backup[0])
            unlink(st.fstab_backup);
        if (unlink(sp) != 0 && errno != ENOENT)
            return sys_err(err, HR_T("delete"), sp);
        rmdir(state_dir(rq));   /* only if empty */
    }
    return 1;
}

/* ---- verify ---- */

static void resolve_spec(const char *spec, char *out, size_t n)
{
    static const struct { const char *tag, *dir; } tags[] = {
        {"UUID=", "/dev/disk/by-uuid/"}, {"LABEL=", "/dev/disk/by-label/"},
        {"PARTUUID=", "/dev/disk/by-partuuid/"}, {"PARTLABEL=", "/dev/disk/by-partlabel/"}};
    char link[PATH_MAX], real[PATH_MAX];
    out[0] = '\0';
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        size_t tl = strlen(tags[i].tag);
        if (strncmp(spec, tags[i].tag, tl) == 0) {
            const char *v = spec + tl;
            size_t vl = strlen(v);
            if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0])
                snprintf(link, sizeof link, "%s%.*s", tags[i].dir, (int)(vl - 2), v + 1);
            else
                snprintf(link, sizeof link, "%s%s", tags[i].dir, v);
            if (realpath(link, real))
                hr_strlcpy(out, real, n);
            return;
        }
    }
    if (spec[0] == '/' && realpath(spec, real))
        hr_strlcpy(out, real, n);
}

int hr_platform_verify(const hr_apply_request *rq, hr_verify_result *res, hr_error *err)
{
    hr_apply_state st;
    int have = state_load(rq, &st, err);
    if (have < 0)
        return have;
    hr_buf rlog;   /* what recovery finished or undid: verify says so */
    hr_buf_init(&rlog, sizeof res->recovered);
    if (have && lock_fd >= 0) {
        int rr = recover(rq, &st, &rlog, err);
        if (rr < 0) {
            hr_buf_free(&rlog);
            return rr;
        }
    }
    hr_verify_linux_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    in->fstab_path = fstab_path(rq);
    in->state = have ? &st : NULL;
    in->commit_limit_bytes = in->commit_charge_bytes = HR_UNKNOWN;
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_fstab f;
    hr_fstab_init(&f);
    bool existed;
    int r = read_fstab(in->fstab_path, &b, &f, &existed, err);
    if (r == 0 && !existed && rq->fstab_path)   /* a file the user named must be there */
        r = hr_error_set(err, HR_ENOENT, HR_T("%s: no such file"), rq->fstab_path);
    for (size_t i = 0; r == 0 && i < f.count; i++) {
        const hr_fstab_line *l = &f.lines[i];
        if (!hr_fstab_is_swap(l) || in->config_count == HR_VERIFY_MAX_CONFIG)
            continue;
        hr_verify_config *c = &in->config[in->config_count++];
        hr_strlcpy(c->spec, l->spec, sizeof c->spec);
        resolve_spec(l->spec, c->resolved, sizeof c->resolved);
        c->priority = hr_fstab_opt_priority(l->opts);
        if (c->priority == INT64_MIN)
            c->priority = HR_UNKNOWN_I64;
        c->noauto = hr_fstab_opt_has(l->opts, "noauto");
    }
    if (r == 0)
        r = hr_lx_active_swaps(in->active, HR_MAX_PAGING, &in->active_count, err);
    if (r == 0) {
        hr_meminfo mi;
        hr_error e2 = {0};
        if (hr_lx_read(NULL, "/proc/meminfo", &b, (size_t)1 << 20, &e2) == 0 &&
            hr_parse_meminfo(hr_buf_str(&b), b.len, "/proc/meminfo", &mi, &e2) == 0) {
            in->commit_limit_bytes = mi.commit_limit;
            in->commit_charge_bytes = mi.committed_as;
        }
        hr_verify_linux(in, res);
        hr_strlcpy(res->recovered, hr_buf_str(&rlog), sizeof res->recovered);
    }
    hr_buf_free(&rlog);
    hr_fstab_free(&f);
    hr_buf_free(&b);
    free(in);
    return r;
}
