/* The edges of the rules, where a moved threshold or a < for <= hides: the S4.1 rows and the
 * RAM size classes at their limits, the S4.2 VRAM line as cards really read (a 12 GB card
 * reports 11.99 GiB), the verdict's lines (WILL FAIL under 80 % of the need, OK from the need,
 * 64 MB of slack, docs/check.md) on a plain machine and on a cgroup-limited one, and
 * X.overcommit: vm.overcommit_kbytes and the swap the plan adds for it, on each sizing basis.
 * Expectations are computed from the documented rule, not copied from an output. */
#include "core/check/check.h"
#include "core/model/commit_ceiling.h"
#include "plan_snap.h"
#include "test.h"

#define MIB ((uint64_t)1 << 20)

/* The S4.2 line as docs/plan.md and docs/check.md state it: "12 GB VRAM and more"; cards are
 * sold by the GB and read a little under it, so the line sits below 12 GiB, above 8 GB cards
 * (and the largest card under it, 10 GB); the code's edge is 11.5 GiB. */
#define VRAM_LINE ((uint64_t)23 << 29)

static hr_plan *hypothetical(uint64_t ram, uint64_t vram, hr_workload w)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.ram_bytes = ram;
    in.vram_bytes = vram;
    in.os = HR_OS_WINDOWS;
    in.workload = w;
    return plan_run(NULL, &in);
}

static void test_vram_line(void)
{
    const struct {
        uint64_t vram;
        bool big;
    } cards[] = {
        { (uint64_t)(11.99 * (double)GB(1)), true }, /* a 12 GB card as it reads */
        { GB(12), true },
        { VRAM_LINE, true }, /* the edge itself counts as 12 GB */
        { VRAM_LINE - 1, false },
        { GB(10), false }, /* RTX 3080 10 GB */
        { (uint64_t)(7.99 * (double)GB(1)), false },
        { GB(16), true },
    };
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        /* S4.2 in the 16 GB row: 12 GB+ → 32 GB, under → 64 GB. */
        hr_plan *p = hypothetical(GB(16), cards[i].vram, HR_WORKLOAD_SDXL);
        if (p->recommended.maximum_bytes != (cards[i].big ? GB(32) : GB(64)))
            fprintf(stderr, "VRAM %llu: plan %llu\n", (unsigned long long)cards[i].vram,
                    (unsigned long long)p->recommended.maximum_bytes);
        CHECK_EQ_U64(p->recommended.maximum_bytes, cards[i].big ? GB(32) : GB(64));
        CHECK(has_reason(p, cards[i].big ? "big-vram" : "small-vram", "S4.2"));
        free(p);
        /* The need model (docs/check.md): SDXL 32 / 40 GB, FLUX 40 / 48 GB. */
        CHECK_EQ_U64(hr_workload_need_bytes(HR_WORKLOAD_SDXL, cards[i].vram), cards[i].big ? GB(32) : GB(40));
        CHECK_EQ_U64(hr_workload_need_bytes(HR_WORKLOAD_FLUX, cards[i].vram), cards[i].big ? GB(40) : GB(48));
    }
    /* Low-VRAM flags count a big card as a small one (docs/check.md). */
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.ram_bytes = GB(32);
    in.vram_bytes = GB(24);
    in.os = HR_OS_WINDOWS;
    in.workload = HR_WORKLOAD_SDXL;
    in.have_comfy_args = true;
    CHECK(hr_comfy_args_parse("--novram", 8, &in.comfy, NULL) == 0);
    hr_plan *p = plan_run(NULL, &in);
    CHECK(p->facts.lean_on_ram);
    CHECK_EQ_U64(hr_plan_need_bytes(&p->facts, &in), GB(40));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    free(p);
}

/* The S4.1 rows by RAM size class: under 12 GB; 12 to 24; 24 to 48; 48 and more
 * (docs/plan.md). Each edge belongs to the row above it; RAM that is no size class (an iGPU
 * took a share) is placed by what it is. */
