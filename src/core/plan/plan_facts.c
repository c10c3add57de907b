/* headroom — the plan's facts: what the what-if flags and the snapshot say, each with where
 * it came from. */
#include "core/plan/plan_stages.h"

#include <string.h>

/* The GPU facts: the largest dedicated VRAM; integrated-only machines read as 0. */
static void gpu_facts(const hr_snapshot *snap, hr_plan_facts *f)
{
    f->vram_bytes = HR_UNKNOWN;
    f->integrated_shared_bytes = HR_UNKNOWN;
    if (!snap || snap->gpus.count <= 0)
        return;
    uint64_t best = HR_UNKNOWN;
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
        if (best == HR_UNKNOWN || g->vram_total_bytes > best)
            best = g->vram_total_bytes;
    }
    if (any_discrete) {
        f->vram_bytes = best;
        f->vram_source = "this machine";
    } else if (any_integrated) {
        f->vram_bytes = 0;
        f->integrated_gpu = true;
        f->vram_source = "this machine (integrated GPU)";
    }
}

void hr_plan_facts_derive(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan_facts *f)
{
    memset(f, 0, sizeof *f);
    f->os = in->os >= 0 ? (hr_os)in->os : snap ? snap->platform.os : HR_OS_WINDOWS;
    f->hypothetical = snap == NULL;
    f->recorded = snap && in->recorded;
    const char *here = f->recorded ? "the recording" : "this machine";
    f->os_source = in->os >= 0 ? "--os" : snap ? here : "default";

    f->ram_bytes = in->ram_bytes != HR_UNKNOWN ? in->ram_bytes
                   : snap ? snap->ram.total_bytes : HR_UNKNOWN;
    f->ram_source = in->ram_bytes != HR_UNKNOWN ? "--ram"
                    : f->ram_bytes != HR_UNKNOWN ? here : "unknown";

    gpu_facts(snap, f);
    if (f->recorded && f->vram_source && strncmp(f->vram_source, "this machine", 12) == 0)
        f->vram_source = f->integrated_gpu ? "the recording (integrated GPU)" : "the recording";
    if (in->vram_bytes != HR_UNKNOWN) {
        f->vram_bytes = in->vram_bytes;
        f->vram_source = "--vram";
        f->integrated_gpu = in->vram_bytes == 0;
        if (in->vram_bytes != 0)
            f->integrated_shared_bytes = HR_UNKNOWN;
    }
    if (!f->vram_source)
        f->vram_source = "unknown";

    f->workload = in->workload;
    if (in->have_comfy_args)
        f->comfy = in->comfy;
    f->lean_on_ram = hr_comfy_args_lean_on_ram(&f->comfy);
    f->effective_vram_bytes = f->vram_bytes;
    if (f->vram_bytes != HR_UNKNOWN && f->comfy.reserve_vram_given)
        f->effective_vram_bytes = f->vram_bytes > f->comfy.reserve_vram_bytes
                                      ? f->vram_bytes - f->comfy.reserve_vram_bytes : 0;
    f->ram_class_bytes = hr_ram_class_bytes(f->ram_bytes);
    f->row = f->ram_bytes != HR_UNKNOWN ? hr_plan_ram_row(f->ram_class_bytes) : HR_ROW_16;

    f->disk_paging_bytes = HR_UNKNOWN;
    if (snap) {
        f->volumes_known = snap->volume_count > 0;
        f->in_container = snap->platform.container == HR_TRI_YES;
        f->cgroup_limited = snap->cgroup.memory_max_bytes != HR_UNKNOWN &&
                            snap->cgroup.memory_max_bytes != HR_UNLIMITED;
        f->wsl2 = snap->platform.wsl2 == HR_TRI_YES;
        f->disk_paging_bytes = hr_snapshot_disk_paging_known(snap);
    }
}

