/* Memory compression (S5.3): the "Memory Compression" process and its working set;
 * the store query where Windows answers it. */
#include "win_probes.h"

#include <winternl.h>

#include <stdlib.h>
#include <string.h>

#define CLASS_PROCESS             5u
#define CLASS_STORE               109u
#define STORE_MEMCOMPRESSION_INFO 22u

typedef struct store_info {
    ULONG Version;
    ULONG StoreInformationClass;
    PVOID Data;
    ULONG Length;
} store_info;

typedef struct store_compression_request {
    ULONG VersionAndSpare; /* Version:8 (3 = V1), Spare:24 */
    ULONG CompressionPid;
    ULONG WorkingSetSize;
    SIZE_T TotalDataCompressed;
    SIZE_T TotalCompressedSize;
    SIZE_T TotalUniqueDataCompressed;
} store_compression_request;

void hr_win_probe_compression(hr_win_raw *raw)
{
    void *buf = NULL;
    ULONG len = 0;
    LONG st = hr_win_nt_query_alloc(CLASS_PROCESS, &buf, &len);
    hr_win_set_ntstatus(&raw->procs, st);
    if (st == 0) {
        static const wchar_t name[] = L"Memory Compression";
        size_t name_bytes = sizeof name - sizeof name[0];
        ULONG off = 0;
        while ((size_t)off + sizeof(SYSTEM_PROCESS_INFORMATION) <= len) {
            const SYSTEM_PROCESS_INFORMATION *p = (const SYSTEM_PROCESS_INFORMATION *)((const char *)buf + off);
            const char *nb = (const char *)p->ImageName.Buffer;
            if (nb && p->ImageName.Length == name_bytes && nb >= (const char *)buf &&
                nb + name_bytes <= (const char *)buf + len &&
                _wcsnicmp(p->ImageName.Buffer, name, name_bytes / 2) == 0) {
                raw->compression_process = 1;
                raw->compression_working_set = p->VirtualMemoryCounters.WorkingSetSize;
                break;
            }
            if (p->NextEntryOffset == 0 || p->NextEntryOffset > len - off)
                break;
            off += p->NextEntryOffset;
        }
        free(buf);
    }

    hr_nt_query_fn q = hr_win_nt_query();
    if (!q) {
        raw->store.state = HR_WIN_UNSUPPORTED;
        return;
    }
    store_compression_request r;
    ZeroMemory(&r, sizeof r);
    r.VersionAndSpare = 3;
    store_info si = { 1, STORE_MEMCOMPRESSION_INFO, &r, (ULONG)sizeof r };
    st = q(CLASS_STORE, &si, sizeof si, NULL);
    hr_win_set_ntstatus(&raw->store, st);
    if (st == 0) {
        if (r.CompressionPid == 0) {
            raw->store.state = HR_WIN_ABSENT;
        } else {
            raw->store_working_set = r.WorkingSetSize;
            raw->store_data = r.TotalDataCompressed;
            raw->store_compressed = r.TotalCompressedSize;
        }
    }
}
