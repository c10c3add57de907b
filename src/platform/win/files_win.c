/* headroom — Windows: the file reads' OS part (files_os.h; the bounded head and tail reads are
 * platform/files.c), and a bounded folder walk (platform.h: headroom models / workflow). Paths
 * are UTF-8 outside, wide inside. Only disk files are read: a pipe, a console or a device is
 * refused before the first read. */
#include "platform/files_os.h"
#include "win_probes.h"
#include "core/base/i18n.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int hr_os_file_open(const char *path, hr_os_file *f, uint64_t *size, hr_error *err, hr_msg *why)
{
    wchar_t *w = hr_win_wide(path);
    if (!w)
        return hr_os_file_fail(err, why, HR_EINVAL, HR_N("%s: not a valid UTF-8 path"), path);
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        int code = (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) ? HR_ENOENT
                   : e == ERROR_ACCESS_DENIED                               ? HR_EACCES
                                                                            : HR_EIO;
        return hr_os_file_fail(err, why, code, HR_N("%s: cannot open it (Windows error %lu)"), path, (unsigned long)e);
    }
    BY_HANDLE_FILE_INFORMATION fi;
    if (GetFileType(h) != FILE_TYPE_DISK || !GetFileInformationByHandle(h, &fi) ||
        (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
        CloseHandle(h);
        return hr_os_file_fail(err, why, HR_EINVAL, HR_N("%s: not a regular file"), path);
    }
    *size = ((uint64_t)fi.nFileSizeHigh << 32) | fi.nFileSizeLow;
    *f = (hr_os_file)h;
    return 0;
}

int hr_os_file_read(hr_os_file f, const char *path, uint64_t off, char *dst, size_t n, hr_error *err, hr_msg *why)
{
    size_t got = 0;
    while (got < n) {
        OVERLAPPED ov;
        memset(&ov, 0, sizeof ov);
        uint64_t at = off + got;
        ov.Offset = (DWORD)(at & 0xffffffffu);
        ov.OffsetHigh = (DWORD)(at >> 32);
        DWORD want = (n - got) > 0x40000000u ? 0x40000000u : (DWORD)(n - got);
        DWORD k = 0;
        if (!ReadFile((HANDLE)f, dst + got, want, &k, &ov)) {
            DWORD e = GetLastError();
            return e == ERROR_HANDLE_EOF
                       ? hr_os_file_fail(err, why, HR_EIO, HR_N("%s: the file ended early (it changed while read)"),
                                         path)
                       : hr_os_file_fail(err, why, HR_EIO, HR_N("%s: read error (Windows error %lu)"), path,
                                         (unsigned long)e);
        }
        if (k == 0)
            return hr_os_file_fail(err, why, HR_EIO, HR_N("%s: the file ended early (it changed while read)"), path);
        got += k;
    }
    return 0;
}

void hr_os_file_close(hr_os_file f)
{
    CloseHandle((HANDLE)f);
}

FILE *hr_os_file_stream(hr_os_file f)
{
    int fd = _open_osfhandle((intptr_t)f, _O_RDONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle((HANDLE)f);
        return NULL;
    }
    FILE *s = _fdopen(fd, "rb");
    if (!s)
        _close(fd);
    return s;
}

static bool attrs(const char *path, WIN32_FILE_ATTRIBUTE_DATA *fa)
{
    wchar_t *w = hr_win_wide(path);
    if (!w)
        return false;
    BOOL ok = GetFileAttributesExW(w, GetFileExInfoStandard, fa);
    free(w);
    return ok != 0;
}

