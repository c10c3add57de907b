/* headroom — estimate: ComfyUI's model manager — load_models_gpu() and its budget, partial
 * loads and the offload cast buffer, eviction (free_memory()), pinned memory — in the regime
 * the run is in (rule X.comfymem, docs/memory-model.md). */
#include "core/estimate/estimate_loads.h"

#include "core/estimate/estimate_regime.h"

#include "core/base/text.h"

#include <string.h>

static void unload_full(hr_est_sim *s, int i)
{
    s->ms[i].resident = 0;
    s->ms[i].pinned = s->regime == HR_REGIME_DYNAMIC ? s->ms[i].pinned : 0;
    s->ms[i].loaded = false;
}

/* Evict models not in keep[] until `required` bytes of VRAM are free. Order: the most
 * offloaded first, then the smallest (ComfyUI sorts (-offloaded, refcount, size)). Smart
 * memory unloads only what is needed; --disable-smart-memory unloads whole models. */
void hr_est_free_memory(hr_est_sim *s, double required, const bool *keep)
{
    for (;;) {
        if (hr_est_vram_free(s) >= required && !s->a->disable_smart_memory)
            return;
        int best = -1;
        double best_off = 0, best_mem = 0;
        for (int i = 0; i < s->in->model_count; i++) {
            const hr_est_msim *x = &s->ms[i];
            if (!x->alive || !x->loaded || x->resident <= 0 || (keep && keep[i]))
                continue;
            /* --highvram: a diffusion model's offload device is the GPU; --gpu-only: all */
            if ((s->vs == HR_VS_HIGH_VRAM && s->in->model[i].kind == HR_EST_DIFFUSION) || s->a->gpu_only)
                continue;
            double off = x->mem - x->resident;
            if (best < 0 || off > best_off || (off == best_off && x->mem < best_mem)) {
                best = i;
                best_off = off;
                best_mem = x->mem;
            }
        }
        if (best < 0)
            return;
        double need = required - hr_est_vram_free(s);
        hr_est_msim *x = &s->ms[best];
        if (!s->a->disable_smart_memory && need < x->resident) {
            x->resident -= need; /* partially_unload(): back to RAM, module by module */
            return;
        }
        unload_full(s, best);
    }
}

/* NUM_STREAMS (comfy/model_management.py, 0.3.76+): --disable-async-offload 0, else
 * --async-offload N, else 2 on NVIDIA, and on AMD from 0.7.0 (PR 11534); 0 elsewhere. */
static int num_streams(const hr_est_sim *s)
{
    if (s->a->disable_async_offload)
        return 0;
    if (s->a->async_offload_given)
        return s->a->async_offload_streams;
    if (s->m->vendor == HR_GPU_NVIDIA || (s->m->vendor == HR_GPU_AMD && s->version >= HR_EST_VER(0, 7, 0)))
        return 2;
    return 0;
}

static void add_load(hr_est_sim *s, int i, const hr_est_op *op, bool dynamic, double usable, double loaded,
                     double buffer)
{
    if (!s->out || s->out->load_count >= HR_EST_MAX_LOADS)
        return;
    /* ComfyUI logs a load only when something moved: the same model at the same residency
     * again (a second CLIPTextEncode) prints nothing */
    for (int k = s->out->load_count - 1; k >= 0; k--) {
        const hr_est_load *p = &s->out->load[k];
        if (strcmp(p->model, s->in->model[i].name) != 0)
            continue;
        if (p->loaded_bytes == hr_est_u64(loaded) && p->dynamic == dynamic)
            return;
        break;
    }
    hr_est_load *l = &s->out->load[s->out->load_count++];
    memset(l, 0, sizeof *l);
    hr_strlcpy(l->model, s->in->model[i].name, sizeof l->model);
    hr_strlcpy(l->node_id, op->node_id, sizeof l->node_id);
    l->dynamic = dynamic;
    l->usable_vram_bytes = hr_est_u64(usable);
    l->loaded_bytes = hr_est_u64(loaded);
    l->offloaded_bytes = hr_est_u64(s->ms[i].mem - loaded);
    l->partial = l->offloaded_bytes > 0;
    l->buffer_bytes = hr_est_u64(buffer);
    l->staged_bytes = dynamic ? hr_est_u64(s->ms[i].mem) : 0;
}

