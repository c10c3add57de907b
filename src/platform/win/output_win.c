/* headroom — Windows: the files written where the user says (platform.h: --log, --record,
 * --html, -o, --textfile). A reparse point (a symbolic link, a junction) at the path is
 * opened as itself (FILE_FLAG_OPEN_REPARSE_POINT), seen, and refused; never followed. */
#include "win_probes.h"

#include "platform/platform.h"

#include "core/base/i18n.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int win_err(hr_error *err, DWORD e, const char *path)
{
    int code = (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) ? HR_ENOENT
               : e == ERROR_ACCESS_DENIED                               ? HR_EACCES
                                                                        : HR_EIO;
    return hr_error_set(err, code, HR_T("%s: cannot write it (Windows error %lu)"), path, (unsigned long)e);
}

/* What an open handle is must be a plain disk file with one name. */
static int check_handle(HANDLE h, const char *path, bool stream, hr_error *err)
{
    BY_HANDLE_FILE_INFORMATION fi;
    if (!GetFileInformationByHandle(h, &fi))
        return win_err(err, GetLastError(), path);
    if (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is a symbolic link; not writing through it"), path);
    if ((fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) || GetFileType(h) != FILE_TYPE_DISK)
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s: not a regular file; not writing over it"), path);
    if (stream && fi.nNumberOfLinks > 1)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s has %lu names (hard links); not writing "
                                 "through it"),
                            path, (unsigned long)fi.nNumberOfLinks);
    return 0;
}

int hr_platform_output_replace(const char *path, const void *data, size_t len, hr_error *err)
{
    wchar_t *wp = hr_win_wide(path);
    if (!wp)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: not a valid UTF-8 path"), path);
    size_t n = wcslen(wp);
    size_t cut = n;
    while (cut > 0 && wp[cut - 1] != L'\\' && wp[cut - 1] != L'/' && wp[cut - 1] != L':')
        cut--;
    int r = 0;
    wchar_t *wt = malloc((n + 16) * sizeof *wt);
    if (!wt) {
        free(wp);
        return hr_error_set(err, HR_ENOMEM, "%s", hr_strerror(HR_ENOMEM));
    }
    HANDLE old = CreateFileW(wp, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                             OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (old != INVALID_HANDLE_VALUE) {
        r = check_handle(old, path, false, err);
        CloseHandle(old);
    }
    HANDLE h = INVALID_HANDLE_VALUE;
    for (unsigned tries = 0; r == 0 && tries < 100; tries++) {
        /* ".NAME.XXXXXX" beside it: a unique name, so two writers never share one */
        LARGE_INTEGER pc;
        QueryPerformanceCounter(&pc);
        unsigned long x = (unsigned long)(pc.QuadPart ^ ((LONGLONG)GetCurrentProcessId() << 16)) + tries * 7919u;
        wmemcpy(wt, wp, cut);
        swprintf(wt + cut, n - cut + 16, L".%ls.%06lx", wp + cut, x & 0xffffffUL);
        h = CreateFileW(wt, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (h != INVALID_HANDLE_VALUE)
            break;
        if (GetLastError() != ERROR_FILE_EXISTS && GetLastError() != ERROR_ALREADY_EXISTS)
            r = win_err(err, GetLastError(), path);
    }
    if (r == 0 && h == INVALID_HANDLE_VALUE)
        r = hr_error_set(err, HR_EEXIST, HR_T("%s: no free temporary name beside it"), path);
    if (r == 0) {
        DWORD w = 0;
        if (len && (!WriteFile(h, data, (DWORD)len, &w, NULL) || w != len))
            r = win_err(err, GetLastError(), path);
        else if (!FlushFileBuffers(h))
            r = win_err(err, GetLastError(), path);
        CloseHandle(h);
        if (r == 0 && !MoveFileExW(wt, wp, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            r = win_err(err, GetLastError(), path);
        if (r != 0)
            DeleteFileW(wt);
    }
    free(wt);
    free(wp);
    return r;
}

FILE *hr_platform_output_open(const char *path, hr_error *err)
{
    wchar_t *wp = hr_win_wide(path);
    if (!wp) {
        hr_error_set(err, HR_EINVAL, HR_T("%s: not a valid UTF-8 path"), path);
        return NULL;
    }
    /* OPEN_ALWAYS, not CREATE_ALWAYS: an existing file is emptied only once it is known to be
     * a plain file */
    HANDLE h = CreateFileW(wp, GENERIC_WRITE, FILE_SHARE_READ, NULL, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    free(wp);
    if (h == INVALID_HANDLE_VALUE) {
        win_err(err, GetLastError(), path);
        return NULL;
    }
    int r = check_handle(h, path, true, err);
    if (r == 0 && !SetEndOfFile(h))
        r = win_err(err, GetLastError(), path);
    if (r != 0) {
        CloseHandle(h);
        return NULL;
    }
    int fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        hr_error_set(err, HR_EIO, "%s: %s", path, hr_strerror(HR_EIO));
        return NULL;
    }
    FILE *f = _fdopen(fd, "wb");
    if (!f) {
        _close(fd);
        hr_error_set(err, HR_EIO, "%s: %s", path, hr_strerror(HR_EIO));
    }
    return f;
}
