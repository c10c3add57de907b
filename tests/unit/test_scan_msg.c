/* A scan result keeps its words as messages: the same report reads in the user's language as
 * text and in English as JSON, with no process-wide language switch between the two. The
 * models come from real safetensors headers, parsed and classified as `models` does. */
#include "test.h"

#include "core/base/i18n.h"
#include "core/base/render.h"
#include "core/scan/models_report.h"
#include "core/scan/workflow_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A safetensors file's head: 8-byte length, then the JSON header. */
static size_t st_head(const char *json, unsigned char *out, size_t cap)
{
    size_t n = strlen(json);
    if (n + 8 > cap)
        return 0;
    for (int i = 0; i < 8; i++)
        out[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(out + 8, json, n);
    return n + 8;
}

static int read_model(const char *name, const char *json, uint64_t data, hr_models_entry *e)
{
    static unsigned char head[4096];
    size_t len = st_head(json, head, sizeof head);
    hr_tensor_set ts;
    hr_tensor_set_init(&ts);
    hr_error err = { 0 };
    snprintf(e->path, sizeof e->path, "%s", name);
    e->info.file_bytes = len + data;
    int r = hr_model_parse_head(name, head, len, len + data, &e->info, &ts, &err);
    if (r == 0)
        hr_model_classify(&ts, name, "vae", &e->info);
    else
        hr_models_entry_failed(e, r, &err);
    hr_tensor_set_free(&ts);
    return r;
}

/* What a renderer wrote into a fresh buffer, as a string the caller frees. */
static char *rendered(void (*fn)(const void *rep, hr_render *rd), const void *rep, hr_format f)
{
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, f, &out, false);
    fn(rep, &rd);
    hr_render_finish(&rd);
    char *s = malloc(out.len + 1);
    if (s) {
        memcpy(s, out.data ? out.data : "", out.len);
        s[out.len] = '\0';
    }
    hr_buf_free(&out);
    return s;
}

static void models_fn(const void *rep, hr_render *rd)
{
    hr_models_render(rep, rd);
}

static void workflow_fn(const void *rep, hr_render *rd)
{
    hr_workflow_render(rep, rd);
}

static char *render(const hr_models_report *rep, hr_format f)
{
    return rendered(models_fn, rep, f);
}

static char *render_wf(const hr_workflow_report *rep, hr_format f)
{
    return rendered(workflow_fn, rep, f);
}

