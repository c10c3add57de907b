/* Test helper: the printf conversions of a message template, one letter each (the conversion
 * character itself: s, d, u, f ...), flags, widths, precisions and length modifiers skipped,
 * "%%" not counted. Tables of message rows compare it with the parameters a row says it takes,
 * in English and in each translation. Written apart from core/base/msg.c on purpose: a test
 * of a template must not share the code that reads it. */
#ifndef HR_TEST_FMT_CONVERSIONS_H
#define HR_TEST_FMT_CONVERSIONS_H

#include <stddef.h>
#include <string.h>

static inline void fmt_conversions(const char *t, char *out, size_t n)
{
    size_t k = 0;
    if (n == 0)
        return;
    for (; *t && k + 1 < n; t++) {
        if (*t != '%')
            continue;
        t++;
        if (*t == '%')
            continue;
        while (*t && strchr("-+ #0123456789.*hljzt", *t))
            t++;
        if (!*t)
            break;
        out[k++] = *t;
    }
    out[k] = '\0';
}

#endif
