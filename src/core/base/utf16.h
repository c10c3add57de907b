/* headroom — UTF-16LE (Windows' wide strings, registry data) to UTF-8, as a pure function
 * over bytes so recorded registry values decode the same on every OS. */
#ifndef HR_UTF16_H
#define HR_UTF16_H

#include <stddef.h>
#include <stdint.h>

/* Decode n UTF-16LE code units from `in` (2*n bytes, any alignment) into out (size outsz,
 * always NUL-terminated when outsz > 0). Unpaired surrogates become U+FFFD. Stops at the
 * end or when out is full (never splits a character). Returns the bytes written, not
 * counting the NUL; *truncated (may be NULL) says whether something did not fit. */
size_t hr_utf16le_to_utf8(const uint8_t *in, size_t n, char *out, size_t outsz, int *truncated);

/* UTF-8 to UTF-16LE bytes (for building recorded registry values): writes at most outsz
 * bytes, no terminator; invalid UTF-8 bytes become U+FFFD. Returns the bytes written. */
size_t hr_utf8_to_utf16le(const char *in, size_t n, uint8_t *out, size_t outsz);

#endif
