/* headroom — what else to change: warnings where, and only where, the facts call for them.
 * Each has a stable id (tests and scripts key on it) and the rule it comes from; rules with
 * an X. prefix are headroom's own, with their sources in docs/plan.md. */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"

#include "core/base/size.h"
#include "core/base/text.h"
#include "core/model/pagingfiles.h"
#include "core/model/swap_target.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define W(...) hr_plan_warn_add(p, __VA_ARGS__)

static const hr_plan_warning_info warning_rows[HR_PW_COUNT] = {
#define HR_PW_ROW(w, json_id, rule, params, text) [w] = { json_id, rule, params, text },
    HR_PLAN_WARNINGS(HR_PW_ROW)
#undef HR_PW_ROW
};

const hr_plan_warning_info *hr_plan_warning_row(hr_plan_warning w)
{
    return w > HR_PW_NONE && w < HR_PW_COUNT ? &warning_rows[w] : NULL;
}

/* The one place a warning line is made: its id and rule are the row's, whatever the wording. */
static hr_plan_line *warn_v(hr_plan *p, hr_plan_warning w, const char *fmt, va_list ap)
{
    const hr_plan_warning_info *row = hr_plan_warning_row(w);
    if (!row || p->warning_count >= HR_PLAN_MAX_WARNINGS)
        return NULL;
    hr_plan_line *l = &p->warnings[p->warning_count++];
    memset(l, 0, sizeof *l);
    l->warning = w;
    hr_strlcpy(l->id, row->id, sizeof l->id);
    hr_strlcpy(l->rule, row->rule, sizeof l->rule);
    /* The template is the table's, not a literal the compiler can check against the call:
     * test_plan_warnings holds every template (and its translation) to the row's parameters. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    hr_msg_vset(&l->msg, fmt ? fmt : row->text, ap);
#pragma GCC diagnostic pop
    return l;
}

hr_plan_line *hr_plan_warn_add(hr_plan *p, hr_plan_warning w, ...)
{
    va_list ap;
    va_start(ap, w);
    hr_plan_line *l = warn_v(p, w, NULL, ap);
    va_end(ap);
    return l;
}

hr_plan_line *hr_plan_warn_alt(hr_plan *p, hr_plan_warning w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_plan_line *l = warn_v(p, w, fmt, ap);
    va_end(ap);
    return l;
}

static const hr_volume *system_volume(const hr_snapshot *snap)
{
    for (int i = 0; i < snap->volume_count && i < HR_MAX_VOLUMES; i++)
        if (snap->volumes[i].is_system)
            return &snap->volumes[i];
    return NULL;
}

/* Windows: paging left to Windows ("automatically manage", or "System managed size"). */
static bool windows_automatic(const hr_snapshot *snap)
{
    if (snap->paging_config.automatic == HR_TRI_YES)
        return true;
    for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++)
        if (snap->paging_config.entries[i].mode != HR_PAGING_MODE_CUSTOM)
            return true;
    return false;
}

static bool zram_swap_active(const hr_snapshot *snap)
{
    for (int i = 0; i < snap->paging_count; i++)
        if (snap->paging[i].kind == HR_PAGING_ZRAM)
            return true;
    return false;
}

