/* headroom — the human `status` report: the three tiers side by side, then every paging
 * file / swap area and the facts a user needs to judge them, each with unit and source. */
#include "core/status/status_render.h"
#include "core/base/i18n.h"
#include "core/base/wrap.h"

#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/model/pagingfiles.h"
#include "core/model/swap_verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What the probe said, in the user's language. */
static const char *said(const hr_words *w)
{
    return hr_words_in(w, hr_lang_get());
}

typedef struct out {
    hr_buf *b;
    int err;
    bool color;
    const hr_status *st; /* the judgements */
} out;

HR_PRINTF(2, 3)
static void pf(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!o->err)
        o->err = hr_buf_vprintf(o->b, fmt, ap);
    va_end(ap);
}

static const char *bold(const out *o)
{
    return o->color ? "\033[1m" : "";
}
static const char *warn(const out *o)
{
    return o->color ? "\033[33m" : "";
}
static const char *reset(const out *o)
{
    return o->color ? "\033[0m" : "";
}

/* A size, or "unknown". */
static const char *sz(uint64_t v, char *tmp, size_t n)
{
    if (v == HR_UNKNOWN)
        return HR_T("unknown");
    if (v == HR_UNLIMITED)
        return HR_T("no limit");
    hr_size_format(v, tmp, n);
    return tmp;
}

static void unknown_line(out *o, const hr_section *s)
{
    if (!s->ok && !hr_words_empty(&s->why))
        pf(o, HR_T("  %sunknown (%s)%s\n"), warn(o), said(&s->why), reset(o));
}

static void heading(out *o, const char *title, const char *source)
{
    pf(o, "\n%s%s%s", bold(o), title, reset(o));
    if (source && source[0])
        pf(o, "  [%s]", source);
    pf(o, "\n");
}

static const char *tri_word(hr_tri t, const char *yes, const char *no)
{
    return t == HR_TRI_YES ? yes : t == HR_TRI_NO ? no : NULL;
}

/* "SSD, not removable, not USB, not encrypted" — unknown facts say so. */
static void device_facts(out *o, const hr_device *d)
{
    const char *rot = tri_word(d->rotational, HR_T("HDD (rotational)"), HR_T("SSD"));
    if (d->virtual_disk)
        rot = d->rotational == HR_TRI_YES ? HR_T("virtual disk (reports rotational; the host's medium is unknown)")
                                          : HR_T("virtual disk (reports non-rotational)");
    pf(o, "%s", rot ? rot : HR_T("SSD/HDD unknown"));
    const char *rem = tri_word(d->removable, HR_T("REMOVABLE"), HR_T("fixed"));
    const char *sep = HR_T(", ");
    pf(o, "%s%s", sep, rem ? rem : HR_T("removable unknown"));
    if (d->usb == HR_TRI_YES)
        pf(o, "%sUSB", sep);
    else if (d->bus[0] && strcmp(d->bus, "unknown") != 0)
        pf(o, "%s%s", sep, d->bus);
    if (d->encrypted == HR_TRI_YES)
        pf(o, HR_T(", encrypted (%s)"), d->encryption[0] ? d->encryption : HR_T("yes"));
    else if (d->encrypted == HR_TRI_NO)
        pf(o, HR_T(", not encrypted"));
}

/* Windows drive names ("C:") already end in a colon. */
static bool ends_with_colon(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && name[n - 1] == ':';
}

/* A cell padded to a width in terminal columns (a Chinese character takes two). */
static void pad(out *o, const char *s, size_t width, bool right)
{
    size_t w = hr_utf8_width(s);
    if (right)
        for (size_t i = w; i < width; i++)
            pf(o, " ");
    pf(o, "%s", s);
    if (!right)
        for (size_t i = w; i < width; i++)
            pf(o, " ");
}

/* The tier table's columns: name, total, used, available. */
static void cols(out *o, const char *name, const char *a, const char *b, const char *c)
{
    pad(o, name, 22, false);
    pf(o, " ");
    pad(o, a, 12, true);
    pf(o, " ");
    pad(o, b, 12, true);
    pf(o, " ");
    pad(o, c, 12, true);
}

