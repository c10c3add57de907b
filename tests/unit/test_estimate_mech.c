/* Mechanisms of ComfyUI's memory manager that decide what its own log lines say
 * (docs/memory-model.md), each checked against a public log line or the ComfyUI source it
 * comes from:
 *  - the VAE's dtype: vae_dtype() takes the first of the VAE's working dtypes the card
 *    computes fast, and DynamicVRAM as first released staged the VAE at fp32;
 *  - a text encoder file that carries a language-model head ComfyUI does not build;
 *  - the VAE decode that does not fit and is retried tiled;
 *  - what a sampler asks load_models_gpu() to free: the doubled batch, cfg or not;
 *  - the VRAM other programs hold: read from the card when no ComfyUI runs, else assumed. */
#include "core/estimate/estimate.h"
#include "core/base/size.h"
#include "core/model/snapshot.h"
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
static const double MiB = 1024.0 * 1024.0;

static int cat(const char *file, hr_est_kind kind)
{
    int idx[3];
    CHECK(hr_est_add_from_catalog(&in, file, kind, false, idx) > 0);
    return idx[0];
}

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, uint32_t w, uint32_t h, uint32_t frames)
{
    hr_test_add_op(&in, id, type, kind, m0, -1, w, h, frames, 1, false);
}

/* UNETLoader + CLIPLoader + VAELoader, one prompt, one sampler, one decode. */
static void workflow(const char *unet, const char *te, const char *vae, uint32_t w, uint32_t h, uint32_t frames)
{
    memset(&in, 0, sizeof in);
    int u = cat(unet, HR_EST_DIFFUSION);
    int t = cat(te, HR_EST_TEXT_ENCODER);
    int v = cat(vae, HR_EST_VAE);
    op("1", "UNETLoader", HR_OP_LOAD, u, 0, 0, 0);
    op("2", "CLIPLoader", HR_OP_LOAD, t, 0, 0, 0);
    op("3", "VAELoader", HR_OP_LOAD, v, 0, 0, 0);
    op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, t, 0, 0, 0);
    op("5", "KSampler", HR_OP_SAMPLE, u, w, h, frames);
    op("6", "VAEDecode", HR_OP_VAE_DECODE, v, w, h, frames);
}

static hr_est_machine machine(hr_os os, hr_est_vendor v, uint64_t ram_gib, uint64_t vram_gib, int maj, int min, int pat,
                              const char *gpu)
{
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = os;
    m.vendor = v;
    m.ram_bytes = ram_gib * HR_GIB;
    m.vram_bytes = vram_gib * HR_GIB;
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

static bool within(double got, double want, double tol)
{
    return fabs(got - want) <= fabs(want) * tol;
}

static int vae_bytes(hr_est_arch arch, hr_est_vendor v, hr_os os, const char *gpu, const char *args)
{
    hr_est_machine m = machine(os, v, 32, 12, 0, 27, 0, gpu);
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse(args, strlen(args), &a, &err) == 0);
    return hr_est_vae_dtype_bytes(arch, &m, &a);
}

