#include "core/base/json_parse.h"
#include "core/base/i18n.h"

#include "core/base/utf8.h"
#include "core/base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hard ceiling on nesting whatever the caller asks: the parser recurses once per level. */
#define HR_JSON_HARD_MAX_DEPTH 512
#define NONE                   ((size_t)-1)

struct hr_json_value {
    hr_json_type type;
    unsigned line, column;
    size_t count;            /* elements / members */
    size_t first, next;      /* node indices, NONE when absent */
    size_t key_off, str_off; /* offsets into doc->text, NONE when absent */
    size_t str_len;
    const hr_json_doc *doc;
};

struct hr_json_doc {
    hr_json_value *nodes;
    size_t n_nodes, cap_nodes;
    char *text; /* decoded strings and number literals, NUL-separated */
    size_t n_text, cap_text;
};

typedef struct parser {
    const unsigned char *p;
    size_t len, pos;
    unsigned line;
    size_t line_start;
    int depth, max_depth;
    size_t max_values;
    bool no_nul;
    hr_json_doc *doc;
    hr_error *err;
    hr_json_failure *failure;
} parser;

static int fail(parser *ps, int code, const char *what)
{
    unsigned col = (unsigned)(ps->pos - ps->line_start + 1);
    if (ps->failure)
        *ps->failure = (hr_json_failure){ .line = ps->line, .column = col, .what = what, .found = HR_JSON_FOUND_NONE };
    return hr_error_set(ps->err, code, HR_T("line %u, column %u: %s"), ps->line, col, hr_tr(what));
}

static int fail_at_char(parser *ps, const char *expected)
{
    char msg[160];
    if (ps->pos >= ps->len) {
        snprintf(msg, sizeof msg, HR_T("%s, found the end of the input"), hr_tr(expected));
    } else {
        unsigned char c = ps->p[ps->pos];
        if (c >= 0x20 && c < 0x7f)
            snprintf(msg, sizeof msg, HR_T("%s, found '%c'"), hr_tr(expected), c);
        else
            snprintf(msg, sizeof msg, HR_T("%s, found byte 0x%02x"), hr_tr(expected), c);
    }
    int r = fail(ps, HR_EPARSE, msg);
    if (ps->failure) { /* msg is on the stack and in the user's language: keep its parts */
        ps->failure->what = expected;
        ps->failure->found = ps->pos >= ps->len                                ? HR_JSON_FOUND_END
                             : ps->p[ps->pos] >= 0x20 && ps->p[ps->pos] < 0x7f ? HR_JSON_FOUND_CHAR
                                                                               : HR_JSON_FOUND_BYTE;
        ps->failure->c = ps->pos < ps->len ? ps->p[ps->pos] : 0;
    }
    return r;
}

static int text_reserve(parser *ps, size_t extra)
{
    hr_json_doc *d = ps->doc;
    if (d->n_text + extra + 1 <= d->cap_text)
        return 0;
    size_t ncap = d->cap_text ? d->cap_text : 256;
    while (ncap < d->n_text + extra + 1)
        ncap *= 2;
    char *t = realloc(d->text, ncap);
    if (!t)
        return fail(ps, HR_ENOMEM, HR_N("out of memory"));
    d->text = t;
    d->cap_text = ncap;
    return 0;
}

static int new_node(parser *ps, hr_json_type t, size_t *idx)
{
    hr_json_doc *d = ps->doc;
    if (d->n_nodes >= ps->max_values)
        return fail(ps, HR_ETOOBIG, HR_N("too many values (limit reached)"));
    if (d->n_nodes == d->cap_nodes) {
        size_t ncap = d->cap_nodes ? d->cap_nodes * 2 : 64;
        hr_json_value *n = realloc(d->nodes, ncap * sizeof *n);
        if (!n)
            return fail(ps, HR_ENOMEM, HR_N("out of memory"));
        d->nodes = n;
        d->cap_nodes = ncap;
    }
    hr_json_value *v = &d->nodes[d->n_nodes];
    memset(v, 0, sizeof *v);
    v->type = t;
    v->line = ps->line;
    v->column = (unsigned)(ps->pos - ps->line_start + 1);
    v->first = v->next = v->key_off = v->str_off = NONE;
    v->doc = d;
    *idx = d->n_nodes++;
    return 0;
}