static void tiers(out *o, const hr_snapshot *s)
{
    const hr_status *st = o->st;
    char a[32], b[32], c[32];
    pf(o, "\n%s", bold(o));
    cols(o, HR_T("TIER"), HR_T("TOTAL"), HR_T("USED"), HR_T("AVAILABLE"));
    pf(o, "%s\n", reset(o));
    if (s->gpus.count == 0) {
        cols(o, HR_T("1 GPU memory (VRAM)"), "-", "-", "-");
        pf(o, "  %s\n",
           !s->gpus.s.ok && !hr_words_empty(&s->gpus.s.why) ? HR_T("unknown (see GPUS)")
           : !hr_words_empty(&s->gpus.notes)                ? said(&s->gpus.notes)
                                                            : HR_T("no GPU found"));
    }
    for (int i = 0; i < s->gpus.count; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        uint64_t avail = i < HR_MAX_GPUS ? st->vram_available_bytes[i] : HR_UNKNOWN;
        cols(o, i == 0 ? HR_T("1 GPU memory (VRAM)") : "", sz(g->vram_total_bytes, a, sizeof a),
             sz(g->vram_used_bytes, b, sizeof b), sz(avail, c, sizeof c));
        pf(o, "  %s (%s)\n", g->name, g->source);
    }
    cols(o, HR_T("2 RAM"), sz(s->ram.total_bytes, a, sizeof a), sz(s->ram.used_bytes, b, sizeof b),
         sz(s->ram.available_bytes, c, sizeof c));
    pf(o, "  %s\n", s->ram.s.ok ? said(&s->ram.s.source) : said(&s->ram.s.why));
    bool known = st->paging_tier_known;
    const char *label = s->platform.os == HR_OS_WINDOWS ? HR_T("3 Paging file (disk)") : HR_T("3 Swap");
    cols(o, label, known ? sz(st->paging_tier_total_bytes, a, sizeof a) : HR_T("unknown"),
         known ? sz(st->paging_tier_used_bytes, b, sizeof b) : HR_T("unknown"),
         known ? sz(st->paging_tier_free_bytes, c, sizeof c) : HR_T("unknown"));
    pf(o, "  %s\n", s->paging_s.ok ? said(&s->paging_s.source) : said(&s->paging_s.why));
}

static void commit(out *o, const hr_snapshot *s)
{
    const hr_commit *c = &s->commit;
    char a[32], b[32], d[32];
    heading(o, HR_T("COMMIT (what programs have asked for vs what RAM + paging can back)"), said(&c->s.source));
    unknown_line(o, &c->s);
    bool lx = s->platform.os == HR_OS_LINUX;
    pf(o, HR_T("  charge   %-12s %s\n"), sz(c->charge_bytes, a, sizeof a),
       lx ? HR_T("(Committed_AS)") : HR_T("(Task Manager: Committed)"));
    pf(o, HR_T("  limit    %-12s %s\n"), sz(c->limit_bytes, a, sizeof a),
       lx ? HR_T("(CommitLimit)") : HR_T("(RAM + paging files)"));
    if (c->peak_bytes != HR_UNKNOWN && c->peak_bytes != 0)
        pf(o, HR_T("  peak     %-12s (highest since boot)\n"), sz(c->peak_bytes, a, sizeof a));
    else if (!lx)
        pf(o, HR_T("  peak     unknown (the OS reported none)\n"));
    if (o->st->commit_used_percent >= 0)
        pf(o, HR_T("  in use   %.0f%% of the limit\n"), o->st->commit_used_percent);
    if (lx) {
        switch (c->overcommit_mode) {
        case HR_OVERCOMMIT_NEVER:
            if (c->overcommit_kbytes != HR_UNKNOWN && c->overcommit_kbytes != 0)
                pf(o,
                   HR_T(
                       "  ENFORCED: vm.overcommit_memory=2, overcommit_kbytes=%llu: allocations past the limit fail\n"),
                   (unsigned long long)c->overcommit_kbytes);
            else {
                snprintf(d, sizeof d, "%llu", (unsigned long long)c->overcommit_ratio);
                pf(o,
                   HR_T(
                       "  ENFORCED: vm.overcommit_memory=2 (ratio %s%%): allocations past the limit fail with ENOMEM\n"),
                   c->overcommit_ratio == HR_UNKNOWN ? "?" : d);
            }
            break;
        case HR_OVERCOMMIT_HEURISTIC:
        case HR_OVERCOMMIT_ALWAYS: {
            const hr_ceiling *ceiling = &o->st->ceiling;
            bool capped = ceiling->basis == HR_CEILING_CGROUP;
            pf(o,
               HR_T("  not enforced: vm.overcommit_memory=%d (%s). The real ceiling is %s = %s;\n"
                    "  past it the kernel's OOM killer ends a process (often the biggest: ComfyUI).\n"),
               (int)c->overcommit_mode, c->overcommit_mode == HR_OVERCOMMIT_ALWAYS ? HR_T("always") : HR_T("heuristic"),
               capped ? HR_T("the cgroup limit (below RAM + disk swap)") : HR_T("RAM + disk swap"),
               sz(ceiling->bytes, b, sizeof b));
            break;
        }
        default: pf(o, HR_T("  enforcement unknown (vm.overcommit_memory unreadable)\n"));
        }
    } else {
        pf(o,
           HR_T("  enforced: when the charge reaches the limit, allocations fail (\"paging file too small\", S2.1)\n"));
    }
}

