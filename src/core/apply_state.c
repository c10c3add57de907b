#include "apply_state.h"

#include "json_writer.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_apply_state_init(hr_apply_state *s, hr_os os)
{
    memset(s, 0, sizeof *s);
    s->os = os;
    hr_strlcpy(s->status, "in-progress", sizeof s->status);
    hr_strlcpy(s->orig_type, "missing", sizeof s->orig_type);
}

hr_apply_area *hr_apply_state_find(hr_apply_state *s, const char *path)
{
    for (int i = 0; i < s->area_count; i++)
        if (strcmp(s->areas[i].path, path) == 0)
            return &s->areas[i];
    return NULL;
}

hr_apply_area *hr_apply_state_add(hr_apply_state *s, const char *path)
{
    hr_apply_area *a = hr_apply_state_find(s, path);
    if (a)
        return a;
    if (s->area_count == HR_APPLY_MAX_AREAS)
        return NULL;
    a = &s->areas[s->area_count++];
    memset(a, 0, sizeof *a);
    hr_strlcpy(a->path, path, sizeof a->path);
    a->priority = HR_UNKNOWN_I64;
    return a;
}

void hr_apply_state_drop(hr_apply_state *s, const char *path)
{
    for (int i = 0; i < s->area_count; i++)
        if (strcmp(s->areas[i].path, path) == 0) {
            memmove(&s->areas[i], &s->areas[i + 1],
                    (size_t)(s->area_count - i - 1) * sizeof s->areas[0]);
            s->area_count--;
            return;
        }
}

static void write_pfw(hr_json_writer *w, const char *key, const hr_pfw_list *l)
{
    char s[HR_PFW_PATH_MAX + 48];
    hr_json_begin_array(w, key);
    for (int i = 0; i < l->count; i++) {
        if (hr_pfw_format_string(&l->e[i], s, sizeof s) == 0)
            hr_json_str(w, NULL, s);
    }
    hr_json_end_array(w);
}

int hr_apply_state_write(const hr_apply_state *s, hr_buf *out)
{
    hr_json_writer w;
    char hex[24];
    hr_json_init(&w, out, true);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "schema", HR_APPLY_STATE_SCHEMA);
    hr_json_str(&w, "os", s->os == HR_OS_WINDOWS ? "windows" : "linux");
    hr_json_str(&w, "status", s->status);
    hr_json_str(&w, "last_step", s->last_step);
    hr_json_str(&w, "started", s->started);
    hr_json_i64(&w, "started_unix", s->started_unix);
    if (s->os == HR_OS_LINUX) {
        hr_json_begin_object(&w, "fstab");
        hr_json_str(&w, "path", s->fstab_path);
        hr_json_str(&w, "backup", s->fstab_backup);
        hr_json_bool(&w, "existed", s->fstab_existed);
        hr_json_bool(&w, "added_newline", s->fstab_added_newline);
        hr_json_bool(&w, "written", s->fstab_written);
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->fstab_written_hash);
        hr_json_str(&w, "written_fnv1a64", hex);
        hr_json_end_object(&w);
        hr_json_begin_array(&w, "areas");
        for (int i = 0; i < s->area_count; i++) {
            const hr_apply_area *a = &s->areas[i];
            hr_json_begin_object(&w, NULL);
            hr_json_str(&w, "path", a->path);
            hr_json_u64(&w, "size_bytes", a->size_bytes);
            if (a->priority == HR_UNKNOWN_I64)
                hr_json_null(&w, "priority");
            else
                hr_json_i64(&w, "priority", a->priority);
            hr_json_str(&w, "uuid", a->uuid);
            hr_json_bool(&w, "created", a->created);
            hr_json_bool(&w, "enabled", a->enabled);
            hr_json_bool(&w, "in_fstab", a->in_fstab);
            hr_json_u64(&w, "device", a->device);
            hr_json_u64(&w, "inode", a->inode);
            hr_json_end_object(&w);
        }
        hr_json_end_array(&w);
    } else {
        hr_json_begin_object(&w, "registry");
        hr_json_str(&w, "backup", s->reg_backup);
        hr_json_bool(&w, "written", s->reg_written);
        hr_json_str(&w, "original_type", s->orig_type);
        write_pfw(&w, "original_paging_files", &s->orig);
        write_pfw(&w, "written_paging_files", &s->written);
        hr_json_end_object(&w);
    }
    hr_json_end_object(&w);
    return hr_json_finish(&w);
}

/* ---- A small strict JSON reader: flattens the document into (path, value) pairs such as
 * "fstab.backup" or "areas.1.path". Enough for the state file; bounded depth and size. */

enum { KV_STR, KV_NUM, KV_BOOL, KV_NULL };

