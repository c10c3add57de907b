/* The recording reader (core/report/recording.h) on good, cut-short and hostile input, and
 * the report page drawn from it: series present, markers placed, text escaped. */
#include "test.h"

#include "core/base/i18n.h"
#include "core/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR                                                                                                            \
    "{\"type\":\"header\",\"schema\":\"headroom.recording/1\",\"os\":\"linux\",\"mode\":\"run\","                      \
    "\"started\":1764702000123,\"command\":[\"python3\",\"main.py\"]}\n"

static hr_recording rec, rec2;
static hr_rec_reader reader;

/* The same bytes fed in slices of k: the same recording, the same answer, whatever the
 * slices (a line split anywhere, its \r apart from its \n). */
static int parse_n(const char *s, size_t len, hr_error *err)
{
    hr_rec_init(&rec);
    memset(err, 0, sizeof *err);
    int rc = hr_rec_parse(s, len, &rec, err);
    static const size_t slices[] = { 1, 2, 7, 4096 };
    for (size_t i = 0; i < sizeof slices / sizeof slices[0]; i++) {
        hr_error e2 = { 0 };
        hr_rec_init(&rec2);
        hr_rec_reader_init(&reader, &rec2);
        int r2 = 0;
        for (size_t at = 0; at < len && r2 == 0; at += slices[i])
            r2 = hr_rec_feed(&reader, s + at, len - at < slices[i] ? len - at : slices[i], &e2);
        if (r2 == 0)
            r2 = hr_rec_finish(&reader, &e2);
        CHECK_EQ_I64(r2, rc);
        CHECK_STR(e2.msg, err->msg);
        CHECK(memcmp(&rec, &rec2, sizeof rec) == 0);
    }
    return rc;
}

static int parse(const char *s, hr_error *err)
{
    return parse_n(s, strlen(s), err);
}

static char *page(void)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_report_html(&rec, "x.jsonl", &b);
    CHECK(hr_buf_error(&b) == 0);
    char *s = strdup(hr_buf_str(&b));
    hr_buf_free(&b);
    return s;
}

static void test_good(void)
{
    hr_error err;
    const char *s = HDR
        "{\"type\":\"sample\",\"t\":0,\"ram_total\":17179869184,\"ram_used\":4294967296,\"commit\":5368709120,"
        "\"commit_limit\":17179869184,\"swap_total\":0,\"swap_used\":0,\"vram_used\":null,\"new_key\":{\"a\":1}}\r\n"
        "{\"type\":\"node\",\"t\":500,\"event\":\"start\",\"node\":\"3\",\"class_type\":\"KSampler\"}\n"
        "{\"type\":\"sample\",\"t\":1000,\"ram_total\":17179869184,\"ram_used\":8589934592,\"commit\":9663676416,"
        "\"commit_limit\":17179869184}\n"
        "{\"type\":\"warning\",\"t\":1000,\"rule\":\"commit-85\",\"level\":\"warn\",\"message\":\"commit <high> & climbing\"}\n"
        "{\"type\":\"telemetry-of-2030\",\"t\":1100}\n"
        "\n"
        " \t\r\n"
        "{\"type\":\"verdict\",\"t\":1200,\"cause\":\"host-oom\",\"confidence\":\"high\",\"evidence\":[{\"source\":\"log\",\"text\":\"x\"}],"
        "\"peaks\":{\"commit\":10737418240},\"advice\":{\"commit_needed\":12884901888,\"text\":\"more\"}}\n";
    CHECK(parse(s, &err) == 0);
    CHECK_EQ_U64(rec.nsamples, 2);
    CHECK_EQ_U64(rec.nwarnings, 1);
    CHECK_EQ_U64(rec.nnodes, 1);
    CHECK_EQ_U64(rec.skipped, 1);
    CHECK(rec.have_verdict && !rec.truncated && !rec.cut_line);
    CHECK_STR(rec.command, "python3 main.py");
    CHECK(isnan(rec.samples[0].v[HR_RF_VRAM_USED]));
    CHECK(rec.peak[HR_RF_COMMIT] == 10737418240.0);
    char *h = page();
    CHECK_CONTAINS(h, "data-series=\"ram-used\" data-points=\"2\"");
    CHECK_CONTAINS(h, "data-series=\"commit-limit\"");
    CHECK_CONTAINS(h, "data-marker=\"node\"");
    CHECK_CONTAINS(h, "data-marker=\"warning\"");
    CHECK_CONTAINS(h, "commit &lt;high&gt; &amp; climbing");
    CHECK_CONTAINS(h, "headroom plan --peak-commit 12G");
    CHECK_CONTAINS(h, "data-verdict=\"will-fail\"");
    CHECK(!strstr(h, "data-series=\"vram-used\"")); /* never given: left out */
    free(h);
}

