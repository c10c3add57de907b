/* headroom — the workflow simulation: ComfyUI's memory manager, step by step (rule X.comfymem,
 * docs/memory-model.md). Every quantity is a double of bytes inside; the report holds bytes. */
#include "core/estimate/estimate_internal.h"
#include "core/model/run_need.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GIBD (1024.0 * 1024.0 * 1024.0)
#define MIBD (1024.0 * 1024.0)

/* The parameters the model is unsure of: one set per end of the range. */
typedef struct params {
    double baseline_ram;     /* Python + torch + CUDA libraries, private */
    double win_commit_extra; /* Windows: commit the DLLs and the CUDA runtime charge beyond RSS */
    double cuda_ctx;         /* VRAM the CUDA context takes before any tensor */
    double act_scale;        /* real activations against ComfyUI's estimate */
    double lora_scale;       /* LoRA coverage against the architecture's typical one */
    double buffer_frac;      /* offload cast buffer, share of the model */
    bool wddm_commit;        /* Windows: VRAM in use is charged to commit too */
    bool cow_view_commit;    /* Windows, legacy: a safetensors file's copy-on-write view is charged */
    bool ambiguous_on;       /* a default that changed between two releases, at the version
                               * string both sides carry: taken as on */
} params;

static const params P_MID = { 2.5 * GIBD, 2.0 * GIBD, 0.45 * GIBD, 1.0, 1.0, 0.03, true, true, true };
static const params P_LOW = { 1.5 * GIBD, 1.0 * GIBD, 0.30 * GIBD, 0.6, 0.5, 0.01, false, false, false };
static const params P_HIGH = { 4.0 * GIBD, 4.0 * GIBD, 0.60 * GIBD, 1.25, 1.2, 0.06, true, true, true };

typedef enum vram_state { VS_DISABLED, VS_NO_VRAM, VS_LOW_VRAM, VS_NORMAL_VRAM, VS_HIGH_VRAM, VS_SHARED } vram_state;

typedef struct msim {
    bool alive;
    bool loaded;     /* in ComfyUI's current_loaded_models */
    double mem;      /* in-memory bytes (dtype rules) */
    double resident; /* in VRAM */
    double pinned;
    double lora_cov; /* share of its weights patched by LoRAs (legacy backups) */
    int last_use;
    int first_use;
    bool touched;  /* its file pages were read */
    bool cpu_only; /* runs on the CPU (TE with --lowvram in legacy, device=cpu) */
} msim;

typedef struct sim {
    const hr_est_input *in;
    const hr_est_machine *m;
    const hr_comfy_args *a;
    params p;
    hr_estimate *out; /* NULL for a range run: only the peaks are kept */
    hr_est_regime regime;
    vram_state vs;
    double reserve; /* EXTRA_RESERVED_VRAM */
    double ratio;   /* MIN_WEIGHT_MEMORY_RATIO */
    double pin_cap; /* MAX_PINNED_MEMORY (0: none) */
    double vram_total;
    double vram_other;
    int cache;         /* effective hr_comfy_cache */
    double lv_floor;   /* the least lowvram budget: 64 MiB before 0.3.25, 128 MiB, none from 0.3.66 */
    bool async_buffer; /* 0.3.76+: offload cast buffer reserved */
    int version;       /* major*10000 + minor*100 + patch */
    msim ms[HR_EST_MAX_MODELS];
    double outputs;               /* cached LATENT / IMAGE tensors in RAM */
    double outputs_vram;          /* --gpu-only: they sit in VRAM */
    double transient_ram;         /* this step only */
    double transient_commit;      /* this step only: commit charged without RAM behind it */
    double act_vram;              /* this step only */
    double buffer_vram;           /* this step only */
    double inst_ram, inst_commit; /* this step only: the most at an instant inside it */
    bool nested_legacy;           /* a GGUF model loading by the legacy rules inside DynamicVRAM */
    double peak_vram, peak_ram, peak_commit, peak_cache, peak_pinned;
    int peak_vram_op, peak_ram_op, peak_commit_op;
    /* verdict facts */
    double oom_need; /* the most VRAM some step could not do without */
    int oom_op;
    double tiled_need;
    int tiled_op;
    double tiled_bytes;   /* the tiled path's working memory */
    bool sysmem_fallback; /* Windows, NVIDIA 536+: VRAM overflow goes to shared system memory */
    double spill_need;    /* the most VRAM spilled so */
    int spill_op;
    int step_note_op;
} sim;

static uint32_t at_least(uint32_t v, uint32_t lo)
{
    return v > lo ? v : lo;
}
static double dmax(double a, double b)
{
    return a > b ? a : b;
}
static double dmin(double a, double b)
{
    return a < b ? a : b;
}
static uint64_t u64(double v)
{
    return v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v;
}

static int version_num(const hr_est_machine *m)
{
    if (!m->version_known)
        return 2700; /* the newest read (0.27.0) */
    return m->version[0] * 10000 + m->version[1] * 100 + m->version[2];
}
#define V(a, b, c) ((a)*10000 + (b)*100 + (c))

void hr_est_machine_init(hr_est_machine *m)
{
    memset(m, 0, sizeof *m);
    m->os = HR_OS_LINUX;
    m->vendor = HR_GPU_NVIDIA;
    m->ram_bytes = 32 * HR_GIB;
    m->vram_bytes = 12 * HR_GIB;
    m->vram_other_bytes = HR_UNKNOWN;
    m->commit_limit_bytes = HR_UNKNOWN;
    m->swap_bytes = HR_UNKNOWN;
    m->others_commit_bytes = HR_UNKNOWN;
    m->fp8_compute = HR_TRI_UNKNOWN;
    m->ram_assumed = m->vram_assumed = m->vendor_assumed = true;
}

void hr_est_machine_from_snapshot(hr_est_machine *m, const hr_snapshot *s)
{
    m->os = s->platform.os;
    m->wsl = s->platform.wsl2 == HR_TRI_YES;
    if (s->ram.total_bytes != HR_UNKNOWN)
        m->ram_bytes = s->ram.total_bytes, m->ram_assumed = false;
    if (s->commit.limit_bytes != HR_UNKNOWN) {
        m->commit_limit_bytes = s->commit.limit_bytes;
        m->commit_enforced = s->commit.enforced == HR_TRI_YES || s->platform.os == HR_OS_WINDOWS;
    }
    m->others_commit_bytes = hr_run_others_now(s, s->platform.os);
    uint64_t swap = 0;
    bool swap_known = s->paging_s.ok;
    for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++)
        if (s->paging[i].kind != HR_PAGING_ZRAM && s->paging[i].size_bytes != HR_UNKNOWN)
            swap += s->paging[i].size_bytes;
    if (swap_known)
        m->swap_bytes = swap;
    const hr_gpu *best = NULL;
    for (int i = 0; i < s->gpus.count && i < HR_MAX_GPUS; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        if (g->integrated != HR_TRI_YES && g->vram_total_bytes != HR_UNKNOWN &&
            (!best || g->vram_total_bytes > best->vram_total_bytes))
            best = g;
    }
    if (best) {
        m->vram_bytes = best->vram_total_bytes;
        hr_strlcpy(m->gpu_name, best->name, sizeof m->gpu_name);
        unsigned maj = 0, min = 0;
        if (best->driver[0] && sscanf(best->driver, "%u.%u", &maj, &min) >= 1 && maj < 100000 && min < 100)
            m->nvidia_driver = (int)(maj * 100 + min);
        m->vram_assumed = false;
        hr_est_vendor v;
        if (hr_est_vendor_parse(best->vendor, &v))
            m->vendor = v, m->vendor_assumed = false;
    } else if (s->gpus.s.ok && s->gpus.count == 0) {
        m->vram_bytes = 0;
        m->vendor = HR_GPU_NONE;
        m->vram_assumed = m->vendor_assumed = false;
    }
}

/* ---- dtype rules (§2.7 of the reference; ComfyUI unet_dtype, text_encoder_dtype, vae_dtype) ---- */

static double max_vram_for_weights(const hr_est_machine *m, double reserve)
{
    return (double)m->vram_bytes * 0.88 - (0.8 * GIBD + reserve);
}

