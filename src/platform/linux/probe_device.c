/* What is under a swap area or a file: block device, SSD or HDD, removable, USB, dm-crypt
 * (S3.3: paging on an HDD can be slower than none; S5.4: never on removable media). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/model/mountinfo.h"
#include "core/base/text.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

bool hr_lx_block_dev_numbers(const char *sysroot, const char *devpath, unsigned *maj, unsigned *min)
{
    char name[256] = "", p[512], v[64];
    if (strncmp(devpath, "/dev/mapper/", 12) == 0) {
        for (int i = 0; i < 256 && !name[0]; i++) {
            snprintf(p, sizeof p, "/sys/block/dm-%d/dm/name", i);
            if (hr_lx_read_str(sysroot, p, v, sizeof v) && strcmp(v, devpath + 12) == 0)
                snprintf(name, sizeof name, "dm-%d", i);
        }
    } else if (strncmp(devpath, "/dev/", 5) == 0) {
        hr_strlcpy(name, devpath + 5, sizeof name);
    }
    if (!name[0] || strchr(name, '/'))
        return false;
    snprintf(p, sizeof p, "/sys/class/block/%s/dev", name);
    return hr_lx_read_str(sysroot, p, v, sizeof v) && sscanf(v, "%u:%u", maj, min) == 2;
}

/* First entry of a sysfs directory (dm slaves), or false. */
static bool first_entry(const char *sysroot, const char *dir, char *out, size_t outn)
{
    char full[4096];
    hr_lx_path(sysroot, dir, full, sizeof full);
    DIR *d = opendir(full);
    if (!d)
        return false;
    struct dirent *e;
    bool found = false;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        hr_strlcpy(out, e->d_name, outn);
        found = true;
        break;
    }
    closedir(d);
    return found;
}

static void disk_facts(const char *sysroot, const char *sysdir, hr_device *d, int depth)
{
    char p[4096], v[256];
    /* A partition's disk is its parent directory. */
    char diskdir[4096];
    hr_strlcpy(diskdir, sysdir, sizeof diskdir);
    snprintf(p, sizeof p, "%s/partition", sysdir);
    if (hr_lx_exists(sysroot, p)) {
        char *slash = strrchr(diskdir, '/');
        if (slash && slash != diskdir)
            *slash = '\0';
    }
    if (!d->disk[0])
        hr_strlcpy(d->disk, base_name(diskdir), sizeof d->disk);

    /* Device mapper: dm-crypt or LVM; the facts that matter are the real disk's. */
    snprintf(p, sizeof p, "%s/dm/uuid", diskdir);
    if (hr_lx_read_str(sysroot, p, v, sizeof v)) {
        if (strncmp(v, "CRYPT-", 6) == 0) {
            char kind[16] = "";
            const char *k = v + 6, *dash = strchr(k, '-');
            size_t kn = dash ? (size_t)(dash - k) : strlen(k);
            if (kn >= sizeof kind)
                kn = sizeof kind - 1;
            memcpy(kind, k, kn);
            kind[kn] = '\0';
            d->encrypted = HR_TRI_YES;
            snprintf(d->encryption, sizeof d->encryption, "dm-crypt %s", kind);
        } else if (d->encrypted == HR_TRI_UNKNOWN) {
            d->encrypted = HR_TRI_NO;
        }
        char slave[256];
        snprintf(p, sizeof p, "%s/slaves", diskdir);
        if (depth < 8 && first_entry(sysroot, p, slave, sizeof slave)) {
            char link[4096], real[4096];
            snprintf(link, sizeof link, "/sys/class/block/%s", slave);
            d->disk[0] = '\0';
            if (hr_lx_resolve(sysroot, link, real, sizeof real)) {
                disk_facts(sysroot, real, d, depth + 1);
                return;
            }
        }
        hr_words_set(&d->why, HR_N("device-mapper device without readable slaves"));
        return;
    }
    if (d->encrypted == HR_TRI_UNKNOWN)
        d->encrypted = HR_TRI_NO;

    unsigned long long x;
    snprintf(p, sizeof p, "%s/queue/rotational", diskdir);
    if (hr_lx_read_u64(sysroot, p, &x))
        d->rotational = x ? HR_TRI_YES : HR_TRI_NO;
    snprintf(p, sizeof p, "%s/removable", diskdir);
    if (hr_lx_read_u64(sysroot, p, &x))
        d->removable = x ? HR_TRI_YES : HR_TRI_NO;
    /* Paravirtual disks report a rotational flag that says nothing about the host's medium:
     * virtio, Xen, and Hyper-V's VMBus disks (WSL 2, Azure). zram is a disk made of RAM. */
    d->virtual_disk = strstr(diskdir, "/virtio") || strstr(diskdir, "/VMBUS:") ||
                      strncmp(base_name(diskdir), "xvd", 3) == 0 || strncmp(base_name(diskdir), "zram", 4) == 0;
    /* USB-attached disks sit under a usbN bus in the device path. */
    d->usb = strstr(diskdir, "/usb") ? HR_TRI_YES : HR_TRI_NO;
    if (d->rotational == HR_TRI_UNKNOWN || d->removable == HR_TRI_UNKNOWN)
        hr_words_set(&d->why, HR_N("%s: queue/rotational or removable unreadable"), base_name(diskdir));
}

