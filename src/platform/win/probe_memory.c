/* OS version, system drive, GetPerformanceInfo, GlobalMemoryStatusEx. */
#include "win_probes.h"

#include <psapi.h>

typedef LONG(NTAPI *rtl_get_version_fn)(OSVERSIONINFOW *);

void hr_win_probe_os(hr_win_raw *raw)
{
    /* RtlGetVersion tells the truth; GetVersionEx lies to unmanifested programs. */
    HMODULE nt = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn get = nt ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(nt, "RtlGetVersion") : NULL;
    OSVERSIONINFOW v = { .dwOSVersionInfoSize = sizeof v };
    if (!get) {
        hr_win_set_error(&raw->os, ERROR_PROC_NOT_FOUND);
    } else {
        LONG st = get(&v);
        hr_win_set_ntstatus(&raw->os, st);
        if (st == 0) {
            raw->os_major = v.dwMajorVersion;
            raw->os_minor = v.dwMinorVersion;
            raw->os_build = v.dwBuildNumber;
        }
    }
    wchar_t win[MAX_PATH];
    UINT n = GetSystemWindowsDirectoryW(win, MAX_PATH);
    if (n >= 2 && n < MAX_PATH && win[1] == L':') {
        raw->system_drive[0] = (char)win[0];
        raw->system_drive[1] = ':';
        raw->system_drive[2] = '\0';
    }
}

void hr_win_probe_memory(hr_win_raw *raw)
{
    PERFORMANCE_INFORMATION pi;
    ZeroMemory(&pi, sizeof pi);
    pi.cb = sizeof pi;
    if (GetPerformanceInfo(&pi, sizeof pi)) {
        raw->perf.state = HR_WIN_OK;
        raw->commit_total_pages = pi.CommitTotal;
        raw->commit_limit_pages = pi.CommitLimit;
        raw->commit_peak_pages = pi.CommitPeak;
        raw->physical_total_pages = pi.PhysicalTotal;
        raw->physical_available_pages = pi.PhysicalAvailable;
        raw->page_size = pi.PageSize;
    } else {
        hr_win_set_error(&raw->perf, GetLastError());
        if (raw->perf.state == HR_WIN_OK)
            raw->perf.state = HR_WIN_FAILED;
    }

    MEMORYSTATUSEX ms;
    ZeroMemory(&ms, sizeof ms);
    ms.dwLength = sizeof ms;
    if (GlobalMemoryStatusEx(&ms)) {
        raw->mem.state = HR_WIN_OK;
        raw->total_phys = ms.ullTotalPhys;
        raw->avail_phys = ms.ullAvailPhys;
        raw->total_page_file = ms.ullTotalPageFile;
        raw->avail_page_file = ms.ullAvailPageFile;
        raw->memory_load = ms.dwMemoryLoad;
    } else {
        hr_win_set_error(&raw->mem, GetLastError());
        if (raw->mem.state == HR_WIN_OK)
            raw->mem.state = HR_WIN_FAILED;
    }
}
