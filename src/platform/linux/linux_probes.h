/* headroom — the Linux backend's probes. Each fills its own sections of the snapshot and
 * fails alone: an unreadable source marks that section unknown with the reason. */
#ifndef HR_LINUX_PROBES_H
#define HR_LINUX_PROBES_H

#include "core/model/snapshot.h"
#include "platform/platform.h"

void hr_lx_probe_platform(const char *sysroot, hr_snapshot *s);
void hr_lx_probe_memory(const char *sysroot, hr_snapshot *s);      /* ram, commit, zswap pool */
void hr_lx_probe_swaps(const char *sysroot, hr_snapshot *s);       /* paging[] with devices */
void hr_lx_probe_volumes(const char *sysroot, hr_snapshot *s);     /* candidate file systems */
void hr_lx_probe_compression(const char *sysroot, hr_snapshot *s); /* zswap, zram */
void hr_lx_probe_cgroup(const char *sysroot, hr_snapshot *s);
void hr_lx_probe_pressure(const char *sysroot, hr_snapshot *s); /* /proc/pressure/memory */
/* This process's memory cgroup directory (sysroot-relative, as hr_cgroup.dir) and the
 * hierarchy its memory controller is on; false when there is none or it cannot be found. */
bool hr_lx_memory_cgroup_dir(const char *sysroot, char *dir, size_t n, hr_cgroup_version *v);
void hr_lx_probe_gpus(const char *sysroot, bool skip, hr_snapshot *s);
void hr_lx_probe_power(const char *sysroot, hr_snapshot *s);
/* The sampler's memory-pressure trigger, the one home of PSI triggers (sampler_linux.c):
 * the descriptor to poll for POLLPRI (armed on first use; -1 where the kernel has none),
 * and what poll's revents for it mean: 1 pressure, 0 nothing (a broken trigger is closed and
 * plain timeouts follow). hr_sampler_wait (watch) and hr_child_pump (run) both use them. */
int hr_lx_sampler_psi_fd(hr_sampler *s);
int hr_lx_sampler_psi_event(hr_sampler *s, short revents);

/* Device facts of the block device MAJ:MIN (rotational, removable, USB, dm-crypt). */
void hr_lx_device_facts(const char *sysroot, unsigned major, unsigned minor, hr_device *d);
/* Device facts of a file: the file system holding it, its device and free space. */
void hr_lx_file_device(const char *sysroot, const char *path, hr_device *d);
/* Free/total bytes of the file system mounted at mount_point. */
/* statvfs: total and available (df's Size and Avail); used (df's Used: blocks − free, so
 * reserved blocks are not "used") when known, else HR_UNKNOWN. Replayed trees: ".headroom/statvfs"
 * lines "<total> <available> [<used>] <mount point>". */
bool hr_lx_fs_space(const char *sysroot, const char *mount_point, uint64_t *total, uint64_t *avail, uint64_t *used);
/* /dev/sda2, /dev/mapper/x, /dev/zram0 → MAJ:MIN via sysfs (works on replayed trees too). */
bool hr_lx_block_dev_numbers(const char *sysroot, const char *devpath, unsigned *maj, unsigned *min);

/* The memory cgroups run and stress make (owned_cgroup.c). The name of a new one under
 * parent: "<prefix>-<pid>-<start time>", never reused. */
bool hr_lx_owned_cg_name(const char *parent, const char *prefix, char *out, size_t n);
/* Remove the groups "<prefix>-*" under parent whose maker is gone, killing what is left in
 * them. */
void hr_lx_owned_cg_sweep(const char *parent, const char *prefix);
/* Kill everything in the group and remove it. */
void hr_lx_owned_cg_remove(const char *dir);
/* A guard for a child (its process group pgid, its group cg or NULL): when headroom ends
 * without hr_lx_guard_done(fd, true) — killed — the guard kills the process group and
 * removes the cgroup. Returns the descriptor to pass to hr_lx_guard_done, or -1. */
#include <sys/types.h>
int hr_lx_guard_start(pid_t pgid, const char *cg);
void hr_lx_guard_done(int fd, bool cleaned);

#endif
