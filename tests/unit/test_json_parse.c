/* The strict JSON parser: values, accessors, every class of error with its position. */
#include "test.h"

#include "core/base/json_parse.h"

#include <stdlib.h>

static hr_json_doc *parse_ok(const char *s)
{
    hr_json_doc *d = NULL;
    hr_error err = { 0 };
    int r = hr_json_parse(s, strlen(s), NULL, &d, &err);
    if (r != 0)
        fprintf(stderr, "unexpected error for %s: %s\n", s, err.msg);
    CHECK(r == 0);
    return d;
}

/* Expect failure with `code` and a message containing `msg`. */
static void parse_bad(const char *s, size_t len, int code, const char *msg)
{
    hr_json_doc *d = (hr_json_doc *)1;
    hr_error err = { 0 };
    int r = hr_json_parse(s, len, NULL, &d, &err);
    CHECK_EQ_I64(r, code);
    CHECK(d == NULL);
    CHECK_CONTAINS(err.msg, msg);
}
#define BAD(s, code, msg) parse_bad(s, sizeof(s) - 1, code, msg)

static void test_values(void)
{
    hr_json_doc *d = parse_ok(" {\"a\": [1, -2, 3.5e2, true, false, null, \"x\\u00e9\\ud83d\\ude00\"],\n"
                              "  \"b\": {\"c\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}, \"e\": {}, \"f\": [] } ");
    const hr_json_value *root = hr_json_root(d);
    CHECK(hr_json_is(root, HR_JSON_OBJECT));
    CHECK_EQ_U64(hr_json_count(root), 4);
    const hr_json_value *a = hr_json_get(root, "a");
    CHECK_EQ_U64(hr_json_count(a), 7);
    uint64_t u = 0;
    int64_t i = 0;
    CHECK(hr_json_as_u64(hr_json_at(a, 0), &u) == 0 && u == 1);
    CHECK(hr_json_as_u64(hr_json_at(a, 1), &u) == HR_ERANGE);
    CHECK(hr_json_as_i64(hr_json_at(a, 1), &i) == 0 && i == -2);
    CHECK(hr_json_as_u64(hr_json_at(a, 2), &u) == HR_ERANGE);
    double dv = 0;
    CHECK(hr_json_as_double(hr_json_at(a, 2), &dv) == 0 && dv == 350.0);
    CHECK_STR(hr_json_number_text(hr_json_at(a, 2)), "3.5e2");
    bool b = false;
    CHECK(hr_json_as_bool(hr_json_at(a, 3), &b) == 0 && b);
    CHECK(hr_json_as_bool(hr_json_at(a, 4), &b) == 0 && !b);
    CHECK(hr_json_type_of(hr_json_at(a, 5)) == HR_JSON_NULL);
    CHECK(hr_json_is(hr_json_at(a, 5), HR_JSON_NULL));
    CHECK_STR(hr_json_string(hr_json_at(a, 6), NULL), "x\xc3\xa9\xf0\x9f\x98\x80");
    CHECK(hr_json_at(a, 7) == NULL);
    CHECK_STR(hr_json_string(hr_json_get(hr_json_get(root, "b"), "c"), NULL), "\"\\/\b\f\n\r\t");
    CHECK(hr_json_get(root, "missing") == NULL);
    CHECK(hr_json_get(hr_json_get(root, "missing"), "x") == NULL);
    CHECK(hr_json_first(hr_json_get(root, "e")) == NULL);
    CHECK_EQ_U64(hr_json_count(hr_json_get(root, "f")), 0);
    /* Iteration order and keys. */
    const char *keys[] = { "a", "b", "e", "f" };
    int k = 0;
    for (const hr_json_value *m = hr_json_first(root); m; m = hr_json_next(m), k++)
        CHECK_STR(hr_json_key(m), keys[k]);
    CHECK_EQ_I64(k, 4);
    unsigned line, col;
    hr_json_position(hr_json_get(root, "b"), &line, &col);
    CHECK_EQ_U64(line, 2);
    CHECK_EQ_U64(col, 8);
    hr_json_free(d);

    /* Scalars at top level, embedded NUL, BOM, integer edges. */
    d = parse_ok("\"a\\u0000b\"");
    size_t len = 0;
    CHECK(memcmp(hr_json_string(hr_json_root(d), &len), "a\0b", 4) == 0 && len == 3);
    hr_json_free(d);
    d = parse_ok("\xef\xbb\xbf 18446744073709551615");
    CHECK(hr_json_as_u64(hr_json_root(d), &u) == 0 && u == UINT64_MAX);
    hr_json_free(d);
    d = parse_ok("18446744073709551616");
    CHECK(hr_json_as_u64(hr_json_root(d), &u) == HR_ERANGE);
    hr_json_free(d);
    d = parse_ok("-9223372036854775808");
    CHECK(hr_json_as_i64(hr_json_root(d), &i) == 0 && i == INT64_MIN);
    hr_json_free(d);
    d = parse_ok("-0");
    CHECK(hr_json_as_u64(hr_json_root(d), &u) == 0 && u == 0);
    CHECK(hr_json_string(hr_json_root(d), NULL) == NULL);
    hr_json_free(d);
}

