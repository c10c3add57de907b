#include "core/base/text.h"
#include "core/base/hot.h"
#include "core/base/i18n.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

HR_HOT bool hr_next_line(const char **cur, const char *end, const char **line, size_t *n)
{
    if (*cur >= end)
        return false;
    const char *p = *cur;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *line = p;
    if (nl) {
        *n = (size_t)(nl - p);
        *cur = nl + 1;
    } else {
        *n = (size_t)(end - p);
        *cur = end;
    }
    return true;
}

HR_HOT static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

HR_HOT static void trim_span(const char **s, size_t *n)
{
    while (*n && blank(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && blank((*s)[*n - 1]))
        (*n)--;
}

HR_HOT bool hr_parse_u64(const char *s, size_t n, uint64_t *out)
{
    trim_span(&s, &n);
    if (n == 0)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        /* v * 10 + d would pass UINT64_MAX (no division per digit) */
        if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

HR_HOT bool hr_parse_i64(const char *s, size_t n, int64_t *out)
{
    trim_span(&s, &n);
    bool neg = n && s[0] == '-';
    if (neg) {
        s++;
        n--;
    }
    uint64_t v;
    if (!hr_parse_u64(s, n, &v))
        return false;
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return true;
}

bool hr_parse_limit(const char *s, size_t n, uint64_t *out)
{
    trim_span(&s, &n);
    if (n == 3 && memcmp(s, "max", 3) == 0) {
        *out = HR_UNLIMITED;
        return true;
    }
    uint64_t v;
    if (!hr_parse_u64(s, n, &v))
        return false;
    /* cgroup v1 reports "no limit" as LONG_MAX rounded down to a page. */
    *out = v >= ((uint64_t)1 << 62) ? HR_UNLIMITED : v;
    return true;
}

HR_HOT bool hr_kv_find(const char *buf, size_t len, const char *key, char sep, char *out, size_t outn)
{
    const char *cur = buf, *end = buf + len, *line;
    size_t n, klen = strlen(key);
    while (hr_next_line(&cur, end, &line, &n)) {
        if (n <= klen || memcmp(line, key, klen) != 0)
            continue;
        char c = line[klen];
        if (sep == ' ' ? !(c == ' ' || c == '\t') : c != sep)
            continue;
        const char *v = line + klen + 1;
        size_t vn = n - klen - 1;
        trim_span(&v, &vn);
        if (outn == 0)
            return true;
        if (vn >= outn)
            vn = outn - 1;
        memcpy(out, v, vn);
        out[vn] = '\0';
        return true;
    }
    return false;
}

HR_HOT bool hr_kv_u64(const char *buf, size_t len, const char *key, char sep, uint64_t *out)
{
    char tmp[32];
    if (!hr_kv_find(buf, len, key, sep, tmp, sizeof tmp))
        return false;
    return hr_parse_u64(tmp, strlen(tmp), out);
}

char *hr_trim(char *s)
{
    size_t n = strlen(s);
    while (n && blank(s[n - 1]))
        s[--n] = '\0';
    char *p = s;
    while (*p && blank(*p))
        p++;
    if (p != s)
        memmove(s, p, strlen(p) + 1);
    return s;
}

static bool octal(char c, char hi)
{
    return c >= '0' && c <= hi;
}

void hr_unescape_octal(const char *src, size_t n, char *dst, size_t dstn)
{
    size_t o = 0;
    if (dstn == 0)
        return;
    for (size_t i = 0; i < n && o + 1 < dstn; i++) {
        if (src[i] == '\\' && i + 3 < n && octal(src[i + 1], '3') && octal(src[i + 2], '7') && octal(src[i + 3], '7')) {
            dst[o++] = (char)(((src[i + 1] - '0') << 6) | ((src[i + 2] - '0') << 3) | (src[i + 3] - '0'));
            i += 3;
        } else {
            dst[o++] = src[i];
        }
    }
    dst[o] = '\0';
}

void hr_bracketed_choice(const char *s, char *out, size_t outn)
{
    const char *l = strchr(s, '['), *r = l ? strchr(l, ']') : NULL;
    if (l && r) {
        size_t n = (size_t)(r - l - 1);
        if (n >= outn)
            n = outn ? outn - 1 : 0;
        if (outn) {
            memcpy(out, l + 1, n);
            out[n] = '\0';
        }
        return;
    }
    hr_strlcpy(out, s, outn);
    hr_trim(out);
}

HR_HOT void hr_strlcpy(char *dst, const char *src, unsigned long size)
{
    if (size == 0)
        return;
    size_t n = src ? strlen(src) : 0;
    if (n >= size)
        n = size - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

void hr_strlist_add(char *dst, unsigned long size, const char *item)
{
    hr_strlist_add_in(dst, size, item, hr_lang_get());
}

void hr_strlist_add_in(char *dst, unsigned long size, const char *item, hr_lang lang)
{
    size_t have = strlen(dst);
    if (have == 0)
        hr_strlcpy(dst, item, size);
    else {
        /* "; " in English, "；" in Chinese: the list reads as one sentence of either. */
        const char *sep = hr_tr_lang(lang, "; ");
        size_t sn = strlen(sep);
        if (have + sn + 1 < size) {
            memcpy(dst + have, sep, sn + 1);
            hr_strlcpy(dst + have + sn, item, size - have - sn);
        }
    }
}

bool hr_str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool hr_str_istarts(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return false;
    return true;
}

bool hr_str_icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

const char *hr_path_base(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return b;
}

char hr_drive_letter(const char *path)
{
    return path && isalpha((unsigned char)path[0]) && path[1] == ':' ? (char)toupper((unsigned char)path[0]) : 0;
}

bool hr_same_drive(const char *a, const char *b)
{
    char x = hr_drive_letter(a);
    return x && x == hr_drive_letter(b);
}

/* the length of a well-formed UTF-8 sequence at s (1..4), 0 when it is not one */
static size_t utf8_len(const unsigned char *s, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, v = c & 0x1fu;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, v = c & 0x0fu;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, v = c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))) || (n == 4 && (v < 0x10000 || v > 0x10ffff)))
        return 0;
    *cp = v;
    return n;
}