static void windows_warnings(const hr_snapshot *snap, hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    char mx[32];
    hr_size_gb(r->maximum_bytes, mx, sizeof mx);

    /* Crash dumps go through the paging file on the system drive. */
    const char *sys = snap && snap->platform.system_volume[0] ? snap->platform.system_volume : "C:\\";
    /* The plan moves the file off the system drive: to the target, or (no drive list, or no
     * drive with room) to the kind of drive it advises, a non-system SSD, as its steps say. */
    bool moved = r->target_known ? !hr_same_drive(r->target, sys) : true;
    /* Dumps off or to a dedicated file (CrashControl): nothing to warn about. */
    bool dumps_elsewhere = snap && snap->paging_config.dump_needs_system_paging == HR_TRI_NO;
    if (moved && !p->dump_file[0] && !dumps_elsewhere) {
        W(HR_PW_NO_CRASH_DUMP, sys, sys);
    }
    if (!snap)
        return;
    /* S6: the removals would leave less paging file configured than there is now (a file the
     * rules no longer need: crash dumps off, say). Said, because apply refuses to lower what
     * is configured unless told to (--allow-shrink): the check the property test holds apply's
     * refusal to. Counted as apply counts: a custom file its maximum, a system-managed or
     * automatic one the file now on its drive, a size not known 0. */
    if (r->target_known && p->removal_count > 0 && snap->paging_config.s.ok) {
        uint64_t before = 0, after = r->maximum_bytes;
        for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
            const hr_paging_config_entry *e = &snap->paging_config.entries[i];
            uint64_t b = HR_UNKNOWN;
            if (e->mode == HR_PAGING_MODE_CUSTOM) {
                b = e->maximum_bytes;
            } else {
                char d = e->mode == HR_PAGING_MODE_AUTOMATIC || hr_drive_letter(e->path) == 0
                             ? hr_drive_letter(sys)
                             : hr_drive_letter(e->path);
                for (int k = 0; k < snap->paging_count; k++)
                    if (hr_drive_letter(snap->paging[k].path) == d)
                        b = snap->paging[k].size_bytes;
            }
            if (b != HR_UNKNOWN)
                before = hr_sat_add(before, b);
            if (p->dump_file[0] && strcmp(e->path, p->dump_file) == 0 && b != HR_UNKNOWN)
                after = hr_sat_add(after, b);
        }
        if (after < before) {
            char b1[32], a1[32], d1[32];
            hr_size_gb(before, b1, sizeof b1);
            hr_size_gb(after, a1, sizeof a1);
            hr_size_gb(before - after, d1, sizeof d1);
            W(HR_PW_SHRINK, b1, a1, d1);
        }
    }
    const hr_volume *sv = system_volume(snap);
    if (windows_automatic(snap)) {
        /* "Nearly full": under twice the free space the plan keeps on any drive, max(10 GB,
         * 5 %) — the seed saw Windows shrink the file with "only a few GB" free (S1.2b). */
        uint64_t reserve = hr_reserve_bytes(sv ? sv->dev.fs_total_bytes : HR_UNKNOWN);
        bool nearly_full = sv && sv->dev.fs_free_bytes != HR_UNKNOWN && sv->dev.fs_free_bytes < 2 * reserve;
        if (nearly_full) {
            char fr[32];
            hr_size_gb(sv->dev.fs_free_bytes, fr, sizeof fr);
            /* The advice is the plan's: another drive only when the plan has one. */
            const bool elsewhere =
                p->recommended.target_known && sv && !hr_same_drive(p->recommended.target, sv->dev.mount_point);
            if (elsewhere)
                W(HR_PW_AUTO_FULL_SYSTEM, fr);
            else
                hr_plan_warn_alt(
                    p, HR_PW_AUTO_FULL_SYSTEM,
                    HR_N(
                        "the paging file is managed automatically and the system drive has only %s free: Windows "
                        "silently shrinks it (seen below 1 GB) and big models cannot even load — set the fixed size the "
                        "plan gives, and make room for the rest"),
                    fr);
        } else {
            W(HR_PW_AUTO_MANAGED, mx);
        }
    }
    if (snap->paging_config.temp_page_file == HR_TRI_YES)
        W(HR_PW_TEMP_PAGE_FILE);
    if (snap->compression.windows_compression == HR_TRI_NO)
        W(HR_PW_COMPRESSION_OFF);
    else if (snap->compression.windows_compression == HR_TRI_YES && snap->ram.used_bytes != HR_UNKNOWN &&
             snap->ram.total_bytes != HR_UNKNOWN && snap->ram.total_bytes &&
             snap->ram.used_bytes >= snap->ram.total_bytes / 100 * 85)
        W(HR_PW_COMPRESSION_NOT_VM, (unsigned long long)(snap->ram.used_bytes / (snap->ram.total_bytes / 100)));
}

static void linux_warnings(const hr_snapshot *snap, hr_plan *p)
{
    if (!snap)
        return;
    const hr_plan_facts *f = &p->facts;
    char a[32];
    if (f->wsl2)
        W(HR_PW_WSL2);
    if (f->cgroup_limited) {
        hr_size_gb(snap->cgroup.memory_max_bytes, a, sizeof a);
        bool no_swap = snap->cgroup.swap_max_bytes == 0;
        hr_plan_line_tr(W(HR_PW_CGROUP_LIMIT, a, snap->cgroup.path[0] ? snap->cgroup.path : "?",
                          no_swap ? HR_N(", and memory.swap.max is 0 so it may not swap at all") : ""),
                        2);
    } else if (f->in_container) {
        W(HR_PW_CONTAINER);
    }
    if (snap->commit.overcommit_mode == HR_OVERCOMMIT_NEVER) {
        hr_size_gb(snap->commit.limit_bytes, a, sizeof a);
        uint64_t ratio = snap->commit.overcommit_ratio;
        W(HR_PW_OVERCOMMIT_NEVER, a, (unsigned long long)(ratio != HR_UNKNOWN ? ratio : 50));
    }
    uint64_t disk = f->disk_paging_bytes;
    if (zram_swap_active(snap) && (disk == 0 || disk == HR_UNKNOWN))
        W(HR_PW_ZRAM_NOT_BACKSTOP);
    if (snap->compression.zswap_enabled == HR_TRI_YES && disk == 0)
        W(HR_PW_ZSWAP_NO_SWAP);
}

