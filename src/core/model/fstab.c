#include "core/model/fstab.h"

#include "core/base/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_fstab_init(hr_fstab *f)
{
    memset(f, 0, sizeof *f);
}

static void line_free(hr_fstab_line *l)
{
    free(l->raw);
    free(l->spec);
    free(l->file);
    free(l->type);
    free(l->opts);
    memset(l, 0, sizeof *l);
}

void hr_fstab_free(hr_fstab *f)
{
    for (size_t i = 0; i < f->count; i++)
        line_free(&f->lines[i]);
    free(f->lines);
    hr_fstab_init(f);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r'; /* a CRLF file's \r is blank too */
}

/* Decode one field (libmount's unmangle): \ooo octal escapes become the byte. */
static char *decode_field(const char *p, size_t n)
{
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' && i + 3 < n && p[i + 1] >= '0' && p[i + 1] <= '3' && p[i + 2] >= '0' && p[i + 2] <= '7' &&
            p[i + 3] >= '0' && p[i + 3] <= '7') {
            out[o++] = (char)(((p[i + 1] - '0') << 6) | ((p[i + 2] - '0') << 3) | (p[i + 3] - '0'));
            i += 3;
        } else {
            out[o++] = p[i];
        }
    }
    out[o] = '\0';
    return out;
}

static int parse_int_field(const char *p, size_t n, int *out)
{
    if (n == 0 || n > 9)
        return -1;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return 0;
}

static int push_line(hr_fstab *f, const char *p, size_t n, bool newline)
{
    if (f->count == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 32;
        hr_fstab_line *nl = realloc(f->lines, nc * sizeof *nl);
        if (!nl)
            return HR_ENOMEM;
        f->lines = nl;
        f->cap = nc;
    }
    hr_fstab_line *l = &f->lines[f->count];
    memset(l, 0, sizeof *l);
    l->raw = malloc(n + 1);
    if (!l->raw)
        return HR_ENOMEM;
    memcpy(l->raw, p, n);
    l->raw[n] = '\0';
    l->len = n;
    l->newline = newline;
    f->count++;
    return 0;
}

/* Split an entry line into fields; fills the decoded ones. Returns the field count or -1. */
static int parse_entry(hr_fstab_line *l, int *nfields)
{
    const char *start[7];
    size_t len[7];
    int k = 0;
    size_t i = 0;
    while (i < l->len) {
        while (i < l->len && is_blank(l->raw[i]))
            i++;
        if (i >= l->len)
            break;
        if (k == 7) {
            *nfields = 7;
            return -1;
        }
        start[k] = l->raw + i;
        size_t s = i;
        while (i < l->len && !is_blank(l->raw[i]))
            i++;
        len[k++] = i - s;
    }
    *nfields = k;
    if (k < 3 || k > 6)
        return -1;
    l->spec = decode_field(start[0], len[0]);
    l->file = decode_field(start[1], len[1]);
    l->type = decode_field(start[2], len[2]);
    l->opts = k > 3 ? decode_field(start[3], len[3]) : decode_field("defaults", 8);
    if (!l->spec || !l->file || !l->type || !l->opts)
        return -2;
    l->freq = l->passno = 0;
    if (k > 4 && parse_int_field(start[4], len[4], &l->freq) != 0)
        return -3;
    if (k > 5 && parse_int_field(start[5], len[5], &l->passno) != 0)
        return -3;
    l->entry = true;
    return k;
}

int hr_fstab_parse(hr_fstab *f, const char *text, size_t len, const char *name, hr_error *err)
{
    const char *nm = name ? name : "fstab";
    hr_fstab_init(f);
    if (len > HR_FSTAB_MAX_BYTES)
        return hr_error_set(err, HR_ETOOBIG, HR_T("%s: %lu bytes, more than the %lu allowed"), nm, (unsigned long)len,
                            (unsigned long)HR_FSTAB_MAX_BYTES);
    if (len && memchr(text, '\0', len))
        return hr_error_set(err, HR_EPARSE, HR_T("%s: contains a NUL byte; not a text fstab"), nm);
    size_t pos = 0, lineno = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        lineno++;
        if (lineno > HR_FSTAB_MAX_LINES) {
            hr_fstab_free(f);
            return hr_error_set(err, HR_ETOOBIG, HR_T("%s: more than %d lines"), nm, HR_FSTAB_MAX_LINES);
        }
        int r = push_line(f, text + pos, n, nl != NULL);
        if (r < 0) {
            hr_fstab_free(f);
            return hr_error_set(err, r, HR_T("%s: out of memory"), nm);
        }
        hr_fstab_line *l = &f->lines[f->count - 1];
        size_t i = 0;
        while (i < n && (is_blank(l->raw[i]) || l->raw[i] == '\r'))
            i++;
        if (i < n && l->raw[i] != '#') {
            int nf = 0;
            int k = parse_entry(l, &nf);
            if (k < 0) {
                hr_fstab_free(f);
                if (k == -2)
                    return hr_error_set(err, HR_ENOMEM, HR_T("%s: out of memory"), nm);
                if (k == -3)
                    return hr_error_set(err, HR_EPARSE,
                                        HR_T("%s: line %lu: dump and pass fields must "
                                             "be numbers"),
                                        nm, (unsigned long)lineno);
                return hr_error_set(err, HR_EPARSE, HR_T("%s: line %lu: %s%d fields, an entry has 3 to 6"), nm,
                                    (unsigned long)lineno, nf > 6 ? HR_T("more than 6: ") : "", nf > 6 ? 7 : nf);
            }
        }
        pos += n + (nl ? 1 : 0);
    }
    return 0;
}