static void skip_ws(parser *ps)
{
    while (ps->pos < ps->len) {
        unsigned char c = ps->p[ps->pos];
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        }
        ps->pos++;
    }
}

static int read_u16(parser *ps, unsigned *out)
{
    /* ps->pos is at the 'u' */
    if (ps->len - ps->pos < 5)
        return fail(ps, HR_EPARSE, HR_N("incomplete \\u escape"));
    unsigned v = 0;
    for (size_t i = 1; i <= 4; i++) {
        int h = hr_hex_digit(ps->p[ps->pos + i]);
        if (h < 0)
            return fail(ps, HR_EPARSE, HR_N("\\u must be followed by four hex digits"));
        v = (v << 4) | (unsigned)h;
    }
    ps->pos += 5;
    *out = v;
    return 0;
}

static void put_utf8(hr_json_doc *d, uint32_t cp)
{
    d->n_text += hr_utf8_encode(cp, d->text + d->n_text);
}

/* Decode a string literal (ps->pos at the opening quote) into doc->text. */
static int parse_string(parser *ps, size_t *off, size_t *len)
{
    hr_json_doc *d = ps->doc;
    ps->pos++; /* opening quote */
    *off = d->n_text;
    for (;;) {
        if (ps->pos >= ps->len)
            return fail(ps, HR_EPARSE, HR_N("unterminated string"));
        unsigned char c = ps->p[ps->pos];
        /* Every input byte makes at most 4 output bytes (\uXXXX makes at most 3). */
        int r = text_reserve(ps, 4);
        if (r)
            return r;
        if (c == '"') {
            ps->pos++;
            break;
        }
        if (c < 0x20)
            return fail(ps, HR_EPARSE, HR_N("control character in a string (must be escaped)"));
        if (c == '\\') {
            if (ps->pos + 1 >= ps->len)
                return fail(ps, HR_EPARSE, HR_N("unterminated string"));
            unsigned char e = ps->p[ps->pos + 1];
            const char *simple = strchr("\"\\/bfnrt", e);
            if (e && simple) {
                static const char map[] = "\"\\/\b\f\n\r\t";
                d->text[d->n_text++] = map[simple - "\"\\/bfnrt"];
                ps->pos += 2;
                continue;
            }
            if (e != 'u')
                return fail(ps, HR_EPARSE, HR_N("invalid escape in a string"));
            ps->pos++;
            unsigned hi = 0;
            r = read_u16(ps, &hi);
            if (r)
                return r;
            uint32_t cp = hi;
            if (hi >= 0xdc00 && hi <= 0xdfff)
                return fail(ps, HR_EPARSE, HR_N("lone low surrogate in a \\u escape"));
            if (hi >= 0xd800 && hi <= 0xdbff) {
                if (ps->len - ps->pos < 2 || ps->p[ps->pos] != '\\' || ps->p[ps->pos + 1] != 'u')
                    return fail(ps, HR_EPARSE, HR_N("high surrogate not followed by a low surrogate"));
                ps->pos++;
                unsigned lo = 0;
                r = read_u16(ps, &lo);
                if (r)
                    return r;
                if (lo < 0xdc00 || lo > 0xdfff)
                    return fail(ps, HR_EPARSE, HR_N("high surrogate not followed by a low surrogate"));
                cp = 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
            }
            if (cp == 0 && ps->no_nul)
                return fail(ps, HR_EPARSE, HR_N("NUL (\\u0000) in a string"));
            put_utf8(d, cp);
            continue;
        }
        if (c < 0x80) {
            d->text[d->n_text++] = (char)c;
            ps->pos++;
            continue;
        }
        size_t n = hr_utf8_valid_prefix(ps->p + ps->pos, ps->len - ps->pos);
        if (n == 0)
            return fail(ps, HR_EPARSE, HR_N("invalid UTF-8 in a string"));
        memcpy(d->text + d->n_text, ps->p + ps->pos, n);
        d->n_text += n;
        ps->pos += n;
    }
    *len = d->n_text - *off;
    d->text[d->n_text++] = '\0';
    return 0;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(parser *ps, size_t idx)
{
    size_t start = ps->pos;
    const unsigned char *p = ps->p;
    size_t i = ps->pos;
    if (i < ps->len && p[i] == '-')
        i++;
    if (i >= ps->len || !is_digit(p[i])) {
        ps->pos = i;
        return fail_at_char(ps, HR_N("expected a digit"));
    }
    if (p[i] == '0') {
        i++;
        if (i < ps->len && is_digit(p[i])) {
            ps->pos = i;
            return fail(ps, HR_EPARSE, HR_N("leading zeros are not allowed in numbers"));
        }
    } else {
        while (i < ps->len && is_digit(p[i]))
            i++;
    }
    if (i < ps->len && p[i] == '.') {
        i++;
        if (i >= ps->len || !is_digit(p[i])) {
            ps->pos = i;
            return fail_at_char(ps, HR_N("expected a digit after the decimal point"));
        }
        while (i < ps->len && is_digit(p[i]))
            i++;
    }
    if (i < ps->len && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < ps->len && (p[i] == '+' || p[i] == '-'))
            i++;
        if (i >= ps->len || !is_digit(p[i])) {
            ps->pos = i;
            return fail_at_char(ps, HR_N("expected a digit in the exponent"));
        }
        while (i < ps->len && is_digit(p[i]))
            i++;
    }
    size_t n = i - start;
    int r = text_reserve(ps, n);
    if (r)
        return r;
    hr_json_doc *d = ps->doc;
    d->nodes[idx].str_off = d->n_text;
    d->nodes[idx].str_len = n;
    memcpy(d->text + d->n_text, p + start, n);
    d->n_text += n;
    d->text[d->n_text++] = '\0';
    ps->pos = i;
    return 0;
}