static bool any_ssd(const hr_plan *p)
{
    for (int i = 0; i < p->candidate_count; i++)
        if (p->candidates[i].eligible && p->candidates[i].ssd == HR_TRI_YES)
            return true;
    return false;
}

void hr_plan_warn(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    (void)in;
    const hr_plan_facts *f = &p->facts;
    const hr_plan_recommended *r = &p->recommended;
    char a[32];

    if (r->upgrade_ram_first) {
        hr_size_gb(f->ram_bytes, a, sizeof a);
        W(HR_PW_UPGRADE_RAM, a);
    }
    if (f->integrated_gpu) {
        if (f->integrated_shared_bytes != HR_UNKNOWN) {
            hr_size_gb(f->integrated_shared_bytes, a, sizeof a);
            W(HR_PW_INTEGRATED_GPU, a);
        } else {
            hr_plan_warn_alt(
                p, HR_PW_INTEGRATED_GPU,
                HR_N("an integrated GPU takes part of RAM as shared video memory: an 8 GB laptop may have only about "
                     "6 GB usable"));
        }
    }
    /* A drive holding a paging file / swap file with less free than the plan keeps (S3.3: do
     * not fill an SSD beyond ~95 % with a paging file on it): writes there fail and the SSD
     * slows when it fills, whatever the file's size. */
    /* (Automatic management has its own warning, auto-full-system.) */
    for (int i = 0; snap && !windows_automatic(snap) && i < snap->paging_count && i < HR_MAX_PAGING; i++) {
        const hr_paging *pg = &snap->paging[i];
        if (!pg->has_device || (pg->kind != HR_PAGING_PAGEFILE && pg->kind != HR_PAGING_FILE))
            continue;
        const hr_device *d = &pg->device;
        const hr_volume *v = NULL;
        for (int k = 0; k < snap->volume_count && k < HR_MAX_VOLUMES; k++)
            if (f->os == HR_OS_WINDOWS
                    ? hr_same_drive(snap->volumes[k].dev.mount_point, pg->path)
                    : d->mount_point[0] && strcmp(snap->volumes[k].dev.mount_point, d->mount_point) == 0)
                v = &snap->volumes[k];
        const uint64_t total = v ? v->dev.fs_total_bytes : d->fs_total_bytes;
        const uint64_t free_now = v ? v->dev.fs_free_bytes : d->fs_free_bytes;
        if (total == HR_UNKNOWN || free_now == HR_UNKNOWN || free_now >= hr_reserve_bytes(total))
            continue;
        char fr[32], rs[32], shown[HR_SNAP_PATH_MAX * 4];
        hr_size_gb(free_now, fr, sizeof fr);
        hr_size_gb(hr_reserve_bytes(total), rs, sizeof rs);
        W(HR_PW_PAGING_DRIVE_FULL, v ? v->dev.mount_point : d->mount_point,
          hr_win_path_shown(pg->path, shown, sizeof shown), fr, rs);
        break;
    }
    if (f->lean_on_ram) {
        char flags[128];
        hr_comfy_args_describe(&f->comfy, flags, sizeof flags);
        W(HR_PW_LOW_VRAM_FLAGS, flags);
    }
    if (snap && snap->power.on_battery == HR_TRI_YES)
        W(HR_PW_ON_BATTERY);
    if (snap && snap->power.power_saver == HR_TRI_YES)
        W(HR_PW_POWER_SAVER);

    /* Placement outcomes. */
    if (p->candidate_count > 0 && !r->target_known && !f->in_container)
        W(HR_PW_NO_TARGET, (hr_size_gb(r->maximum_bytes, a, sizeof a), a));
    if (r->target_known && p->candidate_count > 0 && p->candidates[0].ssd == HR_TRI_NO && !any_ssd(p))
        W(HR_PW_HDD_ONLY);
    else if (r->target_known && p->candidate_count > 0 && p->candidates[0].ssd == HR_TRI_NO) {
        if (f->os == HR_OS_WINDOWS)
            W(HR_PW_HDD_LAST_RESORT, r->target);
        else
            hr_plan_warn_alt(p, HR_PW_HDD_LAST_RESORT,
                             HR_N("%s is an HDD, the last resort: no SSD here has room for even a small file. Make "
                                  "room on an SSD (free space — S4.3) and move it there"),
                             r->target);
    }
    if (snap) {
        for (int i = 0; i < snap->paging_count; i++) {
            const hr_paging *pg = &snap->paging[i];
            if (pg->kind != HR_PAGING_ZRAM && pg->has_device && hr_device_removable(&pg->device, NULL) == HR_TRI_YES)
                W(HR_PW_PAGING_ON_REMOVABLE, pg->path);
        }
    }

    if (f->os == HR_OS_WINDOWS)
        windows_warnings(snap, p);
    else
        linux_warnings(snap, p);
}
