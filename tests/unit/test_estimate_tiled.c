/* VAE decode's tiled retry and the VRAM reserve (docs/memory-model.md): after evicting every
 * other model, a decode whose working memory is over free VRAM less the reserve
 * (EXTRA_RESERVED_VRAM: 400 MiB on Linux, or --reserve-vram) runs out of VRAM and ComfyUI
 * retries it tiled; the "tiled" verdict's figure is the VRAM it was short. SDXL at 1024²,
 * batch 1, legacy manager: the smallest card that decodes whole is found by walking card sizes
 * in 16 MiB steps; it must be where the verdict's figure says, and a larger reserve must ask
 * the same amount more of the card. */
#include "core/estimate/estimate.h"
#include "core/base/size.h"
#include "est_op.h"
#include "test.h"

#include <stdlib.h>

#define STEP_MIB 16

static hr_est_input in;
static hr_estimate est;
static char say[HR_EST_TEXT_MAX]; /* a message as the report says it in English */

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, uint32_t px)
{
    hr_test_add_op(&in, id, type, kind, m0, -1, px, px, 1, px ? 1 : 0, true);
}

static void sdxl(void)
{
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, "sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k) > 0);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], 0);
    in.op[0].models[in.op[0].model_count++] = k[1];
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], 1024);
    op("8", "VAEDecode", HR_OP_VAE_DECODE, k[2], 1024);
}

/* The estimate on a card of vram_mib; whether the decode was retried tiled, and the verdict's
 * figure (the VRAM it was short) in *short_bytes. */
static bool tiled_on(uint64_t vram_mib, const char *args, uint64_t *short_bytes)
{
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = HR_OS_LINUX;
    m.vendor = HR_GPU_NVIDIA;
    m.ram_bytes = 64 * HR_GIB;
    m.vram_bytes = vram_mib * HR_MIB;
    m.version[0] = 0, m.version[1] = 3, m.version[2] = 60;
    m.version_known = true;
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse(args, strlen(args), &a, &err) == 0);
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);
    bool verdict = false;
    *short_bytes = 0;
    for (int i = 0; i < est.verdict_count; i++)
        if (est.verdict[i].kind == HR_EV_TILED_FALLBACK) {
            verdict = true;
            *short_bytes = est.verdict[i].bytes;
            CHECK_STR(est.verdict[i].node_id, "8");
        }
    bool noted = strstr(hr_est_step_note_text(&est, est.step_count - 1, HR_LANG_EN, say, sizeof say), "tiled") != NULL;
    CHECK(noted == verdict); /* the step's note and the verdict say the same */
    return verdict;
}

/* The smallest card (in STEP_MIB steps, from 2 GiB) that decodes whole under args. Each card
 * below it retries tiled, and card + the verdict's shortfall must be the same VRAM on all of
 * them (one MiB more card, one MiB less short): its lowest and highest in *lo, *hi. */
static uint64_t smallest_whole(const char *args, uint64_t *lo, uint64_t *hi)
{
    uint64_t s;
    *lo = UINT64_MAX, *hi = 0;
    for (uint64_t mib = 2048; mib <= 32768; mib += STEP_MIB) {
        if (!tiled_on(mib, args, &s))
            return mib;
        CHECK(s > 0);
        const uint64_t at = mib * HR_MIB + s;
        *lo = at < *lo ? at : *lo;
        *hi = at > *hi ? at : *hi;
    }
    CHECK(!"no card up to 32 GiB decodes SDXL 1024² whole");
    return 0;
}

int main(void)
{
    sdxl();
    uint64_t s;
    /* A 2 GiB card cannot decode 1024² whole, a 24 GiB one can. */
    CHECK(tiled_on(2048, "", &s));
    CHECK(!tiled_on(24576, "", &s));

    const struct {
        const char *args;
        uint64_t reserve_mib;
    } reserves[] = { { "", 400 }, { "--reserve-vram 1.5", 1536 }, { "--reserve-vram 3", 3072 } };
    uint64_t edge[3];
    for (size_t r = 0; r < 3; r++) {
        uint64_t lo, hi;
        edge[r] = smallest_whole(reserves[r].args, &lo, &hi);
        CHECK_EQ_U64(est.reserve_vram_bytes, reserves[r].reserve_mib * HR_MIB);
        /* The shortfall is what the card lacks: card + shortfall is one figure on every card
         * that retried, and it is where the decode fits whole. The figure counts the VAE's
         * weights whole; on the last cards below the edge part of them is offloaded, so the
         * decode fits up to 64 MiB earlier than the figure says, never later. */
        if (hi - lo > HR_MIB || lo + STEP_MIB * HR_MIB <= edge[r] * HR_MIB || lo > (edge[r] + 64) * HR_MIB)
            fprintf(stderr, "%s: whole from %llu MiB; card + shortfall %.1f..%.1f MiB\n", reserves[r].args,
                    (unsigned long long)edge[r], (double)lo / HR_MIB, (double)hi / HR_MIB);
        CHECK(hi - lo <= HR_MIB);
        CHECK(lo + STEP_MIB * HR_MIB > edge[r] * HR_MIB && lo <= (edge[r] + 64) * HR_MIB);
    }
    /* The reserve is VRAM the decode may not use: each MiB more of it asks one MiB more of the
     * card (within one step). */
    for (size_t r = 1; r < 3; r++) {
        const uint64_t more = reserves[r].reserve_mib - reserves[0].reserve_mib;
        if (edge[r] < edge[0] + more - STEP_MIB || edge[r] > edge[0] + more + STEP_MIB)
            fprintf(stderr, "%s: whole from %llu MiB, default reserve from %llu MiB (want +%llu)\n", reserves[r].args,
                    (unsigned long long)edge[r], (unsigned long long)edge[0], (unsigned long long)more);
        CHECK(edge[r] + STEP_MIB >= edge[0] + more && edge[r] <= edge[0] + more + STEP_MIB);
    }
    printf("SDXL 1024² decodes whole from %llu MiB of VRAM (reserve 400 MiB), %llu (1.5 GiB), %llu (3 GiB)\n",
           (unsigned long long)edge[0], (unsigned long long)edge[1], (unsigned long long)edge[2]);
    return TEST_DONE();
}