static void test_rows(void)
{
    const struct {
        double gib;
        int row;
    } edges[] = {
        { 11.0, 8 }, { 12.0, 16 }, { 21.0, 16 }, { 24.0, 32 }, { 44.0, 32 }, { 48.0, 64 }, { 44.2, 64 },
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        hr_plan *p = hypothetical((uint64_t)(edges[i].gib * (double)GB(1)), GB(8), HR_WORKLOAD_SDXL);
        if ((int)p->facts.row != edges[i].row)
            fprintf(stderr, "%.1f GiB: row %d, expected %d\n", edges[i].gib, (int)p->facts.row, edges[i].row);
        CHECK_EQ_I64(p->facts.row, edges[i].row);
        free(p);
    }
    /* Usable RAM counts at its class when within 8 % of it (docs/check.md). */
    const unsigned classes[] = { 8, 12, 16, 24, 32, 48, 64 };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        const uint64_t size = GB(classes[i]), low = size / 100 * 92;
        CHECK_EQ_U64(hr_ram_class_bytes(low), size);
        CHECK_EQ_U64(hr_ram_class_bytes(low - 1), low - 1);
        CHECK_EQ_U64(hr_ram_class_bytes(size), size);
    }
    /* A "12 GB" machine reading 11.2 GiB is in the 16 GB row, by its class. */
    hr_plan *p = hypothetical((uint64_t)(11.2 * (double)GB(1)), GB(8), HR_WORKLOAD_SDXL);
    CHECK_EQ_I64(p->facts.row, HR_ROW_16);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    free(p);
}

static bool has_todo_id(const hr_check *c, const char *id)
{
    for (int i = 0; i < c->todo_count; i++)
        if (strcmp(c->todo[i].id, id) == 0)
            return true;
    return false;
}

static hr_check *verdict_of(const hr_snapshot *s, uint64_t need)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.peak_commit_bytes = need;
    hr_plan *p = plan_run(s, &in);
    hr_check *c = calloc(1, sizeof *c);
    hr_check_compute(s, &in, p, c);
    free(p);
    return c;
}

/* The verdict lines (the one sizing rule, docs/check.md): a measured peak is the need's low and
 * high end and holds the others, so under the need WILL FAIL, from the need + the 25 % margin
 * on OK (when the plan would change nothing), between them AT RISK; a capacity 64 MB under a
 * line is on it. The edges
 * are computed from those words, so a moved line or a < for <= fails here. */
static void expect(const hr_snapshot *s, uint64_t need, uint64_t capacity_seen, hr_check_verdict want, const char *what)
{
    hr_check *c = verdict_of(s, need);
    CHECK_EQ_U64(c->capacity_bytes, capacity_seen);
    if (c->verdict != want)
        fprintf(stderr, "%s: capacity %llu, need %llu: %s, expected %s\n", what, (unsigned long long)c->capacity_bytes,
                (unsigned long long)need, hr_check_verdict_name(c->verdict), hr_check_verdict_name(want));
    CHECK(c->verdict == want);
    free(c);
}