static bool has(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

int main(void)
{
    static hr_models_report rep;
    hr_models_report_init(&rep);
    /* a 16-channel VAE, one tensor of a dtype this version does not know (a note) */
    hr_models_entry *vae = hr_models_report_add(&rep);
    CHECK(vae != NULL);
    CHECK(
        read_model("models/vae/flux_ae.safetensors",
                   "{\"decoder.conv_in.weight\":{\"dtype\":\"F16\",\"shape\":[512,16,3,3],\"data_offsets\":[0,147456]},"
                   "\"decoder.up.0.block.0.conv1.weight\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[147456,"
                   "147464]},"
                   "\"x\":{\"dtype\":\"Q9\",\"shape\":[4],\"data_offsets\":[147464,147472]}}",
                   147472, vae) == 0);
    CHECK_STR(vae->info.arch, "16-channel VAE (FLUX.1/SD3)"); /* English, whatever the language */
    CHECK(hr_msg_is_set(&vae->info.note));
    /* a header the JSON parser refuses: where and why are kept as data */
    hr_models_entry *bad = hr_models_report_add(&rep);
    CHECK(bad != NULL);
    CHECK(read_model("models/vae/bad.safetensors",
                     "{\"a\xff\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[0,2]}}", 2, bad) != 0);
    CHECK(bad->error != 0);
    rep.errors = 1;
    /* a checkpoint with two text encoders, one an LLM: the joined line's " (LLM encoder)" is
     * a message of its own, so no English is left in Chinese text */
    hr_models_entry *ck = hr_models_report_add(&rep);
    CHECK(ck != NULL);
    CHECK(read_model("models/checkpoints/ltx2.safetensors",
                     "{\"model.diffusion_model.x.weight\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,8]},"
                     "\"text_encoders.clip_l.transformer.text_model.encoder.layers.0.self_attn.q_proj.weight\":"
                     "{\"dtype\":\"F16\",\"shape\":[768,768],\"data_offsets\":[8,1179656]},"
                     "\"text_encoders.gemma3_12b.transformer.model.layers.0.self_attn.q_proj.weight\":"
                     "{\"dtype\":\"F16\",\"shape\":[4,4],\"data_offsets\":[1179656,1179688]},"
                     "\"text_encoders.gemma3_12b.transformer.model.layers.0.pre_feedforward_layernorm.weight\":"
                     "{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[1179688,1179696]}}",
                     1179696, ck) == 0);
    const hr_model_component *te = NULL;
    for (size_t i = 0; i < ck->info.n_comps; i++)
        if (strcmp(ck->info.comps[i].name, "text_encoder") == 0)
            te = &ck->info.comps[i];
    CHECK(te != NULL);
    char te_en[HR_MODEL_COMP_ARCH_MAX] = "", te_zh[HR_MODEL_COMP_ARCH_MAX] = "";
    if (te) {
        hr_model_comp_arch_text(te, HR_LANG_EN, te_en);
        hr_model_comp_arch_text(te, HR_LANG_ZH, te_zh);
    }
    const char *llm_zh = hr_tr_lang(HR_LANG_ZH, " (LLM encoder)");
    CHECK(strcmp(llm_zh, " (LLM encoder)") != 0); /* the catalogue has it */
    CHECK(strncmp(te_en, "CLIP-L + Gemma ", 15) == 0 && has(te_en, " (LLM encoder)"));
    CHECK(strncmp(te_zh, "CLIP-L + Gemma ", 15) == 0 && has(te_zh, llm_zh) && !has(te_zh, "encoder"));

    const char *arch_zh = hr_tr_lang(HR_LANG_ZH, "16-channel VAE (FLUX.1/SD3)");
    const char *utf8_zh = hr_tr_lang(HR_LANG_ZH, "invalid UTF-8 in a string");
    CHECK(strcmp(arch_zh, "16-channel VAE (FLUX.1/SD3)") != 0); /* the catalogue has it */
    CHECK(strcmp(utf8_zh, "invalid UTF-8 in a string") != 0);

    hr_lang_set(HR_LANG_ZH);
    char *zh = render(&rep, HR_FORMAT_TEXT);
    char *json_zh = render(&rep, HR_FORMAT_JSON); /* asked for in Chinese: JSON stays English */
    hr_lang_set(HR_LANG_EN);
    char *en = render(&rep, HR_FORMAT_TEXT);
    char *json_en = render(&rep, HR_FORMAT_JSON);

    CHECK(has(zh, arch_zh));
    CHECK(has(zh, utf8_zh));
    CHECK(!has(zh, "16-channel VAE"));
    CHECK(has(en, "16-channel VAE (FLUX.1/SD3)"));
    CHECK(has(en, "1 tensor(s) of a dtype this version does not know (Q9)"));
    CHECK(has(en, "bad.safetensors: safetensors header: line 1, column 4: invalid UTF-8 in a string"));
    CHECK(json_en && json_zh && strcmp(json_en, json_zh) == 0);
    CHECK(has(json_zh, "\"architecture\": \"16-channel VAE (FLUX.1/SD3)\""));
    CHECK(has(json_zh, "1 tensor(s) of a dtype this version does not know (Q9)"));
    CHECK(has(json_zh, "invalid UTF-8 in a string"));
    CHECK(!has(json_zh, arch_zh));
    CHECK(!has(json_zh, utf8_zh));
    CHECK(has(zh, te_zh) && !has(zh, te_en));
    CHECK(has(json_zh, te_en) && !has(json_zh, llm_zh));
    /* the stderr line follows the user's language: the parser's err was set in English here */
    char why[HR_ERROR_MSG_MAX];
    hr_models_error_text(bad, HR_LANG_ZH, why);
    CHECK(has(why, utf8_zh));

    /* workflow: a model not found; its problem is a message too */
    hr_workflow *wf = calloc(1, sizeof *wf);
    CHECK(wf != NULL);
    if (wf) {
        wf->n_models = 1;
        hr_wf_model *m = &wf->models[0];
        m->role = HR_WF_ROLE_VAE;
        snprintf(m->node_id, sizeof m->node_id, "3");
        snprintf(m->class_type, sizeof m->class_type, "VAELoader");
        snprintf(m->folder, sizeof m->folder, "vae");
        snprintf(m->name, sizeof m->name, "ae.safetensors");
        hr_msg_set(&m->problem, HR_N("not found in %s (%s)"), "vae", "/c/models/vae");
        hr_workflow_report wr = { .wf = wf, .file = "w.json" };
        hr_lang_set(HR_LANG_ZH);
        char *wzh = render_wf(&wr, HR_FORMAT_TEXT), *wjson = render_wf(&wr, HR_FORMAT_JSON);
        hr_lang_set(HR_LANG_EN);
        char want[256];
        snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, "not found in %s (%s)"), "vae", "/c/models/vae");
        CHECK(has(wzh, want));
        CHECK(has(wjson, "\"problem\": \"not found in vae (/c/models/vae)\""));
        free(wzh);
        free(wjson);
        free(wf);
    }
    free(zh);
    free(en);
    free(json_zh);
    free(json_en);
    hr_models_report_free(&rep);
    return TEST_DONE();
}
