#include "core/scan/tensors.h"

#include <stdlib.h>
#include <string.h>

void hr_tensor_set_init(hr_tensor_set *s)
{
    memset(s, 0, sizeof *s);
    hr_buf_init(&s->names, (size_t)256 << 20);
}

void hr_tensor_set_free(hr_tensor_set *s)
{
    free(s->v);
    hr_buf_free(&s->names);
    memset(s, 0, sizeof *s);
}

int hr_tensor_reserve(hr_tensor_set *s, size_t n)
{
    if (n > HR_TENSOR_MAX_COUNT)
        n = HR_TENSOR_MAX_COUNT;
    if (n <= s->cap)
        return 0;
    hr_tensor *p = realloc(s->v, n * sizeof *p);
    if (!p)
        return HR_ENOMEM;
    s->v = p;
    s->cap = n;
    return 0;
}

int hr_tensor_add(hr_tensor_set *s, const char *name, size_t n, const hr_tensor *t)
{
    if (s->n >= HR_TENSOR_MAX_COUNT)
        return HR_ETOOBIG;
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 256;
        hr_tensor *p = realloc(s->v, nc * sizeof *p);
        if (!p)
            return HR_ENOMEM;
        s->v = p;
        s->cap = nc;
    }
    size_t off = s->names.len;
    int r = hr_buf_append(&s->names, name, n);
    if (r == 0)
        r = hr_buf_append(&s->names, "", 1);
    if (r)
        return r;
    s->v[s->n] = *t;
    s->v[s->n].name_off = off;
    s->n++;
    return 0;
}

const char *hr_tensor_name(const hr_tensor_set *s, const hr_tensor *t)
{
    return s->names.data ? s->names.data + t->name_off : "";
}

const hr_tensor *hr_tensor_find(const hr_tensor_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(hr_tensor_name(s, &s->v[i]), name) == 0)
            return &s->v[i];
    return NULL;
}

bool hr_tensor_any_prefix(const hr_tensor_set *s, const char *prefix)
{
    size_t k = strlen(prefix);
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(hr_tensor_name(s, &s->v[i]), prefix, k) == 0)
            return true;
    return false;
}

bool hr_tensor_any_contains(const hr_tensor_set *s, const char *part)
{
    for (size_t i = 0; i < s->n; i++)
        if (strstr(hr_tensor_name(s, &s->v[i]), part))
            return true;
    return false;
}

const hr_tensor *hr_tensor_find_suffix(const hr_tensor_set *s, const char *prefix, const char *suffix)
{
    size_t kp = strlen(prefix), ks = strlen(suffix);
    for (size_t i = 0; i < s->n; i++) {
        const char *nm = hr_tensor_name(s, &s->v[i]);
        size_t k = strlen(nm);
        if (k >= kp + ks && strncmp(nm, prefix, kp) == 0 && strcmp(nm + k - ks, suffix) == 0)
            return &s->v[i];
    }
    return NULL;
}

unsigned hr_st_dtype_bits(const char *name)
{
    static const struct {
        const char *n;
        unsigned bits;
    } t[] = {
        { "BOOL", 8 },    { "U8", 8 },   { "I8", 8 },   { "F8_E5M2", 8 }, { "F8_E4M3", 8 },
        { "F8_E8M0", 8 }, { "I16", 16 }, { "U16", 16 }, { "F16", 16 },    { "BF16", 16 },
        { "I32", 32 },    { "U32", 32 }, { "F32", 32 }, { "F64", 64 },    { "I64", 64 },
        { "U64", 64 },    { "C64", 64 }, { "F4", 4 },   { "F6_E2M3", 6 }, { "F6_E3M2", 6 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].n, name) == 0)
            return t[i].bits;
    return 0;
}