static void test_verdict_lines_cgroup(void)
{
    /* A container whose memory.max is the whole story (swap.max 0): the capacity is the
     * limit, to the byte, and a plan cannot change it, so OK is OK. */
    hr_snapshot *s = snap_new(HR_OS_LINUX, GB(64));
    snap_volume(s, "/", "ext4", 1, GB(250), GB(80), true);
    s->platform.container = HR_TRI_YES;
    s->cgroup.memory_version = HR_CGROUP_V2;
    s->cgroup.swap_max_bytes = 0;
    const uint64_t need = GB(40);
    const uint64_t slack = 64 * MIB;
    const uint64_t fail_line = need;         /* the low end + others (0: in the peak) */
    const uint64_t must_back = need / 4 * 5; /* + 25 % of the high end (40 GiB divides by 4) */
    const struct {
        uint64_t limit;
        hr_check_verdict v;
        const char *what;
    } cases[] = {
        { must_back, HR_VERDICT_OK, "capacity exactly what it must back" },
        { must_back - slack, HR_VERDICT_OK, "64 MB under what it must back" },
        { must_back - slack - 1, HR_VERDICT_AT_RISK, "a byte past the slack" },
        { need, HR_VERDICT_AT_RISK, "need exactly equal to capacity (inside the margin)" },
        { fail_line - slack, HR_VERDICT_AT_RISK, "the need less the slack" },
        { fail_line - slack - 1, HR_VERDICT_WILL_FAIL, "just below the WILL FAIL line" },
        { fail_line - GB(1), HR_VERDICT_WILL_FAIL, "1 GiB below the line" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s->cgroup.memory_max_bytes = cases[i].limit;
        expect(s, need, cases[i].limit, cases[i].v, cases[i].what);
    }
    /* The RAM size-class gap is the machine's, never the cgroup's: a limit 0.3 GiB under the
     * need on a 63.6 GiB machine (class 64, a gap of 0.4 GiB) stays under it: WILL FAIL (with
     * the gap it would read 0.1 GiB over the need: AT RISK). */
    s->ram.total_bytes = GB(64) - GB(1) / 10 * 4;
    s->cgroup.memory_max_bytes = need - GB(1) / 10 * 3;
    expect(s, need, need - GB(1) / 10 * 3, HR_VERDICT_WILL_FAIL, "cgroup limit with a class gap");
    /* WILL FAIL in a cgroup names the cgroup's rule. */
    s->cgroup.memory_max_bytes = fail_line - GB(1);
    hr_check *c = verdict_of(s, need);
    CHECK_STR(c->verdict_rule, "X.cgroup");
    free(c);
    free(s);
}

static void test_verdict_lines_machine(void)
{
    /* Overcommit heuristic: the capacity is RAM + disk swap. RAM exactly at its class, so no
     * gap moves the line; the band just below WILL FAIL and the first byte of it. */
    const uint64_t need = GB(40), slack = 64 * MIB, fail_line = need;
    const struct {
        uint64_t swap;
        hr_check_verdict v;
        const char *what;
    } cases[] = {
        { fail_line - GB(16) - slack, HR_VERDICT_AT_RISK, "on the WILL FAIL line, with the slack" },
        { fail_line - GB(16) - slack - 1, HR_VERDICT_WILL_FAIL, "a byte under the WILL FAIL line" },
        { fail_line - GB(16) + GB(4), HR_VERDICT_AT_RISK, "in the band" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hr_snapshot *s = snap_new(HR_OS_LINUX, GB(16));
        hr_volume *v = snap_volume(s, "/", "ext4", 1, GB(250), GB(80), true);
        snap_paging(s, "/swapfile", HR_PAGING_FILE, cases[i].swap, v);
        expect(s, need, GB(16) + cases[i].swap, cases[i].v, cases[i].what);
        free(s);
    }
}

/* X.overcommit: under vm.overcommit_memory=2 RAM counts as overcommit_kbytes KiB when that is
 * set, else overcommit_ratio % of RAM; the plan adds the part of RAM that does not count, on
 * the table basis; on the peak basis RAM's share is already taken off the need. */
static void test_overcommit(void)
{
    hr_snapshot *s = snap_new(HR_OS_LINUX, GB(32));
    hr_volume *v = snap_volume(s, "/", "ext4", 1, GB(500), GB(400), true);
    snap_paging(s, "/swapfile", HR_PAGING_FILE, GB(8), v);
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;
    s->commit.overcommit_ratio = 50;
    s->commit.overcommit_kbytes = 0;
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, GB(32)), GB(16));
    /* overcommit_ratio unreadable: the kernel's default, 50 %. */
    s->commit.overcommit_ratio = HR_UNKNOWN;
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, GB(32)), GB(16));
    s->commit.overcommit_ratio = 50;
    /* 20 GiB given in kbytes (KiB): 20 × 1024 × 1024 of them. */
    s->commit.overcommit_kbytes = 20ull * 1024 * 1024;
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, GB(32)), GB(20));
    /* kbytes wins over the ratio whatever the RAM (the kernel's vm_commit_limit). */
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, GB(64)), GB(20));
    hr_ceiling ce;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, GB(40), &ce);
    CHECK_EQ_U64(ce.bytes, GB(20) + GB(40));
    /* Not enforced (heuristic mode): kbytes means nothing, RAM counts whole. */
    s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, GB(32)), GB(32));
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;

    /* Table basis: 32 GB row, 24 GB VRAM → 32 GB, plus the 12 GiB of RAM kbytes leaves out. */
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.vram_bytes = GB(24);
    in.workload = HR_WORKLOAD_SDXL;
    hr_plan *p = plan_run(s, &in);
    CHECK(p->recommended.basis == HR_BASIS_TABLE);
    CHECK_EQ_U64(p->recommended.table_bytes, GB(32));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(32) + (GB(32) - GB(20)));
    CHECK(has_reason(p, "overcommit-never", "X.overcommit"));
    free(p);

    /* Peak basis: the peak + its margin less RAM's share, in whole GiB up; no top-up on top.
     * 100 GiB divides by 100, so the margin is exact. */
    in.peak_commit_bytes = GB(100);
    p = plan_run(s, &in);
    CHECK(p->recommended.basis == HR_BASIS_PEAK);
    const uint64_t want = GB(100) / 100 * (100 + HR_PLAN_PEAK_MARGIN_PERCENT);
    CHECK_EQ_U64(p->recommended.maximum_bytes, (want - GB(20) + GB(1) - 1) / GB(1) * GB(1));
    CHECK(!has_reason(p, "overcommit-never", "X.overcommit"));
    free(p);
    free(s);

    /* S4.1: a measured peak never sizes below the table (docs/plan.md, --peak-commit). 16 GiB
     * of RAM, 8 GB of VRAM (the table's 64 GB), a 35 GiB peak: 43.75 GiB with the margin,
     * 28 GiB past RAM — under the table, so the table's 64 GiB. */
    hr_plan_inputs_init(&in);
    in.ram_bytes = GB(16);
    in.vram_bytes = GB(8);
    in.os = HR_OS_WINDOWS;
    in.peak_commit_bytes = GB(35);
    p = plan_run(NULL, &in);
    CHECK_EQ_U64(p->recommended.table_bytes, GB(64));
    CHECK_EQ_U64(p->recommended.peak_sized_bytes, GB(28));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    CHECK(p->recommended.basis == HR_BASIS_TABLE);
    CHECK(has_reason(p, "peak-under-table", "S4.1"));
    free(p);
}

