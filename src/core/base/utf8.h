/* headroom — UTF-8 validation helpers shared by the JSON writer and the text renderers. */
#ifndef HR_UTF8_H
#define HR_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Length (1..4) of the valid UTF-8 sequence at p, or 0 if p does not start one. */
size_t hr_utf8_valid_prefix(const unsigned char *p, size_t n);

/* Write code point cp (<= U+10FFFF) as UTF-8 into out (room for 4 bytes); returns 1..4. */
size_t hr_utf8_encode(uint32_t cp, char *out);

/* Display width of a UTF-8 string in terminal columns: CJK wide characters count 2,
 * invalid bytes 1. Used to line up tables holding Chinese paths and names. */
size_t hr_utf8_width(const char *s);

/* ASCII that stands in for a symbol of headroom's own text ("—" "-", "→" "->", "×" "x", "…"
 * "...", curly quotes) where the text is written in a code page that lacks it (Windows output
 * to a file, in the console's code page); NULL when cp is none of them. */
const char *hr_utf8_ascii_fallback(uint32_t cp);

#endif
