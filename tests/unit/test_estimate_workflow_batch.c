/* A workflow's batch_size reaches every step that works on the batch, end to end: the sample
 * workflow with a 4x upscaler (tests/fixtures/workflows/est_sd15_upscale_api.json, SD 1.5 at
 * 512², batch 4) read as the CLI reads it, and the same file with batch_size 1. ComfyUI's
 * EmptyLatentImage makes a [B, 4, H/8, W/8] latent; KSampler, VAEDecode and
 * ImageUpscaleWithModel each keep the whole batch: the decoded IMAGE is [B, H, W, 3] fp32 and
 * the upscaled one [B, 4H, 4W, 3] (docs/memory-model.md). So at the upscale step RAM holds
 * three more upscaled images at batch 4 than at batch 1, whatever else the step holds. */
#include "core/estimate/estimate.h"
#include "core/estimate/estimate_workflow.h"
#include "core/scan/workflow.h"
#include "core/base/size.h"
#include "test.h"

#include <stdlib.h>

#define WF "est_sd15_upscale_api.json"

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    char *buf = malloc((size_t)1 << 20);
    *len = buf ? fread(buf, 1, ((size_t)1 << 20) - 1, f) : 0;
    fclose(f);
    CHECK(buf != NULL && *len > 0);
    return buf;
}

/* The workflow text read, then turned into the estimate's input as `headroom estimate` does. */
static void input_of(const char *text, size_t len, hr_est_input *in)
{
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_est_wf_result res;
    hr_error err = { 0 };
    CHECK(wf != NULL);
    CHECK(hr_workflow_parse(WF, text, len, wf, &err) == 0);
    memset(in, 0, sizeof *in);
    CHECK(hr_est_from_workflow(wf, in, &res, &err) == 0);
    hr_workflow_free(wf);
    free(wf);
}

static const hr_est_op *op_of(const hr_est_input *in, hr_est_op_kind kind)
{
    for (int i = 0; i < in->op_count; i++)
        if (in->op[i].kind == kind)
            return &in->op[i];
    fprintf(stderr, "no operation of kind %d\n", (int)kind);
    exit(1);
}

static const hr_est_step *step_of(const hr_estimate *e, hr_est_op_kind kind)
{
    for (int i = 0; i < e->step_count; i++)
        if (e->step[i].kind == kind)
            return &e->step[i];
    fprintf(stderr, "no step of kind %d\n", (int)kind);
    exit(1);
}

static void run(const hr_est_input *in, uint64_t vram_gib, hr_estimate *e)
{
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
    CHECK(hr_comfy_args_parse("", 0, &a, &err) == 0);
    CHECK(hr_estimate_run(in, &m, &a, e, &err) == 0);
}

int main(void)
{
    const char *src = getenv("HR_SOURCE_DIR");
    if (!src) {
        fprintf(stderr, "HR_SOURCE_DIR is not set\n");
        return 1;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/fixtures/workflows/" WF, src);
    size_t len4 = 0;
    char *text4 = read_text(path, &len4);
    if (!text4)
        return TEST_DONE();
    /* The same workflow at batch 1: only the one widget changes. */
    char *at = strstr(text4, "\"batch_size\": 4");
    CHECK(at != NULL);
    if (!at)
        return TEST_DONE();
    char *text1 = malloc(len4 + 1);
    memcpy(text1, text4, len4 + 1);
    text1[(at - text4) + strlen("\"batch_size\": ")] = '1';

    static hr_est_input in4, in1;
    input_of(text4, len4, &in4);
    input_of(text1, len4, &in1);

    /* The batch reaches the sampler, the decode and the upscale. */
    const hr_est_op_kind batched[] = { HR_OP_SAMPLE, HR_OP_VAE_DECODE, HR_OP_UPSCALE_MODEL };
    for (size_t k = 0; k < sizeof batched / sizeof batched[0]; k++) {
        CHECK_EQ_U64(op_of(&in4, batched[k])->geom.batch, 4);
        CHECK_EQ_U64(op_of(&in1, batched[k])->geom.batch, 1);
    }

    /* At the upscale step RAM holds the upscaled batch: 3 more images of (4 × 512)² × 3
     * channels × fp32 at batch 4, on a card with room and on a small one. */
    const hr_est_op *up = op_of(&in4, HR_OP_UPSCALE_MODEL);
    CHECK(up->scale >= 2);
    const double out_img = (double)up->geom.width * up->scale * up->geom.height * up->scale * 3 * 4;
    CHECK(out_img >= 2048.0 * 2048 * 3 * 4);
    static hr_estimate e4, e1;
    const uint64_t vrams[] = { 24, 6 };
    for (size_t v = 0; v < sizeof vrams / sizeof vrams[0]; v++) {
        run(&in4, vrams[v], &e4);
        run(&in1, vrams[v], &e1);
        const hr_est_step *u4 = step_of(&e4, HR_OP_UPSCALE_MODEL), *u1 = step_of(&e1, HR_OP_UPSCALE_MODEL);
        const double more = (double)u4->ram_bytes - (double)u1->ram_bytes;
        if (more < 3 * out_img)
            fprintf(stderr, "%llu GB: upscale step RAM batch 4 %llu, batch 1 %llu, 3 upscaled images %.0f\n",
                    (unsigned long long)vrams[v], (unsigned long long)u4->ram_bytes, (unsigned long long)u1->ram_bytes,
                    3 * out_img);
        CHECK(more >= 3 * out_img);
    }
    free(text1);
    free(text4);
    return TEST_DONE();
}
