/* headroom — a workflow's estimate as the run's need (core/model/run_need.h: the one rule):
 * plan, check and export take it the same way, whoever ran the estimate. */
#include "core/plan/plan.h"

#include "core/base/text.h"

hr_workload hr_workload_of_estimate(const hr_estimate *e)
{
    /* S4.2: video from a video model or from frames, FLUX and the other large DiTs from the
     * architecture. */
    switch (e->arch) {
    case HR_ARCH_WAN_1_3B:
    case HR_ARCH_WAN_14B:
    case HR_ARCH_WAN22_5B:
    case HR_ARCH_HUNYUAN_VIDEO:
    case HR_ARCH_LTXV_2B:
    case HR_ARCH_LTXV_13B:
    case HR_ARCH_SVD: return HR_WORKLOAD_VIDEO;
    default: break;
    }
    if (e->frames > 1)
        return HR_WORKLOAD_VIDEO;
    switch (e->arch) {
    case HR_ARCH_FLUX:
    case HR_ARCH_FLUX2:
    case HR_ARCH_CHROMA:
    case HR_ARCH_QWEN_IMAGE:
    case HR_ARCH_HIDREAM:
    case HR_ARCH_SD3:
    case HR_ARCH_LUMINA2:
    case HR_ARCH_ZIMAGE: return HR_WORKLOAD_FLUX;
    case HR_ARCH_SDXL: return HR_WORKLOAD_SDXL;
    case HR_ARCH_SD15:
    case HR_ARCH_SD2: return HR_WORKLOAD_SD15;
    default: return HR_WORKLOAD_NONE;
    }
}

void hr_plan_inputs_take_estimate(hr_plan_inputs *in, const hr_estimate *e)
{
    in->peak_commit_bytes = e->commit.high;
    in->need_low_bytes = e->commit.low;
    in->peak_is_run = true;
    in->version_known = e->machine.version_known;
    hr_strlcpy(in->high_version, e->high_version, sizeof in->high_version);
    in->implied_workload = hr_workload_of_estimate(e);
}