static void vae_dtype(void)
{
    /* vae_dtype() (comfy/model_management.py): the first of the VAE's working dtypes the card
     * computes fast. The 2-D KL VAE lists bf16 then fp32, so a card without fast bf16 holds it
     * in fp32; the Wan VAE lists bf16, fp16, fp32. should_use_bf16: NVIDIA SM >= 8, AMD from
     * RDNA3; should_use_fp16: NVIDIA SM >= 7 except the GTX 16 series, Pascal on Windows only. */
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce RTX 3060", "") == 2);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce RTX 2080 Ti", "") == 4);
    CHECK(vae_bytes(HR_ARCH_WAN_14B, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce RTX 2080 Ti", "") == 2);
    CHECK(vae_bytes(HR_ARCH_WAN_14B, HR_GPU_NVIDIA, HR_OS_WINDOWS, "NVIDIA GeForce GTX 1660 SUPER", "") == 4);
    CHECK(vae_bytes(HR_ARCH_WAN_14B, HR_GPU_NVIDIA, HR_OS_WINDOWS, "NVIDIA GeForce GTX 1080", "") == 2);
    CHECK(vae_bytes(HR_ARCH_WAN_14B, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce GTX 1080", "") == 4);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA RTX 2000 Ada Generation", "") == 2);
    /* the RTX 2050 is an Ampere chip (GA107, SM 8.6) under a Turing-looking name: bf16 */
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_WINDOWS, "NVIDIA GeForce RTX 2050", "") == 2);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_AMD, HR_OS_LINUX, "AMD Radeon RX 6800 XT", "") == 4);
    CHECK(vae_bytes(HR_ARCH_WAN_14B, HR_GPU_AMD, HR_OS_LINUX, "AMD Radeon RX 6800 XT", "") == 2);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_AMD, HR_OS_LINUX, "AMD Radeon RX 7900 XTX", "") == 2);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "", "") == 2); /* not known: fast */
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce RTX 2080 Ti", "--bf16-vae") == 2);
    CHECK(vae_bytes(HR_ARCH_SDXL, HR_GPU_NVIDIA, HR_OS_LINUX, "NVIDIA GeForce RTX 3060", "--cpu-vae") == 4);

    /* ... and the held VAE and its decode reservation follow: memory_used_decode is sized in
     * vae_dtype, so an fp32 VAE reserves twice the VRAM to decode. */
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, "sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k) > 0);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], 0, 0, 0);
    in.op[0].models[in.op[0].model_count++] = k[1];
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], 0, 0, 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], 1024, 1024, 1);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], 1024, 1024, 1);
    hr_est_machine turing = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 24, 0, 3, 60, "NVIDIA TITAN RTX");
    hr_est_machine ampere = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 24, 0, 3, 60, "NVIDIA GeForce RTX 3090");
    CHECK(run(&turing, "") == 0);
    const hr_est_load *l = load_named("/vae");
    double vae_fp32 = l ? (double)l->loaded_bytes : 0;
    uint64_t dec_fp32 = est.step[3].vram_bytes;
    CHECK(run(&ampere, "") == 0);
    l = load_named("/vae");
    double vae_bf16 = l ? (double)l->loaded_bytes : 0;
    uint64_t dec_bf16 = est.step[3].vram_bytes;
    printf("SDXL VAE: %.0f MB on a TITAN RTX, %.0f MB on an RTX 3090; decode peak %.2f / %.2f GiB\n", vae_fp32 / MiB,
           vae_bf16 / MiB, (double)dec_fp32 / HR_GIB, (double)dec_bf16 / HR_GIB);
    CHECK(vae_bf16 > 0 && within(vae_fp32, 2 * vae_bf16, 0.01));
    /* 2178 x 128 x 128 x 64 x 2 more bytes to decode 1024² */
    CHECK(dec_fp32 > dec_bf16 + 4 * HR_GIB);
}

static void vae_staged_fp32(void)
{
    /* ComfyUI #12227, RTX 5090, Linux, --fast dynamic_vram, 0.12.0: "Model WanVAE prepared for
     * dynamic VRAM loading. 484MB Staged" — twice the 16-bit VAE. DynamicVRAM recorded the
     * VAE's dtype before vae_dtype() applied; PR 12388 (0.13 assumed) records it after, and the
     * same VAE stages at 242 MB (PR 14300's log on 2026 ComfyUI: "241MB Staged"). */
    workflow("wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors", "umt5_xxl_fp8_e4m3fn_scaled.safetensors",
             "wan_2.1_vae.safetensors", 832, 480, 81);
    hr_est_machine m12 = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 32, 0, 12, 0, "NVIDIA GeForce RTX 5090");
    CHECK(run(&m12, "--fast dynamic_vram") == 0);
    CHECK(est.regime == HR_REGIME_DYNAMIC);
    const hr_est_load *l = load_named("wan_2.1_vae");
    CHECK(l && l->dynamic && within((double)l->staged_bytes / MiB, 484, 0.10));
    if (l)
        printf("#12227 (0.12.0): WanVAE staged %.0f MB (log: 484)\n", (double)l->staged_bytes / MiB);
    hr_est_machine m13 = m12;
    m13.version[1] = 13;
    CHECK(run(&m13, "--fast dynamic_vram") == 0);
    l = load_named("wan_2.1_vae");
    CHECK(l && l->dynamic && within((double)l->staged_bytes / MiB, 241, 0.10));
    /* the legacy manager of the same release casts the VAE before loading it: 16 bits */
    CHECK(run(&m12, "") == 0);
    CHECK(est.regime == HR_REGIME_LEGACY);
    l = load_named("wan_2.1_vae");
    CHECK(l && !l->dynamic && within((double)l->loaded_bytes / MiB, 242, 0.10));
}

