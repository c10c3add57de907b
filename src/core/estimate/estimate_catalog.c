/* headroom — catalog of common ComfyUI models: catalog values, used when the file itself is
 * not there to be read. One table per family. Sizes are the published file sizes (GB = 10^9
 * bytes, as Hugging Face and ComfyUI-Manager's model list show them); the split of a
 * checkpoint into its diffusion model, text encoders and VAE is derived from the parameter
 * counts of each part (docs/memory-model.md, "Catalog"). */
#include "core/estimate/estimate.h"

#include "core/base/text.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define GB(x) ((uint64_t)((x)*1e9))
#define MB(x) ((uint64_t)((x)*1e6))

/* file, kind, arch, file_bytes, params, dtype, fp8_scaled, scale, te_bytes, te_dtype, vae_bytes, checkpoint */
#define DIFF(f, a, sz, dt)                                                                                             \
    {                                                                                                                  \
        f, HR_EST_DIFFUSION, a, sz, 0, dt, false, 0, 0, 0, 0, false                                                    \
    }
#define DIFF_SCALED(f, a, sz)                                                                                          \
    {                                                                                                                  \
        f, HR_EST_DIFFUSION, a, sz, 0, 1, true, 0, 0, 0, 0, false                                                      \
    }
#define CKPT(f, a, sz, dt, te, tedt, vae)                                                                              \
    {                                                                                                                  \
        f, HR_EST_DIFFUSION, a, sz, 0, dt, false, 0, te, tedt, vae, true                                               \
    }
#define TE(f, sz, dt)                                                                                                  \
    {                                                                                                                  \
        f, HR_EST_TEXT_ENCODER, HR_ARCH_UNKNOWN, sz, 0, dt, false, 0, 0, 0, 0, false                                   \
    }
#define TE_SCALED(f, sz)                                                                                               \
    {                                                                                                                  \
        f, HR_EST_TEXT_ENCODER, HR_ARCH_UNKNOWN, sz, 0, 1, true, 0, 0, 0, 0, false                                     \
    }
#define VAE(f, a, sz, dt)                                                                                              \
    {                                                                                                                  \
        f, HR_EST_VAE, a, sz, 0, dt, false, 0, 0, 0, 0, false                                                          \
    }
#define UPS(f, sz, sc)                                                                                                 \
    {                                                                                                                  \
        f, HR_EST_UPSCALER, HR_ARCH_UNKNOWN, sz, 0, 4, false, sc, 0, 0, 0, false                                       \
    }

/* SD 1.5 / 2.1: UNet 860 M parameters, CLIP-L 123 M, VAE 84 M. */
static const hr_est_catalog_entry cat_sd15[] = {
    CKPT("v1-5-pruned-emaonly.safetensors", HR_ARCH_SD15, GB(4.27), 4, MB(492), 4, MB(335)),
    CKPT("v1-5-pruned-emaonly.ckpt", HR_ARCH_SD15, GB(4.27), 4, MB(492), 4, MB(335)),
    CKPT("v1-5-pruned-emaonly-fp16.safetensors", HR_ARCH_SD15, GB(2.13), 2, MB(246), 2, MB(167)),
    CKPT("v2-1_768-ema-pruned.safetensors", HR_ARCH_SD2, GB(5.21), 4, MB(1360), 4, MB(335)),
    VAE("vae-ft-mse-840000-ema-pruned.safetensors", HR_ARCH_SD15, MB(334.6), 4),
};

/* SDXL: UNet 2.57 B, CLIP-L + CLIP-G 818 M, VAE 84 M. */
static const hr_est_catalog_entry cat_sdxl[] = {
    CKPT("sd_xl_base_1.0.safetensors", HR_ARCH_SDXL, GB(6.94), 2, GB(1.64), 2, MB(167)),
    CKPT("sd_xl_refiner_1.0.safetensors", HR_ARCH_SDXL, GB(6.08), 2, GB(1.39), 2, MB(167)),
    CKPT("sd_xl_turbo_1.0.safetensors", HR_ARCH_SDXL, GB(13.9), 4, GB(3.27), 4, MB(335)),
    CKPT("sd_xl_turbo_1.0_fp16.safetensors", HR_ARCH_SDXL, GB(6.94), 2, GB(1.64), 2, MB(167)),
    VAE("sdxl_vae.safetensors", HR_ARCH_SDXL, MB(334.6), 4),
};

