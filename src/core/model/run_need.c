/* headroom — the one sizing rule (S1.1, S4.1): see run_need.h. */
#include "core/model/run_need.h"

#include "core/base/size.h"
#include "core/model/procs.h"

#include <string.h>

const char *hr_others_basis_name(hr_others_basis b)
{
    return b == HR_OTHERS_MEASURED    ? "measured"
           : b == HR_OTHERS_ALLOWANCE ? "allowance"
           : b == HR_OTHERS_IN_PEAK   ? "in-peak"
                                      : "outside-cgroup";
}

void hr_run_need_json_members(const hr_run_need *n, hr_json_writer *w)
{
    hr_json_u64(w, "low_bytes", n->low);
    hr_json_u64(w, "high_bytes", n->high);
    hr_json_u64(w, "others_bytes", n->others);
    hr_json_u64(w, "others_low_bytes", n->others_low);
    hr_json_u64(w, "others_high_bytes", n->others_high);
    hr_json_str(w, "others_basis", hr_others_basis_name(n->others_basis));
    hr_json_u64(w, "margin_bytes", n->margin);
    hr_json_u64(w, "margin_percent", HR_RUN_MARGIN_PERCENT);
    hr_json_u64(w, "fail_below_bytes", n->fail_below);
    hr_json_u64(w, "must_back_bytes", n->must_back);
}

void hr_run_need_make(hr_run_need *n, uint64_t low, uint64_t high, uint64_t others, hr_others_basis basis)
{
    memset(n, 0, sizeof *n);
    if (high == HR_UNKNOWN)
        return;
    if (low == HR_UNKNOWN || low > high)
        low = high;
    n->known = true;
    n->low = low;
    n->high = high;
    n->others = others == HR_UNKNOWN ? HR_RUN_OTHERS_ALLOWANCE_BYTES : others;
    n->others_basis = others == HR_UNKNOWN && basis == HR_OTHERS_MEASURED ? HR_OTHERS_ALLOWANCE : basis;
    n->others_low = n->others_high = n->others;
    if (n->others_basis == HR_OTHERS_ALLOWANCE) {
        n->others_low = HR_RUN_OTHERS_LEAN_BYTES < n->others ? HR_RUN_OTHERS_LEAN_BYTES : n->others;
        n->others_high = HR_RUN_OTHERS_BUSY_BYTES > n->others ? HR_RUN_OTHERS_BUSY_BYTES : n->others;
    }
    n->margin = high / 100 * HR_RUN_MARGIN_PERCENT + high % 100 * HR_RUN_MARGIN_PERCENT / 100;
    n->fail_below = hr_sat_add(low, n->others_low);
    n->must_back = hr_sat_add(hr_sat_add(high, n->others), n->margin);
    const uint64_t busy = hr_sat_add(high, n->others_high);
    if (n->must_back < busy)
        n->must_back = busy;
}

uint64_t hr_run_others_now(const hr_snapshot *s, hr_os os)
{
    if (!s)
        return HR_UNKNOWN;
    const bool enforced =
        os == HR_OS_WINDOWS || s->commit.overcommit_mode == HR_OVERCOMMIT_NEVER || s->commit.enforced == HR_TRI_YES;
    uint64_t now;
    if (enforced) {
        now = s->commit.charge_bytes;
    } else {
        if (s->ram.used_bytes == HR_UNKNOWN)
            return HR_UNKNOWN;
        now = s->ram.used_bytes;
        for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++)
            if (s->paging[i].kind != HR_PAGING_ZRAM && s->paging[i].used_bytes != HR_UNKNOWN)
                now = hr_sat_add(now, s->paging[i].used_bytes);
    }
    if (now == HR_UNKNOWN)
        return HR_UNKNOWN;
    /* A ComfyUI already running is the run itself, not another program. */
    for (int i = 0; i < s->procs.count && i < HR_MAX_PROCS; i++) {
        const hr_proc *pr = &s->procs.proc[i];
        const char *kind = hr_proc_kind(pr->name);
        if (!kind || strcmp(kind, "python") != 0)
            continue;
        uint64_t own = enforced ? pr->commit_bytes : pr->resident_bytes;
        if (own != HR_UNKNOWN)
            now = now > own ? now - own : 0;
    }
    return now;
}

bool hr_run_need_busy_sets(const hr_run_need *n)
{
    return n->known && n->others_high > n->others && n->must_back == hr_sat_add(n->high, n->others_high);
}

/* A swap area reads a page short of its file (the header), a paging file's MB are rounded:
 * 64 MB under a bound is the bound. */
static uint64_t with_tolerance(uint64_t capacity)
{
    return hr_sat_add(capacity, (uint64_t)64 << 20);
}

bool hr_run_below_high(const hr_run_need *n, uint64_t capacity)
{
    return n->known && capacity != HR_UNKNOWN && with_tolerance(capacity) < hr_sat_add(n->high, n->others);
}

hr_need_verdict hr_run_judge(const hr_run_need *n, uint64_t capacity)
{
    if (!n->known || capacity == HR_UNKNOWN)
        return HR_NEED_UNKNOWN;
    capacity = with_tolerance(capacity);
    if (capacity < n->fail_below)
        return HR_NEED_WILL_FAIL;
    if (capacity < n->must_back)
        return HR_NEED_AT_RISK;
    return HR_NEED_OK;
}

uint64_t hr_run_paging_bytes(const hr_run_need *n, uint64_t ram_part)
{
    if (!n->known)
        return 0;
    const uint64_t ram = ram_part == HR_UNKNOWN ? 0 : ram_part;
    const uint64_t need = n->must_back > ram ? n->must_back - ram : 0;
    return hr_sat_mul(hr_size_round_up_gib(need), HR_GIB);
}