/* Pins for the part of model i that is not in VRAM, within the cap of this version. */
static void pin(hr_est_sim *s, int i)
{
    hr_est_msim *x = &s->ms[i];
    double want = hr_est_max(0, x->mem - x->resident);
    if (s->pin_cap <= 0 || (s->regime != HR_REGIME_DYNAMIC && s->regime != HR_REGIME_LEGACY)) {
        x->pinned = 0;
        return;
    }
    double others = 0;
    for (int j = 0; j < s->in->model_count; j++)
        if (j != i && s->ms[j].alive)
            others += s->ms[j].pinned;
    double room = s->pin_cap - others;
    if (s->regime == HR_REGIME_DYNAMIC && s->version >= HR_EST_VER(0, 23, 0) && !s->a->fast_disk && !s->a->high_ram) {
        /* 0.23+: pins grow while available RAM stays above max(active headroom / 2, 2 GiB) */
        double ram = (double)s->m->ram_bytes;
        double headroom = hr_est_min(10 * HR_EST_GIBD, hr_est_max(2 * HR_EST_GIBD, ram * 0.10));
        double used = hr_est_ram_now(s, NULL) - x->pinned;
        double avail_room = ram - used - hr_est_max(headroom / 2, 2 * HR_EST_GIBD);
        room = hr_est_min(room, avail_room);
    }
    if (s->a->high_ram)
        room = want;
    x->pinned = hr_est_max(0, hr_est_min(want, room));
}

/* An instant inside a step that its end state does not show (a model evicted to RAM before
 * the next one moves out of it): kept for the step's peak. */
static void mark_instant(hr_est_sim *s)
{
    double ram, vram, commit, pinned = 0, spill;
    hr_est_tiers_now(s, &ram, &vram, &commit, &pinned, &spill);
    s->inst_ram = hr_est_max(s->inst_ram, ram);
    s->inst_commit = hr_est_max(s->inst_commit, commit);
}