static void paging(out *o, const hr_snapshot *s)
{
    char a[32], b[32], c[32];
    bool win = s->platform.os == HR_OS_WINDOWS;
    heading(o, win ? HR_T("PAGING FILES IN USE") : HR_T("SWAP AREAS"), said(&s->paging_s.source));
    unknown_line(o, &s->paging_s);
    if (s->paging_s.ok && s->paging_count == 0)
        pf(o, HR_T("  %snone%s: nothing backs RAM on disk. When RAM is full the run is killed (S1.1).\n"), warn(o),
           reset(o));
    for (int i = 0; i < s->paging_count; i++) {
        const hr_paging *p = &s->paging[i];
        char shown[HR_SNAP_PATH_MAX * 4];
        pf(o, HR_T("  %s\n    %s, size %s, used %s"), hr_win_path_shown(p->path, shown, sizeof shown),
           hr_tr(hr_paging_kind_name(p->kind)), sz(p->size_bytes, a, sizeof a), sz(p->used_bytes, b, sizeof b));
        if (p->peak_bytes != HR_UNKNOWN)
            pf(o, HR_T(", peak %s"), sz(p->peak_bytes, c, sizeof c));
        if (p->priority != HR_UNKNOWN_I64)
            pf(o, HR_T(", priority %lld"), (long long)p->priority);
        pf(o, "\n");
        const hr_status_paging *sp = &o->st->paging[i];
        if (!sp->disk_backstop) {
            pf(o, HR_T("    compressed RAM, not a disk backstop (S5.3)\n"));
            continue;
        }
        if (!p->has_device)
            continue;
        const hr_device *d = &p->device;
        const char *colon = ends_with_colon(d->name) ? " " : HR_T(": ");
        if (!d->name[0])
            pf(o, HR_T("    on "));
        else if (d->disk[0] && strcmp(d->disk, d->name))
            pf(o, HR_T("    on %s (disk %s)%s"), d->name, d->disk, colon);
        else
            pf(o, HR_T("    on %s%s"), d->name, colon);
        device_facts(o, d);
        if (d->fs_type[0])
            pf(o, HR_T("; file system %s at %s"), d->fs_type, d->mount_point);
        if (d->fs_free_bytes != HR_UNKNOWN)
            pf(o, HR_T(", %s free of %s"), sz(d->fs_free_bytes, a, sizeof a), sz(d->fs_total_bytes, b, sizeof b));
        pf(o, "\n");
        if (!hr_words_empty(&d->why))
            pf(o, HR_T("    unknown: %s\n"), said(&d->why));
        if (sp->device.removable)
            pf(o, HR_T("    %swarning: paging on removable/USB media: unplugging it crashes the system (S5.4)%s\n"),
               warn(o), reset(o));
        if (sp->device.slow_disk)
            pf(o, HR_T("    note: on a spinning disk paging is slow; an SSD is far better (S3.3)\n"));
    }
    const hr_paging_config *pc = &s->paging_config;
    if (win || pc->present || !hr_words_empty(&pc->s.why)) {
        heading(o, win ? HR_T("PAGING FILES CONFIGURED (takes effect at boot)") : HR_T("SWAP CONFIGURED"),
                said(&pc->s.source));
        unknown_line(o, &pc->s);
        if (pc->automatic == HR_TRI_YES)
            pf(o,
               HR_T(
                   "  %sautomatic management for all drives%s: Windows sizes it and may shrink it when C: is short of space (S1.2)\n"),
               warn(o), reset(o));
        if (pc->s.ok && pc->count == 0)
            pf(o, win ? HR_T("  no paging file configured\n") : HR_T("  no swap in /etc/fstab\n"));
        for (int i = 0; i < pc->count; i++) {
            const hr_paging_config_entry *e = &pc->entries[i];
            char shown[HR_SNAP_PATH_MAX * 4];
            pf(o, "  %s%s%s", hr_win_path_shown(e->path, shown, sizeof shown), HR_T(": "),
               hr_tr(hr_paging_mode_name(e->mode)));
            if (e->mode == HR_PAGING_MODE_CUSTOM)
                pf(o, HR_T(", initial %s, maximum %s"), sz(e->initial_bytes, a, sizeof a),
                   sz(e->maximum_bytes, b, sizeof b));
            if (e->priority != HR_UNKNOWN_I64)
                pf(o, HR_T(", priority %lld"), (long long)e->priority);
            pf(o, "\n");
        }
        if (pc->temp_page_file == HR_TRI_YES)
            pf(o, HR_T("  %sWindows created a TEMPORARY paging file: the configured one could not be created%s\n"),
               warn(o), reset(o));
        if (win && pc->existing_count > 0) {
            const char *label = HR_T("  created at this boot (ExistingPageFiles):");
            pf(o, "%s", label);
            for (int i = 0; i < pc->existing_count; i++) {
                char shown[HR_SNAP_PATH_MAX * 4];
                pf(o, "%s%s", i ? " " : hr_label_gap(label), hr_win_path_shown(pc->existing[i], shown, sizeof shown));
            }
            pf(o, "\n");
        }
        if (!hr_words_empty(&pc->notes))
            pf(o, HR_T("  ignored by Windows: %s\n"), said(&pc->notes));
    }
}

