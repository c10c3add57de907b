/* Windows' automatically managed paging file may grow to 3 × RAM (at least 4 GB), at most an
 * eighth of the system volume and what is free on it (docs/rules.md, S1.2): a run that would
 * fail now is AT RISK, not WILL FAIL, when RAM plus that growth reaches the WILL FAIL line.
 * Each cap's edge is found by walking one size (RAM and free space in 1/8 GB steps, the
 * volume in 1 GB steps) while the other caps are far away: the WILL FAIL line is the same
 * whichever cap binds, so RAM + the growth at each edge must be that one line. */
#include "core/check/check.h"
#include "plan_snap.h"
#include "test.h"

#define EIGHTH ((uint64_t)1 << 27)

/* SDXL on an auto-managed machine: ram of RAM, a C: of total and free, the automatic file
 * 2 GB now; commit limit RAM + 2 GB. Returns the verdict; *rescued when it is the S1.2 one. */
static hr_check_verdict verdict_of(uint64_t ram, uint64_t total, uint64_t free_b, bool *rescued)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, ram);
    hr_volume *c = snap_volume(s, "C:\\", "NTFS", 1, total, free_b, true);
    snap_gpu(s, "NVIDIA GeForce RTX 4060", GB(8), false);
    snap_paging(s, "C:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(2), c);
    s->paging_config.automatic = HR_TRI_YES;
    snap_config(s, "?:\\pagefile.sys", HR_PAGING_MODE_AUTOMATIC, HR_UNKNOWN, HR_UNKNOWN);
    hr_section_ok(&s->commit.s, "test");
    s->commit.limit_bytes = ram + GB(2);
    s->commit.charge_bytes = ram / 4;
    s->commit.enforced = HR_TRI_YES;
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    hr_plan *p = plan_run(s, &in);
    hr_check *ck = calloc(1, sizeof *ck);
    hr_check_compute(s, &in, p, ck);
    const hr_check_verdict v = ck->verdict;
    *rescued = v == HR_VERDICT_AT_RISK && strcmp(ck->verdict_rule, "S1.2") == 0;
    /* below the line either way: the rescue is all that can move it */
    CHECK(v == HR_VERDICT_WILL_FAIL || *rescued);
    free(ck);
    free(p);
    free(s);
    return v;
}

/* The smallest value of one size, from lo in steps of step up to hi, at which the run is
 * rescued; 0 when none is. which: 0 RAM, 1 the volume's size, 2 its free space. */
static uint64_t edge(int which, uint64_t lo, uint64_t hi, uint64_t step)
{
    for (uint64_t x = lo; x <= hi; x += step) {
        bool rescued;
        verdict_of(which == 0 ? x : GB(12), which == 1 ? x : GB(4000),
                   which == 2   ? x
                   : which == 1 ? x
                                : GB(2000),
                   &rescued);
        if (rescued)
            return x;
    }
    return 0;
}

int main(void)
{
    /* 12 GB of RAM (3 × = 36 GB of growth): the free space caps it, then the volume's eighth. */
    const uint64_t by_free = edge(2, 0, GB(64), EIGHTH);
    const uint64_t by_total = edge(1, GB(8), GB(512), EIGHTH * 8);
    /* A large volume: 3 × RAM caps it. */
    const uint64_t by_ram = edge(0, GB(2), GB(16), EIGHTH);
    fprintf(stderr, "rescued from %.3f GB free, a %.1f GB volume, %.3f GB of RAM\n", (double)by_free / GB(1),
            (double)by_total / GB(1), (double)by_ram / GB(1));
    CHECK(by_free > 0 && by_total > 0 && by_ram > 0);
    /* The line each edge gives: RAM + growth. */
    const uint64_t line = GB(12) + by_free;
    CHECK(line > GB(12) + GB(2)); /* above what backs the run now */
    const uint64_t line_total = GB(12) + by_total / 8;
    CHECK(line_total <= line + EIGHTH && line_total + EIGHTH >= line);
    const uint64_t line_ram = by_ram + 3 * by_ram;
    if (line_ram > line + 4 * EIGHTH || line_ram + 4 * EIGHTH < line)
        fprintf(stderr, "RAM edge %.3f GB: 4 x RAM %.3f GB, the line %.3f GB\n", (double)by_ram / GB(1),
                (double)line_ram / GB(1), (double)line / GB(1));
    CHECK(line_ram <= line + 4 * EIGHTH && line_ram + 4 * EIGHTH >= line);
    return TEST_DONE();
}
