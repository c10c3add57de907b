/* One status report, rendered as text in English and in Chinese and as JSON: the report keeps
 * its words as data (a volume's reason, a note), so the text speaks the user's language and
 * the JSON is English whatever the language of the moment, with the reason's stable id
 * (why_not_id) beside its words. Runs on Linux and under Wine alike (a recorded Windows
 * machine, OS-free code). */
#include "test.h"

#include "core/base/json_writer.h"
#include "core/model/swap_target.h"
#include "core/model/win_model.h"
#include "core/status/status_render.h"

#include <stdlib.h>
#include <string.h>

static char file[1 << 20];

static const char *slurp(const char *rel)
{
    const char *src = getenv("HR_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    size_t n = fread(file, 1, sizeof file - 1, f);
    file[n] = '\0';
    fclose(f);
    return file;
}

static hr_snapshot snap;
static hr_win_raw raw;
static hr_status st;

static void json_of(hr_buf *b)
{
    hr_buf_reset(b);
    hr_json_writer w;
    hr_json_init(&w, b, true);
    hr_status_report_json(&st, &w, NULL);
    CHECK_EQ_I64(hr_json_finish(&w), 0);
}

static void text_of(hr_buf *b)
{
    hr_buf_reset(b);
    hr_render_opts o = { .color = false };
    CHECK_EQ_I64(hr_status_report_text(&st, b, &o), 0);
}

/* The recorded Windows machine at rel, modelled into snap while the language of the moment is
 * during (as a probe in the user's session is). Returns the model's result, -1 on a bad file. */
static int read_windows(const char *rel, hr_lang during)
{
    const char *buf = slurp(rel);
    CHECK(buf != NULL);
    if (!buf)
        return -1;
    hr_error err = { 0 };
    int r = hr_win_raw_load_json(buf, strlen(buf), &raw, &err);
    CHECK_EQ_I64(r, 0);
    if (r)
        return -1;
    hr_lang_set(during);
    r = hr_win_model_snapshot(&raw, &snap);
    hr_lang_set(HR_LANG_EN);
    return r;
}

/* A machine with a paging file configured but not yet in use (notes, S5.1); its last volume judged as if it were a
 * tmpfs by the real rule, so the report carries a reason with a parameter. */
static int load(void)
{
    int r = read_windows("tests/fixtures/windows/restart-pending.json", HR_LANG_EN);
    if (r == -1)
        return r;
    CHECK(r == 0 || r == HR_EPARTIAL);
    CHECK(snap.note_count > 0);
    CHECK(snap.volume_count > 1); /* one judged below, one with nothing against it */
    if (snap.note_count == 0 || snap.volume_count < 2)
        return -1;
    hr_volume *v = &snap.volumes[snap.volume_count - 1];
    memset(&v->why_not, 0, sizeof v->why_not);
    v->can_hold_swap = hr_swap_fs_capable(HR_OS_LINUX, "tmpfs", 1, false, &v->why_not);
    CHECK(v->why_not.id == HR_SW_IN_RAM);
    hr_status_compute(&snap, &st);
    return 0;
}

static void test_languages(void)
{
    if (load() != 0)
        return;
    hr_buf en_json, zh_json, en_text, zh_text;
    hr_buf_init(&en_json, 0);
    hr_buf_init(&zh_json, 0);
    hr_buf_init(&en_text, 0);
    hr_buf_init(&zh_text, 0);

    char why_en[256], why_zh[256], note_en[400], note_zh[400];
    const hr_volume *v = &snap.volumes[snap.volume_count - 1];
    hr_swap_why_text_lang(&v->why_not, HR_LANG_EN, why_en, sizeof why_en);
    hr_swap_why_text_lang(&v->why_not, HR_LANG_ZH, why_zh, sizeof why_zh);
    hr_msg_format(&snap.notes[0].msg, HR_LANG_EN, note_en, sizeof note_en);
    hr_msg_format(&snap.notes[0].msg, HR_LANG_ZH, note_zh, sizeof note_zh);
    CHECK_CONTAINS(why_en, "tmpfs lives in RAM");
    CHECK_CONTAINS(note_en, "is configured but not in use");
    /* the catalogue has both: otherwise the checks below could not tell the languages apart */
    CHECK(strcmp(why_en, why_zh) != 0);
    CHECK(strcmp(note_en, note_zh) != 0);

    hr_lang_set(HR_LANG_EN);
    json_of(&en_json);
    text_of(&en_text);
    hr_lang_set(HR_LANG_ZH);
    json_of(&zh_json);
    text_of(&zh_text);
    hr_lang_set(HR_LANG_EN);

    /* JSON: English, the same bytes whatever the language of the moment */
    CHECK_STR(hr_buf_str(&zh_json), hr_buf_str(&en_json));
    char want[400];
    snprintf(want, sizeof want, "\"why_not\": \"%s\"", why_en);
    CHECK_CONTAINS(hr_buf_str(&zh_json), want);
    CHECK_CONTAINS(hr_buf_str(&zh_json), "\"why_not_id\": \"in_ram\"");
    /* the note after its path (JSON escapes the path's backslash) */
    const char *after_path = strchr(note_en, ' ');
    CHECK(after_path != NULL);
    snprintf(want, sizeof want, "%s\"", after_path ? after_path : note_en);
    CHECK_CONTAINS(hr_buf_str(&zh_json), want);
    CHECK(strstr(hr_buf_str(&zh_json), why_zh) == NULL);
    CHECK(strstr(hr_buf_str(&zh_json), strchr(note_zh, ' ') ? strchr(note_zh, ' ') : note_zh) == NULL);
    /* a volume nothing is against: null both */
    CHECK_CONTAINS(hr_buf_str(&en_json), "\"why_not\": null,\n      \"why_not_id\": null");

    /* text: the language of the moment, reason and note alike */
    CHECK_CONTAINS(hr_buf_str(&en_text), why_en);
    CHECK_CONTAINS(hr_buf_str(&en_text), note_en);
    CHECK_CONTAINS(hr_buf_str(&zh_text), why_zh);
    CHECK_CONTAINS(hr_buf_str(&zh_text), note_zh);
    CHECK(strstr(hr_buf_str(&zh_text), note_en) == NULL);

    hr_buf_free(&en_json);
    hr_buf_free(&zh_json);
    hr_buf_free(&en_text);
    hr_buf_free(&zh_text);
}

/* What the probe says of a machine (a section's reason, a drive's, the GPU notes) is worded
 * as it reads, in both languages: a snapshot read while the user's language is Chinese still
 * gives English JSON, byte for byte the one read in English, and Chinese text. */
static int read_wine(hr_lang during)
{
    int r = read_windows("tests/fixtures/windows/wine-8.0.json", during);
    if (r == -1)
        return r;
    CHECK_EQ_I64(r, HR_EPARTIAL);
    hr_status_compute(&snap, &st);
    return 0;
}

static void test_probe_words(void)
{
    hr_buf en_json, zh_json, zh_text;
    hr_buf_init(&en_json, 0);
    hr_buf_init(&zh_json, 0);
    hr_buf_init(&zh_text, 0);
    if (read_wine(HR_LANG_EN) == 0)
        json_of(&en_json);
    if (read_wine(HR_LANG_ZH) == 0) {
        json_of(&zh_json);
        hr_lang_set(HR_LANG_ZH);
        text_of(&zh_text);
        hr_lang_set(HR_LANG_EN);
    }
    CHECK_STR(hr_buf_str(&zh_json), hr_buf_str(&en_json));
    const char *j = hr_buf_str(&zh_json);
    CHECK_CONTAINS(j, "\"unknown_reason\": \"EnumPageFilesW is not implemented on this system; ");
    CHECK_CONTAINS(j, "bus type query failed: access denied (5)");
    CHECK_CONTAINS(j, "NVML (nvml.dll): not present; DXGI failed: unsupported (no display device)");
    CHECK_CONTAINS(j, "\"os_name\": \"Windows");
    for (const unsigned char *p = (const unsigned char *)j; *p; p++)
        if (*p >= 0x80) {
            CHECK(!"JSON holds a byte that is not ASCII");
            break;
        }
    /* the text: the same reasons, in Chinese, each list joined the Chinese way */
    const char *t = hr_buf_str(&zh_text);
    char want[200];
    snprintf(want, sizeof want, "%s%s", hr_tr_lang(HR_LANG_ZH, "; "), "NtQuerySystemInformation");
    CHECK_CONTAINS(t, want);
    snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, "%s is not implemented on this system"), "EnumPageFilesW");
    CHECK_CONTAINS(t, want);
    CHECK(strstr(t, "is not implemented") == NULL);
    CHECK(strstr(t, "access denied") == NULL);
    hr_buf_free(&en_json);
    hr_buf_free(&zh_json);
    hr_buf_free(&zh_text);
}

