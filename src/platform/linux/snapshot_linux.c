/* headroom — the Linux backend of platform.h: every probe, each failing alone. */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"
#include "probe_procs.h"

#include "platform/platform.h"

#include "core/base/size.h"
#include "core/base/text.h"
#include "core/model/fstab.h"

#include <errno.h>
#include <stdio.h>
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

/* The size of a swap file fstab names: stat on this machine; in a recorded tree, a
 * ".headroom/stat" line "<size> <path>" (as .headroom/statvfs records statvfs). */
static uint64_t file_size(const char *root, const char *path)
{
    if (hr_lx_live(root)) {
        struct stat st;
        return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : HR_UNKNOWN;
    }
    uint64_t size = HR_UNKNOWN;
    hr_buf b;
    hr_buf_init(&b, HR_LX_SMALL_FILE);
    if (hr_lx_read(root, "/.headroom/stat", &b, HR_LX_SMALL_FILE, NULL) == 0) {
        const char *cur = hr_buf_str(&b), *end = cur + b.len, *line;
        size_t n;
        while (size == HR_UNKNOWN && hr_next_line(&cur, end, &line, &n)) {
            char tmp[1024];
            unsigned long long v;
            int off = 0;
            if (n >= sizeof tmp)
                continue;
            memcpy(tmp, line, n);
            tmp[n] = '\0';
            if (sscanf(tmp, "%llu %n", &v, &off) == 1 && off > 0 && strcmp(tmp + off, path) == 0)
                size = v;
        }
    }
    hr_buf_free(&b);
    return size;
}

/* The swap /etc/fstab configures (paging_config): what a restart, or swapon -a, switches on.
 * No fstab: the section stays unread and says nothing. noauto lines are left out. */
static void probe_fstab(const char *root, hr_snapshot *snap)
{
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_error err = { 0 };
    /* Unreadable or not understood: the section stays unread, as without an fstab (the
     * facts status reports do not depend on it; apply and verify read it themselves). */
    if (hr_lx_read(root, "/etc/fstab", &b, HR_FSTAB_MAX_BYTES, &err) < 0) {
        hr_buf_free(&b);
        return;
    }
    hr_paging_config *cfg = &snap->paging_config;
    hr_fstab f;
    hr_fstab_init(&f);
    if (hr_fstab_parse(&f, hr_buf_str(&b), b.len, "/etc/fstab", &err) == 0) {
        hr_section_ok(&cfg->s, "/etc/fstab");
        cfg->present = true;
        for (size_t i = 0; i < f.count && cfg->count < HR_MAX_PAGING_CONFIG; i++) {
            const hr_fstab_line *l = &f.lines[i];
            if (!hr_fstab_is_swap(l) || hr_fstab_opt_has(l->opts, "noauto"))
                continue;
            hr_paging_config_entry *e = &cfg->entries[cfg->count++];
            memset(e, 0, sizeof *e);
            hr_strlcpy(e->path, l->spec, sizeof e->path);
            e->mode = HR_PAGING_MODE_CUSTOM;
            e->initial_bytes = e->maximum_bytes =
                l->spec[0] == '/' && strncmp(l->spec, "/dev/", 5) != 0 ? file_size(root, l->spec) : HR_UNKNOWN;
            e->priority = hr_fstab_opt_priority(l->opts);
        }
    }
    hr_fstab_free(&f);
    hr_buf_free(&b);
}

int hr_platform_snapshot(const hr_probe_opts *opts, hr_snapshot *snap, hr_error *err)
{
    if (opts && opts->record) {
        hr_snapshot_init(snap, HR_OS_LINUX);
        return hr_error_set(err, HR_ENOTSUP,
                            HR_T("--record saves Win32 answers: only on Windows "
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
    if (!opts || !opts->skip_procs)
        hr_linux_probe_procs(root, &snap->procs);         /* check: the biggest other users */
    hr_lx_probe_gpus(root, opts && opts->skip_gpu, snap); /* after procs: the python processes' VRAM */
    hr_lx_probe_power(root, snap);
    /* Linux configures swap in /etc/fstab: what the next boot switches on (paging_config). */
    probe_fstab(root, snap);
    return hr_snapshot_partial(snap) ? HR_EPARTIAL : 0;
}
