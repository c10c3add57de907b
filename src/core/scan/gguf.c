/* headroom — the GGUF header (versions 2 and 3): magic "GGUF", u32 version, u64 tensor
 * count, u64 key-value count, the key-values, the tensor infos (name, dims, ggml type,
 * offset), then the data section aligned to general.alignment (default 32). Every count and
 * length is checked against what is left before it is used; bytes per tensor come from the
 * ggml type's block size, so they are exact; every tensor must lie inside the file. */
#include "core/scan/model_scan.h"
#include "core/base/i18n.h"

#include "core/base/size.h"

#include <stdio.h>
#include <string.h>

bool hr_ggml_type(uint32_t type, const char **name, uint32_t *block_elems, uint32_t *block_bytes)
{
    /* id, name, elements per block, bytes per block (ggml's type traits) */
    static const struct {
        uint32_t id;
        const char *n;
        uint32_t be, bb;
    } t[] = {
        { 0, "F32", 1, 4 },           { 1, "F16", 1, 2 },           { 2, "Q4_0", 32, 18 },
        { 3, "Q4_1", 32, 20 },        { 6, "Q5_0", 32, 22 },        { 7, "Q5_1", 32, 24 },
        { 8, "Q8_0", 32, 34 },        { 9, "Q8_1", 32, 36 },        { 10, "Q2_K", 256, 84 },
        { 11, "Q3_K", 256, 110 },     { 12, "Q4_K", 256, 144 },     { 13, "Q5_K", 256, 176 },
        { 14, "Q6_K", 256, 210 },     { 15, "Q8_K", 256, 292 },     { 16, "IQ2_XXS", 256, 66 },
        { 17, "IQ2_XS", 256, 74 },    { 18, "IQ3_XXS", 256, 98 },   { 19, "IQ1_S", 256, 50 },
        { 20, "IQ4_NL", 32, 18 },     { 21, "IQ3_S", 256, 110 },    { 22, "IQ2_S", 256, 82 },
        { 23, "IQ4_XS", 256, 136 },   { 24, "I8", 1, 1 },           { 25, "I16", 1, 2 },
        { 26, "I32", 1, 4 },          { 27, "I64", 1, 8 },          { 28, "F64", 1, 8 },
        { 29, "IQ1_M", 256, 56 },     { 30, "BF16", 1, 2 },         { 31, "Q4_0_4_4", 32, 18 },
        { 32, "Q4_0_4_8", 32, 18 },   { 33, "Q4_0_8_8", 32, 18 },   { 34, "TQ1_0", 256, 54 },
        { 35, "TQ2_0", 256, 66 },     { 36, "IQ4_NL_4_4", 32, 18 }, { 37, "IQ4_NL_4_8", 32, 18 },
        { 38, "IQ4_NL_8_8", 32, 18 }, { 39, "MXFP4", 32, 17 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].id == type) {
            if (name)
                *name = t[i].n;
            if (block_elems)
                *block_elems = t[i].be;
            if (block_bytes)
                *block_bytes = t[i].bb;
            return true;
        }
    return false;
}

typedef struct rd {
    const unsigned char *p;
    size_t len, pos;
    bool short_; /* ran past what was read */
} rd;

static bool take(rd *r, size_t n, const unsigned char **out)
{
    if (r->short_ || n > r->len - r->pos) {
        r->short_ = true;
        return false;
    }
    if (out)
        *out = r->p + r->pos;
    r->pos += n;
    return true;
}

static bool u32(rd *r, uint32_t *v)
{
    const unsigned char *q;
    if (!take(r, 4, &q))
        return false;
    *v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    return true;
}

static bool u64(rd *r, uint64_t *v)
{
    const unsigned char *q;
    if (!take(r, 8, &q))
        return false;
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = (*v << 8) | q[i];
    return true;
}

/* A GGUF string: u64 length + bytes. */
static bool str(rd *r, const unsigned char **s, uint64_t *n)
{
    if (!u64(r, n))
        return false;
    if (*n > r->len - r->pos) {
        r->short_ = true;
        return false;
    }
    return take(r, (size_t)*n, s);
}

static size_t scalar_size(uint32_t type)
{
    switch (type) {
    case 0:
    case 1:
    case 7: return 1; /* u8 i8 bool */
    case 2:
    case 3: return 2; /* u16 i16 */
    case 4:
    case 5:
    case 6: return 4; /* u32 i32 f32 */
    case 10:
    case 11:
    case 12: return 8; /* u64 i64 f64 */
    default: return 0;
    }
}

typedef struct kv_out {
    char arch[32];
    uint64_t alignment;
    bool has_alignment;
    hr_model_info *m; /* where a failure is kept */
} kv_out;