static void volumes(out *o, const hr_snapshot *s)
{
    char a[32], b[32];
    bool win = s->platform.os == HR_OS_WINDOWS;
    heading(o, win ? HR_T("DRIVES") : HR_T("FILE SYSTEMS FOR A SWAP FILE"), said(&s->volumes_s.source));
    unknown_line(o, &s->volumes_s);
    for (int i = 0; i < s->volume_count; i++) {
        const hr_volume *v = &s->volumes[i];
        const hr_device *d = &v->dev;
        pf(o, HR_T("  %-12s %-6s %s free of %s"), d->mount_point, d->fs_type[0] ? d->fs_type : "?",
           sz(d->fs_free_bytes, a, sizeof a), sz(d->fs_total_bytes, b, sizeof b));
        if (o->st->volumes[i].used_percent >= 0)
            pf(o, HR_T(" (%.0f%% used)"), o->st->volumes[i].used_percent);
        pf(o, "%s%s\n", v->is_system ? HR_T(", system") : "", v->holds_paging ? HR_T(", holds paging") : "");
        pf(o, "               %s", d->name[0] ? d->name : HR_T("device unknown"));
        if (d->disk[0] && strcmp(d->disk, d->name))
            pf(o, HR_T(" on %s"), d->disk);
        pf(o, "%s", ends_with_colon(d->name) && !d->disk[0] ? " " : HR_T(": "));
        device_facts(o, d);
        pf(o, "\n");
        if (win && !hr_words_empty(&d->why))
            pf(o, HR_T("               unknown: %s\n"), said(&d->why));
        if (v->can_hold_swap == HR_TRI_NO) {
            char why[HR_SNAP_WHY_MAX];
            hr_swap_why_text(&v->why_not, why, sizeof why);
            pf(o, HR_T("               cannot hold %s: %s\n"), win ? HR_T("a paging file") : HR_T("a swap file"), why);
        }
    }
}

