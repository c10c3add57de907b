/* headroom — where: rank every drive / file system that could hold the paging file or swap
 * file, and pick the best (S3.3, S4.3, S5.4, S6).
 *
 * Order: can hold it at all (never removable, USB, or a file system that cannot hold one:
 * core/model/swap_target.h, the rule apply uses) → has room for it while keeping the reserve
 * free, max(10 GB, 5 % of the volume), once the file is at its maximum (the check apply makes)
 * → solid state over rotational → room for the full size over room for a smaller one → not
 * the system drive → most room. */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"

#include "core/base/size.h"
#include "core/model/swap_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A candidate's reason; its text is an English msgid (HR_N), translated where it is shown. */
#define C(c, id_rule, ...)                                                                                             \
    hr_plan_line_add((c)->reasons, &(c)->reason_count, HR_PLAN_CAND_REASONS, id_rule, __VA_ARGS__)

/* "D:\\" → "D:"; "" when the text has no drive letter. */
static void drive_of(const char *path, char out[3])
{
    out[0] = hr_drive_letter(path);
    out[1] = out[0] ? ':' : '\0';
    out[2] = '\0';
}

/* Paging / swap already on this volume (it will be replaced, so its space counts as room). */
static uint64_t existing_on(const hr_snapshot *snap, hr_os os, const hr_volume *v)
{
    uint64_t sum = 0;
    char vd[3];
    drive_of(v->dev.mount_point, vd);
    for (int i = 0; i < snap->paging_count; i++) {
        const hr_paging *pg = &snap->paging[i];
        if (pg->size_bytes == HR_UNKNOWN || pg->kind == HR_PAGING_ZRAM || pg->kind == HR_PAGING_PARTITION)
            continue;
        bool here;
        if (os == HR_OS_WINDOWS) {
            char pd[3];
            drive_of(pg->path, pd);
            here = vd[0] && pd[0] && strcmp(vd, pd) == 0;
        } else {
            here = pg->has_device && strcmp(pg->device.mount_point, v->dev.mount_point) == 0;
        }
        if (here)
            sum = hr_sat_add(sum, pg->size_bytes);
    }
    return sum;
}

/* "ext4: why", as one value: the reason comes in the language of the moment from
 * hr_volume_can_hold_swap(), and its ": " is not translated. */
/* Why the file system cannot hold the file, after its name when the reason does not name it
 * (fs NULL: it does); both worded where the line is shown. */
static void fs_reason(hr_plan_candidate *c, const char *fs, const hr_swap_verdict *why)
{
    hr_plan_line *l = C(c, "fs|X.fs", "%s", "");
    if (!l)
        return;
    hr_swap_why_msg(why, &l->msg);
    if (fs && fs[0]) {
        hr_strlcpy(l->lead, fs, sizeof l->lead);
    } else if (fs) {
        hr_strlcpy(l->lead, HR_N("this file system"), sizeof l->lead);
        l->lead_tr = true;
    }
}

