/* One estimate, three renderings: its verdicts, fixes, notes and step notes are kept as data
 * (hr_msg) and said where they are shown — the text screen and the HTML page in the user's
 * language, the JSON in English whatever the user's language is (no process-wide switch). */
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

static char *render(hr_format f, hr_lang lang)
{
    hr_lang_set(lang);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_render r;
    hr_render_init(&r, f, &b, false);
    hr_estimate_render(&est, &r);
    CHECK(hr_render_finish(&r) == 0);
    char *s = strdup(hr_buf_str(&b));
    hr_buf_free(&b);
    hr_lang_set(HR_LANG_EN);
    return s;
}

/* One message as each rendering must say it: the text and HTML in their language, the JSON
 * in English (checked as a JSON string when it has nothing JSON escapes). */
static int said;
static void check_said(const char *en, const char *zh, const char *text_en, const char *text_zh, const char *html_zh,
                       const char *json)
{
    CHECK(en[0] != '\0');
    CHECK(strcmp(en, zh) != 0); /* the Chinese catalogue has it */
    CHECK_CONTAINS(text_en, en);
    CHECK_CONTAINS(text_zh, zh);
    CHECK(strstr(text_zh, en) == NULL);
    CHECK(strstr(json, zh) == NULL);
    if (!strpbrk(en, "\"\\<>&")) {
        CHECK_CONTAINS(html_zh, zh);
        char quoted[HR_EST_TEXT_MAX + 4];
        snprintf(quoted, sizeof quoted, "\"%s\"", en);
        CHECK_CONTAINS(json, quoted);
    }
    said++;
}

int main(void)
{
    /* SDXL on a small Windows machine, the text encoder on the CPU: verdicts with fixes, the
     * notes of an unknown version and of Windows, a step note */
    memset(&in, 0, sizeof in);
    int k[3];
    CHECK(hr_est_add_from_catalog(&in, "sd_xl_base_1.0.safetensors", HR_EST_DIFFUSION, true, k) > 0);
    in.model[k[1]].cpu_device = true;
    hr_test_add_op(&in, "4", "CheckpointLoaderSimple", HR_OP_LOAD, k[0], k[1], 0, 0, 1, 1, true);
    in.op[0].models[in.op[0].model_count++] = k[2];
    hr_test_add_op(&in, "6", "CLIPTextEncode", HR_OP_ENCODE_TEXT, k[1], -1, 0, 0, 1, 1, true);
    hr_test_add_op(&in, "3", "KSampler", HR_OP_SAMPLE, k[0], -1, 1024, 1024, 1, 4, true);
    hr_test_add_op(&in, "8", "VAEDecode", HR_OP_VAE_DECODE, k[2], -1, 1024, 1024, 1, 4, true);
    hr_est_machine m;
    hr_est_machine_init(&m);
    m.os = HR_OS_WINDOWS;
    m.ram_bytes = (uint64_t)8 << 30;
    m.vram_bytes = (uint64_t)6 << 30;
    m.commit_limit_bytes = (uint64_t)12 << 30;
    m.commit_enforced = true;
    hr_comfy_args a;
    hr_error err = { 0 };
    CHECK(hr_comfy_args_parse("", 0, &a, &err) == 0);
    CHECK(hr_estimate_run(&in, &m, &a, &est, &err) == 0);
    snprintf(est.workflow, sizeof est.workflow, "sdxl.json");

    char *text_en = render(HR_FORMAT_TEXT, HR_LANG_EN);
    char *text_zh = render(HR_FORMAT_TEXT, HR_LANG_ZH);
    char *html_zh = render(HR_FORMAT_HTML, HR_LANG_ZH);
    char *json_en = render(HR_FORMAT_JSON, HR_LANG_EN);
    char *json_zh = render(HR_FORMAT_JSON, HR_LANG_ZH);

    /* the JSON is the same, and English, whatever language the user reads */
    CHECK_STR(json_zh, json_en);
    for (const unsigned char *p = (const unsigned char *)json_zh; *p; p++)
        if (*p >= 0x80) {
            fprintf(stderr, "not English in the JSON: %.60s\n", (const char *)p);
            CHECK(false);
            break;
        }

    char en[HR_EST_TEXT_MAX], zh[HR_EST_TEXT_MAX];
    int fixes = 0, step_notes = 0;
    for (int i = 0; i < est.verdict_count; i++) {
        const hr_est_verdict *v = &est.verdict[i];
        check_said(hr_est_msg_text(&v->text, HR_LANG_EN, en, sizeof en),
                   hr_est_msg_text(&v->text, HR_LANG_ZH, zh, sizeof zh), text_en, text_zh, html_zh, json_zh);
        if (hr_msg_is_set(&v->fix)) {
            check_said(hr_est_msg_text(&v->fix, HR_LANG_EN, en, sizeof en),
                       hr_est_msg_text(&v->fix, HR_LANG_ZH, zh, sizeof zh), text_en, text_zh, html_zh, json_zh);
            fixes++;
        }
    }
    for (int i = 0; i < est.note_count; i++)
        check_said(hr_est_msg_text(&est.notes[i], HR_LANG_EN, en, sizeof en),
                   hr_est_msg_text(&est.notes[i], HR_LANG_ZH, zh, sizeof zh), text_en, text_zh, html_zh, json_zh);
    for (int i = 0; i < est.step_count; i++)
        if (hr_est_step_note_text(&est, i, HR_LANG_EN, en, sizeof en)[0]) {
            check_said(en, hr_est_step_note_text(&est, i, HR_LANG_ZH, zh, sizeof zh), text_en, text_zh, html_zh,
                       json_zh);
            step_notes++;
        }
    /* the case covers each kind of message */
    CHECK(est.verdict_count >= 1 && fixes >= 1 && est.note_count >= 2 && step_notes >= 1);
    CHECK_CONTAINS(json_zh, "\"note\": \"text encoder runs on the CPU\"");
    CHECK_CONTAINS(text_zh, hr_tr_lang(HR_LANG_ZH, "text encoder runs on the CPU"));
    printf("%d messages said in English and Chinese; %d verdicts, %d fixes, %d notes, %d step notes\n", said,
           est.verdict_count, fixes, est.note_count, step_notes);

    free(text_en);
    free(text_zh);
    free(html_zh);
    free(json_en);
    free(json_zh);
    return TEST_DONE();
}
