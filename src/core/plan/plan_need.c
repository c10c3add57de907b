/* headroom — a workflow's estimate as the run's need (core/model/run_need.h: the one rule):
 * plan, check and export take it the same way, whoever ran the estimate. */
#include "core/plan/plan.h"

#include "core/base/text.h"

#include <string.h>

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
    in->estimate_vram_bytes = e->machine.vram_assumed ? e->machine.vram_bytes : HR_UNKNOWN;
}

void hr_peak_basis_of(hr_peak_basis *b, hr_peak_from from, hr_workload sample, const hr_estimate *e)
{
    memset(b, 0, sizeof *b);
    b->from = from;
    b->sample = sample;
    /* A sample's label is kept as its English msgid and a prompt as its id (both worded where
     * the basis is shown); the estimate's own title is already in the language of the moment. */
    const char *label = NULL;
    if (from == HR_PEAK_SAMPLE && hr_est_sample_workflow(hr_workload_name(sample), &label) && label)
        hr_strlcpy(b->workflow, label, sizeof b->workflow);
    else if (from == HR_PEAK_SERVER)
        hr_strlcpy(b->workflow, e->prompt_id, sizeof b->workflow);
    else
        hr_strlcpy(b->workflow, e->workflow, sizeof b->workflow);
    hr_strlcpy(b->node_id, e->commit.node_id, sizeof b->node_id);
    hr_strlcpy(b->class_type, e->commit.class_type, sizeof b->class_type);
    b->version_known = e->machine.version_known;
    memcpy(b->version, e->machine.version, sizeof b->version);
    hr_strlcpy(b->version_date, e->machine.comfyui_commit.text, sizeof b->version_date);
    hr_strlcpy(b->high_version, e->high_version, sizeof b->high_version);
}

const char *hr_peak_basis_text(const hr_peak_basis *b, hr_lang lang, char *buf, size_t cap)
{
    /* The version's words first (a message with a value of its own), then the sentence that
     * quotes them; both in lang. */
    hr_msg v, m;
    char ver[64], prompt[96];
    if (b->version_known && b->version_date[0]) {
        hr_msg_set(&v, HR_N("ComfyUI %d.%d.%d (a checkout of %s)"), b->version[0], b->version[1], b->version[2],
                   b->version_date);
    } else if (b->version_known)
        hr_msg_set(&v, "ComfyUI %d.%d.%d", b->version[0], b->version[1], b->version[2]);
    else if (b->high_version[0])
        hr_msg_set(&v, HR_N("any ComfyUI, %s's manager at the high end"), b->high_version);
    else
        hr_msg_set(&v, "%s", HR_N("any ComfyUI"));
    if (!b->version_known && !b->high_version[0])
        hr_msg_translate_arg(&v, 0);
    hr_msg_format(&v, lang, ver, sizeof ver);
    switch (b->from) {
    case HR_PEAK_GIVEN:
        if (cap)
            buf[0] = '\0';
        return buf;
    case HR_PEAK_SAMPLE:
        hr_msg_set(&m, HR_N("the estimate of a typical %s workflow (%s) for %s"), hr_workload_label_msgid(b->sample),
                   b->workflow, ver);
        hr_msg_translate_arg(&m, 0);
        hr_msg_translate_arg(&m, 1);
        break;
    case HR_PEAK_WORKFLOW:
        hr_msg_set(&m, HR_N("the estimate of %s for %s, node %s %s"), b->workflow, ver, b->node_id, b->class_type);
        break;
    case HR_PEAK_SERVER:
        /* the prompt's words, as the version's: a message of their own inside the sentence */
        hr_msg_set(&v, HR_N("prompt %.40s"), b->workflow);
        hr_msg_format(&v, lang, prompt, sizeof prompt);
        hr_msg_set(&m, HR_N("the heaviest prompt the running ComfyUI ran (its /history), %s, for %s, node %s %s"),
                   prompt, ver, b->node_id, b->class_type);
        break;
    case HR_PEAK_SAVED:
        hr_msg_set(&m, HR_N("the heaviest saved workflow, %s, for %s, node %s %s"), b->workflow, ver, b->node_id,
                   b->class_type);
        break;
    }
    hr_msg_format(&m, lang, buf, cap);
    return buf;
}