static void unbuilt_head(void)
{
    /* ai-remaster-pipeline #15, a Qwen-Image Edit run under DynamicVRAM (2026): "Model
     * QwenImageTEModel_ prepared for dynamic VRAM loading. 7910MB Staged." The fp8 Qwen2.5-VL
     * file is 9 384 670 680 bytes (8950 MiB): it carries the output head, 152 064 x 3584 in 16
     * bits, which ComfyUI's Qwen25_7BVLI config does not build (lm_head False, comfy/text_encoders/
     * llama.py, 0.3.6x to 0.38). */
    workflow("qwen_image_fp8_e4m3fn.safetensors", "qwen_2.5_vl_7b_fp8_scaled.safetensors", "qwen_image_vae.safetensors",
             1024, 1024, 1);
    hr_est_machine m = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 32, 12, 0, 27, 0, "");
    CHECK(run(&m, "") == 0);
    const hr_est_load *l = load_named("qwen_2.5_vl_7b");
    CHECK(l && l->dynamic && within((double)l->staged_bytes / MiB, 7910, 0.02));
    if (l)
        printf("ai-remaster-pipeline #15: QwenImageTEModel_ staged %.0f MB (log: 7910)\n",
               (double)l->staged_bytes / MiB);
    const hr_est_model *te = &in.model[1];
    uint64_t head = 152064ull * 3584 * 2;
    CHECK_EQ_U64(hr_est_model_bytes(te, &m, NULL), te->file_bytes - head);
    /* the bf16 file loses the same head; the T5 encoders have none and keep every byte */
    memset(&in, 0, sizeof in);
    int q = cat("qwen_2.5_vl_7b.safetensors", HR_EST_TEXT_ENCODER);
    CHECK_EQ_U64(hr_est_model_bytes(&in.model[q], &m, NULL), in.model[q].file_bytes - head);
    int u = cat("umt5_xxl_fp8_e4m3fn_scaled.safetensors", HR_EST_TEXT_ENCODER);
    CHECK_EQ_U64(hr_est_model_bytes(&in.model[u], &m, NULL), in.model[u].file_bytes);
}

static const hr_est_step *step(const char *node)
{
    for (int i = 0; i < est.step_count; i++)
        if (strcmp(est.step[i].node_id, node) == 0)
            return &est.step[i];
    fprintf(stderr, "no step %s\n", node);
    exit(1);
}

static const hr_est_verdict *verdict(hr_est_verdict_kind k)
{
    for (int i = 0; i < est.verdict_count; i++)
        if (est.verdict[i].kind == k)
            return &est.verdict[i];
    return NULL;
}

static void tiled_fallback(void)
{
    /* ComfyUI's reservation for a decode (memory_used_decode, comfy/sd.py), as PR 15221 quotes
     * it for the Qwen-Image VAE at 1024², bf16: "the old code reserved 4400 MB"; one 512 px tile
     * measured 1035 MB there, the formula gives 1100. */
    hr_est_geom g = { 1024, 1024, 1, 1 }, t512 = { 512, 512, 1, 1 };
    CHECK(within((double)hr_est_vae_decode_bytes(HR_ARCH_QWEN_IMAGE, &g, 2, false) / MiB, 4400, 0.001));
    CHECK(within((double)hr_est_vae_decode_bytes(HR_ARCH_QWEN_IMAGE, &t512, 2, false) / MiB, 1035, 0.10));

    /* Wan 2.1 VAE, 832x480x81: the regular decode reserves 7000 x 60 x 104 x 64 x 2 = 5.6 GB.
     * On a 6 GB card it cannot fit after every other model is evicted: ComfyUI logs "Ran out of
     * memory when regular VAE decoding, retrying with tiled VAE decoding" and decodes tiled —
     * 256 px tiles over all frames (7000 x 32 x 32 x 64 x 2 = 0.92 GB) until PR 15499; from it
     * (0.34) the tiles grow to fill min(regular, 80 % of the card): 64 x 60 latent, 3.4 GB. On
     * 12 GB the regular decode fits and nothing is retried. */
    const double regular = 7000.0 * 60 * 104 * 64 * 2;
    struct {
        int minor;
        uint64_t vram_gib;
        double tiled;
    } c[] = {
        { 3, 6, 7000.0 * 32 * 32 * 64 * 2 },
        { 34, 6, 7000.0 * 60 * 64 * 64 * 2 },
        { 3, 12, 0 },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        workflow("wan2.1_t2v_1.3B_fp16.safetensors", "umt5_xxl_fp8_e4m3fn_scaled.safetensors",
                 "wan_2.1_vae.safetensors", 832, 480, 81);
        hr_est_machine m = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, c[k].vram_gib, 0, c[k].minor,
                                   c[k].minor == 3 ? 60 : 0, "NVIDIA GeForce RTX 3060");
        CHECK(run(&m, "--disable-dynamic-vram") == 0);
        const hr_est_verdict *v = verdict(HR_EV_TILED_FALLBACK);
        const hr_est_step *dec = step("6");
        printf("Wan VAE decode, %llu GB, 0.%d: %s; decode step %.2f GiB\n", (unsigned long long)c[k].vram_gib,
               c[k].minor, note_of(dec)[0] ? note_of(dec) : "regular decode", (double)dec->vram_bytes / HR_GIB);
        if (c[k].tiled == 0) {
            CHECK(v == NULL && strstr(note_of(dec), "tiled") == NULL);
            CHECK((double)dec->vram_bytes > regular);
            continue;
        }
        CHECK(v != NULL && strstr(note_of(dec), "tiled decode") != NULL);
        /* the tiled path's memory is said, in the note and the verdict */
        char want[32];
        hr_size_gb((uint64_t)c[k].tiled, want, sizeof want);
        CHECK(strstr(note_of(dec), want) != NULL);
        CHECK(v && strstr(hr_est_msg_text(&v->text, HR_LANG_EN, say, sizeof say), want) != NULL);
        /* and it is what the step holds in VRAM: the context, the VAE, the tile */
        CHECK((double)dec->vram_bytes < c[k].tiled + 1.2 * HR_GIB && (double)dec->vram_bytes > c[k].tiled);
    }
}

