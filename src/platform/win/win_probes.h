/* headroom — the thin Win32 layer: each probe calls Windows and copies the answers, as
 * given, into hr_win_raw (core/model/win_model.h). No judgement here: that is all in the core,
 * where recorded answers from real machines test it. */
#ifndef HR_WIN_PROBES_H
#define HR_WIN_PROBES_H

#include "core/model/win_model.h"
#include "platform/platform.h"

#include <windows.h>

/* Every probe, each failing alone. */
void hr_win_probe_all(const hr_probe_opts *opts, hr_win_raw *raw);

void hr_win_probe_os(hr_win_raw *raw);
void hr_win_probe_memory(hr_win_raw *raw);
void hr_win_probe_pagefiles(hr_win_raw *raw);
void hr_win_probe_registry(hr_win_raw *raw);
/* CrashControl only (CrashDumpEnabled, DedicatedDumpFile): part of the above, for apply. */
void hr_win_probe_crash_control(hr_win_raw *raw);
void hr_win_probe_volumes(hr_win_raw *raw);
void hr_win_probe_compression(hr_win_raw *raw);
void hr_win_probe_gpus(hr_win_raw *raw);
void hr_win_probe_power(hr_win_raw *raw);

/* Helpers (win_util.c). */
void hr_win_utf8(const wchar_t *w, char *out, size_t n); /* wide -> UTF-8 */
wchar_t *hr_win_wide(const char *utf8);                  /* malloc'd; NULL on failure */
/* Record a Win32 error code: ACCESS_DENIED -> denied, CALL_NOT_IMPLEMENTED/NOT_SUPPORTED ->
 * unsupported, FILE_NOT_FOUND -> absent, else failed. */
void hr_win_set_error(hr_win_call *c, DWORD err);
void hr_win_set_ntstatus(hr_win_call *c, LONG status);
void hr_win_set_hresult(hr_win_call *c, HRESULT hr);
/* ntdll!NtQuerySystemInformation, looked up once; NULL if missing. */
typedef LONG(NTAPI *hr_nt_query_fn)(ULONG cls, PVOID buf, ULONG len, PULONG ret);
hr_nt_query_fn hr_win_nt_query(void);
/* Query a variable-size class into a malloc'd buffer (doubling on length mismatch, at
 * most 16 MB). Returns the NTSTATUS; *buf is NULL unless it succeeded. */
LONG hr_win_nt_query_alloc(ULONG cls, void **buf, ULONG *len);
/* nvml.dll by full path (System32, then the NVSMI folder: no DLL planting); NULL if absent. */
HMODULE hr_win_load_nvml(void);

#endif
