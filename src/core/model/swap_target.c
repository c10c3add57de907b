#include "core/model/swap_target.h"

#include "core/base/i18n.h"
#include "core/base/size.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool one_of(const char *fs, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hr_str_ieq(fs, list[i]))
            return true;
    return false;
}

#define ONE_OF(fs, ...)                                                                                                \
    one_of(fs, (const char *const[]){ __VA_ARGS__ },                                                                   \
           sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))

hr_tri hr_swap_fs_capable(hr_os os, const char *fs, int fs_devices, bool read_only, char *why, size_t n)
{
    if (!fs)
        fs = "";
    if (read_only) {
        snprintf(why, n, HR_T("mounted read-only"));
        return HR_TRI_NO;
    }
    if (ONE_OF(fs, "vfat", "fat", "fat32", "msdos", "exfat")) {
        snprintf(why, n, HR_T("FAT / exFAT cannot hold a file this large (FAT32 stops at 4 GB)"));
        return HR_TRI_NO;
    }
    if (os == HR_OS_WINDOWS)
        return HR_TRI_YES; /* NTFS, ReFS; the drive type (fixed, local) is the probe's */
    if (ONE_OF(fs, "ext4", "ext3", "ext2", "xfs"))
        return HR_TRI_YES;
    if (hr_str_ieq(fs, "btrfs")) {
        if (fs_devices == 1)
            return HR_TRI_YES;
        if (fs_devices > 1) {
            snprintf(why, n,
                     HR_T("btrfs on %d devices: the kernel takes swap files only on a "
                          "single-device btrfs"),
                     fs_devices);
            return HR_TRI_NO;
        }
        snprintf(why, n,
                 HR_T("btrfs: how many devices it spans is not known (a swap file needs a "
                      "single device)"));
        return HR_TRI_UNKNOWN;
    }
    if (ONE_OF(fs, "tmpfs", "ramfs", "devtmpfs"))
        snprintf(why, n,
                 HR_T("%s lives in RAM: swapping RAM to RAM gains nothing, and the kernel "
                      "refuses it"),
                 fs);
    else if (ONE_OF(fs, "overlay", "overlayfs", "aufs"))
        snprintf(why, n, HR_T("overlayfs (a container's root) cannot hold a swap file"));
    else if (hr_str_istarts(fs, "nfs") || ONE_OF(fs, "cifs", "smb3", "9p", "virtiofs"))
        snprintf(why, n, HR_T("%s is a network / shared file system: swap over it is unsafe"), fs);
    else if (hr_str_istarts(fs, "fuse"))
        snprintf(why, n, HR_T("%s (FUSE) cannot hold a swap file"), fs);
    else if (hr_str_ieq(fs, "f2fs"))
        snprintf(why, n,
                 HR_T("f2fs takes a swap file only in pinned, section-aligned blocks, which "
                      "headroom does not make"));
    else if (ONE_OF(fs, "zfs", "squashfs", "iso9660", "ntfs", "ntfs3"))
        snprintf(why, n,
                 HR_T("file system '%s' is not one headroom knows can hold swap: the kernel "
                      "cannot activate a swap file on it"),
                 fs);
    else
        snprintf(why, n,
                 HR_T("file system '%s' is not one headroom knows can hold swap (ext4, xfs, "
                      "single-device btrfs)"),
                 fs[0] ? fs : HR_T("unknown"));
    return HR_TRI_NO;
}

/* Is path d itself or below it? */
static bool under(const char *path, const char *d)
{
    size_t k = strlen(d);
    return strncmp(path, d, k) == 0 && (path[k] == '\0' || path[k] == '/' || (k == 1 && d[0] == '/'));
}

hr_tri hr_swap_dir_cleared(hr_os os, const char *path, const char *mount_point, char *why, size_t n)
{
    static const struct {
        const char *dir;
        const char *who;
    } cleared[] = {
        { "/tmp", HR_N("systemd-tmpfiles (tmp.conf) or a tmpfs empties it at boot") },
        { "/var/tmp", HR_N("systemd-tmpfiles deletes old files there") },
        { "/run", HR_N("it lives in RAM and is emptied at boot") },
        { "/var/run", HR_N("it lives in RAM and is emptied at boot") },
        { "/dev/shm", HR_N("it lives in RAM and is emptied at boot") },
        { "/var/cache", HR_N("package managers and cleaners empty it") },
    };
    if (os != HR_OS_LINUX || !path)
        return HR_TRI_NO;
    for (size_t i = 0; i < sizeof cleared / sizeof cleared[0]; i++) {
        const char *d = cleared[i].dir;
        if (!under(path, d))
            continue;
        bool hit;
        if (mount_point) {
            hit = under(d, mount_point); /* the emptied directory is on this file system */
        } else {
            const char *slash = strrchr(path, '/');
            size_t parent = slash ? (size_t)(slash - path) : 0;
            hit = strcmp(path, d) == 0 || (parent == strlen(d) && strncmp(path, d, parent) == 0);
        }
        if (hit) {
            snprintf(why, n,
                     HR_T("%s: %s, and a swap file deleted under the system leaves the next boot without "
                          "swap"),
                     cleared[i].dir, hr_tr(cleared[i].who));
            return HR_TRI_YES;
        }
    }
    return HR_TRI_NO;
}

