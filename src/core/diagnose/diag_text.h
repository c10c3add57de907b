/* headroom — the small ASCII text helpers the diagnosis's parts share (internal).
 * static inline: they run on every line, in the hot loop of several files. */
#ifndef HR_DIAG_TEXT_H
#define HR_DIAG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static inline bool hr_diag_is_word(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static inline unsigned char hr_diag_lower(unsigned char ch)
{
    return (ch >= 'A' && ch <= 'Z') ? (unsigned char)(ch + 32) : ch;
}

/* Case-insensitive search for a lower-case needle; with word set, only as a whole word. */
static inline bool hr_diag_ci_find(const char *s, size_t n, const char *needle, bool word)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++) {
        size_t j = 0;
        while (j < k && hr_diag_lower((unsigned char)s[i + j]) == (unsigned char)needle[j])
            j++;
        if (j < k)
            continue;
        if (!word || ((i == 0 || !hr_diag_is_word((unsigned char)s[i - 1])) &&
                      (i + k == n || !hr_diag_is_word((unsigned char)s[i + k]))))
            return true;
    }
    return false;
}

#endif
