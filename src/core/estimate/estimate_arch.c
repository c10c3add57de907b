/* headroom — per-architecture memory facts: ComfyUI's memory_usage_factor, latent shapes and
 * the VAE formulas (memory_used_decode / memory_used_encode). Rule X.comfymem,
 * docs/memory-model.md. */
#include "core/estimate/estimate_internal.h"

#include <string.h>

#define MIB (1024.0 * 1024.0)

/* name, memory_usage_factor, latent channels, spatial downscale, temporal downscale (0: image),
 * VAE kind, LoRA coverage (share of the weights a typical LoRA patches). */
static const hr_est_arch_info arch_table[HR_ARCH_COUNT] = {
    [HR_ARCH_UNKNOWN] = { "unknown", 2.0, 16, 8, 0, HR_VAE_KL, 0.8 },
    [HR_ARCH_SD15] = { "SD1.5", 1.0, 4, 8, 0, HR_VAE_KL, 0.35 },
    [HR_ARCH_SD2] = { "SD2", 1.0, 4, 8, 0, HR_VAE_KL, 0.35 },
    [HR_ARCH_SDXL] = { "SDXL", 0.8, 4, 8, 0, HR_VAE_KL, 0.5 },
    [HR_ARCH_SD3] = { "SD3", 1.6, 16, 8, 0, HR_VAE_KL, 0.8 },
    [HR_ARCH_FLUX] = { "FLUX.1", 3.1, 16, 8, 0, HR_VAE_KL, 0.9 },
    [HR_ARCH_FLUX2] = { "FLUX.2", 29.3, 128, 16, 0, HR_VAE_FLUX2, 0.9 },
    [HR_ARCH_CHROMA] = { "Chroma", 3.2, 16, 8, 0, HR_VAE_KL, 0.9 },
    [HR_ARCH_QWEN_IMAGE] = { "Qwen-Image", 1.8, 16, 8, 0, HR_VAE_WAN21, 0.9 },
    [HR_ARCH_HIDREAM] = { "HiDream", 2.0, 16, 8, 0, HR_VAE_KL, 0.9 },
    [HR_ARCH_LUMINA2] = { "Lumina2", 1.4, 16, 8, 0, HR_VAE_KL, 0.9 },
    [HR_ARCH_WAN_1_3B] = { "Wan 1.3B", 1536.0 / 2222.0, 16, 8, 4, HR_VAE_WAN21, 0.9 },
    [HR_ARCH_WAN_14B] = { "Wan 14B", 5120.0 / 2222.0, 16, 8, 4, HR_VAE_WAN21, 0.9 },
    [HR_ARCH_WAN22_5B] = { "Wan 2.2 5B", 3072.0 / 2222.0, 48, 16, 4, HR_VAE_WAN22, 0.9 },
    [HR_ARCH_HUNYUAN_VIDEO] = { "HunyuanVideo", 1.8, 16, 8, 4, HR_VAE_HUNYUAN, 0.9 },
    [HR_ARCH_LTXV_2B] = { "LTX-Video 2B", 5.5, 128, 32, 8, HR_VAE_LTXV, 0.9 },
    [HR_ARCH_LTXV_13B] = { "LTX-Video 13B", 11.0, 128, 32, 8, HR_VAE_LTXV, 0.9 },
    [HR_ARCH_SVD] = { "SVD", 2.0, 4, 8, 0, HR_VAE_KL, 0.5 },
    [HR_ARCH_ZIMAGE] = { "Z-Image", 2.8, 16, 8, 0, HR_VAE_KL, 0.9 },
};

const hr_est_arch_info *hr_est_arch_info_of(hr_est_arch a)
{
    if ((int)a < 0 || a >= HR_ARCH_COUNT)
        a = HR_ARCH_UNKNOWN;
    return &arch_table[a];
}

const char *hr_est_arch_name(hr_est_arch a)
{
    return hr_est_arch_info_of(a)->name;
}

double hr_est_arch_usage_factor(hr_est_arch a)
{
    return hr_est_arch_info_of(a)->factor;
}

#define V(a, b, c) ((a)*10000 + (b)*100 + (c))

/* The factors ComfyUI changed between releases (comfy/supported_models.py): Lumina2 1.2 until
 * 0.3.73, 1.4 from 0.3.74 (0e24dbb1, which also added the ZImage class at 1.7); ZImage 2.0 from
 * 0.5.0 (17c92a9f, PR #11254 "Tweak Z Image memory estimation") and 2.8 from 0.9.2 (6165c38c).
 * The table holds the newest. */
double hr_est_arch_usage_factor_at(hr_est_arch a, int version)
{
    if (a == HR_ARCH_LUMINA2 && version < V(0, 3, 74))
        return 1.2;
    if (a == HR_ARCH_ZIMAGE && version < V(0, 5, 0))
        return 1.7;
    if (a == HR_ARCH_ZIMAGE && version < V(0, 9, 2))
        return 2.0;
    return hr_est_arch_usage_factor(a);
}

