/* headroom — Linux verify: what the state file and fstab configure against what /proc/swaps
 * says is in use (recovering a run that was cut short first, when it holds the lock). */
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

/* ---- verify ---- */

static void resolve_spec(const char *spec, char *out, size_t n)
{
    static const struct {
        const char *tag, *dir;
    } tags[] = { { "UUID=", "/dev/disk/by-uuid/" },
                 { "LABEL=", "/dev/disk/by-label/" },
                 { "PARTUUID=", "/dev/disk/by-partuuid/" },
                 { "PARTLABEL=", "/dev/disk/by-partlabel/" } };
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
    int have = hr_lx_state_load(rq, &st, err);
    if (have < 0)
        return have;
    hr_recovery_log rlog = { 0 }; /* what recovery finished or undid: verify says so */
    if (have && hr_lx_lock_held()) {
        int rr = hr_lx_recover(rq, &st, &rlog, err);
        if (rr < 0)
            return rr;
    }
    hr_verify_linux_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    in->fstab_path = hr_lx_fstab_path(rq);
    in->state = have ? &st : NULL;
    in->commit_limit_bytes = in->commit_charge_bytes = HR_UNKNOWN;
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_fstab f;
    hr_fstab_init(&f);
    bool existed;
    int r = hr_lx_read_fstab(in->fstab_path, &b, &f, &existed, err);
    if (r == 0 && !existed && rq->fstab_path) /* a file the user named must be there */
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
        hr_error e2 = { 0 };
        if (hr_lx_read(NULL, "/proc/meminfo", &b, (size_t)1 << 20, &e2) == 0 &&
            hr_parse_meminfo(hr_buf_str(&b), b.len, "/proc/meminfo", &mi, &e2) == 0) {
            in->commit_limit_bytes = mi.commit_limit;
            in->commit_charge_bytes = mi.committed_as;
        }
        hr_verify_linux(in, res);
        res->recovered = rlog;
    }
    hr_fstab_free(&f);
    hr_buf_free(&b);
    free(in);
    return r;
}
