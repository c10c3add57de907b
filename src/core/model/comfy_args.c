#include "core/model/comfy_args.h"
#include "core/base/i18n.h"
#include "core/base/text.h"

#include "core/model/snapshot.h"

#include <stdio.h>
#include <string.h>

#define TOKEN_MAX 128

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Next token of text[*pos..n) into tok (truncated at TOKEN_MAX-1; a flag that long is not
 * one we know). Returns 1 for a token, 0 at the end, HR_EPARSE on an unclosed quote. */
static int next_token(const char *text, size_t n, size_t *pos, char *tok, size_t *tok_len);

/* A flag's GB value ("--reserve-vram 1.5", "--vram-headroom=2") into bytes. */
static int gib_value(const char *text, size_t n, size_t *pos, const char *flag, const char *inline_value,
                     uint64_t *bytes, hr_error *err);

static int next_token(const char *text, size_t n, size_t *pos, char *tok, size_t *tok_len)
{
    size_t i = *pos, len = 0;
    while (i < n && is_space(text[i]))
        i++;
    if (i >= n) {
        *pos = i;
        return 0;
    }
    char quote = 0;
    while (i < n) {
        char c = text[i];
        if (quote) {
            if (c == quote) {
                quote = 0;
                i++;
                continue;
            }
        } else if (c == '"' || c == '\'') {
            quote = c;
            i++;
            continue;
        } else if (is_space(c)) {
            break;
        }
        if (len + 1 < TOKEN_MAX)
            tok[len] = c;
        len++;
        i++;
    }
    if (quote)
        return HR_EPARSE;
    tok[len < TOKEN_MAX ? len : TOKEN_MAX - 1] = '\0';
    *tok_len = len;
    *pos = i;
    return 1;
}

/* "1.5" → bytes of GiB (ComfyUI: reserve_vram * 1024**3). Plain decimal only. */
static int parse_gib(const char *s, uint64_t *bytes)
{
    uint64_t whole = 0, frac = 0, scale = 1;
    const char *p = s;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        whole = whole * 10 + (uint64_t)(*p - '0');
        if (whole > 1024 * 1024) /* a petabyte of VRAM is a typo */
            return HR_ERANGE;
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            if (scale < 1000000) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                scale *= 10;
            }
            p++;
            digits++;
        }
    }
    if (digits == 0 || *p != '\0')
        return HR_EPARSE;
    const uint64_t gib = (uint64_t)1 << 30;
    *bytes = whole * gib + frac * gib / scale;
    return 0;
}

static int gib_value(const char *text, size_t n, size_t *pos, const char *flag, const char *inline_value,
                     uint64_t *bytes, hr_error *err)
{
    char value[TOKEN_MAX];
    if (inline_value) {
        hr_strlcpy(value, inline_value, sizeof value);
    } else {
        size_t vlen = 0;
        int v = next_token(text, n, pos, value, &vlen);
        if (v == HR_EPARSE)
            return hr_error_set(err, HR_EPARSE, HR_T("--comfy-args: a quote is not closed"));
        if (v == 0 || vlen >= TOKEN_MAX)
            return hr_error_set(err, HR_EPARSE, HR_T("--comfy-args: %s needs a number of GB"), flag);
    }
    int pr = parse_gib(value, bytes);
    if (pr < 0)
        return hr_error_set(err, pr, HR_T("--comfy-args: %s '%s': expected a number of GB such as 1.5"), flag, value);
    return 0;
}

