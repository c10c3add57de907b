/* headroom — a deliberately tiny GBK → Unicode map.
 *
 * Chinese Windows consoles write GBK (code page 936) when a tool's output is redirected to a
 * file. headroom does not carry a full GBK table (no third-party tables in the repo); it only
 * needs to recognise the few Chinese phrases the diagnosis matches ("页面文件太小", "已杀死",
 * "按任意键继续", ...). This map holds exactly the characters of those phrases (plus the
 * full-width comma and full stop that end them). The codes are the characters' GB2312
 * positions, which GBK keeps unchanged; every other double-byte character decodes to U+FFFD. */
#ifndef HR_GBK_MIN_H
#define HR_GBK_MIN_H

#include <stdint.h>

/* Unicode code point of the two-byte GBK character (lead << 8 | trail), or 0xFFFD. */
uint32_t hr_gbk_min_lookup(unsigned lead, unsigned trail);

#endif
