/* headroom — the real ceiling: how much memory this machine can back before a run is killed
 * or an allocation fails (S1.1). One computation: `status` shows it (the "real ceiling" line,
 * real_ceiling_bytes) and `check` judges with it, now and with the plan applied.
 *
 * Where commit is enforced (Windows; Linux vm.overcommit_memory=2) it is the commit limit;
 * where the OOM killer decides (Linux modes 0 and 1) it is RAM + disk swap (zram is RAM
 * compressed, not a backstop: S5.3). A memory cgroup caps either: memory.max plus the swap it
 * may use (v2 memory.swap.max, never more than the disk swap there is; no swap limit file:
 * all of it), and v1 memory.memsw.limit_in_bytes (memory + swap). docs/rules.md: X.ceiling. */
#ifndef HR_COMMIT_CEILING_H
#define HR_COMMIT_CEILING_H

#include "core/model/snapshot.h"

#include <stdint.h>

typedef enum hr_ceiling_basis {
    HR_CEILING_UNKNOWN = 0,  /* a fact it needs could not be read */
    HR_CEILING_COMMIT_LIMIT, /* enforced: the commit limit the OS reports */
    HR_CEILING_COMMIT_PARTS, /* enforced: RAM's share + paging, computed (a what-if) */
    HR_CEILING_RAM_SWAP,     /* not enforced: RAM + disk swap */
    HR_CEILING_CGROUP        /* the memory cgroup's limit, below the machine's */
} hr_ceiling_basis;

typedef struct hr_ceiling {
    uint64_t bytes; /* HR_UNKNOWN when unknown */
    hr_ceiling_basis basis;
    uint64_t machine_bytes; /* before the cgroup cap; HR_UNKNOWN when unknown */
    bool enforced;          /* allocations fail at the limit (else the OOM killer acts) */
} hr_ceiling;

/* What the ceiling reads of a machine, taken from its snapshot once: the status report keeps
 * it, so that check judges its what-ifs (another RAM, paging file or OS) without the snapshot. */
typedef struct hr_ceiling_facts {
    hr_os os;                   /* the snapshot's: a memory cgroup caps Linux only */
    uint64_t ram_bytes;         /* RAM total */
    uint64_t disk_paging_bytes; /* hr_snapshot_disk_paging_known() */
    hr_commit commit;
    uint64_t cgroup_memory_max_bytes, cgroup_swap_max_bytes, cgroup_memsw_max_bytes;
} hr_ceiling_facts;

void hr_ceiling_facts_of(const hr_snapshot *s, hr_ceiling_facts *out);

/* The ceiling of the machine m describes, for OS os: as hr_ceiling_compute() below. m may be
 * NULL (a hypothetical machine): then both what-ifs must be given. */
void hr_ceiling_from(const hr_ceiling_facts *m, hr_os os, uint64_t ram_bytes, uint64_t disk_paging_bytes,
                     hr_ceiling *out);

/* The ceiling of the machine s describes, for OS os. What-ifs: ram_bytes and
 * disk_paging_bytes replace the snapshot's (HR_UNKNOWN: the snapshot's own); with either
 * given, an enforced limit is computed from its parts instead of read. s may be NULL (a
 * hypothetical machine): then both must be given. */
void hr_ceiling_compute(const hr_snapshot *s, hr_os os, uint64_t ram_bytes, uint64_t disk_paging_bytes,
                        hr_ceiling *out);

/* The part of the commit limit that RAM gives: all of it on Windows and in Linux modes 0/1;
 * overcommit_ratio % of it (or overcommit_kbytes) in Linux mode 2, as the kernel's
 * vm_commit_limit() computes it. s may be NULL (all of it). */
uint64_t hr_commit_ram_part(const hr_snapshot *s, hr_os os, uint64_t ram_bytes);

/* What the memory cgroup lets this process use with disk_swap bytes of swap on the machine;
 * HR_UNKNOWN when no limit applies (no cgroup, the root one, or "max"). */
uint64_t hr_cgroup_cap(const hr_snapshot *s, uint64_t disk_swap);

#endif