/* The other lines of the verdict table (docs/check.md), each at its edge. */
static void test_verdict_rules(void)
{
    /* S2.3: commit already at 90 % of an enforced limit is AT RISK, whatever the capacity. A
     * container (the plan changes nothing there) with overcommit never. */
    hr_snapshot *s = snap_new(HR_OS_LINUX, GB(64));
    snap_volume(s, "/", "ext4", 1, GB(250), GB(80), true);
    s->platform.container = HR_TRI_YES;
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;
    s->commit.enforced = HR_TRI_YES;
    hr_section_ok(&s->commit.s, "test");
    s->commit.limit_bytes = GB(100);
    s->commit.charge_bytes = GB(100) / 10 * 9;
    hr_check *c = verdict_of(s, GB(40));
    CHECK(c->verdict == HR_VERDICT_AT_RISK);
    CHECK_STR(c->verdict_rule, "S2.3");
    free(c);
    s->commit.charge_bytes = GB(100) / 10 * 9 - GB(1);
    c = verdict_of(s, GB(40));
    CHECK(c->verdict == HR_VERDICT_OK);
    free(c);

    /* OK in a container stays OK: the plan's swap is not the container's to add. */
    s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
    s->commit.enforced = HR_TRI_NO;
    s->commit.charge_bytes = GB(2);
    c = verdict_of(s, GB(40));
    CHECK_EQ_U64(c->capacity_bytes, GB(64));
    CHECK(c->verdict == HR_VERDICT_OK);
    CHECK(!has_todo_id(c, "close-apps"));
    free(c);
    /* S5.2: with OK, the apps are named once they hold 10 % of RAM (docs/check.md). */
    hr_section_ok(&s->procs.s, "test");
    hr_proc chrome = { 2200, "chrome", GB(1), GB(64) / 10, 23 };
    s->procs.proc[s->procs.count++] = chrome;
    c = verdict_of(s, GB(40));
    CHECK(c->verdict == HR_VERDICT_OK);
    CHECK(has_todo_id(c, "close-apps"));
    free(c);
    s->procs.proc[0].commit_bytes = GB(64) / 10 - GB(1);
    c = verdict_of(s, GB(40));
    CHECK(!has_todo_id(c, "close-apps"));
    free(c);
    free(s);

    /* OK never beside a change (docs/check.md): the same 64 GiB machine outside a container
     * backs the need with RAM alone, but has no swap the plan would add: AT RISK. */
    s = snap_new(HR_OS_LINUX, GB(64));
    snap_volume(s, "/", "ext4", 1, GB(250), GB(80), true);
    c = verdict_of(s, GB(40));
    CHECK_EQ_U64(c->capacity_bytes, GB(64));
    CHECK(c->verdict == HR_VERDICT_AT_RISK);
    free(c);
    free(s);

    /* Linux keeps the swap it has when it covers the plan: capacity after = RAM + that swap. */
    s = snap_new(HR_OS_LINUX, GB(16));
    hr_volume *v = snap_volume(s, "/", "ext4", 1, GB(500), GB(300), true);
    snap_paging(s, "/swapfile", HR_PAGING_FILE, GB(100), v);
    c = verdict_of(s, GB(40));
    CHECK_EQ_U64(c->capacity_after_bytes, GB(16) + GB(100));
    free(c);
    free(s);

    /* S1.2: an automatic paging file may grow to 3 × RAM (at most an eighth of the system
     * drive): a WILL FAIL it could lift to the need (the low end) is AT RISK, one it could not
     * stays. */
    s = snap_new(HR_OS_WINDOWS, GB(16));
    hr_volume *cv = snap_volume(s, "C:\\", "NTFS", 1, GB(2000), GB(1500), true);
    snap_paging(s, "C:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(2), cv);
    s->paging_config.automatic = HR_TRI_YES;
    snap_config(s, "?:\\pagefile.sys", HR_PAGING_MODE_AUTOMATIC, HR_UNKNOWN, HR_UNKNOWN);
    hr_section_ok(&s->commit.s, "test");
    s->commit.limit_bytes = GB(18);
    s->commit.charge_bytes = GB(4);
    s->commit.enforced = HR_TRI_YES;
    const uint64_t grown = GB(16) + 3 * GB(16); /* 64 GiB */
    c = verdict_of(s, grown);                   /* the need = what it may grow to */
    CHECK(c->verdict == HR_VERDICT_AT_RISK);
    CHECK_STR(c->verdict_rule, "S1.2");
    free(c);
    c = verdict_of(s, grown / 4 * 5 + GB(5));
    CHECK(c->verdict == HR_VERDICT_WILL_FAIL);
    free(c);
    free(s);
}

int main(void)
{
    test_vram_line();
    test_rows();
    test_verdict_lines_cgroup();
    test_verdict_lines_machine();
    test_overcommit();
    test_verdict_rules();
    return TEST_DONE();
}