/* SD3 / SD3.5: MMDiT 8.1 B (large), 2.5 B (medium). */
static const hr_est_catalog_entry cat_sd3[] = {
    DIFF("sd3.5_large.safetensors", HR_ARCH_SD3, GB(16.5), 2),
    CKPT("sd3.5_large_fp8_scaled.safetensors", HR_ARCH_SD3, GB(14.9), 1, GB(6.53), 1, MB(168)),
    DIFF("sd3.5_large_turbo.safetensors", HR_ARCH_SD3, GB(16.5), 2),
    DIFF("sd3.5_medium.safetensors", HR_ARCH_SD3, GB(5.11), 2),
    CKPT("sd3_medium_incl_clips.safetensors", HR_ARCH_SD3, GB(5.97), 2, GB(1.64), 2, MB(168)),
    CKPT("sd3_medium_incl_clips_t5xxlfp8.safetensors", HR_ARCH_SD3, GB(10.9), 2, GB(6.53), 1, MB(168)),
};

/* FLUX.1 dev / schnell: 11.9 B parameters. The Comfy-Org fp8 checkpoints also hold an fp8
 * T5-XXL, CLIP-L and the VAE; Kijai's file of the same name holds the diffusion model only. */
static const hr_est_catalog_entry cat_flux[] = {
    DIFF("flux1-dev.safetensors", HR_ARCH_FLUX, 23782506688ULL, 2),
    DIFF("flux1-schnell.safetensors", HR_ARCH_FLUX, GB(23.8), 2),
    DIFF("flux1-kontext-dev.safetensors", HR_ARCH_FLUX, GB(23.8), 2),
    DIFF("flux1-fill-dev.safetensors", HR_ARCH_FLUX, GB(23.8), 2),
    DIFF("flux1-dev-fp8.safetensors", HR_ARCH_FLUX, GB(11.9), 1),
    DIFF("flux1-dev-fp8-e4m3fn.safetensors", HR_ARCH_FLUX, GB(11.9), 1),
    DIFF("flux1-schnell-fp8-e4m3fn.safetensors", HR_ARCH_FLUX, GB(11.9), 1),
    DIFF_SCALED("flux1-dev-kontext_fp8_scaled.safetensors", HR_ARCH_FLUX, GB(11.9)),
    CKPT("flux1-dev-fp8.safetensors", HR_ARCH_FLUX, GB(17.2), 1, GB(5.14), 1, MB(168)),
    CKPT("flux1-schnell-fp8.safetensors", HR_ARCH_FLUX, GB(17.2), 1, GB(5.14), 1, MB(168)),
    DIFF("flux1-dev-Q8_0.gguf", HR_ARCH_FLUX, GB(12.7), 0),
    DIFF("flux1-dev-Q4_K_S.gguf", HR_ARCH_FLUX, GB(6.81), 0),
    DIFF("flux1-dev-Q2_K.gguf", HR_ARCH_FLUX, GB(4.03), 0),
    DIFF("flux1-schnell-Q8_0.gguf", HR_ARCH_FLUX, GB(12.7), 0),
    DIFF("flux1-schnell-Q4_K_S.gguf", HR_ARCH_FLUX, GB(6.81), 0),
    VAE("ae.safetensors", HR_ARCH_FLUX, MB(335), 4),
    VAE("flux_vae.safetensors", HR_ARCH_FLUX, MB(335), 4),
    DIFF("flux2_dev_fp8mixed.safetensors", HR_ARCH_FLUX2, GB(35.5), 1),
    VAE("flux2-vae.safetensors", HR_ARCH_FLUX2, MB(336), 4),
};

/* Text encoders: T5-XXL (4.9 B), CLIP-L, CLIP-G, UMT5-XXL (Wan), LLaVA-LLaMA-3 (Hunyuan),
 * Qwen2.5-VL (Qwen-Image), Mistral-3 (FLUX.2). */