static double reserve_bytes(const hr_est_machine *m, const hr_comfy_args *a)
{
    if (a && a->reserve_vram_given)
        return (double)a->reserve_vram_bytes;
    if (m->os == HR_OS_WINDOWS)
        return (m->vram_bytes > 15 * HR_GIB ? 700.0 : 600.0) * MIBD;
    return 400.0 * MIBD;
}

/* X.serverneed */
uint64_t hr_est_server_bound(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a)
{
    if (m->ram_bytes == HR_UNKNOWN || m->ram_bytes == 0)
        return HR_UNKNOWN;
    uint64_t b = m->ram_bytes;
    if (m->vram_bytes != HR_UNKNOWN)
        b = hr_sat_add(b, m->vram_bytes);
    for (int i = 0; i < in->model_count && i < HR_EST_MAX_MODELS; i++)
        b = hr_sat_add(b, hr_est_model_bytes(&in->model[i], m, a));
    return b;
}

/* The bytes of the file ComfyUI builds a model from: less the tensors it leaves unloaded (a
 * text encoder's language-model head, 16 bits a weight). */
static double built_file_bytes(const hr_est_model *mod)
{
    double v = (double)mod->file_bytes - hr_est_unbuilt_params(mod) * 2;
    return v > 0 ? v : (double)mod->file_bytes;
}

/* Parameters built: the header's count, else the file's bytes over its dtype. */
static double model_params(const hr_est_model *mod)
{
    if (mod->params > 0) {
        double v = (double)mod->params - hr_est_unbuilt_params(mod);
        return v > 0 ? v : (double)mod->params;
    }
    return mod->file_dtype_bytes > 0 ? built_file_bytes(mod) / mod->file_dtype_bytes : built_file_bytes(mod);
}

/* The card's fast 16-bit types, from its name (ComfyUI's should_use_bf16 / should_use_fp16 read
 * the compute capability; the driver's name says the same generation). NVIDIA computes bf16 fast
 * from Ampere (SM 8); Turing and Volta (SM 7) fp16 only, except the GTX 16 series and its
 * workstation cousins, where ComfyUI calls fp16 broken; Pascal fp16 only on Windows; older cards
 * neither. AMD: fp16 always (ROCm), bf16 from RDNA3. A name not recognised counts as fast. */
static bool name_has(const char *name, const char *const *parts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hr_str_icontains(name, parts[i]))
            return true;
    return false;
}
#define HAS(name, list) name_has(name, list, sizeof list / sizeof list[0])

/* AMD RDNA2 and older (gfx103x, gfx101x, Vega, Polaris): no bf16, and no PyTorch attention. */
static bool amd_rdna2_or_older(const hr_est_machine *m)
{
    static const char *const rdna2_older[] = { "RX 6",       "RX 5",          "RX 4",         "Vega",
                                               "Radeon VII", "Radeon Pro W6", "Radeon Pro W5" };
    return m->vendor == HR_GPU_AMD && m->gpu_name[0] && HAS(m->gpu_name, rdna2_older);
}

/* ComfyUI turns PyTorch attention on for NVIDIA (torch 2), Intel and, on AMD, only for the
 * arches it lists (gfx90a, gfx942, gfx1100, gfx1101, gfx1151, later gfx1200/gfx1201 and
 * gfx950; comfy/model_management.py from 0.3.15 to 0.27): never for RDNA2 and older, which then
 * run sub-quadratic attention and reserve the larger memory_required(). A card whose name is not
 * known counts as listed; --use-split/quad-cross-attention and --use-pytorch-cross-attention
 * decide it. */
bool hr_est_attention_flash(const hr_est_machine *m, const hr_comfy_args *a)
{
    if (a && a->split_attention)
        return false;
    if (a && a->pytorch_attention)
        return true;
    return !amd_rdna2_or_older(m);
}

static void gpu_halves(const hr_est_machine *m, bool *bf16, bool *fp16)
{
    *bf16 = *fp16 = true;
    const char *n = m->gpu_name;
    if (!n[0])
        return;
    if (m->vendor == HR_GPU_NVIDIA) {
        static const char *const newer[] = { "Ada", "Blackwell", "Hopper", "RTX 2050" }; /* 2050: Ampere */
        static const char *const no_fp16[] = { "1660",  "1650",  "1630",     "T500",  "T550",  "T600",
                                               "MX550", "MX450", "CMP 30HX", "T2000", "T1000", "T1200" };
        static const char *const sm7[] = { "RTX 20", "TITAN RTX", "Quadro RTX", "Tesla T4", "V100", "TITAN V" };
        static const char *const sm6[] = { "GTX 10",   "GT 10",    "TITAN X", "P100", "P40",
                                           "Tesla P4", "Quadro P", "MX1",     "MX2",  "MX3" };
        static const char *const older[] = {
            "GTX 9", "GTX 7", "GTX TITAN", "Quadro M", "Quadro K", "Tesla M", "Tesla K"
        };
        if (HAS(n, newer))
            return;
        if (HAS(n, no_fp16))
            *bf16 = *fp16 = false;
        else if (HAS(n, sm7))
            *bf16 = false;
        else if (HAS(n, sm6))
            *bf16 = false, *fp16 = m->os == HR_OS_WINDOWS;
        else if (HAS(n, older))
            *bf16 = *fp16 = false;
    } else if (amd_rdna2_or_older(m)) {
        *bf16 = false;
    }
}

int hr_est_vae_dtype_bytes(hr_est_arch vae_arch, const hr_est_machine *m, const hr_comfy_args *a)
{
    if (a && a->vae_dtype_bytes)
        return a->vae_dtype_bytes;
    if ((a && (a->cpu || a->cpu_vae)) || m->vendor == HR_GPU_NONE)
        return 4;
    bool bf16, fp16;
    gpu_halves(m, &bf16, &fp16);
    /* working_dtypes: the 2-D KL VAEs (SD, SDXL, SD3, FLUX) list bf16 then fp32; the video VAEs
     * (Wan, HunyuanVideo, LTX) bf16, fp16, fp32 (comfy/sd.py) */
    hr_est_vae_kind k = hr_est_arch_info_of(vae_arch)->vae;
    bool lists_fp16 = k != HR_VAE_KL && k != HR_VAE_FLUX2;
    return bf16 || (lists_fp16 && fp16) ? 2 : 4;
}

uint64_t hr_est_model_bytes(const hr_est_model *mod, const hr_est_machine *m, const hr_comfy_args *a)
{
    int fd = mod->file_dtype_bytes;
    double np = model_params(mod);
    if (mod->format == HR_FMT_GGUF || fd == 0 || mod->fp8_scaled)
        return u64(built_file_bytes(mod)); /* kept as stored */
    bool cpu = (a && a->cpu) || m->vendor == HR_GPU_NONE;
    switch (mod->kind) {
    case HR_EST_DIFFUSION: {
        if (cpu)
            return u64(np * 4); /* should_use_fp16() is false on the CPU */
        if (a && a->unet_dtype_bytes)
            return u64(np * a->unet_dtype_bytes);
        if (mod->weight_dtype == HR_WDT_FP8)
            return u64(np * 1);
        if (fd == 1) {
            /* fp8 kept where the GPU computes in fp8, or where 16-bit would not fit the card */
            bool keep = m->fp8_compute != HR_TRI_NO || np * 2 > max_vram_for_weights(m, reserve_bytes(m, a));
            return u64(np * (keep ? 1 : 2));
        }
        return u64(np * 2);
    }
    case HR_EST_TEXT_ENCODER: {
        int want = a && a->te_dtype_bytes ? a->te_dtype_bytes : 2;
        return u64(np * (fd < want ? fd : want));
    }
    case HR_EST_VAE: return u64(np * hr_est_vae_dtype_bytes(mod->arch, m, a));
    case HR_EST_CLIP_VISION:
    case HR_EST_CONTROLNET: return u64(np * (fd < 2 ? fd : 2));
    case HR_EST_UPSCALER:
    case HR_EST_LORA:
    default: return mod->file_bytes;
    }
}

/* ---- state helpers ---- */

static double sum_resident(const sim *s)
{
    double v = 0;
    for (int i = 0; i < s->in->model_count; i++)
        if (s->ms[i].alive)
            v += s->ms[i].resident;
    return v;
}

static double vram_free(const sim *s)
{
    return s->vram_total - s->p.cuda_ctx - s->vram_other - sum_resident(s) - s->outputs_vram;
}

