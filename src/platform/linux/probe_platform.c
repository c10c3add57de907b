/* Which Linux this is: kernel, WSL 2, container. */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/base/buf.h"
#include "core/base/text.h"
#include "core/model/mountinfo.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool root_is_overlay(const char *sysroot)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_mount m;
    bool yes = hr_lx_read(sysroot, "/proc/self/mountinfo", &b, HR_LX_BIG_FILE, NULL) == 0 &&
               hr_mountinfo_find(hr_buf_str(&b), b.len, "mountinfo", "/", &m, NULL) == 0 &&
               strcmp(m.mount_point, "/") == 0 && strcmp(m.fs_type, "overlay") == 0;
    hr_buf_free(&b);
    return yes;
}

void hr_lx_probe_platform(const char *sysroot, hr_snapshot *s)
{
    hr_platform_info *pi = &s->platform;
    char rel[128] = "", type[32] = "Linux";
    hr_lx_read_str(sysroot, "/proc/sys/kernel/ostype", type, sizeof type);
    if (hr_lx_read_str(sysroot, "/proc/sys/kernel/osrelease", rel, sizeof rel) && rel[0])
        hr_words_set(&pi->os_name, "%s %s", type, rel);
    else
        hr_words_set(&pi->os_name, HR_N("%s (kernel release unknown)"), type);
    hr_strlcpy(pi->system_volume, "/", sizeof pi->system_volume);

    /* WSL 2 kernels are Microsoft's: "5.15.153.1-microsoft-standard-WSL2". WSL 1 has no
     * real kernel and reports "-Microsoft". */
    pi->wsl2 = (hr_str_icontains(rel, "microsoft") && hr_str_icontains(rel, "wsl2")) ||
                       (hr_str_icontains(rel, "microsoft-standard"))
                   ? HR_TRI_YES
                   : HR_TRI_NO;

    /* Containers: PID 1's cgroup naming a runtime, or a marker file on an overlay root.
     * A marker alone is not enough: VM images built from container images keep it. */
    pi->container = HR_TRI_NO;
    if (hr_lx_exists(sysroot, "/.dockerenv") && root_is_overlay(sysroot)) {
        pi->container = HR_TRI_YES;
        hr_strlcpy(pi->container_kind, "docker", sizeof pi->container_kind);
    } else if (hr_lx_exists(sysroot, "/run/.containerenv") && root_is_overlay(sysroot)) {
        pi->container = HR_TRI_YES;
        hr_strlcpy(pi->container_kind, "podman", sizeof pi->container_kind);
    } else {
        hr_buf b;
        hr_buf_init(&b, HR_LX_SMALL_FILE);
        if (hr_lx_read(sysroot, "/proc/1/cgroup", &b, HR_LX_SMALL_FILE, NULL) == 0) {
            const char *kinds[] = { "docker", "kubepods", "lxc", "containerd", "libpod" };
            for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
                if (strstr(hr_buf_str(&b), kinds[i])) {
                    pi->container = HR_TRI_YES;
                    hr_strlcpy(pi->container_kind, kinds[i], sizeof pi->container_kind);
                    break;
                }
        }
        hr_buf_free(&b);
    }
    if (hr_lx_live(sysroot)) {
        long ps = sysconf(_SC_PAGESIZE);
        pi->page_size = ps > 0 ? (uint64_t)ps : 4096;
    } else {
        /* A recorded tree's page size is the recording machine's (4 KiB on x86-64, 16 or
         * 64 KiB on some arm64 and ppc64 kernels), not the one replaying it: the recorder
         * writes it to .headroom/page_size. Unknown when it did not. */
        unsigned long long ps;
        pi->page_size = hr_lx_read_u64(sysroot, "/.headroom/page_size", &ps) && ps >= 4096 && (ps & (ps - 1)) == 0
                            ? ps
                            : HR_UNKNOWN;
    }
}