static void sysmem_fallback(void)
{
    /* NVIDIA's Windows driver from 536.40 ("CUDA - Sysmem Fallback Policy", NVIDIA's support
     * note "System Memory Fallback for Stable Diffusion") places what the card cannot hold in
     * shared system memory instead of failing with CUDA out of memory; ComfyUI PR 11845 names
     * the same "Windows shared memory spilling". FLUX dev fp16 (23.8 GB) with --gpu-only on a
     * 16 GB card: with driver 531.79 the run dies (GPU OOM); with 560.94 (the recorded
     * Windows machines' NVML) it runs, and the overflow is RAM and commit; on Linux no driver
     * spills. The driver's version not known: the fallback is assumed, and said. */
    memset(&in, 0, sizeof in);
    int u = cat("flux1-dev.safetensors", HR_EST_DIFFUSION);
    op("1", "UNETLoader", HR_OP_LOAD, u, 0, 0, 0);
    op("5", "KSampler", HR_OP_SAMPLE, u, 1024, 1024, 1);
    hr_est_machine old = machine(HR_OS_WINDOWS, HR_GPU_NVIDIA, 64, 16, 0, 3, 60, "NVIDIA GeForce RTX 4080");
    old.nvidia_driver = 53179;
    CHECK(run(&old, "--gpu-only") == 0);
    CHECK(verdict(HR_EV_GPU_OOM) != NULL && verdict(HR_EV_SYSMEM_FALLBACK) == NULL);
    CHECK(hr_estimate_severity(&est) == 2);
    uint64_t ram_old = step("5")->ram_bytes, commit_old = step("5")->commit_bytes, low_old = est.commit.low;

    hr_est_machine cur = old;
    cur.nvidia_driver = 56094;
    CHECK(run(&cur, "--gpu-only") == 0);
    const hr_est_verdict *v = verdict(HR_EV_SYSMEM_FALLBACK);
    CHECK(v != NULL && verdict(HR_EV_GPU_OOM) == NULL);
    const hr_est_step *st = step("5");
    double over = (double)st->vram_bytes - (double)(16 * HR_GIB - HR_GIB / 2); /* the card less the desktop's 0.5 GiB */
    printf(
        "FLUX fp16 --gpu-only, 16 GB, driver 560.94: spills %.2f GiB; RAM %.2f -> %.2f GiB, commit %.2f -> %.2f GiB\n",
        v ? (double)v->bytes / HR_GIB : 0, (double)ram_old / HR_GIB, (double)st->ram_bytes / HR_GIB,
        (double)commit_old / HR_GIB, (double)st->commit_bytes / HR_GIB);
    CHECK(over > 7 * HR_GIB);
    CHECK(v && within((double)v->bytes, over, 0.05));
    /* the overflow is system memory: in RAM, and in commit even at the low end, which leaves
     * WDDM's VRAM charge out */
    CHECK(within((double)st->ram_bytes - (double)ram_old, over, 0.02));
    CHECK((double)est.commit.low >= (double)low_old + 0.9 * over);
    CHECK(hr_estimate_severity(&est) != 2);
    bool said = false;
    cur.nvidia_driver = 0;
    CHECK(run(&cur, "--gpu-only") == 0);
    for (int i = 0; i < est.note_count; i++)
        said |= strstr(hr_est_msg_text(&est.notes[i], HR_LANG_EN, say, sizeof say), "driver version not known") != NULL;
    CHECK(verdict(HR_EV_SYSMEM_FALLBACK) != NULL && said);
    hr_est_machine lin = cur;
    lin.os = HR_OS_LINUX;
    CHECK(run(&lin, "--gpu-only") == 0);
    CHECK(verdict(HR_EV_GPU_OOM) != NULL && verdict(HR_EV_SYSMEM_FALLBACK) == NULL);
}

