/* headroom — how big: the seed's table (S4.1) as VRAM, workload and launcher flags change it
 * (S4.2), or the workload's peak commit when one is known (S4.1: "the real reference").
 *
 * The table, cell by cell (docs/plan.md has it with every reason):
 *   video, any row                          → 64 GB   (S4.2 "start at 64 GB")
 *   8 GB row (and less)                     → 32 GB, upgrade RAM first (S4.1); 64 with low-VRAM flags
 *   16 GB row: low-VRAM flags               → 64 GB   (S4.2 lean harder)
 *              VRAM < 12 GB (not SD 1.5)    → 64 GB   (S4.2 6–8 GB: offload all the time)
 *              VRAM ≥ 12 GB                 → 32 GB   (S4.2 backstop)
 *              VRAM unknown, not SD 1.5     → 64 GB   (S4.1 worked example)
 *              SD 1.5                       → 32 GB   (S4.1 light models)
 *   32 GB row: as the 16 GB row, but VRAM unknown → 32 GB (S6 "32 GB RAM → 32 GB")
 *   64 GB+ row                              → 32 GB backstop (S4.1); RAM absorbs offload */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"

#include "core/base/size.h"
#include "core/model/commit_ceiling.h"

#include <string.h>

/* Cards are sold as 6/8/12/16/24 GB and read a little under (12 GB → 11.99 GiB). */
#define BIG_VRAM_BYTES ((uint64_t)23 << 29) /* 11.5 GiB */

static uint64_t gib(uint64_t n)
{
    return n << 30;
}

/* A reason line; its text is an English msgid (HR_N), translated where the plan is shown. */
#define R(id_rule, ...) hr_plan_line_add(r->reasons, &r->reason_count, HR_PLAN_MAX_REASONS, id_rule, __VA_ARGS__)

hr_ram_row hr_plan_ram_row(uint64_t ram_bytes)
{
    /* Bands around the table's sizes: installed memory reads a little under its label
     * (16 GB → 15.6 GiB), and an iGPU takes its share before the OS counts (S4.3). */
    if (ram_bytes < (uint64_t)12 << 30)
        return HR_ROW_8;
    if (ram_bytes < (uint64_t)24 << 30)
        return HR_ROW_16;
    if (ram_bytes < (uint64_t)48 << 30)
        return HR_ROW_32;
    return HR_ROW_64;
}

