/* Paging files in use: EnumPageFilesW, else NtQuerySystemInformation(144, then 18). */
#include "win_probes.h"

#include <psapi.h>
#include <winternl.h>

#include <stdlib.h>
#include <string.h>

#define CLASS_PAGEFILE    18u
#define CLASS_PAGEFILE_EX 144u

typedef struct pf_info {
    ULONG NextEntryOffset;
    ULONG TotalSize;
    ULONG TotalInUse;
    ULONG PeakUsage;
    UNICODE_STRING PageFileName;
} pf_info;

typedef struct pf_info_ex {
    pf_info Info;
    ULONG MinimumSize;
    ULONG MaximumSize;
} pf_info_ex;

static BOOL CALLBACK on_pagefile(LPVOID ctx, PENUM_PAGE_FILE_INFORMATION info, LPCWSTR name)
{
    hr_win_raw *raw = ctx;
    if (raw->enum_count >= HR_WIN_MAX_PAGEFILES)
        return FALSE;
    hr_win_pagefile *f = &raw->enum_files[raw->enum_count++];
    hr_win_utf8(name ? name : L"", f->name, sizeof f->name);
    f->total_pages = info->TotalSize;
    f->in_use_pages = info->TotalInUse;
    f->peak_pages = info->PeakUsage;
    f->min_pages = f->max_pages = HR_UNKNOWN;
    return TRUE;
}

/* Copy a UNICODE_STRING that must point inside [buf, buf+len). */
static void copy_name(const UNICODE_STRING *us, const char *buf, ULONG len, char *out, size_t n)
{
    out[0] = '\0';
    const char *p = (const char *)us->Buffer;
    if (!p || p < buf || p + us->Length > buf + len || us->Length % 2)
        return;
    wchar_t tmp[HR_SNAP_PATH_MAX];
    size_t units = us->Length / 2 < HR_SNAP_PATH_MAX - 1 ? us->Length / 2 : HR_SNAP_PATH_MAX - 1;
    memcpy(tmp, p, units * 2);
    tmp[units] = 0;
    hr_win_utf8(tmp, out, n);
}

static void nt_pagefiles(hr_win_raw *raw)
{
    ULONG classes[2] = { CLASS_PAGEFILE_EX, CLASS_PAGEFILE };
    for (int c = 0; c < 2; c++) {
        void *buf = NULL;
        ULONG len = 0;
        LONG st = hr_win_nt_query_alloc(classes[c], &buf, &len);
        hr_win_set_ntstatus(&raw->nt_pf, st);
        raw->nt_pf_class = classes[c];
        if (st != 0)
            continue; /* 144 is Windows 8.1+; try 18 */
        size_t entry = classes[c] == CLASS_PAGEFILE_EX ? sizeof(pf_info_ex) : sizeof(pf_info);
        ULONG off = 0;
        raw->nt_count = 0;
        while (raw->nt_count < HR_WIN_MAX_PAGEFILES && (size_t)off + entry <= len) {
            const pf_info *pi = (const pf_info *)((const char *)buf + off);
            hr_win_pagefile *f = &raw->nt_files[raw->nt_count++];
            copy_name(&pi->PageFileName, buf, len, f->name, sizeof f->name);
            f->total_pages = pi->TotalSize;
            f->in_use_pages = pi->TotalInUse;
            f->peak_pages = pi->PeakUsage;
            if (classes[c] == CLASS_PAGEFILE_EX) {
                const pf_info_ex *px = (const pf_info_ex *)pi;
                f->min_pages = px->MinimumSize;
                f->max_pages = px->MaximumSize;
            }
            if (pi->NextEntryOffset == 0 || pi->NextEntryOffset > len - off)
                break;
            off += pi->NextEntryOffset;
        }
        free(buf);
        return;
    }
}

void hr_win_probe_pagefiles(hr_win_raw *raw)
{
    raw->enum_count = 0;
    /* Wine's stub returns FALSE without setting the last error: clear it first so that
     * FALSE + 0 reads as "not implemented". */
    SetLastError(0);
    if (EnumPageFilesW(on_pagefile, raw)) {
        raw->enum_pf.state = HR_WIN_OK;
        raw->enum_pf.code = 0;
        return;
    }
    DWORD e = GetLastError();
    raw->enum_count = 0;
    if (e == 0) {
        raw->enum_pf.state = HR_WIN_UNSUPPORTED;
        raw->enum_pf.code = 0;
    } else {
        hr_win_set_error(&raw->enum_pf, e);
    }
    nt_pagefiles(raw);
}
