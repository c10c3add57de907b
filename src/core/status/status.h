/* headroom — the status report: every judgement the `status` report shows, computed once
 * from a snapshot, so the text, JSON and Prometheus renderers print the same answer and call
 * no rule themselves.
 *
 * It holds numbers and enums, never prose: each renderer words them in its own format and
 * language. The raw facts status's renderers print as read (device names, sizes, sources)
 * stay in the snapshot the report points to, which must outlive it. check reads this report
 * and the plan's facts, never the snapshot: the few raw facts it shows or judges by are
 * copied here (the paging areas, what is configured, the processes, the ceiling's inputs). */
#ifndef HR_STATUS_H
#define HR_STATUS_H

#include "core/model/commit_ceiling.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

/* What status judges of one disk device (a swap area's or a volume's). */
typedef struct hr_status_device {
    hr_tri ssd;          /* a virtual disk's rotational flag says nothing of the host's medium */
    bool removable;      /* removable or USB: unplugging it crashes the system (S5.4) */
    bool slow_disk;      /* a spinning disk, not a virtual one: paging there is slow (S3.3) */
    double used_percent; /* of the file system, as df's Use%; < 0 when unknown */
} hr_status_device;

/* One paging file / swap area in use. */
typedef struct hr_status_paging {
    bool disk_backstop; /* zram is compressed RAM, not a disk backstop (S5.3) */
    hr_status_device device;
    char path[HR_SNAP_PATH_MAX]; /* as read */
    uint64_t size_bytes;         /* HR_UNKNOWN */
} hr_status_paging;

/* One paging file / swap area configured to exist (Windows PagingFiles, Linux /etc/fstab). */
typedef struct hr_status_configured {
    char path[HR_SNAP_PATH_MAX]; /* as written there */
    hr_paging_mode mode;
    uint64_t initial_bytes, maximum_bytes; /* HR_UNKNOWN */
} hr_status_configured;

typedef struct hr_status {
    const hr_snapshot *snap; /* the raw facts, printed as read */
    bool partial;            /* some source could not be read (exit status 3) */

    /* Tier 1: each GPU's free VRAM; HR_UNKNOWN when unknown. */
    uint64_t vram_available_bytes[HR_MAX_GPUS];
    /* Tier 3: every area in use together (zram too); tier_known false when one is unknown. */
    bool paging_tier_known;
    uint64_t paging_tier_total_bytes, paging_tier_used_bytes, paging_tier_free_bytes;
    uint64_t disk_paging_bytes; /* on disk only: zram not counted */

    /* The real ceiling and its basis: core/model/commit_ceiling.h (X.ceiling). */
    hr_ceiling ceiling;
    double commit_used_percent; /* charge / limit; < 0 when unknown */

    hr_status_paging paging[HR_MAX_PAGING];
    int paging_count;
    bool paging_read; /* the list of areas in use was read */
    hr_status_device volumes[HR_MAX_VOLUMES];
    /* The system drive's file system (the last volume marked so); HR_UNKNOWN when none. */
    uint64_t system_volume_total_bytes, system_volume_free_bytes;

    /* What is configured: its source was read, Windows "automatically manage", the entries. */
    bool configured_read;
    hr_tri configured_automatic;
    int configured_count;
    hr_status_configured configured[HR_MAX_PAGING_CONFIG];

    /* What the ceiling reads, for a what-if ceiling (hr_ceiling_from): RAM, disk paging, the
     * commit counters (charge, limit, overcommit), the cgroup's limits. */
    hr_ceiling_facts ceiling_facts;
    uint64_t ram_available_bytes; /* HR_UNKNOWN */

    /* The programs holding the most memory now, largest first, as read. */
    int proc_count;
    hr_proc procs[HR_MAX_PROCS];

    bool zswap_idle;       /* zswap on with no swap: it only caches pages on their way to swap */
    bool cgroup_below_ram; /* the cgroup's memory limit is below RAM: runs die there, whatever the swap */
    bool cgroup_no_swap;   /* memory.swap.max is 0: swap on the host does not help this cgroup */
    bool power_throttled;  /* on battery or power saver: CPU, GPU and paging throttled (S4.3) */
} hr_status;

/* Computes the report of snapshot s (which must outlive it) into out, calling each rule once. */
void hr_status_compute(const hr_snapshot *s, hr_status *out);

#endif
