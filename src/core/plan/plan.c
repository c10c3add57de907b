/* headroom — the plan: facts from the snapshot and the what-if flags, then the stages. */
#include "core/plan/plan.h"

#include "core/base/size.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    hr_workload w;
    const char *name;
    const char *label;
} workloads[] = {
    {HR_WORKLOAD_NONE, "none", "no declared workload"},
    {HR_WORKLOAD_SD15, "sd15", "SD 1.5"},
    {HR_WORKLOAD_SDXL, "sdxl", "SDXL"},
    {HR_WORKLOAD_FLUX, "flux", "FLUX"},
    {HR_WORKLOAD_VIDEO, "video", "video"},
};

int hr_workload_parse(const char *s)
{
    if (!s)
        return -1;
    for (size_t i = 1; i < sizeof workloads / sizeof workloads[0]; i++)
        if (strcmp(s, workloads[i].name) == 0)
            return (int)workloads[i].w;
    return -1;
}

const char *hr_workload_name(hr_workload w)
{
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++)
        if (workloads[i].w == w)
            return workloads[i].name;
    return "none";
}

const char *hr_workload_label(hr_workload w)
{
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++)
        if (workloads[i].w == w)
            return workloads[i].label;
    return "no declared workload";
}

uint64_t hr_workload_need_bytes(hr_workload w, uint64_t vram_bytes)
{
    const bool big_vram = vram_bytes != HR_UNKNOWN && vram_bytes >= ((uint64_t)23 << 29);   /* 11.5 GiB */
    switch (w) {
    case HR_WORKLOAD_SD15: return (uint64_t)16 << 30;
    case HR_WORKLOAD_FLUX: return (uint64_t)(big_vram ? 40 : 48) << 30;
    case HR_WORKLOAD_VIDEO: return (uint64_t)80 << 30;
    case HR_WORKLOAD_SDXL:
    case HR_WORKLOAD_NONE:
    default: return (uint64_t)(big_vram ? 32 : 40) << 30;
    }
}

void hr_plan_inputs_init(hr_plan_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->ram_bytes = HR_UNKNOWN;
    in->vram_bytes = HR_UNKNOWN;
    in->os = -1;
    in->workload = HR_WORKLOAD_NONE;
    in->peak_commit_bytes = HR_UNKNOWN;
}

void hr_plan_line_add(hr_plan_line *list, int *count, int max, const char *id_rule,
                      const char *fmt, ...)
{
    if (*count >= max)
        return;
    hr_plan_line *l = &list[(*count)++];
    memset(l, 0, sizeof *l);
    const char *bar = strchr(id_rule, '|');
    if (bar) {
        size_t n = (size_t)(bar - id_rule);
        if (n >= sizeof l->id)
            n = sizeof l->id - 1;
        memcpy(l->id, id_rule, n);
        hr_strlcpy(l->rule, bar + 1, sizeof l->rule);
    } else {
        hr_strlcpy(l->id, id_rule, sizeof l->id);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
}

const hr_plan_line *hr_plan_find_warning(const hr_plan *p, const char *id)
{
    for (int i = 0; i < p->warning_count; i++)
        if (strcmp(p->warnings[i].id, id) == 0)
            return &p->warnings[i];
    return NULL;
}

hr_ram_row hr_plan_ram_row(uint64_t ram_bytes)
{
    /* Bands around the table's sizes: installed memory reads a little under its label
     * (16 GB → 15.6 GiB), and an iGPU takes its share before the OS counts (S4.3). */
    if (ram_bytes < (uint64_t)12 << 30)
        return HR_ROW_8;
    if (ram_bytes < (uint64_t)24 << 30)
        return HR_ROW_16;
    if (ram_bytes < (uint64_t)48 << 30)
        return HR_ROW_32;
    return HR_ROW_64;
}

void hr_plan_gb(uint64_t bytes, char *out, unsigned long n)
{
    if (bytes == HR_UNKNOWN) {
        snprintf(out, n, "unknown");
        return;
    }
    if (bytes < HR_GIB) {
        snprintf(out, n, "%llu MB", (unsigned long long)(bytes / HR_MIB));
        return;
    }
    /* Nearest tenth (whole GB from 100 up): 8388604 kB of swap is "8 GB", not "7.9". */
    uint64_t tenths = bytes / (HR_GIB / 10) + ((bytes % (HR_GIB / 10)) >= HR_GIB / 20 ? 1 : 0);
    uint64_t whole = tenths / 10, tenth = tenths % 10;
    if (whole >= 100)
        snprintf(out, n, "%llu GB", (unsigned long long)(whole + (tenth >= 5)));
    else if (tenth == 0)
        snprintf(out, n, "%llu GB", (unsigned long long)whole);
    else
        snprintf(out, n, "%llu.%llu GB", (unsigned long long)whole, (unsigned long long)tenth);
}

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
    f->row = f->ram_bytes != HR_UNKNOWN ? hr_plan_ram_row(f->ram_bytes) : HR_ROW_16;

    f->disk_paging_bytes = HR_UNKNOWN;
    if (snap) {
        f->volumes_known = snap->volume_count > 0;
        f->in_container = snap->platform.container == HR_TRI_YES;
        f->cgroup_limited = snap->cgroup.memory_max_bytes != HR_UNKNOWN &&
                            snap->cgroup.memory_max_bytes != HR_UNLIMITED;
        f->wsl2 = snap->platform.wsl2 == HR_TRI_YES;
        if (snap->paging_s.ok || snap->paging_count > 0)
            f->disk_paging_bytes = hr_snapshot_disk_paging_bytes(snap);
    }
}

int hr_plan_compute(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *out,
                    hr_error *err)
{
    memset(out, 0, sizeof *out);
    /* A what-if for another OS describes another machine: none of this one's drives,
     * paging files or GPUs apply to it. */
    if (snap && in->os >= 0 && (hr_os)in->os != snap->platform.os)
        snap = NULL;
    hr_plan_facts_derive(snap, in, &out->facts);
    if (out->facts.ram_bytes == HR_UNKNOWN || out->facts.ram_bytes == 0)
        return hr_error_set(err, HR_ENOENT,
                            "the amount of RAM is not known; give it with --ram SIZE (e.g. --ram 16G)");
    hr_plan_size(snap, in, out);
    hr_plan_place(snap, in, out);
    hr_plan_warn(snap, in, out);
    hr_plan_write_steps(snap, in, out);
    return 0;
}