static void compression(out *o, const hr_snapshot *s)
{
    const hr_compression *c = &s->compression;
    char a[32], b[32], d[32];
    heading(o, HR_T("COMPRESSION (in RAM: not a disk backstop, S5.3)"), said(&c->s.source));
    unknown_line(o, &c->s);
    if (s->platform.os == HR_OS_WINDOWS) {
        const char *on = tri_word(c->windows_compression, HR_T("on"), HR_T("off"));
        pf(o, HR_T("  memory compression: %s"), on ? on : HR_T("unknown"));
        if (c->windows_store_bytes != HR_UNKNOWN)
            pf(o, HR_T(", store %s"), sz(c->windows_store_bytes, a, sizeof a));
        pf(o, "\n");
        return;
    }
    const char *zs = tri_word(c->zswap_enabled, HR_T("enabled"), HR_T("disabled"));
    pf(o, HR_T("  zswap: %s"), zs ? zs : HR_T("unknown"));
    if (c->zswap_compressor[0])
        pf(o, HR_T(", compressor %s"), c->zswap_compressor);
    if (c->zswap_max_pool_percent != HR_UNKNOWN)
        pf(o, HR_T(", max pool %llu%% of RAM"), (unsigned long long)c->zswap_max_pool_percent);
    if (c->zswap_pool_bytes != HR_UNKNOWN)
        pf(o, HR_T(", pool %s holding %s"), sz(c->zswap_pool_bytes, a, sizeof a),
           sz(c->zswap_stored_bytes, b, sizeof b));
    pf(o, "\n");
    if (o->st->zswap_idle)
        pf(o, HR_T("    zswap only caches pages on their way to a swap device; with no swap it does nothing\n"));
    if (c->zram_count == 0 && c->s.ok)
        pf(o, HR_T("  zram: no devices\n"));
    for (int i = 0; i < c->zram_count; i++) {
        const hr_zram *z = &c->zram[i];
        if (z->disksize_bytes == 0) {
            pf(o, HR_T("  %s: not initialised (disksize 0)\n"), z->name);
            continue;
        }
        pf(o, HR_T("  %s: disksize %s, stores %s in %s of RAM"), z->name, sz(z->disksize_bytes, a, sizeof a),
           sz(z->orig_data_bytes, b, sizeof b), sz(z->mem_used_bytes, d, sizeof d));
        if (z->algorithm[0])
            pf(o, " (%s)", z->algorithm);
        pf(o, "%s\n", z->used_as_swap ? HR_T(", used as swap") : "");
    }
}

static void cgroup(out *o, const hr_snapshot *s)
{
    const hr_cgroup *g = &s->cgroup;
    char a[32], b[32], shown[HR_SNAP_PATH_MAX * 4];
    if (s->platform.os != HR_OS_LINUX)
        return;
    heading(o, HR_T("LIMITS (cgroup: they cap the process before RAM does)"), said(&g->s.source));
    unknown_line(o, &g->s);
    if (g->memory_version == HR_CGROUP_NONE && g->s.ok) {
        pf(o, HR_T("  no cgroup memory controller\n"));
        return;
    }
    pf(o, HR_T("  memory controller on cgroup v%d%s, %s\n"), (int)g->memory_version,
       g->hybrid ? HR_T(" (hybrid layout)") : "", hr_text_shown(g->path, shown, sizeof shown));
    pf(o, HR_T("  memory limit      %s\n"), sz(g->memory_max_bytes, a, sizeof a));
    if (g->memory_version == HR_CGROUP_V2) {
        pf(o, HR_T("  memory.high       %s\n"), sz(g->memory_high_bytes, a, sizeof a));
        pf(o, HR_T("  swap limit        %s%s\n"), sz(g->swap_max_bytes, a, sizeof a),
           o->st->cgroup_no_swap ? HR_T("  (no swap for this cgroup: swap on the host does not help)") : "");
    } else {
        pf(o, HR_T("  memory+swap limit %s\n"), sz(g->memsw_max_bytes, a, sizeof a));
    }
    if (g->memory_current_bytes != HR_UNKNOWN)
        pf(o, HR_T("  in use now        %s%s%s\n"), sz(g->memory_current_bytes, a, sizeof a),
           g->memory_peak_bytes != HR_UNKNOWN ? HR_T(", peak ") : "",
           g->memory_peak_bytes != HR_UNKNOWN ? sz(g->memory_peak_bytes, b, sizeof b) : "");
    if (g->oom_kills != HR_UNKNOWN)
        pf(o, HR_T("  OOM kills here    %llu\n"), (unsigned long long)g->oom_kills);
    if (o->st->cgroup_below_ram && o->st->cgroup_no_swap)
        pf(o, HR_T("  %sthe cgroup limit (%s) is below RAM: runs are killed at the limit, whatever the swap%s\n"),
           warn(o), sz(g->memory_max_bytes, a, sizeof a), reset(o));
    else if (o->st->cgroup_below_ram)
        pf(o,
           HR_T("  %sthe cgroup limit (%s) is below RAM: runs are killed at the limit plus the swap the cgroup may "
                "use (the real ceiling above)%s\n"),
           warn(o), sz(g->memory_max_bytes, a, sizeof a), reset(o));
}

