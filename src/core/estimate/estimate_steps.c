/* headroom — estimate: the workflow's steps in ComfyUI's order — loaders, text encoders,
 * samplers, the VAE with its tiled fallback, upscalers, LoRAs — each moving the simulated
 * process, the executor's cache between them, and each step's memory recorded (rule
 * X.comfymem, docs/memory-model.md). */
#include "core/estimate/estimate_steps.h"

#include "core/estimate/estimate_loads.h"
#include "core/estimate/estimate_regime.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint32_t at_least(uint32_t v, uint32_t lo)
{
    return v > lo ? v : lo;
}

/* A note on step opi, said where the report is shown (hr_est_step_note_text joins a step's). */
static void set_note(hr_est_sim *s, int opi, const char *fmt, ...) HR_PRINTF(3, 4);
static void set_note(hr_est_sim *s, int opi, const char *fmt, ...)
{
    if (!s->out || opi >= s->out->step_count + 1 || s->out->step_note_count >= HR_EST_MAX_STEP_NOTES)
        return;
    hr_est_step_note *n = &s->out->step_note[s->out->step_note_count++];
    n->step = opi;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&n->msg, fmt, ap);
    va_end(ap);
}

static hr_est_arch op_arch(const hr_est_sim *s, const hr_est_op *op)
{
    if (op->arch != HR_ARCH_UNKNOWN)
        return op->arch;
    for (int k = 0; k < op->model_count; k++) {
        int i = op->models[k];
        if (i >= 0 && i < s->in->model_count && s->in->model[i].arch != HR_ARCH_UNKNOWN)
            return s->in->model[i].arch;
    }
    return HR_ARCH_UNKNOWN;
}

static void need_vram(hr_est_sim *s, double need, int opi)
{
    double card = s->vram_total - s->p.cuda_ctx - s->vram_other;
    if (s->sysmem_fallback) {
        /* no CUDA out-of-memory: the driver places the overflow in system memory */
        if (need > card && need - card > s->spill_need) {
            s->spill_need = need - card;
            s->spill_op = opi;
        }
        return;
    }
    if (need > card && need - card > s->oom_need) {
        s->oom_need = need - card;
        s->oom_op = opi;
    }
}

/* Where ComfyUI builds a model's weights at load in the legacy regime: true for the GPU
 * (docs/memory-model.md §2, "where weights are built"). ComfyUI reads free VRAM and free RAM
 * before the model exists, so its own size is not taken off free RAM. */
static bool built_on_gpu(const hr_est_sim *s, int i)
{
    const hr_est_model *mod = &s->in->model[i];
    const hr_est_msim *x = &s->ms[i];
    double free_v = hr_est_vram_free(s);
    double own = x->alive ? hr_est_max(0, x->mem - x->resident) : 0; /* hr_est_ram_now() counts it once alive */
    double free_ram = (double)s->m->ram_bytes - (hr_est_ram_now(s, NULL) - own);
    if (mod->kind == HR_EST_DIFFUSION) {
        /* --highvram: a checkpoint's initial device and UNETLoader's offload device are the GPU */
        if (s->vs == HR_VS_HIGH_VRAM)
            return true;
        /* UNETLoader builds on the CPU; only a checkpoint's model asks unet_inital_load_device(),
         * which says CPU under --disable-smart-memory, and under --novram from 0.3.37 */
        if (!mod->checkpoint || s->a->disable_smart_memory ||
            (s->vs == HR_VS_NO_VRAM && s->version >= HR_EST_VER(0, 3, 37)))
            return false;
        return free_v > free_ram && x->mem < free_v;
    }
    if (mod->kind == HR_EST_TEXT_ENCODER && !x->cpu_only) {
        if (s->a->gpu_only)
            return true;
        /* text_encoder_initial_device() */
        return x->mem > HR_EST_GIBD && free_v > free_ram * 0.5 && x->mem * 1.2 < free_v;
    }
    return false;
}

