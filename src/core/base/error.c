#include "core/base/error.h"

#include "core/base/msg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *hr_error_name(int code)
{
    switch (code) {
#define HR_X_NAME(name, value, msg)                                                                                    \
    case value: return #name;
        HR_ERROR_TABLE(HR_X_NAME)
#undef HR_X_NAME
    default: return "HR_EUNKNOWN";
    }
}

const char *hr_strerror(int code)
{
    switch (code) {
#define HR_X_MSG(name, value, msg)                                                                                     \
    case value: return hr_tr(msg);
        HR_ERROR_TABLE(HR_X_MSG)
#undef HR_X_MSG
    default: return HR_T("unknown error");
    }
}

const char *hr_error_msgid(int code)
{
    switch (code) {
#define HR_X_MSGID(name, value, msg)                                                                                   \
    case value: return msg;
        HR_ERROR_TABLE(HR_X_MSGID)
#undef HR_X_MSGID
    default: return HR_N("unknown error");
    }
}

int hr_error_vset(hr_error *err, int code, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    if (!fmt) {
        snprintf(err->msg, sizeof err->msg, "%s", hr_strerror(code));
        snprintf(err->msg_en, sizeof err->msg_en, "%s", hr_error_msgid(code));
        return code;
    }
    va_list again, again2;
    va_copy(again, ap);
    va_copy(again2, ap);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    if (hr_lang_get() != HR_LANG_ZH && hr_tr_msgid(fmt) == fmt) {
        /* not worded in Chinese: the English is the same text (a value that is a translation
         * comes only from a Chinese session) */
        snprintf(err->msg_en, sizeof err->msg_en, "%s", err->msg);
    } else {
        /* as a message, so that a value that is itself a translation (hr_strerror's words) is
         * worded in English too; one the message cannot hold whole is made with printf */
        hr_msg m;
        hr_msg_vset(&m, hr_tr_msgid(fmt), again);
        if (m.nargs < 0 || m.truncated ||
            hr_msg_format(&m, HR_LANG_EN, err->msg_en, sizeof err->msg_en) >= sizeof err->msg_en)
            vsnprintf(err->msg_en, sizeof err->msg_en, hr_tr_msgid(fmt), again2);
    }
    va_end(again);
    va_end(again2);
    /* Keep the message on one line whatever the inputs quoted into it. */
    for (int k = 0; k < 2; k++)
        for (char *p = k ? err->msg_en : err->msg; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    return code;
}

int hr_error_set(hr_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = hr_error_vset(err, code, fmt, ap);
    va_end(ap);
    return r;
}

void hr_error_clear(hr_error *err)
{
    if (err) {
        err->code = 0;
        err->msg[0] = err->msg_en[0] = '\0';
    }
}

int hr_error_from_errno(int errnum)
{
    switch (errnum) {
    case 0: return HR_OK;
    case ENOENT:
    case ENOTDIR: return HR_ENOENT;
    case EACCES: return HR_EACCES;
    case EPERM: return HR_EPERM;
    case ENOMEM: return HR_ENOMEM;
    case EEXIST: return HR_EEXIST;
    case EBUSY: return HR_EBUSY;
    case EINVAL: return HR_EINVAL;
    case ERANGE:
    case EFBIG: return HR_ERANGE;
#ifdef EOPNOTSUPP
    case EOPNOTSUPP: return HR_ENOTSUP;
#endif
#if defined(ENOTSUP) && (!defined(EOPNOTSUPP) || ENOTSUP != EOPNOTSUPP)
    case ENOTSUP: return HR_ENOTSUP;
#endif
    default: return HR_EIO;
    }
}