static bool legacy_like(const sim *s)
{
    return s->regime == HR_REGIME_LEGACY;
}

/* Private RAM held by weights: legacy and CPU keep the part not in VRAM; DynamicVRAM maps the
 * files (page cache) and only pins are private. LoRA backups keep the original of each
 * patched weight that sits in VRAM. */
static double weights_ram(const sim *s, double *pinned_out)
{
    double v = 0, pinned = 0;
    for (int i = 0; i < s->in->model_count; i++) {
        const msim *x = &s->ms[i];
        if (!x->alive)
            continue;
        if (s->regime == HR_REGIME_DYNAMIC) {
            v += x->pinned;
        } else {
            v += dmax(0, x->mem - x->resident);
            if (legacy_like(s))
                v += x->resident * x->lora_cov;
        }
        pinned += x->pinned;
    }
    if (pinned_out)
        *pinned_out = pinned;
    return v;
}

static double ram_now(const sim *s, double *pinned)
{
    return s->p.baseline_ram + weights_ram(s, pinned) + s->outputs + s->transient_ram;
}

static double page_cache_now(const sim *s, double ram_private)
{
    double v = 0;
    for (int i = 0; i < s->in->model_count; i++)
        if (s->ms[i].touched)
            v += (double)s->in->model[i].file_bytes;
    double room = (double)s->m->ram_bytes - ram_private;
    return dmin(v, dmax(0, room));
}

static void touch(sim *s, int i)
{
    s->ms[i].touched = true;
}

/* ---- eviction: free_memory() ---- */

static void unload_full(sim *s, int i)
{
    s->ms[i].resident = 0;
    s->ms[i].pinned = s->regime == HR_REGIME_DYNAMIC ? s->ms[i].pinned : 0;
    s->ms[i].loaded = false;
}

/* Evict models not in keep[] until `required` bytes of VRAM are free. Order: the most
 * offloaded first, then the smallest (ComfyUI sorts (-offloaded, refcount, size)). Smart
 * memory unloads only what is needed; --disable-smart-memory unloads whole models. */
static void free_memory(sim *s, double required, const bool *keep)
{
    for (;;) {
        if (vram_free(s) >= required && !s->a->disable_smart_memory)
            return;
        int best = -1;
        double best_off = 0, best_mem = 0;
        for (int i = 0; i < s->in->model_count; i++) {
            const msim *x = &s->ms[i];
            if (!x->alive || !x->loaded || x->resident <= 0 || (keep && keep[i]))
                continue;
            /* --highvram: a diffusion model's offload device is the GPU; --gpu-only: all */
            if ((s->vs == VS_HIGH_VRAM && s->in->model[i].kind == HR_EST_DIFFUSION) || s->a->gpu_only)
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
        double need = required - vram_free(s);
        msim *x = &s->ms[best];
        if (!s->a->disable_smart_memory && need < x->resident) {
            x->resident -= need; /* partially_unload(): back to RAM, module by module */
            return;
        }
        unload_full(s, best);
    }
}

/* NUM_STREAMS (comfy/model_management.py, 0.3.76+): --disable-async-offload 0, else
 * --async-offload N, else 2 on NVIDIA, and on AMD from 0.7.0 (PR 11534); 0 elsewhere. */
static int num_streams(const sim *s)
{
    if (s->a->disable_async_offload)
        return 0;
    if (s->a->async_offload_given)
        return s->a->async_offload_streams;
    if (s->m->vendor == HR_GPU_NVIDIA || (s->m->vendor == HR_GPU_AMD && s->version >= V(0, 7, 0)))
        return 2;
    return 0;
}

static void add_load(sim *s, int i, const hr_est_op *op, bool dynamic, double usable, double loaded, double buffer)
{
    if (!s->out || s->out->load_count >= HR_EST_MAX_LOADS)
        return;
    /* ComfyUI logs a load only when something moved: the same model at the same residency
     * again (a second CLIPTextEncode) prints nothing */
    for (int k = s->out->load_count - 1; k >= 0; k--) {
        const hr_est_load *p = &s->out->load[k];
        if (strcmp(p->model, s->in->model[i].name) != 0)
            continue;
        if (p->loaded_bytes == u64(loaded) && p->dynamic == dynamic)
            return;
        break;
    }
    hr_est_load *l = &s->out->load[s->out->load_count++];
    memset(l, 0, sizeof *l);
    hr_strlcpy(l->model, s->in->model[i].name, sizeof l->model);
    hr_strlcpy(l->node_id, op->node_id, sizeof l->node_id);
    l->dynamic = dynamic;
    l->usable_vram_bytes = u64(usable);
    l->loaded_bytes = u64(loaded);
    l->offloaded_bytes = u64(s->ms[i].mem - loaded);
    l->partial = l->offloaded_bytes > 0;
    l->buffer_bytes = u64(buffer);
    l->staged_bytes = dynamic ? u64(s->ms[i].mem) : 0;
}

/* Pins for the part of model i that is not in VRAM, within the cap of this version. */
static void pin(sim *s, int i)
{
    msim *x = &s->ms[i];
    double want = dmax(0, x->mem - x->resident);
    if (s->pin_cap <= 0 || (s->regime != HR_REGIME_DYNAMIC && s->regime != HR_REGIME_LEGACY)) {
        x->pinned = 0;
        return;
    }
    double others = 0;
    for (int j = 0; j < s->in->model_count; j++)
        if (j != i && s->ms[j].alive)
            others += s->ms[j].pinned;
    double room = s->pin_cap - others;
    if (s->regime == HR_REGIME_DYNAMIC && s->version >= V(0, 23, 0) && !s->a->fast_disk && !s->a->high_ram) {
        /* 0.23+: pins grow while available RAM stays above max(active headroom / 2, 2 GiB) */
        double ram = (double)s->m->ram_bytes;
        double headroom = dmin(10 * GIBD, dmax(2 * GIBD, ram * 0.10));
        double used = ram_now(s, NULL) - x->pinned;
        double avail_room = ram - used - dmax(headroom / 2, 2 * GIBD);
        room = dmin(room, avail_room);
    }
    if (s->a->high_ram)
        room = want;
    x->pinned = dmax(0, dmin(want, room));
}

/* The process now: private RAM, VRAM and commit. */
static void tiers_now(const sim *s, double *ram, double *vram, double *commit, double *pinned, double *spill)
{
    *ram = ram_now(s, pinned);
    *vram = s->p.cuda_ctx + sum_resident(s) + s->outputs_vram + s->act_vram + s->buffer_vram;
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

/* An instant inside a step that its end state does not show (a model evicted to RAM before
 * the next one moves out of it): kept for the step's peak. */
static void mark_instant(sim *s)
{
    double ram, vram, commit, pinned = 0, spill;
    tiers_now(s, &ram, &vram, &commit, &pinned, &spill);
    s->inst_ram = dmax(s->inst_ram, ram);
    s->inst_commit = dmax(s->inst_commit, commit);
}

/* load_models_gpu(): make room, then load each model fully or up to its budget. */
static void load_models_gpu(sim *s, const int *idx, int n, double mem_req, double min_req, bool force_full,
                            const hr_est_op *op)
{
    bool keep[HR_EST_MAX_MODELS] = { 0 };
    for (int k = 0; k < n; k++)
        keep[idx[k]] = true;
    double inf = 0.8 * GIBD + s->reserve;

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
            load_models_gpu(s, legacy, nl, mem_req, min_req, force_full, op);
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
            msim *x = &s->ms[i];
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
                    double take = dmin(need, s->ms[j].resident);
                    s->ms[j].resident -= take;
                    need -= take;
                }
                room = avail - (others - (x->mem - room - dmax(0, need)));
            }
            x->resident = dmax(0, dmin(x->mem, room));
            x->loaded = true;
            touch(s, i);
            pin(s, i);
            avail -= x->resident;
            add_load(s, i, op, true, dmax(0, room), x->resident, 0);
        }
        return;
    }

    double extra = dmax(inf, mem_req + s->reserve);
    double minimum = min_req < 0 ? extra : dmax(inf, min_req + s->reserve);
    double total = 0;
    for (int k = 0; k < n; k++)
        total += s->ms[idx[k]].mem - s->ms[idx[k]].resident;
    double ram_before = ram_now(s, NULL);
    free_memory(s, total * 1.1 + extra, keep);
    if (vram_free(s) < minimum)
        free_memory(s, minimum, keep);
    /* load_models_gpu() evicts before it loads: what went back to RAM is there before the
     * new model's loaded part leaves it */
    if (!s->nested_legacy && ram_now(s, NULL) > ram_before) /* staged models evict to their file, not RAM */
        mark_instant(s);

    for (int k = 0; k < n; k++) {
        int i = idx[k];
        msim *x = &s->ms[i];
        touch(s, i);
        x->loaded = true;
        double budget = 0; /* 0: full load */
        bool partial_ok =
            (s->vs == VS_NORMAL_VRAM || s->vs == VS_LOW_VRAM) && !force_full && s->m->vendor != HR_GPU_APPLE;
        if (partial_ok) {
            double loaded = x->resident;
            double cur = vram_free(s) + loaded;
            double lv = dmax(s->lv_floor, dmax(cur - minimum, dmin(cur * s->ratio, cur - inf)));
            lv -= loaded;
            budget = lv <= 0 ? 0.1 : lv;
        }
        if (s->vs == VS_NO_VRAM)
            budget = 0.1;
        if (budget == 0) {
            x->resident = x->mem;
            add_load(s, i, op, false, dmax(0, vram_free(s) + x->mem), x->mem, 0);
            pin(s, i);
            continue;
        }
        double usable = budget + x->resident;
        double buffer = 0;
        double want = 0; /* the cast buffer of an offloading model: its modules', else a share */
        if (s->async_buffer) {
            double np = model_params(&s->in->model[i]);
            hr_est_cast cast = { num_streams(s), np > 0 ? x->mem / np : 0, 2, x->lora_cov > 0 };
            want = hr_est_offload_buffer(&s->in->model[i], s->version, &cast);
            if (want < 0)
                want = x->mem * s->p.buffer_frac;
        }
        if (usable < x->mem) {
            buffer = want; /* logged whole even when larger than usable (then nothing loads) */
            x->resident = dmax(0, usable - buffer);
        } else {
            x->resident = x->mem;
        }
        if (x->resident < x->mem)
            s->buffer_vram = dmax(s->buffer_vram, want);
        add_load(s, i, op, false, usable, x->resident, buffer);
        pin(s, i);
    }
}

