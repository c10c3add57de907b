/* The workflow estimate: the modelled behaviour of ComfyUI's memory manager (rule X.comfymem,
 * docs/memory-model.md) on workflows built from the catalog, and ComfyUI's own published
 * "loaded partially" lines reproduced within 10 % (docs/accuracy.md). */
#include "core/estimate/estimate.h"
#include "core/base/size.h"
#include "est_op.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static hr_est_input in;
static hr_estimate est;
static char say[HR_EST_TEXT_MAX]; /* a message as the report says it in English */

/* A step's notes as the English report says them. */
static const char *note_of(const hr_est_step *st)
{
    static char b[HR_EST_TEXT_MAX];
    return hr_est_step_note_text(&est, (int)(st - est.step), HR_LANG_EN, b, sizeof b);
}

static int cat(const char *file, hr_est_kind kind, bool ckpt, int idx[3])
{
    int n = hr_est_add_from_catalog(&in, file, kind, ckpt, idx);
    CHECK(n > 0);
    return idx[0];
}

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, int m1, uint32_t w, uint32_t h,
               uint32_t frames, uint32_t batch)
{
    hr_test_add_op(&in, id, type, kind, m0, m1, w, h, frames, batch, true);
}

/* FLUX.1 dev: UNETLoader + DualCLIPLoader (T5-XXL fp16 + CLIP-L) + VAELoader, 1024², cfg 1. */
static void flux_dev(const char *unet, bool weight_fp8)
{
    memset(&in, 0, sizeof in);
    int i[3], t[3], c[3], v[3];
    int u = cat(unet, HR_EST_DIFFUSION, false, i);
    if (weight_fp8)
        in.model[u].weight_dtype = HR_WDT_FP8;
    int t5 = cat("t5xxl_fp16.safetensors", HR_EST_TEXT_ENCODER, false, t);
    int cl = cat("clip_l.safetensors", HR_EST_TEXT_ENCODER, false, c);
    int vae = cat("ae.safetensors", HR_EST_VAE, false, v);
    op("12", "UNETLoader", HR_OP_LOAD, u, -1, 0, 0, 0, 0);
    op("11", "DualCLIPLoader", HR_OP_LOAD, t5, cl, 0, 0, 0, 0);
    op("10", "VAELoader", HR_OP_LOAD, vae, -1, 0, 0, 0, 0);
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, t5, cl, 0, 0, 0, 0);
    op("13", "SamplerCustomAdvanced", HR_OP_SAMPLE, u, -1, 1024, 1024, 1, 1);
    in.op[in.op_count - 1].cfg = false;
    op("8", "VAEDecode", HR_OP_VAE_DECODE, vae, -1, 1024, 1024, 1, 1);
    op("9", "SaveImage", HR_OP_OTHER, -1, -1, 0, 0, 0, 0);
}

static void sdxl(void)
{
    memset(&in, 0, sizeof in);
    int k[3];
    cat("sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], k[1], 0, 0, 0, 0);
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], -1, 0, 0, 0, 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], -1, 1024, 1024, 1, 1);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], -1, 1024, 1024, 1, 1);
    op("9", "SaveImage", HR_OP_OTHER, -1, -1, 0, 0, 0, 0);
}

/* Wan 2.2 14B image to video: two experts, UMT5, CLIP vision-less, 832x480x81. */
static void wan22(bool tiled)
{
    memset(&in, 0, sizeof in);
    int a[3], b[3], t[3], v[3];
    int hi = cat("wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors", HR_EST_DIFFUSION, false, a);
    int lo = cat("wan2.2_i2v_low_noise_14B_fp8_scaled.safetensors", HR_EST_DIFFUSION, false, b);
    int te = cat("umt5_xxl_fp8_e4m3fn_scaled.safetensors", HR_EST_TEXT_ENCODER, false, t);
    int vae = cat("wan_2.1_vae.safetensors", HR_EST_VAE, false, v);
    op("37", "UNETLoader", HR_OP_LOAD, hi, -1, 0, 0, 0, 0);
    op("56", "UNETLoader", HR_OP_LOAD, lo, -1, 0, 0, 0, 0);
    op("38", "CLIPLoader", HR_OP_LOAD, te, -1, 0, 0, 0, 0);
    op("39", "VAELoader", HR_OP_LOAD, vae, -1, 0, 0, 0, 0);
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, te, -1, 0, 0, 0, 0);
    op("50", "WanImageToVideo", HR_OP_VAE_ENCODE, vae, -1, 832, 480, 81, 1);
    op("57", "KSamplerAdvanced", HR_OP_SAMPLE, hi, -1, 832, 480, 81, 1);
    op("58", "KSamplerAdvanced", HR_OP_SAMPLE, lo, -1, 832, 480, 81, 1);
    op("8", tiled ? "VAEDecodeTiled" : "VAEDecode", HR_OP_VAE_DECODE, vae, -1, 832, 480, 81, 1);
    op("28", "SaveAnimatedWEBP", HR_OP_OTHER, -1, -1, 0, 0, 0, 0);
}

static hr_est_machine machine(hr_os os, hr_est_vendor v, uint64_t ram_gib, uint64_t vram_gib, int maj, int min, int pat)
{
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = os;
    m.vendor = v;
    m.ram_bytes = ram_gib * HR_GIB;
    m.vram_bytes = vram_gib * HR_GIB;
    if (maj >= 0) {
        m.version[0] = maj, m.version[1] = min, m.version[2] = pat;
        m.version_known = true;
    }
    return m;
}

static int run(const hr_est_machine *m, const char *args)
{
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse(args, strlen(args), &a, &err) == 0);
    return hr_estimate_run(&in, m, &a, &est, &err);
}

static const hr_est_load *load_of(const char *node)
{
    const hr_est_load *l = NULL;
    for (int i = 0; i < est.load_count; i++)
        if (strcmp(est.load[i].node_id, node) == 0)
            l = &est.load[i];
    return l;
}

static const hr_est_step *step_of(const char *node)
{
    for (int i = 0; i < est.step_count; i++)
        if (strcmp(est.step[i].node_id, node) == 0)
            return &est.step[i];
    fprintf(stderr, "no step %s\n", node);
    exit(1);
}

static bool has_verdict(hr_est_verdict_kind k)
{
    for (int i = 0; i < est.verdict_count; i++)
        if (est.verdict[i].kind == k)
            return true;
    return false;
}

static const char *fix_of(hr_est_verdict_kind k)
{
    for (int i = 0; i < est.verdict_count; i++)
        if (est.verdict[i].kind == k) {
            static char fix[HR_EST_TEXT_MAX];
            return hr_est_msg_text(&est.verdict[i].fix, HR_LANG_EN, fix, sizeof fix);
        }
    return "";
}

static bool within(double got, double want, double tol)
{
    return fabs(got - want) <= fabs(want) * tol;
}

