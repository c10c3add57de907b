/* headroom — the snapshot: everything known about a machine's three memory tiers.
 *
 * A plain struct, filled by a platform backend (src/platform/<os>/) from the live machine or
 * a recorded /proc+/sys tree, or by the core from recorded Windows answers
 * (core/model/win_model.h, on any OS); read by the renderers
 * (status text and JSON), the rules engine (plan/check) and apply/verify. It holds no
 * pointers, so it can be copied, compared and zeroed freely.
 *
 * Unknown values: sizes are HR_UNKNOWN, signed values HR_UNKNOWN_I64, tri-state facts
 * HR_TRI_UNKNOWN; every section carries `why` saying what could not be read. A section with
 * `ok == false` makes the snapshot "partial" (exit status 3 in `status`). Never a silent 0. */
#ifndef HR_SNAPSHOT_H
#define HR_SNAPSHOT_H

#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/base/text.h"
#include "core/base/words.h"
#include "core/model/swap_verdict.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_SNAP_PATH_MAX   512
#define HR_SNAP_NAME_MAX   128
#define HR_SNAP_WHY_MAX    200
#define HR_SNAP_SOURCE_MAX 160

#define HR_MAX_PAGING        32 /* Linux: MAX_SWAPFILES is 32 at most; Windows: 16 paging files */
#define HR_MAX_PAGING_CONFIG 32
#define HR_MAX_VOLUMES       32
#define HR_MAX_ZRAM          16
#define HR_MAX_GPUS          16
#define HR_MAX_PROCS         16

typedef enum hr_tri { HR_TRI_UNKNOWN = -1, HR_TRI_NO = 0, HR_TRI_YES = 1 } hr_tri;

typedef enum hr_os { HR_OS_LINUX = 0, HR_OS_WINDOWS = 1 } hr_os;

/* Where a section's facts came from, and what went wrong if anything did. */
typedef struct hr_section {
    bool ok;         /* false: something in it is unknown (see why) */
    hr_words source; /* "/proc/meminfo", "GetPerformanceInfo" */
    hr_words why;    /* empty when ok */
} hr_section;

typedef struct hr_ram {
    hr_section s;
    uint64_t total_bytes;
    uint64_t available_bytes;
    uint64_t used_bytes;       /* total - available */
    uint64_t compressed_bytes; /* Windows memory-compression store / Linux zswap pool; HR_UNKNOWN if none */
} hr_ram;

typedef enum hr_overcommit {
    HR_OVERCOMMIT_UNKNOWN = -1,
    HR_OVERCOMMIT_HEURISTIC = 0, /* Linux mode 0 */
    HR_OVERCOMMIT_ALWAYS = 1,    /* Linux mode 1 */
    HR_OVERCOMMIT_NEVER = 2,     /* Linux mode 2: CommitLimit enforced */
    HR_OVERCOMMIT_NONE = 3       /* Windows: commit is always enforced, no overcommit */
} hr_overcommit;

typedef struct hr_commit {
    hr_section s;
    uint64_t charge_bytes; /* Committed_AS / CommitTotal */
    uint64_t limit_bytes;  /* CommitLimit */
    uint64_t peak_bytes;   /* Windows CommitPeak; HR_UNKNOWN on Linux (no such counter) */
    hr_tri enforced;       /* allocation fails at the limit (Windows; Linux mode 2) */
    hr_overcommit overcommit_mode;
    uint64_t overcommit_ratio;  /* percent; HR_UNKNOWN where n/a */
    uint64_t overcommit_kbytes; /* 0 = ratio in use */
    uint64_t oom_kills;         /* Linux /proc/vmstat oom_kill: processes the kernel's OOM
                                   * killer ended since boot, machine-wide (4.13+); HR_UNKNOWN */
} hr_commit;

typedef enum hr_paging_kind {
    HR_PAGING_FILE = 0,      /* Linux swap file */
    HR_PAGING_PARTITION = 1, /* Linux swap partition */
    HR_PAGING_ZRAM = 2,      /* Linux zram device: compression in RAM, not a disk backstop */
    HR_PAGING_PAGEFILE = 3,  /* Windows pagefile.sys */
    HR_PAGING_OTHER = 4
} hr_paging_kind;