static void candidate_from(const hr_snapshot *snap, const hr_plan *p, const hr_volume *v, hr_plan_candidate *c)
{
    const hr_os os = p->facts.os;
    const uint64_t maximum = p->recommended.maximum_bytes;
    const uint64_t range_initial = hr_size_round_up_gib(maximum / 2) * HR_GIB;
    memset(c, 0, sizeof *c);
    if (os == HR_OS_WINDOWS) {
        drive_of(v->dev.mount_point, c->target);
        if (!c->target[0])
            hr_strlcpy(c->target, v->dev.mount_point, sizeof c->target);
        snprintf(c->path, sizeof c->path, "%s\\pagefile.sys", c->target);
    } else {
        hr_strlcpy(c->target, v->dev.mount_point, sizeof c->target);
        size_t n = strlen(c->target);
        const char *sep = n && c->target[n - 1] == '/' ? "" : "/";
        snprintf(c->path, sizeof c->path, "%s%s%s", c->target, sep, HR_PLAN_SWAP_NAME);
        for (int i = 0; i < snap->paging_count; i++)
            if (strcmp(snap->paging[i].path, c->path) == 0) { /* headroom made one before */
                snprintf(c->path, sizeof c->path, "%s%s%s", c->target, sep, HR_PLAN_SWAP_NAME_2);
                break;
            }
    }
    hr_strlcpy(c->fs_type, v->dev.fs_type, sizeof c->fs_type);
    c->ssd = v->dev.rotational == HR_TRI_YES ? HR_TRI_NO : v->dev.rotational == HR_TRI_NO ? HR_TRI_YES : HR_TRI_UNKNOWN;
    if (v->dev.virtual_disk && c->ssd == HR_TRI_NO)
        c->ssd = HR_TRI_UNKNOWN; /* a paravirtual disk's rotational flag says nothing of the host */
    c->is_system = v->is_system;
    c->total_bytes = v->dev.fs_total_bytes;
    c->existing_bytes = existing_on(snap, os, v);
    /* Windows replaces the paging file on the drive it sets, so its space is room; a Linux
     * swap file already there stays (the new file is added beside it). */
    c->free_bytes = v->dev.fs_free_bytes == HR_UNKNOWN
                        ? HR_UNKNOWN
                        : hr_sat_add(v->dev.fs_free_bytes, os == HR_OS_WINDOWS ? c->existing_bytes : 0);
    c->reserve_bytes = hr_reserve_bytes(c->total_bytes);
    c->eligible = true;

    /* Never removable media (S5.4): the one rule apply uses too (core/model/swap_target.h);
     * only the wording is chosen here. */
    const hr_tri removable = hr_device_removable(&v->dev, NULL);
    c->fixed_known = removable == HR_TRI_NO;
    if (removable == HR_TRI_YES) {
        c->eligible = false;
        if (v->dev.usb == HR_TRI_YES)
            hr_plan_line_tr(C(c, "usb|S5.4",
                              HR_N("a USB disk%s: unplugging it leaves the system without its paging file"),
                              v->dev.encrypted == HR_TRI_YES ? HR_N(", encrypted") : ""),
                            0);
        else
            hr_plan_line_tr(C(c, "removable|S5.4",
                              HR_N("removable media%s: unplugging it leaves the system without its paging file"),
                              v->dev.encrypted == HR_TRI_YES ? HR_N(" (encrypted)") : ""),
                            0);
    }
    hr_swap_verdict verdict;
    if (hr_volume_can_hold_swap(v, os, &verdict) != HR_TRI_YES) {
        c->eligible = false;
        /* the reason names the file system already, or comes after its name */
        fs_reason(c, hr_swap_why_names_fs(&verdict, v->dev.fs_type) ? NULL : v->dev.fs_type, &verdict);
    }

    /* Kind of drive (S3.3). */
    if (c->ssd == HR_TRI_YES)
        C(c, "ssd|S3.3", HR_N("solid state: paging is small random I/O, which an SSD does well"));
    else if (c->ssd == HR_TRI_NO)
        C(c, "hdd|S3.3", HR_N("rotational (HDD): tens of MB/s of random I/O makes paging the bottleneck"));
    else
        C(c, "kind-unknown|S3.3", HR_N("whether it is an SSD or an HDD is not known"));
    if (c->eligible && !c->fixed_known)
        C(c, "fixed-unknown|S5.4",
          HR_N("whether this is a fixed local disk is not known (a network or mapped drive, "
               "or one that could not be asked): ranked below the disks known to be fixed"));
    if (c->is_system)
        C(c, "system|S3.3", HR_N("the system drive: paging shares its I/O with the system and with model loading"));
    else
        C(c, "not-system|S3.3", HR_N("not the system drive: paging I/O stays apart from the system's"));
    if (os == HR_OS_LINUX && hr_str_ieq(v->dev.fs_type, "btrfs") && c->eligible)
        C(c, "btrfs|X.btrfs",
          HR_N("btrfs: the swap file must be NOCOW and uncompressed, on a single-device file "
               "system, and its subvolume cannot be snapshotted while it is active"));

    /* Room, keeping the reserve free once the file is at its maximum (S3.3, S6). */
    char fr[32], rs[32], mx[32];
    hr_size_gb(c->reserve_bytes, rs, sizeof rs);
    hr_size_gb(maximum, mx, sizeof mx);
    if (c->free_bytes == HR_UNKNOWN || c->total_bytes == HR_UNKNOWN) {
        C(c, "free-unknown|S3.3", HR_N("free space not known: make sure %s plus %s stays free"), mx, rs);
    } else {
        hr_size_gb(c->free_bytes, fr, sizeof fr);
        c->fits_fixed = hr_room_ok(c->total_bytes, c->free_bytes, maximum);
        /* Room for less than the maximum, but at least half of it: the plan caps the size
         * at what fits rather than let a file grow into the reserve (S6). */
        c->fits_range = !c->fits_fixed && hr_room_largest(c->total_bytes, c->free_bytes) >= range_initial;
        /* Less than half, but a few GB: a smaller file and making room beats none (S4.3). */
        c->ssd_short =
            !c->fits_fixed && !c->fits_range && hr_room_largest(c->total_bytes, c->free_bytes) >= HR_PLAN_SSD_MIN_BYTES;
        /* the paging file already there is room the plan reuses (Windows resizes it in place) */
        const char *counted =
            c->existing_bytes && os == HR_OS_WINDOWS ? HR_N(" counting the paging file already there") : "";
        if (c->fits_fixed) {
            char left[32];
            hr_size_gb(c->free_bytes - maximum, left, sizeof left);
            hr_plan_line_tr(C(c, "room|S3.3", HR_N("%s free%s: %s would stay free after a %s file (keep at least %s)"),
                              fr, counted, left, mx, rs),
                            1);
        } else if (c->fits_range || c->ssd_short) {
            char most[32];
            hr_size_gb(hr_room_largest(c->total_bytes, c->free_bytes), most, sizeof most);
            hr_plan_line_tr(C(c, "room-smaller|S6",
                              HR_N("%s free%s: room for a %s file at most, not for %s (keep at least %s free)"), fr,
                              counted, most, mx, rs),
                            1);
        } else {
            hr_plan_line_tr(C(c, "no-room|S6",
                              HR_N("%s free%s: too little for %s while keeping %s free (below that the file cannot "
                                   "grow and runs stall)"),
                              fr, counted, mx, rs),
                            1);
        }
    }
}

