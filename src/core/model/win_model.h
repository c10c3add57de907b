/* headroom — Windows facts as Win32 answered them, and how they become a snapshot.
 *
 * The Windows backend is split in two: a thin part (src/platform/win/) that only calls
 * Win32 and copies the answers, unjudged, into hr_win_raw; and this OS-free part that turns
 * them into an hr_snapshot. The same raw answers can be recorded as JSON ("headroom.win-raw/1")
 * and replayed on any OS (`headroom status --replay FILE`), which is how real Windows machines
 * are tested on Linux and under Wine. Units are as Win32 gives them: pages where the API
 * counts pages, bytes where it counts bytes. */
#ifndef HR_WIN_MODEL_H
#define HR_WIN_MODEL_H

#include "core/base/error.h"
#include "core/base/json_writer.h"
#include "core/model/snapshot.h"

#include <stddef.h>
#include <stdint.h>

#define HR_WIN_RAW_SCHEMA    "headroom.win-raw/1"
#define HR_WIN_MAX_VOLUMES   26
#define HR_WIN_MAX_PAGEFILES 16
#define HR_WIN_REG_MAX       4096
#define HR_WIN_MAX_ADAPTERS  8

/* How a call went. */
typedef enum hr_win_state {
    HR_WIN_NOT_ASKED = 0, /* not queried (e.g. --no-gpu) or not recorded */
    HR_WIN_OK = 1,
    HR_WIN_FAILED = 2,      /* failed; code = GetLastError / NTSTATUS / HRESULT */
    HR_WIN_UNSUPPORTED = 3, /* exists but not implemented here (Wine stubs, old Windows) */
    HR_WIN_ABSENT = 4,      /* the value / DLL / device / process is not there */
    HR_WIN_DENIED = 5       /* needs administrator rights */
} hr_win_state;

typedef struct hr_win_call {
    hr_win_state state;
    uint32_t code;
} hr_win_call;

typedef struct hr_win_pagefile {
    char name[HR_SNAP_PATH_MAX]; /* as returned: "\??\C:\pagefile.sys" or "C:\pagefile.sys" */
    uint64_t total_pages, in_use_pages, peak_pages;
    uint64_t min_pages, max_pages; /* SystemPageFileInformationEx only; HR_UNKNOWN otherwise */
} hr_win_pagefile;

typedef struct hr_win_regval {
    hr_win_call q; /* ABSENT = value not there (ERROR_FILE_NOT_FOUND) */
    uint32_t type; /* HR_REG_* */
    size_t len;
    uint8_t data[HR_WIN_REG_MAX]; /* raw bytes as RegQueryValueExW returns them */
} hr_win_regval;

typedef struct hr_win_volume {
    char root[8];        /* "C:\" */
    uint32_t drive_type; /* GetDriveTypeW: 2 removable, 3 fixed, 4 remote, 5 cdrom, 6 ramdisk */
    hr_win_call space;   /* GetDiskFreeSpaceExW */
    uint64_t free_to_caller, total, total_free;
    hr_win_call info; /* GetVolumeInformationW */
    char fs[16];      /* "NTFS" */
    hr_win_call seek; /* IOCTL_STORAGE_QUERY_PROPERTY StorageDeviceSeekPenaltyProperty */
    int incurs_seek_penalty;
    hr_win_call device; /* ... StorageDeviceProperty */
    uint32_t bus_type;  /* STORAGE_BUS_TYPE */
    int removable_media;
    hr_win_call bitlocker; /* shell property System.Volume.BitLockerProtection */
    int32_t bitlocker_protection;
} hr_win_volume;

typedef struct hr_win_nvml_gpu {
    char name[HR_SNAP_NAME_MAX];
    uint64_t total, used, free; /* bytes */
} hr_win_nvml_gpu;

typedef struct hr_win_adapter {
    char description[HR_SNAP_NAME_MAX];
    uint32_t vendor_id, device_id, flags;
    uint64_t dedicated_video, dedicated_system, shared_system; /* bytes */
    uint32_t luid_high, luid_low; /* AdapterLuid: the GPU counters' instances name it (0: not read) */
} hr_win_adapter;

/* PDH's GPU memory counters (Windows 10 1709+), as given: the dedicated VRAM in use on each
 * adapter ("\GPU Adapter Memory(luid_*)\Dedicated Usage") and on it per process ("\GPU Process
 * Memory(pid_*_luid_*)\Dedicated Usage", with the process's executable name). */
#define HR_WIN_MAX_GPU_PROCS 128
typedef struct hr_win_gpu_use {
    uint32_t luid_high, luid_low;
    uint64_t dedicated_used; /* bytes */
} hr_win_gpu_use;
typedef struct hr_win_gpu_proc {
    uint32_t pid, luid_high, luid_low;
    uint64_t dedicated_used; /* bytes */
    char name[64];           /* the executable's name ("python.exe"); "" when it had exited */
} hr_win_gpu_proc;