static const hr_est_catalog_entry cat_te[] = {
    TE("t5xxl_fp16.safetensors", GB(9.79), 2),
    TE("t5xxl_fp8_e4m3fn.safetensors", GB(4.89), 1),
    TE_SCALED("t5xxl_fp8_e4m3fn_scaled.safetensors", GB(5.16)),
    TE("clip_l.safetensors", MB(246), 2),
    TE("clip_g.safetensors", GB(1.39), 2),
    TE("umt5_xxl_fp16.safetensors", GB(11.4), 2),
    TE_SCALED("umt5_xxl_fp8_e4m3fn_scaled.safetensors", GB(6.74)),
    TE("llava_llama3_fp16.safetensors", GB(16.1), 2),
    TE_SCALED("llava_llama3_fp8_scaled.safetensors", GB(9.09)),
    TE("qwen_2.5_vl_7b.safetensors", GB(16.6), 2),
    TE_SCALED("qwen_2.5_vl_7b_fp8_scaled.safetensors", 9384670680ULL),
    TE("mistral_3_small_flux2_bf16.safetensors", GB(35.6), 2),
    TE("mistral_3_small_flux2_fp8.safetensors", 18034640095ULL, 1),
    { "clip_vision_h.safetensors", HR_EST_CLIP_VISION, HR_ARCH_UNKNOWN, GB(1.26), 0, 2, false, 0, 0, 0, 0, false },
};

