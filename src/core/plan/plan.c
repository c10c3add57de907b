/* headroom — the plan: the stages, in order (plan_stages.h). */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"

#include <string.h>

void hr_plan_inputs_init(hr_plan_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->ram_bytes = HR_UNKNOWN;
    in->vram_bytes = HR_UNKNOWN;
    in->os = -1;
    in->workload = HR_WORKLOAD_NONE;
    in->peak_commit_bytes = HR_UNKNOWN;
    in->need_low_bytes = HR_UNKNOWN;
    in->implied_workload = HR_WORKLOAD_NONE;
    in->estimate_vram_bytes = HR_UNKNOWN;
    in->paging_bytes = HR_UNKNOWN;
}

int hr_plan_compute(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    /* A what-if for another OS describes another machine: none of this one's drives,
     * paging files or GPUs apply to it. */
    if (snap && in->os >= 0 && (hr_os)in->os != snap->platform.os)
        snap = NULL;
    hr_plan_facts_derive(snap, in, &out->facts);
    if (out->facts.ram_bytes == HR_UNKNOWN || out->facts.ram_bytes == 0)
        return hr_error_set(err, HR_EPARTIAL,
                            HR_T("the amount of RAM is not known; give it with --ram SIZE (e.g. --ram 16G)"));
    hr_plan_size(snap, in, out);
    hr_plan_place(snap, in, out);
    hr_plan_warn(snap, in, out);
    hr_plan_write_steps(snap, in, out);
    return 0;
}