typedef struct hr_win_raw {
    hr_win_call os; /* RtlGetVersion */
    uint32_t os_major, os_minor, os_build;
    char system_drive[8];               /* "C:" from %SystemDrive% / GetSystemWindowsDirectoryW */
    char machine_note[HR_SNAP_WHY_MAX]; /* free text from a recording ("Wine 8.0") */

    hr_win_call perf; /* GetPerformanceInfo; *_pages in pages, page_size bytes */
    uint64_t commit_total_pages, commit_limit_pages, commit_peak_pages;
    uint64_t physical_total_pages, physical_available_pages, page_size;

    hr_win_call mem; /* GlobalMemoryStatusEx; bytes */
    uint64_t total_phys, avail_phys, total_page_file, avail_page_file;
    uint32_t memory_load;

    hr_win_call enum_pf; /* EnumPageFilesW */
    int enum_count;
    hr_win_pagefile enum_files[HR_WIN_MAX_PAGEFILES];
    hr_win_call nt_pf; /* NtQuerySystemInformation 144, else 18 */
    uint32_t nt_pf_class;
    int nt_count;
    hr_win_pagefile nt_files[HR_WIN_MAX_PAGEFILES];

    hr_win_regval paging_files, existing_page_files, temp_page_file;
    /* HKLM\SYSTEM\CurrentControlSet\Control\CrashControl: whether and where a crash dump is
     * written (X.dump). NOT_ASKED in recordings made before they were read. */
    hr_win_regval crash_dump_enabled, dedicated_dump_file;

    int volume_count;
    hr_win_volume volumes[HR_WIN_MAX_VOLUMES];

    hr_win_call procs;       /* process list: is "Memory Compression" running */
    int compression_process; /* 1 found, 0 not */
    uint64_t compression_working_set;
    hr_win_call store; /* SystemStoreInformation / MemCompressionInfoRequest */
    uint64_t store_working_set, store_data, store_compressed;

    hr_win_call nvml; /* ABSENT = nvml.dll not found */
    char nvml_driver[32];
    int nvml_count;
    hr_win_nvml_gpu nvml_gpus[HR_MAX_GPUS];
    hr_win_call dxgi;
    int adapter_count;
    hr_win_adapter adapters[HR_WIN_MAX_ADAPTERS];
    hr_win_call gpu_pdh; /* PdhAddEnglishCounterW + PdhGetFormattedCounterArrayW (GPU memory) */
    int gpu_use_count;
    hr_win_gpu_use gpu_use[HR_WIN_MAX_ADAPTERS];
    int gpu_procs_listed; /* 1: the per-process counter was read in full into gpu_procs */
    int gpu_proc_count;
    hr_win_gpu_proc gpu_procs[HR_WIN_MAX_GPU_PROCS];

    hr_win_call power; /* GetSystemPowerStatus */
    uint32_t ac_line, battery_flag, battery_percent, system_status_flag;
    hr_win_call scheme; /* PowerGetActiveScheme */
    char scheme_guid[40];
} hr_win_raw;

/* Everything NOT_ASKED and unknown. */
void hr_win_raw_init(hr_win_raw *raw);

/* Turn raw answers into a snapshot (hr_snapshot_init included). Returns 0 when every
 * section is known, HR_EPARTIAL when some are unknown (with reasons). */
int hr_win_model_snapshot(const hr_win_raw *raw, hr_snapshot *out);

/* Recorded answers: load from / write to JSON (schema HR_WIN_RAW_SCHEMA). The loader is a
 * pure function over a bounded buffer; errors name the member ("volumes[1].space.total:
 * expected a non-negative integer"). */
int hr_win_raw_load_json(const char *buf, size_t len, hr_win_raw *raw, hr_error *err);
void hr_win_raw_write_json(const hr_win_raw *raw, hr_json_writer *w);

/* Load + convert in one go (what a backend does for --replay). */
int hr_win_replay(const char *buf, size_t len, hr_snapshot *out, hr_error *err);

/* CrashControl (X.dump) into cfg: crash_dump_enabled, dedicated_dump_file and
 * dump_needs_system_paging, from the two values raw holds; a value not read leaves them as
 * they were (unknown after hr_snapshot_init). The snapshot's model and apply's planner
 * (which reads only these values) read them through this one function. */
void hr_win_crash_control(const hr_win_raw *raw, hr_paging_config *cfg);

/* "ok", "failed", ... and back. */
const char *hr_win_state_name(hr_win_state s);

#endif
