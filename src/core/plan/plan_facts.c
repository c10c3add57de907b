/* headroom — the plan's facts: what the what-if flags and the snapshot say, each with where
 * it came from. */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"
#include "core/base/size.h"

#include <string.h>

/* The GPU facts: the largest dedicated VRAM; integrated-only machines read as 0. */
static void gpu_facts(const hr_snapshot *snap, hr_plan_facts *f)
{
    f->vram_bytes = HR_UNKNOWN;
    f->integrated_shared_bytes = HR_UNKNOWN;
    if (!snap || snap->gpus.count <= 0)
        return;
    uint64_t best = HR_UNKNOWN;
    const hr_gpu *best_gpu = NULL;
    bool any_discrete = false, any_integrated = false;
    for (int i = 0; i < snap->gpus.count && i < HR_MAX_GPUS; i++) {
        const hr_gpu *g = &snap->gpus.gpu[i];
        if (g->integrated == HR_TRI_YES) {
            any_integrated = true;
            if (g->shared_total_bytes != HR_UNKNOWN && g->shared_total_bytes)
                f->integrated_shared_bytes = g->shared_total_bytes;
            continue;
        }
        if (g->vram_total_bytes == HR_UNKNOWN)
            continue;
        any_discrete = true;
        if (best == HR_UNKNOWN || g->vram_total_bytes > best) {
            best = g->vram_total_bytes;
            best_gpu = g;
        }
    }
    if (any_discrete) {
        f->vram_bytes = best;
        f->vram_gpu = true;
        hr_strlcpy(f->vram_gpu_name, best_gpu->name, sizeof f->vram_gpu_name);
        f->vram_gpu_used_bytes = best_gpu->vram_used_bytes;
        f->vram_source = HR_N("this machine");
    } else if (any_integrated) {
        f->vram_bytes = 0;
        f->integrated_gpu = true;
        f->vram_source = HR_N("this machine (integrated GPU)");
    }
}

static bool in_use(const hr_snapshot *snap, const char *path, bool win)
{
    for (int j = 0; j < snap->paging_count; j++)
        if (win ? hr_same_drive(snap->paging[j].path, path) : strcmp(snap->paging[j].path, path) == 0)
            return true;
    return false;
}

/* Windows, the list of files in use unreadable: ExistingPageFiles, the registry's list of
 * what this boot uses, answers the same question (verify reads it too). */
static void pending_from_existing(const hr_paging_config *cfg, hr_plan_facts *f)
{
    if (cfg->existing_count <= 0)
        return;
    for (int i = 0; i < cfg->count && i < HR_MAX_PAGING_CONFIG; i++) {
        bool used = false;
        for (int j = 0; j < cfg->existing_count && j < HR_MAX_PAGING_CONFIG; j++) {
            const char *x = cfg->existing[j];
            if (strncmp(x, "\\??\\", 4) == 0)
                x += 4;
            used |= hr_same_drive(x, cfg->entries[i].path);
        }
        if (!used)
            f->restart_pending = true;
    }
}

/* What is configured, and whether it differs from what is in use (S5.1). Windows: a
 * configured file not in use, one in use that is no longer configured, or one whose size is
 * not what the registry says; Linux: an fstab swap file that is not active. */
static void configured_facts(const hr_snapshot *snap, hr_plan_facts *f)
{
    const hr_paging_config *cfg = &snap->paging_config;
    const bool win = f->os == HR_OS_WINDOWS;
    f->configured_paging_bytes = HR_UNKNOWN;
    if (win && cfg->s.ok && !snap->paging_s.ok && cfg->automatic != HR_TRI_YES)
        pending_from_existing(cfg, f);
    if (!cfg->s.ok || !snap->paging_s.ok || cfg->automatic == HR_TRI_YES)
        return;
    uint64_t total = 0;
    bool sizes_known = true;
    for (int i = 0; i < cfg->count && i < HR_MAX_PAGING_CONFIG; i++) {
        const hr_paging_config_entry *e = &cfg->entries[i];
        if (e->mode == HR_PAGING_MODE_AUTOMATIC)
            return;
        if (!win && (e->path[0] != '/' || strncmp(e->path, "/dev/", 5) == 0))
            continue; /* partitions: fstab and /proc/swaps may name them differently */
        if (e->maximum_bytes == HR_UNKNOWN)
            sizes_known = false;
        else
            total = hr_sat_add(total, e->maximum_bytes);
        if (!in_use(snap, e->path, win)) {
            f->restart_pending = true;
            continue;
        }
        if (!win || e->mode != HR_PAGING_MODE_CUSTOM || e->initial_bytes == HR_UNKNOWN)
            continue;
        for (int j = 0; j < snap->paging_count; j++) {
            const hr_paging *pg = &snap->paging[j];
            if (hr_same_drive(pg->path, e->path) && pg->size_bytes != HR_UNKNOWN &&
                (pg->size_bytes + HR_MIB < e->initial_bytes || pg->size_bytes > e->maximum_bytes + HR_MIB))
                f->restart_pending = true;
        }
    }
    if (win)
        for (int j = 0; j < snap->paging_count; j++) {
            bool configured = false;
            for (int i = 0; i < cfg->count && i < HR_MAX_PAGING_CONFIG; i++)
                configured |= hr_same_drive(snap->paging[j].path, cfg->entries[i].path);
            if (!configured)
                f->restart_pending = true;
        }
    if (sizes_known)
        f->configured_paging_bytes = total;
}