static void test_cut_short(void)
{
    hr_error err;
    CHECK(parse(HDR "{\"type\":\"sample\",\"t\":0,\"ram_used\":1}\n{\"type\":\"sample\",\"t\":10", &err) == 0);
    CHECK(rec.cut_line && rec.truncated);
    CHECK_EQ_U64(rec.nsamples, 1);
    char *h = page();
    CHECK_CONTAINS(h, "data-verdict=\"unknown\"");
    free(h);
}

static void expect_error(const char *s, int code, const char *needle)
{
    hr_error err;
    int rc = parse(s, &err);
    CHECK_EQ_I64(rc, code);
    CHECK_CONTAINS(err.msg, needle);
    CHECK(!strchr(err.msg, '\n'));
}

static void test_hostile(void)
{
    expect_error("", HR_EPARSE, "empty");
    expect_error("{\"type\":\"sample\",\"t\":0}\n", HR_EPARSE, "line 1: not a headroom recording");
    expect_error("\n" HDR, HR_EPARSE, "line 1");
    expect_error("{\"type\":\"header\",\"schema\":\"other/1\"}\n", HR_EPARSE, "schema \"other/1\"");
    expect_error(HDR "{\"type\":\"sample\",\"t\":0,\"commit\":\"12\"}\n", HR_EPARSE, "line 2: \"commit\" is string");
    expect_error(HDR "{\"type\":\"sample\",\"t\":0,\"commit\":1e999}\n", HR_EPARSE, "line 2");
    expect_error(HDR "{\"type\":\"sample\",\"t\":0,\"commit\":12,}\n", HR_EPARSE, "line 2");
    expect_error(HDR HDR, HR_EPARSE, "line 2: a second header");
    expect_error(HDR "[1,2]\n", HR_EPARSE, "line 2: not a JSON object");
    expect_error(HDR "{\"type\":\"node\",\"t\":0,\"class_type\":\"a\\u0000b\"}\n", HR_EPARSE, "line 2");
    expect_error(HDR "{\"type\":\"sample\",\"t\":0,\"x\":[[[[[[[[[[[[1]]]]]]]]]]]]}\n", HR_ETOOBIG, "line 2");
    expect_error(HDR "{\"type\":\"verdict\",\"t\":0,\"evidence\":5}\n", HR_EPARSE, "\"evidence\" is number");
    /* Invalid UTF-8 is refused by the strict JSON parser. */
    expect_error(HDR "{\"type\":\"node\",\"t\":0,\"class_type\":\"\xff\xfe\"}\n", HR_EPARSE, "line 2");
    /* A line over 64 KiB. */
    size_t big = HR_REC_MAX_LINE + 100;
    char *s = malloc(strlen(HDR) + big + 64);
    strcpy(s, HDR "{\"type\":\"sample\",\"t\":0,\"pad\":\"");
    size_t at = strlen(s);
    memset(s + at, 'a', big);
    strcpy(s + at + big, "\"}\n");
    expect_error(s, HR_ETOOBIG, "line 2: longer than 64 KiB");
    free(s);
}

/* A long recording is thinned to the cap and its one-sample spike survives. */
static void test_thinning(void)
{
    size_t n = 50000;
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_buf_puts(&b, HDR);
    for (size_t i = 0; i < n; i++)
        hr_buf_printf(&b, "{\"type\":\"sample\",\"t\":%zu,\"commit\":%d}\n", i * 1000, i == 31337 ? 999 : 5);
    hr_error err = { 0 };
    CHECK(parse_n(b.data, b.len, &err) == 0);
    CHECK(rec.nsamples <= HR_REC_MAX_SAMPLES && rec.nsamples > HR_REC_MAX_SAMPLES / 2);
    CHECK_EQ_U64(rec.samples_seen, n);
    CHECK(hr_rec_max(&rec, HR_RF_COMMIT) == 999.0);
    CHECK(rec.samples[0].t_ms == 0.0);
    hr_buf_free(&b);
    char *h = page();
    CHECK_CONTAINS(h, "50000 samples");
    free(h);
}