/* ---- one step ---- */

static void set_note(sim *s, int opi, const char *fmt, ...) HR_PRINTF(3, 4);
static void set_note(sim *s, int opi, const char *fmt, ...)
{
    if (!s->out || opi >= s->out->step_count + 1)
        return;
    hr_est_step *st = &s->out->step[opi];
    size_t used = strlen(st->note);
    if (used + 3 >= sizeof st->note)
        return;
    if (used)
        used += (size_t)snprintf(st->note + used, sizeof st->note - used, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->note + used, sizeof st->note - used, fmt, ap);
    va_end(ap);
}

static hr_est_arch op_arch(const sim *s, const hr_est_op *op)
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

static void need_vram(sim *s, double need, int opi)
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
static bool built_on_gpu(const sim *s, int i)
{
    const hr_est_model *mod = &s->in->model[i];
    const msim *x = &s->ms[i];
    double free_v = vram_free(s);
    double own = x->alive ? dmax(0, x->mem - x->resident) : 0; /* ram_now() counts it once alive */
    double free_ram = (double)s->m->ram_bytes - (ram_now(s, NULL) - own);
    if (mod->kind == HR_EST_DIFFUSION) {
        /* --highvram: a checkpoint's initial device and UNETLoader's offload device are the GPU */
        if (s->vs == VS_HIGH_VRAM)
            return true;
        /* UNETLoader builds on the CPU; only a checkpoint's model asks unet_inital_load_device(),
         * which says CPU under --disable-smart-memory, and under --novram from 0.3.37 */
        if (!mod->checkpoint || s->a->disable_smart_memory || (s->vs == VS_NO_VRAM && s->version >= V(0, 3, 37)))
            return false;
        return free_v > free_ram && x->mem < free_v;
    }
    if (mod->kind == HR_EST_TEXT_ENCODER && !x->cpu_only) {
        if (s->a->gpu_only)
            return true;
        /* text_encoder_initial_device() */
        return x->mem > GIBD && free_v > free_ram * 0.5 && x->mem * 1.2 < free_v;
    }
    return false;
}

static void op_load(sim *s, const hr_est_op *op, int opi)
{
    for (int k = 0; k < op->model_count; k++) {
        int i = op->models[k];
        const hr_est_model *mod = &s->in->model[i];
        msim *x = &s->ms[i];
        x->alive = true;
        if (mod->kind == HR_EST_LORA) {
            touch(s, i);
            if (mod->format == HR_FMT_PICKLE || s->a->disable_mmap)
                s->transient_ram += (double)mod->file_bytes; /* kept in the node's cache */
            continue;
        }
        if (s->regime == HR_REGIME_DYNAMIC) {
            /* zero-copy mmap views: nothing private until weights are pinned */
            continue;
        }
        touch(s, i);
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
            load_models_gpu(s, &one, 1, 0, -1, true, op);
            set_note(s, opi, HR_T("%s built directly in VRAM"), mod->name);
            need_vram(s, sum_resident(s), opi);
        }
    }
}

static void op_text(sim *s, const hr_est_op *op, int opi)
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
            touch(s, idx[k]);
        s->transient_ram += 0.5 * GIBD; /* the encoder's activations on the CPU */
        set_note(s, opi, "%s", HR_T("text encoder runs on the CPU"));
        return;
    }
    load_models_gpu(s, idx, n, 0, -1, s->a->gpu_only, op);
    s->act_vram = 0.3 * GIBD * s->p.act_scale;
}