static void op_load(hr_est_sim *s, const hr_est_op *op, int opi)
{
    for (int k = 0; k < op->model_count; k++) {
        int i = op->models[k];
        const hr_est_model *mod = &s->in->model[i];
        hr_est_msim *x = &s->ms[i];
        x->alive = true;
        if (mod->kind == HR_EST_LORA) {
            hr_est_touch(s, i);
            if (mod->format == HR_FMT_PICKLE || s->a->disable_mmap)
                s->transient_ram += (double)mod->file_bytes; /* kept in the node's cache */
            continue;
        }
        if (s->regime == HR_REGIME_DYNAMIC) {
            /* zero-copy mmap views: nothing private until weights are pinned */
            continue;
        }
        hr_est_touch(s, i);
        if (mod->format == HR_FMT_PICKLE || s->a->disable_mmap)
            s->transient_ram += (double)mod->file_bytes; /* the whole file copied while building */
        else if (s->regime == HR_REGIME_LEGACY && mod->format == HR_FMT_SAFETENSORS && s->m->os == HR_OS_WINDOWS &&
                 s->p.cow_view_commit)
            /* safetensors maps the file through torch's copy-on-write view (PAGE_WRITECOPY,
             * FILE_MAP_COPY), which Windows charges to commit in full while the state dict is
             * alive: the whole loader step, next to the model being built from it. */
            s->transient_commit += (double)mod->file_bytes;
        if (s->regime != HR_REGIME_LEGACY)
            continue;
        if (built_on_gpu(s, i)) {
            int one = i;
            hr_est_load_models_gpu(s, &one, 1, 0, -1, true, op);
            set_note(s, opi, HR_N("%s built directly in VRAM"), mod->name);
            need_vram(s, hr_est_sum_resident(s), opi);
        }
    }
}

static void op_text(hr_est_sim *s, const hr_est_op *op, int opi)
{
    if (op->model_count < 1)
        return;
    int idx[4], n = 0;
    bool cpu = s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED;
    for (int k = 0; k < op->model_count && n < 4; k++) {
        idx[n++] = op->models[k];
        if (s->ms[op->models[k]].cpu_only)
            cpu = true;
    }
    if (cpu) {
        for (int k = 0; k < n; k++)
            hr_est_touch(s, idx[k]);
        s->transient_ram += 0.5 * HR_EST_GIBD; /* the encoder's activations on the CPU */
        set_note(s, opi, HR_N("text encoder runs on the CPU"));
        return;
    }
    hr_est_load_models_gpu(s, idx, n, 0, -1, s->a->gpu_only, op);
    s->act_vram = 0.3 * HR_EST_GIBD * s->p.act_scale;
}

static void op_sample(hr_est_sim *s, const hr_est_op *op, int opi)
{
    hr_est_arch arch = op_arch(s, op);
    bool flash = hr_est_attention_flash(s->m, s->a);
    double one = (double)hr_est_sampling_bytes_at(arch, &op->geom, 1, s->version, flash);
    double two = op->cfg ? (double)hr_est_sampling_bytes_at(arch, &op->geom, 2, s->version, flash) : one;
    int idx[4], n = 0;
    for (int k = 0; k < op->model_count && n < 4; k++)
        idx[n++] = op->models[k];
    if (s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED) {
        for (int k = 0; k < n; k++)
            hr_est_touch(s, idx[k]);
        s->transient_ram += two * s->p.act_scale;
    } else {
        double act;
        if (s->regime == HR_REGIME_DYNAMIC) {
            /* activations win over weights: the weights get what the step leaves */
            double card = s->vram_total - s->p.cuda_ctx - s->vram_other - s->outputs_vram;
            act = (op->cfg && two * 1.5 < card) ? two : one;
            hr_est_load_models_gpu(s, idx, n, act * s->p.act_scale, -1, false, op);
        } else {
            /* estimate_memory() in sampler_helpers.py asks load_models_gpu() to free for the
             * doubled batch whether or not cfg runs the uncond pass */
            double asked = (double)hr_est_sampling_bytes_at(arch, &op->geom, 2, s->version, flash);
            hr_est_load_models_gpu(s, idx, n, asked, one, s->vs == HR_VS_HIGH_VRAM, op);
            /* cond and uncond run together when 1.5x the estimate is free (samplers.py) */
            act = (op->cfg && two * 1.5 < hr_est_vram_free(s)) ? two : one;
        }
        s->act_vram = act * s->p.act_scale;
        need_vram(s, one * s->p.act_scale + (s->vs == HR_VS_HIGH_VRAM ? hr_est_sum_resident(s) : 0), opi);
    }
    s->outputs += hr_est_latent_bytes(arch, &op->geom) * (s->a->fp16_intermediates ? 0.5 : 1.0);
}

static double vae_bytes(hr_est_arch arch, const hr_est_geom *g, int d, bool amd, bool decode)
{
    return decode ? (double)hr_est_vae_decode_bytes(arch, g, d, amd) : (double)hr_est_vae_encode_bytes(arch, g, d, amd);
}