static void mixed_managers(void)
{
    /* ComfyUI #13953 (2026-05): "custom GGUF loaders using GGUFModelPatcher(ModelPatcher) do
     * not use ModelPatcherDynamic ... logs may show legacy loaded partially / loaded completely
     * behavior for GGUF models", while the other models are staged; ComfyUI #14573 (0.25.1,
     * --enable-dynamic-vram, a FLUX.2 GGUF on 8 GB) logs "loaded partially; ... offloaded,
     * ... buffer reserved" for it. FLUX.1 dev Q8_0 GGUF with T5-XXL on 8 GB, DynamicVRAM: the
     * GGUF model writes a legacy partial line, the encoder and the VAE are staged. */
    workflow("flux1-dev-Q8_0.gguf", "t5xxl_fp16.safetensors", "ae.safetensors", 1024, 1024, 1);
    hr_est_machine m = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 32, 8, 0, 25, 0, "NVIDIA GeForce RTX 4070 Laptop GPU");
    CHECK(run(&m, "") == 0);
    CHECK(est.regime == HR_REGIME_DYNAMIC);
    const hr_est_load *g = load_named("flux1-dev-Q8_0");
    const hr_est_load *t = load_named("t5xxl");
    const hr_est_load *v = load_named("ae.safetensors");
    CHECK(g && !g->dynamic && g->staged_bytes == 0 && g->partial);
    CHECK(g && g->buffer_bytes > 0 && g->offloaded_bytes > 4 * HR_GIB);
    CHECK(t && t->dynamic && t->staged_bytes > 9 * HR_GIB);
    CHECK(v && v->dynamic);
    if (g)
        printf("FLUX Q8_0 GGUF under DynamicVRAM, 8 GB: loaded partially; %.0f MB usable, %.0f MB loaded, %.0f MB "
               "offloaded, %.0f MB buffer reserved\n",
               (double)g->usable_vram_bytes / MiB, (double)g->loaded_bytes / MiB, (double)g->offloaded_bytes / MiB,
               (double)g->buffer_bytes / MiB);
    /* the same budget as the legacy manager gives it; its offloaded part stays the file's pages
     * (no private RAM), where the legacy manager copies the file into RAM */
    hr_est_load dyn_line = g ? *g : (hr_est_load){ 0 };
    uint64_t ram_dyn = step("5")->ram_bytes;
    CHECK(run(&m, "--disable-dynamic-vram") == 0);
    g = load_named("flux1-dev-Q8_0");
    CHECK(g && within((double)dyn_line.usable_vram_bytes, (double)g->usable_vram_bytes, 0.25));
    CHECK(step("5")->ram_bytes > ram_dyn + 4 * HR_GIB);
}