static int tier(const hr_plan_candidate *c)
{
    if (!c->eligible)
        return 3;
    if (c->fits_fixed || c->fits_range || c->ssd_short)
        return 0;
    if (c->free_bytes == HR_UNKNOWN)
        return 1;
    return 2;
}

static int ssd_order(hr_tri t)
{
    return t == HR_TRI_YES ? 0 : t == HR_TRI_UNKNOWN ? 1 : 2;
}

static int compare(const void *pa, const void *pb)
{
    const hr_plan_candidate *a = pa, *b = pb;
    int d;
    if ((d = tier(a) - tier(b)) != 0)
        return d;
    if (a->fixed_known != b->fixed_known)
        return a->fixed_known ? -1 : 1; /* S5.4: never a drive that may go away */
    if ((d = ssd_order(a->ssd) - ssd_order(b->ssd)) != 0)
        return d;
    if (a->fits_fixed != b->fits_fixed)
        return a->fits_fixed ? -1 : 1;
    if (a->is_system != b->is_system)
        return a->is_system ? 1 : -1;
    uint64_t fa = a->free_bytes == HR_UNKNOWN ? 0 : a->free_bytes;
    uint64_t fb = b->free_bytes == HR_UNKNOWN ? 0 : b->free_bytes;
    if (fa != fb)
        return fa > fb ? -1 : 1;
    return strcmp(a->target, b->target);
}

static void advise_kind(hr_plan *p)
{
    hr_plan_recommended *r = &p->recommended;
    char mx[32], need[32];
    hr_size_gb(r->maximum_bytes, mx, sizeof mx);
    hr_size_gb(hr_sat_add(r->maximum_bytes, HR_RESERVE_MIN_BYTES), need, sizeof need);
    r->advice_free_bytes = hr_sat_add(r->maximum_bytes, HR_RESERVE_MIN_BYTES);
    if (p->facts.os == HR_OS_WINDOWS)
        hr_msg_set(&r->target_advice,
                   HR_N("a non-system SSD (such as D:) with at least %s free (the %s file, plus 10 GB and 5 %% of the "
                        "drive left free); never a USB or removable drive"),
                   need, mx);
    else
        hr_msg_set(
            &r->target_advice,
            HR_N("a swap file on an SSD-backed ext4 or xfs file system (btrfs with NOCOW) with at least %s free; "
                 "not tmpfs, overlay or NFS, never a USB or removable disk"),
            need);
}

/* Windows: the configured custom entry on this drive, or NULL. */
static const hr_paging_config_entry *configured_on(const hr_snapshot *snap, const char *drive)
{
    if (!snap->paging_config.s.ok)
        return NULL;
    for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
        const hr_paging_config_entry *e = &snap->paging_config.entries[i];
        if (e->mode == HR_PAGING_MODE_CUSTOM && hr_same_drive(e->path, drive) && e->maximum_bytes != HR_UNKNOWN &&
            e->initial_bytes != HR_UNKNOWN)
            return e;
    }
    return NULL;
}