/* The memory of the tiled path ComfyUI falls back to when the regular decode (encode) runs out
 * of VRAM (comfy/sd.py, VAE.decode / encode, the except branch): an image VAE decodes 64 x 64
 * latent tiles (512 px); a video VAE 256 px tiles over all the frames. From PR 15499 (merged
 * 2026-08-11, 0.34.0 assumed) a video decode reserves as much as the regular one would, at most
 * 80 % of the card, and sizes its tiles to fill that: the frames halve until one tile fits, then
 * the tile doubles while it still fits. *budget is what it asks load_models_gpu to free. */
static double fallback_tiled_bytes(const hr_est_sim *s, hr_est_arch arch, const hr_est_geom *g, int d, bool amd,
                                   bool decode, double full, double *budget)
{
    const hr_est_arch_info *ai = hr_est_arch_info_of(arch);
    hr_est_geom t = *g;
    t.batch = 1;
    *budget = 0;
    if (!ai->tdown) {
        t.width = t.width < 512 ? t.width : 512;
        t.height = t.height < 512 ? t.height : 512;
        return vae_bytes(arch, &t, d, amd, decode);
    }
    uint32_t tile = 256 / (uint32_t)ai->down; /* in latent pixels */
    uint32_t lw = at_least(g->width, 1) / (uint32_t)ai->down, lh = at_least(g->height, 1) / (uint32_t)ai->down;
    uint32_t lt = (at_least(g->frames, 1) - 1) / (uint32_t)ai->tdown + 1;
    if (!decode || s->version < HR_EST_VER(0, 34, 0)) {
        t.width = t.width < 256 ? t.width : 256;
        t.height = t.height < 256 ? t.height : 256;
        return vae_bytes(arch, &t, d, amd, decode);
    }
    *budget = hr_est_min(full, 0.8 * s->vram_total);
#define TILE_EST(tt, txy)                                                                                              \
    (t.frames = ((tt)-1) * (uint32_t)ai->tdown + 1, t.width = ((txy) < lw ? (txy) : lw) * (uint32_t)ai->down,          \
     t.height = ((txy) < lh ? (txy) : lh) * (uint32_t)ai->down, vae_bytes(arch, &t, d, amd, true))
    uint32_t tt = lt;
    while (tt > 2 && TILE_EST(tt, tile) > *budget)
        tt = (tt + 1) / 2;
    uint32_t big = lw > lh ? lw : lh;
    while (tile * 2 <= big && TILE_EST(tt, tile * 2) <= *budget)
        tile *= 2;
    return TILE_EST(tt, tile);
#undef TILE_EST
}