typedef struct kv {
    char path[64];
    int type;
    char *str;
    int64_t num;
    bool neg_or_big;   /* number did not fit int64 / had a fraction */
    bool b;
} kv;

typedef struct jr {
    const char *start, *p, *end;
    kv *kvs;
    int n, cap;
    int depth;
    const char *name;
    hr_error *err;
} jr;

static void ws(jr *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static int fail(jr *r, const char *what)
{
    return hr_error_set(r->err, HR_EPARSE, "%s: %s at byte %ld", r->name, what,
                        (long)(r->p - r->start));
}

static int put_utf8(hr_buf *b, unsigned long cp)
{
    char t[4];
    return hr_buf_append(b, t, hr_utf8_encode((uint32_t)cp, t));
}

static int hex4(const char *p, unsigned long *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int c = (unsigned char)p[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        *v = *v * 16 + (unsigned long)d;
    }
    return 0;
}

/* Reads a string at r->p (on the opening quote) into out. */
static int read_string(jr *r, hr_buf *out)
{
    r->p++;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20)
            return fail(r, "control character in a string");
        if (c >= 0x80) {
            /* Paths must come back byte for byte: invalid UTF-8 is refused, not replaced. */
            size_t k = hr_utf8_valid_prefix((const unsigned char *)r->p, (size_t)(r->end - r->p));
            if (!k)
                return fail(r, "invalid UTF-8 in a string");
            if (hr_buf_append(out, r->p, k) < 0)
                return HR_ENOMEM;
            r->p += k;
            continue;
        }
        if (c != '\\') {
            if (hr_buf_putc(out, (char)c) < 0)
                return HR_ENOMEM;
            r->p++;
            continue;
        }
        if (r->end - r->p < 2)
            return fail(r, "unfinished escape");
        char e = r->p[1];
        r->p += 2;
        const char *map = "\"\"\\\\//b\bf\fn\nr\rt\t";
        const char *m = NULL;
        for (const char *q = map; *q; q += 2)
            if (*q == e) {
                m = q;
                break;
            }
        if (m) {
            if (hr_buf_putc(out, m[1]) < 0)
                return HR_ENOMEM;
            continue;
        }
        if (e != 'u')
            return fail(r, "unknown escape");
        unsigned long cp, lo;
        if (r->end - r->p < 4 || hex4(r->p, &cp) < 0)
            return fail(r, "bad \\u escape");
        r->p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' || hex4(r->p + 2, &lo) < 0 ||
                lo < 0xDC00 || lo > 0xDFFF)
                return fail(r, "lone surrogate");
            r->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return fail(r, "lone surrogate");
        }
        if (cp == 0)
            return fail(r, "NUL in a string");
        if (put_utf8(out, cp) < 0)
            return HR_ENOMEM;
    }
    if (r->p >= r->end)
        return fail(r, "unterminated string");
    r->p++;
    return 0;
}

static kv *push_kv(jr *r, const char *path, int type)
{
    if (r->n == r->cap) {
        int nc = r->cap ? r->cap * 2 : 32;
        if (nc > 4096)
            return NULL;
        kv *k = realloc(r->kvs, (size_t)nc * sizeof *k);
        if (!k)
            return NULL;
        r->kvs = k;
        r->cap = nc;
    }
    kv *k = &r->kvs[r->n++];
    memset(k, 0, sizeof *k);
    hr_strlcpy(k->path, path, sizeof k->path);
    k->type = type;
    return k;
}

static int read_value(jr *r, const char *path);

static int child_path(char *out, size_t n, const char *path, const char *key)
{
    int w = path[0] ? snprintf(out, n, "%s.%s", path, key) : snprintf(out, n, "%s", key);
    return (w < 0 || (size_t)w >= n) ? -1 : 0;
}

