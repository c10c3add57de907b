/* Paging file configuration: PagingFiles, ExistingPageFiles, TempPageFile, raw bytes; and the
 * crash dump settings (CrashControl: CrashDumpEnabled, DedicatedDumpFile), X.dump. */
#include "win_probes.h"

#include "core/model/pagingfiles.h"

static const wchar_t MM_KEY[] = L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management";
static const wchar_t CC_KEY[] = L"SYSTEM\\CurrentControlSet\\Control\\CrashControl";

static void read_value(HKEY k, const wchar_t *name, hr_win_regval *rv)
{
    DWORD type = 0, len = sizeof rv->data;
    LONG e = RegQueryValueExW(k, name, NULL, &type, rv->data, &len);
    if (e == ERROR_MORE_DATA) {
        rv->q.state = HR_WIN_FAILED;
        rv->q.code = (uint32_t)e; /* larger than 4 KB: not a value Windows writes */
        return;
    }
    hr_win_set_error(&rv->q, (DWORD)e);
    if (e == ERROR_SUCCESS) {
        rv->type = type;
        rv->len = len;
    }
}

void hr_win_probe_crash_control(hr_win_raw *raw)
{
    HKEY k;
    LONG e = RegOpenKeyExW(HKEY_LOCAL_MACHINE, CC_KEY, 0, KEY_QUERY_VALUE, &k);
    if (e != ERROR_SUCCESS) { /* no key: ABSENT, as for a value that is not there */
        hr_win_set_error(&raw->crash_dump_enabled.q, (DWORD)e);
        raw->dedicated_dump_file.q = raw->crash_dump_enabled.q;
        return;
    }
    read_value(k, L"CrashDumpEnabled", &raw->crash_dump_enabled);
    read_value(k, L"DedicatedDumpFile", &raw->dedicated_dump_file);
    RegCloseKey(k);
}

void hr_win_probe_registry(hr_win_raw *raw)
{
    hr_win_probe_crash_control(raw);
    HKEY k;
    LONG e = RegOpenKeyExW(HKEY_LOCAL_MACHINE, MM_KEY, 0, KEY_QUERY_VALUE, &k);
    if (e != ERROR_SUCCESS) {
        hr_win_set_error(&raw->paging_files.q, (DWORD)e);
        raw->existing_page_files.q = raw->paging_files.q;
        raw->temp_page_file.q = raw->paging_files.q;
        return;
    }
    read_value(k, L"PagingFiles", &raw->paging_files);
    read_value(k, L"ExistingPageFiles", &raw->existing_page_files);
    read_value(k, L"TempPageFile", &raw->temp_page_file);
    RegCloseKey(k);
}
