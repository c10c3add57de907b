/* The seed's sizing rules, cell by cell: RAM {4, 8, 16, 32, 64, 128 GB} × VRAM {0 (integrated),
 * 4, 6, 8, 12, 16, 24 GB} × workload {sd15, sdxl, flux, video} × OS {windows, linux}, on a
 * hypothetical machine (facts from the flags only). The expected sizes below are written out
 * from the seed by hand, not computed:
 *   S4.1  8 GB → 32 GB, upgrade RAM first; 16 GB → 32–64; 32 GB → 32–64; 64 GB+ → 32 backstop
 *   S4.2  6–8 GB VRAM → 64 (less VRAM offloads even more); 12 GB+ → 32; video → 64
 *   S4.1  SD 1.5 is the light workload (the 8 GB row's typical use): VRAM does not push it
 *   S4.2  low-VRAM launcher flags lean harder on RAM and the paging file → the top, 64 */
#include "plan_snap.h"
#include "test.h"

static const int rams[6] = { 4, 8, 16, 32, 64, 128 };
static const int vrams[7] = { 0, 4, 6, 8, 12, 16, 24 };
static const hr_workload wls[4] = { HR_WORKLOAD_SD15, HR_WORKLOAD_SDXL, HR_WORKLOAD_FLUX, HR_WORKLOAD_VIDEO };

/* [workload][ram][vram] → GB, no launcher flags. */
static const int expect_plain[4][6][7] = {
    /* sd15       0   4   6   8  12  16  24 */
    { /*   4 */ { 32, 32, 32, 32, 32, 32, 32 },
      /*   8 */ { 32, 32, 32, 32, 32, 32, 32 },
      /*  16 */ { 32, 32, 32, 32, 32, 32, 32 },
      /*  32 */ { 32, 32, 32, 32, 32, 32, 32 },
      /*  64 */ { 32, 32, 32, 32, 32, 32, 32 },
      /* 128 */ { 32, 32, 32, 32, 32, 32, 32 } },
    /* sdxl */
    { { 32, 32, 32, 32, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 },
      { 64, 64, 64, 64, 32, 32, 32 },
      { 64, 64, 64, 64, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 } },
    /* flux */
    { { 32, 32, 32, 32, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 },
      { 64, 64, 64, 64, 32, 32, 32 },
      { 64, 64, 64, 64, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 },
      { 32, 32, 32, 32, 32, 32, 32 } },
    /* video: S4.2 "start at 64 GB", every row */
    { { 64, 64, 64, 64, 64, 64, 64 },
      { 64, 64, 64, 64, 64, 64, 64 },
      { 64, 64, 64, 64, 64, 64, 64 },
      { 64, 64, 64, 64, 64, 64, 64 },
      { 64, 64, 64, 64, 64, 64, 64 },
      { 64, 64, 64, 64, 64, 64, 64 } },
};

/* With --lowvram (any workload): 64 up to the 32 GB row; the 64 GB+ row keeps its 32 GB
 * backstop (RAM absorbs the offload) unless video. */
static int expect_lowvram(int ram, hr_workload w)
{
    if (w == HR_WORKLOAD_VIDEO)
        return 64;
    return ram <= 32 ? 64 : 32;
}

