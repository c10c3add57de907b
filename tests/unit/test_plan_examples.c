/* The seed's named cases and placement over hand-built machines:
 *   - S4.1 worked example: 16 GB RAM, 8 GB VRAM, SDXL → 64 GB from the table; with a measured
 *     peak commit of 44 GB, a size that covers it with the documented margin;
 *   - S6 final setup: 16 GB / 8 GB laptop, video → fixed 64 GB on D:, C: none, safe order;
 *   - placement: HDD only, full C:, USB drive, FAT32, unknown free space, a size capped by room. */
#include "plan_snap.h"
#include "test.h"

static hr_plan_inputs inputs(uint64_t ram, uint64_t vram, hr_workload w, int os)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.ram_bytes = ram;
    in.vram_bytes = vram;
    in.workload = w;
    in.os = os;
    return in;
}

static void test_worked_example(void)
{
    hr_plan_inputs in = inputs(GB(16), GB(8), HR_WORKLOAD_SDXL, HR_OS_WINDOWS);
    hr_plan *p = plan_run(NULL, &in);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    CHECK_EQ_U64(p->recommended.initial_bytes, GB(64));
    CHECK(p->recommended.basis == HR_BASIS_TABLE);
    CHECK(has_reason(p, "small-vram", "S4.2"));
    free(p);

    /* With the measured peak: 44 GB + 25 % = 55 GB; RAM gives 16, the paging file 39 — under
     * the table's 64 GB, which sets the size (the rule never goes below the table). */
    in.peak_commit_bytes = GB(44);
    p = plan_run(NULL, &in);
    const hr_plan_recommended *r = &p->recommended;
    CHECK(r->basis == HR_BASIS_TABLE);
    CHECK(r->set_by_table);
    CHECK_EQ_U64(r->peak_sized_bytes, GB(39));
    CHECK_EQ_U64(r->estimate_bytes, GB(39));
    CHECK_EQ_U64(r->maximum_bytes, GB(64));
    CHECK_EQ_U64(r->need.must_back, GB(55));
    CHECK(has_reason(p, "peak-under-table", "S4.1"));
    free(p);

    /* A peak above what the table gives: 80 GB + 25 % = 100 GB; RAM gives 16, the paging file 84. */
    in.peak_commit_bytes = GB(80);
    p = plan_run(NULL, &in);
    r = &p->recommended;
    CHECK(r->basis == HR_BASIS_PEAK);
    CHECK(!r->set_by_table);
    CHECK_EQ_U64(r->maximum_bytes, GB(84));
    CHECK(GB(16) + r->maximum_bytes >= GB(80) / 100 * (100 + HR_PLAN_PEAK_MARGIN_PERCENT));
    CHECK_EQ_U64(r->table_bytes, GB(64)); /* both are shown */
    CHECK(has_reason(p, "peak", "S4.1"));
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_json_writer w;
    hr_json_init(&w, &b, false);
    hr_plan_json(p, &w, NULL);
    CHECK(hr_json_finish(&w) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), "\"basis\":\"peak-commit\"");
    CHECK_CONTAINS(hr_buf_str(&b), "\"set_by\":\"estimate\"");
    CHECK_CONTAINS(hr_buf_str(&b), "\"table_bytes\":68719476736");
    CHECK_CONTAINS(hr_buf_str(&b), "\"maximum_bytes\":90194313216");
    CHECK_CONTAINS(hr_buf_str(&b), "\"must_back_bytes\":107374182400");
    CHECK_CONTAINS(hr_buf_str(&b), "\"schema\":\"headroom.plan/1\"");
    hr_buf_free(&b);
    free(p);

    /* A small peak: the table's size stays (it is never gone below). */
    in.peak_commit_bytes = GB(20);
    p = plan_run(NULL, &in);
    CHECK_EQ_U64(p->recommended.peak_sized_bytes, GB(9));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    CHECK(p->recommended.set_by_table);
    free(p);

    /* --range: the seed's tight-space compromise, 32 / 64. */
    in.peak_commit_bytes = HR_UNKNOWN;
    in.range = true;
    p = plan_run(NULL, &in);
    CHECK_EQ_U64(p->recommended.initial_bytes, GB(32));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    CHECK(!p->recommended.fixed);
    CHECK(has_reason(p, "range", "S3.2"));
    CHECK_CONTAINS(step_text(p, "set-new"), "Initial size (MB): 32768, Maximum size (MB): 65536");
    free(p);
}