bool hr_platform_is_file(const char *path, uint64_t *size)
{
    WIN32_FILE_ATTRIBUTE_DATA fa;
    if (!attrs(path, &fa) || (fa.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
        return false;
    if (size)
        *size = ((uint64_t)fa.nFileSizeHigh << 32) | fa.nFileSizeLow;
    return true;
}

bool hr_platform_is_dir(const char *path)
{
    WIN32_FILE_ATTRIBUTE_DATA fa;
    return attrs(path, &fa) && (fa.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY);
}

typedef struct walk_state {
    hr_walk_fn fn;
    hr_walk_note_fn note;
    void *ctx;
    int max_depth;
    size_t max_files, files;
    bool stop;
    wchar_t root_final[4096]; /* the root's final path (links resolved), L"" if unknown */
} walk_state;

static void note(walk_state *w, hr_walk_note what, const char *path)
{
    if (w->note)
        w->note(what, path, w->ctx);
}

/* A folder's final path (junctions and links resolved); false when it cannot be opened. */
static bool final_path(const char *path, wchar_t *out, DWORD n)
{
    wchar_t *wp = hr_win_wide(path);
    if (!wp)
        return false;
    HANDLE h = CreateFileW(wp, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(wp);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    DWORD k = GetFinalPathNameByHandleW(h, out, n, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    CloseHandle(h);
    return k > 0 && k < n;
}

/* Is folder a (a final path) b itself or a folder above it? A drive's root is above all of
 * that drive. */
static bool at_or_above(const wchar_t *a, const wchar_t *b)
{
    size_t k = wcslen(a);
    while (k > 0 && a[k - 1] == L'\\')
        k--;
    return k > 0 && _wcsnicmp(a, b, k) == 0 && (b[k] == L'\0' || b[k] == L'\\');
}

/* A junction or folder link leading to the drive's root, to the walk's root or above it, or
 * to the folder it sits in or above: following it would walk the whole disk. */
static bool link_up(const walk_state *w, const char *dir, const char *path)
{
    wchar_t t[4096], d[4096];
    if (!final_path(path, t, 4096))
        return false;
    if (w->root_final[0] && at_or_above(t, w->root_final))
        return true;
    return final_path(dir, d, 4096) && at_or_above(t, d);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct entry {
    char *name;
    uint64_t size;
    bool dir;
    bool reparse;
} entry;

static int cmp_entry(const void *a, const void *b)
{
    return cmp_name(&((const entry *)a)->name, &((const entry *)b)->name);
}

static int walk_dir(walk_state *w, const char *dir, int depth, hr_error *err)
{
    char pat[4096];
    if ((size_t)snprintf(pat, sizeof pat, "%s\\*", dir) >= sizeof pat)
        return 0;
    wchar_t *wp = hr_win_wide(pat);
    if (!wp)
        return 0;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(wp, &fd);
    free(wp);
    if (h == INVALID_HANDLE_VALUE)
        return depth == 0 ? hr_error_set(err, HR_ENOENT, HR_T("%s: cannot list it"), dir) : 0;
    entry *v = NULL;
    size_t n = 0, cap = 0;
    int r = 0;
    do {
        char name[1024];
        hr_win_utf8(fd.cFileName, name, sizeof name);
        if (name[0] == '.' || (fd.dwFileAttributes & FILE_ATTRIBUTE_HIDDEN))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 32;
            if (nc > ((size_t)1 << 20)) {
                note(w, HR_WALK_STOPPED_ENTRIES, dir);
                r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: too many entries"), dir);
                break;
            }
            entry *p = realloc(v, nc * sizeof *v);
            if (!p) {
                r = hr_error_set(err, HR_ENOMEM, "%s: %s", dir, hr_strerror(HR_ENOMEM));
                break;
            }
            v = p;
            cap = nc;
        }
        v[n].name = strdup(name);
        if (!v[n].name) {
            r = hr_error_set(err, HR_ENOMEM, "%s: %s", dir, hr_strerror(HR_ENOMEM));
            break;
        }
        v[n].size = ((uint64_t)fd.nFileSizeHigh << 32) | fd.nFileSizeLow;
        v[n].dir = (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
        v[n].reparse = (fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
        n++;
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    if (r == 0 && n > 1)
        qsort(v, n, sizeof *v, cmp_entry);
    for (size_t i = 0; r == 0 && i < n && !w->stop; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s\\%s", dir, v[i].name) >= sizeof path)
            continue;
        if (v[i].dir) {
            /* a junction or folder link is followed, but never up (the whole disk); the depth
             * cap ends any other loop */
            if (v[i].reparse && link_up(w, dir, path)) {
                note(w, HR_WALK_LINK_UP, path);
                continue;
            }
            if (depth + 1 <= w->max_depth)
                r = walk_dir(w, path, depth + 1, err);
        } else {
            uint64_t size = v[i].size;
            if (v[i].reparse && !hr_platform_is_file(path, &size))
                continue;
            if (w->files >= w->max_files) {
                note(w, HR_WALK_STOPPED_FILES, dir);
                r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: more than %llu files"), dir,
                                 (unsigned long long)w->max_files);
                break;
            }
            w->files++;
            if (w->fn(path, size, depth, w->ctx) != 0)
                w->stop = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
    return r;
}

int hr_platform_walk(const char *root, int max_depth, size_t max_files, hr_walk_fn fn, hr_walk_note_fn note_fn,
                     void *ctx, hr_error *err)
{
    if (!hr_platform_is_dir(root))
        return hr_error_set(err, HR_ENOENT, HR_T("%s: not a directory"), root);
    walk_state w = { .fn = fn, .note = note_fn, .ctx = ctx, .max_depth = max_depth, .max_files = max_files };
    if (!final_path(root, w.root_final, 4096))
        w.root_final[0] = L'\0';
    char r0[4096];
    size_t len = strlen(root);
    if (len >= sizeof r0)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: path too long"), root);
    memcpy(r0, root, len + 1);
    while (len > 3 && (r0[len - 1] == '\\' || r0[len - 1] == '/'))
        r0[--len] = '\0';
    return walk_dir(&w, r0, 0, err);
}

const char *hr_platform_getenv(const char *name, char *out, size_t n)
{
    wchar_t *wn = hr_win_wide(name);
    if (!wn || !n) {
        free(wn);
        return NULL;
    }
    wchar_t buf[4096];
    DWORD k = GetEnvironmentVariableW(wn, buf, 4096);
    free(wn);
    if (k == 0 || k >= 4096)
        return NULL;
    hr_win_utf8(buf, out, n);
    return out;
}

char hr_platform_dirsep(void)
{
    return '\\';
}

bool hr_platform_cwd(char *out, size_t n)
{
    wchar_t buf[4096];
    DWORD k = GetCurrentDirectoryW(4096, buf);
    if (k == 0 || k >= 4096)
        return false;
    hr_win_utf8(buf, out, n);
    return true;
}