int main(void)
{
    const double MiB = 1024.0 * 1024.0;

    /* The arithmetic of ComfyUI's formulas (reference worked examples). */
    hr_est_geom g = { 1024, 1024, 1, 1 };
    CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_FLUX, &g, 2) / MiB, 2031.6, 0.001));
    CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_SDXL, &g, 2) / MiB, 524.3, 0.001));
    CHECK(within((double)hr_est_vae_decode_bytes(HR_ARCH_FLUX, &g, 2, false), 4.57e9, 0.01));
    hr_est_geom w = { 832, 480, 81, 1 };
    CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_WAN_14B, &w, 2) / MiB, 12078, 0.002));
    CHECK(within((double)hr_est_vae_decode_bytes(HR_ARCH_WAN_14B, &w, 2, false) / (1024.0 * MiB), 5.2, 0.02));
    hr_est_geom l = { 768, 512, 97, 1 };
    CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_LTXV_2B, &l, 2) / MiB, 1098, 0.002));
    /* Z-Image is ComfyUI's ZImage class, not Lumina 2, and its memory_usage_factor changed
     * between releases (supported_models.py): 1.7 at 0.3.74-0.4.x, 2.0 from 0.5.0 (PR #11254),
     * 2.8 from 0.9.2; Lumina2 was 1.2 before 0.3.74. One 1024 x 1024 latent, batch 1. */
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_ZIMAGE, &g, 1, 307, true) / MiB, 557.06, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_ZIMAGE, &g, 1, 400, true) / MiB, 557.06, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_ZIMAGE, &g, 1, 500, true) / MiB, 655.36, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_ZIMAGE, &g, 1, 901, true) / MiB, 655.36, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_ZIMAGE, &g, 1, 902, true) / MiB, 917.50, 0.001));
    CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_ZIMAGE, &g, 1) / MiB, 917.50, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_LUMINA2, &g, 1, 373, true) / MiB, 393.22, 0.001));
    CHECK(within((double)hr_est_sampling_bytes_at(HR_ARCH_LUMINA2, &g, 1, 374, true) / MiB, 458.75, 0.001));
    CHECK(hr_est_catalog_find("z_image_turbo_bf16.safetensors", false)->arch == HR_ARCH_ZIMAGE);
    CHECK(hr_est_arch_guess("Z-Image-Turbo-Q8_0.gguf") == HR_ARCH_ZIMAGE);
    CHECK(hr_est_catalog_count() > 80);
    CHECK(hr_est_catalog_find("models\\unet\\FLUX1-DEV.safetensors", false) != NULL);
    CHECK(hr_est_catalog_find("flux1-dev-fp8.safetensors", true)->checkpoint);
    CHECK(!hr_est_catalog_find("flux1-dev-fp8.safetensors", false)->checkpoint);
    CHECK(hr_est_arch_guess("wan2.2_ti2v_5B_fp16.safetensors") == HR_ARCH_WAN22_5B);

    /* 1. A 23.8 GB FLUX dev on 8 GB of VRAM offloads most of its weights to RAM — legacy
     *    (0.3.60) and DynamicVRAM (0.20) alike; RAM holds them in the legacy regime. */
    flux_dev("flux1-dev.safetensors", false);
    hr_est_machine m8 = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 8, 0, 3, 60);
    CHECK(run(&m8, "") == 0);
    CHECK(est.regime == HR_REGIME_LEGACY);
    const hr_est_load *fl = load_of("13");
    CHECK(fl && fl->partial);
    CHECK(fl && fl->offloaded_bytes > 15 * HR_GIB);
    CHECK(fl && fl->loaded_bytes < 7 * HR_GIB);
    CHECK(est.ram.value > 20 * HR_GIB);
    CHECK(has_verdict(HR_EV_OFFLOADS));
    CHECK(strstr(fix_of(HR_EV_OFFLOADS), "fp8") != NULL);
    hr_est_machine m8d = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 8, 0, 20, 1);
    CHECK(run(&m8d, "") == 0);
    CHECK(est.regime == HR_REGIME_DYNAMIC);
    fl = load_of("13");
    CHECK(fl && fl->offloaded_bytes > 15 * HR_GIB && fl->staged_bytes > 20 * HR_GIB);
    /* weight_dtype fp8 halves what stays in RAM */
    flux_dev("flux1-dev.safetensors", true);
    CHECK(run(&m8, "") == 0);
    fl = load_of("13");
    CHECK(fl && fl->offloaded_bytes < 7 * HR_GIB);
    /* ... and once the weights are fp8, fp8 is not the fix offered: a smaller quant is */
    CHECK(has_verdict(HR_EV_OFFLOADS) && strstr(fix_of(HR_EV_OFFLOADS), "fp8") == NULL &&
          strstr(fix_of(HR_EV_OFFLOADS), "GGUF") != NULL);

    /* 2. --highvram changes nothing in RAM on 24 GB: while sampling, the weights live in VRAM
     *    either way. The sampler's own step is not compared: without --highvram its load can
     *    evict part of the encoder while the model built in RAM has not moved yet (FLUX beside
     *    T5 fp16: the doubled batch's memory_required is freed), so the step after it is. */
    hr_est_machine m24 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 24, 0, 3, 60);
    const char *wfs[] = { "sdxl", "flux-fp8" };
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            sdxl();
        else
            flux_dev("flux1-dev-fp8-e4m3fn.safetensors", false);
        const char *node = "8"; /* the decode after the sampler, in both workflows */
        CHECK(run(&m24, "") == 0);
        CHECK(!has_verdict(HR_EV_OFFLOADS) || k == 1);
        uint64_t ram_default = step_of(node)->ram_bytes;
        CHECK(run(&m24, "--highvram") == 0);
        CHECK(est.regime == HR_REGIME_LEGACY);
        uint64_t ram_high = step_of(node)->ram_bytes;
        if (llabs((long long)ram_high - (long long)ram_default) >= (long long)HR_GIB)
            fprintf(stderr, "%s: --highvram %llu, default %llu\n", wfs[k], (unsigned long long)ram_high,
                    (unsigned long long)ram_default);
        CHECK(llabs((long long)ram_high - (long long)ram_default) < (long long)HR_GIB);
    }
    /* and on today's DynamicVRAM the weights never take private RAM at all */
    hr_est_machine m24d = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 24, 0, 27, 0);
    sdxl();
    CHECK(run(&m24d, "") == 0);
    CHECK(est.regime == HR_REGIME_DYNAMIC && est.ram.value < 3 * HR_GIB);

    /* 3. A tiled decode lowers the decode peak. */
    hr_est_machine m16 = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 16, 0, 3, 60);
    wan22(false);
    CHECK(run(&m16, "") == 0);
    uint64_t dec_full = step_of("8")->vram_bytes;
    uint64_t video_commit = est.commit.value;
    wan22(true);
    CHECK(run(&m16, "") == 0);
    CHECK(step_of("8")->vram_bytes + HR_GIB < dec_full);

    /* 3b. A batch decodes as ComfyUI's VAE.decode batches it (comfy/sd.py: batch_number =
     *     max(1, int(free / memory_used))): 4 SDXL images on a 24 GB card decode together, so
     *     the decode peaks about 3 images' memory_used above a batch of 1; on 8 GB they split
     *     into chunks that fit, never the whole batch's memory at once. Sampling and the
     *     latent scale with the batch too. */
    {
        hr_est_geom g1 = { 1024, 1024, 1, 1 }, g4 = { 1024, 1024, 1, 4 };
        CHECK(within((double)hr_est_sampling_bytes(HR_ARCH_SDXL, &g4, 2),
                     4.0 * (double)hr_est_sampling_bytes(HR_ARCH_SDXL, &g1, 2), 1e-6));
        CHECK(within(hr_est_latent_bytes(HR_ARCH_SDXL, &g4), 4 * hr_est_latent_bytes(HR_ARCH_SDXL, &g1), 1e-9));
        uint64_t per = hr_est_vae_decode_bytes(HR_ARCH_SDXL, &g1, 2, false);
        sdxl();
        CHECK(run(&m24, "") == 0);
        uint64_t dec1 = step_of("8")->vram_bytes, samp1 = step_of("3")->vram_bytes;
        for (int k = 0; k < in.op_count; k++)
            in.op[k].geom.batch = in.op[k].geom.width ? 4 : 0;
        CHECK(run(&m24, "") == 0);
        uint64_t dec4 = step_of("8")->vram_bytes, samp4 = step_of("3")->vram_bytes;
        fprintf(stderr, "decode peak: batch 1 %.2f GiB, batch 4 %.2f GiB, one image %.2f GiB\n", (double)dec1 / HR_GIB,
                (double)dec4 / HR_GIB, (double)per / HR_GIB);
        CHECK(dec4 > dec1 + per && dec4 <= dec1 + 3 * per + HR_GIB / 4 && dec4 <= 24 * HR_GIB);
        /* 24 GB less the resident models holds 3 of the 4 at a time: split, and said */
        CHECK(strstr(note_of(step_of("8")), "of 4 at a time") != NULL);
        CHECK(samp4 > samp1);
        CHECK(!has_verdict(HR_EV_TILED_FALLBACK));
        /* 16 images of 512² on 8 GB: chunks of what fits, said in the step's note, never the
         * whole batch's memory at once */
        hr_est_machine m8s = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 8, 0, 3, 60);
        hr_est_geom g512 = { 512, 512, 1, 1 };
        uint64_t per512 = hr_est_vae_decode_bytes(HR_ARCH_SDXL, &g512, 2, false);
        for (int k = 0; k < in.op_count; k++)
            if (in.op[k].geom.width)
                in.op[k].geom = g512;
        CHECK(run(&m8s, "") == 0);
        uint64_t dec1s = step_of("8")->vram_bytes;
        for (int k = 0; k < in.op_count; k++)
            in.op[k].geom.batch = in.op[k].geom.width ? 16 : 0;
        CHECK(run(&m8s, "") == 0);
        fprintf(stderr, "16 x 512² on 8 GB: %.2f GiB (one: %.2f, %s)\n", (double)step_of("8")->vram_bytes / HR_GIB,
                (double)dec1s / HR_GIB, note_of(step_of("8")));
        CHECK(strstr(note_of(step_of("8")), "at a time") != NULL);
        CHECK(step_of("8")->vram_bytes <= 8 * HR_GIB);
        CHECK(step_of("8")->vram_bytes < dec1s + 15 * per512);
    }

    /* 4. Video peaks far above image on the same machine. */
    sdxl();
    CHECK(run(&m16, "") == 0);
    CHECK(video_commit > 2 * est.commit.value);

    /* 5. --novram streams every weight; --cpu holds everything in RAM in fp32; the GPU-only
     *    flags refuse to offload and run out of VRAM when the weights do not fit. */
    flux_dev("flux1-dev.safetensors", false);
    CHECK(run(&m16, "--novram") == 0);
    fl = load_of("13");
    CHECK(fl && fl->loaded_bytes < 64 * (uint64_t)MiB);
    CHECK(run(&m16, "--cpu") == 0);
    CHECK(est.regime == HR_REGIME_CPU && est.vram.value == 0 && est.ram.value > 47 * HR_GIB);
    /* (a driver before 536.40: on Windows a newer one spills the overflow into system memory
     * instead, unit.test_estimate_mech) */
    m16.nvidia_driver = 53179;
    CHECK(run(&m16, "--gpu-only") == 0);
    CHECK(has_verdict(HR_EV_GPU_OOM));
    CHECK(hr_estimate_severity(&est) == 2);
    m16.nvidia_driver = 0;

    /* 6. The commit limit: 32 GB of RAM and a small paging file cannot hold FLUX fp16 legacy. */
    hr_est_machine mc = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 8, 0, 3, 60);
    mc.commit_limit_bytes = 36 * HR_GIB;
    mc.commit_enforced = true;
    CHECK(run(&mc, "") == 0);
    /* the one rule's verdict, as check judges the same limit: it dies even at the low end */
    {
        hr_run_need n;
        hr_est_need(&est, &n);
        CHECK(hr_run_judge(&n, mc.commit_limit_bytes) == HR_NEED_WILL_FAIL);
    }
    CHECK(has_verdict(HR_EV_COMMIT_EXCEEDED) && !has_verdict(HR_EV_COMMIT_TIGHT));
    /* the fix names the paging file plan sizes from the same rule, in GB, never "0 MB" */
    {
        char want[32];
        hr_run_need n;
        hr_est_need(&est, &n);
        hr_size_gb(hr_run_paging_bytes(&n, 32 * HR_GIB), want, sizeof want);
        CHECK(strstr(fix_of(HR_EV_COMMIT_EXCEEDED), want) != NULL &&
              strstr(fix_of(HR_EV_COMMIT_EXCEEDED), " MB") == NULL);
        /* a limit between the low end and what must be backed: AT RISK, as check says */
        mc.commit_limit_bytes = n.fail_below + 2 * HR_GIB;
        CHECK(run(&mc, "") == 0);
        CHECK(has_verdict(HR_EV_COMMIT_TIGHT) && !has_verdict(HR_EV_COMMIT_EXCEEDED) && !has_verdict(HR_EV_FITS));
        CHECK(hr_estimate_severity(&est) == 1);
        /* Linux, limit not enforced: RAM + swap against the same rule, other programs counted,
         * the same size in the swap message */
        hr_est_machine ml = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 16, 8, 0, 3, 60);
        ml.swap_bytes = 2 * HR_GIB;
        CHECK(run(&ml, "") == 0);
        CHECK(has_verdict(HR_EV_COMMIT_EXCEEDED));
        hr_est_need(&est, &n);
        hr_size_gb(hr_run_paging_bytes(&n, 16 * HR_GIB), want, sizeof want);
        CHECK(strstr(fix_of(HR_EV_COMMIT_EXCEEDED), want) != NULL && strstr(fix_of(HR_EV_COMMIT_EXCEEDED), "swap"));
        /* what other programs commit now moves the verdict: a run that fits RAM + swap alone
         * does not with 12 GB of them (laptop-battery-amd-apu's FLUX: estimate said FITS, check
         * WILL FAIL) */
        sdxl();
        ml.swap_bytes = 64 * HR_GIB;
        ml.others_commit_bytes = 0;
        CHECK(run(&ml, "") == 0);
        CHECK(has_verdict(HR_EV_FITS));
        /* FLUX fp16 needs more than 16 GB of RAM: the swap holds it (RAM + swap is the limit) */
        flux_dev("flux1-dev.safetensors", false);
        CHECK(run(&ml, "") == 0);
        CHECK(est.commit.high > 20 * HR_GIB && !has_verdict(HR_EV_COMMIT_EXCEEDED) &&
              !has_verdict(HR_EV_COMMIT_TIGHT) && has_verdict(HR_EV_HEAVY_PAGING));
        sdxl();
        ml.swap_bytes = 4 * HR_GIB;
        ml.others_commit_bytes = 12 * HR_GIB;
        CHECK(run(&ml, "") == 0);
        CHECK(!has_verdict(HR_EV_FITS) && hr_estimate_severity(&est) >= 1);
        /* an unknown limit: cannot tell, the limit needed said, never FITS */
        sdxl();
        hr_est_machine mu = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 64, 24, 0, 3, 60);
        CHECK(run(&mu, "") == 0);
        CHECK(has_verdict(HR_EV_COMMIT_UNKNOWN) && !has_verdict(HR_EV_FITS));
        CHECK(hr_estimate_severity(&est) == 3);
        hr_size_gb(est.commit.high, want, sizeof want);
        CHECK(strstr(hr_est_msg_text(&est.verdict[0].text, HR_LANG_EN, say, sizeof say), want) != NULL);
        mu.commit_limit_bytes = 96 * HR_GIB, mu.commit_enforced = true;
        CHECK(run(&mu, "") == 0);
        CHECK(has_verdict(HR_EV_FITS) && !has_verdict(HR_EV_COMMIT_UNKNOWN) && hr_estimate_severity(&est) == 0);
        /* a will-fail outranks cannot-tell */
        flux_dev("flux1-dev.safetensors", false);
        hr_est_machine mg = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 16, 0, 3, 60);
        CHECK(run(&mg, "--gpu-only") == 0);
        CHECK(has_verdict(HR_EV_COMMIT_UNKNOWN) && hr_estimate_severity(&est) == 2);
        flux_dev("flux1-dev.safetensors", false);
    }
    mc.commit_limit_bytes = 96 * HR_GIB;
    CHECK(run(&mc, "") == 0);
    CHECK(!has_verdict(HR_EV_COMMIT_EXCEEDED));
    CHECK(est.commit.low <= est.commit.value && est.commit.value <= est.commit.high);
    /* pinned memory: capped at 40 % of RAM on Windows from 0.19, 45 % before */
    hr_est_machine mp = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 8, 0, 19, 0);
    mp.fp8_compute = HR_TRI_YES;
    CHECK(run(&mp, "--disable-dynamic-vram") == 0);
    CHECK(est.pin_cap_bytes == (uint64_t)(32.0 * HR_GIB * 0.40));
    CHECK(est.pinned_peak_bytes > 0 && est.pinned_peak_bytes <= est.pin_cap_bytes);
    CHECK(run(&mp, "--disable-dynamic-vram --disable-pinned-memory") == 0);
    CHECK(est.pinned_peak_bytes == 0);

    /* 7. Published ComfyUI lines (docs/accuracy.md), within 10 %.
     *    (a) Wan 2.2 I2V 14B fp16 on a 31.9 GiB AMD R9700 (ROCm, legacy), 640x640, 81 frames,
     *        91 GiB of RAM: "24862 MB loaded, 2390 MB offloaded", about 25.1 GiB usable. */
    memset(&in, 0, sizeof in);
    int x[3];
    int wan = cat("wan2.2_i2v_high_noise_14B_fp16.safetensors", HR_EST_DIFFUSION, false, x);
    op("1", "UNETLoader", HR_OP_LOAD, wan, -1, 0, 0, 0, 0);
    op("2", "KSamplerAdvanced", HR_OP_SAMPLE, wan, -1, 640, 640, 81, 1);
    hr_est_machine ma = machine(HR_OS_LINUX, HR_GPU_AMD, 91, 0, 0, 27, 0);
    ma.vram_bytes = (uint64_t)(31.9 * HR_GIB);
    CHECK(run(&ma, "") == 0);
    fl = load_of("2");
    CHECK(fl && within((double)fl->usable_vram_bytes / MiB, 25.1 * 1024, 0.10));
    CHECK(fl && within((double)fl->loaded_bytes / MiB, 24862, 0.10));
    CHECK(fl && within((double)fl->offloaded_bytes / MiB, 2390, 0.10));
    if (fl)
        printf(
            "R9700 Wan 2.2 fp16: usable %.0f MB (published ~25702), loaded %.0f MB (24862), offloaded %.0f MB (2390)\n",
            (double)fl->usable_vram_bytes / MiB, (double)fl->loaded_bytes / MiB, (double)fl->offloaded_bytes / MiB);

    /* The offload buffer follows the modules, not the model: ComfyUI PR 11096's test log, UMT5-XXL
     * fp8 on an RTX 3060 with --reserve-vram 5.5. Before the look-ahead (0.3.76) the buffer was
     * three times the 2 GB token embedding and nothing loaded: "5334.55 MB usable, 0.00 MB
     * loaded, 6419.09 MB offloaded, 6009.00 MB buffer reserved". The PR's "after" log (5283.48 MB
     * loaded, 48.00 MB buffer) is of its own commit: PR 11171, four days later and in the same
     * release (0.4.0), made a text encoder compute in fp32, so each offloaded module counts an
     * fp32 copy and the embedding reserves 2003 + 4006 + 2 x 40 MiB (the next two modules) =
     * 6089 MiB, more than the usable VRAM: at 0.4.0 nothing loads again. The merge commit
     * (6be85c79, 2025-12-03 23:28:44 -0500, its version still 0.3.76) has the look-ahead
     * without the copy, and gives the "after" log: the embedding and the feed-forward layers
     * load, then 25 attention projections of 16 MiB, and the next reserves itself and two more
     * (48 MiB). The machine's RAM is not in the PR; 64 GB puts the encoder on the CPU first, as
     * the log shows. */
    for (int after = 0; after <= 2; after++) {
        memset(&in, 0, sizeof in);
        int t[3], u[3], v[3];
        int te = cat("umt5_xxl_fp8_e4m3fn_scaled.safetensors", HR_EST_TEXT_ENCODER, false, t);
        int dm = cat("wan2.1_t2v_14B_fp8_scaled.safetensors", HR_EST_DIFFUSION, false, u);
        int va = cat("wan_2.1_vae.safetensors", HR_EST_VAE, false, v);
        op("1", "UNETLoader", HR_OP_LOAD, dm, -1, 0, 0, 0, 0);
        op("2", "CLIPLoader", HR_OP_LOAD, te, -1, 0, 0, 0, 0);
        op("3", "VAELoader", HR_OP_LOAD, va, -1, 0, 0, 0, 0);
        op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, te, -1, 0, 0, 0, 0);
        op("7", "KSampler", HR_OP_SAMPLE, dm, -1, 832, 480, 33, 1);
        bool v040 = after == 1;
        hr_est_machine m3060 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 12, 0, v040 ? 4 : 3, v040 ? 0 : 76);
        if (after == 2)
            CHECK(hr_est_commit_parse("2025-12-03 23:28:44 -0500", &m3060.comfyui_commit) == 0);
        CHECK(run(&m3060, "--reserve-vram 5.5") >= 0);
        const hr_est_load *tl = load_of("4");
        CHECK(tl && tl->partial);
        CHECK(tl && within((double)tl->usable_vram_bytes / MiB, 5334.55, 0.10));
        CHECK(tl && within((double)tl->buffer_bytes / MiB, after == 2 ? 48.0 : v040 ? 6089.0 : 6009.0, 0.01));
        if (after == 2) {
            CHECK(tl && within((double)tl->loaded_bytes / MiB, 5283.48, 0.02));
            CHECK(tl && within((double)tl->offloaded_bytes / MiB, 1136.0, 0.10));
        } else {
            CHECK(tl && within((double)tl->offloaded_bytes / MiB, 6419.09, 0.01));
            CHECK(tl && tl->loaded_bytes == 0);
        }
        if (tl)
            printf("PR 11096 %s: usable %.0f, loaded %.0f, offloaded %.0f, buffer %.0f MB\n",
                   after == 2 ? "6be85c79"
                   : v040     ? "0.4.0"
                              : "0.3.76",
                   (double)tl->usable_vram_bytes / MiB, (double)tl->loaded_bytes / MiB,
                   (double)tl->offloaded_bytes / MiB, (double)tl->buffer_bytes / MiB);
    }

    /* The encoder's fp32 copy and the VAE's largest module, in a public log that shows both
     * (OrsoEric/HOWTO-ComfyUI, 2026-01-17, 0.9.2 on an RX 7900 XTX 24 GB, Windows, ROCm, two
     * streams): every run after the first found all the card's VRAM held ("0.00 MB usable"), so
     * each model was offloaded whole and its reserve was that of its first module, the largest:
     * "7909.89 MB offloaded, 3248.00 MB buffer reserved" for the Qwen2.5-VL 7B fp8 encoder (its
     * 1039.5 MiB bf16 token embedding, an fp32 copy of it, 2079 MiB, and the next two modules,
     * fp8 MLP linears of 3584 x 18944: 64.75 MiB each) and "242.00 MB offloaded, 22.78 MB buffer
     * reserved" for the Qwen-Image VAE (three 384 x 384 x 3 x 3 x 3 bf16 convolutions). */
    {
        memset(&in, 0, sizeof in);
        int t[3], v[3];
        int te = cat("qwen_2.5_vl_7b_fp8_scaled.safetensors", HR_EST_TEXT_ENCODER, false, t);
        int va = cat("qwen_image_vae.safetensors", HR_EST_VAE, false, v);
        op("2", "CLIPLoader", HR_OP_LOAD, te, -1, 0, 0, 0, 0);
        op("3", "VAELoader", HR_OP_LOAD, va, -1, 0, 0, 0, 0);
        op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, te, -1, 0, 0, 0, 0);
        op("8", "VAEDecode", HR_OP_VAE_DECODE, va, -1, 1024, 1024, 1, 1);
        in.op[in.op_count - 1].arch = HR_ARCH_QWEN_IMAGE;
        hr_est_machine rx = machine(HR_OS_WINDOWS, HR_GPU_AMD, 64, 24, 0, 9, 2);
        rx.vram_other_bytes = rx.vram_bytes;
        CHECK(run(&rx, "--use-pytorch-cross-attention") >= 0);
        const hr_est_load *tl = load_of("4"), *vl = load_of("8");
        CHECK(tl && tl->partial && tl->loaded_bytes == 0);
        CHECK(tl && within((double)tl->buffer_bytes / MiB, 3248.0, 0.001));
        CHECK(tl && within((double)tl->offloaded_bytes / MiB, 7909.89, 0.01));
        CHECK(vl && vl->partial && vl->loaded_bytes == 0);
        CHECK(vl && within((double)vl->buffer_bytes / MiB, 22.78, 0.001));
        CHECK(vl && within((double)vl->offloaded_bytes / MiB, 242.0, 0.01));
        /* 0.3.77, before the encoder computed in fp32 and with no streams on AMD (0.7.0): the
         * reserve is the embedding alone, 1039.5 MiB */
        rx.version[1] = 3, rx.version[2] = 77;
        CHECK(run(&rx, "--use-pytorch-cross-attention") >= 0);
        tl = load_of("4");
        CHECK(tl && within((double)tl->buffer_bytes / MiB, 1039.5, 0.001));
        if (tl && vl)
            printf("RX 7900 XTX, all VRAM held: encoder buffer %.2f MB at 0.3.77\n", (double)tl->buffer_bytes / MiB);
    }

    /* SDXL's modules: ComfyUI #11085 (comment of 2026-02-10), an RX 6600 XT 8 GB (8176 MB) with
     * 32 GB, ROCm on Windows, sub-quadratic attention: "4654.17 MB usable, 4644.80 MB loaded,
     * 252.25 MB offloaded, 9.38 MB buffer reserved". Largest first, the convolutions and the
     * feed-forward linears all fit, and the walk stops among the 1280 x 1280 projections: the
     * reserve is three of them (3 x 3.125 MiB, two streams), not a share of the model. */
    {
        sdxl();
        hr_est_machine rx = machine(HR_OS_WINDOWS, HR_GPU_AMD, 32, 8, 0, 12, 0);
        rx.ram_bytes = 32667 * HR_MIB, rx.vram_bytes = 8176 * HR_MIB;
        CHECK(run(&rx, "--use-quad-cross-attention") >= 0);
        const hr_est_load *sl = load_of("3");
        CHECK(sl && sl->partial);
        CHECK(sl && within((double)sl->buffer_bytes / MiB, 9.375, 0.001));
        CHECK(sl && within((double)sl->offloaded_bytes / MiB, 252.25, 0.10));
        if (sl)
            printf("SDXL RX 6600 XT: usable %.0f, loaded %.0f, offloaded %.0f, buffer %.2f MB\n",
                   (double)sl->usable_vram_bytes / MiB, (double)sl->loaded_bytes / MiB,
                   (double)sl->offloaded_bytes / MiB, (double)sl->buffer_bytes / MiB);
    }

    /* A LoRA's patches enlarge the buffer: ComfyUI PR 11069's test log, FLUX.2 dev fp8 with a
     * LoRA on an RTX 5090 with --reserve-vram 8.9. 0.3.76 counted a patched module's weight
     * math in fp32 three times and multiplied by the streams plus one: "19962.72 MB usable,
     * 7281.02 MB loaded, 26532.00 MB offloaded, 12636.00 MB buffer reserved, lowvram patches:
     * 111" (3 x (324 + 324 x 12) MiB for a single block's linear1). 0.4.0 looks ahead and counts
     * the patch in bf16 twice: 324 + 1296 + 2 x 324 = 2268 MiB. Without the LoRA, 0.3.76
     * reserves three bare modules (972 MiB). The PR's "after" log is of its merge commit
     * (519c9411, 2025-12-03 02:28:45 -0500, still 0.3.76): the patched module's cost once and two
     * bare ones, 4212 + 2 x 324 = 4860 MiB ("15057.02 MB loaded, 18756.00 MB offloaded, 4860.00
     * MB buffer reserved"). */
    for (int pass = 0; pass < 4; pass++) {
        memset(&in, 0, sizeof in);
        int u[3], t[3], v[3];
        int dm = cat("flux2_dev_fp8mixed.safetensors", HR_EST_DIFFUSION, false, u);
        int te = cat("mistral_3_small_flux2_fp8.safetensors", HR_EST_TEXT_ENCODER, false, t);
        int va = cat("flux2-vae.safetensors", HR_EST_VAE, false, v);
        hr_est_model lm;
        memset(&lm, 0, sizeof lm);
        snprintf(lm.name, sizeof lm.name, "flux2_lora.safetensors");
        lm.kind = HR_EST_LORA;
        lm.arch = HR_ARCH_FLUX2;
        lm.file_bytes = 390000000;
        lm.file_dtype_bytes = 2;
        int lo = hr_est_add_model(&in, &lm);
        CHECK(lo >= 0);
        op("1", "UNETLoader", HR_OP_LOAD, dm, -1, 0, 0, 0, 0);
        op("2", "CLIPLoader", HR_OP_LOAD, te, -1, 0, 0, 0, 0);
        op("3", "VAELoader", HR_OP_LOAD, va, -1, 0, 0, 0, 0);
        op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, te, -1, 0, 0, 0, 0);
        if (pass != 3) /* the last pass has none: the block after the loop reuses its workflow */
            op("5", "LoraLoaderModelOnly", HR_OP_LORA, lo, dm, 0, 0, 0, 0);
        op("7", "KSampler", HR_OP_SAMPLE, dm, -1, 1024, 1024, 1, 1);
        hr_est_machine m5090 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 96, 32, 0, pass == 1 ? 4 : 3, pass == 1 ? 0 : 76);
        if (pass == 2)
            CHECK(hr_est_commit_parse("2025-12-03 02:28:45 -0500", &m5090.comfyui_commit) == 0);
        CHECK(run(&m5090, "--reserve-vram 8.9") >= 0);
        const hr_est_load *fl2 = load_of("7");
        double want = pass == 0 ? 12636.0 : pass == 1 ? 2268.0 : pass == 2 ? 4860.0 : 972.0;
        CHECK(fl2 && fl2->partial);
        CHECK(fl2 && within((double)fl2->buffer_bytes / MiB, want, 0.01));
        CHECK(fl2 && within((double)fl2->usable_vram_bytes / MiB, 19962.72, 0.10));
        if (pass == 0) /* loaded = usable - buffer; offloaded the rest of 33813 MB */
            CHECK(fl2 && within((double)fl2->offloaded_bytes / MiB, 26532.0, 0.10));
        if (pass == 2)
            CHECK(fl2 && within((double)fl2->offloaded_bytes / MiB, 18756.0, 0.10));
        if (fl2)
            printf("PR 11069 %s: usable %.0f, loaded %.0f, offloaded %.0f, buffer %.0f MB\n",
                   pass == 0   ? "0.3.76 LoRA"
                   : pass == 1 ? "0.4.0 LoRA"
                   : pass == 2 ? "519c9411 LoRA"
                               : "0.3.76 no LoRA",
                   (double)fl2->usable_vram_bytes / MiB, (double)fl2->loaded_bytes / MiB,
                   (double)fl2->offloaded_bytes / MiB, (double)fl2->buffer_bytes / MiB);
    }
    /* NUM_STREAMS: --async-offload 4 reserves five modules at 0.3.76, --disable-async-offload one */
    {
        hr_est_machine m5090 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 96, 32, 0, 3, 76);
        CHECK(run(&m5090, "--reserve-vram 8.9 --async-offload 4") >= 0);
        const hr_est_load *fl2 = load_of("7");
        CHECK(fl2 && within((double)fl2->buffer_bytes / MiB, 5 * 324.0, 0.01));
        CHECK(run(&m5090, "--reserve-vram 8.9 --disable-async-offload") >= 0);
        fl2 = load_of("7");
        CHECK(fl2 && within((double)fl2->buffer_bytes / MiB, 324.0, 0.01));
    }

    /* The reserve is set by the first module that does not fit, not by the largest: the stock
     * Z-Image Turbo bf16 workflow on an RX 6800 XT 16 GB (chameleon-ai/ryzen-ai-max, December
     * 2025; 0.3.76, sub-quadratic attention): "11288.08 MB usable, 11259.95 MB loaded, 479.60 MB
     * offloaded, 28.12 MB buffer reserved". ModelPatcher.load() takes the modules largest first;
     * the qkv (84 MiB) and feed-forward (75 MiB) linears all fit, and the first 3840 x 3840
     * output projection that does not fit sets the reserve: 28.125 MiB, once (NUM_STREAMS is 0
     * on AMD before 0.7.0). With --async-offload (two streams) it is three of them. */
    for (int pass = 0; pass < 2; pass++) {
        memset(&in, 0, sizeof in);
        int u[3], t[3], v[3];
        int dm = cat("z_image_turbo_bf16.safetensors", HR_EST_DIFFUSION, false, u);
        int te = cat("qwen_3_4b.safetensors", HR_EST_TEXT_ENCODER, false, t);
        int va = cat("ae.safetensors", HR_EST_VAE, false, v);
        op("1", "UNETLoader", HR_OP_LOAD, dm, -1, 0, 0, 0, 0);
        op("2", "CLIPLoader", HR_OP_LOAD, te, -1, 0, 0, 0, 0);
        op("3", "VAELoader", HR_OP_LOAD, va, -1, 0, 0, 0, 0);
        op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, te, -1, 0, 0, 0, 0);
        op("7", "KSampler", HR_OP_SAMPLE, dm, -1, 1024, 1024, 1, 1);
        hr_est_machine m6800 = machine(HR_OS_LINUX, HR_GPU_AMD, 64, 16, 0, 3, 76);
        CHECK(run(&m6800, pass == 0 ? "--use-quad-cross-attention" : "--use-quad-cross-attention --async-offload") >=
              0);
        const hr_est_load *zl = load_of("7");
        CHECK(zl && zl->partial);
        CHECK(zl && within((double)zl->usable_vram_bytes / MiB, 11288.08, 0.10));
        CHECK(zl && within((double)zl->buffer_bytes / MiB, pass == 0 ? 28.125 : 3 * 28.125, 0.01));
        if (pass == 0) {
            CHECK(zl && within((double)zl->loaded_bytes / MiB, 11259.95, 0.10));
            CHECK(zl && within((double)zl->offloaded_bytes / MiB, 479.60, 0.10));
        }
        if (zl)
            printf("Z-Image RX 6800 XT %s: usable %.0f, loaded %.0f, offloaded %.0f, buffer %.2f MB\n",
                   pass == 0 ? "0.3.76" : "0.3.76 --async-offload", (double)zl->usable_vram_bytes / MiB,
                   (double)zl->loaded_bytes / MiB, (double)zl->offloaded_bytes / MiB, (double)zl->buffer_bytes / MiB);
    }

    /* The load-time peak of a checkpoint on Windows: safetensors maps the file through torch's
     * copy-on-write view, charged to commit in full while the model is built from it. ComfyUI
     * #5175: an RTX 4060 Ti 16 GB (HIGH_VRAM), 32 GB RAM (32704 MB), Windows, October 2024; every
     * FLUX file made ComfyUI vanish on load ("the system forcibly kills processes due to
     * insufficient memory"), so the real peak commit was above the RAM. The Comfy-Org FLUX dev
     * fp8 checkpoint (17.2 GB) is assumed. The same run on Linux charges nothing for the view. */
    for (int win = 0; win <= 1; win++) {
        memset(&in, 0, sizeof in);
        int k[3];
        cat("flux1-dev-fp8.safetensors", HR_EST_DIFFUSION, true, k);
        op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], k[1], 0, 0, 0, 0);
        in.op[0].models[in.op[0].model_count++] = k[2];
        op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], -1, 0, 0, 0, 0);
        op("3", "KSampler", HR_OP_SAMPLE, k[0], -1, 1024, 1024, 1, 1);
        op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], -1, 1024, 1024, 1, 1);
        hr_est_machine m4060 = machine(win ? HR_OS_WINDOWS : HR_OS_LINUX, HR_GPU_NVIDIA, 0, 16, 0, 2, 2);
        m4060.ram_bytes = 32704ull * 1024 * 1024;
        CHECK(run(&m4060, "--highvram") >= 0);
        const hr_est_step *ld = &est.step[0];
        if (win) {
            CHECK(est.commit.high > m4060.ram_bytes);
            CHECK(strcmp(est.commit.class_type, "CheckpointLoaderSimple") == 0);
            CHECK(ld->commit_bytes > ld->ram_bytes + 17000000000ull);
        } else {
            CHECK(ld->commit_bytes < ld->ram_bytes + 1000000000ull);
        }
        printf("#5175 FLUX fp8 checkpoint, 32 GB %s: loader step commit %.1f GB (RAM %.1f GB), peak high %.1f GB\n",
               win ? "Windows" : "Linux", (double)ld->commit_bytes / 1e9, (double)ld->ram_bytes / 1e9,
               (double)est.commit.high / 1e9);
    }

    /* Where weights are built (legacy). ComfyUI #10852: RTX 3090 24 GB, 32 GB RAM, Linux,
     * 0.3.70. UNETLoader (load_diffusion_model_state_dict) builds the diffusion model on the
     * CPU whatever the free memory: Qwen-Image's 20.4 GB land in RAM. A checkpoint's model asks
     * unet_inital_load_device(), which compares free VRAM with free RAM read before the model
     * exists: 32 GB less the process (about 31.7 GB) is more than the 3090's free VRAM, so the
     * FLUX fp8 checkpoint's 11.9 GB are built in RAM too; with the model's own size taken off
     * free RAM first (19.8 GB) it would wrongly go straight to VRAM. On a 16 GB machine free
     * RAM is below free VRAM and the checkpoint's SDXL model is built in VRAM. */
    {
        hr_est_machine m3090 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 24, 0, 3, 70);
        memset(&in, 0, sizeof in);
        int a[3], t[3], v[3];
        int qi = cat("qwen_image_fp8_e4m3fn.safetensors", HR_EST_DIFFUSION, false, a);
        int qt = cat("qwen_2.5_vl_7b_fp8_scaled.safetensors", HR_EST_TEXT_ENCODER, false, t);
        int qv = cat("qwen_image_vae.safetensors", HR_EST_VAE, false, v);
        op("1", "UNETLoader", HR_OP_LOAD, qi, -1, 0, 0, 0, 0);
        op("2", "CLIPLoader", HR_OP_LOAD, qt, -1, 0, 0, 0, 0);
        op("3", "VAELoader", HR_OP_LOAD, qv, -1, 0, 0, 0, 0);
        op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, qt, -1, 0, 0, 0, 0);
        op("7", "KSampler", HR_OP_SAMPLE, qi, -1, 1328, 1328, 1, 1);
        op("8", "VAEDecode", HR_OP_VAE_DECODE, qv, -1, 1328, 1328, 1, 1);
        CHECK(run(&m3090, "") >= 0);
        CHECK(strstr(note_of(step_of("1")), "built directly in VRAM") == NULL);
        CHECK(step_of("1")->ram_bytes > 20400000000ull);
        printf("#10852 Qwen-Image UNETLoader, 24 GB / 32 GB: RAM after the loader %.1f GB\n",
               (double)step_of("1")->ram_bytes / 1e9);

        memset(&in, 0, sizeof in);
        int k[3];
        cat("flux1-dev-fp8.safetensors", HR_EST_DIFFUSION, true, k);
        op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], k[1], 0, 0, 0, 0);
        in.op[0].models[in.op[0].model_count++] = k[2];
        op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], -1, 0, 0, 0, 0);
        op("3", "KSampler", HR_OP_SAMPLE, k[0], -1, 1024, 1024, 1, 1);
        CHECK(run(&m3090, "") >= 0);
        CHECK(strstr(note_of(step_of("4")), "flux1-dev-fp8.safetensors built directly in VRAM") == NULL);
        CHECK(step_of("4")->ram_bytes > 11900000000ull);
        printf("FLUX fp8 checkpoint, 24 GB / 32 GB: RAM after the loader %.1f GB\n",
               (double)step_of("4")->ram_bytes / 1e9);

        hr_est_machine m16g = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 16, 24, 0, 3, 70);
        sdxl();
        CHECK(run(&m16g, "") >= 0);
        CHECK_CONTAINS(note_of(step_of("4")), "sd_xl_base_1.0.safetensors built directly in VRAM");
        in.model[in.op[0].models[0]].checkpoint = false; /* the same model through UNETLoader */
        CHECK(run(&m16g, "") >= 0);
        CHECK(strstr(note_of(step_of("4")), "sd_xl_base_1.0.safetensors built directly in VRAM") == NULL);
    }

    /* A load evicts before it loads. ComfyUI #10771: RTX 5060 Ti 16 GB, 32 GB RAM, Linux, 0.3.67,
     * the Wan 2.2 14B template killed by the OOM killer. Both fp8 experts come from UNETLoader
     * (built in RAM); at the low-noise sampler load_models_gpu() first evicts the high-noise
     * expert and UMT5 back to RAM, then moves the low-noise expert in: for that moment the
     * step holds both experts and the encoder (2 x 14.3 + 6.7 GB), above the 34.4 GB of RAM,
     * though the state after the step is lower. */
    {
        hr_est_machine m5060 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 16, 0, 3, 67);
        wan22(false);
        CHECK(run(&m5060, "") >= 0);
        const hr_est_step *lo = step_of("58");
        CHECK(lo->ram_bytes > 2 * 14300000000ull + 6700000000ull);
        CHECK(est.ram.high > 32 * HR_GIB);
        printf("#10771 Wan 2.2 on 16 GB / 32 GB: low-noise sampler step RAM %.1f GB, peak %.1f-%.1f GB\n",
               (double)lo->ram_bytes / 1e9, (double)est.ram.low / 1e9, (double)est.ram.high / 1e9);
    }

    /* Pinned memory by version. ComfyUI #10555: RTX 4090 24 GB, 128 GB RAM (130980 MB),
     * Windows, a log saying 0.3.68 and "Enabled pinned memory 58940.0": PR #10656 (2025-11-05)
     * turned pinning on for NVIDIA after the 0.3.68 tag, so that version string is both sides.
     * The estimate says so, and its range holds both: the cap (45 % of RAM) in the middle, no
     * pins at the low end. 0.3.67 pins nothing; --fast pinned_memory (or --fast alone) settles
     * 0.3.68 on, --disable-pinned-memory off. */
    {
        hr_est_machine m4090 = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 0, 24, 0, 3, 68);
        m4090.ram_bytes = 130980ull * 1024 * 1024;
        wan22(false);
        CHECK(run(&m4090, "") >= 0);
        CHECK(within((double)est.pin_cap_bytes / MiB, 58940.0, 0.001));
        bool noted = false;
        for (int i = 0; i < est.note_count; i++)
            noted = noted || strstr(hr_est_msg_text(&est.notes[i], HR_LANG_EN, say, sizeof say), "#10656") != NULL;
        CHECK(noted);
        uint64_t amb_low = est.commit.low, amb_value = est.commit.value;
        CHECK(run(&m4090, "--disable-pinned-memory") >= 0);
        CHECK(est.pin_cap_bytes == 0);
        CHECK(amb_low <= est.commit.low && amb_value >= est.commit.value);
        const char *on[] = { "--fast pinned_memory", "--fast", "--fast=pinned_memory,fp16_accumulation" };
        for (size_t k = 0; k < sizeof on / sizeof on[0]; k++) {
            CHECK(run(&m4090, on[k]) >= 0);
            CHECK(est.pin_cap_bytes > 0);
            for (int i = 0; i < est.note_count; i++)
                CHECK(strstr(hr_est_msg_text(&est.notes[i], HR_LANG_EN, say, sizeof say), "#10656") == NULL);
        }
        CHECK(run(&m4090, "--fast fp16_accumulation") >= 0);
        CHECK(est.pin_cap_bytes > 0); /* still the ambiguous release: the middle counts pins */
        m4090.version[2] = 67;
        CHECK(run(&m4090, "--fast pinned_memory") >= 0);
        CHECK(est.pin_cap_bytes == 0);
        printf("#10555 0.3.68, 128 GB Windows: pin cap %.0f MB, commit low %.1f GB with the pins left out\n", 58940.0,
               (double)amb_low / 1e9);
    }

    /* JSON carries the contract's keys. */
    hr_buf out;
    hr_buf_init(&out, 1 << 20);
    hr_render r;
    hr_render_init(&r, HR_FORMAT_JSON, &out, false);
    hr_estimate_render(&est, &r);
    CHECK(hr_render_finish(&r) == 0);
    CHECK_CONTAINS(hr_buf_str(&out), "\"schema\": \"headroom.estimate/1\"");
    CHECK_CONTAINS(hr_buf_str(&out), "\"usable_vram_bytes\"");
    CHECK_CONTAINS(hr_buf_str(&out), "\"commit_bytes\"");
    hr_buf_free(&out);

    {
        /* ComfyUI's version not known: each tier's range spans every memory manager it could
         * run (X.comfymem), so its high end reaches the highest of the runs at each version
         * and names the version that set it. FLUX.1 dev on 12 GB / 32 GB, Linux: the
         * legacy managers keep the offloaded weights in private RAM, DynamicVRAM maps them. */
        flux_dev("flux1-dev.safetensors", false);
        static const int vers[][3] = { { 0, 3, 60 }, { 0, 3, 70 }, { 0, 3, 77 }, { 0, 12, 0 },
                                       { 0, 16, 0 }, { 0, 19, 0 }, { 0, 23, 0 }, { 0, 27, 0 } };
        uint64_t top_commit = 0, top_ram = 0;
        char top_at[16] = "";
        for (size_t v = 0; v < sizeof vers / sizeof vers[0]; v++) {
            hr_est_machine mk = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 12, vers[v][0], vers[v][1], vers[v][2]);
            CHECK(run(&mk, "") == 0);
            if (est.commit.high > top_commit) {
                top_commit = est.commit.high;
                snprintf(top_at, sizeof top_at, "%d.%d.%d", vers[v][0], vers[v][1], vers[v][2]);
            }
            top_ram = est.ram.high > top_ram ? est.ram.high : top_ram;
        }
        hr_est_machine mu = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 12, -1, 0, 0);
        CHECK(run(&mu, "") == 0);
        CHECK(est.commit.high >= top_commit);
        CHECK(est.ram.high >= top_ram);
        CHECK(strcmp(est.high_version, top_at) == 0);
        bool noted = false;
        for (int i = 0; i < est.note_count; i++)
            noted = noted || (strstr(hr_est_msg_text(&est.notes[i], HR_LANG_EN, say, sizeof say), "not known") &&
                              strstr(say, top_at));
        CHECK(noted);
        printf("version not known, FLUX.1 dev on 12 GB: commit %.1f-%.1f GB, high end %s's (%.1f GB)\n",
               (double)est.commit.low / 1e9, (double)est.commit.high / 1e9, est.high_version, (double)top_commit / 1e9);
    }

    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