/* Windows: a drive whose configured file already meets the rule stays the target (S6: the
 * seed author's 64 GB fixed on a second SSD); no other drive is better enough to move it. */
static void prefer_configured(const hr_snapshot *snap, hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    if (p->facts.os != HR_OS_WINDOWS || snap->paging_config.automatic == HR_TRI_YES)
        return;
    for (int i = 0; i < p->candidate_count; i++) {
        hr_plan_candidate *c = &p->candidates[i];
        const hr_paging_config_entry *e = configured_on(snap, c->target);
        if (!c->eligible || !e || e->maximum_bytes < r->maximum_bytes || c->ssd == HR_TRI_NO ||
            (r->fixed && e->initial_bytes != e->maximum_bytes) || tier(c) != 0)
            continue;
        if (i > 0) {
            hr_plan_candidate keep = *c;
            memmove(&p->candidates[1], &p->candidates[0], (size_t)i * sizeof keep);
            p->candidates[0] = keep;
            int rank = 0;
            for (int k = 0; k < p->candidate_count; k++)
                p->candidates[k].rank = p->candidates[k].eligible ? ++rank : 0;
        }
        return;
    }
}

/* Windows: never shrink a file that already meets the rule (S6), and keep the small
 * system-drive file crash dumps need (X.dump) beside it. */
static void keep_what_meets(const hr_snapshot *snap, hr_plan *p)
{
    hr_plan_recommended *r = &p->recommended;
    if (p->facts.os != HR_OS_WINDOWS || !r->target_known)
        return;
    const hr_paging_config_entry *e = configured_on(snap, r->target);
    if (e && e->maximum_bytes > r->maximum_bytes && r->fixed && e->initial_bytes != e->maximum_bytes) {
        /* A range reaching more than the rules ask: fixed at its maximum where there is room
         * (S3.2), else the range as it is — never less than it can reach now (S6; apply
         * refuses a shrink unless told to). */
        const hr_plan_candidate *c = NULL;
        for (int i = 0; i < p->candidate_count && !c; i++)
            if (strcmp(p->candidates[i].target, r->target) == 0)
                c = &p->candidates[i];
        char has[32], asks[32];
        hr_size_gb(e->maximum_bytes, has, sizeof has);
        hr_size_gb(r->maximum_bytes, asks, sizeof asks);
        r->maximum_bytes = e->maximum_bytes;
        if (c && hr_room_ok(c->total_bytes, c->free_bytes, e->maximum_bytes)) {
            r->initial_bytes = e->maximum_bytes;
            hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "kept|S6",
                             HR_N("%s already reaches %s, more than the %s the rules ask: fixed at %s, never less than "
                                  "it can reach now (the plan never shrinks a paging file that meets the rule)"),
                             r->target, has, asks, has);
        } else {
            r->fixed = false;
            r->initial_bytes = e->initial_bytes;
            hr_plan_line_add(
                r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "kept|S6",
                HR_N("%s already reaches %s, more than the %s the rules ask, and has no room to make it "
                     "fixed at that size: kept as it is (the plan never shrinks a paging file that meets the "
                     "rule)"),
                r->target, has, asks);
        }
    } else if (e && e->maximum_bytes > r->maximum_bytes && (!r->fixed || e->initial_bytes == e->maximum_bytes)) {
        char has[32], asks[32];
        hr_size_gb(e->maximum_bytes, has, sizeof has);
        hr_size_gb(r->maximum_bytes, asks, sizeof asks);
        r->maximum_bytes = e->maximum_bytes;
        r->initial_bytes = r->fixed ? e->maximum_bytes : e->initial_bytes;
        hr_plan_line_add(
            r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "kept|S6",
            HR_N("%s already has %s, more than the %s the rules ask: kept as it is (the plan never shrinks "
                 "a paging file that meets the rule)"),
            r->target, has, asks);
    }
    const char *sys = snap->platform.system_volume[0] ? snap->platform.system_volume : "C:\\";
    if (hr_same_drive(r->target, sys))
        return;
    /* What CrashControl says (X.dump): dumps off, or written to a dedicated file, need no
     * paging file on the system drive; on, or not known, keep the small one there. */
    const hr_paging_config *pc = &snap->paging_config;
    if (pc->dump_needs_system_paging == HR_TRI_NO) {
        if (pc->dedicated_dump_file[0])
            hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "dump-dedicated|X.dump",
                             HR_N("crash dumps go to the dedicated dump file %s (CrashControl\\DedicatedDumpFile): "
                                  "no paging file has to stay on %.2s for them"),
                             pc->dedicated_dump_file, sys);
        else
            hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "dump-off|X.dump",
                             HR_N("crash dumps are off (CrashControl\\CrashDumpEnabled = 0): no paging file has to "
                                  "stay on %.2s for them"),
                             sys);
        return;
    }
    /* Which entry stays: the rule apply keeps to as well (core/model/swap_target.h). */
    if (!snap->paging_config.s.ok)
        return;
    for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
        const hr_paging_config_entry *d = &snap->paging_config.entries[i];
        if (hr_dump_file_stays(pc->dump_needs_system_paging, hr_drive_letter(sys), hr_drive_letter(r->target),
                               hr_drive_letter(d->path), d->mode, d->initial_bytes, d->maximum_bytes)) {
            hr_strlcpy(p->dump_file, d->path, sizeof p->dump_file);
            /* a dump file that stays must hold the dump, else it is sized for it */
            uint64_t need = hr_dump_min_bytes(pc->crash_dump_enabled, p->facts.ram_bytes);
            if (need > d->maximum_bytes && need <= HR_DUMP_FILE_MAX_BYTES) {
                p->dump_file_min_bytes = (need + HR_MIB - 1) / HR_MIB * HR_MIB;
                char has[32], want[32];
                hr_size_gb(d->maximum_bytes, has, sizeof has);
                hr_size_gb(p->dump_file_min_bytes, want, sizeof want);
                hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "dump-small|X.dump",
                                 HR_N("%s (%s) stays for crash dumps, but is too small to hold one: the crash dump "
                                      "setting needs at least %s there, so the plan sets it to that"),
                                 d->path, has, want);
            }
            return;
        }
    }
}