static void size_from_table(hr_plan *p)
{
    const hr_plan_facts *f = &p->facts;
    hr_plan_recommended *r = &p->recommended;
    char ram[32], vram[32];
    hr_size_gb(f->ram_bytes, ram, sizeof ram);
    hr_size_gb(f->effective_vram_bytes, vram, sizeof vram);
    char flags[128];
    hr_comfy_args_describe(&f->comfy, flags, sizeof flags);

    const bool video = f->workload == HR_WORKLOAD_VIDEO;
    const bool vram_known = f->effective_vram_bytes != HR_UNKNOWN;
    const bool light = f->workload == HR_WORKLOAD_SD15;
    const bool big_vram = vram_known && f->effective_vram_bytes >= BIG_VRAM_BYTES;
    const bool small_vram = vram_known && !big_vram && !light;
    const char *wl = hr_workload_label_msgid(f->workload);

    uint64_t size;
    switch (f->row) {
    case HR_ROW_8:
        R("row-8|S4.1",
          HR_N("%s RAM is in the table's 8 GB row (under 12 GB): 32 GB of paging file to start, but "
               "upgrade RAM first"),
          ram);
        r->upgrade_ram_first = true;
        size = gib(32);
        if (video) {
            R("video|S4.2", HR_N("video workflows roughly double memory use: start at 64 GB"));
            size = gib(64);
        } else if (f->lean_on_ram) {
            R("lean-on-ram|S4.2", HR_N("%s makes the run lean harder on RAM and the paging file: 64 GB"), flags);
            size = gib(64);
        }
        break;
    case HR_ROW_16:
    case HR_ROW_32:
        hr_plan_line_tr(R(f->row == HR_ROW_16 ? "row-16|S4.1" : "row-32|S4.1",
                          HR_N("%s RAM is in the table's %d GB row (%s): 32–64 GB"), ram, (int)f->row,
                          f->row == HR_ROW_16 ? HR_N("12 to 24 GB") : HR_N("24 to 48 GB")),
                        2);
        if (video) {
            R("video|S4.2", HR_N("video workflows (text encoder + image encoder + DiT + VAE loaded together) "
                                 "roughly double memory use: start at 64 GB"));
            size = gib(64);
        } else if (f->lean_on_ram) {
            R("lean-on-ram|S4.2", HR_N("%s makes the run lean harder on RAM and the paging file: take the top, 64 GB"),
              flags);
            size = gib(64);
        } else if (small_vram) {
            hr_plan_line_tr(R("small-vram|S4.2",
                              HR_N("%s of VRAM is under 12 GB: %s models offload to RAM all the time and "
                                   "paging is heavy: take the top, 64 GB"),
                              vram, f->workload == HR_WORKLOAD_NONE ? HR_N("big") : wl),
                            1);
            size = gib(64);
        } else if (big_vram) {
            R("big-vram|S4.2",
              HR_N("%s of VRAM: offload is rare and the paging file is a backstop: 32 GB is usually enough"), vram);
            size = gib(32);
        } else if (light) {
            R("light|S4.1", HR_N("SD 1.5 models are light (the table's smallest use): the bottom of the range, 32 GB"));
            size = gib(32);
        } else if (f->row == HR_ROW_16) {
            R("worked-example|S4.1", HR_N("VRAM unknown: the seed's worked example — SDXL on 16 GB RAM pushes peak "
                                          "commit past 40 GB — so take the top, 64 GB (give --vram to refine)"));
            size = gib(64);
        } else {
            R("row-32-default|S6", HR_N("VRAM unknown: 32 GB RAM → 32 GB (give --vram to refine)"));
            size = gib(32);
        }
        break;
    case HR_ROW_64:
    default:
        R("row-64|S4.1", HR_N("%s RAM is in the table's 64 GB+ row (48 GB and more): 32 GB as a backstop"), ram);
        size = gib(32);
        if (video) {
            R("video|S4.2", HR_N("video workflows roughly double memory use: start at 64 GB"));
            size = gib(64);
        } else if (f->lean_on_ram || small_vram) {
            R("ram-absorbs|S4.1", HR_N("with this much RAM, offloaded weights stay in RAM: the backstop is enough"));
        }
        break;
    }
    r->table_bytes = size;
}

/* The run's need under the one rule (core/model/run_need.h): a workflow's estimate is the run's
 * own and other programs come on top (measured now, or the allowance on a what-if machine); a
 * measured --peak-commit is system-wide; with neither, the workload's need (docs/check.md). */
static void need_of(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    const hr_plan_facts *f = &p->facts;
    hr_plan_recommended *r = &p->recommended;
    if (in->peak_commit_bytes != HR_UNKNOWN && in->peak_is_run) {
        const uint64_t others = f->hypothetical ? HR_UNKNOWN : hr_run_others_now(snap, f->os);
        hr_run_need_make(&r->need, in->need_low_bytes, in->peak_commit_bytes, others,
                         f->hypothetical ? HR_OTHERS_ALLOWANCE : HR_OTHERS_MEASURED);
    } else if (in->peak_commit_bytes != HR_UNKNOWN) {
        hr_run_need_make(&r->need, in->need_low_bytes, in->peak_commit_bytes, 0, HR_OTHERS_IN_PEAK);
    } else {
        /* No estimate (a caller that gives none; the commands always estimate): the
         * workload's figure, a system-wide peak that holds its margin already (the seed's
         * worked example, "past 40 GB"); below 80 % of it the run dies. */
        const uint64_t need = hr_plan_need_bytes(f, in);
        hr_run_need_make(&r->need, need / 5 * 4, need, 0, HR_OTHERS_IN_PEAK);
        r->need.margin = 0;
        r->need.must_back = need;
    }
}

