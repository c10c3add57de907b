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
        k += (size_t)snprintf(out + k, n - k, "%s%llu", i ? ", " : "",
                              (unsigned long long)t->shape[i]);
    if (k < n)
        snprintf(out + k, n - k, "]");
}

int hr_safetensors_parse(const char *name, const unsigned char *buf, size_t len,
                         uint64_t file_size, hr_tensor_set *t, hr_model_info *m, hr_error *err)
{
    m->format = HR_MODEL_FMT_SAFETENSORS;
    m->file_bytes = file_size;
    if (len < 8 || file_size < 8)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: not a safetensors file: shorter than 8 bytes"),
                            name);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | buf[i];
    if (hlen > HR_ST_MAX_HEADER)
        return hr_error_set(err, HR_EPARSE,
                            HR_T("%s: safetensors header length %llu is over the %llu-byte limit"),
                            name, (unsigned long long)hlen, (unsigned long long)HR_ST_MAX_HEADER);
    if (hlen > file_size - 8)
        return hr_error_set(err, HR_EPARSE,
                            HR_T("%s: safetensors header length %llu runs past the end of the file "
                            "(%llu bytes): truncated or not a safetensors file"),
                            name, (unsigned long long)hlen, (unsigned long long)file_size);
    if ((uint64_t)len < 8 + hlen)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: safetensors header: only %zu of %llu bytes read"),
                            name, len - 8, (unsigned long long)hlen);
    if (hlen < 2 || buf[8] != '{')
        return hr_error_set(err, HR_EPARSE,
                            HR_T("%s: safetensors header is not a JSON object (it must start with '{')"),
                            name);
    hr_json_limits lim = {.max_bytes = (size_t)HR_ST_MAX_HEADER,
                          .max_depth = 8,
                          .max_values = (size_t)4 << 20,
                          .no_nul = true};
    hr_json_doc *doc = NULL;
    hr_error jerr = {0};
    int r = hr_json_parse((const char *)buf + 8, (size_t)hlen, &lim, &doc, &jerr);
    if (r)
        return hr_error_set(err, r, HR_T("%s: safetensors header: %s"), name, jerr.msg);
    const hr_json_value *root = hr_json_root(doc);
    uint64_t data_size = file_size - 8 - hlen;
    range *rg = NULL;
    size_t nr = 0;
    size_t cnt = hr_json_count(root);
    if (cnt > 0 && !(rg = malloc(cnt * sizeof *rg))) {
        hr_json_free(doc);
        return hr_error_set(err, HR_ENOMEM, "%s: %s", name, hr_strerror(HR_ENOMEM));
    }
    size_t unknown = 0;
    char unknown_name[HR_DTYPE_NAME_MAX] = "";
    for (const hr_json_value *v = hr_json_first(root); v && r == 0; v = hr_json_next(v)) {
        const char *key = hr_json_key(v);
        size_t klen = strlen(key);
        if (strcmp(key, "__metadata__") == 0) {
            if (!hr_json_is(v, HR_JSON_OBJECT)) {
                r = hr_error_set(err, HR_EPARSE, HR_T("%s: __metadata__ is not an object"), name);
                break;
            }
            for (const hr_json_value *mv = hr_json_first(v); mv; mv = hr_json_next(mv))
                if (!hr_json_is(mv, HR_JSON_STRING)) {
                    r = hr_error_set(err, HR_EPARSE, HR_T("%s: __metadata__ \"%.80s\" is not a string"),
                                     name, hr_json_key(mv));
                    break;
                }
            m->metadata_keys = hr_json_count(v);
            continue;
        }
        if (!hr_json_is(v, HR_JSON_OBJECT)) {
            r = hr_error_set(err, HR_EPARSE, HR_T("%s: tensor \"%.80s\": not an object"), name, key);
            break;
        }
        hr_tensor tn;
        memset(&tn, 0, sizeof tn);
        size_t dl = 0;
        const char *dt = hr_json_string(hr_json_get(v, "dtype"), &dl);
        const hr_json_value *shape = hr_json_get(v, "shape");
        const hr_json_value *offs = hr_json_get(v, "data_offsets");
        if (!dt || dl == 0 || dl >= HR_DTYPE_NAME_MAX) {
            r = hr_error_set(err, HR_EPARSE, HR_T("%s: tensor \"%.80s\": no valid \"dtype\""), name, key);
            break;
        }
        if (!hr_json_is(shape, HR_JSON_ARRAY) || hr_json_count(shape) > HR_TENSOR_MAX_DIMS) {
            r = hr_error_set(err, HR_EPARSE,
                             HR_T("%s: tensor \"%.80s\": \"shape\" is not an array of at most %d sizes"),
                             name, key, HR_TENSOR_MAX_DIMS);
            break;
        }
        if (!hr_json_is(offs, HR_JSON_ARRAY) || hr_json_count(offs) != 2) {
            r = hr_error_set(err, HR_EPARSE,
                             HR_T("%s: tensor \"%.80s\": \"data_offsets\" is not [begin, end]"), name, key);
            break;
        }
        memcpy(tn.dtype, dt, dl);
        tn.numel = 1;
        bool over = false;
        for (const hr_json_value *d = hr_json_first(shape); d; d = hr_json_next(d)) {
            uint64_t x;
            if (hr_json_as_u64(d, &x) != 0) {
                r = hr_error_set(err, HR_EPARSE, HR_T("%s: tensor \"%.80s\": a size in \"shape\" is "
                                 "not a whole number"), name, key);
                break;
            }
            tn.shape[tn.ndim++] = x;
            if (x && tn.numel > UINT64_MAX / x)
                over = true;
            tn.numel *= x;
        }
        if (r)
            break;
        uint64_t a, b;
        if (hr_json_as_u64(hr_json_at(offs, 0), &a) || hr_json_as_u64(hr_json_at(offs, 1), &b) ||
            b < a) {
            r = hr_error_set(err, HR_EPARSE, HR_T("%s: tensor \"%.80s\": \"data_offsets\" must be two "
                             "whole numbers, begin <= end"), name, key);
            break;
        }
        if (b > data_size) {
            r = hr_error_set(err, HR_EPARSE,
                             HR_T("%s: tensor \"%.80s\": data ends at %llu, past the end of the file "
                             "(data section %llu bytes): truncated or lying header"),
                             name, key, (unsigned long long)b, (unsigned long long)data_size);
            break;
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
                r = hr_error_set(err, HR_EPARSE,
                                 HR_T("%s: tensor \"%.80s\": %s × %s is not the %llu bytes its offsets "
                                 "span"), name, key, tn.dtype, sh, (unsigned long long)tn.bytes);
                break;
            }
        } else {
            if (unknown++ == 0)
                memcpy(unknown_name, tn.dtype, sizeof unknown_name);
            if (over)
                tn.numel = 0;
        }
        if (t && (r = hr_tensor_add(t, key, klen, &tn)) != 0) {
            hr_error_set(err, r, "%s: %s", name, hr_strerror(r));
            break;
        }
        rg[nr].a = a;
        rg[nr].b = b;
        rg[nr].idx = nr;
        nr++;
        m->tensors++;
        m->tensor_bytes += tn.bytes;
        m->params = hr_sat_add(m->params, tn.numel);
    }
    if (r == 0 && nr > 1) {
        qsort(rg, nr, sizeof *rg, cmp_range);
        size_t far = 0;   /* the range reaching furthest so far */
        for (size_t i = 1; i < nr && r == 0; i++) {
            if (rg[i].a < rg[far].b && rg[i].b > rg[i].a)
                r = hr_error_set(err, HR_EPARSE,
                                 HR_T("%s: two tensors overlap in the file (bytes %llu..%llu and "
                                 "%llu..%llu of the data section): a lying header"),
                                 name, (unsigned long long)rg[far].a, (unsigned long long)rg[far].b,
                                 (unsigned long long)rg[i].a, (unsigned long long)rg[i].b);
            if (rg[i].b > rg[far].b)
                far = i;
        }
    }
    if (r == 0 && unknown)
        snprintf(m->note, sizeof m->note, HR_T("%zu tensor(s) of a dtype this version does not know "
                 "(%s): bytes from their offsets"), unknown, unknown_name);
    free(rg);
    hr_json_free(doc);
    return r;
}