/* S6: 16 GB RAM, 8 GB VRAM laptop; C: small system SSD with the automatic file, D: roomy SSD. */
static void test_final_setup(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(16) - ((uint64_t)400 << 20));
    hr_volume *c = snap_volume(s, "C:\\", "NTFS", 1, GB(237), GB(30), true);
    snap_volume(s, "D:\\", "NTFS", 1, GB(476), GB(300), false);
    snap_gpu(s, "NVIDIA GeForce RTX 4060 Laptop GPU", GB(8), false);
    snap_paging(s, "C:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(2), c);
    s->paging_config.automatic = HR_TRI_YES;
    snap_config(s, "?:\\pagefile.sys", HR_PAGING_MODE_AUTOMATIC, HR_UNKNOWN, HR_UNKNOWN);

    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_VIDEO;
    hr_plan *p = plan_run(s, &in);
    const hr_plan_recommended *r = &p->recommended;
    CHECK_EQ_U64(r->maximum_bytes, GB(64));
    CHECK(r->fixed);
    CHECK(r->target_known);
    CHECK_STR(r->target, "D:");
    CHECK_STR(r->target_path, "D:\\pagefile.sys");
    CHECK_EQ_I64(p->removal_count, 1);
    CHECK_CONTAINS(line_text(&p->removals[0]), "C:\\pagefile.sys");
    CHECK_STR(p->removals[0].rule, "S3.1");
    CHECK(hr_plan_find_warning(p, HR_PW_NO_CRASH_DUMP) != NULL);
    /* 30 GB free on 237 GB is not "nearly full" (2 × 11.9 GB), but too small for 64 GB (S4.3). */
    CHECK(hr_plan_find_warning(p, HR_PW_AUTO_MANAGED) != NULL);
    CHECK(hr_plan_find_warning(p, HR_PW_AUTO_FULL_SYSTEM) == NULL);
    /* S3.1: untick, set D:, then C: none, then reboot. */
    int untick = step_index(p, "untick-auto"), set = step_index(p, "set-new"), rm = step_index(p, "remove-old"),
        reboot = step_index(p, "reboot");
    CHECK(untick >= 0 && set > untick && rm > set && reboot > rm);
    CHECK_CONTAINS(step_text_of(&p->steps[set]),
                   "select D: → Custom size → Initial size (MB): 65536, Maximum size (MB): 65536 → press Set");
    CHECK_CONTAINS(step_text_of(&p->steps[rm]), "select C: → No paging file → press Set");
    CHECK(step_index(p, "remove-system") < 0);
    /* Candidates: D: first (SSD, not system), C: cannot keep 10 GB free after 64 GB. */
    CHECK_EQ_I64(p->candidate_count, 2);
    CHECK_STR(p->candidates[0].target, "D:");
    CHECK(p->candidates[0].fits_fixed);
    CHECK_STR(p->candidates[1].target, "C:");
    CHECK(!p->candidates[1].fits_fixed);
    free(p);

    /* Once set as the seed's author did, the plan has nothing to change. */
    s->paging_config.automatic = HR_TRI_NO;
    s->paging_config.count = 0;
    snap_config(s, "D:\\pagefile.sys", HR_PAGING_MODE_CUSTOM, GB(64), GB(64));
    s->paging_count = 0;
    snap_paging(s, "D:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(64), &s->volumes[1]);
    s->volumes[1].dev.fs_free_bytes = GB(236);
    p = plan_run(s, &in);
    CHECK(p->nothing_to_change);
    CHECK_STR(p->recommended.target, "D:");
    CHECK_EQ_I64(p->removal_count, 0);
    CHECK_EQ_U64(p->candidates[0].existing_bytes, GB(64));
    free(p);
    free(s);
}

static void test_hdd_only(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(16));
    snap_volume(s, "C:\\", "NTFS", 0, GB(1000), GB(500), true);
    snap_volume(s, "D:\\", "NTFS", 0, GB(2000), GB(1500), false);
    snap_config(s, "C:\\pagefile.sys", HR_PAGING_MODE_CUSTOM, GB(4), GB(4));
    hr_plan_inputs in = inputs(HR_UNKNOWN, GB(8), HR_WORKLOAD_SDXL, -1);
    hr_plan *p = plan_run(s, &in);
    CHECK_STR(p->recommended.target, "D:"); /* non-system, most room */
    CHECK(hr_plan_find_warning(p, HR_PW_HDD_ONLY) != NULL);
    CHECK_CONTAINS(line_text(hr_plan_find_warning(p, HR_PW_HDD_ONLY)), "add RAM first");
    free(p);
    /* One SSD, even the system drive, beats every HDD (S3.3). */
    s->volumes[0].dev.rotational = HR_TRI_NO;
    p = plan_run(s, &in);
    CHECK_STR(p->recommended.target, "C:");
    CHECK(hr_plan_find_warning(p, HR_PW_HDD_ONLY) == NULL);
    CHECK(hr_plan_find_warning(p, HR_PW_NO_CRASH_DUMP) == NULL);
    CHECK(step_index(p, "remove-old") < 0 && step_index(p, "remove-system") < 0);
    free(p);
    free(s);
}

