#include "core/apply/apply_from_plan.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/model/swap_target.h"

#include <stdlib.h>
#include <string.h>

int hr_apply_take_plan(const hr_plan *plan, hr_os os, hr_apply_take *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    const hr_plan_recommended *rec = &plan->recommended;
    if (!rec->target_known || !rec->target[0]) {
        char advice[HR_PLAN_TEXT_MAX];
        return hr_error_set(err, HR_ENOENT,
                            HR_T("--from-plan: the plan found no drive for it (%s); "
                                 "give --target"),
                            hr_plan_advice_text(rec, hr_lang_get(), advice, sizeof advice));
    }
    if (os == HR_OS_WINDOWS) {
        hr_strlcpy(out->target, rec->target, sizeof out->target);
        if (rec->fixed) {
            out->size_bytes = rec->maximum_bytes;
        } else {
            out->range_min_bytes = rec->initial_bytes;
            out->range_max_bytes = rec->maximum_bytes;
        }
        return 0;
    }
    if (rec->add_bytes == 0 || rec->add_bytes == HR_UNKNOWN)
        return hr_error_set(err, HR_ENOENT,
                            HR_T("--from-plan: the plan adds no swap here (the swap "
                                 "in use is already enough)"));
    /* The very file the plan names (it picks headroom-2.swap when headroom.swap is taken). */
    hr_strlcpy(out->target, rec->target_path, sizeof out->target);
    out->size_bytes = rec->add_bytes;
    return 0;
}

/* The volume holding path: the longest mount point that is a prefix of it. */
static const hr_volume *volume_of(const hr_snapshot *s, const char *path)
{
    const hr_volume *best = NULL;
    size_t best_len = 0;
    for (int i = 0; i < s->volume_count && i < HR_MAX_VOLUMES; i++) {
        const char *mp = s->volumes[i].dev.mount_point;
        size_t n = strlen(mp);
        bool under = strncmp(path, mp, n) == 0 && (n == 1 || path[n] == '/' || path[n] == '\0' || mp[n - 1] == '/');
        if (under && n >= best_len) {
            best = &s->volumes[i];
            best_len = n;
        }
    }
    return best;
}

static int linux_dry_run(const hr_snapshot *s, const hr_apply_take *req, hr_apply_plan *out, hr_error *err)
{
    hr_apply_linux_in *in = calloc(1, sizeof *in);
    hr_fstab *fstab = malloc(sizeof *fstab);
    int r = in && fstab ? 0 : hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    if (r == 0) {
        hr_fstab_init(fstab);
        in->size_bytes = req->size_bytes;
        in->allow_shrink = req->allow_shrink;
        in->priority = HR_APPLY_DEFAULT_PRIORITY;
        in->page_size =
            s->platform.page_size != HR_UNKNOWN && s->platform.page_size ? (size_t)s->platform.page_size : 4096;
        r = hr_apply_linux_choose_path(req->target, false, in->size_bytes, in->priority, in->page_size, NULL, in->path,
                                       sizeof in->path, err);
    }
    if (r == 0) {
        const hr_volume *v = volume_of(s, in->path);
        if (v) {
            hr_strlcpy(in->fs.type, v->dev.fs_type, sizeof in->fs.type);
            in->fs.total_bytes = v->dev.fs_total_bytes;
            in->fs.free_bytes = v->dev.fs_free_bytes;
            in->fs.devices = v->fs_devices;
            in->fs.read_only = v->read_only;
        } else {
            in->fs.total_bytes = in->fs.free_bytes = HR_UNKNOWN;
        }
        for (int i = 0; i < s->paging_count && in->active_count < HR_MAX_PAGING; i++) {
            const hr_paging *p = &s->paging[i];
            hr_swap_active *a = &in->active[in->active_count++];
            hr_strlcpy(a->path, p->path, sizeof a->path);
            a->is_file = p->kind == HR_PAGING_FILE;
            a->size_bytes = p->size_bytes;
            a->used_bytes = p->used_bytes;
            a->priority = p->priority;
            if (strcmp(p->path, in->path) == 0)
                in->path_exists = true; /* a swap file in use there: it exists */
        }
        in->fstab = fstab;
        in->fstab_path = "/etc/fstab";
        r = hr_apply_plan_linux(in, out, err);
    }
    if (fstab)
        hr_fstab_free(fstab);
    free(fstab);
    free(in);
    return r;
}

