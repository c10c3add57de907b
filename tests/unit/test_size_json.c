/* Unit tests of size parsing and formatting (what users type, what we show) and of the
 * JSON writer's escaping (what scripts read). */
#include "test.h"

#include "core/base/buf.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"

static uint64_t parse_ok(const char *text)
{
    uint64_t v = 0;
    hr_error err = { 0 };
    int r = hr_size_parse(text, &v, &err);
    if (r != 0) {
        fprintf(stderr, "size '%s' failed: %s\n", text, err.msg);
        return UINT64_MAX;
    }
    return v;
}

static int parse_err(const char *text, const char *msg_part)
{
    uint64_t v = 12345;
    hr_error err = { 0 };
    int r = hr_size_parse(text, &v, &err);
    CHECK(v == 12345); /* the output is untouched on failure */
    if (msg_part)
        CHECK_CONTAINS(err.msg, msg_part);
    return r;
}

static void test_size_parse(void)
{
    /* One convention: K, M, G, T are binary, with or without B / iB, any case. */
    CHECK_EQ_U64(parse_ok("16G"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16GiB"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16GB"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16 GiB"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16g"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16gib"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16384M"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("16384MB"), 16 * HR_GIB);
    CHECK_EQ_U64(parse_ok("1T"), HR_TIB);
    CHECK_EQ_U64(parse_ok("4K"), 4096);
    CHECK_EQ_U64(parse_ok("1.5G"), HR_GIB + HR_GIB / 2);
    CHECK_EQ_U64(parse_ok("0.5M"), 512 * HR_KIB);
    CHECK_EQ_U64(parse_ok("1.5K"), 1536);
    CHECK_EQ_U64(parse_ok("2.25T"), 2 * HR_TIB + HR_TIB / 4);
    CHECK_EQ_U64(parse_ok("1.1M"), HR_MIB + HR_MIB / 10); /* rounded down to a byte */
    CHECK_EQ_U64(parse_ok("4096B"), 4096);                /* bytes say so */
    CHECK_EQ_U64(parse_ok("  32G  "), 32 * HR_GIB);
    CHECK_EQ_U64(parse_ok("0B"), 0);
    CHECK_EQ_U64(parse_ok("0G"), 0);
    CHECK_EQ_U64(parse_ok("0"), 0);                  /* 0 in any unit: --vram 0 */
    CHECK_EQ_U64(parse_ok("32768 MB"), 32 * HR_GIB); /* what the refusal suggests parses */
    CHECK_EQ_U64(parse_ok("18446744073709551613B"), UINT64_MAX - 2);
    CHECK_EQ_U64(parse_ok("16777215T"), 16777215 * HR_TIB);

    hr_error err = { 0 };
    uint64_t v;
    CHECK_EQ_I64(hr_size_parse(NULL, &v, &err), HR_EINVAL);
    CHECK_EQ_I64(parse_err("", "expected a number"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("G", "expected a number"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("abc", "'abc'"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("-1G", NULL), HR_EPARSE);
    CHECK_EQ_I64(parse_err("+1G", NULL), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16X", "unknown unit"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16 P", "unknown unit"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16GG", "unexpected text"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16GiBs", "unexpected text"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16G extra", "unexpected text"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("1.", "digits expected"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("1.G", "digits expected"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("1.5", "needs a unit"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("1,5G", NULL), HR_EPARSE);
    CHECK_EQ_I64(parse_err("0x10G", NULL), HR_EPARSE);
    /* A bare number is refused (issue: `apply --size 32768` made a 32 KB paging file), with
     * the reading the user most likely meant. */
    CHECK_EQ_I64(parse_err("32768", "did you mean 32768 MB (32 GB)?"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("65536", "did you mean 65536 MB (64 GB)?"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("16", "did you mean 16G?"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("4096", "did you mean 4096 MB (4 GB)?"), HR_EPARSE);
    CHECK_EQ_I64(parse_err("17179869184", "did you mean 17179869184B (16 GB)?"), HR_EPARSE);
    CHECK_EQ_I64(parse_err(" 1 ", "did you mean 1G?"), HR_EPARSE);
    /* The top two values mean "unknown" and "unlimited": never taken as a size. */
    CHECK_EQ_I64(parse_err("18446744073709551615B", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("18446744073709551614B", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("18446744073709551616B", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("18446744073709551616", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("16777216T", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("17179869184G", "too large"), HR_ERANGE);
    CHECK_EQ_I64(parse_err("99999999999999999999999999G", "too large"), HR_ERANGE);
}

static void check_format(uint64_t bytes, const char *want)
{
    char out[32];
    hr_size_format(bytes, out, sizeof out);
    CHECK_STR(out, want);
}

static void test_size_format(void)
{
    check_format(0, "0 B");
    check_format(1023, "1023 B");
    check_format(1024, "1.00 KiB");
    check_format(1536, "1.50 KiB");
    check_format(512 * HR_MIB, "512 MiB");
    check_format(HR_GIB + HR_GIB / 2, "1.50 GiB");
    check_format(16 * HR_GIB, "16.0 GiB");
    check_format(8589930496ull, "8.00 GiB"); /* an 8 GiB swap area minus its header page */
    check_format(2 * HR_TIB, "2.00 TiB");
    check_format(UINT64_MAX, "16.0 EiB");
    char tiny[4];
    hr_size_format(16 * HR_GIB, tiny, sizeof tiny); /* truncated, terminated */
    CHECK_STR(tiny, "16.");
    CHECK_EQ_U64(hr_size_round_up_gib(0), 0);
    CHECK_EQ_U64(hr_size_round_up_gib(1), 1);
    CHECK_EQ_U64(hr_size_round_up_gib(HR_GIB), 1);
    CHECK_EQ_U64(hr_size_round_up_gib(HR_GIB + 1), 2);
}

/* Quote n bytes of s and compare with want (the JSON text, quotes included). */
static void check_quote(const char *s, size_t n, const char *want)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    CHECK_EQ_I64(hr_json_quote(&b, s, n), 0);
    CHECK_STR(hr_buf_str(&b), want);
    hr_buf_free(&b);
}

static void test_json_escape(void)
{
    check_quote("plain", 5, "\"plain\"");
    check_quote("", 0, "\"\"");
    check_quote("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
    check_quote("\n\r\t", 3, "\"\\n\\r\\t\"");
    /* Other control characters, DEL and NUL as \u escapes. */
    check_quote("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
    check_quote("a\0b", 3, "\"a\\u0000b\"");
    check_quote("\x1b[31mred", 8, "\"\\u001b[31mred\"");
    /* Valid UTF-8 passes through: Chinese paths, emoji. */
    check_quote("D:\\\xe6\xa8\xa1\xe5\x9e\x8b", 9, "\"D:\\\\\xe6\xa8\xa1\xe5\x9e\x8b\"");
    check_quote("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
    check_quote("\xc3\xa9", 2, "\"\xc3\xa9\"");
    /* Invalid UTF-8 becomes U+FFFD, one per bad byte. */
    check_quote("sw\xe9p", 4, "\"sw\\ufffdp\""); /* Latin-1 */
    check_quote("\xff\xfe", 2, "\"\\ufffd\\ufffd\"");
    check_quote("\xc0\xaf", 2, "\"\\ufffd\\ufffd\""); /* overlong '/' */
    check_quote("\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\"");
    check_quote("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");            /* UTF-16 surrogate */
    check_quote("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
    check_quote("ok\xe6\xa8", 4, "\"ok\\ufffd\\ufffd\"");                   /* cut multibyte at the end */
    check_quote("\x80", 1, "\"\\ufffd\"");                                  /* lone continuation byte */

    /* The writer: keys and values escaped, structure and commas placed, null for NULL. */
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_json_writer w;
    hr_json_init(&w, &b, false);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "path", "/media/a\tb\xff");
    hr_json_str(&w, "k\"ey", NULL);
    hr_json_u64(&w, "big", UINT64_MAX);
    hr_json_i64(&w, "neg", INT64_MIN);
    hr_json_double(&w, "nan", 0.0 / 0.0);
    hr_json_begin_array(&w, "list");
    hr_json_bool(&w, NULL, true);
    hr_json_begin_object(&w, NULL);
    hr_json_end_object(&w);
    hr_json_end_array(&w);
    hr_json_end_object(&w);
    CHECK_EQ_I64(hr_json_finish(&w), 0);
    CHECK_STR(hr_buf_str(&b), "{\"path\":\"/media/a\\tb\\ufffd\",\"k\\\"ey\":null,"
                              "\"big\":18446744073709551615,\"neg\":-9223372036854775808,"
                              "\"nan\":null,\"list\":[true,{}]}\n");
    hr_buf_free(&b);

    /* An unbalanced document is an error, not a silent half document. */
    hr_buf_init(&b, 0);
    hr_json_init(&w, &b, true);
    hr_json_begin_object(&w, NULL);
    CHECK_EQ_I64(hr_json_finish(&w), HR_EINTERNAL);
    hr_buf_free(&b);
    hr_buf_init(&b, 0);
    hr_json_init(&w, &b, true);
    hr_json_end_array(&w);
    CHECK(hr_json_finish(&w) != 0);
    hr_buf_free(&b);
}

int main(void)
{
    test_size_parse();
    test_size_format();
    test_json_escape();
    return TEST_DONE();
}
