/* A crash report bounds the whole machine, the estimate the ComfyUI process: the one sizing
 * rule's parts for an estimated run (hr_est_need, core/model/run_need.h) add what other
 * programs commit, so a whole-machine limit is held against the run plus them. Built from
 * ComfyUI #10852: Qwen-Image fp8 on an RTX 3090 24 GB with 32 GB RAM, Ubuntu, 0.3.70, "the
 * server ... was automatically killed" (three times). */
#include "core/estimate/estimate.h"
#include "core/base/size.h"
#include "est_op.h"
#include "test.h"

#include <stdlib.h>

static hr_est_input in;
static hr_estimate est;

static int cat(const char *file, hr_est_kind kind)
{
    int idx[3];
    CHECK(hr_est_add_from_catalog(&in, file, kind, false, idx) > 0);
    return idx[0];
}

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, uint32_t w, uint32_t h)
{
    hr_test_add_op(&in, id, type, kind, m0, -1, w, h, 1, 1, false);
}

static void killed_machine(void)
{
    memset(&in, 0, sizeof in);
    int u = cat("qwen_image_fp8_e4m3fn.safetensors", HR_EST_DIFFUSION);
    int t = cat("qwen_2.5_vl_7b_fp8_scaled.safetensors", HR_EST_TEXT_ENCODER);
    int v = cat("qwen_image_vae.safetensors", HR_EST_VAE);
    op("1", "UNETLoader", HR_OP_LOAD, u, 0, 0);
    op("2", "CLIPLoader", HR_OP_LOAD, t, 0, 0);
    op("3", "VAELoader", HR_OP_LOAD, v, 0, 0);
    op("4", "CLIPTextEncode", HR_OP_ENCODE_TEXT, t, 0, 0);
    op("5", "KSampler", HR_OP_SAMPLE, u, 1328, 1328);
    op("6", "VAEDecode", HR_OP_VAE_DECODE, v, 1328, 1328);

    hr_est_machine m;
    hr_est_machine_init(&m); /* a what-if machine: other programs not measured */
    m.os = HR_OS_LINUX;
    m.vendor = HR_GPU_NVIDIA;
    m.ram_bytes = 32 * HR_GIB;
    m.vram_bytes = 24 * HR_GIB;
    m.version[0] = 0, m.version[1] = 3, m.version[2] = 70;
    m.version_known = true;
    m.ram_assumed = m.vram_assumed = m.vendor_assumed = false;
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse("", 0, &a, &err) == 0);
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);

    hr_run_need n;
    hr_est_need(&est, &n);
    const uint64_t bound = 32 * HR_GIB; /* RAM: swap not stated */
    printf("Qwen-Image, 32 GB Linux, 0.3.70: process %.1f - %.1f GB, others %.1f GB (%s), whole machine up to "
           "%.1f GB against the %.1f GB it was killed at\n",
           est.commit.low / 1e9, est.commit.high / 1e9, n.others / 1e9, hr_others_basis_name(n.others_basis),
           (n.high + n.others) / 1e9, bound / 1e9);
    CHECK(n.known && n.low == est.commit.low && n.high == est.commit.high);
    CHECK(n.others_basis == HR_OTHERS_ALLOWANCE && n.others == HR_RUN_OTHERS_ALLOWANCE_BYTES);
    /* the run died: the machine's peak was above its limit, which the process alone is not */
    CHECK(n.high + n.others > bound);
    /* nothing of a what-if machine was read: its other programs span a lean desktop to a busy
     * one; it dies below the low end on a lean one, and is OK only from the high end on a busy
     * one and the margin on a typical one */
    CHECK(n.others_low == HR_RUN_OTHERS_LEAN_BYTES && n.others_high == HR_RUN_OTHERS_BUSY_BYTES);
    CHECK(n.fail_below == n.low + HR_RUN_OTHERS_LEAN_BYTES);
    CHECK(n.must_back == n.high + n.others + n.margin); /* the margin (8.3 GB) is more than busy - typical */
    CHECK(hr_run_judge(&n, n.fail_below - HR_GIB) == HR_NEED_WILL_FAIL);
    CHECK(hr_run_judge(&n, n.low + n.others) == HR_NEED_AT_RISK);

    /* a small run: the margin is less than a busy desktop's excess, which then sets the size */
    hr_run_need_make(&n, 6 * HR_GIB, 8 * HR_GIB, HR_UNKNOWN, HR_OTHERS_ALLOWANCE);
    CHECK(n.margin == 2 * HR_GIB && n.must_back == 20 * HR_GIB && n.fail_below == 9 * HR_GIB);
    CHECK(hr_run_judge(&n, 19 * HR_GIB) == HR_NEED_AT_RISK && hr_run_judge(&n, 20 * HR_GIB) == HR_NEED_OK);
    CHECK(hr_run_paging_bytes(&n, 16 * HR_GIB) == 4 * HR_GIB);

    /* measured on a live machine: what the programs commit now, not the allowance, and no range */
    est.machine.others_commit_bytes = 3 * HR_GIB;
    hr_est_need(&est, &n);
    CHECK(n.others_basis == HR_OTHERS_MEASURED && n.others == 3 * HR_GIB);
    CHECK(n.others_low == n.others && n.others_high == n.others);
    CHECK(n.fail_below == n.low + n.others && n.must_back == n.high + n.others + n.margin);
}

int main(void)
{
    killed_machine();
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
