/* RAM and commit from /proc/meminfo and vm.overcommit_* (S2.2). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/model/meminfo.h"
#include "core/model/psi.h"

void hr_lx_probe_memory(const char *sysroot, hr_snapshot *s)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_error err = { 0 };
    hr_meminfo mi;
    int r = hr_lx_read(sysroot, "/proc/meminfo", &b, HR_LX_BIG_FILE, &err);
    if (r == 0)
        r = hr_parse_meminfo(hr_buf_str(&b), b.len, "/proc/meminfo", &mi, &err);
    hr_buf_free(&b);
    if (r != 0) {
        hr_section_fail_error(&s->ram.s, &err);
        hr_section_fail_error(&s->commit.s, &err);
        return;
    }

    hr_section_ok(&s->ram.s, "/proc/meminfo");
    s->ram.total_bytes = mi.mem_total;
    s->ram.available_bytes = mi.mem_available;
    if (mi.mem_total == HR_UNKNOWN)
        hr_section_fail(&s->ram.s, HR_N("/proc/meminfo: MemTotal missing"));
    if (mi.mem_available == HR_UNKNOWN)
        hr_section_fail(&s->ram.s, HR_N("/proc/meminfo: MemAvailable missing (kernel older than 3.14)"));
    if (mi.mem_total != HR_UNKNOWN && mi.mem_available != HR_UNKNOWN)
        s->ram.used_bytes = mi.mem_available <= mi.mem_total ? mi.mem_total - mi.mem_available : 0;
    s->ram.compressed_bytes = mi.zswap;
    s->compression.zswap_pool_bytes = mi.zswap;
    s->compression.zswap_stored_bytes = mi.zswapped;

    hr_commit *c = &s->commit;
    hr_section_ok(&c->s, "/proc/meminfo, /proc/sys/vm/overcommit_*");
    c->charge_bytes = mi.committed_as;
    c->limit_bytes = mi.commit_limit;
    c->peak_bytes = HR_UNKNOWN; /* Linux keeps no commit peak */
    if (mi.committed_as == HR_UNKNOWN || mi.commit_limit == HR_UNKNOWN)
        hr_section_fail(&c->s, HR_N("/proc/meminfo: CommitLimit or Committed_AS missing"));

    unsigned long long mode, ratio, kbytes;
    if (hr_lx_read_u64(sysroot, "/proc/sys/vm/overcommit_memory", &mode) && mode <= 2) {
        c->overcommit_mode = (hr_overcommit)mode;
        /* Only mode 2 refuses allocations at CommitLimit; 0 and 1 end in the OOM killer. */
        c->enforced = mode == 2 ? HR_TRI_YES : HR_TRI_NO;
    } else {
        hr_section_fail(&c->s, HR_N("/proc/sys/vm/overcommit_memory: unreadable or not 0/1/2"));
    }
    if (hr_lx_read_u64(sysroot, "/proc/sys/vm/overcommit_ratio", &ratio))
        c->overcommit_ratio = ratio;
    if (hr_lx_read_u64(sysroot, "/proc/sys/vm/overcommit_kbytes", &kbytes))
        c->overcommit_kbytes = kbytes;
    /* what ends a run when the commit is not enforced: counted, for export */
    hr_buf vb;
    hr_buf_init(&vb, 0);
    hr_error verr = { 0 };
    uint64_t kills;
    if (hr_lx_read(sysroot, "/proc/vmstat", &vb, HR_LX_BIG_FILE, &verr) == 0 &&
        hr_kv_u64(hr_buf_str(&vb), vb.len, "oom_kill", ' ', &kills))
        c->oom_kills = kills;
    hr_buf_free(&vb);
}

/* Memory pressure (PSI): absent before Linux 4.20 or without CONFIG_PSI / psi=1, which is
 * said in why and is not a partial snapshot. */
void hr_lx_probe_pressure(const char *sysroot, hr_snapshot *s)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_SMALL_FILE);
    hr_error err = { 0 };
    int r = hr_lx_read(sysroot, "/proc/pressure/memory", &b, HR_LX_SMALL_FILE, &err);
    if (r == 0)
        r = hr_parse_psi(hr_buf_str(&b), b.len, "/proc/pressure/memory", &s->pressure.some, &s->pressure.full, &err);
    hr_buf_free(&b);
    if (r != 0)
        hr_section_fail_error(&s->pressure.s, &err);
    else
        hr_section_ok(&s->pressure.s, "/proc/pressure/memory");
}