static int read_value(jr *r, const char *path)
{
    ws(r);
    if (r->p >= r->end)
        return fail(r, "value expected");
    char c = *r->p;
    char sub[64];
    if (c == '{' || c == '[') {
        if (++r->depth > 8)
            return fail(r, "nested too deeply");
        r->p++;
        ws(r);
        char close = c == '{' ? '}' : ']';
        int idx = 0;
        if (r->p < r->end && *r->p == close) {
            r->p++;
            r->depth--;
            return 0;
        }
        for (;;) {
            ws(r);
            if (c == '{') {
                if (r->p >= r->end || *r->p != '"')
                    return fail(r, "member name expected");
                hr_buf key;
                hr_buf_init(&key, 256);
                int e = read_string(r, &key);
                if (e == 0 && child_path(sub, sizeof sub, path, hr_buf_str(&key)) < 0)
                    e = fail(r, "member path too long");
                hr_buf_free(&key);
                if (e < 0)
                    return e;
                ws(r);
                if (r->p >= r->end || *r->p != ':')
                    return fail(r, "':' expected");
                r->p++;
            } else {
                char ix[16];
                snprintf(ix, sizeof ix, "%d", idx);
                if (child_path(sub, sizeof sub, path, ix) < 0)
                    return fail(r, "member path too long");
            }
            int e = read_value(r, sub);
            if (e < 0)
                return e;
            idx++;
            ws(r);
            if (r->p < r->end && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p < r->end && *r->p == close) {
                r->p++;
                r->depth--;
                return 0;
            }
            return fail(r, "',' or end of container expected");
        }
    }
    if (c == '"') {
        hr_buf s;
        hr_buf_init(&s, 64 << 10);
        int e = read_string(r, &s);
        if (e < 0) {
            hr_buf_free(&s);
            return e;
        }
        kv *k = push_kv(r, path, KV_STR);
        if (!k) {
            hr_buf_free(&s);
            return fail(r, "too many values");
        }
        k->str = malloc(s.len + 1);
        if (!k->str) {
            hr_buf_free(&s);
            return HR_ENOMEM;
        }
        memcpy(k->str, hr_buf_str(&s), s.len + 1);
        hr_buf_free(&s);
        return 0;
    }
    static const struct { const char *w; int type; bool b; } lits[] = {
        {"true", KV_BOOL, true}, {"false", KV_BOOL, false}, {"null", KV_NULL, false}};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(lits[i].w);
        if ((size_t)(r->end - r->p) >= n && memcmp(r->p, lits[i].w, n) == 0) {
            r->p += n;
            kv *k = push_kv(r, path, lits[i].type);
            if (!k)
                return fail(r, "too many values");
            k->b = lits[i].b;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        bool neg = c == '-';
        if (neg)
            r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9')
            return fail(r, "digit expected");
        uint64_t v = 0;
        bool big = false;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
            unsigned d = (unsigned)(*r->p - '0');
            if (v > (UINT64_MAX - d) / 10)
                big = true;
            else
                v = v * 10 + d;
            r->p++;
        }
        if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E')) {
            big = true;   /* the state file has only integers */
            r->p++;
            while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '+' ||
                                     *r->p == '-' || *r->p == 'e' || *r->p == 'E' || *r->p == '.'))
                r->p++;
        }
        if (v > (uint64_t)INT64_MAX)
            big = true;
        kv *k = push_kv(r, path, KV_NUM);
        if (!k)
            return fail(r, "too many values");
        k->num = neg ? -(int64_t)v : (int64_t)v;
        k->neg_or_big = big;
        return 0;
    }
    return fail(r, "unexpected character");
}

static void jr_free(jr *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->kvs[i].str);
    free(r->kvs);
}

static const kv *get(const jr *r, const char *path)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->kvs[i].path, path) == 0)
            return &r->kvs[i];
    return NULL;
}

static void get_str(const jr *r, const char *path, char *out, size_t n)
{
    const kv *k = get(r, path);
    if (k && k->type == KV_STR)
        hr_strlcpy(out, k->str, n);
}

static bool get_bool(const jr *r, const char *path)
{
    const kv *k = get(r, path);
    return k && k->type == KV_BOOL && k->b;
}

static int get_pfw(jr *r, const char *prefix, hr_pfw_list *l)
{
    char p[64];
    memset(l, 0, sizeof *l);
    for (int i = 0; i < HR_PFW_MAX_ENTRIES; i++) {
        snprintf(p, sizeof p, "%s.%d", prefix, i);
        const kv *k = get(r, p);
        if (!k)
            break;
        if (k->type != KV_STR)
            return fail(r, "paging file list: string expected");
        int e = hr_pfw_parse_string(k->str, &l->e[l->count], r->err);
        if (e < 0)
            return e;
        l->count++;
    }
    return 0;
}