static void test_errors(void)
{
    BAD("", HR_EPARSE, "line 1, column 1: empty input");
    BAD("   \n  ", HR_EPARSE, "line 2, column 3: empty input");
    BAD("{\"a\":1,}", HR_EPARSE, "trailing comma");
    BAD("[1,]", HR_EPARSE, "trailing comma");
    BAD("[1 2]", HR_EPARSE, "line 1, column 4: expected ',' or ']', found '2'");
    BAD("{\"a\" 1}", HR_EPARSE, "expected ':' after a member name");
    BAD("{a:1}", HR_EPARSE, "expected a member name");
    BAD("01", HR_EPARSE, "leading zeros");
    BAD("1.", HR_EPARSE, "after the decimal point");
    BAD("1e", HR_EPARSE, "exponent");
    BAD("-", HR_EPARSE, "expected a digit");
    BAD("+1", HR_EPARSE, "expected a value, found '+'");
    BAD(".5", HR_EPARSE, "expected a value");
    BAD("NaN", HR_EPARSE, "expected a value");
    BAD("tru", HR_EPARSE, "expected a value");
    BAD("nulls", HR_EPARSE, "expected the end of the input");
    BAD("{} {}", HR_EPARSE, "line 1, column 4: expected the end");
    BAD("\"abc", HR_EPARSE, "unterminated string");
    BAD("\"a\tb\"", HR_EPARSE, "control character");
    BAD("\"\\x\"", HR_EPARSE, "invalid escape");
    BAD("\"\\u12G4\"", HR_EPARSE, "four hex digits");
    BAD("\"\\ud800\"", HR_EPARSE, "high surrogate");
    BAD("\"\\ud800\\u0041\"", HR_EPARSE, "high surrogate");
    BAD("\"\\udc00\"", HR_EPARSE, "lone low surrogate");
    BAD("\"\xc3\x28\"", HR_EPARSE, "invalid UTF-8");
    BAD("\"\xed\xa0\x80\"", HR_EPARSE, "invalid UTF-8");
    BAD("// c\n1", HR_EPARSE, "expected a value, found '/'");
    BAD("[1]\x00", HR_EPARSE, "found byte 0x00");
    BAD("[\n\n  1,\n  x]", HR_EPARSE, "line 4, column 3");
    BAD("{\"a\":[", HR_EPARSE, "found the end of the input");

    /* Limits. */
    hr_json_doc *d = NULL;
    hr_error err = { 0 };
    hr_json_limits lim = { .max_depth = 3 };
    CHECK(hr_json_parse("[[[1]]]", 7, &lim, &d, &err) == 0);
    hr_json_free(d);
    CHECK(hr_json_parse("[[[[1]]]]", 9, &lim, &d, &err) == HR_ETOOBIG);
    CHECK_CONTAINS(err.msg, "nesting too deep");
    lim = (hr_json_limits){ .max_bytes = 4 };
    CHECK(hr_json_parse("[1,2]", 5, &lim, &d, &err) == HR_ETOOBIG);
    CHECK_CONTAINS(err.msg, "more than the limit of 4");
    lim = (hr_json_limits){ .max_values = 3 };
    CHECK(hr_json_parse("[1,2]", 5, &lim, &d, &err) == 0);
    hr_json_free(d);
    CHECK(hr_json_parse("[1,2,3]", 7, &lim, &d, &err) == HR_ETOOBIG);
    CHECK_CONTAINS(err.msg, "too many values");

    /* A very deep document with the default limit fails cleanly, no stack overflow. */
    size_t n = 100000;
    char *deep = malloc(n);
    memset(deep, '[', n);
    CHECK(hr_json_parse(deep, n, NULL, &d, &err) == HR_ETOOBIG);
    free(deep);
}

int main(void)
{
    test_values();
    test_errors();
    return TEST_DONE();
}
