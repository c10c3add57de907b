#include "exit_status.h"

#include "core/base/error.h"

#include <stddef.h>

int hr_exit_from_error(int code)
{
    switch (code) {
    case HR_OK: return HR_EXIT_OK;
    case HR_EPARTIAL: return HR_EXIT_PARTIAL;
    case HR_EINVAL:
    case HR_ERANGE: return HR_EXIT_USAGE;
    case HR_EPARSE:
    case HR_ETOOBIG: return HR_EXIT_INPUT;
    case HR_ENOENT: return HR_EXIT_NOINPUT;
    case HR_EUNSAFE:
    case HR_ENOTSUP: return HR_EXIT_UNAVAILABLE;
    case HR_EEXIST: return HR_EXIT_CANTCREATE;
    case HR_EIO: return HR_EXIT_IOERR;
    case HR_EBUSY: return HR_EXIT_TEMPFAIL;
    case HR_EPERM:
    case HR_EACCES: return HR_EXIT_NOPERM;
    default: return HR_EXIT_FAILURE;
    }
}

const char *hr_exit_meaning(int status)
{
    switch (status) {
#define HR_X_EXIT(name, value, meaning)                                                                                \
    case value: return meaning;
        HR_EXIT_TABLE(HR_X_EXIT)
#undef HR_X_EXIT
    }
    return NULL;
}
