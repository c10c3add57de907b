#include "core/model/pagingfiles.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/base/utf16.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MIB ((uint64_t)1 << 20)

int hr_reg_strings(const uint8_t *data, size_t len, uint32_t type, hr_reg_string_fn each, void *ctx)
{
    if (type != HR_REG_SZ && type != HR_REG_EXPAND_SZ && type != HR_REG_MULTI_SZ)
        return HR_EINVAL;
    size_t units = len / 2, i = 0;
    int count = 0;
    while (i < units) {
        size_t start = i;
        while (i < units && (data[2 * i] | data[2 * i + 1]) != 0)
            i++;
        size_t n = i - start;
        if (n == 0) /* the empty string that ends a list, or an empty REG_SZ */
            break;
        char s[HR_SNAP_PATH_MAX];
        hr_utf16le_to_utf8(data + 2 * start, n, s, sizeof s, NULL);
        if (each)
            each(ctx, count, s);
        count++;
        i++; /* skip the NUL */
        if (type != HR_REG_MULTI_SZ)
            break;
    }
    return count;
}

void hr_win_path_from_nt(char *path)
{
    if (strncmp(path, "\\??\\", 4) == 0 || strncmp(path, "\\\\?\\", 4) == 0)
        memmove(path, path + 4, strlen(path + 4) + 1);
}

const char *hr_win_path_shown(const char *path, char *dst, size_t n)
{
    hr_text_shown(path, dst, n);
    if (dst[0] >= 'a' && dst[0] <= 'z' && dst[1] == ':')
        dst[0] = (char)(dst[0] - 'a' + 'A');
    return dst;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* RtlUnicodeStringToInteger with base 0: optional sign, "0x"/"0o"/"0b" prefixes, else
 * decimal; stops at the first character that is not a digit of the base. */
static bool parse_number(const char **pp, uint64_t *out)
{
    const char *p = *pp;
    while (blank(*p))
        p++;
    bool neg = false;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
        base = 8;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    }
    uint64_t v = 0;
    int digits = 0;
    for (;; p++) {
        unsigned d;
        char c = (char)tolower((unsigned char)*p);
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else
            break;
        if (d >= base)
            break;
        if (v > (UINT64_MAX / MIB - d) / base)
            return false; /* more megabytes than fit in bytes */
        v = v * base + d;
        digits++;
    }
    if (!digits || neg)
        return false;
    *pp = p;
    *out = v;
    return true;
}

int hr_pagingfiles_parse_entry(const char *text, hr_paging_config_entry *e, hr_error *err)
{
    memset(e, 0, sizeof *e);
    e->initial_bytes = e->maximum_bytes = HR_UNKNOWN;
    e->priority = HR_UNKNOWN_I64;
    const char *p = text;
    while (blank(*p))
        p++;
    size_t n = 0;
    while (p[n] && !blank(p[n]))
        n++;
    if (n == 0)
        return hr_error_set(err, HR_EPARSE, HR_T("empty entry"));
    if (n >= sizeof e->path) /* never a cut path: apply would write it back */
        return hr_error_set(err, HR_EPARSE, HR_T("'%.40s...': the path is longer than %d bytes"), p,
                            (int)sizeof e->path - 1);
    memcpy(e->path, p, n);
    e->path[n] = '\0';
    hr_win_path_from_nt(e->path);
    /* A drive letter or '?:' first: without one there is no drive to put it on (and apply
     * could not tell which drive it keeps or replaces). */
    if (!(((e->path[0] >= 'A' && e->path[0] <= 'Z') || (e->path[0] >= 'a' && e->path[0] <= 'z') || e->path[0] == '?') &&
          e->path[1] == ':'))
        return hr_error_set(err, HR_EPARSE, HR_T("'%s' does not start with a drive letter"), e->path);
    const char *args = p + n;
    while (blank(*args))
        args++;
    bool any = false;
    for (const char *q = args; *q; q++)
        if (!blank(*q) && *q != '0')
            any = true;
    bool any_drive = e->path[0] == '?' && e->path[1] == ':';
    if (!any) {
        e->mode = any_drive ? HR_PAGING_MODE_AUTOMATIC : HR_PAGING_MODE_SYSTEM_MANAGED;
        return 0;
    }
    uint64_t lo, hi;
    const char *q = args;
    if (!parse_number(&q, &lo))
        return hr_error_set(err, HR_EPARSE, HR_T("'%s': initial size '%s' is not a number of MB"), text, args);
    /* smss takes the maximum from the text after the next blank; none means 0 (raised below). */
    const char *sp = args;
    while (*sp && !blank(*sp))
        sp++;
    while (blank(*sp))
        sp++;
    hi = 0;
    if (*sp) {
        q = sp;
        if (!parse_number(&q, &hi))
            return hr_error_set(err, HR_EPARSE, HR_T("'%s': maximum size '%s' is not a number of MB"), text, sp);
    }
    if (lo > hi)
        hi = lo; /* SmpValidatePagingFileSizes */
    e->mode = any_drive ? HR_PAGING_MODE_AUTOMATIC : HR_PAGING_MODE_CUSTOM;
    e->initial_bytes = lo * MIB;
    e->maximum_bytes = hi * MIB;
    return 0;
}