static void op_vae(hr_est_sim *s, const hr_est_op *op, int opi, bool decode)
{
    if (op->model_count < 1)
        return;
    int i = op->models[0];
    hr_est_arch arch = op_arch(s, op);
    bool amd = s->m->vendor == HR_GPU_AMD && s->version >= HR_EST_VER(0, 3, 60);
    int d = hr_est_vae_dtype_bytes(arch, s->m, s->a);
    double full = decode ? (double)hr_est_vae_decode_bytes(arch, &op->geom, d, amd)
                         : (double)hr_est_vae_encode_bytes(arch, &op->geom, d, amd);
    hr_est_geom tile = op->geom;
    const hr_est_arch_info *ai = hr_est_arch_info_of(arch);
    uint32_t tpx = op->tile_px ? op->tile_px : (ai->tdown ? 256 : 512);
    tile.width = tile.width < tpx ? tile.width : tpx;
    tile.height = tile.height < tpx ? tile.height : tpx;
    if (ai->tdown) {
        uint32_t tf = op->tile_frames ? op->tile_frames : 64;
        tile.frames = tile.frames < tf ? tile.frames : tf;
    }
    tile.batch = 1;
    double budget = 0; /* what the fallback asks load_models_gpu to free (0.34+ video decode) */
    double tiled = op->tiled ? vae_bytes(arch, &tile, d, amd, decode)
                             : fallback_tiled_bytes(s, arch, &op->geom, d, amd, decode, full, &budget);
    double work = op->tiled ? hr_est_min(full, tiled) : full;
    double img = (double)(op->geom.width ? op->geom.width : 1) * (op->geom.height ? op->geom.height : 1) *
                 (op->geom.frames ? op->geom.frames : 1) * (op->geom.batch ? op->geom.batch : 1) * 3 * 4;
    if (s->a->fp16_intermediates)
        img *= 0.5;
    if (s->a->cpu_vae || s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED) {
        hr_est_touch(s, i);
        s->transient_ram += work;
    } else {
        /* ComfyUI (comfy/sd.py VAE.decode / encode) loads the VAE for one sample's memory_used,
         * then runs batch_number = max(1, int(free / memory_used)) samples at a time: a batch
         * decodes whole when free VRAM holds it, else in chunks (docs/memory-model.md). */
        hr_est_load_models_gpu(s, &i, 1, work, -1, false, op);
        double free_v = hr_est_vram_free(s);
        int batch = op->geom.batch > 1 ? (int)op->geom.batch : 1;
        if (!op->tiled && batch > 1 && work > 0) {
            double fit = (free_v - s->reserve) / work; /* what the card really has free */
            int chunk = fit >= batch ? batch : fit >= 1 ? (int)fit : 1;
            if (chunk < batch)
                set_note(s, opi,
                         decode ? HR_N("decodes %d of %d at a time (what free VRAM holds)")
                                : HR_N("encodes %d of %d at a time (what free VRAM holds)"),
                         chunk, batch);
            work *= chunk;
            full *= chunk;
        }
        if (!op->tiled && work > free_v - s->reserve) {
            /* ComfyUI catches the OOM, logs "Ran out of memory when regular VAE decoding,
             * retrying with tiled VAE decoding" and runs the tiled path (sd.py) */
            if (budget > 0)
                hr_est_load_models_gpu(s, &i, 1, budget, -1, false, op);
            hr_est_free_memory(s, 1e30, (bool[HR_EST_MAX_MODELS]){ 0 });
            if (s->ms[i].resident < s->ms[i].mem)
                s->ms[i].resident = s->ms[i].mem;
            if (full - (hr_est_vram_free(s) - s->reserve) > s->tiled_need) {
                s->tiled_need = full - (hr_est_vram_free(s) - s->reserve);
                s->tiled_op = opi;
                s->tiled_bytes = tiled;
            }
            work = tiled;
            char b[32];
            hr_size_gb(hr_est_u64(tiled), b, sizeof b);
            set_note(s, opi,
                     decode ? HR_N("out of VRAM: ComfyUI retries it as a tiled decode, which needs %s")
                            : HR_N("out of VRAM: ComfyUI retries it as a tiled encode, which needs %s"),
                     b);
        }
        s->act_vram = work * s->p.act_scale;
        need_vram(s, tiled * s->p.act_scale + s->ms[i].mem, opi);
    }
    if (decode) {
        if (s->a->gpu_only)
            s->outputs_vram += img;
        else
            s->outputs += img;
    } else {
        s->outputs += hr_est_latent_bytes(arch, &op->geom);
    }
}

static void op_upscale(hr_est_sim *s, const hr_est_op *op, int opi)
{
    double scale = op->scale;
    int i = op->model_count ? op->models[0] : -1;
    if (i >= 0 && scale <= 0)
        scale = s->in->model[i].scale;
    if (scale <= 0)
        scale = 4;
    double in_img = (double)(op->geom.width ? op->geom.width : 1) * (op->geom.height ? op->geom.height : 1) *
                    (op->geom.frames ? op->geom.frames : 1) * (op->geom.batch ? op->geom.batch : 1) * 3 * 4;
    double out_img = in_img * scale * scale;
    if (s->a->fp16_intermediates) {
        in_img *= 0.5;
        out_img *= 0.5;
    }
    if (op->kind == HR_OP_UPSCALE_MODEL && i >= 0) {
        double work = 512.0 * 512 * 3 * 4 * hr_est_max(scale, 1) * 384 + in_img;
        if (s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED) {
            s->transient_ram += work;
        } else {
            hr_est_free_memory(s, s->ms[i].mem + work, NULL);
            /* the upscaler is moved in and out by the node itself, not the model manager */
            s->act_vram =
                s->ms[i].mem + hr_est_min(work, hr_est_max(0, hr_est_vram_free(s) - s->ms[i].mem)) * s->p.act_scale;
            need_vram(s, s->ms[i].mem + 128.0 * 128 * 3 * 4 * hr_est_max(scale, 1) * 384 / 16, opi);
        }
        hr_est_touch(s, i);
        s->transient_ram += (double)s->in->model[i].file_bytes; /* .pth read into RAM */
    }
    s->outputs += out_img;
}

