#include "core/base/utf8.h"

#include <stdint.h>
#include <string.h>

size_t hr_utf8_valid_prefix(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    /* Reject overlong forms, surrogates and values past U+10FFFF. */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

size_t hr_utf8_encode(uint32_t cp, char *o)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static uint32_t decode(const unsigned char *p, size_t len)
{
    uint32_t cp = len == 1 ? p[0] : len == 2 ? (p[0] & 0x1fu) : len == 3 ? (p[0] & 0x0fu) : (p[0] & 0x07u);
    for (size_t i = 1; i < len; i++)
        cp = (cp << 6) | (p[i] & 0x3fu);
    return cp;
}

static int is_wide(uint32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
           (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
           (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

size_t hr_utf8_width(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), w = 0, i = 0;
    while (i < n) {
        size_t len = hr_utf8_valid_prefix(p + i, n - i);
        if (len == 0) {
            w++;
            i++;
            continue;
        }
        w += is_wide(decode(p + i, len)) ? 2 : 1;
        i += len;
    }
    return w;
}

const char *hr_utf8_ascii_fallback(uint32_t cp)
{
    switch (cp) {
    case 0x00a0: /* no-break space */
    case 0x2002:
    case 0x2003:
    case 0x2009:
    case 0x202f: return " ";
    case 0x2010: /* hyphens, dashes and the minus sign */
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
    case 0x2015:
    case 0x2212: return "-";
    case 0x2018:
    case 0x2019: return "'";
    case 0x201c:
    case 0x201d: return "\"";
    case 0x2026: return "...";
    case 0x2192: return "->";
    case 0x2190: return "<-";
    case 0x00d7: return "x";
    case 0x2248: return "~";
    case 0x2264: return "<=";
    case 0x2265: return ">=";
    case 0x2022:
    case 0x00b7: return "*";
    case 0x2713:
    case 0x2714: return "ok";
    case 0x2717:
    case 0x2718: return "x";
    default: return NULL;
    }
}