hr_tri hr_volume_can_hold_swap(const hr_volume *v, hr_os os, char *why, size_t n)
{
    if (v->can_hold_swap == HR_TRI_NO) {
        snprintf(why, n, "%s", v->why_not[0] ? v->why_not : HR_T("cannot hold a swap / paging file"));
        return HR_TRI_NO;
    }
    hr_tri t = hr_swap_fs_capable(os, v->dev.fs_type, v->fs_devices, v->read_only, why, n);
    if (t != HR_TRI_YES)
        return t;
    if (hr_swap_dir_cleared(os, v->dev.mount_point, v->dev.mount_point, why, n) == HR_TRI_YES)
        return HR_TRI_NO;
    if (os == HR_OS_WINDOWS && v->can_hold_swap != HR_TRI_YES) {
        snprintf(why, n, HR_T("the kind of drive is not known (a paging file needs a fixed local disk)"));
        return HR_TRI_UNKNOWN;
    }
    return HR_TRI_YES;
}

hr_tri hr_device_removable(const hr_device *d, char *why, size_t n)
{
    if (d->removable == HR_TRI_YES || d->usb == HR_TRI_YES) {
        snprintf(why, n,
                 HR_T("the disk%s%s is %s: unplugging it leaves the system without its "
                      "paging file (S5.4)"),
                 d->disk[0] ? " " : "", d->disk,
                 d->usb == HR_TRI_YES ? HR_T("attached by USB") : HR_T("removable media"));
        return HR_TRI_YES;
    }
    if (d->removable == HR_TRI_NO && d->usb != HR_TRI_YES)
        return HR_TRI_NO;
    return HR_TRI_UNKNOWN;
}

uint64_t hr_reserve_bytes(uint64_t total_bytes)
{
    uint64_t pct = total_bytes != HR_UNKNOWN ? total_bytes / 100 * HR_RESERVE_PERCENT : 0;
    return pct > HR_RESERVE_MIN_BYTES ? pct : HR_RESERVE_MIN_BYTES;
}

bool hr_room_ok(uint64_t total_bytes, uint64_t free_bytes, uint64_t file_bytes)
{
    if (total_bytes == HR_UNKNOWN || free_bytes == HR_UNKNOWN)
        return false;
    return free_bytes >= hr_sat_add(file_bytes, hr_reserve_bytes(total_bytes));
}

uint64_t hr_room_needed(uint64_t existing_bytes, uint64_t file_bytes)
{
    if (existing_bytes == HR_UNKNOWN)
        return file_bytes;
    return file_bytes > existing_bytes ? file_bytes - existing_bytes : 0;
}

uint64_t hr_room_largest(uint64_t total_bytes, uint64_t free_bytes)
{
    if (total_bytes == HR_UNKNOWN || free_bytes == HR_UNKNOWN)
        return 0;
    uint64_t reserve = hr_reserve_bytes(total_bytes);
    return free_bytes > reserve ? (free_bytes - reserve) / HR_GIB * HR_GIB : 0;
}

bool hr_dump_file_stays(hr_tri dump_needs_system_paging, char system_drive, char target_drive, char entry_drive,
                        hr_paging_mode mode, uint64_t initial_bytes, uint64_t maximum_bytes)
{
    /* X.dump: dumps off or written to a dedicated file need no paging file on the system
     * drive; a paging file moved onto the system drive needs no second one there. */
    system_drive = (char)toupper((unsigned char)system_drive);
    target_drive = (char)toupper((unsigned char)target_drive);
    entry_drive = (char)toupper((unsigned char)entry_drive);
    if (dump_needs_system_paging == HR_TRI_NO || !system_drive || !target_drive || target_drive == system_drive ||
        entry_drive != system_drive)
        return false;
    return mode == HR_PAGING_MODE_CUSTOM && initial_bytes != HR_UNKNOWN && maximum_bytes != HR_UNKNOWN &&
           maximum_bytes <= HR_DUMP_FILE_MAX_BYTES;
}

uint64_t hr_dump_min_bytes(int64_t crash_dump_enabled, uint64_t ram_bytes)
{
    if (crash_dump_enabled == 0)
        return 0;
    if (crash_dump_enabled == 3)
        return HR_MIB;
    if (ram_bytes == HR_UNKNOWN)
        return 0;
    if (crash_dump_enabled == 1)
        return ram_bytes + 257 * HR_MIB;
    /* kernel or automatic: as much as kernel memory takes, which Microsoft does not fix; the
     * least Windows gives a system-managed file it sizes for these dumps is RAM / 8, and the
     * 4 GB X.dump advises is enough for kernel memory (1 GB at least) */
    uint64_t m = ram_bytes / 8;
    if (m > ((uint64_t)4 << 30))
        m = (uint64_t)4 << 30;
    if (m < ((uint64_t)1 << 30))
        m = (uint64_t)1 << 30;
    return m;
}
