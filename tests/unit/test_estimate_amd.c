/* Mechanisms of ComfyUI's memory manager seen in public logs of AMD cards (docs/memory-model.md),
 * each built from the log line it explains:
 *  - the floor of the lowvram budget, 64 MiB before 0.3.25 and 128 MiB after. */
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

int main(void)
{
    lowvram_floor();
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