static bool steers(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061c;
}

size_t hr_text_one_line(char *s)
{
    size_t bad = 0;
    unsigned char *p = (unsigned char *)s;
    size_t w = 0, r = 0;
    while (p[r]) {
        uint32_t cp = 0;
        size_t n = utf8_len(p + r, &cp);
        if (n == 0 || steers(cp)) {
            p[w++] = '?';
            r += n ? n : 1;
            bad++;
            continue;
        }
        memmove(p + w, p + r, n);
        w += n;
        r += n;
    }
    p[w] = '\0';
    return bad;
}

const char *hr_text_shown(const char *s, char *dst, size_t n)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t w = 0;
    if (n == 0)
        return dst;
    while (*p) {
        uint32_t cp = 0;
        size_t k = utf8_len(p, &cp);
        char esc[16];
        const char *piece = (const char *)p;
        size_t len = k;
        if (k == 0 || cp < 0x20 || cp == 0x7f) {
            snprintf(esc, sizeof esc, "\\%03o", (unsigned)p[0]);
            piece = esc, len = 4, k = 1;
        } else if (steers(cp)) {
            snprintf(esc, sizeof esc, "\\u{%04X}", (unsigned)cp);
            piece = esc, len = strlen(esc);
        }
        if (w + len >= n)
            break;
        memcpy(dst + w, piece, len);
        w += len;
        p += k;
    }
    dst[w] = '\0';
    return dst;
}

int hr_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool hr_shell_quote(const char *s, char *out, unsigned long size)
{
    if (!size)
        return false;
    out[0] = '\0';
    bool plain = *s != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = isalnum((unsigned char)*c) || strchr("/._-+,:@%=", *c);
    unsigned long n = 0;
#define PUT(ch)                                                                                                        \
    do {                                                                                                               \
        if (n + 1 >= size) {                                                                                           \
            out[0] = '\0';                                                                                             \
            return false;                                                                                              \
        }                                                                                                              \
        out[n++] = (ch);                                                                                               \
    } while (0)
    if (!plain)
        PUT('\'');
    for (const char *c = s; *c; c++) {
        if (*c == '\'' && !plain) {
            PUT('\'');
            PUT('\\');
            PUT('\'');
        }
        PUT(*c);
    }
    if (!plain)
        PUT('\'');
#undef PUT
    out[n] = '\0';
    return true;
}

unsigned hr_edit_distance(const char *a, const char *b, unsigned max)
{
    const size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32)
        return max + 1;
    /* three rows of the optimal-string-alignment table: short words, on the stack */
    unsigned prev2[33], prev[33], cur[33];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            const int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            unsigned best = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
                prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        memcpy(prev2, prev, sizeof prev);
        memcpy(prev, cur, sizeof cur);
    }
    return prev[lb] > max ? max + 1 : prev[lb];
}
