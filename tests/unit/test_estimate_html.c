/* The estimate's HTML page (core/estimate/estimate_html.c): an SDXL workflow on a small
 * machine renders a complete page with its verdict, the peak bars, the per-step chart's three
 * series and the machine's limits, in English and Chinese; text from the workflow is escaped. */
#include "core/base/i18n.h"
#include "core/base/render.h"
#include "core/estimate/estimate.h"
#include "est_op.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hr_est_input in;
static hr_estimate est;

static void op(const char *id, const char *type, hr_est_op_kind kind, int m0, int m1, uint32_t w, uint32_t h)
{
    hr_test_add_op(&in, id, type, kind, m0, m1, w, h, 1, 1, true);
}

static char *render(void)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_render r;
    hr_render_init(&r, HR_FORMAT_HTML, &b, false);
    hr_estimate_render(&est, &r);
    CHECK(hr_render_finish(&r) == 0);
    char *s = strdup(hr_buf_str(&b));
    hr_buf_free(&b);
    return s;
}

int main(void)
{
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, "sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k) > 0);
    op("4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], k[1], 0, 0);
    in.op[0].models[in.op[0].model_count++] = k[2];
    op("6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], -1, 0, 0);
    op("3", "KSampler", HR_OP_SAMPLE, k[0], -1, 1024, 1024);
    op("8", "<b>VAEDecode</b>", HR_OP_VAE_DECODE, k[2], -1, 1024, 1024);
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.ram_bytes = (uint64_t)8 << 30;
    m.vram_bytes = (uint64_t)6 << 30;
    m.commit_limit_bytes = (uint64_t)12 << 30;
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse("", 0, &a, &err) == 0);
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);
    snprintf(est.workflow, sizeof est.workflow, "sdxl & friends.json");
    char *h = render();
    CHECK(strncmp(h, "<!DOCTYPE html>", 15) == 0);
    CHECK_CONTAINS(h, "id=\"verdict\"");
    CHECK_CONTAINS(h, "id=\"chart-peaks\"");
    CHECK_CONTAINS(h, "data-series=\"vram\" data-points=\"4\"");
    CHECK_CONTAINS(h, "data-series=\"ram\" data-points=\"4\"");
    CHECK_CONTAINS(h, "data-series=\"commit\" data-points=\"4\"");
    CHECK_CONTAINS(h, "data-series=\"vram-limit\"");
    CHECK_CONTAINS(h, "data-series=\"commit-limit\"");
    CHECK_CONTAINS(h, "sdxl &amp; friends.json");
    CHECK_CONTAINS(h, "&lt;b&gt;VAEDecode&lt;/b&gt;");
    CHECK(!strstr(h, "<b>VAEDecode"));
    CHECK(!strstr(h, "<script"));
    /* the page says what it rests on that was not read, as the screen does */
    CHECK_CONTAINS(h, "<li>8 GB of RAM is assumed (none was read): give --ram</li>");
    CHECK_CONTAINS(h, "<li>102 MB of VRAM held by other programs is assumed: give --vram-used</li>");
    free(h);
    m.ram_assumed = m.vram_assumed = m.vendor_assumed = false;
    m.vram_other_bytes = (uint64_t)2 << 30;
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);
    h = render();
    CHECK(!strstr(h, "is assumed"));
    CHECK_CONTAINS(h, "<li>2 GB of VRAM held by other programs (--vram-used)</li>");
    free(h);
    hr_lang_set(HR_LANG_ZH);
    h = render();
    hr_lang_set(HR_LANG_EN);
    CHECK_CONTAINS(h, "<html lang=\"zh-CN\"");
    CHECK_CONTAINS(h, "headroom 估算");
    CHECK_CONTAINS(h, "其他程序占用显存 2 GB（--vram-used）");
    free(h);
    return TEST_DONE();
}
