/* headroom — estimate: the regime ComfyUI runs in (legacy, DynamicVRAM, CPU, unified) and the
 * settings it takes from the version, the machine and the flags (rule X.comfymem,
 * docs/memory-model.md), and what each regime holds where: private RAM, VRAM, commit. */
#include "core/estimate/estimate_regime.h"

#include <string.h>

void hr_est_sim_setup(hr_est_sim *s)
{
    const hr_est_machine *m = s->m;
    const hr_comfy_args *a = s->a;
    s->version = hr_est_version_num(m);
    s->offload = hr_est_offload_rules_at(s->version, m->version_known ? &m->comfyui_commit : NULL);
    s->vram_total = (double)m->vram_bytes;
    s->vram_other = hr_est_vram_other(m);
    s->reserve = hr_est_reserve_bytes(m, a);
    s->ratio = m->vendor == HR_GPU_NVIDIA ? 0.0 : 0.4;
    /* load_models_gpu() floored the budget at 64 MiB until 0.3.25 raised it to 128 MiB (a fix
     * for the Stable Cascade VAE on small cards), and 0.3.66's load formula has no floor; a card
     * with no room above it logs the floor. */
    s->lv_floor = s->version >= HR_EST_VER(0, 3, 66)   ? 0
                  : s->version >= HR_EST_VER(0, 3, 25) ? 128 * HR_EST_MIBD
                                                       : 64 * HR_EST_MIBD;
    s->async_buffer = s->version >= HR_EST_VER(0, 3, 76) && (m->vendor == HR_GPU_NVIDIA || m->vendor == HR_GPU_AMD);

    /* VRAMState (model_management.py) */
    if (a->cpu || m->vendor == HR_GPU_NONE || m->vram_bytes == 0)
        s->vs = HR_VS_DISABLED;
    else if (m->vendor == HR_GPU_APPLE || m->macos)
        s->vs = HR_VS_SHARED;
    else if (a->lowvram)
        s->vs = HR_VS_LOW_VRAM;
    else if (a->novram)
        s->vs = HR_VS_NO_VRAM;
    else if (a->highvram || a->gpu_only)
        s->vs = HR_VS_HIGH_VRAM;
    else
        s->vs = HR_VS_NORMAL_VRAM;

    /* The regime (main.py): DynamicVRAM on NVIDIA from 0.16 (opt-in from 0.12), not on WSL,
     * not with the flags that pin the legacy manager. */
    bool flags_ok = !a->disable_dynamic_vram && !a->highvram && !a->gpu_only && !a->novram && !a->cpu;
    if (s->vs == HR_VS_DISABLED)
        s->regime = HR_REGIME_CPU;
    else if (s->vs == HR_VS_SHARED)
        s->regime = HR_REGIME_UNIFIED;
    else if (a->enable_dynamic_vram && s->version >= HR_EST_VER(0, 12, 0))
        s->regime = HR_REGIME_DYNAMIC;
    else if (flags_ok && m->vendor == HR_GPU_NVIDIA && !m->wsl && s->version >= HR_EST_VER(0, 16, 0))
        s->regime = HR_REGIME_DYNAMIC;
    else
        s->regime = HR_REGIME_LEGACY;
    if (s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED)
        s->vram_total = 0;
    /* NVIDIA's Windows driver from 536.40 ("CUDA - Sysmem Fallback Policy", on by default) places
     * allocations the card cannot hold in shared system memory instead of failing them. A driver
     * whose version is not known is taken as a current one. */
    s->sysmem_fallback = m->os == HR_OS_WINDOWS && m->vendor == HR_GPU_NVIDIA && s->vram_total > 0 &&
                         (m->nvidia_driver == 0 || m->nvidia_driver >= 53640);

    /* Pinned memory: NVIDIA from 0.3.69, AMD just after; 45 %/95 % of RAM until 0.19, then
     * 40 % on Windows, 90 % elsewhere. 0.3.68 pinned on NVIDIA with --fast pinned_memory, and
     * by default in a checkout after PR #10656, which still says 0.3.68: ambiguous. */
    s->pin_cap = 0;
    bool pins_068 = m->vendor == HR_GPU_NVIDIA && s->version == HR_EST_VER(0, 3, 68) &&
                    (a->fast_pinned_memory || s->p.ambiguous_on);
    bool pins =
        !a->disable_pinned_memory &&
        (((m->vendor == HR_GPU_NVIDIA || m->vendor == HR_GPU_AMD) && s->version >= HR_EST_VER(0, 3, 69)) || pins_068) &&
        (s->regime == HR_REGIME_LEGACY || s->regime == HR_REGIME_DYNAMIC);
    if (pins) {
        double share = s->version >= HR_EST_VER(0, 19, 0) ? (m->os == HR_OS_WINDOWS ? 0.40 : 0.90)
                                                          : (m->os == HR_OS_WINDOWS ? 0.45 : 0.95);
        s->pin_cap = (double)m->ram_bytes * share;
    }

    /* The executor's cache. */
    s->cache = a->cache;
    if (a->high_ram)
        s->cache = HR_CACHE_CLASSIC;
    if (s->cache == HR_CACHE_DEFAULT)
        s->cache = s->version >= HR_EST_VER(0, 23, 0) ? HR_CACHE_RAM : HR_CACHE_CLASSIC;
    if (s->cache == HR_CACHE_RAM && s->version < HR_EST_VER(0, 3, 68))
        s->cache = HR_CACHE_CLASSIC;

    for (int i = 0; i < s->in->model_count; i++) {
        const hr_est_model *mod = &s->in->model[i];
        hr_est_msim *x = &s->ms[i];
        memset(x, 0, sizeof *x);
        x->mem = (double)hr_est_model_bytes(mod, m, a);
        /* DynamicVRAM as first released (0.12) recorded a VAE's dtype for its casts before
         * vae_dtype() was applied, so it staged the VAE at the dtype it was built in, fp32; PR
         * 12388 (merged 2026-02-10, 0.13 assumed) records it after the cast. */
        if (mod->kind == HR_EST_VAE && s->regime == HR_REGIME_DYNAMIC && s->version < HR_EST_VER(0, 13, 0) &&
            mod->format != HR_FMT_GGUF && mod->file_dtype_bytes > 0 && !mod->fp8_scaled)
            x->mem = hr_est_model_params(mod) * 4;
        x->first_use = -1;
        x->last_use = -1;
        x->cpu_only = mod->cpu_device || (mod->kind == HR_EST_TEXT_ENCODER && s->regime == HR_REGIME_LEGACY &&
                                          (s->vs == HR_VS_LOW_VRAM || s->vs == HR_VS_NO_VRAM));
    }
    for (int o = 0; o < s->in->op_count; o++) {
        const hr_est_op *op = &s->in->op[o];
        for (int k = 0; k < op->model_count; k++) {
            int i = op->models[k];
            if (i < 0 || i >= s->in->model_count)
                continue;
            if (s->ms[i].first_use < 0)
                s->ms[i].first_use = o;
            s->ms[i].last_use = o;
        }
    }
    /* a LoRA keeps its target alive as long as the patched clone is used: same last use */
}