/* A removal line, and the file it names (steps and check act on the file, not on the text). */
HR_PRINTF(3, 0)
static void add_removal(hr_plan *p, const char *id_rule, const char *fmt, const char *path)
{
    if (p->removal_count >= HR_PLAN_MAX_REMOVALS)
        return;
    hr_strlcpy(p->removal_paths[p->removal_count], path, sizeof p->removal_paths[0]);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    hr_plan_line_add(p->removals, &p->removal_count, HR_PLAN_MAX_REMOVALS, id_rule, fmt, path);
#pragma GCC diagnostic pop
}

/* Swap areas / paging files to remove once the new one is in place. */
static void find_removals(const hr_snapshot *snap, hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    const bool win = p->facts.os == HR_OS_WINDOWS;
    uint64_t kept = 0;
    const hr_plan_candidate *best = p->candidate_count ? &p->candidates[0] : NULL;
    for (int i = 0; i < snap->paging_count; i++) {
        const hr_paging *pg = &snap->paging[i];
        if (pg->kind == HR_PAGING_ZRAM)
            continue;
        const hr_device *d = pg->has_device ? &pg->device : NULL;
        bool on_usb = d && hr_device_removable(d, NULL) == HR_TRI_YES; /* S5.4 */
        if (win) {
            char pd[3];
            drive_of(pg->path, pd);
            if (r->target_known && pd[0] && strcmp(pd, r->target) == 0)
                continue; /* replaced in place by the new size */
            if (p->dump_file[0] && hr_same_drive(pg->path, p->dump_file) && !on_usb)
                continue; /* kept for crash dumps (X.dump) */
            if (p->facts.restart_pending && !configured_on(snap, pg->path) && !on_usb)
                continue; /* no longer configured: it goes away at the restart (S5.1) */
            if (!r->target_known && !on_usb)
                continue;
            add_removal(p, on_usb ? "remove-usb|S5.4" : "remove-old|S3.1",
                        on_usb
                            ? HR_N("%s: on removable media — set \"No paging file\" there (after the new one is set)")
                            : HR_N("%s: set \"No paging file\" there, only after the new file is set"),
                        pg->path);
            continue;
        }
        bool hdd_vs_ssd =
            d && d->rotational == HR_TRI_YES && best && best->eligible && best->ssd == HR_TRI_YES && r->target_known;
        if (on_usb)
            add_removal(p, "remove-usb|S5.4",
                        HR_N("%s: on a USB / removable disk — swapoff and remove it once the new swap is active"),
                        pg->path);
        else if (hdd_vs_ssd)
            add_removal(p, "remove-hdd|S3.3",
                        HR_N("%s: on a rotational disk — swapoff it once the swap file on the SSD is active"),
                        pg->path);
        else if (pg->size_bytes != HR_UNKNOWN)
            kept = hr_sat_add(kept, pg->size_bytes);
    }
    if (win && snap->paging_config.s.ok) {
        /* Configured files not (yet) in use: they would come back at the next boot. */
        for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
            const char *path = snap->paging_config.entries[i].path;
            char cd[3];
            drive_of(path, cd);
            if (!cd[0] || (r->target_known && strcmp(cd, r->target) == 0) || !r->target_known ||
                (p->dump_file[0] && hr_same_drive(path, p->dump_file)))
                continue;
            bool listed = false;
            for (int j = 0; j < p->removal_count; j++) {
                char ld[3];
                drive_of(p->removal_paths[j], ld);
                listed |= ld[0] && strcmp(ld, cd) == 0;
            }
            if (!listed)
                add_removal(p, "remove-old|S3.1",
                            HR_N("%s: set \"No paging file\" there, only after the new file is set"), path);
        }
    }
    if (!win && p->facts.restart_pending) {
        /* A swap file /etc/fstab names but nothing has switched on yet: it counts, and what is
         * left is to switch it on (S5.1). */
        for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
            const hr_paging_config_entry *e = &snap->paging_config.entries[i];
            bool active = false;
            for (int j = 0; j < snap->paging_count; j++)
                active |= strcmp(snap->paging[j].path, e->path) == 0;
            if (!active && e->path[0] == '/' && strncmp(e->path, "/dev/", 5) != 0 && e->maximum_bytes != HR_UNKNOWN)
                kept = hr_sat_add(kept, e->maximum_bytes);
        }
    }
    if (!win) {
        /* Whole GB, up; a swap area reads a page short of its size (the header), so a
         * remainder under 16 MB is that, not a gigabyte more. */
        uint64_t need = r->maximum_bytes > kept ? r->maximum_bytes - kept : 0;
        uint64_t whole = need / HR_GIB, rest = need % HR_GIB;
        p->recommended.add_bytes = (whole + (rest >= ((uint64_t)16 << 20) ? 1 : 0)) * HR_GIB;
    }
}

