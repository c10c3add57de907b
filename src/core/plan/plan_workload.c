/* headroom — the workloads the plan and check know, and what each needs at its peak. */
#include "core/plan/plan.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <string.h>

static const struct {
    hr_workload w;
    const char *name;
    const char *label;
} workloads[] = {
    { HR_WORKLOAD_NONE, "none", HR_N("no declared workload") },
    { HR_WORKLOAD_SD15, "sd15", HR_N("SD 1.5") },
    { HR_WORKLOAD_SDXL, "sdxl", HR_N("SDXL") },
    { HR_WORKLOAD_FLUX, "flux", HR_N("FLUX") },
    { HR_WORKLOAD_VIDEO, "video", HR_N("video") },
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

const char *hr_workload_label_msgid(hr_workload w)
{
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++)
        if (workloads[i].w == w)
            return workloads[i].label;
    return workloads[0].label;
}

const char *hr_workload_label(hr_workload w)
{
    return hr_tr(hr_workload_label_msgid(w));
}

uint64_t hr_ram_class_bytes(uint64_t usable)
{
    static const unsigned sizes_gib[] = { 1,  2,   3,   4,   6,   8,   12,  16,   20,   24,   32,   48,  64,
                                          96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096 };
    if (usable == HR_UNKNOWN || usable == 0)
        return usable;
    for (size_t i = 0; i < sizeof sizes_gib / sizeof sizes_gib[0]; i++) {
        const uint64_t size = (uint64_t)sizes_gib[i] << 30;
        if (usable > size)
            continue;
        /* Within 8 % of the size below it: the firmware's and the kernel's share. */
        return usable >= size / 100 * 92 ? size : usable;
    }
    return usable;
}

uint64_t hr_plan_need_bytes(const hr_plan_facts *f, const hr_plan_inputs *in)
{
    if (in && in->peak_commit_bytes != HR_UNKNOWN)
        return in->peak_commit_bytes;
    const hr_workload w = f->workload == HR_WORKLOAD_NONE ? HR_WORKLOAD_SDXL : f->workload;
    return hr_workload_need_bytes(w, f->lean_on_ram ? 0 : f->effective_vram_bytes);
}

uint64_t hr_workload_need_bytes(hr_workload w, uint64_t vram_bytes)
{
    const bool big_vram = vram_bytes != HR_UNKNOWN && vram_bytes >= ((uint64_t)23 << 29); /* 11.5 GiB */
    switch (w) {
    case HR_WORKLOAD_SD15: return (uint64_t)16 << 30;
    case HR_WORKLOAD_FLUX: return (uint64_t)(big_vram ? 40 : 48) << 30;
    case HR_WORKLOAD_VIDEO: return (uint64_t)80 << 30;
    case HR_WORKLOAD_SDXL:
    case HR_WORKLOAD_NONE:
    default: return (uint64_t)(big_vram ? 32 : 40) << 30;
    }
}