void hr_plan_size(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    hr_plan_recommended *r = &p->recommended;
    size_from_table(p);
    r->peak_bytes = in->peak_commit_bytes;
    r->peak_sized_bytes = HR_UNKNOWN;
    r->estimate_bytes = HR_UNKNOWN;
    r->basis = HR_BASIS_TABLE;
    r->set_by_table = true;
    uint64_t maximum = r->table_bytes;
    need_of(snap, in, p);

    if (in->peak_commit_bytes != HR_UNKNOWN) {
        const hr_run_need *n = &r->need;
        const uint64_t from_ram = hr_commit_ram_part(snap, p->facts.os, p->facts.ram_bytes);
        r->estimate_bytes = r->peak_sized_bytes = hr_run_paging_bytes(n, from_ram);
        char lo[32], hi[32], ot[32], mg[32], mb[32], c[32], d[32], t[32];
        hr_size_gb(n->low, lo, sizeof lo);
        hr_size_gb(n->high, hi, sizeof hi);
        hr_size_gb(n->others, ot, sizeof ot);
        hr_size_gb(n->margin, mg, sizeof mg);
        hr_size_gb(n->must_back, mb, sizeof mb);
        hr_size_gb(from_ram, c, sizeof c);
        hr_size_gb(r->peak_sized_bytes, d, sizeof d);
        hr_size_gb(r->table_bytes, t, sizeof t);
        const char *who = n->others_basis == HR_OTHERS_MEASURED    ? HR_N("other programs' commit now")
                          : n->others_basis == HR_OTHERS_ALLOWANCE ? HR_N("the allowance for the OS and a browser")
                                                                   : HR_N("in the measured peak");
        r->set_by_table = r->peak_sized_bytes <= r->table_bytes;
        const char *key = r->set_by_table ? "peak-under-table|S4.1" : "peak|S4.1";
        const char *sets = r->set_by_table ? HR_N("table") : HR_N("estimate");
        hr_plan_line *l;
        if (hr_run_need_busy_sets(n)) {
            /* a what-if machine whose busy desktop asks more than the margin gives */
            char bz[32];
            hr_size_gb(n->others_high, bz, sizeof bz);
            l = R(key,
                  HR_N("the run needs %s – %s; + %s (what other programs commit on a busy desktop; the allowance "
                       "%s and the %d %% margin %s give less) = %s the machine must back; RAM gives %s of the commit "
                       "limit, so the paging file must give %s; the table says %s: the %s sets the size"),
                  lo, hi, bz, ot, HR_RUN_MARGIN_PERCENT, mg, mb, c, d, t, sets);
        } else {
            l = R(key,
                  HR_N("the run needs %s – %s; + %s (%s) + %d %% margin (%s) = %s the machine must back; RAM gives %s "
                       "of the commit limit, so the paging file must give %s; the table says %s: the %s sets the "
                       "size"),
                  lo, hi, ot, who, HR_RUN_MARGIN_PERCENT, mg, mb, c, d, t, sets);
            hr_plan_line_tr(l, 3); /* who */
        }
        hr_plan_line_tr(l, 10); /* which sets the size */
        if (!r->set_by_table) {
            r->basis = HR_BASIS_PEAK;
            maximum = r->peak_sized_bytes;
        }
    }

    /* Linux overcommit mode 2: only overcommit_ratio % of RAM counts toward the enforced
     * limit, so the table's RAM + paging falls short by the rest; the swap makes it up. */
    const uint64_t ram_part = hr_commit_ram_part(snap, p->facts.os, p->facts.ram_bytes);
    if (r->set_by_table && ram_part < p->facts.ram_bytes) {
        uint64_t extra = hr_sat_mul(hr_size_round_up_gib(p->facts.ram_bytes - ram_part), HR_GIB);
        char a[32], b[32];
        hr_size_gb(extra, a, sizeof a);
        maximum = hr_sat_add(maximum, extra);
        hr_size_gb(maximum, b, sizeof b);
        R("overcommit-never|X.overcommit",
          HR_N("vm.overcommit_memory=2 counts only part of RAM toward the commit "
               "limit: %s more swap makes up the rest, %s in all"),
          a, b);
    }

    r->maximum_bytes = maximum;
    r->initial_bytes = maximum;
    r->fixed = true;
    if (in->range && p->facts.os == HR_OS_LINUX) {
        /* A swap file has one size: Linux never grows it, and apply makes it at that size. */
        R("range-linux|S3.2", HR_N("--range: a Linux swap file has one size (it never grows), so the plan gives "
                                   "one size and apply makes it"));
    } else if (in->range) {
        r->initial_bytes = hr_size_round_up_gib(maximum / 2) * HR_GIB;
        r->fixed = false;
        char a[32], b[32];
        hr_size_gb(r->initial_bytes, a, sizeof a);
        hr_size_gb(r->maximum_bytes, b, sizeof b);
        R("range|S3.2",
          HR_N("--range: initial %s, maximum %s takes less disk until it is needed, at the cost of a "
               "stall each time it grows"),
          a, b);
    } else {
        R("fixed|S3.2", HR_N("initial = maximum: a fixed size stops the grow/shrink cycles that stutter and "
                             "fragment under ComfyUI's bursty demand"));
    }
}