/* S3.3 / S4.3: an SSD short of room for the full size, with room for at least 4 GB, comes
 * before an HDD that has room — a smaller file on the SSD, and making room there; the HDD is a
 * stated last resort. */
static void ssd_before_hdd(hr_plan *p)
{
    if (p->candidate_count < 2)
        return;
    hr_plan_candidate *best = &p->candidates[0];
    if (!best->eligible || best->ssd != HR_TRI_NO || tier(best) != 0)
        return;
    for (int i = 1; i < p->candidate_count; i++) {
        hr_plan_candidate *c = &p->candidates[i];
        if (!c->eligible || c->ssd != HR_TRI_YES || c->free_bytes == HR_UNKNOWN || c->total_bytes == HR_UNKNOWN ||
            hr_room_largest(c->total_bytes, c->free_bytes) < HR_PLAN_SSD_MIN_BYTES)
            continue;
        hr_strlcpy(p->recommended.last_resort, best->target, sizeof p->recommended.last_resort);
        hr_plan_candidate keep = *c;
        keep.ssd_short = true;
        memmove(&p->candidates[1], &p->candidates[0], (size_t)i * sizeof keep);
        p->candidates[0] = keep;
        int rank = 0;
        for (int k = 0; k < p->candidate_count; k++)
            p->candidates[k].rank = p->candidates[k].eligible ? ++rank : 0;
        return;
    }
}