static int parse_value(parser *ps, size_t *out);

static int parse_container(parser *ps, size_t idx, bool object)
{
    char close = object ? '}' : ']';
    if (++ps->depth > ps->max_depth)
        return fail(ps, HR_ETOOBIG, HR_N("nesting too deep (limit reached)"));
    ps->pos++; /* [ or { */
    skip_ws(ps);
    size_t last = NONE;
    if (ps->pos < ps->len && ps->p[ps->pos] == (unsigned char)close) {
        ps->pos++;
        ps->depth--;
        return 0;
    }
    for (;;) {
        size_t key_off = NONE, key_len = 0;
        int r;
        if (object) {
            if (ps->pos >= ps->len || ps->p[ps->pos] != '"')
                return fail_at_char(ps, last == NONE ? HR_N("expected a member name (a string) or '}'")
                                                     : HR_N("expected a member name (a string)"));
            r = parse_string(ps, &key_off, &key_len);
            if (r)
                return r;
            skip_ws(ps);
            if (ps->pos >= ps->len || ps->p[ps->pos] != ':')
                return fail_at_char(ps, HR_N("expected ':' after a member name"));
            ps->pos++;
            skip_ws(ps);
        }
        size_t child = 0;
        r = parse_value(ps, &child);
        if (r)
            return r;
        hr_json_doc *d = ps->doc;
        d->nodes[child].key_off = key_off;
        if (last == NONE)
            d->nodes[idx].first = child;
        else
            d->nodes[last].next = child;
        last = child;
        d->nodes[idx].count++;
        skip_ws(ps);
        if (ps->pos < ps->len && ps->p[ps->pos] == ',') {
            ps->pos++;
            skip_ws(ps);
            if (ps->pos < ps->len && ps->p[ps->pos] == (unsigned char)close)
                return fail(ps, HR_EPARSE, HR_N("trailing comma before the closing bracket"));
            continue;
        }
        if (ps->pos < ps->len && ps->p[ps->pos] == (unsigned char)close) {
            ps->pos++;
            ps->depth--;
            return 0;
        }
        return fail_at_char(ps, object ? HR_N("expected ',' or '}'") : HR_N("expected ',' or ']'"));
    }
}

static int literal(parser *ps, const char *word)
{
    size_t n = strlen(word);
    if (ps->len - ps->pos < n || memcmp(ps->p + ps->pos, word, n) != 0)
        return fail_at_char(ps, HR_N("expected a value"));
    ps->pos += n;
    return 0;
}

