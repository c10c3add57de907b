#include "core/base/json_writer.h"

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/base/utf8.h"
#include "core/base/hot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

HR_HOT void hr_json_init(hr_json_writer *w, hr_buf *out, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
    w->first[0] = true;
}

HR_HOT static void put(hr_json_writer *w, const char *s)
{
    if (!w->err)
        w->err = hr_buf_puts(w->out, s);
}

HR_HOT static void newline_indent(hr_json_writer *w)
{
    if (!w->pretty)
        return;
    put(w, "\n");
    for (int i = 0; i < w->depth; i++)
        put(w, "  ");
}

HR_HOT int hr_json_quote(hr_buf *out, const char *s, size_t n)
{
    int r = hr_buf_putc(out, '"');
    size_t i = 0;
    while (!r && i < n) {
        unsigned char c = (unsigned char)s[i];
        /* a run of characters written as they are: one append */
        size_t run = i;
        while (run < n && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7f && s[run] != '"' &&
               s[run] != '\\')
            run++;
        if (run > i) {
            r = hr_buf_append(out, s + i, run - i);
            i = run;
            continue;
        }
        if (c < 0x80) {
            switch (c) {
            case '"': r = hr_buf_puts(out, "\\\""); break;
            case '\\': r = hr_buf_puts(out, "\\\\"); break;
            case '\n': r = hr_buf_puts(out, "\\n"); break;
            case '\r': r = hr_buf_puts(out, "\\r"); break;
            case '\t': r = hr_buf_puts(out, "\\t"); break;
            default:
                if (c < 0x20 || c == 0x7f)
                    r = hr_buf_printf(out, "\\u%04x", c);
                else
                    r = hr_buf_putc(out, (char)c);
            }
            i++;
            continue;
        }
        size_t len = hr_utf8_valid_prefix((const unsigned char *)s + i, n - i);
        if (len == 0) {
            r = hr_buf_puts(out, "\\ufffd");
            i++;
        } else {
            r = hr_buf_append(out, s + i, len);
            i += len;
        }
    }
    if (!r)
        r = hr_buf_putc(out, '"');
    return r;
}

/* Comma, indentation and "key": before a value. */
HR_HOT static void member(hr_json_writer *w, const char *key)
{
    if (w->err)
        return;
    if (!w->first[w->depth])
        put(w, ",");
    if (w->depth > 0)
        newline_indent(w);
    w->first[w->depth] = false;
    if (key) {
        if (!w->err)
            w->err = hr_json_quote(w->out, key, strlen(key));
        put(w, w->pretty ? ": " : ":");
    }
}

HR_HOT static void open_(hr_json_writer *w, const char *key, const char *brace)
{
    member(w, key);
    put(w, brace);
    if (w->depth >= HR_JSON_MAX_DEPTH) {
        if (!w->err)
            w->err = HR_ERANGE;
        return;
    }
    w->depth++;
    w->first[w->depth] = true;
}

HR_HOT static void close_(hr_json_writer *w, const char *brace)
{
    if (w->depth == 0) {
        if (!w->err)
            w->err = HR_EINTERNAL;
        return;
    }
    bool empty = w->first[w->depth];
    w->depth--;
    if (!empty)
        newline_indent(w);
    put(w, brace);
}

HR_HOT void hr_json_begin_object(hr_json_writer *w, const char *key)
{
    open_(w, key, "{");
}
HR_HOT void hr_json_end_object(hr_json_writer *w)
{
    close_(w, "}");
}
HR_HOT void hr_json_begin_array(hr_json_writer *w, const char *key)
{
    open_(w, key, "[");
}
HR_HOT void hr_json_end_array(hr_json_writer *w)
{
    close_(w, "]");
}

HR_HOT void hr_json_strn(hr_json_writer *w, const char *key, const char *s, size_t n)
{
    member(w, key);
    if (!s)
        put(w, "null");
    else if (!w->err)
        w->err = hr_json_quote(w->out, s, n);
}

HR_HOT void hr_json_str(hr_json_writer *w, const char *key, const char *s)
{
    hr_json_strn(w, key, s, s ? strlen(s) : 0);
}

/* Decimal digits of v, as printf's %llu writes them (no printf: the monitor writes a line of
 * numbers every sample). */
HR_HOT static const char *u64_digits(uint64_t v, char tmp[24])
{
    char *p = tmp + 23;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

HR_HOT void hr_json_u64(hr_json_writer *w, const char *key, uint64_t v)
{
    char tmp[24];
    const char *d = u64_digits(v, tmp);
    member(w, key);
    put(w, d);
}

HR_HOT void hr_json_i64(hr_json_writer *w, const char *key, int64_t v)
{
    char tmp[24];
    const char *d = u64_digits(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, tmp);
    member(w, key);
    if (v < 0)
        put(w, "-");
    put(w, d);
}

HR_HOT void hr_json_double(hr_json_writer *w, const char *key, double v)
{
    char tmp[64];
    if (!isfinite(v)) {
        hr_json_null(w, key);
        return;
    }
    if (v > -1e6 && v < 1e6 && v == (double)(int64_t)v && (v != 0 || !signbit(v))) {
        /* a whole number of up to six digits: %.6g writes it as an integer */
        hr_json_i64(w, key, (int64_t)v);
        return;
    }
    snprintf(tmp, sizeof tmp, "%.6g", v);
    member(w, key);
    put(w, tmp);
}

HR_HOT void hr_json_bool(hr_json_writer *w, const char *key, bool v)
{
    member(w, key);
    put(w, v ? "true" : "false");
}

HR_HOT void hr_json_null(hr_json_writer *w, const char *key)
{
    member(w, key);
    put(w, "null");
}

HR_HOT void hr_json_size(hr_json_writer *w, const char *key, uint64_t v)
{
    if (v == HR_UNKNOWN)
        hr_json_null(w, key);
    else
        hr_json_u64(w, key, v);
}

void hr_json_tri(hr_json_writer *w, const char *key, int t)
{
    if (t < 0)
        hr_json_null(w, key);
    else
        hr_json_bool(w, key, t != 0);
}

HR_HOT int hr_json_finish(hr_json_writer *w)
{
    if (!w->err && w->depth != 0)
        w->err = HR_EINTERNAL;
    put(w, "\n");
    return w->err;
}
