/* headroom — the Linux backend of platform.h: every probe, each failing alone. */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"
#include "probe_procs.h"

#include "platform/platform.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

hr_os hr_platform_os(void)
{
    return HR_OS_LINUX;
}

int hr_platform_read_file(const char *path, hr_buf *b, size_t max, hr_error *err)
{
    return hr_lx_read(NULL, path, b, max, err);
}

int hr_platform_snapshot(const hr_probe_opts *opts, hr_snapshot *snap, hr_error *err)
{
    if (opts && opts->record) {
        hr_snapshot_init(snap, HR_OS_LINUX);
        return hr_error_set(err, HR_ENOTSUP, HR_T("--record saves Win32 answers: only on Windows "
                            "(on Linux, copy /proc and /sys files for --sysroot)"));
    }
    const char *root = opts && opts->sysroot ? opts->sysroot : "/";
    hr_snapshot_init(snap, HR_OS_LINUX);
    if (!hr_lx_live(root)) {
        struct stat st;
        if (stat(root, &st) != 0)
            return hr_error_set(err, HR_ENOENT, "--sysroot %s: %s", root, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return hr_error_set(err, HR_ENOENT, HR_T("--sysroot %s: not a directory"), root);
    }
    hr_lx_probe_platform(root, snap);
    hr_lx_probe_memory(root, snap);
    hr_lx_probe_swaps(root, snap);
    hr_lx_probe_volumes(root, snap);
    hr_lx_probe_compression(root, snap);
    hr_lx_probe_cgroup(root, snap);
    hr_lx_probe_pressure(root, snap);
    hr_lx_probe_gpus(root, opts && opts->skip_gpu, snap);
    hr_lx_probe_power(root, snap);
    if (!opts || !opts->skip_procs)
        hr_linux_probe_procs(root, &snap->procs);   /* check: the biggest other users */
    /* Linux configures swap in /etc/fstab; apply/verify read it (paging_config). */
    return hr_snapshot_partial(snap) ? HR_EPARTIAL : 0;
}