/* The on/off flags and dtype overrides; false when tok is none of them. */
static bool flag_switch(const char *tok, hr_comfy_args *out)
{
    static const struct {
        const char *name;
        int field;
        int value;
    } t[] = {
        { "--lowvram", 0, 1 },
        { "--novram", 1, 1 },
        { "--highvram", 2, 1 },
        { "--gpu-only", 3, 1 },
        { "--cpu", 4, 1 },
        { "--disable-smart-memory", 5, 1 },
        { "--disable-pinned-memory", 6, 1 },
        { "--disable-dynamic-vram", 7, 1 },
        { "--enable-dynamic-vram", 8, 1 },
        { "--disable-mmap", 9, 1 },
        { "--high-ram", 10, 1 },
        { "--cpu-vae", 11, 1 },
        { "--fp16-intermediates", 12, 1 },
        { "--fast-disk", 13, 1 },
        { "--use-pytorch-cross-attention", 14, 1 },
        { "--use-split-cross-attention", 15, 1 },
        { "--use-quad-cross-attention", 15, 1 },
        { "--cache-classic", 20, HR_CACHE_CLASSIC },
        { "--cache-lru", 20, HR_CACHE_LRU },
        { "--cache-none", 20, HR_CACHE_NONE },
        { "--cache-ram", 20, HR_CACHE_RAM },
        { "--fp8_e4m3fn-unet", 21, 1 },
        { "--fp8_e5m2-unet", 21, 1 },
        { "--fp8_e8m0fnu-unet", 21, 1 },
        { "--fp16-unet", 21, 2 },
        { "--bf16-unet", 21, 2 },
        { "--force-fp16", 21, 2 },
        { "--fp32-unet", 21, 4 },
        { "--fp64-unet", 21, 8 },
        { "--fp8_e4m3fn-text-enc", 22, 1 },
        { "--fp8_e5m2-text-enc", 22, 1 },
        { "--fp16-text-enc", 22, 2 },
        { "--bf16-text-enc", 22, 2 },
        { "--fp32-text-enc", 22, 4 },
        { "--fp16-vae", 23, 2 },
        { "--bf16-vae", 23, 2 },
        { "--fp32-vae", 23, 4 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (strcmp(tok, t[i].name) != 0)
            continue;
        bool *b[] = { &out->lowvram,
                      &out->novram,
                      &out->highvram,
                      &out->gpu_only,
                      &out->cpu,
                      &out->disable_smart_memory,
                      &out->disable_pinned_memory,
                      &out->disable_dynamic_vram,
                      &out->enable_dynamic_vram,
                      &out->disable_mmap,
                      &out->high_ram,
                      &out->cpu_vae,
                      &out->fp16_intermediates,
                      &out->fast_disk,
                      &out->pytorch_attention,
                      &out->split_attention };
        if (t[i].field < 16)
            *b[t[i].field] = true;
        else if (t[i].field == 20)
            out->cache = (hr_comfy_cache)t[i].value;
        else if (t[i].field == 21)
            out->unet_dtype_bytes = t[i].value;
        else if (t[i].field == 22)
            out->te_dtype_bytes = t[i].value;
        else
            out->vae_dtype_bytes = t[i].value;
        return true;
    }
    return false;
}

int hr_comfy_args_parse(const char *text, size_t n, hr_comfy_args *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    if (!text)
        n = 0;
    if (n > HR_COMFY_ARGS_MAX_TEXT)
        return hr_error_set(err, HR_ETOOBIG, HR_T("--comfy-args: %llu bytes, more than the %d allowed"),
                            (unsigned long long)n, HR_COMFY_ARGS_MAX_TEXT);
    size_t pos = 0;
    char tok[TOKEN_MAX];
    size_t len = 0;
    int r;
    while ((r = next_token(text, n, &pos, tok, &len)) == 1) {
        if (len < 2 || tok[0] != '-' || tok[1] != '-')
            continue;
        out->flags_seen++;
        if (len >= TOKEN_MAX)
            continue;
        char *eq = strchr(tok, '=');
        const char *inline_value = NULL;
        if (eq) {
            *eq = '\0';
            inline_value = eq + 1;
        }
        bool known = true;
        if (strcmp(tok, "--reserve-vram") == 0 || strcmp(tok, "--vram-headroom") == 0) {
            uint64_t bytes = 0;
            int gr = gib_value(text, n, &pos, tok, inline_value, &bytes, err);
            if (gr < 0)
                return gr;
            if (strcmp(tok, "--reserve-vram") == 0) {
                out->reserve_vram_bytes = bytes;
                out->reserve_vram_given = true;
            } else {
                out->vram_headroom_bytes = bytes;
                out->vram_headroom_given = true;
            }
        } else if (strcmp(tok, "--async-offload") == 0) {
            /* an optional stream count: "--async-offload", "--async-offload 3", "=3" */
            out->async_offload_given = true;
            out->async_offload_streams = 2;
            size_t peek = pos, vlen = 0;
            char val[TOKEN_MAX];
            const char *v = inline_value;
            if (!v && next_token(text, n, &peek, val, &vlen) == 1 && vlen < TOKEN_MAX)
                v = val;
            uint64_t k;
            /* a count is digits only (argparse's int); a blank-padded or huge one is not it */
            if (v && v[0] >= '0' && v[0] <= '9' && hr_parse_u64(v, strlen(v), &k) && k <= 999) {
                out->async_offload_streams = (int)k;
                if (v == val)
                    pos = peek;
            }
        } else if (strcmp(tok, "--disable-async-offload") == 0) {
            out->disable_async_offload = true;
        } else if (strcmp(tok, "--fast") == 0) {
            /* --fast takes an optional list of features; dynamic_vram and pinned_memory move
             * memory, and --fast with no list turns every feature on. */
            if (inline_value && strstr(inline_value, "dynamic_vram"))
                out->enable_dynamic_vram = true;
            if (inline_value && strstr(inline_value, "pinned_memory"))
                out->fast_pinned_memory = true;
            size_t peek = pos, flen = 0;
            char feat[TOKEN_MAX];
            bool listed = inline_value != NULL;
            while (!inline_value && next_token(text, n, &peek, feat, &flen) == 1 && feat[0] != '-') {
                if (flen < TOKEN_MAX && strcmp(feat, "dynamic_vram") == 0)
                    out->enable_dynamic_vram = true;
                if (flen < TOKEN_MAX && strcmp(feat, "pinned_memory") == 0)
                    out->fast_pinned_memory = true;
                listed = true;
                pos = peek;
            }
            if (!listed)
                out->fast_pinned_memory = true;
        } else if (!flag_switch(tok, out)) {
            known = false;
        }
        if (known)
            out->flags_known++;
    }
    if (r == HR_EPARSE)
        return hr_error_set(err, HR_EPARSE, HR_T("--comfy-args: a quote is not closed"));
    return 0;
}

bool hr_comfy_args_lean_on_ram(const hr_comfy_args *a)
{
    return a->lowvram || a->novram || a->cpu || a->disable_smart_memory;
}

void hr_comfy_args_describe(const hr_comfy_args *a, char *out, size_t n)
{
    if (n == 0)
        return;
    out[0] = '\0';
    size_t used = 0;
    const struct {
        bool on;
        const char *name;
    } f[] = {
        { a->lowvram, "--lowvram" },
        { a->novram, "--novram" },
        { a->cpu, "--cpu" },
        { a->disable_smart_memory, "--disable-smart-memory" },
        { a->highvram, "--highvram" },
        { a->gpu_only, "--gpu-only" },
        { a->reserve_vram_given, "--reserve-vram" },
        { a->disable_pinned_memory, "--disable-pinned-memory" },
        { a->disable_dynamic_vram, "--disable-dynamic-vram" },
        { a->enable_dynamic_vram, "--enable-dynamic-vram" },
        { a->disable_mmap, "--disable-mmap" },
        { a->high_ram, "--high-ram" },
        { a->cpu_vae, "--cpu-vae" },
        { a->cache == HR_CACHE_NONE, "--cache-none" },
        { a->cache == HR_CACHE_CLASSIC, "--cache-classic" },
        { a->cache == HR_CACHE_LRU, "--cache-lru" },
        { a->cache == HR_CACHE_RAM, "--cache-ram" },
        { a->vram_headroom_given, "--vram-headroom" },
        { a->unet_dtype_bytes == 1, "--fp8-unet" },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (!f[i].on)
            continue;
        int w = snprintf(out + used, n - used, "%s%s", used ? " " : "", f[i].name);
        if (w < 0 || (size_t)w >= n - used)
            return;
        used += (size_t)w;
    }
}