static bool key_is(const unsigned char *k, uint64_t n, const char *want)
{
    return n == strlen(want) && memcmp(k, want, (size_t)n) == 0;
}

/* Skip or read one value of type t; returns 0, 1 (short) or an error set in err. */
static int value(const char *name, rd *r, uint32_t t, const unsigned char *key, uint64_t klen, kv_out *o, hr_error *err,
                 int depth)
{
    if (t == 8) {
        const unsigned char *s;
        uint64_t n;
        if (!str(r, &s, &n))
            return 1;
        if (key && key_is(key, klen, "general.architecture")) {
            size_t c = n < sizeof o->arch - 1 ? (size_t)n : sizeof o->arch - 1;
            memcpy(o->arch, s, c);
            o->arch[c] = '\0';
            for (size_t i = 0; i < c; i++)
                if (o->arch[i] < 0x20 || (unsigned char)o->arch[i] >= 0x7f)
                    o->arch[i] = '?';
        }
        return 0;
    }
    if (t == 9) {
        uint32_t et;
        uint64_t cnt;
        if (!u32(r, &et) || !u64(r, &cnt))
            return 1;
        if (depth > 4)
            return hr_model_fail(o->m, err, HR_EPARSE, HR_N("%s: GGUF arrays nested too deep"), name);
        size_t es = scalar_size(et);
        if (es) {
            if (cnt > (r->len - r->pos) / es) {
                r->short_ = true;
                return 1;
            }
            r->pos += (size_t)cnt * es;
            return 0;
        }
        if (et != 8 && et != 9)
            return hr_model_fail(o->m, err, HR_EPARSE, HR_N("%s: GGUF array of unknown type %u"), name, et);
        /* each element takes at least 8 bytes: a count past what is left is short or a lie */
        if (cnt > (r->len - r->pos) / 8) {
            r->short_ = true;
            return 1;
        }
        for (uint64_t i = 0; i < cnt; i++) {
            int k = value(name, r, et, NULL, 0, o, err, depth + 1);
            if (k)
                return k;
        }
        return 0;
    }
    size_t es = scalar_size(t);
    if (!es)
        return hr_model_fail(o->m, err, HR_EPARSE, HR_N("%s: GGUF value of unknown type %u"), name, t);
    const unsigned char *q;
    if (!take(r, es, &q))
        return 1;
    if (key && key_is(key, klen, "general.alignment") && (t == 4 || t == 10)) {
        uint64_t v = 0;
        for (size_t i = es; i-- > 0;)
            v = (v << 8) | q[i];
        o->alignment = v;
        o->has_alignment = true;
    }
    return 0;
}

