#include "core/model/swap_target.h"

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

/* Starts a verdict: the row and nothing else; NULL why is a caller that shows none. */
static hr_swap_verdict *say(hr_swap_verdict *why, hr_swap_why id)
{
    if (why) {
        memset(why, 0, sizeof *why);
        why->id = id;
    }
    return why;
}

/* The reason naming the file system: its f parameter. */
static void say_fs(hr_swap_verdict *why, hr_swap_why id, const char *fs)
{
    if (say(why, id))
        hr_strlcpy(why->fs, fs, sizeof why->fs);
}

hr_tri hr_swap_fs_capable(hr_os os, const char *fs, int fs_devices, bool read_only, hr_swap_verdict *why)
{
    say(why, HR_SW_NONE);
    if (!fs)
        fs = "";
    if (read_only) {
        say(why, HR_SW_READ_ONLY);
        return HR_TRI_NO;
    }
    if (ONE_OF(fs, "vfat", "fat", "fat32", "msdos", "exfat")) {
        say(why, HR_SW_FAT);
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
            if (say(why, HR_SW_BTRFS_DEVICES))
                why->devices = fs_devices;
            return HR_TRI_NO;
        }
        say(why, HR_SW_BTRFS_DEVICES_UNKNOWN);
        return HR_TRI_UNKNOWN;
    }
    if (ONE_OF(fs, "tmpfs", "ramfs", "devtmpfs"))
        say_fs(why, HR_SW_IN_RAM, fs);
    else if (ONE_OF(fs, "overlay", "overlayfs", "aufs"))
        say(why, HR_SW_OVERLAY);
    else if (hr_str_istarts(fs, "nfs") || ONE_OF(fs, "cifs", "smb3", "9p", "virtiofs"))
        say_fs(why, HR_SW_NETWORK_FS, fs);
    else if (hr_str_istarts(fs, "fuse"))
        say_fs(why, HR_SW_FUSE, fs);
    else if (hr_str_ieq(fs, "f2fs"))
        say(why, HR_SW_F2FS);
    else if (ONE_OF(fs, "zfs", "squashfs", "iso9660", "ntfs", "ntfs3"))
        say_fs(why, HR_SW_NO_SWAP_SUPPORT, fs);
    else
        say_fs(why, HR_SW_FS_NOT_KNOWN, fs);
    return HR_TRI_NO;
}

/* Is path d itself or below it? */
static bool under(const char *path, const char *d)
{
    size_t k = strlen(d);
    return strncmp(path, d, k) == 0 && (path[k] == '\0' || path[k] == '/' || (k == 1 && d[0] == '/'));
}

hr_tri hr_swap_dir_cleared(hr_os os, const char *path, const char *mount_point, hr_swap_verdict *why)
{
    static const struct {
        const char *dir;
        hr_swap_why who; /* the row says who empties it */
    } cleared[] = {
        { "/tmp", HR_SW_CLEARED_TMP },     { "/var/tmp", HR_SW_CLEARED_BY_AGE }, { "/run", HR_SW_CLEARED_RAM },
        { "/var/run", HR_SW_CLEARED_RAM }, { "/dev/shm", HR_SW_CLEARED_RAM },    { "/var/cache", HR_SW_CLEARED_CACHE },
    };
    say(why, HR_SW_NONE);
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
            if (say(why, cleared[i].who))
                hr_strlcpy(why->dir, d, sizeof why->dir);
            return HR_TRI_YES;
        }
    }
    return HR_TRI_NO;
}

hr_tri hr_volume_can_hold_swap(const hr_volume *v, hr_os os, hr_swap_verdict *why)
{
    if (v->can_hold_swap == HR_TRI_NO) {
        if (v->why_not.id != HR_SW_NONE) {
            if (why)
                *why = v->why_not;
        } else {
            say(why, HR_SW_CANNOT);
        }
        return HR_TRI_NO;
    }
    hr_tri t = hr_swap_fs_capable(os, v->dev.fs_type, v->fs_devices, v->read_only, why);
    if (t != HR_TRI_YES)
        return t;
    if (hr_swap_dir_cleared(os, v->dev.mount_point, v->dev.mount_point, why) == HR_TRI_YES)
        return HR_TRI_NO;
    if (os == HR_OS_WINDOWS && v->can_hold_swap != HR_TRI_YES) {
        say(why, HR_SW_DRIVE_KIND_UNKNOWN);
        return HR_TRI_UNKNOWN;
    }
    return HR_TRI_YES;
}

hr_tri hr_device_removable(const hr_device *d, hr_swap_verdict *why)
{
    say(why, HR_SW_NONE);
    if (d->removable == HR_TRI_YES || d->usb == HR_TRI_YES) {
        if (say(why, d->usb == HR_TRI_YES ? HR_SW_USB : HR_SW_REMOVABLE))
            hr_strlcpy(why->disk, d->disk, sizeof why->disk);
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
