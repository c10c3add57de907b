/* headroom — bounded reads of a file's head or tail (platform.h: headroom models / workflow),
 * written once for both OSes over what each OS gives (files_os.h: files_linux.c,
 * files_win.c). */
#include "platform/files_os.h"
#include "platform/platform.h"

#include "core/base/i18n.h"

#include <stdarg.h>
#include <stdlib.h>

int hr_os_file_failed(hr_error *err, hr_msg *why, int code, const hr_msg *m)
{
    char text[HR_ERROR_MSG_MAX];
    hr_msg_format(m, hr_lang_get(), text, sizeof text);
    if (why)
        *why = *m;
    return hr_error_set(err, code, "%s", text);
}

int hr_os_file_fail(hr_error *err, hr_msg *why, int code, const char *fmt, ...)
{
    hr_msg m;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&m, fmt, ap);
    va_end(ap);
    return hr_os_file_failed(err, why, code, &m);
}

/* path: the words of a code (out of memory), translated where shown */
static int code_fail(hr_error *err, hr_msg *why, int code, const char *path)
{
    hr_msg m;
    hr_msg_set(&m, "%s: %s", path, hr_error_msgid(code));
    hr_msg_translate_arg(&m, 1);
    return hr_os_file_failed(err, why, code, &m);
}

/* Read exactly n bytes at off and append them to b; a short file is HR_EIO. */
static int read_at(hr_os_file f, const char *path, uint64_t off, size_t n, hr_buf *b, hr_error *err, hr_msg *why)
{
    if (n == 0)
        return 0;
    char *tmp = malloc(n);
    if (!tmp)
        return code_fail(err, why, HR_ENOMEM, path);
    int r = hr_os_file_read(f, path, off, tmp, n, err, why);
    if (r == 0 && (r = hr_buf_append(b, tmp, n)) != 0)
        code_fail(err, why, r, path);
    free(tmp);
    return r;
}

/* Empty b, open path and say its size (to file_size too, when asked). */
static int open_file(const char *path, hr_buf *b, hr_os_file *f, uint64_t *size, uint64_t *file_size, hr_error *err,
                     hr_msg *why)
{
    hr_buf_reset(b);
    int r = hr_os_file_open(path, f, size, err, why);
    if (r == 0 && file_size)
        *file_size = *size;
    return r;
}

int hr_platform_read_head(const char *path, size_t max, hr_head_need_fn need, void *ctx, hr_buf *b, uint64_t *file_size,
                          hr_error *err, hr_msg *why)
{
    uint64_t size = 0;
    hr_os_file f = 0;
    int r = open_file(path, b, &f, &size, file_size, err, why);
    if (r != 0)
        return r;
    size_t want = need ? need(NULL, 0, size, ctx) : (size < max ? (size_t)size : max);
    while (want > b->len) {
        if (want > max) {
            r = hr_os_file_fail(err, why, HR_ETOOBIG, HR_N("%s: the header is larger than %llu bytes"), path,
                                (unsigned long long)max);
            break;
        }
        if ((uint64_t)want > size)
            want = (size_t)size; /* the reader sees the file end and says what is missing */
        if (want <= b->len)
            break;
        if ((r = read_at(f, path, b->len, want - b->len, b, err, why)) != 0)
            break;
        if (!need)
            break;
        want = need((const unsigned char *)b->data, b->len, size, ctx);
    }
    hr_os_file_close(f);
    return r;
}

FILE *hr_platform_read_open(const char *path, hr_error *err)
{
    uint64_t size = 0;
    hr_os_file f = 0;
    if (hr_os_file_open(path, &f, &size, err, NULL) != 0)
        return NULL;
    FILE *s = hr_os_file_stream(f);
    if (!s)
        code_fail(err, NULL, HR_ENOMEM, path);
    return s;
}

int hr_platform_read_tail(const char *path, size_t n, hr_buf *b, uint64_t *file_size, hr_error *err, hr_msg *why)
{
    uint64_t size = 0;
    hr_os_file f = 0;
    int r = open_file(path, b, &f, &size, file_size, err, why);
    if (r != 0)
        return r;
    if ((uint64_t)n > size)
        n = (size_t)size;
    r = read_at(f, path, size - n, n, b, err, why);
    hr_os_file_close(f);
    return r;
}