/* Facts about the block device / volume under a paging area or a candidate location. */
typedef struct hr_device {
    char name[HR_SNAP_NAME_MAX]; /* "sda2", "nvme0n1p3", "dm-0", "C:" */
    char disk[HR_SNAP_NAME_MAX]; /* the whole disk under partitions / dm: "sda" */
    char fs_type[32];            /* file system holding a swap/paging file: "ext4", "NTFS" */
    char mount_point[HR_SNAP_PATH_MAX];
    hr_tri rotational; /* 1 = HDD (a hint: virtual disks often claim 1) */
    hr_tri removable;
    hr_tri usb;
    hr_tri encrypted;
    char encryption[32]; /* "dm-crypt LUKS2", "BitLocker" */
    bool virtual_disk;   /* virtio/xen/VM disk: "rotational" says nothing real */
    char bus[16];        /* Windows bus type: "NVMe", "SATA", "USB"; "" unknown */
    uint64_t fs_total_bytes;
    uint64_t fs_free_bytes; /* available to a user (df's Avail) */
    uint64_t fs_used_bytes; /* df's Used: total − free to root (reserved blocks, such as
                                       * ext4's 5 % for root, are neither); HR_UNKNOWN */
    hr_words why;           /* what could not be learnt */
} hr_device;

/* One paging file / swap area in use. */
typedef struct hr_paging {
    char path[HR_SNAP_PATH_MAX];
    hr_paging_kind kind;
    uint64_t size_bytes; /* usable size (Windows: allocated size) */
    uint64_t used_bytes;
    uint64_t peak_bytes; /* Windows only; HR_UNKNOWN elsewhere */
    int64_t priority;    /* Linux priority; HR_UNKNOWN_I64 on Windows */
    bool has_device;
    hr_device device;
} hr_paging;

/* How a paging file / swap area is configured to exist (Windows registry PagingFiles,
 * Linux /etc/fstab swap lines). */
typedef enum hr_paging_mode {
    HR_PAGING_MODE_CUSTOM = 0,         /* fixed initial/maximum */
    HR_PAGING_MODE_SYSTEM_MANAGED = 1, /* "C:\pagefile.sys 0 0" */
    HR_PAGING_MODE_AUTOMATIC = 2       /* "?:\pagefile.sys": all drives, automatic */
} hr_paging_mode;

typedef struct hr_paging_config_entry {
    char path[HR_SNAP_PATH_MAX];
    hr_paging_mode mode;
    uint64_t initial_bytes; /* HR_UNKNOWN for system managed / automatic / fstab */
    uint64_t maximum_bytes;
    int64_t priority; /* fstab pri=, else HR_UNKNOWN_I64 */
} hr_paging_config_entry;

typedef struct hr_paging_config {
    hr_section s; /* source: "registry PagingFiles", "/etc/fstab" */
    bool present; /* the source exists (value / file found) */
    int count;
    hr_paging_config_entry entries[HR_MAX_PAGING_CONFIG];
    hr_tri automatic;      /* Windows "automatically manage for all drives" */
    hr_tri temp_page_file; /* Windows TempPageFile: configured file could not be created */
    /* Windows CrashControl (X.dump): does a crash dump need a paging file on the system drive?
     * YES: dumps are on (CrashDumpEnabled 1, 2, 3 or 7) and no DedicatedDumpFile is set; NO:
     * dumps are off (0) or go to the dedicated file; UNKNOWN: not read (Linux, old recordings,
     * a value not there). */
    hr_tri dump_needs_system_paging;
    int64_t crash_dump_enabled;                 /* CrashDumpEnabled; HR_UNKNOWN_I64 when not read */
    char dedicated_dump_file[HR_SNAP_PATH_MAX]; /* DedicatedDumpFile; "" none */
    int existing_count;                         /* Windows ExistingPageFiles */
    char existing[HR_MAX_PAGING_CONFIG][HR_SNAP_PATH_MAX];
    hr_words notes; /* entries the OS ignores and why ("17th entry: at most 16") */
} hr_paging_config;

/* A volume that holds, or could hold, a paging file / swap file. */
typedef struct hr_volume {
    hr_device dev;  /* mount_point is the key: "C:\\", "/", "/data" */
    bool is_system; /* Windows system drive / Linux root file system */
    bool holds_paging;
    hr_tri can_hold_swap;    /* can hold a swap/paging file (core/model/swap_target.h) */
    hr_swap_verdict why_not; /* why it cannot (tmpfs, overlay, NFS, read-only...), as data */
    bool read_only;          /* mounted read-only */
    int fs_devices;          /* btrfs: devices the file system spans; 0 = not known */
} hr_volume;

