#include "win_probes.h"

#include "core/base/utf16.h"

#include <stdlib.h>
#include <wchar.h>

#define STATUS_INFO_LENGTH_MISMATCH_ ((LONG)0xC0000004L)
#define STATUS_BUFFER_TOO_SMALL_     ((LONG)0xC0000023L)

void hr_win_utf8(const wchar_t *w, char *out, size_t n)
{
    /* wchar_t is UTF-16LE on Windows: the core's decoder gives the same bytes as on Linux. */
    hr_utf16le_to_utf8((const uint8_t *)w, wcslen(w), out, n, NULL);
}

wchar_t *hr_win_wide(const char *utf8)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, NULL, 0);
    if (n <= 0)
        return NULL;
    wchar_t *w = malloc((size_t)n * sizeof *w);
    if (w && MultiByteToWideChar(CP_UTF8, 0, utf8, -1, w, n) <= 0) {
        free(w);
        return NULL;
    }
    return w;
}

void hr_win_set_error(hr_win_call *c, DWORD err)
{
    c->code = (uint32_t)err;
    switch (err) {
    case ERROR_SUCCESS: c->state = HR_WIN_OK; break;
    case ERROR_ACCESS_DENIED:
    case ERROR_PRIVILEGE_NOT_HELD: c->state = HR_WIN_DENIED; break;
    case ERROR_CALL_NOT_IMPLEMENTED:
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION: c->state = HR_WIN_UNSUPPORTED; break;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_MOD_NOT_FOUND: c->state = HR_WIN_ABSENT; break;
    default: c->state = HR_WIN_FAILED; break;
    }
}

void hr_win_set_ntstatus(hr_win_call *c, LONG st)
{
    c->code = (uint32_t)st;
    switch ((uint32_t)st) {
    case 0: c->state = HR_WIN_OK; break;
    case 0xC0000002u: /* STATUS_NOT_IMPLEMENTED */
    case 0xC0000003u: /* STATUS_INVALID_INFO_CLASS */
    case 0xC00000BBu: /* STATUS_NOT_SUPPORTED */ c->state = HR_WIN_UNSUPPORTED; break;
    case 0xC0000022u: /* STATUS_ACCESS_DENIED */
    case 0xC0000061u: /* STATUS_PRIVILEGE_NOT_HELD */ c->state = HR_WIN_DENIED; break;
    default: c->state = HR_WIN_FAILED; break;
    }
}

void hr_win_set_hresult(hr_win_call *c, HRESULT hr)
{
    c->code = (uint32_t)hr;
    if (SUCCEEDED(hr))
        c->state = HR_WIN_OK;
    else if (hr == E_NOTIMPL || hr == (HRESULT)0x887A0004L /* DXGI_ERROR_UNSUPPORTED */)
        c->state = HR_WIN_UNSUPPORTED;
    else if (hr == E_ACCESSDENIED)
        c->state = HR_WIN_DENIED;
    else
        c->state = HR_WIN_FAILED;
}

hr_nt_query_fn hr_win_nt_query(void)
{
    static hr_nt_query_fn fn;
    static bool looked;
    if (!looked) {
        HMODULE nt = GetModuleHandleW(L"ntdll.dll");
        if (nt)
            fn = (hr_nt_query_fn)(void (*)(void))GetProcAddress(nt, "NtQuerySystemInformation");
        looked = true;
    }
    return fn;
}

LONG hr_win_nt_query_alloc(ULONG cls, void **out, ULONG *out_len)
{
    *out = NULL;
    *out_len = 0;
    hr_nt_query_fn q = hr_win_nt_query();
    if (!q)
        return (LONG)0xC0000002L;
    ULONG size = 0x4000;
    for (;;) {
        void *buf = malloc(size);
        if (!buf)
            return (LONG)0xC0000017L; /* STATUS_NO_MEMORY */
        ULONG ret = 0;
        LONG st = q(cls, buf, size, &ret);
        if (st == 0) {
            *out = buf;
            *out_len = ret && ret <= size ? ret : size;
            return 0;
        }
        free(buf);
        if ((st != STATUS_INFO_LENGTH_MISMATCH_ && st != STATUS_BUFFER_TOO_SMALL_) || size >= (16u << 20))
            return st;
        size = ret > size && ret < (16u << 20) ? ret + 0x1000 : size * 2;
    }
}
