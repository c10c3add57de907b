/* headroom — the Windows code pages console logs come in besides UTF-8 and UTF-16:
 * GBK / CP936 (Chinese Windows) and CP1252 (Western Windows).
 *
 * The tables are generated at build time from the host Python's codecs
 * (tools/gen-codepages.py → the build folder); the repository holds no third-party table. */
#ifndef HR_CODEPAGE_H
#define HR_CODEPAGE_H

#include <stdint.h>

extern const uint16_t hr_cp936_table[126 * 191];
extern const uint16_t hr_cp1252_table[128];

/* Unicode code point of a two-byte GBK character (lead 0x81..0xFE, trail 0x40..0xFE), or
 * 0xFFFD when GBK has none there. */
static inline uint32_t hr_gbk_lookup(unsigned lead, unsigned trail)
{
    if (lead < 0x81 || lead > 0xfe || trail < 0x40 || trail > 0xfe)
        return 0xFFFD;
    uint16_t v = hr_cp936_table[(lead - 0x81) * 191 + (trail - 0x40)];
    return v ? v : 0xFFFD;
}

/* Unicode code point of a CP1252 byte (ASCII as it is), 0xFFFD for the five holes. */
static inline uint32_t hr_cp1252_lookup(unsigned char b)
{
    if (b < 0x80)
        return b;
    uint16_t v = hr_cp1252_table[b - 0x80];
    return v ? v : 0xFFFD;
}

#endif