static int parse_value(parser *ps, size_t *out)
{
    if (ps->pos >= ps->len)
        return fail_at_char(ps, HR_N("expected a value"));
    unsigned char c = ps->p[ps->pos];
    hr_json_type t;
    switch (c) {
    case '{': t = HR_JSON_OBJECT; break;
    case '[': t = HR_JSON_ARRAY; break;
    case '"': t = HR_JSON_STRING; break;
    case 't': t = HR_JSON_TRUE; break;
    case 'f': t = HR_JSON_FALSE; break;
    case 'n': t = HR_JSON_NULL; break;
    default:
        if (c == '-' || is_digit(c)) {
            t = HR_JSON_NUMBER;
            break;
        }
        return fail_at_char(ps, HR_N("expected a value"));
    }
    size_t idx = 0;
    int r = new_node(ps, t, &idx);
    if (r)
        return r;
    *out = idx;
    switch (t) {
    case HR_JSON_OBJECT: return parse_container(ps, idx, true);
    case HR_JSON_ARRAY: return parse_container(ps, idx, false);
    case HR_JSON_STRING: {
        size_t off, len;
        r = parse_string(ps, &off, &len);
        if (r)
            return r;
        ps->doc->nodes[idx].str_off = off;
        ps->doc->nodes[idx].str_len = len;
        return 0;
    }
    case HR_JSON_TRUE: return literal(ps, "true");
    case HR_JSON_FALSE: return literal(ps, "false");
    case HR_JSON_NULL: return literal(ps, "null");
    default: return parse_number(ps, idx);
    }
}

void hr_json_free(hr_json_doc *doc)
{
    if (!doc)
        return;
    free(doc->nodes);
    free(doc->text);
    free(doc);
}

int hr_json_parse(const char *buf, size_t len, const hr_json_limits *lim, hr_json_doc **doc, hr_error *err)
{
    *doc = NULL;
    size_t max_bytes = lim && lim->max_bytes ? lim->max_bytes : HR_JSON_DEFAULT_MAX_BYTES;
    int max_depth = lim && lim->max_depth > 0 ? lim->max_depth : HR_JSON_DEFAULT_MAX_DEPTH;
    if (max_depth > HR_JSON_HARD_MAX_DEPTH)
        max_depth = HR_JSON_HARD_MAX_DEPTH;
    if (len > max_bytes)
        return hr_error_set(err, HR_ETOOBIG, HR_T("input is %llu bytes, more than the limit of %llu"),
                            (unsigned long long)len, (unsigned long long)max_bytes);
    if (!buf && len)
        return hr_error_set(err, HR_EINVAL, HR_T("no input buffer"));
    hr_json_doc *d = calloc(1, sizeof *d);
    if (!d)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    parser ps = { .p = (const unsigned char *)buf,
                  .len = len,
                  .line = 1,
                  .max_depth = max_depth,
                  .max_values = lim && lim->max_values ? lim->max_values : HR_JSON_DEFAULT_MAX_VALUES,
                  .no_nul = lim && lim->no_nul,
                  .doc = d,
                  .err = err,
                  .failure = lim ? lim->failure : NULL };
    if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        ps.pos = 3;
        ps.line_start = 3;
    }
    skip_ws(&ps);
    size_t root = 0;
    int r;
    if (ps.pos >= ps.len)
        r = fail(&ps, HR_EPARSE, HR_N("empty input: expected a JSON value"));
    else
        r = parse_value(&ps, &root);
    if (r == 0) {
        skip_ws(&ps);
        if (ps.pos < ps.len)
            r = fail_at_char(&ps, HR_N("expected the end of the input after the value"));
    }
    if (r) {
        hr_json_free(d);
        return r;
    }
    *doc = d;
    return 0;
}

const hr_json_value *hr_json_root(const hr_json_doc *doc)
{
    return doc && doc->n_nodes ? &doc->nodes[0] : NULL;
}

hr_json_type hr_json_type_of(const hr_json_value *v)
{
    return v ? v->type : HR_JSON_NULL;
}

const char *hr_json_type_name(hr_json_type t)
{
    switch (t) {
    case HR_JSON_NULL: return "null";
    case HR_JSON_FALSE:
    case HR_JSON_TRUE: return "boolean";
    case HR_JSON_NUMBER: return "number";
    case HR_JSON_STRING: return "string";
    case HR_JSON_ARRAY: return "array";
    case HR_JSON_OBJECT: return "object";
    }
    return "unknown";
}

