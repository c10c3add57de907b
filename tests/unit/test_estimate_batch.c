/* Batch in the estimate, by ComfyUI's own rules (docs/memory-model.md; comfy/sd.py,
 * comfy/model_management.py): a latent is [B, C, H/8, W/8] in fp32 on the CPU; sampling's
 * memory_required is the latent's area — batch included — times the CFG batch; VAE decode
 * sizes memory_used from one latent's spatial dimensions and decodes as many of the batch at a
 * time as free VRAM holds (at least one), so its working memory is between one image's and
 * the whole batch's; every decoded image lands in RAM as fp32 [B, H, W, 3]. */
#include "core/estimate/estimate.h"
#include "core/estimate/estimate_internal.h" /* hr_est_latent_bytes */
#include "core/base/size.h"
#include "est_op.h"
#include "test.h"

#include <stdlib.h>

static hr_est_input in;
static hr_estimate est;

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, uint32_t w, uint32_t h, uint32_t batch)
{
    hr_test_add_op(&in, id, type, kind, m0, -1, w, h, 1, batch, true);
}

/* SDXL base at 1024², batch B: checkpoint, prompt, KSampler, VAEDecode, SaveImage. */
static void sdxl(uint32_t batch)
{
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, "sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k) > 0);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], 0, 0, 0);
    in.op[0].models[in.op[0].model_count++] = k[1];
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], 0, 0, 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], 1024, 1024, batch);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], 1024, 1024, batch);
    op("9", "SaveImage", HR_OP_OTHER, -1, 0, 0, 0);
}

static hr_estimate run_args(uint32_t batch, uint64_t vram_gib, const char *args);

static hr_estimate run(uint32_t batch, uint64_t vram_gib)
{
    return run_args(batch, vram_gib, "");
}

static hr_estimate run_args(uint32_t batch, uint64_t vram_gib, const char *args)
{
    sdxl(batch);
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = HR_OS_LINUX;
    m.vendor = HR_GPU_NVIDIA;
    m.ram_bytes = 64 * HR_GIB;
    m.vram_bytes = vram_gib * HR_GIB;
    m.version[0] = 0, m.version[1] = 3, m.version[2] = 60;
    m.version_known = true;
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse(args, strlen(args), &a, &err) == 0);
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);
    return est;
}

static const hr_est_step *step_of(const hr_estimate *e, const char *node)
{
    for (int i = 0; i < e->step_count; i++)
        if (strcmp(e->step[i].node_id, node) == 0)
            return &e->step[i];
    fprintf(stderr, "no step %s\n", node);
    exit(1);
}