static uint32_t at_least1(uint32_t v)
{
    return v ? v : 1;
}

/* The latent's dimensions: batch, latent frames, height, width. */
void hr_est_latent_dims(hr_est_arch a, const hr_est_geom *g, double *b, double *t, double *h, double *w)
{
    const hr_est_arch_info *ai = hr_est_arch_info_of(a);
    double frames = at_least1(g->frames);
    *b = at_least1(g->batch);
    *h = (double)(at_least1(g->height) / (uint32_t)ai->down);
    *w = (double)(at_least1(g->width) / (uint32_t)ai->down);
    if (*h < 1)
        *h = 1;
    if (*w < 1)
        *w = 1;
    if (a == HR_ARCH_SVD) { /* SVD: the frames are the batch */
        *b *= frames;
        *t = 1;
    } else if (ai->tdown) {
        *t = (double)(((uint32_t)frames - 1) / (uint32_t)ai->tdown + 1);
    } else {
        *b *= frames; /* an image model fed several frames runs them as a batch */
        *t = 1;
    }
}

double hr_est_latent_bytes(hr_est_arch a, const hr_est_geom *g)
{
    double b, t, h, w;
    hr_est_latent_dims(a, g, &b, &t, &h, &w);
    return b * hr_est_arch_info_of(a)->channels * t * h * w * 4.0; /* fp32 on the CPU */
}

/* memory_required(): area × dtype (2 bytes) × 0.01 × factor MiB when ComfyUI runs xformers or
 * PyTorch attention (flash), else area × 0.15 × factor MiB (split or sub-quadratic attention;
 * comfy/model_base.py, the same from 0.3.x to 0.27). */
uint64_t hr_est_sampling_bytes_at(hr_est_arch a, const hr_est_geom *g, int batch_mult, int version, bool flash)
{
    double b, t, h, w;
    hr_est_latent_dims(a, g, &b, &t, &h, &w);
    double area = b * (batch_mult > 0 ? batch_mult : 1) * t * h * w;
    return (uint64_t)(area * (flash ? 2.0 * 0.01 : 0.15) * hr_est_arch_usage_factor_at(a, version) * MIB);
}

uint64_t hr_est_sampling_bytes(hr_est_arch a, const hr_est_geom *g, int batch_mult)
{
    return hr_est_sampling_bytes_at(a, g, batch_mult, V(99, 0, 0), true);
}

uint64_t hr_est_vae_decode_bytes(hr_est_arch a, const hr_est_geom *g, int d, bool amd)
{
    const hr_est_arch_info *ai = hr_est_arch_info_of(a);
    double b, t, h, w;
    hr_est_latent_dims(a, g, &b, &t, &h, &w);
    (void)b;
    double r = amd ? 2.73 : 1.0, v;
    switch (ai->vae) {
    case HR_VAE_FLUX2: v = 2178.0 * h * w * 64 * d * r * 4.0; break;
    case HR_VAE_WAN21: v = (t <= 4 ? 2200.0 : 7000.0) * h * w * 64 * d; break;
    case HR_VAE_WAN22: v = 8000.0 * h * w * 256 * d; break;
    case HR_VAE_HUNYUAN: {
        double f = (t - 1) * 4 + 1;
        v = 2800.0 * (f < 8 ? f : 8) * h * w * 64 * d;
        break;
    }
    case HR_VAE_LTXV: v = 1200.0 * t * h * w * 512 * d; break;
    case HR_VAE_KL:
    default: v = 2178.0 * h * w * 64 * d * r; break;
    }
    return (uint64_t)v;
}

uint64_t hr_est_vae_encode_bytes(hr_est_arch a, const hr_est_geom *g, int d, bool amd)
{
    const hr_est_arch_info *ai = hr_est_arch_info_of(a);
    double H = at_least1(g->height), W = at_least1(g->width), T = at_least1(g->frames);
    double r = amd ? 2.73 : 1.0, v;
    switch (ai->vae) {
    case HR_VAE_WAN21: v = (T <= 4 ? 1500.0 : 6000.0) * H * W * d; break;
    case HR_VAE_WAN22: v = 3300.0 * H * W * d; break;
    case HR_VAE_HUNYUAN: v = 1400.0 * (T < 9 ? T : 9) * H * W * d; break;
    case HR_VAE_LTXV: v = 80.0 * (T > 7 ? T : 7) * H * W * d; break;
    case HR_VAE_FLUX2:
    case HR_VAE_KL:
    default: v = 1767.0 * H * W * d * r; break;
    }
    return (uint64_t)v;
}
