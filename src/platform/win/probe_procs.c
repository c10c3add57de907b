#include "probe_procs.h"
#include "core/base/i18n.h"

#include "core/model/procs.h"

#include <windows.h>
#include <psapi.h>
#include <tlhelp32.h>

#include <stdio.h>

int hr_win_probe_procs(hr_procs *out)
{
    out->count = 0;
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE) {
        hr_section_fail(&out->s, HR_N("CreateToolhelp32Snapshot: error %lu"), (unsigned long)GetLastError());
        return HR_EIO;
    }
    PROCESSENTRY32W pe;
    pe.dwSize = sizeof pe;
    hr_proc_table t;
    hr_proc_table_init(&t);
    int seen = 0, denied = 0;
    if (Process32FirstW(snap, &pe)) {
        do {
            if (pe.th32ProcessID == 0)
                continue; /* System Idle Process */
            HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pe.th32ProcessID);
            if (!h) {
                denied++;
                continue;
            }
            PROCESS_MEMORY_COUNTERS_EX pmc;
            ZeroMemory(&pmc, sizeof pmc);
            pmc.cb = sizeof pmc;
            BOOL ok = GetProcessMemoryInfo(h, (PROCESS_MEMORY_COUNTERS *)&pmc, sizeof pmc);
            CloseHandle(h);
            if (!ok) {
                denied++;
                continue;
            }
            char name[HR_SNAP_NAME_MAX];
            int n = WideCharToMultiByte(CP_UTF8, 0, pe.szExeFile, -1, name, (int)sizeof name, NULL, NULL);
            if (n <= 1) /* no name (a process still starting), or not convertible */
                snprintf(name, sizeof name, "pid %lu", (unsigned long)pe.th32ProcessID);
            seen++;
            hr_proc_table_add(&t, name, (int64_t)pe.th32ProcessID, (uint64_t)pmc.WorkingSetSize,
                              (uint64_t)pmc.PrivateUsage);
        } while (Process32NextW(snap, &pe));
    }
    DWORD last = GetLastError();
    CloseHandle(snap);
    hr_proc_table_top(&t, out);
    hr_proc_table_free(&t);
    if (seen == 0) {
        hr_section_fail(&out->s, HR_N("Process32FirstW/NextW: no process could be read (error %lu)"),
                        (unsigned long)last);
        return HR_EPARTIAL;
    }
    hr_section_ok(&out->s, "Toolhelp32 + GetProcessMemoryInfo");
    if (denied)
        hr_section_fail(&out->s, HR_N("%d processes could not be opened (protected or other users'): not counted"),
                        denied);
    return 0;
}
