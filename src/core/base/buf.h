/* headroom — a growable byte buffer with a hard size cap.
 *
 * Everything read from outside (files, logs, registry) lands in an hr_buf whose cap bounds
 * the memory a hostile input can make us use. Appends past the cap fail with HR_ETOOBIG
 * and leave the buffer as it was. The contents are always NUL-terminated.
 *
 * Errors are sticky: after the first failed append every later append fails with the same
 * code and changes nothing, and hr_buf_error() says so. A renderer can write a whole report
 * and check once at the end, and a report cut short can never pass for a complete one. */
#ifndef HR_BUF_H
#define HR_BUF_H

#include "core/base/error.h"

#include <stdarg.h>
#include <stddef.h>

typedef struct hr_buf {
    char *data; /* NUL-terminated; NULL until the first append */
    size_t len; /* bytes used, not counting the NUL */
    size_t cap; /* bytes allocated */
    size_t max; /* largest len allowed; 0 = HR_BUF_DEFAULT_MAX */
    int err;    /* first failed append (HR_ETOOBIG, HR_ENOMEM), 0 if none */
} hr_buf;

#define HR_BUF_DEFAULT_MAX ((size_t)64 << 20)

void hr_buf_init(hr_buf *b, size_t max);
void hr_buf_free(hr_buf *b);
void hr_buf_reset(hr_buf *b); /* len = 0 and no error; keeps the memory */
/* The first error any append met since init/reset, 0 if none. */
int hr_buf_error(const hr_buf *b);
/* Record an error found by a writer of this buffer (a renderer that cannot render something):
 * the first one sticks. Returns the buffer's error. */
int hr_buf_fail(hr_buf *b, int code);
int hr_buf_append(hr_buf *b, const void *p, size_t n);
int hr_buf_puts(hr_buf *b, const char *s);
int hr_buf_putc(hr_buf *b, char c);
HR_PRINTF(2, 3)
int hr_buf_printf(hr_buf *b, const char *fmt, ...);
HR_PRINTF(2, 0)
int hr_buf_vprintf(hr_buf *b, const char *fmt, va_list ap);
/* The data, or "" when empty; never NULL. */
const char *hr_buf_str(const hr_buf *b);

#endif