static bool legacy_like(const hr_est_sim *s)
{
    return s->regime == HR_REGIME_LEGACY;
}

/* Private RAM held by weights: legacy and CPU keep the part not in VRAM; DynamicVRAM maps the
 * files (page cache) and only pins are private. LoRA backups keep the original of each
 * patched weight that sits in VRAM. */
static double weights_ram(const hr_est_sim *s, double *pinned_out)
{
    double v = 0, pinned = 0;
    for (int i = 0; i < s->in->model_count; i++) {
        const hr_est_msim *x = &s->ms[i];
        if (!x->alive)
            continue;
        if (s->regime == HR_REGIME_DYNAMIC) {
            v += x->pinned;
        } else {
            v += hr_est_max(0, x->mem - x->resident);
            if (legacy_like(s))
                v += x->resident * x->lora_cov;
        }
        pinned += x->pinned;
    }
    if (pinned_out)
        *pinned_out = pinned;
    return v;
}

double hr_est_ram_now(const hr_est_sim *s, double *pinned)
{
    return s->p.baseline_ram + weights_ram(s, pinned) + s->outputs + s->transient_ram;
}

/* The process now: private RAM, VRAM and commit. */
void hr_est_tiers_now(const hr_est_sim *s, double *ram, double *vram, double *commit, double *pinned, double *spill)
{
    *ram = hr_est_ram_now(s, pinned);
    *vram = s->p.cuda_ctx + hr_est_sum_resident(s) + s->outputs_vram + s->act_vram + s->buffer_vram;
    if (s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED || s->vram_total <= 0)
        *vram = 0;
    /* What the card cannot hold, NVIDIA's Windows driver (536+) backs with system memory: RAM
     * the process commits, whatever the WDDM rule below says of the VRAM itself. */
    double card = s->vram_total - s->vram_other;
    *spill = s->sysmem_fallback && *vram > card ? *vram - card : 0;
    *ram += *spill;
    *commit = *ram + s->transient_commit;
    if (s->m->os == HR_OS_WINDOWS) {
        *commit += s->p.win_commit_extra;
        if (s->p.wddm_commit)
            *commit += *vram - *spill;
    }
}