static void doubled_batch_freed(void)
{
    /* estimate_memory() in comfy/sampler_helpers.py (0.3.30, 0.3.67, 0.27.0): memory_required
     * is memory_required() of batch x 2, minimum_memory_required of batch x 1, whether or not
     * cfg runs the uncond pass. load_models_gpu() frees model x 1.1 + the first (+ reserve),
     * and with smart memory evicts the encoder only that far, then budgets free - the second:
     * a cfg-1 Z-Image Turbo at 1024 x 1024 on a 20 GB card (the encoder 7.7 GB, partly evicted)
     * loads with one latent's memory_required (918 MiB at factor 2.8) above 1.1 x the model. */
    workflow("z_image_turbo_bf16.safetensors", "qwen_3_4b.safetensors", "ae.safetensors", 1024, 1024, 1);
    hr_est_machine m = machine(HR_OS_LINUX, HR_GPU_NVIDIA, 64, 20, 0, 27, 0, "");
    CHECK(run(&m, "--disable-dynamic-vram") == 0);
    const hr_est_load *z = load_named("z_image_turbo");
    CHECK(z != NULL);
    if (!z)
        return;
    hr_est_geom g = { 1024, 1024, 1, 1 };
    double one = (double)hr_est_sampling_bytes(HR_ARCH_ZIMAGE, &g, 1) / MiB;
    double usable = (double)z->usable_vram_bytes / MiB, loaded = (double)z->loaded_bytes / MiB;
    printf("cfg 1, 20 GB: usable %.1f MB, 1.1 x model %.1f MB, one latent %.1f MB\n", usable, 1.1 * loaded, one);
    CHECK(!z->partial);
    CHECK(fabs(usable - (1.1 * loaded + one)) < 2.0);
}

/* What the card holds before ComfyUI loads is taken from it where that is other programs'
 * (docs/estimate.md "What is assumed"): read now when no python process runs; with one (it may
 * be ComfyUI, its models the run itself) less what the pythons hold when the driver says per
 * process, else the default per OS; with no process list, the default too. */
static void vram_other_read(void)
{
    static hr_snapshot snap;
    hr_snapshot_init(&snap, HR_OS_WINDOWS);
    snap.gpus.count = 1;
    hr_gpu *g = &snap.gpus.gpu[0];
    snprintf(g->name, sizeof g->name, "NVIDIA GeForce RTX 4060 Ti");
    snprintf(g->vendor, sizeof g->vendor, "NVIDIA");
    g->vram_total_bytes = 16 * HR_GIB;
    g->vram_used_bytes = 3 * HR_GIB;
    g->python_vram_bytes = HR_UNKNOWN;
    g->integrated = HR_TRI_NO;
    hr_section_ok(&snap.gpus.s, "NVML");
    hr_section_ok(&snap.procs.s, "toolhelp");
    snap.procs.count = 1;
    snprintf(snap.procs.proc[0].name, sizeof snap.procs.proc[0].name, "chrome.exe");
    hr_est_machine m;
    hr_est_machine_init(&m);
    hr_est_machine_from_snapshot(&m, &snap);
    CHECK(m.vram_other_read && m.vram_other_bytes == 3 * HR_GIB);
    CHECK(hr_est_vram_other(&m) == 3.0 * HR_GIB);
    /* a python process may be ComfyUI holding the run's own models */
    snprintf(snap.procs.proc[0].name, sizeof snap.procs.proc[0].name, "python.exe");
    hr_est_machine_init(&m);
    hr_est_machine_from_snapshot(&m, &snap);
    CHECK(!m.vram_other_read && m.vram_other_bytes == HR_UNKNOWN);
    CHECK(hr_est_vram_other(&m) == 0.5 * 1024 * 1024 * 1024);
    /* the driver says what the pythons hold: the rest is other programs' */
    g->python_vram_bytes = 2 * HR_GIB;
    hr_est_machine_init(&m);
    hr_est_machine_from_snapshot(&m, &snap);
    CHECK(m.vram_other_read && m.vram_other_bytes == 1 * HR_GIB && m.vram_python_bytes == 2 * HR_GIB);
    g->python_vram_bytes = 4 * HR_GIB; /* more than the card's use (read apart): not trusted */
    hr_est_machine_init(&m);
    hr_est_machine_from_snapshot(&m, &snap);
    CHECK(!m.vram_other_read && m.vram_other_bytes == HR_UNKNOWN && m.vram_python_bytes == HR_UNKNOWN);
    g->python_vram_bytes = HR_UNKNOWN;
    /* no process list: cannot tell */
    snprintf(snap.procs.proc[0].name, sizeof snap.procs.proc[0].name, "chrome.exe");
    snap.procs.s.ok = false;
    hr_est_machine_init(&m);
    hr_est_machine_from_snapshot(&m, &snap);
    CHECK(!m.vram_other_read && m.vram_other_bytes == HR_UNKNOWN);
}

int main(void)
{
    vae_dtype();
    vae_staged_fp32();
    unbuilt_head();
    tiled_fallback();
    sysmem_fallback();
    mixed_managers();
    doubled_batch_freed();
    vram_other_read();
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