static void test_full_c_and_usb(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(16));
    snap_volume(s, "C:\\", "NTFS", 1, GB(256), GB(12), true);
    hr_volume *e = snap_volume(s, "E:\\", "NTFS", 1, GB(1000), GB(900), false);
    e->dev.usb = HR_TRI_YES;
    e->dev.encrypted = HR_TRI_YES;
    hr_strlcpy(e->dev.encryption, "BitLocker", sizeof e->dev.encryption);
    hr_volume *f = snap_volume(s, "F:\\", "FAT32", 1, GB(64), GB(60), false);
    hr_volume *g = snap_volume(s, "G:\\", "NTFS", 1, GB(128), GB(120), false);
    g->dev.removable = HR_TRI_YES;
    (void)f;
    s->paging_config.automatic = HR_TRI_YES;
    hr_plan_inputs in = inputs(HR_UNKNOWN, GB(8), HR_WORKLOAD_SDXL, -1);
    hr_plan *p = plan_run(s, &in);
    CHECK(!p->recommended.target_known); /* nothing eligible has room */
    CHECK(hr_plan_find_warning(p, HR_PW_NO_TARGET) != NULL);
    CHECK(hr_plan_find_warning(p, HR_PW_AUTO_FULL_SYSTEM) != NULL);
    int eligible = 0;
    for (int i = 0; i < p->candidate_count; i++) {
        const hr_plan_candidate *c = &p->candidates[i];
        if (c->eligible)
            eligible++;
        if (strcmp(c->target, "E:") == 0) {
            CHECK(!c->eligible);
            CHECK_STR(c->reasons[0].rule, "S5.4");
            CHECK_CONTAINS(line_text(&c->reasons[0]), "USB disk, encrypted");
        }
        if (strcmp(c->target, "F:") == 0) {
            CHECK(!c->eligible);
            CHECK_CONTAINS(line_text(&c->reasons[0]), "FAT32 stops at 4 GB");
        }
        if (strcmp(c->target, "G:") == 0)
            CHECK(!c->eligible && strcmp(c->reasons[0].id, "removable") == 0);
    }
    CHECK_EQ_I64(eligible, 1); /* C: alone, without room */
    free(p);
    free(s);
}

/* Too little room for the maximum with the reserve kept: the size is capped at what fits, so
 * that apply (which keeps the same reserve at the maximum) accepts the plan and the file never
 * grows into the last free space (S6). A range whose maximum does not fit is not offered. */