typedef struct hr_zram {
    char name[32];            /* "zram0" */
    uint64_t disksize_bytes;  /* 0 = not initialised */
    uint64_t orig_data_bytes; /* data stored (uncompressed size) */
    uint64_t compr_data_bytes;
    uint64_t mem_used_bytes; /* RAM it takes */
    char algorithm[32];
    bool used_as_swap;
} hr_zram;

typedef struct hr_compression {
    hr_section s;
    /* Linux zswap */
    hr_tri zswap_enabled;
    char zswap_compressor[32];
    uint64_t zswap_max_pool_percent;
    uint64_t zswap_pool_bytes;   /* meminfo Zswap (compressed size) */
    uint64_t zswap_stored_bytes; /* meminfo Zswapped (original size) */
    int zram_count;
    hr_zram zram[HR_MAX_ZRAM];
    /* Windows memory compression */
    hr_tri windows_compression;
    uint64_t windows_store_bytes;
} hr_compression;

typedef enum hr_cgroup_version { HR_CGROUP_NONE = 0, HR_CGROUP_V1 = 1, HR_CGROUP_V2 = 2 } hr_cgroup_version;

typedef struct hr_cgroup {
    hr_section s;
    hr_cgroup_version memory_version; /* hierarchy the memory controller is on */
    bool hybrid;                      /* v1 controllers plus a "0::" line */
    char path[HR_SNAP_PATH_MAX];      /* cgroup path of the process */
    char dir[HR_SNAP_PATH_MAX];       /* where its files are (under the mount) */
    /* Effective limits: the minimum over the path to the root. HR_UNLIMITED when none. */
    uint64_t memory_max_bytes;  /* v2 memory.max / v1 memory.limit_in_bytes */
    uint64_t memory_high_bytes; /* v2 memory.high */
    uint64_t swap_max_bytes;    /* v2 memory.swap.max */
    uint64_t memsw_max_bytes;   /* v1 memory.memsw.limit_in_bytes (memory+swap) */
    uint64_t memory_current_bytes;
    uint64_t memory_peak_bytes; /* v2 memory.peak / v1 max_usage_in_bytes */
    uint64_t oom_kills;         /* memory.events oom_kill / oom_control oom_kill */
} hr_cgroup;

typedef struct hr_gpu {
    char name[HR_SNAP_NAME_MAX];
    char vendor[32];           /* "NVIDIA", "AMD", "Intel" */
    char source[64];           /* "NVML", "amdgpu sysfs", "DXGI" */
    uint64_t vram_total_bytes; /* dedicated */
    uint64_t vram_used_bytes;
    uint64_t shared_total_bytes; /* RAM it may take (GTT / DXGI shared) */
    uint64_t shared_used_bytes;
    hr_tri integrated;
    char driver[32]; /* the driver's version where NVML gives it ("560.94"), else "" */
    /* The VRAM python processes (maybe ComfyUI) hold on it, from the driver's per-process
     * figures (NVML, DRM fdinfo, Windows' GPU counters); 0 when none runs; HR_UNKNOWN when
     * they are not given or could not all be read. */
    uint64_t python_vram_bytes;
} hr_gpu;

typedef struct hr_gpus {
    hr_section s; /* "NVML not installed" is ok, and said in why */
    int count;
    hr_gpu gpu[HR_MAX_GPUS];
    hr_words notes; /* e.g. "NVML: libnvidia-ml.so.1 not installed" */
} hr_gpus;

typedef struct hr_power {
    hr_section s;
    hr_tri on_battery;
    hr_tri has_battery;
    uint64_t battery_percent; /* HR_UNKNOWN if no battery */
    hr_tri power_saver;
} hr_power;

/* Pressure stall information (Linux /proc/pressure/memory, or the cgroup's memory.pressure):
 * the share of time tasks waited for memory. "some": at least one task stalled; "full": all
 * non-idle tasks stalled at once. Averages are in hundredths of a percent (the kernel prints
 * two decimals), total in microseconds since boot. Windows has no such counter (s.ok false,
 * why says so). Not part of hr_snapshot_partial(): older kernels have no PSI. */
typedef struct hr_psi_line {
    bool present;
    uint32_t avg10_centi, avg60_centi, avg300_centi; /* 1234 = 12.34 % */
    uint64_t total_us;
} hr_psi_line;