int hr_apply_state_parse(const char *text, size_t len, const char *name, hr_apply_state *s,
                         hr_error *err)
{
    jr r = {.start = text, .p = text, .end = text + len, .name = name ? name : "apply state", .err = err};
    if (len > HR_APPLY_STATE_MAX_BYTES)
        return hr_error_set(err, HR_ETOOBIG, "%s: larger than %lu bytes", r.name,
                            (unsigned long)HR_APPLY_STATE_MAX_BYTES);
    ws(&r);
    if (r.p >= r.end || *r.p != '{') {
        return hr_error_set(err, HR_EPARSE, "%s: a JSON object expected", r.name);
    }
    int e = read_value(&r, "");
    if (e == 0) {
        ws(&r);
        if (r.p != r.end)
            e = fail(&r, "text after the document");
    }
    if (e < 0) {
        jr_free(&r);
        return e;
    }
    char schema[64] = "", os[16] = "";
    get_str(&r, "schema", schema, sizeof schema);
    if (strcmp(schema, HR_APPLY_STATE_SCHEMA) != 0) {
        jr_free(&r);
        return hr_error_set(err, HR_EPARSE, "%s: schema '%s', expected '%s'", r.name, schema,
                            HR_APPLY_STATE_SCHEMA);
    }
    get_str(&r, "os", os, sizeof os);
    if (strcmp(os, "linux") != 0 && strcmp(os, "windows") != 0) {
        jr_free(&r);
        return hr_error_set(err, HR_EPARSE, "%s: os must be \"linux\" or \"windows\"", r.name);
    }
    hr_apply_state_init(s, strcmp(os, "windows") == 0 ? HR_OS_WINDOWS : HR_OS_LINUX);
    get_str(&r, "status", s->status, sizeof s->status);
    if (strcmp(s->status, "in-progress") != 0 && strcmp(s->status, "applied") != 0) {
        jr_free(&r);
        return hr_error_set(err, HR_EPARSE, "%s: status must be \"in-progress\" or \"applied\"",
                            r.name);
    }
    get_str(&r, "last_step", s->last_step, sizeof s->last_step);
    get_str(&r, "started", s->started, sizeof s->started);
    const kv *k = get(&r, "started_unix");
    if (k && k->type == KV_NUM && !k->neg_or_big)
        s->started_unix = k->num;
    get_str(&r, "fstab.path", s->fstab_path, sizeof s->fstab_path);
    get_str(&r, "fstab.backup", s->fstab_backup, sizeof s->fstab_backup);
    s->fstab_existed = get_bool(&r, "fstab.existed");
    s->fstab_added_newline = get_bool(&r, "fstab.added_newline");
    s->fstab_written = get_bool(&r, "fstab.written");
    char hex[24] = "";
    get_str(&r, "fstab.written_fnv1a64", hex, sizeof hex);
    s->fstab_written_hash = strtoull(hex, NULL, 16);
    for (int i = 0; i < HR_APPLY_MAX_AREAS + 1; i++) {
        char p[64];
        snprintf(p, sizeof p, "areas.%d.path", i);
        const kv *pk = get(&r, p);
        if (!pk)
            break;
        if (i == HR_APPLY_MAX_AREAS || pk->type != KV_STR || pk->str[0] != '/' ||
            strlen(pk->str) >= HR_SNAP_PATH_MAX) {
            jr_free(&r);
            return hr_error_set(err, HR_EPARSE, "%s: areas[%d]: bad or too many entries", r.name, i);
        }
        hr_apply_area *a = hr_apply_state_add(s, pk->str);
        snprintf(p, sizeof p, "areas.%d.size_bytes", i);
        k = get(&r, p);
        if (k && k->type == KV_NUM && !k->neg_or_big && k->num >= 0)
            a->size_bytes = (uint64_t)k->num;
        snprintf(p, sizeof p, "areas.%d.priority", i);
        k = get(&r, p);
        if (k && k->type == KV_NUM && !k->neg_or_big)
            a->priority = k->num;
        snprintf(p, sizeof p, "areas.%d.uuid", i);
        get_str(&r, p, a->uuid, sizeof a->uuid);
        snprintf(p, sizeof p, "areas.%d.created", i);
        a->created = get_bool(&r, p);
        snprintf(p, sizeof p, "areas.%d.enabled", i);
        a->enabled = get_bool(&r, p);
        snprintf(p, sizeof p, "areas.%d.in_fstab", i);
        a->in_fstab = get_bool(&r, p);
        snprintf(p, sizeof p, "areas.%d.device", i);
        k = get(&r, p);
        if (k && k->type == KV_NUM && !k->neg_or_big && k->num >= 0)
            a->device = (uint64_t)k->num;
        snprintf(p, sizeof p, "areas.%d.inode", i);
        k = get(&r, p);
        if (k && k->type == KV_NUM && !k->neg_or_big && k->num >= 0)
            a->inode = (uint64_t)k->num;
    }
    get_str(&r, "registry.backup", s->reg_backup, sizeof s->reg_backup);
    s->reg_written = get_bool(&r, "registry.written");
    get_str(&r, "registry.original_type", s->orig_type, sizeof s->orig_type);
    e = get_pfw(&r, "registry.original_paging_files", &s->orig);
    if (e == 0)
        e = get_pfw(&r, "registry.written_paging_files", &s->written);
    jr_free(&r);
    return e;
}