static void test_room_capped(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(16));
    snap_volume(s, "C:\\", "NTFS", 1, GB(256), GB(60), true); /* 60 < 64 + 12.8; 60 - 12.8 = 47.2 */
    hr_plan_inputs in = inputs(HR_UNKNOWN, GB(8), HR_WORKLOAD_SDXL, -1);
    hr_plan *p = plan_run(s, &in);
    CHECK_STR(p->recommended.target, "C:");
    CHECK(p->recommended.fixed);
    CHECK_EQ_U64(p->recommended.initial_bytes, GB(47));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(47));
    CHECK_EQ_U64(p->recommended.table_bytes, GB(64));
    CHECK(has_reason(p, "room-capped", "S6"));
    CHECK(has_reason(p, "fixed", "S3.2"));
    CHECK(!has_reason(p, "range-forced", "S3.2"));
    free(p);
    /* --range: initial half of the capped maximum. */
    in.range = true;
    p = plan_run(s, &in);
    CHECK(!p->recommended.fixed);
    CHECK_EQ_U64(p->recommended.initial_bytes, GB(24));
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(47));
    free(p);
    in.range = false;
    /* Free space unknown: still a target, with the caveat. */
    s->volumes[0].dev.fs_free_bytes = HR_UNKNOWN;
    p = plan_run(s, &in);
    CHECK(p->recommended.target_known);
    CHECK(p->recommended.fixed);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(64));
    CHECK_STR(p->candidates[0].reasons[p->candidates[0].reason_count - 1].id, "free-unknown");
    free(p);
    free(s);
}

/* The reserve is max(10 GB, 5 % of the volume), after the file exists. */
static void test_reserve_edges(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(32));
    snap_volume(s, "D:\\", "NTFS", 1, GB(100), GB(42), false);  /* 42 = 32 + 10: exactly fits */
    snap_volume(s, "E:\\", "NTFS", 1, GB(1000), GB(81), false); /* 81 < 32 + 50 */
    hr_plan_inputs in = inputs(HR_UNKNOWN, GB(16), HR_WORKLOAD_SDXL, -1);
    hr_plan *p = plan_run(s, &in);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(32));
    CHECK_STR(p->recommended.target, "D:");
    CHECK(p->candidates[0].fits_fixed);
    CHECK_EQ_U64(p->candidates[1].reserve_bytes, GB(50));
    CHECK(!p->candidates[1].fits_fixed);
    free(p);
    s->volumes[0].dev.fs_free_bytes = GB(42) - 1;
    p = plan_run(s, &in);
    /* One byte short: neither fits 32 GB; both fit 31 GB with the reserve kept, E: has more room. */
    CHECK_STR(p->recommended.target, "E:");
    CHECK(p->recommended.fixed);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(31));
    free(p);
    free(s);
}

static void test_text_render(void)
{
    hr_plan_inputs in = inputs(GB(16), GB(8), HR_WORKLOAD_SDXL, HR_OS_WINDOWS);
    hr_plan *p = plan_run(NULL, &in);
    hr_buf b;
    hr_buf_init(&b, 0);
    CHECK(hr_plan_text(p, &b) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), "64 GB fixed (initial = maximum = 65536 MB)");
    CHECK_CONTAINS(hr_buf_str(&b), "[S4.2]");
    CHECK_CONTAINS(hr_buf_str(&b), "> sysdm.cpl");
    hr_buf_free(&b);
    free(p);
    /* RAM unknown and not given: a clear error naming the flag. */
    hr_plan_inputs_init(&in);
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, HR_UNKNOWN);
    p = calloc(1, sizeof *p);
    hr_error err = { 0 };
    CHECK(hr_plan_compute(s, &in, p, &err) == HR_EPARTIAL);
    CHECK_CONTAINS(err.msg, "--ram");
    free(p);
    free(s);
}

int main(void)
{
    test_worked_example();
    test_final_setup();
    test_hdd_only();
    test_full_c_and_usb();
    test_room_capped();
    test_reserve_edges();
    test_text_render();
    return TEST_DONE();
}