static void test_chinese(void)
{
    hr_error err;
    CHECK(parse(HDR "{\"type\":\"sample\",\"t\":0,\"ram_used\":1}\n{\"type\":\"end\",\"t\":1}\n", &err) == 0);
    hr_lang_set(HR_LANG_ZH);
    char *h = page();
    hr_lang_set(HR_LANG_EN);
    CHECK_CONTAINS(h, "<html lang=\"zh-CN\"");
    CHECK_CONTAINS(h, "提交");
    free(h);
}

/* Times and values no clock or machine gives: a sample without "t" (NaN), "t" and "started"
 * of 1e29, a warning's value of 1e29. Converting them to an integer is undefined (UBSan's
 * float-cast-overflow); the page said "-153722867280912930:-8" and "nan" instead. Every time
 * label is a time or "?", and no coordinate is NaN. */
static void test_no_clock(void)
{
    hr_error err;
    CHECK(parse("{\"type\":\"header\",\"schema\":\"headroom.recording/1\",\"os\":\"linux\","
                "\"mode\":\"run\",\"started\":1e29}\n"
                "{\"type\":\"sample\",\"ram_used\":4294967296,\"commit\":5368709120}\n"
                "{\"type\":\"sample\",\"t\":1e29,\"ram_used\":8589934592,\"commit\":9663676416}\n"
                "{\"type\":\"sample\",\"t\":-1e29,\"ram_used\":1e29,\"commit\":-5}\n"
                "{\"type\":\"warning\",\"rule\":\"commit-85\",\"level\":\"warn\",\"message\":\"m\","
                "\"value\":1e29,\"limit\":-1e29,\"limit_name\":\"commit\"}\n"
                "{\"type\":\"warning\",\"t\":2000,\"rule\":\"ttl\",\"level\":\"warn\",\"message\":\"m\","
                "\"value\":9e18,\"limit\":1e19,\"eta_s\":1e29}\n",
                &err) == 0);
    char *h = page();
    CHECK(!strstr(h, "nan") && !strstr(h, "inf"));
    for (const char *p = h; (p = strstr(p, "text-anchor=\"")) != NULL; p++) {
        const char *t = strchr(p, '>');
        CHECK(t && (t[1] == '?' || (t[1] >= '0' && t[1] <= '9')));
    }
    CHECK(!strstr(h, ">-"));
    CHECK_CONTAINS(h, "samples over ");
    free(h);
    /* the same with only one sample, and that one without a time */
    CHECK(parse(HDR "{\"type\":\"sample\",\"ram_used\":1}\n", &err) == 0);
    h = page();
    CHECK(!strstr(h, "nan") && !strstr(h, ">-"));
    free(h);
}

/* A paging rate no machine gives (1e29 pages/s): the axis says it in a rate's words, each
 * label a number and "/s" that fits its place, and never converts it to an integer it does
 * not fit (undefined: the sanitizer build's float-cast-overflow stops on it). */
static void test_huge_rate(void)
{
    hr_error err;
    CHECK(parse(HDR "{\"type\":\"sample\",\"t\":0,\"ram_used\":1,\"pages_in_ps\":1e29,\"pages_out_ps\":3}\n"
                    "{\"type\":\"sample\",\"t\":1000,\"ram_used\":1,\"pages_in_ps\":2,\"pages_out_ps\":3}\n",
                &err) == 0);
    char *h = page();
    const char *c = h ? strstr(h, "chart-paging") : NULL;
    CHECK(c != NULL);
    int labels = 0;
    /* the five y labels: the first "end"-anchored texts of the chart (the time labels follow) */
    for (const char *p = c; p && labels < 5 && (p = strstr(p, "text-anchor=\"end\"")) != NULL; p++) {
        const char *t = strchr(p, '>'), *e = t ? strchr(t, '<') : NULL;
        CHECK(t && e);
        if (!t || !e)
            break;
        size_t n = (size_t)(e - t - 1);
        fprintf(stderr, "paging label: %.*s\n", (int)n, t + 1);
        CHECK(n >= 3 && n <= 12 && memcmp(e - 2, "/s", 2) == 0);
        labels++;
    }
    CHECK(labels == 5);
    free(h);
}

int main(void)
{
    test_good();
    test_cut_short();
    test_hostile();
    test_thinning();
    test_chinese();
    test_no_clock();
    test_huge_rate();
    return TEST_DONE();
}