typedef struct hr_pressure {
    hr_section s;
    hr_psi_line some, full;
} hr_pressure;

typedef struct hr_platform_info {
    hr_os os;
    hr_words os_name; /* "Linux 6.1.0-18-amd64", "Windows 10.0.19045" */
    hr_tri wsl2;      /* running inside WSL 2 */
    hr_tri container; /* inside a container (docker, podman, lxc) */
    char container_kind[32];
    uint64_t page_size;
    char system_volume[HR_SNAP_PATH_MAX]; /* "C:\\" or "/" */
} hr_platform_info;

/* A process holding memory now (for check: "close these"). */
typedef struct hr_proc {
    int64_t pid;
    char name[HR_SNAP_NAME_MAX];
    uint64_t resident_bytes;
    uint64_t commit_bytes; /* Windows private bytes; Linux VmSwap+RssAnon */
    int processes;         /* processes of this program folded into the line (0 = 1) */
} hr_proc;

typedef struct hr_procs {
    hr_section s;
    int count;
    hr_proc proc[HR_MAX_PROCS]; /* largest first */
    bool python_unlisted;       /* a python process (maybe ComfyUI) runs beyond the ones listed */
    /* Linux: the pids of the python processes, to ask the GPU driver what they hold; count -1
     * when there are more than HR_MAX_PYTHON_PIDS. */
#define HR_MAX_PYTHON_PIDS 32
    int64_t python_pid[HR_MAX_PYTHON_PIDS];
    int python_pid_count;
} hr_procs;

/* A fact worth flagging, with the rule it comes from (the guide's S-numbers, docs/rules.md):
 * "S1.2: paging file on C: is system-managed and C: is nearly full". Facts, not advice. */
#define HR_MAX_NOTES 12
typedef struct hr_note {
    char rule[8]; /* "S1.2" */
    hr_msg msg;   /* data: worded where shown (text: the user's language; JSON: English) */
} hr_note;

typedef struct hr_snapshot {
    hr_platform_info platform;
    hr_ram ram;
    hr_commit commit;
    hr_section paging_s; /* the in-use list as a whole */
    int paging_count;
    hr_paging paging[HR_MAX_PAGING];
    hr_paging_config paging_config;
    hr_section volumes_s;
    int volume_count;
    hr_volume volumes[HR_MAX_VOLUMES];
    hr_compression compression;
    hr_cgroup cgroup;
    hr_gpus gpus;
    hr_power power;
    hr_procs procs;
    hr_pressure pressure;
    int note_count;
    hr_note notes[HR_MAX_NOTES];
} hr_snapshot;

/* Every field unknown, every section not-yet-read. */
void hr_snapshot_init(hr_snapshot *s, hr_os os);
/* Every fact of a device unknown. */
void hr_device_init(hr_device *d);

/* Mark a section unknown with a reason (first reason wins; later ones are appended); fmt is
 * an English msgid, HR_N("..."), worded in every language (core/base/words.h). */
HR_PRINTF(2, 3)
void hr_section_fail(hr_section *s, const char *fmt, ...);
/* The same with an error's message as the reason. */
void hr_section_fail_error(hr_section *s, const hr_error *err);
/* Mark a section read; source is a name ("/proc/meminfo") or an English msgid. */
void hr_section_ok(hr_section *s, const char *source);

/* Add a note (dropped silently when the list is full); fmt is an English msgid, HR_N("..."),
 * kept with its values as an hr_msg. */
HR_PRINTF(3, 4)
void hr_snapshot_note(hr_snapshot *s, const char *rule, const char *fmt, ...);

/* True when any section that was probed is not ok. */
bool hr_snapshot_partial(const hr_snapshot *s);

/* Sum of all paging areas that are a disk backstop (files, partitions, pagefiles; not zram). */
uint64_t hr_snapshot_disk_paging_bytes(const hr_snapshot *s);
/* The same, or HR_UNKNOWN when the list of paging areas in use could not be read. */
uint64_t hr_snapshot_disk_paging_known(const hr_snapshot *s);

/* The JSON and Prometheus names ("partition", "system-managed"); marked for the catalogue, so
 * that text shows them translated with hr_tr(). */
const char *hr_paging_kind_name(hr_paging_kind k);
const char *hr_paging_mode_name(hr_paging_mode m);
const char *hr_tri_name(hr_tri t); /* "yes", "no", "unknown" */

#endif
