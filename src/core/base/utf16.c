#include "core/base/utf16.h"

#include "core/base/utf8.h"

static unsigned unit(const uint8_t *in, size_t i)
{
    return (unsigned)in[2 * i] | ((unsigned)in[2 * i + 1] << 8);
}

size_t hr_utf16le_to_utf8(const uint8_t *in, size_t n, char *out, size_t outsz, int *truncated)
{
    size_t w = 0;
    if (truncated)
        *truncated = 0;
    if (outsz == 0) {
        if (truncated && n)
            *truncated = 1;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = unit(in, i);
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
            unsigned lo = unit(in, i + 1);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i++;
            } else {
                cp = 0xfffd;
            }
        } else if (cp >= 0xd800 && cp <= 0xdfff) {
            cp = 0xfffd;
        }
        char tmp[4];
        size_t k = hr_utf8_encode(cp, tmp);
        if (w + k + 1 > outsz) {
            if (truncated)
                *truncated = 1;
            break;
        }
        for (size_t j = 0; j < k; j++)
            out[w++] = tmp[j];
    }
    out[w] = '\0';
    return w;
}

static size_t put_unit(unsigned u, uint8_t *out, size_t w, size_t outsz)
{
    if (w + 2 > outsz)
        return w;
    out[w] = (uint8_t)(u & 0xff);
    out[w + 1] = (uint8_t)(u >> 8);
    return w + 2;
}

size_t hr_utf8_to_utf16le(const char *in, size_t n, uint8_t *out, size_t outsz)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t i = 0, w = 0;
    while (i < n && w + 2 <= outsz) {
        size_t k = hr_utf8_valid_prefix(p + i, n - i);
        uint32_t cp;
        if (k == 0) {
            cp = 0xfffd;
            k = 1;
        } else if (k == 1) {
            cp = p[i];
        } else {
            cp = k == 2 ? (p[i] & 0x1fu) : k == 3 ? (p[i] & 0x0fu) : (p[i] & 0x07u);
            for (size_t j = 1; j < k; j++)
                cp = (cp << 6) | (p[i + j] & 0x3fu);
        }
        i += k;
        if (cp >= 0x10000) {
            if (w + 4 > outsz)
                break;
            cp -= 0x10000;
            w = put_unit(0xd800 + (cp >> 10), out, w, outsz);
            w = put_unit(0xdc00 + (cp & 0x3ff), out, w, outsz);
        } else {
            w = put_unit(cp, out, w, outsz);
        }
    }
    return w;
}