/* why_not_id: one per reason, snake_case, none alike, the table's name; listed by the schema. */
static void test_why_ids(void)
{
    const char *schema = slurp("docs/schemas/status.schema.json");
    CHECK(schema != NULL);
    hr_swap_verdict v = { 0 };
    char id[32];
    CHECK_EQ_I64(hr_swap_why_id(&v, id, sizeof id), 0);
    CHECK_STR(id, "");
    char seen[HR_SW_COUNT][32];
    for (int i = HR_SW_NONE + 1; i < HR_SW_COUNT; i++) {
        v.id = (hr_swap_why)i;
        hr_swap_why_id(&v, id, sizeof id);
        CHECK(id[0] && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(id));
        const char *name = hr_swap_why_row_of(v.id)->name;
        CHECK_EQ_U64(strlen(id), strlen(name));
        for (size_t k = 0; name[k]; k++)
            CHECK(id[k] == (name[k] == '-' ? '_' : name[k]));
        for (int j = HR_SW_NONE + 1; j < i; j++)
            CHECK(strcmp(seen[j], id) != 0);
        snprintf(seen[i], sizeof seen[i], "%s", id);
        char quoted[40];
        snprintf(quoted, sizeof quoted, "\"%s\"", id);
        if (schema)
            CHECK_CONTAINS(schema, quoted);
    }
}

int main(void)
{
    test_languages();
    test_probe_words();
    test_why_ids();
    return TEST_DONE();
}
