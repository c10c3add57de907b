#include "core/base/buf.h"

#include "core/base/error.h"
#include "core/base/hot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

HR_START void hr_buf_init(hr_buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max ? max : HR_BUF_DEFAULT_MAX;
    b->err = 0;
}

HR_START void hr_buf_free(hr_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

HR_HOT void hr_buf_reset(hr_buf *b)
{
    b->len = 0;
    b->err = 0;
    if (b->data)
        b->data[0] = '\0';
}

HR_HOT int hr_buf_error(const hr_buf *b)
{
    return b->err;
}

int hr_buf_fail(hr_buf *b, int code)
{
    if (!b->err && code < 0)
        b->err = code;
    return b->err;
}

HR_HOT static int reserve(hr_buf *b, size_t extra)
{
    if (b->err)
        return b->err;
    size_t max = b->max ? b->max : HR_BUF_DEFAULT_MAX;
    if (extra > max || b->len > max - extra)
        return b->err = HR_ETOOBIG;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < need)
        ncap = ncap > ((size_t)-1) / 2 ? need : ncap * 2;
    char *p = realloc(b->data, ncap);
    if (!p)
        return b->err = HR_ENOMEM;
    b->data = p;
    b->cap = ncap;
    return 0;
}

HR_HOT int hr_buf_append(hr_buf *b, const void *p, size_t n)
{
    int r = reserve(b, n);
    if (r)
        return r;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

HR_HOT int hr_buf_puts(hr_buf *b, const char *s)
{
    return hr_buf_append(b, s, strlen(s));
}

HR_HOT int hr_buf_putc(hr_buf *b, char c)
{
    /* the common case without reserve(): room for the byte and the NUL, under the cap */
    if (!b->err && b->len + 2 <= b->cap && b->len < (b->max ? b->max : HR_BUF_DEFAULT_MAX)) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return 0;
    }
    return hr_buf_append(b, &c, 1);
}

HR_HOT int hr_buf_vprintf(hr_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    if (b->err)
        return b->err;
    size_t max = b->max ? b->max : HR_BUF_DEFAULT_MAX;
    if (b->data && b->cap > b->len + 1) {
        /* one pass when it fits in the room there is (the usual case of a reused buffer) */
        size_t room = b->cap - b->len;
        va_copy(ap2, ap);
        int n = vsnprintf(b->data + b->len, room, fmt, ap2);
        va_end(ap2);
        if (n >= 0 && (size_t)n < room && (size_t)n <= max - b->len) {
            b->len += (size_t)n;
            return 0;
        }
        b->data[b->len] = '\0'; /* as it was: the measured pass below decides */
    }
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return hr_buf_fail(b, HR_EINVAL);
    int r = reserve(b, (size_t)n);
    if (r)
        return r;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

HR_HOT int hr_buf_printf(hr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = hr_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return r;
}

HR_HOT const char *hr_buf_str(const hr_buf *b)
{
    return b->data ? b->data : "";
}