int main(void)
{
    /* The formulas. SDXL: 4 latent channels, FLUX: 16, both downscaled 8 (the reference's
     * latent table). */
    const struct {
        hr_est_arch a;
        unsigned channels;
    } archs[] = { { HR_ARCH_SDXL, 4 }, { HR_ARCH_FLUX, 16 }, { HR_ARCH_SD15, 4 } };
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        for (uint32_t b = 1; b <= 8; b *= 2) {
            hr_est_geom g = { 1024, 768, 1, b };
            const double want = (double)b * archs[i].channels * (768 / 8) * (1024 / 8) * 4.0;
            if (hr_est_latent_bytes(archs[i].a, &g) != want)
                fprintf(stderr, "%s batch %u: latent %.0f, want %.0f\n", hr_est_arch_name(archs[i].a), b,
                        hr_est_latent_bytes(archs[i].a, &g), want);
            CHECK(hr_est_latent_bytes(archs[i].a, &g) == want);
            /* memory_required: proportional to batch × CFG batch (to the byte's rounding) */
            hr_est_geom g1 = { 1024, 768, 1, 1 };
            const uint64_t one = hr_est_sampling_bytes(archs[i].a, &g1, 1);
            CHECK(one > 0);
            const uint64_t got = hr_est_sampling_bytes(archs[i].a, &g, 2);
            if (got + 2 * b < 2 * b * one || got > 2 * b * one + 2 * b)
                fprintf(stderr, "%s batch %u: sampling %llu, one %llu\n", hr_est_arch_name(archs[i].a), b,
                        (unsigned long long)got, (unsigned long long)one);
            CHECK(got + 2 * b >= 2 * b * one && got <= 2 * b * one + 2 * b);
            /* VAE decode's memory_used reads one latent's spatial size: the batch does not
             * change it (the batch is split by free VRAM, below). */
            CHECK_EQ_U64(hr_est_vae_decode_bytes(archs[i].a, &g, 2, false),
                         hr_est_vae_decode_bytes(archs[i].a, &g1, 2, false));
        }
    }

    /* Video latents: [B, 16, ((L - 1) // 4) + 1, H/8, W/8] for Wan 2.1 / 2.2 14B (the
     * reference's latent table): 8 frames are 2 latent frames, 9 are 3, batch included. */
    const uint32_t lengths[] = { 1, 5, 8, 9, 81 };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        hr_est_geom g = { 832, 480, lengths[i], 2 };
        const double want = 2.0 * 16 * ((lengths[i] - 1) / 4 + 1) * (480 / 8) * (832 / 8) * 4.0;
        if (hr_est_latent_bytes(HR_ARCH_WAN_14B, &g) != want)
            fprintf(stderr, "Wan %u frames: latent %.0f, want %.0f\n", lengths[i],
                    hr_est_latent_bytes(HR_ARCH_WAN_14B, &g), want);
        CHECK(hr_est_latent_bytes(HR_ARCH_WAN_14B, &g) == want);
    }

    /* The whole run: batch 1 and batch 4 on a 24 GB card, and on an 8 GB one. */
    const double image = 1024.0 * 1024 * 3 * 4; /* one decoded image, fp32 */
    hr_est_geom g1 = { 1024, 1024, 1, 1 };
    const double vae_one = (double)hr_est_vae_decode_bytes(HR_ARCH_SDXL, &g1, 2, false);
    const uint64_t vrams[] = { 24, 8 };
    for (size_t v = 0; v < 2; v++) {
        hr_estimate e1 = run(1, vrams[v]);
        hr_estimate e4 = run(4, vrams[v]);
        const hr_est_step *s1 = step_of(&e1, "3"), *s4 = step_of(&e4, "3");
        /* Sampling: on a card with room (24 GB), 3 more latents' worth of memory_required at
         * its peak. (On 8 GB ComfyUI frees other models to make the room: not a simple sum.) */
        hr_est_geom g4 = { 1024, 1024, 1, 4 };
        const uint64_t more = hr_est_sampling_bytes(HR_ARCH_SDXL, &g4, 2) - hr_est_sampling_bytes(HR_ARCH_SDXL, &g1, 2);
        if (v == 0) {
            if (s4->vram_bytes < s1->vram_bytes + more / 2)
                fprintf(stderr, "sampling VRAM batch 1 %llu, batch 4 %llu, memory_required +%llu\n",
                        (unsigned long long)s1->vram_bytes, (unsigned long long)s4->vram_bytes,
                        (unsigned long long)more);
            CHECK(s4->vram_bytes >= s1->vram_bytes + more / 2);
        }
        /* Decode: the three more images in RAM, whatever VRAM did, held after it (the decode
         * step's own peak can be the instant its load evicts the UNet, before any image). */
        const hr_est_step *d1 = step_of(&e1, "8"), *d4 = step_of(&e4, "8");
        const double ram_more = (double)step_of(&e4, "9")->ram_bytes - (double)step_of(&e1, "9")->ram_bytes;
        if (ram_more < 3 * image)
            fprintf(stderr, "%llu GB: decode RAM batch 1 %llu, batch 4 %llu\n", (unsigned long long)vrams[v],
                    (unsigned long long)d1->ram_bytes, (unsigned long long)d4->ram_bytes);
        CHECK(ram_more >= 3 * image);
        /* Decode's VRAM: at least one image's work, at most the whole batch's. */
        CHECK(d4->vram_bytes >= d1->vram_bytes);
        CHECK((double)d4->vram_bytes <= (double)d1->vram_bytes + 3 * vae_one);
    }
    /* --fp16-intermediates keeps the sampled latent in fp16: half its bytes in RAM. */
    hr_estimate f32 = run_args(4, 24, ""), f16 = run_args(4, 24, "--fp16-intermediates");
    hr_est_geom g4 = { 1024, 1024, 1, 4 };
    const double half = hr_est_latent_bytes(HR_ARCH_SDXL, &g4) / 2;
    const hr_est_step *a32 = step_of(&f32, "3"), *a16 = step_of(&f16, "3");
    if ((double)a32->ram_bytes - (double)a16->ram_bytes < half)
        fprintf(stderr, "fp16 intermediates: sampling RAM %llu vs %llu, latent/2 %.0f\n",
                (unsigned long long)a32->ram_bytes, (unsigned long long)a16->ram_bytes, half);
    CHECK((double)a32->ram_bytes - (double)a16->ram_bytes >= half);
    return TEST_DONE();
}
