/* headroom — Linux swap-file primitives behind apply / rollback / verify: the system-changing
 * calls (create, allocate, header, swapon with its identity check, swapoff), atomic file
 * replacement, file-system facts, and the StrictModes check of a target directory. */
#define _GNU_SOURCE 1 /* fallocate(2) */
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

int hr_lx_sys_err(hr_error *err, const char *what, const char *path)
{
    int e = errno;
    return hr_error_set(err, hr_error_from_errno(e), "%s %s: %s", what, path, strerror(e));
}

void hr_lx_split_dir(const char *path, char *dir, size_t n)
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

int hr_lx_fsync_dir(const char *dir)
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

int hr_platform_atomic_replace(const char *path, const void *data, size_t len, unsigned mode, hr_error *err)
{
    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    hr_lx_split_dir(path, dir, sizeof dir);
    struct stat st;
    bool existed = lstat(path, &st) == 0;
    if (existed && S_ISLNK(st.st_mode))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; not replacing it"), path);
    if (strlen(path) + sizeof HR_LX_TMP_SUFFIX > sizeof tmp)
        return hr_error_set(err, HR_ERANGE, HR_T("%s: path too long"), path);
    hr_lx_tmp_name(path, tmp, sizeof tmp);
    hr_lx_remove_tmp(path); /* left by a run that was killed: ours, by its name */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return hr_lx_sys_err(err, HR_T("create temporary file"), tmp);
    int r = 0;
    if (hr_lx_write_all(fd, data, len) != 0)
        r = hr_lx_sys_err(err, HR_T("write"), tmp);
    else if (fchmod(fd, existed ? (st.st_mode & 07777) : mode) != 0)
        r = hr_lx_sys_err(err, "chmod", tmp);
    else if (existed && fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
        r = hr_lx_sys_err(err, "chown", tmp);
    else if (fsync(fd) != 0)
        r = hr_lx_sys_err(err, "fsync", tmp);
    if (close(fd) != 0 && r == 0)
        r = hr_lx_sys_err(err, HR_T("close"), tmp);
    if (r == 0 && rename(tmp, path) != 0)
        r = hr_lx_sys_err(err, HR_T("rename over"), path);
    if (r != 0) {
        unlink(tmp);
        return r;
    }
    if (hr_lx_fsync_dir(dir) != 0)
        return hr_lx_sys_err(err, HR_T("fsync directory"), dir);
    return 0;
}

static const char *fs_name(unsigned long magic)
{
    switch (magic) {
    case EXT4_SUPER_MAGIC: return "ext4"; /* ext2/3/4 share the magic; one driver */
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

/* ext2, ext3 and ext4 share one statfs magic; the mount table names the one mounted (an ext2
 * file system is not "ext4" to the user reading the step). The type of the mount whose device
 * holds dir; false when it cannot be read. */
static bool ext_mounted_type(const char *dir, char *out, size_t n)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return false;
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return false;
    char want[32], line[4096];
    snprintf(want, sizeof want, "%u:%u", major(st.st_dev), minor(st.st_dev));
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        /* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue" */
        char devno[32];
        if (sscanf(line, "%*s %*s %31s", devno) != 1 || strcmp(devno, want) != 0)
            continue;
        const char *sep = strstr(line, " - ");
        char type[32];
        if (sep && sscanf(sep + 3, "%31s", type) == 1 && strncmp(type, "ext", 3) == 0) {
            snprintf(out, n, "%s", type);
            found = true;
        }
    }
    fclose(f);
    return found;
}

int hr_lx_fs_facts(const char *dir, hr_fs_facts *fs, hr_error *err)
{
    memset(fs, 0, sizeof *fs);
    struct statfs sf;
    struct statvfs sv;
    if (statfs(dir, &sf) != 0)
        return hr_lx_sys_err(err, "statfs", dir);
    if (statvfs(dir, &sv) != 0)
        return hr_lx_sys_err(err, "statvfs", dir);
    const char *n = fs_name((unsigned long)sf.f_type);
    if ((unsigned long)sf.f_type == EXT4_SUPER_MAGIC && ext_mounted_type(dir, fs->type, sizeof fs->type))
        ;
    else if (n)
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
            return hr_lx_sys_err(err, "getrandom", "");
        }
        got += (size_t)r;
    }
    return 0;
}

int hr_lx_swapfile_create(const char *path, bool btrfs, uint64_t *dev, uint64_t *ino, hr_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return hr_lx_sys_err(err, HR_T("create"), path);
    int r = 0;
    struct stat st;
    if (fchmod(fd, 0600) != 0) /* whatever the umask */
        r = hr_lx_sys_err(err, "chmod 0600", path);
    if (r == 0 && btrfs) {
        /* No copy-on-write (hence no compression, no checksums): set while empty, or btrfs
         * ignores it. The ioctl takes an int despite the long in its definition. */
        int flags = 0;
        if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0)
            r = hr_lx_sys_err(err, "FS_IOC_GETFLAGS", path);
        else {
            flags |= FS_NOCOW_FL;
            flags &= ~FS_COMPR_FL;
            if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
                r = hr_lx_sys_err(err, HR_T("set no-copy-on-write (FS_IOC_SETFLAGS) on"), path);
            else if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0 || !(flags & FS_NOCOW_FL))
                r = hr_error_set(err, HR_ENOTSUP,
                                 HR_T("%s: btrfs did not keep the no-copy-on-write "
                                      "flag"),
                                 path);
        }
    }
    if (r == 0 && fstat(fd, &st) != 0)
        r = hr_lx_sys_err(err, "fstat", path);
    if (r == 0 && fsync(fd) != 0)
        r = hr_lx_sys_err(err, "fsync", path);
    close(fd);
    if (r != 0) {
        unlink(path); /* we created it a moment ago with O_EXCL: it is ours */
        return r;
    }
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    char dir[PATH_MAX];
    hr_lx_split_dir(path, dir, sizeof dir);
    hr_lx_fsync_dir(dir);
    return 0;
}

