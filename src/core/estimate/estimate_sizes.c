/* headroom — estimate: a model's size in memory, from its file and the dtype rules (§2.7 of
 * the reference; ComfyUI unet_dtype, text_encoder_dtype, vae_dtype), and the most a server's
 * prompt can need (X.serverneed). */
#include "core/estimate/estimate_internal.h"

#include "core/base/size.h"
#include "core/base/text.h"

#include <stdbool.h>
#include <stddef.h>

/* ComfyUI's maximum_vram_for_weights() (model_management.py): where an fp8 file's weights
 * stay fp8 because 16-bit ones would not fit the card. */
static double max_vram_for_weights(const hr_est_machine *m, double reserve)
{
    return (double)m->vram_bytes * 0.88 - (0.8 * HR_EST_GIBD + reserve);
}

/* The bytes of the file ComfyUI builds a model from: less the tensors it leaves unloaded (a
 * text encoder's language-model head, 16 bits a weight). */
static double built_file_bytes(const hr_est_model *mod)
{
    double v = (double)mod->file_bytes - hr_est_unbuilt_params(mod) * 2;
    return v > 0 ? v : (double)mod->file_bytes;
}

/* Parameters built: the header's count, else the file's bytes over its dtype. */
double hr_est_model_params(const hr_est_model *mod)
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
    double np = hr_est_model_params(mod);
    if (mod->format == HR_FMT_GGUF || fd == 0 || mod->fp8_scaled)
        return hr_est_u64(built_file_bytes(mod)); /* kept as stored */
    bool cpu = (a && a->cpu) || m->vendor == HR_GPU_NONE;
    switch (mod->kind) {
    case HR_EST_DIFFUSION: {
        if (cpu)
            return hr_est_u64(np * 4); /* should_use_fp16() is false on the CPU */
        if (a && a->unet_dtype_bytes)
            return hr_est_u64(np * a->unet_dtype_bytes);
        if (mod->weight_dtype == HR_WDT_FP8)
            return hr_est_u64(np * 1);
        if (fd == 1) {
            /* fp8 kept where the GPU computes in fp8, or where 16-bit would not fit the card */
            bool keep = m->fp8_compute != HR_TRI_NO || np * 2 > max_vram_for_weights(m, hr_est_reserve_bytes(m, a));
            return hr_est_u64(np * (keep ? 1 : 2));
        }
        return hr_est_u64(np * 2);
    }
    case HR_EST_TEXT_ENCODER: {
        int want = a && a->te_dtype_bytes ? a->te_dtype_bytes : 2;
        return hr_est_u64(np * (fd < want ? fd : want));
    }
    case HR_EST_VAE: return hr_est_u64(np * hr_est_vae_dtype_bytes(mod->arch, m, a));
    case HR_EST_CLIP_VISION:
    case HR_EST_CONTROLNET: return hr_est_u64(np * (fd < 2 ? fd : 2));
    case HR_EST_UPSCALER:
    case HR_EST_LORA:
    default: return mod->file_bytes;
    }
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
