/* headroom — the safetensors header: u64 little-endian length N, then N bytes of JSON
 * {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {str: str}}.
 * Everything is checked against the file: the length against the cap and the file size,
 * each tensor's bytes against dtype × shape, every range inside the data section, and no
 * two ranges overlapping. A dtype this version does not know is reported, not fatal. */
#include "core/scan/model_scan.h"
#include "core/base/i18n.h"

#include "core/base/json_parse.h"
#include "core/base/size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct range {
    uint64_t a, b;
    size_t idx;
} range;

static int cmp_range(const void *x, const void *y)
{
    const range *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static void shape_text(const hr_tensor *t, char *out, size_t n)
{
    size_t k = (size_t)snprintf(out, n, "[");
    for (unsigned i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%llu", i ? ", " : "", (unsigned long long)t->shape[i]);
    if (k < n)
        snprintf(out + k, n - k, "]");
}

/* Where the JSON value starting at p[i] ends (one past it), or 0 when it is not well formed
 * enough to delimit. Only the bounds are found here: each member is then parsed on its own,
 * so the header costs its own bytes plus one member's tree, not a tree of the whole header
 * (several times its size). */
static size_t skip_ws(const unsigned char *p, size_t i, size_t end)
{
    while (i < end && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

static size_t string_end(const unsigned char *p, size_t i, size_t end)
{
    for (i++; i < end; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return 0;
}

static size_t value_end(const unsigned char *p, size_t i, size_t end)
{
    if (i >= end)
        return 0;
    if (p[i] == '"')
        return string_end(p, i, end);
    if (p[i] != '{' && p[i] != '[') {
        while (i < end && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ' ' && p[i] != '\t' && p[i] != '\n' &&
               p[i] != '\r')
            i++;
        return i;
    }
    size_t depth = 0; /* counted, not recursed: the member's own parse judges nesting */
    while (i < end) {
        unsigned char c = p[i];
        if (c == '"') {
            if (!(i = string_end(p, i, end)))
                return 0;
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return i + 1;
        i++;
    }
    return 0;
}

/* Top-level members, counted without parsing them, so that the tables are sized once. */
static size_t count_members(const unsigned char *p, size_t end)
{
    size_t n = 0, pos = skip_ws(p, 1, end);
    while (pos < end && p[pos] == '"') {
        size_t k = string_end(p, pos, end);
        size_t c = k ? skip_ws(p, k, end) : 0;
        size_t v = c && c < end && p[c] == ':' ? value_end(p, skip_ws(p, c + 1, end), end) : 0;
        if (!v)
            break;
        n++;
        pos = skip_ws(p, v, end);
        if (pos >= end || p[pos] != ',')
            break;
        pos = skip_ws(p, pos + 1, end);
    }
    return n;
}

typedef struct st_walk {
    const char *name;
    uint64_t data_size;
    hr_tensor_set *t;
    hr_model_info *m;
    range *rg;
    size_t nr, cap;
    size_t unknown;
    char unknown_name[HR_DTYPE_NAME_MAX];
} st_walk;

static int one_member(st_walk *w, const hr_json_value *v, hr_error *err);

static int one_member(st_walk *w, const hr_json_value *v, hr_error *err)
{
    const char *key = hr_json_key(v);
    size_t klen = strlen(key);
    if (strcmp(key, "__metadata__") == 0) {
        if (!hr_json_is(v, HR_JSON_OBJECT)) {
            return hr_model_fail(w->m, err, HR_EPARSE, HR_N("%s: __metadata__ is not an object"), w->name);
        }
        for (const hr_json_value *mv = hr_json_first(v); mv; mv = hr_json_next(mv))
            if (!hr_json_is(mv, HR_JSON_STRING)) {
                return hr_model_fail(w->m, err, HR_EPARSE, HR_N("%s: __metadata__ \"%.80s\" is not a string"), w->name,
                                     hr_json_key(mv));
            }
        w->m->metadata_keys = hr_json_count(v);
        return 0;
    }
    if (!hr_json_is(v, HR_JSON_OBJECT)) {
        return hr_model_fail(w->m, err, HR_EPARSE, HR_N("%s: tensor \"%.80s\": not an object"), w->name, key);
    }
    hr_tensor tn;
    memset(&tn, 0, sizeof tn);
    size_t dl = 0;
    const char *dt = hr_json_string(hr_json_get(v, "dtype"), &dl);
    const hr_json_value *shape = hr_json_get(v, "shape");
    const hr_json_value *offs = hr_json_get(v, "data_offsets");
    if (!dt || dl == 0 || dl >= HR_DTYPE_NAME_MAX) {
        return hr_model_fail(w->m, err, HR_EPARSE, HR_N("%s: tensor \"%.80s\": no valid \"dtype\""), w->name, key);
    }
    if (!hr_json_is(shape, HR_JSON_ARRAY) || hr_json_count(shape) > HR_TENSOR_MAX_DIMS) {
        return hr_model_fail(w->m, err, HR_EPARSE,
                             HR_N("%s: tensor \"%.80s\": \"shape\" is not an array of at most %d sizes"), w->name, key,
                             HR_TENSOR_MAX_DIMS);
    }
    if (!hr_json_is(offs, HR_JSON_ARRAY) || hr_json_count(offs) != 2) {
        return hr_model_fail(w->m, err, HR_EPARSE, HR_N("%s: tensor \"%.80s\": \"data_offsets\" is not [begin, end]"),
                             w->name, key);
    }
    memcpy(tn.dtype, dt, dl);
    tn.numel = 1;
    bool over = false;
    for (const hr_json_value *d = hr_json_first(shape); d; d = hr_json_next(d)) {
        uint64_t x;
        if (hr_json_as_u64(d, &x) != 0) {
            return hr_model_fail(w->m, err, HR_EPARSE,
                                 HR_N("%s: tensor \"%.80s\": a size in \"shape\" is "
                                      "not a whole number"),
                                 w->name, key);
        }
        tn.shape[tn.ndim++] = x;
        if (x && tn.numel > UINT64_MAX / x)
            over = true;
        tn.numel *= x;
    }
    uint64_t a, b;
    if (hr_json_as_u64(hr_json_at(offs, 0), &a) || hr_json_as_u64(hr_json_at(offs, 1), &b) || b < a) {
        return hr_model_fail(w->m, err, HR_EPARSE,
                             HR_N("%s: tensor \"%.80s\": \"data_offsets\" must be two "
                                  "whole numbers, begin <= end"),
                             w->name, key);
    }
    if (b > w->data_size) {
        return hr_model_fail(w->m, err, HR_EPARSE,
                             HR_N("%s: tensor \"%.80s\": data ends at %llu, past the end of the file "
                                  "(data section %llu bytes): truncated or lying header"),
                             w->name, key, (unsigned long long)b, (unsigned long long)w->data_size);
    }
    unsigned bits = hr_st_dtype_bits(tn.dtype);
    tn.dtype_known = bits != 0;
    tn.begin = a;
    tn.bytes = b - a;
    if (bits) {
        uint64_t want;
        bool ok = !over && tn.numel <= UINT64_MAX / bits;
        want = ok ? tn.numel * bits : 0;
        if (ok && want % 8 != 0)
            ok = false;
        if (!ok || want / 8 != tn.bytes) {
            char sh[160];
            shape_text(&tn, sh, sizeof sh);
            return hr_model_fail(w->m, err, HR_EPARSE,
                                 HR_N("%s: tensor \"%.80s\": %s × %s is not the %llu bytes its offsets "
                                      "span"),
                                 w->name, key, tn.dtype, sh, (unsigned long long)tn.bytes);
        }
    } else {
        if (w->unknown++ == 0)
            memcpy(w->unknown_name, tn.dtype, sizeof w->unknown_name);
        if (over)
            tn.numel = 0;
    }
    int r;
    if (w->t && (r = hr_tensor_add(w->t, key, klen, &tn)) != 0)
        return hr_error_set(err, r, "%s: %s", w->name, hr_strerror(r));
    if (w->nr == w->cap) {
        size_t nc = w->cap ? w->cap * 2 : 256;
        range *g = realloc(w->rg, nc * sizeof *g);
        if (!g)
            return hr_error_set(err, HR_ENOMEM, "%s: %s", w->name, hr_strerror(HR_ENOMEM));
        w->rg = g;
        w->cap = nc;
    }
    w->rg[w->nr].a = a;
    w->rg[w->nr].b = b;
    w->rg[w->nr].idx = w->nr;
    w->nr++;
    w->m->tensors++;
    w->m->tensor_bytes += tn.bytes;
    w->m->params = hr_sat_add(w->m->params, tn.numel);
    return 0;
}

int hr_safetensors_parse(const char *name, const unsigned char *buf, size_t len, uint64_t file_size, hr_tensor_set *t,
                         hr_model_info *m, hr_error *err)
{
    m->format = HR_MODEL_FMT_SAFETENSORS;
    m->file_bytes = file_size;
    if (len < 8 || file_size < 8)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: not a safetensors file: shorter than 8 bytes"), name);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | buf[i];
    if (hlen > HR_ST_MAX_HEADER)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: safetensors header length %llu is over the %llu-byte limit"),
                             name, (unsigned long long)hlen, (unsigned long long)HR_ST_MAX_HEADER);
    if (hlen > file_size - 8)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: safetensors header length %llu runs past the end of the file "
                                  "(%llu bytes): truncated or not a safetensors file"),
                             name, (unsigned long long)hlen, (unsigned long long)file_size);
    if ((uint64_t)len < 8 + hlen)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: safetensors header: only %zu of %llu bytes read"), name,
                             len - 8, (unsigned long long)hlen);
    if (hlen < 2 || buf[8] != '{')
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: safetensors header is not a JSON object (it must start with '{')"), name);
    uint64_t data_size = file_size - 8 - hlen;
    st_walk w = { .name = name, .data_size = data_size, .t = t, .m = m };
    const unsigned char *p = buf + 8;
    size_t end = (size_t)hlen, pos = 1;
    size_t members = count_members(p, end);
    w.rg = members ? malloc(members * sizeof *w.rg) : NULL;
    w.cap = w.rg ? members : 0;
    if (t && hr_tensor_reserve(t, members) != 0) {
        free(w.rg);
        return hr_error_set(err, HR_ENOMEM, "%s: %s", name, hr_strerror(HR_ENOMEM));
    }
    hr_buf one; /* "{member}": one member at a time */
    hr_buf_init(&one, (size_t)hlen + 2);
    int r = 0;
    for (bool first = true;; first = false) {
        pos = skip_ws(p, pos, end);
        if (first && pos < end && p[pos] == '}') {
            pos++;
            break;
        }
        size_t k0 = pos, k1 = pos < end && p[pos] == '"' ? string_end(p, pos, end) : 0;
        size_t v0 = k1 ? skip_ws(p, k1, end) : 0;
        size_t v1 = v0 && v0 < end && p[v0] == ':' ? value_end(p, skip_ws(p, v0 + 1, end), end) : 0;
        size_t after = v1 ? skip_ws(p, v1, end) : 0;
        if (!v1 || after >= end || (p[after] != ',' && p[after] != '}')) {
            r = hr_model_fail(m, err, HR_EPARSE, HR_N("%s: safetensors header is not valid JSON near byte %llu"), name,
                              (unsigned long long)(8 + (v1   ? after
                                                        : v0 ? v0
                                                        : k1 ? k1
                                                             : k0)));
            break;
        }
        hr_buf_reset(&one);
        hr_buf_append(&one, "{", 1);
        hr_buf_append(&one, p + k0, v1 - k0);
        if ((r = hr_buf_append(&one, "}", 1)) != 0) {
            hr_error_set(err, r, "%s: %s", name, hr_strerror(r));
            break;
        }
        /* a tensor is ten values; a member of more is metadata, whose values are strings */
        hr_json_failure jf = { 0 };
        hr_json_limits lim = {
            .max_bytes = one.len, .max_depth = 8, .max_values = (size_t)1 << 16, .no_nul = true, .failure = &jf
        };
        hr_json_doc *doc = NULL;
        hr_error jerr = { 0 };
        if ((r = hr_json_parse(one.data, one.len, &lim, &doc, &jerr)) != 0) {
            if (jf.what && jf.line) { /* where and why, kept as data: JSON shows them in English */
                hr_msg *why = &m->problem;
                unsigned ln = jf.line, col = jf.column;
                switch (jf.found) {
                case HR_JSON_FOUND_END:
                    hr_msg_set(why, HR_N("%s: safetensors header: line %u, column %u: %s, found the end of the input"),
                               name, ln, col, jf.what);
                    break;
                case HR_JSON_FOUND_CHAR:
                    hr_msg_set(why, HR_N("%s: safetensors header: line %u, column %u: %s, found '%c'"), name, ln, col,
                               jf.what, jf.c);
                    break;
                case HR_JSON_FOUND_BYTE:
                    hr_msg_set(why, HR_N("%s: safetensors header: line %u, column %u: %s, found byte 0x%02x"), name, ln,
                               col, jf.what, jf.c);
                    break;
                default:
                    hr_msg_set(why, HR_N("%s: safetensors header: line %u, column %u: %s"), name, ln, col, jf.what);
                    break;
                }
                hr_msg_translate_arg(why, 3);
                hr_model_failed(m, err, r);
            } else {
                hr_model_fail(m, err, r, HR_N("%s: safetensors header: %s"), name, jerr.msg);
            }
            break;
        }
        r = one_member(&w, hr_json_first(hr_json_root(doc)), err);
        hr_json_free(doc);
        if (r)
            break;
        pos = after + 1;
        if (p[after] == '}')
            break;
    }
    hr_buf_free(&one);
    /* the writer pads the header with spaces to an 8-byte boundary; nothing else may follow */
    if (r == 0 && skip_ws(p, pos, end) != end)
        r = hr_model_fail(m, err, HR_EPARSE, HR_N("%s: safetensors header is not valid JSON near byte %llu"), name,
                          (unsigned long long)(8 + skip_ws(p, pos, end)));
    range *rg = w.rg;
    size_t nr = w.nr;
    if (r == 0 && nr > 1) {
        qsort(rg, nr, sizeof *rg, cmp_range);
        size_t far = 0; /* the range reaching furthest so far */
        for (size_t i = 1; i < nr && r == 0; i++) {
            if (rg[i].a < rg[far].b && rg[i].b > rg[i].a)
                r = hr_model_fail(m, err, HR_EPARSE,
                                  HR_N("%s: two tensors overlap in the file (bytes %llu..%llu and "
                                       "%llu..%llu of the data section): a lying header"),
                                  name, (unsigned long long)rg[far].a, (unsigned long long)rg[far].b,
                                  (unsigned long long)rg[i].a, (unsigned long long)rg[i].b);
            if (rg[i].b > rg[far].b)
                far = i;
        }
    }
    if (r == 0 && w.unknown)
        hr_msg_set(&m->note,
                   HR_N("%zu tensor(s) of a dtype this version does not know "
                        "(%s): bytes from their offsets"),
                   w.unknown, w.unknown_name);
    free(rg);
    return r;
}