/* Open our file again, refusing links and anything that is not the file we created. */
static int open_ours(const char *path, int flags, uint64_t dev, uint64_t ino, hr_error *err)
{
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return hr_lx_sys_err(err, HR_T("open"), path);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino) {
        close(fd);
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom created"), path);
    }
    return fd;
}

int hr_lx_swapfile_allocate(const char *path, uint64_t size, uint64_t dev, uint64_t ino,
                            void (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx,
                            hr_error *err)
{
    int fd = open_ours(path, O_WRONLY, dev, ino, err);
    if (fd < 0)
        return fd;
    int r = 0;
    if (fallocate(fd, 0, 0, (off_t)size) != 0) {
        if (errno != EOPNOTSUPP && errno != ENOSYS) {
            r = hr_lx_sys_err(err, HR_T("allocate"), path);
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
                if (hr_lx_write_all(fd, zeros, n) != 0)
                    r = hr_lx_sys_err(err, HR_T("write zeros to"), path);
                done += n;
                if (r == 0 && progress)
                    progress(progress_ctx, done, size);
            }
            free(zeros);
        }
    }
    if (r == 0 && fsync(fd) != 0)
        r = hr_lx_sys_err(err, "fsync", path);
    close(fd);
    return r;
}

int hr_lx_swapfile_write_header(const char *path, uint64_t size, size_t page_size, const unsigned char uuid[16],
                                const char *label, uint64_t dev, uint64_t ino, hr_error *err)
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
        r = w < 0 ? hr_lx_sys_err(err, HR_T("write header to"), path)
                  : hr_error_set(err, HR_EIO, HR_T("%s: short write of the header"), path);
    /* A swapon() after this fails unless the signature is really on disk. */
    if (r == 0 && fsync(fd) != 0)
        r = hr_lx_sys_err(err, "fsync", path);
    close(fd);
    free(page);
    return r;
}

/* Turn on swap only on the file headroom made: opened without following links, the same
 * device and inode as recorded at creation, owned by root, mode 0600, one link, a swap
 * header. swapon() is then given the open file (/proc/self/fd/N), so that nothing can swap
 * the name between the check and the call. */
int hr_lx_swapon_checked(const char *path, int priority, uint64_t dev, uint64_t ino, size_t page_size, hr_error *err)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ELOOP ? hr_error_set(err, HR_EUNSAFE,
                                             HR_T("%s is a symbolic link; headroom "
                                                  "turns on only the file it created"),
                                             path)
                              : hr_lx_sys_err(err, HR_T("open"), path);
    struct stat st;
    int r = 0;
    if (fstat(fd, &st) != 0)
        r = hr_lx_sys_err(err, "fstat", path);
    else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
        r = hr_error_set(err, HR_EUNSAFE,
                         HR_T("%s is not the file headroom created (device and "
                              "inode differ); not turning it on"),
                         path);
    else if (st.st_uid != 0 || (st.st_mode & 07777) != 0600 || st.st_nlink != 1)
        r = hr_error_set(err, HR_EUNSAFE,
                         HR_T("%s: owner %u, mode %04o, %lu links: headroom turns "
                              "on only its own root-owned 0600 file with one link"),
                         path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), (unsigned long)st.st_nlink);
    if (r == 0) {
        unsigned char *page = malloc(page_size);
        hr_swap_header_info hi;
        hr_error e2 = { 0 };
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
            r = hr_lx_sys_err(err, "swapon", path);
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
            return hr_lx_sys_err(err, "swapoff", path);
        }
        struct timespec ts = { wait_ms / 1000, (wait_ms % 1000) * 1000000L };
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
            return hr_lx_sys_err(err, "lstat", p);
        if (!S_ISDIR(st.st_mode))
            return hr_error_set(err, HR_EUNSAFE, HR_T("%s is not a directory"), p);
        bool others_write = (st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0);
        if (st.st_uid != 0)
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("%s belongs to user %u, not root: its owner "
                                     "could replace the swap file (which then holds the memory "
                                     "swapped into it); choose a directory only root can write"),
                                p, (unsigned)st.st_uid);
        if (others_write && (first || !(st.st_mode & S_ISVTX)))
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("%s is writable by users other than root "
                                     "(mode %04o): one of them could replace the swap file (which "
                                     "then holds the memory swapped into it); choose a directory "
                                     "only root can write"),
                                p, (unsigned)(st.st_mode & 07777));
        if (strcmp(p, "/") == 0)
            return 0;
        char up[PATH_MAX];
        hr_lx_split_dir(p, up, sizeof up);
        hr_strlcpy(p, up, sizeof p);
        first = false;
    }
}