void hr_plan_place(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    (void)in;
    hr_plan_recommended *r = &p->recommended;
    r->add_bytes = r->maximum_bytes;
    r->wanted_bytes = r->maximum_bytes;
    if (p->facts.wsl2) {
        /* WSL 2: the Linux VM's swap is a file Windows makes from .wslconfig. */
        r->target_known = true;
        hr_strlcpy(r->target, ".wslconfig", sizeof r->target);
        hr_strlcpy(r->target_path, "%UserProfile%\\.wslconfig", sizeof r->target_path);
        return;
    }
    if (!snap || snap->volume_count <= 0) {
        advise_kind(p);
        return;
    }
    int n = 0;
    for (int i = 0; i < snap->volume_count && i < HR_MAX_VOLUMES; i++)
        candidate_from(snap, p, &snap->volumes[i], &p->candidates[n++]);
    qsort(p->candidates, (size_t)n, sizeof p->candidates[0], compare);
    p->candidate_count = n;
    int rank = 0;
    for (int i = 0; i < n; i++)
        p->candidates[i].rank = p->candidates[i].eligible ? ++rank : 0;
    prefer_configured(snap, p);

    ssd_before_hdd(p);
    const hr_plan_candidate *best = n ? &p->candidates[0] : NULL;
    r->wanted_bytes = r->maximum_bytes;
    if (p->facts.in_container) {
        /* Swap is the host's: a container cannot swapon (no CAP_SYS_ADMIN), and a file on a
         * bind-mounted host disk would still be switched on by the host. */
        hr_msg_set(&r->target_advice, HR_N("the host (not this container): run headroom plan there"));
    } else if (!best || (tier(best) > 1 && !best->ssd_short)) {
        advise_kind(p);
    } else {
        r->target_known = true;
        hr_strlcpy(r->target, best->target, sizeof r->target);
        hr_strlcpy(r->target_path, best->path, sizeof r->target_path);
        if (!best->fits_fixed && (best->fits_range || best->ssd_short)) {
            /* Less room than the maximum needs with the reserve kept: the largest file that
             * keeps it (apply refuses more, and a file grown into the last free space stalls
             * the run: S6). */
            char a[32], b[32], rs[32];
            const uint64_t was = r->maximum_bytes;
            r->maximum_bytes = hr_room_largest(best->total_bytes, best->free_bytes);
            r->initial_bytes = r->fixed ? r->maximum_bytes : hr_size_round_up_gib(r->maximum_bytes / 2) * HR_GIB;
            hr_size_gb(r->maximum_bytes, a, sizeof a);
            hr_size_gb(was, b, sizeof b);
            hr_size_gb(best->reserve_bytes, rs, sizeof rs);
            r->room_capped = true;
            for (int i = 1; i < n && !r->last_resort[0] && best->ssd == HR_TRI_YES; i++)
                if (p->candidates[i].eligible && p->candidates[i].ssd == HR_TRI_NO && p->candidates[i].fits_fixed)
                    hr_strlcpy(r->last_resort, p->candidates[i].target, sizeof r->last_resort);
            bool any_fits = false;
            for (int i = 0; i < n; i++)
                any_fits |=
                    p->candidates[i].eligible && p->candidates[i].fits_fixed && p->candidates[i].ssd != HR_TRI_NO;
            if (any_fits)
                hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "room-capped|S6",
                                 HR_N("%s has room for %s while keeping %s free, not for %s: the size is capped at %s "
                                      "(free more space there for the full %s)"),
                                 best->target, a, rs, b, a, b);
            else if (best->ssd == HR_TRI_YES)
                hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "room-capped|S6",
                                 HR_N("no room for the recommended %s on any SSD: %s has room for %s while keeping %s "
                                      "free, so the size is capped at %s (free more space there for the full %s)"),
                                 b, best->target, a, rs, a, b);
            else
                hr_plan_line_add(
                    r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "room-capped|S6",
                    HR_N("no room for the recommended %s on any drive: %s has room for %s while keeping %s "
                         "free, so the size is capped at %s (free more space there for the full %s)"),
                    b, best->target, a, rs, a, b);
            if (r->last_resort[0])
                hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, "hdd-last-resort|S3.3",
                                 p->facts.os == HR_OS_WINDOWS
                                     ? HR_N("a smaller file on the SSD before a full one on the HDD (%s): paging on an "
                                            "HDD can be slower than none. Make room on %s (free space, or shrink a "
                                            "volume in Disk Management to make a partition for it — S4.3); the HDD "
                                            "only as a last resort")
                                     : HR_N("a smaller file on the SSD before a full one on the HDD (%s): paging on an "
                                            "HDD can be slower than none. Make room on %s (free space — S4.3); the "
                                            "HDD only as a last resort"),
                                 r->last_resort, best->target);
        }
    }
    keep_what_meets(snap, p);
    find_removals(snap, p);
}