void hr_lx_device_facts(const char *sysroot, unsigned major, unsigned minor, hr_device *d)
{
    char link[128], real[4096];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major, minor);
    if (!hr_lx_resolve(sysroot, link, real, sizeof real) || strcmp(real, link) == 0) {
        hr_words_set(&d->why, HR_N("%s: not found"), link);
        return;
    }
    hr_strlcpy(d->name, base_name(real), sizeof d->name);
    disk_facts(sysroot, real, d, 0);
}

bool hr_lx_fs_space(const char *sysroot, const char *mount_point, uint64_t *total, uint64_t *avail, uint64_t *used)
{
    *used = HR_UNKNOWN;
    if (hr_lx_live(sysroot)) {
        struct statvfs v;
        if (statvfs(mount_point, &v) != 0)
            return false;
        *total = (uint64_t)v.f_blocks * v.f_frsize;
        *avail = (uint64_t)v.f_bavail * v.f_frsize;
        if (v.f_bfree <= v.f_blocks)
            *used = (uint64_t)(v.f_blocks - v.f_bfree) * v.f_frsize;
        return true;
    }
    /* Replayed trees record statvfs answers: "<total> <available> <mount point>" lines. */
    hr_buf b;
    hr_buf_init(&b, HR_LX_SMALL_FILE);
    bool found = false;
    if (hr_lx_read(sysroot, "/.headroom/statvfs", &b, HR_LX_SMALL_FILE, NULL) == 0) {
        const char *cur = hr_buf_str(&b), *end = cur + b.len, *line;
        size_t n;
        while (!found && hr_next_line(&cur, end, &line, &n)) {
            unsigned long long t, a;
            int off = 0;
            char tmp[1024];
            if (n >= sizeof tmp)
                continue;
            memcpy(tmp, line, n);
            tmp[n] = '\0';
            if (sscanf(tmp, "%llu %llu %n", &t, &a, &off) == 2 && off > 0) {
                unsigned long long u;
                int off2 = 0;
                bool has_used =
                    tmp[off] >= '0' && tmp[off] <= '9' && sscanf(tmp + off, "%llu %n", &u, &off2) == 1 && off2 > 0;
                if (strcmp(tmp + off + (has_used ? off2 : 0), mount_point) == 0) {
                    *total = t;
                    *avail = a;
                    if (has_used && u <= t)
                        *used = u;
                    found = true;
                }
            }
        }
    }
    hr_buf_free(&b);
    return found;
}

void hr_lx_file_device(const char *sysroot, const char *path, hr_device *d)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_error err = { 0 };
    hr_mount m;
    int r = hr_lx_read(sysroot, "/proc/self/mountinfo", &b, HR_LX_BIG_FILE, &err);
    if (r == 0)
        r = hr_mountinfo_find(hr_buf_str(&b), b.len, "/proc/self/mountinfo", path, &m, &err);
    hr_buf_free(&b);
    if (r != 0) {
        hr_words_clear(&d->why);
        hr_words_add_error(&d->why, &err);
        return;
    }
    /* The kernel never swaps to a file on overlay: a swap file whose path resolves to an
     * overlay root belongs to the host, seen from inside a container (/proc/swaps is not
     * namespaced). Its device is out of sight; say so rather than describe the overlay. */
    if (strcmp(m.fs_type, "overlay") == 0) {
        hr_words_set(&d->why, HR_N("%s is outside this container (on the host): its device is not visible"), path);
        return;
    }
    hr_strlcpy(d->fs_type, m.fs_type, sizeof d->fs_type);
    hr_strlcpy(d->mount_point, m.mount_point, sizeof d->mount_point);
    unsigned maj = m.major, min = m.minor;
    /* btrfs, like tmpfs and overlay, reports an anonymous 0:N device: use the mount source. */
    if (maj == 0 && !hr_lx_block_dev_numbers(sysroot, m.source, &maj, &min))
        hr_words_set(&d->why, HR_N("%s on %s: no block device (%s)"), m.fs_type, m.mount_point, m.source);
    else
        hr_lx_device_facts(sysroot, maj, min, d);
    uint64_t total, avail, used;
    if (hr_lx_fs_space(sysroot, m.mount_point, &total, &avail, &used)) {
        d->fs_total_bytes = total;
        d->fs_free_bytes = avail;
        d->fs_used_bytes = used;
    }
}