/* Wan 2.1 / 2.2: 14 B, 1.3 B and the 5 B TI2V. */
static const hr_est_catalog_entry cat_wan[] = {
    DIFF("wan2.1_t2v_1.3B_fp16.safetensors", HR_ARCH_WAN_1_3B, GB(2.84), 2),
    DIFF("wan2.1_t2v_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(28.6), 2),
    DIFF("wan2.1_t2v_14B_fp8_e4m3fn.safetensors", HR_ARCH_WAN_14B, GB(14.3), 1),
    DIFF_SCALED("wan2.1_t2v_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(14.3)),
    DIFF("wan2.1_i2v_480p_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(32.8), 2),
    DIFF("wan2.1_i2v_480p_14B_fp8_e4m3fn.safetensors", HR_ARCH_WAN_14B, GB(16.4), 1),
    DIFF_SCALED("wan2.1_i2v_480p_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(16.4)),
    DIFF("wan2.1_i2v_720p_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(32.8), 2),
    DIFF_SCALED("wan2.1_i2v_720p_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(16.4)),
    DIFF("wan2.1_flf2v_720p_14B_fp8_e4m3fn.safetensors", HR_ARCH_WAN_14B, 16397952536ULL, 1),
    DIFF("wan2.2_t2v_high_noise_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(28.6), 2),
    DIFF("wan2.2_t2v_low_noise_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(28.6), 2),
    DIFF("wan2.2_i2v_high_noise_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(28.6), 2),
    DIFF("wan2.2_i2v_low_noise_14B_fp16.safetensors", HR_ARCH_WAN_14B, GB(28.6), 2),
    DIFF_SCALED("wan2.2_t2v_high_noise_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(14.3)),
    DIFF_SCALED("wan2.2_t2v_low_noise_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(14.3)),
    DIFF_SCALED("wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(14.3)),
    DIFF_SCALED("wan2.2_i2v_low_noise_14B_fp8_scaled.safetensors", HR_ARCH_WAN_14B, GB(14.3)),
    DIFF("wan2.2_ti2v_5B_fp16.safetensors", HR_ARCH_WAN22_5B, GB(10.0), 2),
    VAE("wan_2.1_vae.safetensors", HR_ARCH_WAN_14B, MB(254), 2),
    VAE("wan2.2_vae.safetensors", HR_ARCH_WAN22_5B, GB(1.41), 4),
};

/* HunyuanVideo 1.0 (13 B). */
static const hr_est_catalog_entry cat_hunyuan[] = {
    DIFF("hunyuan_video_t2v_720p_bf16.safetensors", HR_ARCH_HUNYUAN_VIDEO, GB(25.6), 2),
    DIFF("hunyuan_video_image_to_video_720p_bf16.safetensors", HR_ARCH_HUNYUAN_VIDEO, GB(25.6), 2),
    VAE("hunyuan_video_vae_bf16.safetensors", HR_ARCH_HUNYUAN_VIDEO, MB(493), 2),
};

/* Krea 2 (Comfy-Org/Krea-2 on Hugging Face): ComfyUI's Krea2 model class decodes with the
 * Qwen-Image VAE (Wan 2.1's), whose latent is 16 channels at 8x for an image: the geometry of
 * the Qwen-Image entry, which it is filed under. Its encoder is Qwen3-VL 4B. */
static const hr_est_catalog_entry cat_krea2[] = {
    DIFF_SCALED("krea2_turbo_fp8_scaled.safetensors", HR_ARCH_QWEN_IMAGE, GB(13.1)),
    TE_SCALED("qwen3vl_4b_fp8_scaled.safetensors", GB(5.24)),
};

/* Comfy-Org's smaller Z-Image and Qwen3-4B files (sizes: the tensor data their headers give)
 * and FLUX.2 klein 4B, which shares FLUX.2's VAE and latent. int8, fp8 and fp4 layers stay
 * that size in memory, so the bytes per weight here only mark them as not 16-bit. */
static const hr_est_catalog_entry cat_small_dits[] = {
    DIFF("z_image_turbo_int8_convrot.safetensors", HR_ARCH_ZIMAGE, GB(6.20), 1),
    DIFF("z_image_turbo_nvfp4.safetensors", HR_ARCH_ZIMAGE, GB(4.51), 1),
    TE("qwen_3_4b_fp8_mixed.safetensors", GB(5.63), 1),
    TE("qwen_3_4b_fp4_mixed.safetensors", GB(3.48), 1),
    DIFF("flux-2-klein-4b.safetensors", HR_ARCH_FLUX2, GB(7.75), 2),
};

/* LTX-Video: checkpoints hold the video VAE (its share is an approximation). */
static const hr_est_catalog_entry cat_ltxv[] = {
    CKPT("ltx-video-2b-v0.9.safetensors", HR_ARCH_LTXV_2B, GB(9.37), 4, 0, 0, GB(1.68)),
    CKPT("ltx-video-2b-v0.9.1.safetensors", HR_ARCH_LTXV_2B, GB(5.72), 2, 0, 0, GB(0.84)),
    CKPT("ltx-video-2b-v0.9.5.safetensors", HR_ARCH_LTXV_2B, GB(6.34), 2, 0, 0, GB(0.84)),
    CKPT("ltxv-13b-0.9.7-dev.safetensors", HR_ARCH_LTXV_13B, GB(28.6), 2, 0, 0, GB(0.84)),
    CKPT("ltxv-13b-0.9.8-dev-fp8.safetensors", HR_ARCH_LTXV_13B, GB(15.7), 1, 0, 0, GB(0.84)),
    CKPT("ltxv-2b-0.9.8-distilled-fp8.safetensors", HR_ARCH_LTXV_2B, GB(4.46), 1, 0, 0, GB(0.84)),
};

/* Qwen-Image (20 B). Its VAE is Wan 2.1's. */
static const hr_est_catalog_entry cat_qwen[] = {
    DIFF("qwen_image_bf16.safetensors", HR_ARCH_QWEN_IMAGE, GB(40.9), 2),
    DIFF("qwen_image_fp8_e4m3fn.safetensors", HR_ARCH_QWEN_IMAGE, GB(20.4), 1),
    VAE("qwen_image_vae.safetensors", HR_ARCH_QWEN_IMAGE, MB(254), 2),
};

/* Z-Image (6.15 B parameters): ComfyUI's ZImage class, a Lumina2 subclass (supported_models.py:
 * the Flux VAE's 16-channel latent at 8x) with its own memory_usage_factor, and Qwen3-4B as the
 * text encoder. */
static const hr_est_catalog_entry cat_zimage[] = {
    DIFF("z_image_turbo_bf16.safetensors", HR_ARCH_ZIMAGE, GB(12.3), 2),
    DIFF("z_image_bf16.safetensors", HR_ARCH_ZIMAGE, GB(12.3), 2),
    TE("qwen_3_4b.safetensors", 8044982048ULL, 2),
};

/* FLUX.2 [klein] 9B: ComfyUI's Flux2 model class and VAE, with Qwen3-8B as the text encoder.
 * Black Forest Labs' own repository is gated; 18.2 GB is the size its mirrors publish. */
static const hr_est_catalog_entry cat_flux2_klein[] = {
    DIFF("flux-2-klein-9b.safetensors", HR_ARCH_FLUX2, GB(18.2), 2),
    TE("qwen_3_8b.safetensors", GB(16.4), 2),
};

/* Upscalers (ESRGAN family, fp32 .pth). */
static const hr_est_catalog_entry cat_upscale[] = {
    UPS("4x-UltraSharp.pth", MB(67.0), 4.0),
    UPS("RealESRGAN_x4plus.pth", MB(67.0), 4.0),
    UPS("RealESRGAN_x4.pth", MB(67.0), 4.0),
    UPS("RealESRGAN_x2plus.pth", MB(67.1), 2.0),
    UPS("RealESRGAN_x2.pth", MB(67.1), 2.0),
    UPS("4x-AnimeSharp.pth", MB(67.0), 4.0),
    UPS("4x_NMKD-Siax_200k.pth", MB(67.0), 4.0),
    UPS("4x_foolhardy_Remacri.pth", MB(67.0), 4.0),
    UPS("RealESRGAN_x4plus_anime_6B.pth", MB(17.9), 4.0),
};

static const struct {
    const hr_est_catalog_entry *e;
    int n;
} families[] = {
    { cat_sd15, (int)(sizeof cat_sd15 / sizeof cat_sd15[0]) },
    { cat_sdxl, (int)(sizeof cat_sdxl / sizeof cat_sdxl[0]) },
    { cat_sd3, (int)(sizeof cat_sd3 / sizeof cat_sd3[0]) },
    { cat_flux, (int)(sizeof cat_flux / sizeof cat_flux[0]) },
    { cat_te, (int)(sizeof cat_te / sizeof cat_te[0]) },
    { cat_wan, (int)(sizeof cat_wan / sizeof cat_wan[0]) },
    { cat_hunyuan, (int)(sizeof cat_hunyuan / sizeof cat_hunyuan[0]) },
    { cat_krea2, (int)(sizeof cat_krea2 / sizeof cat_krea2[0]) },
    { cat_small_dits, (int)(sizeof cat_small_dits / sizeof cat_small_dits[0]) },
    { cat_ltxv, (int)(sizeof cat_ltxv / sizeof cat_ltxv[0]) },
    { cat_qwen, (int)(sizeof cat_qwen / sizeof cat_qwen[0]) },
    { cat_zimage, (int)(sizeof cat_zimage / sizeof cat_zimage[0]) },
    { cat_flux2_klein, (int)(sizeof cat_flux2_klein / sizeof cat_flux2_klein[0]) },
    { cat_upscale, (int)(sizeof cat_upscale / sizeof cat_upscale[0]) },
};

int hr_est_catalog_count(void)
{
    int n = 0;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        n += families[i].n;
    return n;
}

const hr_est_catalog_entry *hr_est_catalog_at(int i)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0] && i >= 0; f++) {
        if (i < families[f].n)
            return &families[f].e[i];
        i -= families[f].n;
    }
    return NULL;
}

const hr_est_catalog_entry *hr_est_catalog_find(const char *file, bool checkpoint)
{
    if (!file)
        return NULL;
    const char *b = hr_path_base(file);
    const hr_est_catalog_entry *any = NULL;
    int n = hr_est_catalog_count();
    for (int i = 0; i < n; i++) {
        const hr_est_catalog_entry *e = hr_est_catalog_at(i);
        if (!e || !hr_str_ieq(e->file, b))
            continue;
        if (e->checkpoint == checkpoint)
            return e;
        if (!any)
            any = e;
    }
    return any;
}

hr_est_arch hr_est_arch_guess(const char *file)
{
    if (!file)
        return HR_ARCH_UNKNOWN;
    const char *b = hr_path_base(file);
    static const struct {
        const char *needle;
        hr_est_arch arch;
    } rules[] = {
        { "wan2.2_ti2v_5b", HR_ARCH_WAN22_5B },
        { "ti2v_5b", HR_ARCH_WAN22_5B },
        { "wan2.2_vae", HR_ARCH_WAN22_5B },
        { "1.3b", HR_ARCH_WAN_1_3B },
        { "wan", HR_ARCH_WAN_14B },
        { "hunyuan_video", HR_ARCH_HUNYUAN_VIDEO },
        { "hunyuanvideo", HR_ARCH_HUNYUAN_VIDEO },
        { "ltxv-13b", HR_ARCH_LTXV_13B },
        { "ltx", HR_ARCH_LTXV_2B },
        { "flux2", HR_ARCH_FLUX2 },
        { "flux.2", HR_ARCH_FLUX2 },
        { "flux", HR_ARCH_FLUX },
        { "chroma", HR_ARCH_CHROMA },
        { "qwen_image", HR_ARCH_QWEN_IMAGE },
        { "qwen-image", HR_ARCH_QWEN_IMAGE },
        { "hidream", HR_ARCH_HIDREAM },
        { "z_image", HR_ARCH_ZIMAGE },
        { "z-image", HR_ARCH_ZIMAGE },
        { "zimage", HR_ARCH_ZIMAGE },
        { "lumina", HR_ARCH_LUMINA2 },
        { "sd3", HR_ARCH_SD3 },
        { "svd", HR_ARCH_SVD },
        { "sdxl", HR_ARCH_SDXL },
        { "sd_xl", HR_ARCH_SDXL },
        { "xl", HR_ARCH_SDXL },
        { "pony", HR_ARCH_SDXL },
        { "illustrious", HR_ARCH_SDXL },
        { "v2-1", HR_ARCH_SD2 },
        { "sd15", HR_ARCH_SD15 },
        { "v1-5", HR_ARCH_SD15 },
        { "sd1.5", HR_ARCH_SD15 },
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (hr_str_icontains(b, rules[i].needle))
            return rules[i].arch;
    return HR_ARCH_UNKNOWN;
}

int hr_est_add_model(hr_est_input *in, const hr_est_model *m)
{
    if (in->model_count >= HR_EST_MAX_MODELS)
        return -1;
    in->model[in->model_count] = *m;
    return in->model_count++;
}

int hr_est_add_op(hr_est_input *in, const hr_est_op *op)
{
    if (in->op_count >= HR_EST_MAX_OPS)
        return -1;
    in->op[in->op_count] = *op;
    return in->op_count++;
}

static hr_est_format format_of(const char *file)
{
    size_t n = strlen(file);
    if (n >= 5 && hr_str_ieq(file + n - 5, ".gguf"))
        return HR_FMT_GGUF;
    static const char *pickles[] = { ".ckpt", ".pt", ".pth", ".bin", ".pkl" };
    for (size_t i = 0; i < sizeof pickles / sizeof pickles[0]; i++) {
        size_t k = strlen(pickles[i]);
        if (n >= k && hr_str_ieq(file + n - k, pickles[i]))
            return HR_FMT_PICKLE;
    }
    return HR_FMT_SAFETENSORS;
}

int hr_est_add_from_catalog(hr_est_input *in, const char *file, hr_est_kind kind, bool checkpoint, int idx[3])
{
    idx[0] = idx[1] = idx[2] = -1;
    const hr_est_catalog_entry *e = hr_est_catalog_find(file, checkpoint);
    if (!e)
        return 0;
    hr_est_model m;
    memset(&m, 0, sizeof m);
    hr_strlcpy(m.name, hr_path_base(file), sizeof m.name);
    m.arch = e->arch != HR_ARCH_UNKNOWN ? e->arch : hr_est_arch_guess(file);
    m.format = format_of(file);
    m.from_catalog = true;
    m.file_dtype_bytes = e->dtype_bytes;
    m.fp8_scaled = e->fp8_scaled;
    m.scale = e->scale;
    m.params = e->params;
    if (!e->checkpoint) {
        m.kind = checkpoint ? HR_EST_DIFFUSION : (kind == e->kind || kind == HR_EST_DIFFUSION ? e->kind : kind);
        m.file_bytes = e->file_bytes;
        idx[0] = hr_est_add_model(in, &m);
        return idx[0] >= 0 ? 1 : 0;
    }
    int added = 0;
    m.kind = HR_EST_DIFFUSION;
    m.checkpoint = true;
    m.file_bytes = e->file_bytes - e->te_bytes - e->vae_bytes;
    idx[0] = hr_est_add_model(in, &m);
    added += idx[0] >= 0;
    if (e->te_bytes) {
        hr_est_model t = m;
        snprintf(t.name, sizeof t.name, "%.100s/text_encoder", m.name);
        t.kind = HR_EST_TEXT_ENCODER;
        t.file_bytes = e->te_bytes;
        t.file_dtype_bytes = e->te_dtype_bytes;
        t.fp8_scaled = false;
        idx[1] = hr_est_add_model(in, &t);
        added += idx[1] >= 0;
    }
    if (e->vae_bytes) {
        hr_est_model v = m;
        snprintf(v.name, sizeof v.name, "%.100s/vae", m.name);
        v.kind = HR_EST_VAE;
        v.file_bytes = e->vae_bytes;
        v.file_dtype_bytes = e->dtype_bytes == 1 ? 2 : e->dtype_bytes;
        v.fp8_scaled = false;
        idx[2] = hr_est_add_model(in, &v);
        added += idx[2] >= 0;
    }
    return added;
}