static void op_lora(hr_est_sim *s, const hr_est_op *op)
{
    if (op->model_count < 2)
        return;
    const hr_est_model *lora = &s->in->model[op->models[0]];
    for (int k = 1; k < op->model_count; k++) {
        int t = op->models[k];
        double cov =
            lora->lora_coverage > 0 ? lora->lora_coverage : hr_est_arch_info_of(s->in->model[t].arch)->lora_coverage;
        cov *= s->p.lora_scale;
        s->ms[t].lora_cov = hr_est_min(1.0, hr_est_max(s->ms[t].lora_cov, cov));
    }
}

/* RAM-pressure cache (0.23+ default, --cache-ram) and --cache-none: models no longer needed
 * are dropped; classic keeps every output of the prompt to its end. */
static void release(hr_est_sim *s, int opi)
{
    double ram = (double)s->m->ram_bytes;
    double headroom = hr_est_min(10 * HR_EST_GIBD, hr_est_max(2 * HR_EST_GIBD, ram * 0.10));
    for (int i = 0; i < s->in->model_count; i++) {
        hr_est_msim *x = &s->ms[i];
        if (!x->alive || x->last_use >= opi)
            continue;
        bool drop = s->cache == HR_CACHE_NONE;
        if (s->cache == HR_CACHE_RAM && ram - hr_est_ram_now(s, NULL) < headroom)
            drop = true;
        if (drop) {
            x->alive = false;
            x->resident = 0;
            x->pinned = 0;
            x->loaded = false;
        }
    }
}

static double page_cache_now(const hr_est_sim *s, double ram_private)
{
    double v = 0;
    for (int i = 0; i < s->in->model_count; i++)
        if (s->ms[i].touched)
            v += (double)s->in->model[i].file_bytes;
    double room = (double)s->m->ram_bytes - ram_private;
    return hr_est_min(v, hr_est_max(0, room));
}

static void record(hr_est_sim *s, const hr_est_op *op, int opi)
{
    double pinned = 0, ram, vram, commit, spill;
    hr_est_tiers_now(s, &ram, &vram, &commit, &pinned, &spill);
    if (spill > s->spill_need) {
        s->spill_need = spill;
        s->spill_op = opi;
    }
    double cache = page_cache_now(s, ram);
    ram = hr_est_max(ram, s->inst_ram);
    commit = hr_est_max(commit, s->inst_commit);
    if (vram > s->peak_vram) {
        s->peak_vram = vram;
        s->peak_vram_op = opi;
    }
    if (ram > s->peak_ram) {
        s->peak_ram = ram;
        s->peak_ram_op = opi;
    }
    if (commit > s->peak_commit) {
        s->peak_commit = commit;
        s->peak_commit_op = opi;
    }
    s->peak_cache = hr_est_max(s->peak_cache, cache);
    s->peak_pinned = hr_est_max(s->peak_pinned, pinned);
    if (!s->out)
        return;
    hr_est_step *st = &s->out->step[opi];
    hr_strlcpy(st->node_id, op->node_id, sizeof st->node_id);
    hr_strlcpy(st->class_type, op->class_type, sizeof st->class_type);
    st->kind = op->kind;
    st->vram_bytes = hr_est_u64(vram);
    st->ram_bytes = hr_est_u64(ram);
    st->pinned_bytes = hr_est_u64(pinned);
    st->page_cache_bytes = hr_est_u64(cache);
    st->commit_bytes = hr_est_u64(commit);
}

void hr_est_sim_run(hr_est_sim *s)
{
    hr_est_sim_setup(s);
    for (int o = 0; o < s->in->op_count; o++) {
        const hr_est_op *op = &s->in->op[o];
        if (s->out)
            s->out->step_count = o + 1;
        s->transient_ram = 0;
        s->transient_commit = 0;
        s->act_vram = 0;
        s->buffer_vram = 0;
        s->inst_ram = s->inst_commit = 0;
        release(s, o);
        switch (op->kind) {
        case HR_OP_LOAD: op_load(s, op, o); break;
        case HR_OP_ENCODE_TEXT:
        case HR_OP_ENCODE_VISION: op_text(s, op, o); break;
        case HR_OP_SAMPLE: op_sample(s, op, o); break;
        case HR_OP_VAE_DECODE: op_vae(s, op, o, true); break;
        case HR_OP_VAE_ENCODE: op_vae(s, op, o, false); break;
        case HR_OP_UPSCALE_MODEL:
        case HR_OP_IMAGE_SCALE: op_upscale(s, op, o); break;
        case HR_OP_LORA: op_lora(s, op); break;
        case HR_OP_OTHER:
        default: break;
        }
        record(s, op, o);
    }
}
