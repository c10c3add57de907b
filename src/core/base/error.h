/* headroom — error codes and error context.
 *
 * Every fallible function returns 0 or a negative HR_E* code. Functions that can say more
 * take an hr_error* and fill it with a one-line message that names the file or call and what
 * is wrong ("/proc/meminfo: line 3: number expected"). The library never exits and never
 * prints: the CLI decides what to show. */
#ifndef HR_ERROR_H
#define HR_ERROR_H

#include "core/base/i18n.h"

#include <stdarg.h>
#include <stddef.h>

/* printf-style checking. mingw-w64 builds use the C99-conforming stdio
 * (__USE_MINGW_ANSI_STDIO, set by CMake), whose format archetype is gnu_printf. */
#if defined(__MINGW32__)
#define HR_PRINTF(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#elif defined(__GNUC__)
#define HR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define HR_PRINTF(fmt, args)
#endif

/* One table: code, name, default message. */
#define HR_ERROR_TABLE(X)                                                                                              \
    X(HR_OK, 0, HR_N("ok"))                                                                                            \
    X(HR_EINVAL, -1, HR_N("invalid argument"))                                                                         \
    X(HR_ENOMEM, -2, HR_N("out of memory"))                                                                            \
    X(HR_ENOENT, -3, HR_N("not found"))                                                                                \
    X(HR_EACCES, -4, HR_N("permission denied"))                                                                        \
    X(HR_EIO, -5, HR_N("input/output error"))                                                                          \
    X(HR_EPARSE, -6, HR_N("malformed input"))                                                                          \
    X(HR_ETOOBIG, -7, HR_N("input larger than the limit"))                                                             \
    X(HR_ENOTSUP, -8, HR_N("not supported here"))                                                                      \
    X(HR_EPARTIAL, -9, HR_N("some sources could not be read"))                                                         \
    X(HR_EEXIST, -10, HR_N("already exists"))                                                                          \
    X(HR_EUNSAFE, -11, HR_N("refused: the change would be unsafe"))                                                    \
    X(HR_EBUSY, -12, HR_N("busy"))                                                                                     \
    X(HR_EPERM, -13, HR_N("needs administrator (root) rights"))                                                        \
    X(HR_ERANGE, -14, HR_N("value out of range"))                                                                      \
    X(HR_EINTERNAL, -15, HR_N("internal error"))

enum hr_error_code {
#define HR_X_ENUM(name, value, msg) name = value,
    HR_ERROR_TABLE(HR_X_ENUM)
#undef HR_X_ENUM
};

#define HR_ERROR_MSG_MAX 512

typedef struct hr_error {
    int code;                   /* 0 or a negative HR_E* */
    char msg[HR_ERROR_MSG_MAX]; /* one line, no trailing newline, in the user's language */
    /* The same in English (for JSON): the template's msgid with the same values. A value that
     * is itself worded text (another error's msg) stays as it was given. */
    char msg_en[HR_ERROR_MSG_MAX];
} hr_error;

/* Name ("HR_EPARSE") and default message of a code; never NULL. */
const char *hr_error_name(int code);
const char *hr_strerror(int code);
/* The default message as its English msgid (for an hr_msg that words it where shown). */
const char *hr_error_msgid(int code);

/* Fill err (may be NULL) with code and a printf-style message; returns code, so that
 * `return hr_error_set(err, HR_EPARSE, "%s: ...", path);` reads naturally. */
HR_PRINTF(3, 4)
int hr_error_set(hr_error *err, int code, const char *fmt, ...);
HR_PRINTF(3, 0)
int hr_error_vset(hr_error *err, int code, const char *fmt, va_list ap);
void hr_error_clear(hr_error *err);

/* Map a C errno value to an HR_E* code (the core does not know errno names; the caller
 * passes the number it got from the OS layer). */
int hr_error_from_errno(int errnum);

#endif