static void check_cell(int ri, int vi, int wi, hr_os os, bool lowvram)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.ram_bytes = GB(rams[ri]);
    in.vram_bytes = GB(vrams[vi]);
    in.os = (int)os;
    in.workload = wls[wi];
    if (lowvram) {
        in.have_comfy_args = true;
        CHECK(hr_comfy_args_parse("--lowvram", 9, &in.comfy, NULL) == 0);
    }
    hr_plan *p = plan_run(NULL, &in);
    const int want = lowvram ? expect_lowvram(rams[ri], wls[wi]) : expect_plain[wi][ri][vi];
    const hr_plan_recommended *r = &p->recommended;
    char cell[128];
    snprintf(cell, sizeof cell, "RAM %d, VRAM %d, %s, %s%s", rams[ri], vrams[vi], hr_workload_name(wls[wi]),
             os == HR_OS_WINDOWS ? "windows" : "linux", lowvram ? ", --lowvram" : "");
    if (r->maximum_bytes != GB(want))
        fprintf(stderr, "cell %s: got %llu GiB, want %d\n", cell, (unsigned long long)(r->maximum_bytes >> 30), want);
    CHECK_EQ_U64(r->maximum_bytes, GB(want));
    CHECK_EQ_U64(r->initial_bytes, r->maximum_bytes); /* S3.2: fixed by default */
    CHECK(r->fixed);
    CHECK(r->basis == HR_BASIS_TABLE);
    CHECK(!r->target_known); /* hypothetical: a kind of drive */
    CHECK_CONTAINS(hr_plan_advice_text(r, hr_lang_get(), plan_text_buf(), HR_PLAN_TEXT_MAX),
                   os == HR_OS_WINDOWS ? "non-system SSD" : "SSD-backed");

    /* The reasons name the rules that decided the cell. */
    const int row = rams[ri] < 12 ? 8 : rams[ri] < 24 ? 16 : rams[ri] < 48 ? 32 : 64;
    char row_id[16];
    snprintf(row_id, sizeof row_id, "row-%d", row);
    CHECK(has_reason(p, row_id, "S4.1"));
    if (wls[wi] == HR_WORKLOAD_VIDEO)
        CHECK(has_reason(p, "video", "S4.2"));
    else if (lowvram && row <= 32)
        CHECK(has_reason(p, "lean-on-ram", "S4.2"));
    else if (row == 16 || row == 32) {
        if (vrams[vi] >= 12)
            CHECK(has_reason(p, "big-vram", "S4.2"));
        else if (wls[wi] == HR_WORKLOAD_SD15)
            CHECK(has_reason(p, "light", "S4.1"));
        else
            CHECK(has_reason(p, "small-vram", "S4.2"));
    }
    CHECK(has_reason(p, "fixed", "S3.2"));

    /* Warnings that depend on these facts fire exactly where they should. */
    CHECK((hr_plan_find_warning(p, HR_PW_UPGRADE_RAM) != NULL) == (rams[ri] <= 8));
    CHECK((hr_plan_find_warning(p, HR_PW_INTEGRATED_GPU) != NULL) == (vrams[vi] == 0));
    CHECK((hr_plan_find_warning(p, HR_PW_LOW_VRAM_FLAGS) != NULL) == lowvram);
    CHECK((hr_plan_find_warning(p, HR_PW_NO_CRASH_DUMP) != NULL) == (os == HR_OS_WINDOWS));
    CHECK(r->upgrade_ram_first == (rams[ri] <= 8));
    /* Nothing about drives, power, WSL, containers: the machine is hypothetical. */
    int expected = (rams[ri] <= 8) + (vrams[vi] == 0) + lowvram + (os == HR_OS_WINDOWS);
    CHECK_EQ_I64(p->warning_count, expected);

    /* The steps carry the numbers. */
    char mb[64];
    if (os == HR_OS_WINDOWS) {
        snprintf(mb, sizeof mb, "Initial size (MB): %d, Maximum size (MB): %d", want * 1024, want * 1024);
        const hr_plan_step *s = find_step(p, "set-new");
        CHECK(s != NULL);
        if (s)
            CHECK_CONTAINS(step_text_of(s), mb);
        CHECK(step_index(p, "set-new") < step_index(p, "remove-system")); /* S3.1 order */
    } else {
        snprintf(mb, sizeof mb, "count=%d ", want * 1024);
        const hr_plan_step *s = find_step(p, "create");
        CHECK(s != NULL);
        if (s)
            CHECK_CONTAINS(s->command, mb);
        CHECK(step_index(p, "create") < step_index(p, "swapon"));
    }
    free(p);
}

int main(void)
{
    int cells = 0;
    for (int os = 0; os < 2; os++)
        for (int ri = 0; ri < 6; ri++)
            for (int vi = 0; vi < 7; vi++)
                for (int wi = 0; wi < 4; wi++)
                    for (int lv = 0; lv < 2; lv++) {
                        check_cell(ri, vi, wi, (hr_os)os, lv != 0);
                        cells++;
                    }
    printf("%d cells\n", cells);
    return TEST_DONE();
}