static void gpus(out *o, const hr_snapshot *s)
{
    char a[32], b[32];
    heading(o, HR_T("GPUS"), said(&s->gpus.s.source));
    unknown_line(o, &s->gpus.s);
    if (!hr_words_empty(&s->gpus.notes))
        pf(o, "  %s\n", said(&s->gpus.notes));
    if (s->gpus.count == 0 && s->gpus.s.ok)
        pf(o, HR_T("  no GPU found\n"));
    for (int i = 0; i < s->gpus.count; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        const char *kind = tri_word(g->integrated, HR_T("integrated"), HR_T("discrete"));
        pf(o, HR_T("  %s: %s, VRAM %s, used %s [%s]\n"), g->name, kind ? kind : HR_T("integrated/discrete unknown"),
           sz(g->vram_total_bytes, a, sizeof a), sz(g->vram_used_bytes, b, sizeof b), g->source);
        if (g->shared_total_bytes != HR_UNKNOWN)
            pf(o, HR_T("    may borrow up to %s of RAM (shared/GTT), %s now\n"), sz(g->shared_total_bytes, a, sizeof a),
               sz(g->shared_used_bytes, b, sizeof b));
        if (g->python_vram_bytes != HR_UNKNOWN && g->python_vram_bytes > 0)
            pf(o, HR_T("    %s of it held by python (maybe ComfyUI)\n"), sz(g->python_vram_bytes, a, sizeof a));
        if (g->integrated == HR_TRI_YES)
            pf(o, HR_T("    an integrated GPU takes its memory from RAM: less RAM is left for the run (S4.3)\n"));
    }
}

static void power(out *o, const hr_snapshot *s)
{
    const hr_power *p = &s->power;
    heading(o, HR_T("POWER"), said(&p->s.source));
    unknown_line(o, &p->s);
    if (p->on_battery == HR_TRI_YES)
        pf(o, HR_T("  %son battery%s"), warn(o), reset(o));
    else if (p->on_battery == HR_TRI_NO)
        pf(o, HR_T("  on mains power"));
    else
        pf(o, HR_T("  power source unknown"));
    if (p->battery_percent != HR_UNKNOWN)
        pf(o, HR_T(", battery %llu%%"), (unsigned long long)p->battery_percent);
    if (p->has_battery == HR_TRI_NO)
        pf(o, HR_T(" (no battery)"));
    if (p->power_saver == HR_TRI_YES)
        pf(o, HR_T(", power saver on"));
    pf(o, "\n");
    if (o->st->power_throttled)
        pf(o, HR_T("  power saving throttles CPU, GPU and paging: run on mains (S4.3)\n"));
}

/* Facts that need the whole snapshot to see, with the rule each comes from. */
static void notes(out *o, const hr_snapshot *s)
{
    if (s->note_count == 0)
        return;
    heading(o, HR_T("NOTES"), NULL);
    for (int i = 0; i < s->note_count; i++) {
        char text[HR_SNAP_WHY_MAX * 2];
        hr_msg_format(&s->notes[i].msg, hr_lang_get(), text, sizeof text);
        pf(o, HR_T("  %s%s%s (%s)\n"), warn(o), text, reset(o), s->notes[i].rule);
    }
}

int hr_status_report_text(const hr_status *st, hr_buf *b, const hr_render_opts *ro)
{
    const hr_snapshot *s = st->snap;
    out o = { .b = b, .color = ro && ro->color, .st = st };
    pf(&o, "%sheadroom status%s — %s", bold(&o), reset(&o),
       !hr_words_empty(&s->platform.os_name) ? said(&s->platform.os_name) : HR_T("unknown OS"));
    if (s->platform.container == HR_TRI_YES)
        pf(&o, HR_T(", in a container (%s)"), s->platform.container_kind);
    pf(&o, "\n");
    if (s->platform.wsl2 == HR_TRI_YES)
        pf(&o,
           HR_T("%sWSL 2%s: RAM and swap are set on the Windows side in %%UserProfile%%\\.wslconfig\n"
                "(memory=, swap=), not inside this distribution.\n"),
           warn(&o), reset(&o));
    tiers(&o, s);
    commit(&o, s);
    paging(&o, s);
    compression(&o, s);
    cgroup(&o, s);
    gpus(&o, s);
    power(&o, s);
    volumes(&o, s);
    notes(&o, s);
    if (st->partial)
        pf(&o, HR_T("\n%sSome sources could not be read: the report is partial (exit status 3).%s\n"), warn(&o),
           reset(&o));
    return o.err;
}