static int windows_dry_run(const hr_snapshot *s, const hr_apply_take *req, hr_apply_plan *out, hr_error *err)
{
    hr_apply_win_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    uint64_t lo = req->range_max_bytes ? req->range_min_bytes : req->size_bytes;
    uint64_t hi = req->range_max_bytes ? req->range_max_bytes : req->size_bytes;
    in->initial_mb = (lo + HR_MIB - 1) / HR_MIB;
    in->maximum_mb = (hi + HR_MIB - 1) / HR_MIB;
    in->drive = hr_drive_letter(req->target);
    in->system_drive = hr_drive_letter(s->platform.system_volume);
    if (!in->system_drive)
        in->system_drive = 'C';
    in->drive_type = HR_DRIVE_UNKNOWN;
    in->dev.fs_total_bytes = in->dev.fs_free_bytes = HR_UNKNOWN;
    for (int i = 0; i < s->volume_count && i < HR_MAX_VOLUMES; i++) {
        const hr_volume *v = &s->volumes[i];
        if (!in->drive || hr_drive_letter(v->dev.mount_point) != in->drive)
            continue;
        in->dev = v->dev;
        /* What the recording says of the drive type: fixed when it can hold a paging file. */
        if (v->dev.removable == HR_TRI_YES)
            in->drive_type = HR_DRIVE_REMOVABLE;
        else if (hr_volume_can_hold_swap(v, HR_OS_WINDOWS, NULL) == HR_TRI_YES)
            in->drive_type = HR_DRIVE_FIXED;
    }
    for (int i = 0; i < 26; i++)
        in->drive_file_bytes[i] = s->paging_s.ok ? 0 : HR_UNKNOWN;
    for (int i = 0; i < s->paging_count; i++) { /* what system-managed entries give now */
        char d = hr_drive_letter(s->paging[i].path);
        if (d >= 'A' && d <= 'Z')
            in->drive_file_bytes[d - 'A'] = s->paging[i].size_bytes;
    }
    for (int i = 0; i < s->paging_count; i++) /* the file already there is reused */
        if (in->drive && hr_drive_letter(s->paging[i].path) == in->drive && s->paging[i].size_bytes != HR_UNKNOWN)
            in->existing_file_bytes = hr_sat_add(in->existing_file_bytes, s->paging[i].size_bytes);
    for (int i = 0; i < s->paging_config.count && i < HR_MAX_PAGING_CONFIG && in->current.count < HR_PFW_MAX_ENTRIES;
         i++) {
        const hr_paging_config_entry *e = &s->paging_config.entries[i];
        hr_pfw_entry *w = &in->current.e[in->current.count++];
        hr_strlcpy(w->path, e->path, sizeof w->path);
        w->mode = e->mode;
        w->initial_mb = e->initial_bytes != HR_UNKNOWN ? e->initial_bytes / HR_MIB : 0;
        w->maximum_mb = e->maximum_bytes != HR_UNKNOWN ? e->maximum_bytes / HR_MIB : 0;
    }
    in->dump_needs_system_paging = s->paging_config.dump_needs_system_paging; /* X.dump, as plan reads it */
    in->allow_shrink = req->allow_shrink;
    int r = hr_apply_plan_windows(in, out, err);
    free(in);
    return r;
}

int hr_apply_plan_from_snapshot(const hr_snapshot *snap, const hr_apply_take *req, hr_apply_plan *out, hr_error *err)
{
    return snap->platform.os == HR_OS_WINDOWS ? windows_dry_run(snap, req, out, err)
                                              : linux_dry_run(snap, req, out, err);
}