/* load_models_gpu(): make room, then load each model fully or up to its budget. */
void hr_est_load_models_gpu(hr_est_sim *s, const int *idx, int n, double mem_req, double min_req, bool force_full,
                            const hr_est_op *op)
{
    bool keep[HR_EST_MAX_MODELS] = { 0 };
    for (int k = 0; k < n; k++)
        keep[idx[k]] = true;
    double inf = 0.8 * HR_EST_GIBD + s->reserve;

    if (s->regime == HR_REGIME_DYNAMIC) {
        /* GGUF models come through ComfyUI-GGUF's GGUFModelPatcher, a ModelPatcher that is not
         * ModelPatcherDynamic: under DynamicVRAM they still load by the legacy rules and write
         * the legacy lines, while the other models are staged (ComfyUI #13953; ComfyUI-GGUF PR
         * 427, which would change it, is not merged). */
        int legacy[4], nl = 0, dyn[4], nd = 0;
        for (int k = 0; k < n && k < 4; k++) {
            if (s->in->model[idx[k]].format == HR_FMT_GGUF)
                legacy[nl++] = idx[k];
            else
                dyn[nd++] = idx[k];
        }
        if (nl > 0) {
            s->regime = HR_REGIME_LEGACY;
            s->nested_legacy = true;
            hr_est_load_models_gpu(s, legacy, nl, mem_req, min_req, force_full, op);
            s->nested_legacy = false;
            s->regime = HR_REGIME_DYNAMIC;
            for (int k = 0; k < nl; k++)
                s->ms[legacy[k]].pinned = 0; /* its offloaded weights stay the mapped file's pages */
        }
        idx = dyn;
        n = nd;
        /* Weights fault into whatever VRAM the activations leave; other models' weights give
         * way (they are file-backed: nothing comes back into private RAM). */
        double headroom = s->a->vram_headroom_given ? (double)s->a->vram_headroom_bytes : 0;
        double avail =
            s->vram_total - s->p.cuda_ctx - s->vram_other - s->outputs_vram - mem_req - s->reserve - headroom;
        for (int k = 0; k < n; k++) {
            int i = idx[k];
            hr_est_msim *x = &s->ms[i];
            double others = 0;
            for (int j = 0; j < s->in->model_count; j++)
                if (!keep[j] && s->ms[j].alive)
                    others += s->ms[j].resident;
            double room = avail - others;
            if (room < x->mem) { /* evict others' weights, least needed first */
                double need = x->mem - room;
                for (int j = 0; j < s->in->model_count && need > 0; j++) {
                    if (keep[j] || !s->ms[j].alive || s->ms[j].resident <= 0)
                        continue;
                    double take = hr_est_min(need, s->ms[j].resident);
                    s->ms[j].resident -= take;
                    need -= take;
                }
                room = avail - (others - (x->mem - room - hr_est_max(0, need)));
            }
            x->resident = hr_est_max(0, hr_est_min(x->mem, room));
            x->loaded = true;
            hr_est_touch(s, i);
            pin(s, i);
            avail -= x->resident;
            add_load(s, i, op, true, hr_est_max(0, room), x->resident, 0);
        }
        return;
    }

    double extra = hr_est_max(inf, mem_req + s->reserve);
    double minimum = min_req < 0 ? extra : hr_est_max(inf, min_req + s->reserve);
    double total = 0;
    for (int k = 0; k < n; k++)
        total += s->ms[idx[k]].mem - s->ms[idx[k]].resident;
    double ram_before = hr_est_ram_now(s, NULL);
    hr_est_free_memory(s, total * 1.1 + extra, keep);
    if (hr_est_vram_free(s) < minimum)
        hr_est_free_memory(s, minimum, keep);
    /* load_models_gpu() evicts before it loads: what went back to RAM is there before the
     * new model's loaded part leaves it */
    if (!s->nested_legacy && hr_est_ram_now(s, NULL) > ram_before) /* staged models evict to their file, not RAM */
        mark_instant(s);

    for (int k = 0; k < n; k++) {
        int i = idx[k];
        hr_est_msim *x = &s->ms[i];
        hr_est_touch(s, i);
        x->loaded = true;
        double budget = 0; /* 0: full load */
        bool partial_ok =
            (s->vs == HR_VS_NORMAL_VRAM || s->vs == HR_VS_LOW_VRAM) && !force_full && s->m->vendor != HR_GPU_APPLE;
        if (partial_ok) {
            double loaded = x->resident;
            double cur = hr_est_vram_free(s) + loaded;
            double lv = hr_est_max(s->lv_floor, hr_est_max(cur - minimum, hr_est_min(cur * s->ratio, cur - inf)));
            lv -= loaded;
            budget = lv <= 0 ? 0.1 : lv;
        }
        if (s->vs == HR_VS_NO_VRAM)
            budget = 0.1;
        if (budget == 0) {
            x->resident = x->mem;
            add_load(s, i, op, false, hr_est_max(0, hr_est_vram_free(s) + x->mem), x->mem, 0);
            pin(s, i);
            continue;
        }
        double usable = budget + x->resident;
        double buffer = 0;
        double want = 0; /* the cast buffer of an offloading model: its modules', else a share */
        double np = hr_est_model_params(&s->in->model[i]);
        hr_est_cast cast = { num_streams(s), np > 0 ? x->mem / np : 0, 2, x->lora_cov > 0 };
        if (s->async_buffer) {
            want = hr_est_offload_buffer(&s->in->model[i], &s->offload, &cast);
            if (want < 0)
                want = x->mem * s->p.buffer_frac;
        }
        if (usable < x->mem) {
            double ld = 0;
            if (s->async_buffer &&
                hr_est_partial_load(&s->in->model[i], &s->offload, &cast, x->mem, usable, &ld, &want)) {
                buffer = want;
                x->resident = ld;
            } else {
                buffer = want; /* logged whole even when larger than usable (then nothing loads) */
                x->resident = hr_est_max(0, usable - buffer);
            }
        } else {
            x->resident = x->mem;
        }
        if (x->resident < x->mem)
            s->buffer_vram = hr_est_max(s->buffer_vram, want);
        add_load(s, i, op, false, usable, x->resident, buffer);
        pin(s, i);
    }
}