int hr_fstab_render(const hr_fstab *f, hr_buf *out)
{
    for (size_t i = 0; i < f->count; i++) {
        int r = hr_buf_append(out, f->lines[i].raw, f->lines[i].len);
        if (r == 0 && f->lines[i].newline)
            r = hr_buf_putc(out, '\n');
        if (r < 0)
            return r;
    }
    return 0;
}

bool hr_fstab_is_swap(const hr_fstab_line *l)
{
    return l->entry && l->type && strcmp(l->type, "swap") == 0;
}

long hr_fstab_find_swap(const hr_fstab *f, const char *path)
{
    for (size_t i = 0; i < f->count; i++)
        if (hr_fstab_is_swap(&f->lines[i]) && strcmp(f->lines[i].spec, path) == 0)
            return (long)i;
    return -1;
}

bool hr_fstab_opt_has(const char *opts, const char *name)
{
    size_t n = strlen(name);
    const char *p = opts;
    while (p && *p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p = c ? c + 1 : NULL;
    }
    return false;
}

int64_t hr_fstab_opt_priority(const char *opts)
{
    const char *p = opts;
    while (p && *p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len > 4 && strncmp(p, "pri=", 4) == 0) {
            int64_t v = 0;
            bool neg = false;
            size_t i = 4;
            if (p[i] == '-') {
                neg = true;
                i++;
            }
            if (i == len)
                return INT64_MIN;
            for (; i < len; i++) {
                if (p[i] < '0' || p[i] > '9' || v > 1000000)
                    return INT64_MIN;
                v = v * 10 + (p[i] - '0');
            }
            return neg ? -v : v;
        }
        p = c ? c + 1 : NULL;
    }
    return INT64_MIN;
}

int hr_fstab_escape(const char *in, hr_buf *out)
{
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        int r;
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
            r = hr_buf_printf(out, "\\%03o", *p);
        else
            r = hr_buf_putc(out, (char)*p);
        if (r < 0)
            return r;
    }
    return 0;
}

int hr_fstab_swap_line(const char *path, int priority, hr_buf *out)
{
    int r = hr_fstab_escape(path, out);
    return r < 0 ? r : hr_buf_printf(out, " none swap defaults,pri=%d 0 0", priority);
}

int hr_fstab_add_swap(hr_fstab *f, const char *path, int priority, bool *added_newline, hr_error *err)
{
    if (added_newline)
        *added_newline = false;
    if (!path || path[0] != '/')
        return hr_error_set(err, HR_EINVAL, HR_T("fstab: swap path '%s' is not absolute"), path ? path : "");
    if (hr_fstab_find_swap(f, path) >= 0)
        return hr_error_set(err, HR_EEXIST, HR_T("fstab: a swap entry for %s is already there"), path);
    hr_buf line;
    hr_buf_init(&line, 0);
    int r = hr_fstab_swap_line(path, priority, &line);
    if (r < 0) {
        hr_buf_free(&line);
        return hr_error_set(err, r, HR_T("fstab: out of memory"));
    }
    size_t old_count = f->count;
    bool fixed_nl = false;
    if (f->count && !f->lines[f->count - 1].newline) {
        f->lines[f->count - 1].newline = true;
        fixed_nl = true;
    }
    r = push_line(f, HR_FSTAB_MARKER, strlen(HR_FSTAB_MARKER), true);
    if (r == 0)
        r = push_line(f, line.data, line.len, true);
    if (r == 0) {
        hr_fstab_line *l = &f->lines[f->count - 1];
        int nf;
        if (parse_entry(l, &nf) < 0)
            r = HR_EINTERNAL;
    }
    hr_buf_free(&line);
    if (r < 0) {
        while (f->count > old_count)
            line_free(&f->lines[--f->count]);
        if (fixed_nl)
            f->lines[f->count - 1].newline = false;
        return hr_error_set(err, r, HR_T("fstab: could not add the swap line for %s"), path);
    }
    if (added_newline)
        *added_newline = fixed_nl;
    return 0;
}

static void remove_at(hr_fstab *f, size_t i)
{
    line_free(&f->lines[i]);
    memmove(&f->lines[i], &f->lines[i + 1], (f->count - i - 1) * sizeof f->lines[0]);
    f->count--;
}

int hr_fstab_remove_swap(hr_fstab *f, const char *path, bool strip_newline)
{
    long idx = hr_fstab_find_swap(f, path);
    if (idx < 0)
        return HR_ENOENT;
    size_t i = (size_t)idx;
    bool was_last = i + 1 == f->count;
    remove_at(f, i);
    if (i > 0 && strcmp(f->lines[i - 1].raw, HR_FSTAB_MARKER) == 0) {
        remove_at(f, i - 1);
        i--;
    }
    if (strip_newline && was_last && f->count && i == f->count)
        f->lines[f->count - 1].newline = false;
    return 0;
}

uint64_t hr_fnv1a64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}
