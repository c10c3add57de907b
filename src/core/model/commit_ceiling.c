#include "core/model/commit_ceiling.h"

#include "core/base/size.h"

#include <string.h>

static bool limited(uint64_t v)
{
    return v != HR_UNKNOWN && v != HR_UNLIMITED;
}

void hr_ceiling_facts_of(const hr_snapshot *s, hr_ceiling_facts *out)
{
    memset(out, 0, sizeof *out);
    out->os = s->platform.os;
    out->ram_bytes = s->ram.total_bytes;
    out->disk_paging_bytes = hr_snapshot_disk_paging_known(s);
    out->commit = s->commit;
    out->cgroup_memory_max_bytes = s->cgroup.memory_max_bytes;
    out->cgroup_swap_max_bytes = s->cgroup.swap_max_bytes;
    out->cgroup_memsw_max_bytes = s->cgroup.memsw_max_bytes;
}

static uint64_t ram_part(const hr_ceiling_facts *m, hr_os os, uint64_t ram_bytes)
{
    if (os != HR_OS_LINUX || !m || m->commit.overcommit_mode != HR_OVERCOMMIT_NEVER || ram_bytes == HR_UNKNOWN)
        return ram_bytes;
    if (m->commit.overcommit_kbytes != HR_UNKNOWN && m->commit.overcommit_kbytes)
        return hr_sat_mul(m->commit.overcommit_kbytes, 1024);
    uint64_t ratio = m->commit.overcommit_ratio != HR_UNKNOWN ? m->commit.overcommit_ratio : 50;
    return hr_sat_add(hr_sat_mul(ram_bytes / 100, ratio), ram_bytes % 100 * (ratio % 1000) / 100);
}

uint64_t hr_commit_ram_part(const hr_snapshot *s, hr_os os, uint64_t ram_bytes)
{
    hr_ceiling_facts m;
    if (s)
        hr_ceiling_facts_of(s, &m);
    return ram_part(s ? &m : NULL, os, ram_bytes);
}

static uint64_t cgroup_cap(const hr_ceiling_facts *m, uint64_t disk_swap)
{
    if (!m || m->os != HR_OS_LINUX)
        return HR_UNKNOWN;
    if (!limited(m->cgroup_memory_max_bytes))
        return HR_UNKNOWN;
    uint64_t sw = disk_swap == HR_UNKNOWN ? 0 : disk_swap;
    if (limited(m->cgroup_swap_max_bytes) && m->cgroup_swap_max_bytes < sw)
        sw = m->cgroup_swap_max_bytes;
    uint64_t cap = hr_sat_add(m->cgroup_memory_max_bytes, sw);
    if (limited(m->cgroup_memsw_max_bytes) && m->cgroup_memsw_max_bytes < cap)
        cap = m->cgroup_memsw_max_bytes;
    return cap;
}

uint64_t hr_cgroup_cap(const hr_snapshot *s, uint64_t disk_swap)
{
    hr_ceiling_facts m;
    if (s)
        hr_ceiling_facts_of(s, &m);
    return cgroup_cap(s ? &m : NULL, disk_swap);
}

void hr_ceiling_from(const hr_ceiling_facts *m, hr_os os, uint64_t ram_bytes, uint64_t disk_paging_bytes,
                     hr_ceiling *out)
{
    memset(out, 0, sizeof *out);
    out->bytes = out->machine_bytes = HR_UNKNOWN;
    const bool what_if = ram_bytes != HR_UNKNOWN || disk_paging_bytes != HR_UNKNOWN;
    const uint64_t ram = ram_bytes != HR_UNKNOWN ? ram_bytes : m ? m->ram_bytes : HR_UNKNOWN;
    const uint64_t disk = disk_paging_bytes != HR_UNKNOWN ? disk_paging_bytes : m ? m->disk_paging_bytes : HR_UNKNOWN;
    out->enforced = os == HR_OS_WINDOWS ||
                    (m && (m->commit.enforced == HR_TRI_YES || m->commit.overcommit_mode == HR_OVERCOMMIT_NEVER));
    if (out->enforced && !what_if && m && m->commit.limit_bytes != HR_UNKNOWN) {
        out->machine_bytes = m->commit.limit_bytes;
        out->basis = HR_CEILING_COMMIT_LIMIT;
    } else if (ram != HR_UNKNOWN && disk != HR_UNKNOWN) {
        out->machine_bytes = hr_sat_add(out->enforced ? ram_part(m, os, ram) : ram, disk);
        out->basis = out->enforced ? HR_CEILING_COMMIT_PARTS : HR_CEILING_RAM_SWAP;
    } else {
        return;
    }
    out->bytes = out->machine_bytes;
    uint64_t cap = os == HR_OS_LINUX ? cgroup_cap(m, disk) : HR_UNKNOWN;
    if (cap != HR_UNKNOWN && cap < out->bytes) {
        out->bytes = cap;
        out->basis = HR_CEILING_CGROUP;
    }
}

void hr_ceiling_compute(const hr_snapshot *s, hr_os os, uint64_t ram_bytes, uint64_t disk_paging_bytes, hr_ceiling *out)
{
    hr_ceiling_facts m;
    if (s)
        hr_ceiling_facts_of(s, &m);
    hr_ceiling_from(s ? &m : NULL, os, ram_bytes, disk_paging_bytes, out);
}
