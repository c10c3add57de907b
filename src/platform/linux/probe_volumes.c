/* File systems that could hold a swap file: the candidates `plan` ranks (S3.3, S4.3). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/model/mountinfo.h"
#include "core/model/swap_target.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* btrfs: how many devices the file system on `source` spans, or 0 when that cannot be told.
 * /sys/fs/btrfs/<fsid>/devices/ lists every device of one file system, each entry a link to
 * the block device (its `dev` file holds MAJ:MIN); the mount source names only one of them. */
static int btrfs_devices(const char *sysroot, const char *source)
{
    unsigned maj, min;
    if (!hr_lx_block_dev_numbers(sysroot, source, &maj, &min))
        return 0;
    char full[4096];
    hr_lx_path(sysroot, "/sys/fs/btrfs", full, sizeof full);
    DIR *d = opendir(full);
    if (!d)
        return 0;
    int found = 0, scanned = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL && scanned++ < 256) {
        if (e->d_name[0] == '.' || strlen(e->d_name) > 64)
            continue;
        char dir[128];
        snprintf(dir, sizeof dir, "/sys/fs/btrfs/%s/devices", e->d_name);
        hr_lx_path(sysroot, dir, full, sizeof full);
        DIR *dd = opendir(full);
        if (!dd)
            continue; /* "features" and other non-fsid entries */
        int count = 0;
        bool mine = false;
        struct dirent *f;
        while ((f = readdir(dd)) != NULL && count < 1024) {
            if (f->d_name[0] == '.' || strlen(f->d_name) > 200)
                continue;
            count++;
            char p[400], v[64];
            unsigned a, b;
            snprintf(p, sizeof p, "%s/%s/dev", dir, f->d_name);
            if (hr_lx_read_str(sysroot, p, v, sizeof v) && sscanf(v, "%u:%u", &a, &b) == 2 && a == maj && b == min)
                mine = true;
        }
        closedir(dd);
        if (mine)
            found = count;
    }
    closedir(d);
    return found;
}

/* Pseudo and special file systems are never candidates. */
static bool interesting(const hr_mount *m)
{
    static const char *skip[] = { "proc",     "sysfs",       "devtmpfs",  "devpts",     "cgroup",
                                  "cgroup2",  "securityfs",  "debugfs",   "tracefs",    "pstore",
                                  "bpf",      "mqueue",      "hugetlbfs", "configfs",   "fusectl",
                                  "autofs",   "binfmt_misc", "efivarfs",  "rpc_pipefs", "nsfs",
                                  "squashfs", "iso9660",     "ramfs",     "selinuxfs",  "devfs" };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(m->fs_type, skip[i]) == 0)
            return false;
    if (strcmp(m->mount_point, "/") == 0)
        return true;
    /* tmpfs and overlay matter only where users would put a swap file. */
    if (strcmp(m->fs_type, "tmpfs") == 0 || strcmp(m->fs_type, "overlay") == 0)
        return strcmp(m->mount_point, "/tmp") == 0 || strcmp(m->mount_point, "/var") == 0 ||
               strcmp(m->mount_point, "/home") == 0;
    if (strncmp(m->mount_point, "/snap/", 6) == 0 || strncmp(m->mount_point, "/boot", 5) == 0 ||
        strncmp(m->mount_point, "/proc", 5) == 0 || strncmp(m->mount_point, "/sys", 4) == 0 ||
        strncmp(m->mount_point, "/dev", 4) == 0 || strncmp(m->mount_point, "/run", 4) == 0 ||
        strncmp(m->mount_point, "/etc/", 5) == 0) /* container runtimes bind single files there */
        return false;
    return true;
}