bool hr_json_is(const hr_json_value *v, hr_json_type t)
{
    if (!v)
        return false;
    if (t == HR_JSON_TRUE || t == HR_JSON_FALSE)
        return v->type == HR_JSON_TRUE || v->type == HR_JSON_FALSE;
    return v->type == t;
}

size_t hr_json_count(const hr_json_value *v)
{
    return v && (v->type == HR_JSON_ARRAY || v->type == HR_JSON_OBJECT) ? v->count : 0;
}

const hr_json_value *hr_json_first(const hr_json_value *c)
{
    if (!c || (c->type != HR_JSON_ARRAY && c->type != HR_JSON_OBJECT) || c->first == NONE)
        return NULL;
    return &c->doc->nodes[c->first];
}

const hr_json_value *hr_json_next(const hr_json_value *e)
{
    return e && e->next != NONE ? &e->doc->nodes[e->next] : NULL;
}

const hr_json_value *hr_json_at(const hr_json_value *a, size_t i)
{
    if (!a || a->type != HR_JSON_ARRAY || i >= a->count)
        return NULL;
    const hr_json_value *e = hr_json_first(a);
    while (e && i--)
        e = hr_json_next(e);
    return e;
}

const hr_json_value *hr_json_get(const hr_json_value *o, const char *key)
{
    if (!o || o->type != HR_JSON_OBJECT || !key)
        return NULL;
    for (const hr_json_value *m = hr_json_first(o); m; m = hr_json_next(m))
        if (strcmp(o->doc->text + m->key_off, key) == 0)
            return m;
    return NULL;
}

const char *hr_json_key(const hr_json_value *m)
{
    return m && m->key_off != NONE ? m->doc->text + m->key_off : NULL;
}

const char *hr_json_string(const hr_json_value *v, size_t *len)
{
    if (!v || v->type != HR_JSON_STRING)
        return NULL;
    if (len)
        *len = v->str_len;
    return v->doc->text + v->str_off;
}

const char *hr_json_number_text(const hr_json_value *v)
{
    return v && v->type == HR_JSON_NUMBER ? v->doc->text + v->str_off : NULL;
}

int hr_json_as_u64(const hr_json_value *v, uint64_t *out)
{
    const char *t = hr_json_number_text(v);
    if (!t)
        return HR_EINVAL;
    uint64_t x = 0;
    if (*t == '-')
        return strcmp(t, "-0") == 0 ? (*out = 0, 0) : HR_ERANGE;
    for (; *t; t++) {
        if (!is_digit((unsigned char)*t))
            return HR_ERANGE;
        unsigned d = (unsigned)(*t - '0');
        if (x > (UINT64_MAX - d) / 10)
            return HR_ERANGE;
        x = x * 10 + d;
    }
    *out = x;
    return 0;
}

int hr_json_as_i64(const hr_json_value *v, int64_t *out)
{
    const char *t = hr_json_number_text(v);
    if (!t)
        return HR_EINVAL;
    bool neg = *t == '-';
    if (neg)
        t++;
    uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; *t; t++) {
        if (!is_digit((unsigned char)*t))
            return HR_ERANGE;
        unsigned d = (unsigned)(*t - '0');
        if (x > (lim - d) / 10)
            return HR_ERANGE;
        x = x * 10 + d;
    }
    if (neg)
        *out = x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
    else
        *out = (int64_t)x;
    return 0;
}

int hr_json_as_double(const hr_json_value *v, double *out)
{
    const char *t = hr_json_number_text(v);
    if (!t)
        return HR_EINVAL;
    *out = strtod(t, NULL);
    return 0;
}

int hr_json_as_bool(const hr_json_value *v, bool *out)
{
    if (!v || (v->type != HR_JSON_TRUE && v->type != HR_JSON_FALSE))
        return HR_EINVAL;
    *out = v->type == HR_JSON_TRUE;
    return 0;
}

void hr_json_position(const hr_json_value *v, unsigned *line, unsigned *column)
{
    *line = v ? v->line : 0;
    *column = v ? v->column : 0;
}