typedef struct parse_ctx {
    hr_paging_config *cfg;
    bool seen_any_drive;
    int ignored;
} parse_ctx;

HR_PRINTF(2, 3)
static void note(hr_paging_config *cfg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_words_vadd(&cfg->notes, fmt, ap);
    va_end(ap);
}

static void on_entry(void *vctx, int index, const char *s)
{
    parse_ctx *c = vctx;
    hr_paging_config *cfg = c->cfg;
    hr_paging_config_entry e;
    hr_error err = { 0 };
    if (hr_pagingfiles_parse_entry(s, &e, &err) != 0) {
        /* the parser's reason, in English and in the language it was made in */
        for (int i = 0; i < 2; i++) {
            hr_lang lang = i ? HR_LANG_ZH : HR_LANG_EN;
            char one[HR_ERROR_MSG_MAX + 64];
            snprintf(one, sizeof one, hr_tr_lang(lang, HR_N("entry %d ignored: %s")), index + 1,
                     i ? err.msg : err.msg_en);
            hr_words_add_in(&cfg->notes, lang, one);
        }
        return;
    }
    if (cfg->count >= HR_WIN_MAX_PAGING_FILES || cfg->count >= HR_MAX_PAGING_CONFIG) {
        note(cfg, HR_N("entry '%s' ignored: Windows uses at most %d paging files"), s, HR_WIN_MAX_PAGING_FILES);
        return;
    }
    if (e.mode == HR_PAGING_MODE_AUTOMATIC) {
        if (c->seen_any_drive) {
            note(cfg, HR_N("entry '%s' ignored: a second '?:' entry is a duplicate"), s);
            return;
        }
        c->seen_any_drive = true;
    }
    cfg->entries[cfg->count++] = e;
}

int hr_pagingfiles_parse(const uint8_t *data, size_t len, uint32_t type, hr_paging_config *cfg, hr_error *err)
{
    cfg->count = 0;
    hr_words_clear(&cfg->notes);
    parse_ctx c = { .cfg = cfg };
    int n = hr_reg_strings(data, len, type, on_entry, &c);
    if (n < 0)
        return hr_error_set(err, HR_EINVAL, HR_T("PagingFiles has registry type %u, not a string list"),
                            (unsigned)type);
    cfg->present = true;
    cfg->automatic = c.seen_any_drive ? HR_TRI_YES : HR_TRI_NO;
    return 0;
}

static void on_existing(void *vctx, int index, const char *s)
{
    (void)index;
    hr_paging_config *cfg = vctx;
    if (cfg->existing_count >= HR_MAX_PAGING_CONFIG)
        return;
    char *dst = cfg->existing[cfg->existing_count++];
    hr_strlcpy(dst, s, HR_SNAP_PATH_MAX);
    hr_win_path_from_nt(dst);
}

int hr_existing_pagefiles_parse(const uint8_t *data, size_t len, uint32_t type, hr_paging_config *cfg, hr_error *err)
{
    cfg->existing_count = 0;
    if (hr_reg_strings(data, len, type, on_existing, cfg) < 0)
        return hr_error_set(err, HR_EINVAL, HR_T("ExistingPageFiles has registry type %u, not a string list"),
                            (unsigned)type);
    return 0;
}
