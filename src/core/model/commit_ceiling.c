#include "core/model/commit_ceiling.h"

#include "core/base/size.h"

#include <string.h>

static bool limited(uint64_t v)
{
    return v != HR_UNKNOWN && v != HR_UNLIMITED;
}

uint64_t hr_commit_ram_part(const hr_snapshot *s, hr_os os, uint64_t ram_bytes)
{
    if (os != HR_OS_LINUX || !s || s->commit.overcommit_mode != HR_OVERCOMMIT_NEVER || ram_bytes == HR_UNKNOWN)
        return ram_bytes;
    if (s->commit.overcommit_kbytes != HR_UNKNOWN && s->commit.overcommit_kbytes)
        return hr_sat_mul(s->commit.overcommit_kbytes, 1024);
    uint64_t ratio = s->commit.overcommit_ratio != HR_UNKNOWN ? s->commit.overcommit_ratio : 50;
    return hr_sat_add(hr_sat_mul(ram_bytes / 100, ratio), ram_bytes % 100 * (ratio % 1000) / 100);
}

uint64_t hr_cgroup_cap(const hr_snapshot *s, uint64_t disk_swap)
{
    if (!s || s->platform.os != HR_OS_LINUX)
        return HR_UNKNOWN;
    const hr_cgroup *g = &s->cgroup;
    if (!limited(g->memory_max_bytes))
        return HR_UNKNOWN;
    uint64_t sw = disk_swap == HR_UNKNOWN ? 0 : disk_swap;
    if (limited(g->swap_max_bytes) && g->swap_max_bytes < sw)
        sw = g->swap_max_bytes;
    uint64_t cap = hr_sat_add(g->memory_max_bytes, sw);
    if (limited(g->memsw_max_bytes) && g->memsw_max_bytes < cap)
        cap = g->memsw_max_bytes;
    return cap;
}

void hr_ceiling_compute(const hr_snapshot *s, hr_os os, uint64_t ram_bytes, uint64_t disk_paging_bytes, hr_ceiling *out)
{
    memset(out, 0, sizeof *out);
    out->bytes = out->machine_bytes = HR_UNKNOWN;
    const bool what_if = ram_bytes != HR_UNKNOWN || disk_paging_bytes != HR_UNKNOWN;
    const uint64_t ram = ram_bytes != HR_UNKNOWN ? ram_bytes : s ? s->ram.total_bytes : HR_UNKNOWN;
    const uint64_t disk = disk_paging_bytes != HR_UNKNOWN ? disk_paging_bytes
                          : s                             ? hr_snapshot_disk_paging_known(s)
                                                          : HR_UNKNOWN;
    out->enforced = os == HR_OS_WINDOWS ||
                    (s && (s->commit.enforced == HR_TRI_YES || s->commit.overcommit_mode == HR_OVERCOMMIT_NEVER));
    if (out->enforced && !what_if && s && s->commit.limit_bytes != HR_UNKNOWN) {
        out->machine_bytes = s->commit.limit_bytes;
        out->basis = HR_CEILING_COMMIT_LIMIT;
    } else if (ram != HR_UNKNOWN && disk != HR_UNKNOWN) {
        out->machine_bytes = hr_sat_add(out->enforced ? hr_commit_ram_part(s, os, ram) : ram, disk);
        out->basis = out->enforced ? HR_CEILING_COMMIT_PARTS : HR_CEILING_RAM_SWAP;
    } else {
        return;
    }
    out->bytes = out->machine_bytes;
    uint64_t cap = os == HR_OS_LINUX ? hr_cgroup_cap(s, disk) : HR_UNKNOWN;
    if (cap != HR_UNKNOWN && cap < out->bytes) {
        out->bytes = cap;
        out->basis = HR_CEILING_CGROUP;
    }
}