void hr_lx_probe_volumes(const char *sysroot, hr_snapshot *s)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_error err = { 0 };
    int r = hr_lx_read(sysroot, "/proc/self/mountinfo", &b, HR_LX_BIG_FILE, &err);
    if (r != 0) {
        hr_section_fail_error(&s->volumes_s, &err);
        hr_buf_free(&b);
        return;
    }
    hr_section_ok(&s->volumes_s, "/proc/self/mountinfo, /sys/dev/block, statvfs");
    const char *cur = hr_buf_str(&b), *end = cur + b.len;
    unsigned lineno = 0;
    hr_mount *m = malloc(sizeof *m);
    char(*keys)[300] = calloc(HR_MAX_VOLUMES, sizeof *keys);
    while (m && keys && (r = hr_mountinfo_next(&cur, end, "/proc/self/mountinfo", &lineno, m, &err)) == 1) {
        if (!interesting(m))
            continue;
        /* Bind mounts and subvolumes of one device: keep the first mount of each. */
        char key[300];
        snprintf(key, sizeof key, "%u:%u %s", m->major, m->minor, m->major ? "" : m->source);
        int dup = -1;
        for (int i = 0; i < s->volume_count && dup < 0; i++)
            if (strcmp(keys[i], key) == 0 && strcmp(m->fs_type, "tmpfs") != 0)
                dup = i;
        if (dup >= 0) {
            /* A swap file on another mount of the same file system (a btrfs @swap
             * subvolume at /swap) is on the volume already listed. */
            for (int i = 0; i < s->paging_count; i++)
                if (s->paging[i].kind == HR_PAGING_FILE && strcmp(s->paging[i].device.mount_point, m->mount_point) == 0)
                    s->volumes[dup].holds_paging = true;
            continue;
        }
        if (s->volume_count >= HR_MAX_VOLUMES) {
            hr_section_fail(&s->volumes_s, HR_N("more than %d file systems; the rest are not listed"), HR_MAX_VOLUMES);
            break;
        }
        hr_strlcpy(keys[s->volume_count], key, sizeof keys[0]);
        hr_volume *v = &s->volumes[s->volume_count++];
        hr_strlcpy(v->dev.mount_point, m->mount_point, sizeof v->dev.mount_point);
        hr_strlcpy(v->dev.fs_type, m->fs_type, sizeof v->dev.fs_type);
        v->is_system = strcmp(m->mount_point, "/") == 0;
        v->read_only = hr_opt_has(m->mount_opts, "ro");
        if (strcmp(m->fs_type, "btrfs") == 0)
            v->fs_devices = btrfs_devices(sysroot, m->source);
        /* The one rule plan placement and apply use too (core/model/swap_target.h). */
        v->can_hold_swap = hr_swap_fs_capable(HR_OS_LINUX, m->fs_type, v->fs_devices, v->read_only, &v->why_not);
        if (v->can_hold_swap == HR_TRI_YES &&
            hr_swap_dir_cleared(HR_OS_LINUX, m->mount_point, m->mount_point, &v->why_not) == HR_TRI_YES)
            v->can_hold_swap = HR_TRI_NO; /* the boot or a cleaner empties it */
        unsigned maj = m->major, min = m->minor;
        if (maj != 0 || hr_lx_block_dev_numbers(sysroot, m->source, &maj, &min))
            hr_lx_device_facts(sysroot, maj, min, &v->dev);
        uint64_t total, avail, used;
        if (hr_lx_fs_space(sysroot, m->mount_point, &total, &avail, &used)) {
            v->dev.fs_total_bytes = total;
            v->dev.fs_free_bytes = avail;
            v->dev.fs_used_bytes = used;
        } else if (hr_words_empty(&v->dev.why)) {
            hr_words_set(&v->dev.why, HR_N("free space of %s unknown"), m->mount_point);
        }
        for (int i = 0; i < s->paging_count; i++)
            if (s->paging[i].kind == HR_PAGING_FILE && strcmp(s->paging[i].device.mount_point, m->mount_point) == 0)
                v->holds_paging = true;
    }
    if (r < 0)
        hr_section_fail_error(&s->volumes_s, &err);
    else if (r == 0 && s->volume_count == 0)
        /* Every Linux system mounts a root file system: an empty list is a broken file. */
        hr_section_fail(&s->volumes_s, HR_N("/proc/self/mountinfo: no root file system listed"));
    free(m);
    free(keys);
    hr_buf_free(&b);
}