static void op_sample(sim *s, const hr_est_op *op, int opi)
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
            touch(s, idx[k]);
        s->transient_ram += two * s->p.act_scale;
    } else {
        double act;
        if (s->regime == HR_REGIME_DYNAMIC) {
            /* activations win over weights: the weights get what the step leaves */
            double card = s->vram_total - s->p.cuda_ctx - s->vram_other - s->outputs_vram;
            act = (op->cfg && two * 1.5 < card) ? two : one;
            load_models_gpu(s, idx, n, act * s->p.act_scale, -1, false, op);
        } else {
            /* estimate_memory() in sampler_helpers.py asks load_models_gpu() to free for the
             * doubled batch whether or not cfg runs the uncond pass */
            double asked = (double)hr_est_sampling_bytes_at(arch, &op->geom, 2, s->version, flash);
            load_models_gpu(s, idx, n, asked, one, s->vs == VS_HIGH_VRAM, op);
            /* cond and uncond run together when 1.5x the estimate is free (samplers.py) */
            act = (op->cfg && two * 1.5 < vram_free(s)) ? two : one;
        }
        s->act_vram = act * s->p.act_scale;
        need_vram(s, one * s->p.act_scale + (s->vs == VS_HIGH_VRAM ? sum_resident(s) : 0), opi);
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
static double fallback_tiled_bytes(const sim *s, hr_est_arch arch, const hr_est_geom *g, int d, bool amd, bool decode,
                                   double full, double *budget)
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
    if (!decode || s->version < V(0, 34, 0)) {
        t.width = t.width < 256 ? t.width : 256;
        t.height = t.height < 256 ? t.height : 256;
        return vae_bytes(arch, &t, d, amd, decode);
    }
    *budget = dmin(full, 0.8 * s->vram_total);
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

static void op_vae(sim *s, const hr_est_op *op, int opi, bool decode)
{
    if (op->model_count < 1)
        return;
    int i = op->models[0];
    hr_est_arch arch = op_arch(s, op);
    bool amd = s->m->vendor == HR_GPU_AMD && s->version >= V(0, 3, 60);
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
    double work = op->tiled ? dmin(full, tiled) : full;
    double img = (double)(op->geom.width ? op->geom.width : 1) * (op->geom.height ? op->geom.height : 1) *
                 (op->geom.frames ? op->geom.frames : 1) * (op->geom.batch ? op->geom.batch : 1) * 3 * 4;
    if (s->a->fp16_intermediates)
        img *= 0.5;
    if (s->a->cpu_vae || s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED) {
        touch(s, i);
        s->transient_ram += work;
    } else {
        /* ComfyUI (comfy/sd.py VAE.decode / encode) loads the VAE for one sample's memory_used,
         * then runs batch_number = max(1, int(free / memory_used)) samples at a time: a batch
         * decodes whole when free VRAM holds it, else in chunks (docs/memory-model.md). */
        load_models_gpu(s, &i, 1, work, -1, false, op);
        double free_v = vram_free(s);
        int batch = op->geom.batch > 1 ? (int)op->geom.batch : 1;
        if (!op->tiled && batch > 1 && work > 0) {
            double fit = (free_v - s->reserve) / work; /* what the card really has free */
            int chunk = fit >= batch ? batch : fit >= 1 ? (int)fit : 1;
            if (chunk < batch)
                set_note(s, opi,
                         decode ? HR_T("decodes %d of %d at a time (what free VRAM holds)")
                                : HR_T("encodes %d of %d at a time (what free VRAM holds)"),
                         chunk, batch);
            work *= chunk;
            full *= chunk;
        }
        if (!op->tiled && work > free_v - s->reserve) {
            /* ComfyUI catches the OOM, logs "Ran out of memory when regular VAE decoding,
             * retrying with tiled VAE decoding" and runs the tiled path (sd.py) */
            if (budget > 0)
                load_models_gpu(s, &i, 1, budget, -1, false, op);
            free_memory(s, 1e30, (bool[HR_EST_MAX_MODELS]){ 0 });
            if (s->ms[i].resident < s->ms[i].mem)
                s->ms[i].resident = s->ms[i].mem;
            if (full - (vram_free(s) - s->reserve) > s->tiled_need) {
                s->tiled_need = full - (vram_free(s) - s->reserve);
                s->tiled_op = opi;
                s->tiled_bytes = tiled;
            }
            work = tiled;
            char b[32];
            hr_size_gb(u64(tiled), b, sizeof b);
            set_note(s, opi,
                     decode ? HR_T("out of VRAM: ComfyUI retries it as a tiled decode, which needs %s")
                            : HR_T("out of VRAM: ComfyUI retries it as a tiled encode, which needs %s"),
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

static void op_upscale(sim *s, const hr_est_op *op, int opi)
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
        double work = 512.0 * 512 * 3 * 4 * dmax(scale, 1) * 384 + in_img;
        if (s->regime == HR_REGIME_CPU || s->regime == HR_REGIME_UNIFIED) {
            s->transient_ram += work;
        } else {
            free_memory(s, s->ms[i].mem + work, NULL);
            /* the upscaler is moved in and out by the node itself, not the model manager */
            s->act_vram = s->ms[i].mem + dmin(work, dmax(0, vram_free(s) - s->ms[i].mem)) * s->p.act_scale;
            need_vram(s, s->ms[i].mem + 128.0 * 128 * 3 * 4 * dmax(scale, 1) * 384 / 16, opi);
        }
        touch(s, i);
        s->transient_ram += (double)s->in->model[i].file_bytes; /* .pth read into RAM */
    }
    s->outputs += out_img;
}

static void op_lora(sim *s, const hr_est_op *op)
{
    if (op->model_count < 2)
        return;
    const hr_est_model *lora = &s->in->model[op->models[0]];
    for (int k = 1; k < op->model_count; k++) {
        int t = op->models[k];
        double cov =
            lora->lora_coverage > 0 ? lora->lora_coverage : hr_est_arch_info_of(s->in->model[t].arch)->lora_coverage;
        cov *= s->p.lora_scale;
        s->ms[t].lora_cov = dmin(1.0, dmax(s->ms[t].lora_cov, cov));
    }
}

/* RAM-pressure cache (0.23+ default, --cache-ram) and --cache-none: models no longer needed
 * are dropped; classic keeps every output of the prompt to its end. */
static void release(sim *s, int opi)
{
    double ram = (double)s->m->ram_bytes;
    double headroom = dmin(10 * GIBD, dmax(2 * GIBD, ram * 0.10));
    for (int i = 0; i < s->in->model_count; i++) {
        msim *x = &s->ms[i];
        if (!x->alive || x->last_use >= opi)
            continue;
        bool drop = s->cache == HR_CACHE_NONE;
        if (s->cache == HR_CACHE_RAM && ram - ram_now(s, NULL) < headroom)
            drop = true;
        if (drop) {
            x->alive = false;
            x->resident = 0;
            x->pinned = 0;
            x->loaded = false;
        }
    }
}

static void record(sim *s, const hr_est_op *op, int opi)
{
    double pinned = 0, ram, vram, commit, spill;
    tiers_now(s, &ram, &vram, &commit, &pinned, &spill);
    if (spill > s->spill_need) {
        s->spill_need = spill;
        s->spill_op = opi;
    }
    double cache = page_cache_now(s, ram);
    ram = dmax(ram, s->inst_ram);
    commit = dmax(commit, s->inst_commit);
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
    s->peak_cache = dmax(s->peak_cache, cache);
    s->peak_pinned = dmax(s->peak_pinned, pinned);
    if (!s->out)
        return;
    hr_est_step *st = &s->out->step[opi];
    hr_strlcpy(st->node_id, op->node_id, sizeof st->node_id);
    hr_strlcpy(st->class_type, op->class_type, sizeof st->class_type);
    st->kind = op->kind;
    st->vram_bytes = u64(vram);
    st->ram_bytes = u64(ram);
    st->pinned_bytes = u64(pinned);
    st->page_cache_bytes = u64(cache);
    st->commit_bytes = u64(commit);
}

static void setup(sim *s)
{
    const hr_est_machine *m = s->m;
    const hr_comfy_args *a = s->a;
    s->version = version_num(m);
    s->vram_total = (double)m->vram_bytes;
    s->vram_other = m->vram_other_bytes != HR_UNKNOWN ? (double)m->vram_other_bytes
                    : m->os == HR_OS_WINDOWS          ? 0.5 * GIBD
                                                      : 0.1 * GIBD;
    s->reserve = reserve_bytes(m, a);
    s->ratio = m->vendor == HR_GPU_NVIDIA ? 0.0 : 0.4;
    /* load_models_gpu() floored the budget at 64 MiB until 0.3.25 raised it to 128 MiB (a fix
     * for the Stable Cascade VAE on small cards), and 0.3.66's load formula has no floor; a card
     * with no room above it logs the floor. */
    s->lv_floor = s->version >= V(0, 3, 66) ? 0 : s->version >= V(0, 3, 25) ? 128 * MIBD : 64 * MIBD;
    s->async_buffer = s->version >= V(0, 3, 76) && (m->vendor == HR_GPU_NVIDIA || m->vendor == HR_GPU_AMD);

    /* VRAMState (model_management.py) */
    if (a->cpu || m->vendor == HR_GPU_NONE || m->vram_bytes == 0)
        s->vs = VS_DISABLED;
    else if (m->vendor == HR_GPU_APPLE || m->macos)
        s->vs = VS_SHARED;
    else if (a->lowvram)
        s->vs = VS_LOW_VRAM;
    else if (a->novram)
        s->vs = VS_NO_VRAM;
    else if (a->highvram || a->gpu_only)
        s->vs = VS_HIGH_VRAM;
    else
        s->vs = VS_NORMAL_VRAM;

    /* The regime (main.py): DynamicVRAM on NVIDIA from 0.16 (opt-in from 0.12), not on WSL,
     * not with the flags that pin the legacy manager. */
    bool flags_ok = !a->disable_dynamic_vram && !a->highvram && !a->gpu_only && !a->novram && !a->cpu;
    if (s->vs == VS_DISABLED)
        s->regime = HR_REGIME_CPU;
    else if (s->vs == VS_SHARED)
        s->regime = HR_REGIME_UNIFIED;
    else if (a->enable_dynamic_vram && s->version >= V(0, 12, 0))
        s->regime = HR_REGIME_DYNAMIC;
    else if (flags_ok && m->vendor == HR_GPU_NVIDIA && !m->wsl && s->version >= V(0, 16, 0))
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
    bool pins_068 =
        m->vendor == HR_GPU_NVIDIA && s->version == V(0, 3, 68) && (a->fast_pinned_memory || s->p.ambiguous_on);
    bool pins = !a->disable_pinned_memory &&
                (((m->vendor == HR_GPU_NVIDIA || m->vendor == HR_GPU_AMD) && s->version >= V(0, 3, 69)) || pins_068) &&
                (s->regime == HR_REGIME_LEGACY || s->regime == HR_REGIME_DYNAMIC);
    if (pins) {
        double share =
            s->version >= V(0, 19, 0) ? (m->os == HR_OS_WINDOWS ? 0.40 : 0.90) : (m->os == HR_OS_WINDOWS ? 0.45 : 0.95);
        s->pin_cap = (double)m->ram_bytes * share;
    }

    /* The executor's cache. */
    s->cache = a->cache;
    if (a->high_ram)
        s->cache = HR_CACHE_CLASSIC;
    if (s->cache == HR_CACHE_DEFAULT)
        s->cache = s->version >= V(0, 23, 0) ? HR_CACHE_RAM : HR_CACHE_CLASSIC;
    if (s->cache == HR_CACHE_RAM && s->version < V(0, 3, 68))
        s->cache = HR_CACHE_CLASSIC;

    for (int i = 0; i < s->in->model_count; i++) {
        const hr_est_model *mod = &s->in->model[i];
        msim *x = &s->ms[i];
        memset(x, 0, sizeof *x);
        x->mem = (double)hr_est_model_bytes(mod, m, a);
        /* DynamicVRAM as first released (0.12) recorded a VAE's dtype for its casts before
         * vae_dtype() was applied, so it staged the VAE at the dtype it was built in, fp32; PR
         * 12388 (merged 2026-02-10, 0.13 assumed) records it after the cast. */
        if (mod->kind == HR_EST_VAE && s->regime == HR_REGIME_DYNAMIC && s->version < V(0, 13, 0) &&
            mod->format != HR_FMT_GGUF && mod->file_dtype_bytes > 0 && !mod->fp8_scaled)
            x->mem = model_params(mod) * 4;
        x->first_use = -1;
        x->last_use = -1;
        x->cpu_only = mod->cpu_device || (mod->kind == HR_EST_TEXT_ENCODER && s->regime == HR_REGIME_LEGACY &&
                                          (s->vs == VS_LOW_VRAM || s->vs == VS_NO_VRAM));
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

static void run(sim *s)
{
    setup(s);
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

/* ---- verdicts ---- */

static hr_est_verdict *add_verdict(hr_estimate *e, hr_est_verdict_kind k, uint64_t bytes, const char *node)
{
    if (e->verdict_count >= HR_EST_MAX_VERDICTS)
        return NULL;
    hr_est_verdict *v = &e->verdict[e->verdict_count++];
    memset(v, 0, sizeof *v);
    v->kind = k;
    v->bytes = bytes;
    hr_strlcpy(v->node_id, node ? node : "", sizeof v->node_id);
    return v;
}

static void add_note(hr_estimate *e, const char *fmt, ...) HR_PRINTF(2, 3);
static void add_note(hr_estimate *e, const char *fmt, ...)
{
    if (e->note_count >= HR_EST_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->notes[e->note_count++], HR_EST_TEXT_MAX, fmt, ap);
    va_end(ap);
}

/* The paging file / swap that makes a limit of need on ram bytes of RAM, with 4 GB to spare,
 * in whole GB (bytes, as hr_size_gb takes). */
static uint64_t paging_needed(double need, double ram)
{
    return hr_size_round_up_gib(u64(need - ram + 4 * GIBD)) * HR_GIB;
}

void hr_est_need(const hr_estimate *e, hr_run_need *n)
{
    const uint64_t others = e->machine.others_commit_bytes;
    hr_run_need_make(n, e->commit.low, e->commit.high, others,
                     others == HR_UNKNOWN ? HR_OTHERS_ALLOWANCE : HR_OTHERS_MEASURED);
}

static void verdicts(const sim *s, hr_estimate *e)
{
    const hr_est_machine *m = s->m;
    char a[32], b[32], c[32];
    const char *node_of = "";
    if (s->oom_need > 0) {
        node_of = e->step[s->oom_op].node_id;
        hr_est_verdict *v = add_verdict(e, HR_EV_GPU_OOM, u64(s->oom_need), node_of);
        if (v) {
            hr_size_gb(u64(s->oom_need), a, sizeof a);
            snprintf(v->text, sizeof v->text, HR_T("GPU out of memory at node %s (%s): %s more VRAM than the card has"),
                     node_of, e->step[s->oom_op].class_type, a);
            if (s->vs == VS_HIGH_VRAM)
                snprintf(v->fix, sizeof v->fix, "%s",
                         HR_T("drop --highvram / --gpu-only so that ComfyUI can offload weights to RAM"));
            else
                snprintf(v->fix, sizeof v->fix, "%s",
                         HR_T("lower the batch size, resolution or length, or decode with VAEDecodeTiled"));
        }
    }
    if (s->spill_need > 0) {
        const char *node = e->step[s->spill_op].node_id;
        hr_est_verdict *v = add_verdict(e, HR_EV_SYSMEM_FALLBACK, u64(s->spill_need), node);
        if (v) {
            hr_size_gb(u64(s->spill_need), a, sizeof a);
            snprintf(v->text, sizeof v->text,
                     HR_T("node %s (%s) needs %s more VRAM than the card has: NVIDIA's driver spills it into shared "
                          "system memory (very slow), RAM that counts against the commit limit"),
                     node, e->step[s->spill_op].class_type, a);
            snprintf(
                v->fix, sizeof v->fix, "%s",
                HR_T("lower the batch size, resolution or length; with the NVIDIA setting \"CUDA - Sysmem Fallback "
                     "Policy\" at \"Prefer No Sysmem Fallback\" the run stops with an error instead"));
        }
        if (m->nvidia_driver == 0)
            add_note(e, "%s",
                     HR_T("NVIDIA driver version not known: its system-memory fallback (536.40 and later, "
                          "on by default) is assumed"));
    }
    if (s->tiled_need > 0) {
        hr_est_verdict *v = add_verdict(e, HR_EV_TILED_FALLBACK, u64(s->tiled_need), e->step[s->tiled_op].node_id);
        if (v) {
            hr_size_gb(u64(s->tiled_bytes), a, sizeof a);
            snprintf(v->text, sizeof v->text,
                     HR_T("VAE decode at node %s needs more VRAM than is free: ComfyUI retries it tiled, which needs "
                          "%s (slower)"),
                     e->step[s->tiled_op].node_id, a);
            snprintf(v->fix, sizeof v->fix, "%s", HR_T("use VAEDecodeTiled (tile 512, or 256 for video)"));
        }
    }
    /* offloading: the largest partial load per model */
    double off_max = 0;
    int off_i = -1;
    for (int l = 0; l < e->load_count; l++)
        if ((double)e->load[l].offloaded_bytes > off_max) {
            off_max = (double)e->load[l].offloaded_bytes;
            off_i = l;
        }
    double ram = (double)m->ram_bytes;
    double os_reserve = (m->os == HR_OS_WINDOWS ? 2.5 : 1.5) * GIBD;
    double peak_ram = (double)e->ram.value;
    if (peak_ram > ram - os_reserve) {
        double page = peak_ram - (ram - os_reserve);
        hr_est_verdict *v = add_verdict(e, HR_EV_HEAVY_PAGING, u64(page), e->ram.node_id);
        if (v) {
            hr_size_gb(u64(page), a, sizeof a);
            hr_size_gb(e->ram.value, b, sizeof b);
            snprintf(v->text, sizeof v->text,
                     HR_T("heavy paging: the run holds %s of private RAM at node %s, about %s more than RAM can keep"),
                     b, e->ram.node_id, a);
            snprintf(v->fix, sizeof v->fix, "%s",
                     HR_T("use fp8 or GGUF weights, close other programs, and keep the paging file on an SSD"));
        }
    }
    if ((double)e->pinned_peak_bytes > ram - os_reserve - 2 * GIBD && e->pinned_peak_bytes > 0) {
        hr_est_verdict *v = add_verdict(e, HR_EV_PINNED, e->pinned_peak_bytes, e->ram.node_id);
        if (v) {
            hr_size_gb(e->pinned_peak_bytes, a, sizeof a);
            snprintf(v->text, sizeof v->text,
                     HR_T("%s of pinned memory: pinned pages cannot be paged out, a paging file cannot rescue them"),
                     a);
            snprintf(v->fix, sizeof v->fix, "%s", HR_T("start ComfyUI with --disable-pinned-memory, or add RAM"));
        }
    }
    /* the commit limit */
    double need = (double)e->commit.high;
    if (m->commit_limit_bytes != HR_UNKNOWN && m->commit_enforced) {
        double lim = (double)m->commit_limit_bytes;
        /* The one rule (core/model/run_need.h), as check judges: below the low end and the
         * others the run dies; under what must be backed it is at risk. */
        hr_run_need n;
        hr_est_need(e, &n);
        const hr_need_verdict rv = hr_run_judge(&n, m->commit_limit_bytes);
        if (rv == HR_NEED_AT_RISK && (double)e->commit.value <= lim) {
            hr_est_verdict *v =
                add_verdict(e, HR_EV_COMMIT_TIGHT, n.must_back - m->commit_limit_bytes, e->commit.node_id);
            if (v) {
                hr_size_gb(n.must_back, a, sizeof a);
                hr_size_gb(m->commit_limit_bytes, b, sizeof b);
                hr_size_gb(hr_run_paging_bytes(&n, (uint64_t)ram), c, sizeof c);
                snprintf(v->text, sizeof v->text,
                         HR_T("the commit limit is %s, under the %s it must back (the high end, the other programs and "
                              "a 25 %% margin): the run can crash"),
                         b, a);
                snprintf(v->fix, sizeof v->fix,
                         m->os == HR_OS_WINDOWS ? HR_T("a paging file of at least %s (headroom plan --workflow FILE)")
                                                : HR_T("swap of at least %s (headroom plan --workflow FILE)"),
                         c);
            }
        }
        if ((double)e->commit.value > lim || rv == HR_NEED_WILL_FAIL) {
            hr_est_verdict *v =
                add_verdict(e, HR_EV_COMMIT_EXCEEDED, u64((double)e->commit.value - lim), e->commit.node_id);
            if (v) {
                /* with the other programs, as the rule counts it */
                hr_size_gb(e->commit.value > n.fail_below ? e->commit.value : n.fail_below, a, sizeof a);
                hr_size_gb(m->commit_limit_bytes, b, sizeof b);
                hr_size_gb(paging_needed(need, ram), c, sizeof c);
                snprintf(v->text, sizeof v->text,
                         HR_T("commit limit exceeded at node %s: needs %s, the limit is %s: ComfyUI crashes"),
                         e->commit.node_id, a, b);
                snprintf(v->fix, sizeof v->fix,
                         m->os == HR_OS_WINDOWS ? HR_T("a paging file of at least %s (headroom plan --workflow FILE)")
                                                : HR_T("swap of at least %s (headroom plan --workflow FILE)"),
                         c);
            }
        }
    } else if (m->swap_bytes != HR_UNKNOWN && m->os != HR_OS_WINDOWS) {
        double cap = ram + (double)m->swap_bytes;
        if (peak_ram > cap) {
            hr_est_verdict *v = add_verdict(e, HR_EV_COMMIT_EXCEEDED, u64(peak_ram - cap), e->ram.node_id);
            if (v) {
                hr_size_gb(e->ram.value, a, sizeof a);
                hr_size_gb(u64(cap), b, sizeof b);
                hr_size_gb(paging_needed(need, ram), c, sizeof c);
                snprintf(
                    v->text, sizeof v->text,
                    HR_T("RAM and swap run out at node %s: needs %s, RAM + swap is %s: the OOM killer ends ComfyUI"),
                    e->ram.node_id, a, b);
                snprintf(v->fix, sizeof v->fix, HR_T("swap of at least %s (headroom plan --workflow FILE)"), c);
            }
        }
    } else {
        /* Not known (a what-if machine, an unread source): no FITS can be said. */
        hr_est_verdict *v = add_verdict(e, HR_EV_COMMIT_UNKNOWN, e->commit.high, e->commit.node_id);
        if (v) {
            hr_size_gb(e->commit.high, a, sizeof a);
            hr_size_gb(paging_needed(need, ram), c, sizeof c);
            snprintf(v->text, sizeof v->text,
                     HR_T("cannot tell: the commit limit is not known; the run needs a limit (RAM + paging file) "
                          "of at least %s"),
                     a);
            if (paging_needed(need, ram) == 0)
                snprintf(v->fix, sizeof v->fix, "%s",
                         HR_T("RAM alone holds it if other programs leave room: check the machine itself "
                              "(headroom check --workflow FILE)"));
            else
                snprintf(v->fix, sizeof v->fix,
                         m->os == HR_OS_WINDOWS ? HR_T("a paging file of at least %s (headroom plan --workflow FILE)")
                                                : HR_T("swap of at least %s (headroom plan --workflow FILE)"),
                         c);
        }
    }
    if (off_i >= 0 && off_max > 0) {
        hr_est_verdict *v = add_verdict(e, HR_EV_OFFLOADS, u64(off_max), e->load[off_i].node_id);
        if (v) {
            hr_size_gb(u64(off_max), a, sizeof a);
            snprintf(v->text, sizeof v->text, HR_T("offloads %s of %s to RAM (it works, more slowly)"), a,
                     e->load[off_i].model);
            /* a model already at one byte a weight or less: fp8 is no fix, a smaller quant is */
            bool small = false;
            for (int k = 0; k < s->in->model_count; k++) {
                const hr_est_model *md = &s->in->model[k];
                if (strcmp(md->name, e->load[off_i].model) == 0)
                    small = md->weight_dtype == HR_WDT_FP8 || md->format == HR_FMT_GGUF || md->file_dtype_bytes == 1 ||
                            md->fp8_scaled;
            }
            snprintf(v->fix, sizeof v->fix, "%s",
                     small
                         ? HR_T("a smaller GGUF quantisation (Q5_K, Q4_K) keeps more of the model in VRAM")
                         : HR_T("fp8 weights (weight_dtype fp8_e4m3fn) or a GGUF file keep more of the model in VRAM"));
        }
    }
    bool bad = false;
    for (int i = 0; i < e->verdict_count; i++)
        if (e->verdict[i].kind != HR_EV_OFFLOADS)
            bad = true;
    if (!bad) {
        hr_est_verdict *v = add_verdict(e, HR_EV_FITS, 0, "");
        if (v) {
            snprintf(v->text, sizeof v->text, "%s",
                     HR_T("fits: the run completes within VRAM, RAM and the commit limit"));
            v->fix[0] = '\0';
        }
    }
}

int hr_estimate_run(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a, hr_estimate *out,
                    hr_error *err)
{
    static const hr_comfy_args none;
    if (!a)
        a = &none;
    if (in->model_count < 0 || in->model_count > HR_EST_MAX_MODELS || in->op_count < 0 || in->op_count > HR_EST_MAX_OPS)
        return hr_error_set(err, HR_EINVAL, HR_T("estimate: %d models, %d steps: out of range"), in->model_count,
                            in->op_count);
    for (int o = 0; o < in->op_count; o++) {
        const hr_est_op *op = &in->op[o];
        if (op->model_count < 0 || op->model_count > 4)
            return hr_error_set(err, HR_EINVAL, HR_T("estimate: node %s: %d models"), op->node_id, op->model_count);
        for (int k = 0; k < op->model_count; k++)
            if (op->models[k] < 0 || op->models[k] >= in->model_count)
                return hr_error_set(err, HR_EINVAL, HR_T("estimate: node %s refers to model %d of %d"), op->node_id,
                                    op->models[k], in->model_count);
    }
    memset(out, 0, sizeof *out);
    out->machine = *m;
    /* What the workflow is: the architecture it samples with and its frames (plan's table row). */
    uint64_t biggest = 0;
    for (int o = 0; o < in->op_count; o++) {
        const hr_est_op *op = &in->op[o];
        if (op->geom.frames > out->frames)
            out->frames = op->geom.frames;
        if (op->kind != HR_OP_SAMPLE)
            continue;
        const hr_est_model *md = op->model_count ? &in->model[op->models[0]] : NULL;
        const uint64_t size = md ? hr_est_model_bytes(md, m, a) : 0;
        const hr_est_arch arch = md && md->arch != HR_ARCH_UNKNOWN ? md->arch : op->arch;
        if (arch != HR_ARCH_UNKNOWN && (out->arch == HR_ARCH_UNKNOWN || size > biggest)) {
            out->arch = arch;
            biggest = size;
        }
    }

    static sim s_mid, s_lo, s_hi; /* large; the core is single-threaded */
    memset(&s_mid, 0, sizeof s_mid);
    s_mid.in = in, s_mid.m = m, s_mid.a = a, s_mid.p = P_MID, s_mid.out = out;
    run(&s_mid);
    memset(&s_lo, 0, sizeof s_lo);
    s_lo.in = in, s_lo.m = m, s_lo.a = a, s_lo.p = P_LOW;
    run(&s_lo);
    memset(&s_hi, 0, sizeof s_hi);
    s_hi.in = in, s_hi.m = m, s_hi.a = a, s_hi.p = P_HIGH;
    run(&s_hi);

    static const char *vs_names[] = { "DISABLED", "NO_VRAM", "LOW_VRAM", "NORMAL_VRAM", "HIGH_VRAM", "SHARED" };
    out->regime = s_mid.regime;
    out->vram_state = vs_names[s_mid.vs];
    out->reserve_vram_bytes = u64(s_mid.reserve);
    out->pin_cap_bytes = u64(s_mid.pin_cap);
    out->pinned_peak_bytes = u64(s_mid.peak_pinned);
    for (int i = 0; i < in->model_count; i++)
        if (in->model[i].from_catalog)
            out->catalog_used = true;

    struct {
        hr_est_range *r;
        double mid, lo, hi;
        int op;
    } t[] = {
        { &out->vram, s_mid.peak_vram, s_lo.peak_vram, s_hi.peak_vram, s_mid.peak_vram_op },
        { &out->ram, s_mid.peak_ram, s_lo.peak_ram, s_hi.peak_ram, s_mid.peak_ram_op },
        { &out->commit, s_mid.peak_commit, s_lo.peak_commit, s_hi.peak_commit, s_mid.peak_commit_op },
        { &out->page_cache, s_mid.peak_cache, s_lo.peak_cache, s_hi.peak_cache, -1 },
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        t[k].r->value = u64(t[k].mid);
        t[k].r->low = u64(dmin(t[k].mid, dmin(t[k].lo, t[k].hi)));
        t[k].r->high = u64(dmax(t[k].mid, dmax(t[k].lo, t[k].hi)));
        if (t[k].op >= 0 && t[k].op < out->step_count) {
            hr_strlcpy(t[k].r->node_id, out->step[t[k].op].node_id, sizeof t[k].r->node_id);
            hr_strlcpy(t[k].r->class_type, out->step[t[k].op].class_type, sizeof t[k].r->class_type);
        }
    }
    if (!m->version_known) {
        /* Which ComfyUI runs is not known: the range covers every memory manager it could be
         * (X.comfymem: the regimes and the versions where they changed), so the high end is
         * the older managers' — most installs are not the newest. */
        static const int older[][3] = { { 0, 3, 60 }, { 0, 3, 70 }, { 0, 3, 77 }, { 0, 12, 0 },
                                        { 0, 16, 0 }, { 0, 19, 0 }, { 0, 23, 0 } };
        static hr_est_machine mv;
        mv = *m;
        mv.version_known = true;
        uint64_t top = out->commit.high;
        for (size_t v = 0; v < sizeof older / sizeof older[0]; v++) {
            memcpy(mv.version, older[v], sizeof mv.version);
            for (int k = 0; k < 2; k++) {
                sim *sv = k ? &s_hi : &s_lo;
                memset(sv, 0, sizeof *sv);
                sv->in = in, sv->m = &mv, sv->a = a, sv->p = k ? P_HIGH : P_LOW;
                run(sv);
                const double got[] = { sv->peak_vram, sv->peak_ram, sv->peak_commit, sv->peak_cache };
                for (size_t q = 0; q < sizeof t / sizeof t[0]; q++) {
                    t[q].r->low = t[q].r->low < u64(got[q]) ? t[q].r->low : u64(got[q]);
                    t[q].r->high = t[q].r->high > u64(got[q]) ? t[q].r->high : u64(got[q]);
                }
            }
            if (out->commit.high > top) {
                top = out->commit.high;
                snprintf(out->high_version, sizeof out->high_version, "%d.%d.%d", older[v][0], older[v][1],
                         older[v][2]);
            }
        }
        if (out->high_version[0])
            add_note(out,
                     HR_T("ComfyUI version not known: the range covers every memory manager it could run; the "
                          "high end is %s's (give --comfyui-version)"),
                     out->high_version);
        else
            add_note(out, "%s",
                     HR_T("ComfyUI version not known: the range covers every memory manager it could run "
                          "(give --comfyui-version)"));
    }
    if (m->version_known && version_num(m) == V(0, 3, 68) && m->vendor == HR_GPU_NVIDIA && !a->fast_pinned_memory &&
        !a->disable_pinned_memory)
        add_note(out, "%s",
                 HR_T("ComfyUI 0.3.68: pinned memory is on by default only in checkouts after PR #10656, "
                      "which still say 0.3.68; the low end leaves pins out, the middle and high count "
                      "them (--disable-pinned-memory or --fast pinned_memory settles it)"));
    if (out->catalog_used)
        add_note(out, "%s", HR_T("some model sizes are catalog values, not read from the files"));
    if (s_mid.regime == HR_REGIME_DYNAMIC)
        add_note(
            out, "%s",
            HR_T("DynamicVRAM: weights are memory-mapped; RAM holds pinned copies, the files stay in the page cache"));
    if (m->os == HR_OS_WINDOWS)
        add_note(
            out, "%s",
            HR_T("Windows: VRAM in use is counted against the commit limit too (WDDM); the low end leaves it out"));
    verdicts(&s_mid, out);
    return 0;
}

int hr_estimate_severity(const hr_estimate *e)
{
    int sev = 0;
    bool unknown = false;
    for (int i = 0; i < e->verdict_count; i++) {
        switch (e->verdict[i].kind) {
        case HR_EV_GPU_OOM:
        case HR_EV_COMMIT_EXCEEDED: sev = 2; break;
        case HR_EV_HEAVY_PAGING:
        case HR_EV_PINNED:
        case HR_EV_COMMIT_TIGHT:
        case HR_EV_TILED_FALLBACK:
        case HR_EV_SYSMEM_FALLBACK:
            if (sev < 1)
                sev = 1;
            break;
        case HR_EV_COMMIT_UNKNOWN: unknown = true; break;
        default: break;
        }
    }
    return sev < 2 && unknown ? 3 : sev;
}

const char *hr_est_kind_name(hr_est_kind k)
{
    static const char *n[] = {
        "diffusion_model", "text_encoder", "vae", "clip_vision", "controlnet", "upscaler", "lora"
    };
    return (int)k >= 0 && (size_t)k < sizeof n / sizeof n[0] ? n[k] : "model";
}

const char *hr_est_regime_name(hr_est_regime r)
{
    static const char *n[] = { "legacy", "dynamic_vram", "cpu", "unified" };
    return (int)r >= 0 && (size_t)r < sizeof n / sizeof n[0] ? n[r] : "legacy";
}

const char *hr_est_verdict_name(hr_est_verdict_kind k)
{
    static const char *n[] = { "fits",    "offloads",        "tiled_fallback", "heavy_paging",   "pinned_memory",
                               "gpu_oom", "commit_exceeded", "commit_tight",   "commit_unknown", "sysmem_fallback" };
    return (int)k >= 0 && (size_t)k < sizeof n / sizeof n[0] ? n[k] : "fits";
}

const char *hr_est_vendor_name(hr_est_vendor v)
{
    static const char *n[] = { "nvidia", "amd", "intel", "apple", "none" };
    return (int)v >= 0 && (size_t)v < sizeof n / sizeof n[0] ? n[v] : "none";
}

bool hr_est_vendor_parse(const char *s, hr_est_vendor *out)
{
    if (!s)
        return false;
    static const struct {
        const char *name;
        hr_est_vendor v;
    } t[] = {
        { "nvidia", HR_GPU_NVIDIA }, { "amd", HR_GPU_AMD },   { "intel", HR_GPU_INTEL },
        { "apple", HR_GPU_APPLE },   { "none", HR_GPU_NONE }, { "cpu", HR_GPU_NONE },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (hr_str_ieq(s, t[i].name)) {
            *out = t[i].v;
            return true;
        }
    return false;
}
