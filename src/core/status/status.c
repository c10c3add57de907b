/* headroom — the status report computed once (status.h): each judgement from its one home
 * (the ceiling, the disk swap, removable media: core/model), the rest that only status shows
 * here. */
#include "core/status/status.h"

#include "core/base/text.h"
#include "core/model/swap_target.h"

#include <string.h>

/* As df computes Use%: used / (used + available), rounded up — blocks reserved for root
 * (ext4's 5 %) are neither used nor free. Without a used figure (Windows): 100 - free %. */
static double fs_used_percent(const hr_device *d)
{
    if (d->fs_used_bytes != HR_UNKNOWN && d->fs_free_bytes != HR_UNKNOWN && d->fs_used_bytes + d->fs_free_bytes > 0) {
        const double pct = 100.0 * (double)d->fs_used_bytes / (double)(d->fs_used_bytes + d->fs_free_bytes);
        return pct > (double)(long long)pct ? (double)(long long)pct + 1 : pct;
    }
    if (d->fs_total_bytes != HR_UNKNOWN && d->fs_free_bytes != HR_UNKNOWN && d->fs_total_bytes)
        return 100.0 - 100.0 * (double)d->fs_free_bytes / (double)d->fs_total_bytes;
    return -1.0;
}

static void device(const hr_device *d, hr_status_device *out)
{
    out->ssd = d->rotational == HR_TRI_UNKNOWN || d->virtual_disk ? HR_TRI_UNKNOWN
               : d->rotational == HR_TRI_YES                      ? HR_TRI_NO
                                                                  : HR_TRI_YES;
    out->removable = hr_device_removable(d, NULL) == HR_TRI_YES;
    out->slow_disk = d->rotational == HR_TRI_YES && !d->virtual_disk;
    out->used_percent = fs_used_percent(d);
}

void hr_status_compute(const hr_snapshot *s, hr_status *out)
{
    memset(out, 0, sizeof *out);
    out->snap = s;
    out->partial = hr_snapshot_partial(s);

    for (int i = 0; i < s->gpus.count && i < HR_MAX_GPUS; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        out->vram_available_bytes[i] = g->vram_total_bytes != HR_UNKNOWN && g->vram_used_bytes != HR_UNKNOWN &&
                                               g->vram_used_bytes <= g->vram_total_bytes
                                           ? g->vram_total_bytes - g->vram_used_bytes
                                           : HR_UNKNOWN;
    }

    uint64_t tot = 0, used = 0;
    bool known = s->paging_s.ok;
    for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++) {
        const hr_paging *p = &s->paging[i];
        if (p->size_bytes == HR_UNKNOWN || p->used_bytes == HR_UNKNOWN) {
            known = false;
        } else {
            tot += p->size_bytes;
            used += p->used_bytes;
        }
        out->paging[i].disk_backstop = p->kind != HR_PAGING_ZRAM;
        device(&p->device, &out->paging[i].device);
        hr_strlcpy(out->paging[i].path, p->path, sizeof out->paging[i].path);
        out->paging[i].size_bytes = p->size_bytes;
        out->paging_count = i + 1;
    }
    out->paging_read = s->paging_s.ok;
    out->paging_tier_known = known;
    out->paging_tier_total_bytes = known ? tot : HR_UNKNOWN;
    out->paging_tier_used_bytes = known ? used : HR_UNKNOWN;
    out->paging_tier_free_bytes = known ? tot - used : HR_UNKNOWN;
    out->disk_paging_bytes = hr_snapshot_disk_paging_bytes(s);

    hr_ceiling_facts_of(s, &out->ceiling_facts);
    hr_ceiling_from(&out->ceiling_facts, s->platform.os, HR_UNKNOWN, HR_UNKNOWN, &out->ceiling);
    const hr_commit *c = &s->commit;
    out->commit_used_percent = c->charge_bytes != HR_UNKNOWN && c->limit_bytes != HR_UNKNOWN && c->limit_bytes > 0
                                   ? 100.0 * (double)c->charge_bytes / (double)c->limit_bytes
                                   : -1.0;

    out->system_volume_total_bytes = out->system_volume_free_bytes = HR_UNKNOWN;
    for (int i = 0; i < s->volume_count && i < HR_MAX_VOLUMES; i++) {
        device(&s->volumes[i].dev, &out->volumes[i]);
        if (s->volumes[i].is_system) {
            out->system_volume_total_bytes = s->volumes[i].dev.fs_total_bytes;
            out->system_volume_free_bytes = s->volumes[i].dev.fs_free_bytes;
        }
    }

    const hr_paging_config *cfg = &s->paging_config;
    out->configured_read = cfg->s.ok;
    out->configured_automatic = cfg->automatic;
    for (int i = 0; i < cfg->count && i < HR_MAX_PAGING_CONFIG; i++) {
        hr_status_configured *e = &out->configured[i];
        hr_strlcpy(e->path, cfg->entries[i].path, sizeof e->path);
        e->mode = cfg->entries[i].mode;
        e->initial_bytes = cfg->entries[i].initial_bytes;
        e->maximum_bytes = cfg->entries[i].maximum_bytes;
        out->configured_count = i + 1;
    }

    out->ram_available_bytes = s->ram.available_bytes;
    for (int i = 0; i < s->procs.count && i < HR_MAX_PROCS; i++) {
        out->procs[i] = s->procs.proc[i];
        out->proc_count = i + 1;
    }

    out->zswap_idle = s->compression.zswap_enabled == HR_TRI_YES && s->paging_count == 0;
    const hr_cgroup *g = &s->cgroup;
    out->cgroup_below_ram = g->memory_max_bytes != HR_UNKNOWN && g->memory_max_bytes != HR_UNLIMITED &&
                            s->ram.total_bytes != HR_UNKNOWN && g->memory_max_bytes < s->ram.total_bytes;
    out->cgroup_no_swap = g->swap_max_bytes == 0;
    out->power_throttled = s->power.on_battery == HR_TRI_YES || s->power.power_saver == HR_TRI_YES;
}