int hr_gguf_parse(const char *name, const unsigned char *buf, size_t len, uint64_t file_size, hr_tensor_set *t,
                  hr_model_info *m, size_t *need, hr_error *err)
{
    rd r = { buf, len, 0, false };
    *need = 0;
    m->format = HR_MODEL_FMT_GGUF;
    m->file_bytes = file_size;
    const unsigned char *magic;
    uint32_t version;
    uint64_t nt, nkv;
    kv_out o;
    memset(&o, 0, sizeof o);
    o.m = m;
    int rc = 0;
    if (!take(&r, 4, &magic) || memcmp(magic, "GGUF", 4) != 0)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: not a GGUF file (no \"GGUF\" magic)"), name);
    if (!u32(&r, &version) || !u64(&r, &nt) || !u64(&r, &nkv))
        goto short_;
    if (version != 2 && version != 3)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF version %u is not supported (2 and 3 are)"), name,
                             version);
    m->gguf_version = version;
    /* every key-value takes >= 12 bytes, every tensor info >= 24: counts past the file lie */
    if (nkv > file_size / 12 || nt > file_size / 24 || nt > HR_TENSOR_MAX_COUNT)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: GGUF header claims %llu tensors and %llu keys, "
                                  "more than the file can hold"),
                             name, (unsigned long long)nt, (unsigned long long)nkv);
    for (uint64_t i = 0; i < nkv; i++) {
        const unsigned char *k;
        uint64_t kl;
        uint32_t ty;
        if (!str(&r, &k, &kl) || !u32(&r, &ty))
            goto short_;
        rc = value(name, &r, ty, k, kl, &o, err, 0);
        if (rc == 1)
            goto short_;
        if (rc)
            return rc;
    }
    m->metadata_keys = (size_t)nkv;
    memcpy(m->gguf_arch, o.arch, sizeof m->gguf_arch);
    uint64_t align = o.has_alignment ? o.alignment : 32;
    if (align == 0 || align > (1u << 20) || (align & (align - 1)) != 0)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF general.alignment %llu is not a power of two"), name,
                             (unsigned long long)align);
    /* a first pass over the tensor infos: is everything here? */
    size_t infos = r.pos;
    for (uint64_t i = 0; i < nt; i++) {
        const unsigned char *nm;
        uint64_t nl;
        uint32_t nd, ty;
        uint64_t d, off;
        if (!str(&r, &nm, &nl) || !u32(&r, &nd))
            goto short_;
        if (nd > HR_TENSOR_MAX_DIMS)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF tensor %llu has %u dimensions"), name,
                                 (unsigned long long)i, nd);
        for (uint32_t j = 0; j < nd; j++)
            if (!u64(&r, &d))
                goto short_;
        if (!u32(&r, &ty) || !u64(&r, &off))
            goto short_;
    }
    uint64_t data_start = ((uint64_t)r.pos + align - 1) / align * align;
    if (data_start > file_size)
        return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF data section starts past the end of the file"), name);
    uint64_t data_size = file_size - data_start;
    r.pos = infos;
    size_t unknown = 0;
    for (uint64_t i = 0; i < nt; i++) {
        /* the header pass above proved every read here succeeds; zeroes keep gcc -O3 sure */
        const unsigned char *nm = NULL;
        uint64_t nl = 0;
        uint32_t nd = 0, ty = 0;
        hr_tensor tn;
        memset(&tn, 0, sizeof tn);
        (void)str(&r, &nm, &nl);
        (void)u32(&r, &nd);
        tn.ndim = nd;
        tn.numel = 1;
        bool over = false;
        for (uint32_t j = 0; j < nd; j++) {
            (void)u64(&r, &tn.shape[j]);
            if (tn.shape[j] && tn.numel > UINT64_MAX / tn.shape[j])
                over = true;
            tn.numel *= tn.shape[j];
        }
        (void)u32(&r, &ty);
        (void)u64(&r, &tn.begin);
        const char *tname;
        uint32_t be, bb;
        if (over)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF tensor %llu: its shape overflows"), name,
                                 (unsigned long long)i);
        if (!hr_ggml_type(ty, &tname, &be, &bb)) {
            /* unknown type: the size is unknowable; the file is still listed */
            snprintf(tn.dtype, sizeof tn.dtype, "GGML_%u", ty);
            tn.bytes = 0;
            unknown++;
        } else {
            tn.dtype_known = true;
            snprintf(tn.dtype, sizeof tn.dtype, "%s", tname);
            if (nd == 0 || tn.shape[0] % be != 0)
                return hr_model_fail(m, err, HR_EPARSE,
                                     HR_N("%s: GGUF tensor %.*s: %llu elements per row "
                                          "is not a whole number of %s blocks"),
                                     name, (int)(nl > 80 ? 80 : nl), (const char *)nm,
                                     (unsigned long long)(nd ? tn.shape[0] : 0), tname);
            tn.bytes = tn.numel / be * bb;
        }
        if (tn.begin % align != 0 || tn.begin > data_size || tn.bytes > data_size - tn.begin)
            return hr_model_fail(m, err, HR_EPARSE,
                                 HR_N("%s: GGUF tensor %.*s: data at %llu (+%llu bytes) "
                                      "is misaligned or past the end of the file"),
                                 name, (int)(nl > 80 ? 80 : nl), (const char *)nm, (unsigned long long)tn.begin,
                                 (unsigned long long)tn.bytes);
        if (t && (rc = hr_tensor_add(t, (const char *)nm, (size_t)nl, &tn)) != 0)
            return hr_error_set(err, rc, "%s: %s", name, hr_strerror(rc));
        m->tensors++;
        m->tensor_bytes += tn.bytes;
        m->params = hr_sat_add(m->params, tn.numel);
    }
    if (unknown)
        hr_msg_set(&m->note,
                   HR_N("%zu tensor(s) of a ggml type this version does not "
                        "know: their bytes are not counted"),
                   unknown);
    return 0;

short_:
    if ((uint64_t)len >= file_size)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: GGUF header is cut short (the file ends at %llu "
                                  "bytes): truncated"),
                             name, (unsigned long long)file_size);
    if (len >= HR_GGUF_MAX_HEADER)
        return hr_model_fail(m, err, HR_ETOOBIG, HR_N("%s: GGUF header is larger than %zu bytes"), name,
                             HR_GGUF_MAX_HEADER);
    {
        uint64_t want = (uint64_t)len * 4;
        if (want > file_size)
            want = file_size;
        if (want > HR_GGUF_MAX_HEADER)
            want = HR_GGUF_MAX_HEADER;
        *need = (size_t)want;
    }
    m->tensors = 0;
    m->tensor_bytes = 0;
    m->params = 0;
    return 0;
}
