#include "core/model/comfy_args.h"

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
        if (whole > 1024 * 1024)   /* a petabyte of VRAM is a typo */
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

int hr_comfy_args_parse(const char *text, size_t n, hr_comfy_args *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    if (!text)
        n = 0;
    if (n > HR_COMFY_ARGS_MAX_TEXT)
        return hr_error_set(err, HR_ETOOBIG, "--comfy-args: %llu bytes, more than the %d allowed",
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
        if (strcmp(tok, "--lowvram") == 0)
            out->lowvram = true;
        else if (strcmp(tok, "--novram") == 0)
            out->novram = true;
        else if (strcmp(tok, "--highvram") == 0)
            out->highvram = true;
        else if (strcmp(tok, "--gpu-only") == 0)
            out->gpu_only = true;
        else if (strcmp(tok, "--cpu") == 0)
            out->cpu = true;
        else if (strcmp(tok, "--disable-smart-memory") == 0)
            out->disable_smart_memory = true;
        else if (strcmp(tok, "--reserve-vram") == 0) {
            char value[TOKEN_MAX];
            if (inline_value) {
                hr_strlcpy(value, inline_value, sizeof value);
            } else {
                size_t vlen = 0;
                int v = next_token(text, n, &pos, value, &vlen);
                if (v == HR_EPARSE)
                    break;
                if (v == 0 || vlen >= TOKEN_MAX)
                    return hr_error_set(err, HR_EPARSE, "--comfy-args: --reserve-vram needs a number of GB");
            }
            uint64_t bytes = 0;
            int pr = parse_gib(value, &bytes);
            if (pr < 0)
                return hr_error_set(err, pr, "--comfy-args: --reserve-vram '%s': expected a number of GB such as 1.5",
                                    value);
            out->reserve_vram_bytes = bytes;
            out->reserve_vram_given = true;
        } else {
            known = false;
        }
        if (known)
            out->flags_known++;
    }
    if (r == HR_EPARSE)
        return hr_error_set(err, HR_EPARSE, "--comfy-args: a quote is not closed");
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
    const struct { bool on; const char *name; } f[] = {
        {a->lowvram, "--lowvram"}, {a->novram, "--novram"}, {a->cpu, "--cpu"},
        {a->disable_smart_memory, "--disable-smart-memory"}, {a->highvram, "--highvram"},
        {a->gpu_only, "--gpu-only"}, {a->reserve_vram_given, "--reserve-vram"},
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