void hr_plan_facts_derive(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan_facts *f)
{
    memset(f, 0, sizeof *f);
    f->os = in->os >= 0 ? (hr_os)in->os : snap ? snap->platform.os : HR_OS_WINDOWS;
    f->hypothetical = snap == NULL;
    f->recorded = snap && in->recorded;
    const char *here = f->recorded ? HR_N("the recording") : HR_N("this machine");
    f->os_source = in->os >= 0 ? "--os" : snap ? here : HR_N("default");

    f->ram_bytes = in->ram_bytes != HR_UNKNOWN ? in->ram_bytes : snap ? snap->ram.total_bytes : HR_UNKNOWN;
    f->ram_source = in->ram_bytes != HR_UNKNOWN ? "--ram" : f->ram_bytes != HR_UNKNOWN ? here : HR_N("unknown");

    gpu_facts(snap, f);
    if (f->recorded && f->vram_source && strncmp(f->vram_source, "this machine", 12) == 0)
        f->vram_source = f->integrated_gpu ? HR_N("the recording (integrated GPU)") : HR_N("the recording");
    if (in->vram_bytes != HR_UNKNOWN) {
        f->vram_bytes = in->vram_bytes;
        f->vram_source = "--vram";
        f->integrated_gpu = in->vram_bytes == 0;
        if (in->vram_bytes != 0)
            f->integrated_shared_bytes = HR_UNKNOWN;
    }
    if (!f->vram_source)
        f->vram_source = HR_N("unknown");

    f->workload = in->workload;
    f->version_known = in->version_known;
    memcpy(f->high_version, in->high_version, sizeof f->high_version);
    if (f->workload == HR_WORKLOAD_NONE && in->implied_workload != HR_WORKLOAD_NONE) {
        f->workload = in->implied_workload;
        f->workload_implied = true;
    }
    if (in->have_comfy_args)
        f->comfy = in->comfy;
    f->lean_on_ram = hr_comfy_args_lean_on_ram(&f->comfy);
    f->effective_vram_bytes = f->vram_bytes;
    if (f->vram_bytes != HR_UNKNOWN && f->comfy.reserve_vram_given)
        f->effective_vram_bytes =
            f->vram_bytes > f->comfy.reserve_vram_bytes ? f->vram_bytes - f->comfy.reserve_vram_bytes : 0;
    f->ram_class_bytes = hr_ram_class_bytes(f->ram_bytes);
    f->row = f->ram_bytes != HR_UNKNOWN ? hr_plan_ram_row(f->ram_class_bytes) : HR_ROW_16;

    f->disk_paging_bytes = HR_UNKNOWN;
    if (snap) {
        f->volumes_known = snap->volume_count > 0;
        f->in_container = snap->platform.container == HR_TRI_YES;
        f->cgroup_limited =
            snap->cgroup.memory_max_bytes != HR_UNKNOWN && snap->cgroup.memory_max_bytes != HR_UNLIMITED;
        f->wsl2 = snap->platform.wsl2 == HR_TRI_YES;
        f->disk_paging_bytes = hr_snapshot_disk_paging_known(snap);
        configured_facts(snap, f);
    }
    if (in->paging_bytes != HR_UNKNOWN)
        f->disk_paging_bytes = in->paging_bytes;
    f->estimate_vram_bytes = f->vram_bytes == HR_UNKNOWN ? in->estimate_vram_bytes : HR_UNKNOWN;
}
