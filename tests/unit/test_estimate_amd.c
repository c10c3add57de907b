/* Mechanisms of ComfyUI's memory manager seen in public logs of AMD cards (docs/memory-model.md),
 * each built from the log line it explains:
 *  - the floor of the lowvram budget, 64 MiB before 0.3.25 and 128 MiB after;
 *  - the sampling reserve of an RDNA2 card, which ComfyUI runs without PyTorch attention. */
#include "core/estimate/estimate.h"
#include "core/base/size.h"
#include "est_op.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static hr_est_input in;
static hr_estimate est;
static const double MiB = 1024.0 * 1024.0;

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, uint32_t w, uint32_t h)
{
    hr_test_add_op(&in, id, type, kind, m0, -1, w, h, 1, 1, false);
}

/* CheckpointLoaderSimple, one prompt, one sampler, one decode. */
static void checkpoint_workflow(const char *ckpt, uint32_t w, uint32_t h)
{
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, ckpt, HR_EST_DIFFUSION, true, k) > 0);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], 0, 0);
    in.op[0].models[in.op[0].model_count++] = k[1];
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], 0, 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], w, h);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], w, h);
}

static hr_est_machine machine(hr_os os, uint64_t ram, uint64_t vram, int maj, int min, int pat, const char *gpu)
{
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = os;
    m.vendor = HR_GPU_AMD;
    m.ram_bytes = ram;
    m.vram_bytes = vram;
    m.version[0] = maj, m.version[1] = min, m.version[2] = pat;
    m.version_known = true;
    snprintf(m.gpu_name, sizeof m.gpu_name, "%s", gpu);
    return m;
}

static int run(const hr_est_machine *m, const char *args)
{
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse(args, strlen(args), &a, &err) == 0);
    return hr_estimate_run(&in, m, &a, &est, &err);
}

static const hr_est_load *load_named(const char *part)
{
    for (int i = 0; i < est.load_count; i++)
        if (strstr(est.load[i].model, part))
            return &est.load[i];
    return NULL;
}

/* The named model's load line loaded partially (false, and a failed check, when it has none). */
static bool partial(const char *part)
{
    const hr_est_load *l = load_named(part);
    CHECK(l != NULL);
    return l && l->partial;
}

static double usable_mib(const char *part)
{
    const hr_est_load *l = load_named(part);
    CHECK(l != NULL);
    return l ? (double)l->usable_vram_bytes / MiB : -1;
}

static void lowvram_floor(void)
{
    /* ComfyUI #2576 (January 2024): an RX 470 through DirectML, which reports 1024 MB, with
     * --lowvram: "Requested to load SDXL / Loading 1 new model / loading in lowvram mode 64.0",
     * and the same for the VAE. The card has no room above the budget's floor, so the line
     * shows the floor itself: 64 MiB then, 128 MiB from 0.3.25 until the clamp was rewritten. */
    checkpoint_workflow("sd_xl_base_1.0.safetensors", 1024, 1024);
    hr_est_machine m = machine(HR_OS_WINDOWS, 81839 * HR_MIB, 1024 * HR_MIB, 0, 0, 1, "AMD Radeon RX 470");
    CHECK(run(&m, "--lowvram") == 0);
    double sdxl = usable_mib("sd_xl_base"), vae = usable_mib("/vae");
    printf("RX 470 (1024 MB), --lowvram, 0.0.1: SDXL usable %.1f MB, VAE usable %.1f MB\n", sdxl, vae);
    CHECK(fabs(sdxl - 64.0) < 0.5);
    CHECK(fabs(vae - 64.0) < 0.5);
    m.version[0] = 0, m.version[1] = 3, m.version[2] = 24;
    CHECK(run(&m, "--lowvram") == 0);
    CHECK(fabs(usable_mib("sd_xl_base") - 64.0) < 0.5);
    m.version[2] = 25;
    CHECK(run(&m, "--lowvram") == 0);
    CHECK(fabs(usable_mib("sd_xl_base") - 128.0) < 0.5);
}

/* UNETLoader + CLIPLoader + VAELoader, one prompt, one sampler (cfg 1), one decode. */
static void separate_workflow(const char *unet, const char *te, const char *vae, uint32_t w, uint32_t h)
{
    memset(&in, 0, sizeof in);
    int k[3], u, t, v;
    CHECK(hr_est_add_from_catalog(&in, unet, HR_EST_DIFFUSION, false, k) == 1);
    u = k[0];
    CHECK(hr_est_add_from_catalog(&in, te, HR_EST_TEXT_ENCODER, false, k) == 1);
    t = k[0];
    CHECK(hr_est_add_from_catalog(&in, vae, HR_EST_VAE, false, k) == 1);
    v = k[0];
    op("1", "UNETLoader", HR_OP_LOAD, u, 0, 0);
    op("2", "CLIPLoader", HR_OP_LOAD, t, 0, 0);
    op("3", "VAELoader", HR_OP_LOAD, v, 0, 0);
    op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, t, 0, 0);
    op("7", "KSampler", HR_OP_SAMPLE, u, w, h);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, v, w, h);
}

static void sub_quadratic_attention(void)
{
    /* chameleon-ai/ryzen-ai-max (December 2025): the stock Z-Image Turbo workflow at 1024 x 1024
     * on an RX 6800 XT 16 GB (gfx1030) logs "loaded partially; 11288.08 MB usable, 11259.95 MB
     * loaded, 479.60 MB offloaded". ComfyUI gives RDNA2 no PyTorch attention, so
     * memory_required() takes its other branch, area x 0.15 x memory_usage_factor MiB (ZImage's
     * 1.7 at 0.3.76): 4178 MiB kept free for one latent, and the 11 740 MB model no longer fits. */
    separate_workflow("z_image_turbo_bf16.safetensors", "qwen_3_4b.safetensors", "ae.safetensors", 1024, 1024);
    hr_est_machine m = machine(HR_OS_LINUX, 64 * HR_GIB, 16 * HR_GIB, 0, 3, 76, "AMD Radeon RX 6800 XT");
    CHECK(run(&m, "") == 0);
    const hr_est_load *z = load_named("z_image_turbo");
    CHECK(z != NULL);
    if (!z)
        return;
    double usable = (double)z->usable_vram_bytes / MiB;
    printf("RX 6800 XT, 0.3.76, Z-Image 1024x1024: usable %.1f MB, partial %d\n", usable, z->partial);
    CHECK(fabs(usable - 11288.08) < 0.10 * 11288.08);
    CHECK(z->partial);
    /* the same card asked for PyTorch attention, and an RDNA3 card, reserve the small branch:
     * the model loads completely */
    CHECK(run(&m, "--use-pytorch-cross-attention") == 0);
    CHECK(load_named("z_image_turbo") && !partial("z_image_turbo"));
    hr_est_machine r3 = machine(HR_OS_LINUX, 64 * HR_GIB, 16 * HR_GIB, 0, 3, 76, "AMD Radeon RX 7800 XT");
    CHECK(run(&r3, "") == 0);
    CHECK(load_named("z_image_turbo") && !partial("z_image_turbo"));
    /* and an RDNA3 card told to use sub-quadratic attention does not */
    CHECK(run(&r3, "--use-quad-cross-attention") == 0);
    CHECK(partial("z_image_turbo"));
}

int main(void)
{
    lowvram_floor();
    sub_quadratic_attention();
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
