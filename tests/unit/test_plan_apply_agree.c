/* plan and apply agree, and check says what plan says, on every recorded machine.
 *
 * Every Linux tree (tests/fixtures/linux/<machine>, read with --sysroot's probes) and every
 * Windows recording (the JSON files in tests/fixtures/windows, replayed by the core) × every workload ×
 * several VRAM sizes × fixed or --range: whatever `plan` recommends, the apply planner
 * accepts in a dry run on the same machine's facts (what `apply --from-plan` does there),
 * and `check`'s "Do this" list is the plan's: the paging item is there exactly when the plan
 * changes something and the verdict calls for it, with the plan's size and place. */
#include "test.h"

#include "core/apply/apply_from_plan.h"
#include "core/base/size.h"
#include "core/check/check.h"
#include "core/model/swap_target.h"
#include "core/model/win_model.h"
#include "core/plan/plan.h"
#include "platform/platform.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define GIB ((uint64_t)1 << 30)

static int combos, applied, no_target, nothing;

static const char *const paging_todos[] = {"set-paging", "add-swap", "remove-swap", "make-room",
                                           "wslconfig", "raise-limit", "restart", "swapon-all", NULL};

static bool is_paging_todo(const char *id)
{
    for (const char *const *t = paging_todos; *t; t++)
        if (strcmp(*t, id) == 0)
            return true;
    return false;
}

static void describe(char *out, size_t n, const char *machine, const hr_plan_inputs *in)
{
    char v[32];
    if (in->vram_bytes == HR_UNKNOWN)
        snprintf(v, sizeof v, "recorded");
    else
        hr_size_gb(in->vram_bytes, v, sizeof v);
    snprintf(out, n, "%s, workload %s, VRAM %s%s", machine, hr_workload_name(in->workload), v,
             in->range ? ", --range" : "");
}

static void agree(const char *machine, const hr_snapshot *snap, const hr_plan_inputs *in)
{
    char what[512];
    describe(what, sizeof what, machine, in);
    hr_plan *plan = calloc(1, sizeof *plan);
    hr_check *chk = calloc(1, sizeof *chk);
    hr_apply_plan *ap = calloc(1, sizeof *ap);
    hr_error err = {0};
    combos++;
    int r = hr_plan_compute(snap, in, plan, &err);
    CHECK(r == 0);
    if (r != 0) {
        fprintf(stderr, "%s: plan: %s\n", what, err.msg);
        goto out;
    }
    const hr_plan_recommended *rec = &plan->recommended;

    /* plan → apply. */
    if (plan->nothing_to_change) {
        nothing++;
    } else if (!rec->target_known || plan->facts.wsl2 ||
               (plan->facts.os == HR_OS_LINUX && rec->add_bytes == 0)) {
        no_target++;   /* nothing apply could be given: advice, the host, .wslconfig, removals */
    } else {
        hr_apply_take take;
        r = hr_apply_take_plan(plan, snap->platform.os, &take, &err);
        CHECK(r == 0);
        if (r == 0) {
            hr_error_clear(&err);
            r = hr_apply_plan_from_snapshot(snap, &take, ap, &err);
            if (r != 0)
                fprintf(stderr, "%s: plan recommends %s (%llu MB) and apply refuses: %s\n", what,
                        take.target, (unsigned long long)(rec->maximum_bytes / HR_MIB), err.msg);
            CHECK(r == 0);
            if (r == 0) {
                applied++;
                CHECK(ap->nothing_to_do || ap->step_count > 0);
                if (snap->platform.os == HR_OS_LINUX) {
                    CHECK_STR(ap->path, rec->target_path);
                    CHECK(ap->size_bytes <= rec->add_bytes && ap->size_bytes + ap->page_size > rec->add_bytes);
                } else {
                    CHECK_EQ_U64(ap->target.maximum_mb, rec->maximum_bytes / HR_MIB);
                    CHECK_EQ_U64(ap->target.initial_mb, rec->initial_bytes / HR_MIB);
                }
            }
        }
    }

    /* check's "Do this" is the plan's. */
    hr_check_compute(snap, in, plan, chk);
    int paging = -1;
    for (int i = 0; i < chk->todo_count; i++)
        if (is_paging_todo(chk->todo[i].id)) {
            CHECK(paging < 0);   /* one item stands for the plan's steps */
            paging = i;
        }
    const bool wants = chk->verdict != HR_VERDICT_OK || hr_plan_find_warning(plan, "auto-managed") ||
                       hr_plan_find_warning(plan, "auto-full-system") ||
                       hr_plan_find_warning(plan, "paging-on-removable");
    if (plan->nothing_to_change) {
        if (paging >= 0)
            fprintf(stderr, "%s: plan changes nothing, check says: %s\n", what, chk->todo[paging].text);
        CHECK(paging < 0);
    } else if (wants) {
        if (paging != 0)
            fprintf(stderr, "%s: the plan's steps are not check's first to-do\n", what);
        CHECK(paging == 0);
    }
    if (paging >= 0) {
        const hr_plan_line *t = &chk->todo[paging];
        char sz[32];
        if (strcmp(t->id, "add-swap") == 0) {
            CHECK(rec->add_bytes > 0);
            hr_size_gb(rec->add_bytes, sz, sizeof sz);
            CHECK_CONTAINS(t->text, sz);
            if (rec->target_known)
                CHECK_CONTAINS(t->text, rec->target_path);
        } else if (strcmp(t->id, "set-paging") == 0) {
            hr_size_gb(rec->maximum_bytes, sz, sizeof sz);
            CHECK_CONTAINS(t->text, sz);
            CHECK_CONTAINS(t->text, rec->fixed ? "fixed" : "ranged");
            if (rec->target_known)
                CHECK_CONTAINS(t->text, rec->target);
        } else if (strcmp(t->id, "remove-swap") == 0) {
            CHECK(rec->add_bytes == 0 && plan->removal_count > 0);
            for (int i = 0; i < plan->step_count; i++)
                if (strcmp(plan->steps[i].id, "swapoff-old") == 0)
                    CHECK_CONTAINS(t->text, plan->steps[i].command + strlen("sudo swapoff "));
        } else if (strcmp(t->id, "make-room") == 0) {
            CHECK(!rec->target_known);
        }
    }
out:
    free(plan);
    free(chk);
    free(ap);
}

static void every_input(const char *machine, const hr_snapshot *snap)
{
    static const hr_workload workloads[] = {HR_WORKLOAD_NONE, HR_WORKLOAD_SD15, HR_WORKLOAD_SDXL,
                                            HR_WORKLOAD_FLUX, HR_WORKLOAD_VIDEO};
    static const uint64_t vram[] = {HR_UNKNOWN, 0, 6 * GIB, 8 * GIB, 12 * GIB, 24 * GIB};
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++)
        for (size_t v = 0; v < sizeof vram / sizeof vram[0]; v++)
            for (int range = 0; range < 2; range++) {
                hr_plan_inputs in;
                hr_plan_inputs_init(&in);
                in.workload = workloads[w];
                in.vram_bytes = vram[v];
                in.range = range;
                in.recorded = true;
                if (snap->ram.total_bytes == HR_UNKNOWN)
                    in.ram_bytes = 16 * GIB;   /* a tree that cannot tell: what a user gives */
                agree(machine, snap, &in);
            }
}

static int machines;

/* Call fn for every entry of <src>/tests/fixtures/<sub> but dot files. */
static void each_fixture(const char *src, const char *sub, void (*fn)(const char *dir, const char *name))
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/fixtures/%s", src, sub);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            fn(dir, e->d_name);
    closedir(d);
}

static void windows_recording(const char *dir, const char *name)
{
    size_t n = strlen(name);
    if (n < 6 || strcmp(name + n - 5, ".json") != 0)
        return;
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    char *buf = malloc(4 << 20);
    size_t len = buf ? fread(buf, 1, (4 << 20) - 1, f) : 0;
    fclose(f);
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_error err = {0};
    int r = buf && snap ? hr_win_replay(buf, len, snap, &err) : HR_ENOMEM;
    CHECK(r == 0 || r == HR_EPARTIAL);
    if (r == 0 || r == HR_EPARTIAL) {
        machines++;
        every_input(name, snap);
    }
    free(buf);
    free(snap);
}

/* Machines the recordings lack, built from the facts a probe would read: the two places the
 * rules once disagreed — an f2fs root (plan recommended it, apply refused it) and a drive
 * with room for less than the maximum plus the reserve (plan's range fitted, apply refused
 * the maximum) — on both OSes. */
static hr_volume *add_volume(hr_snapshot *s, const char *mount, const char *fs, uint64_t total,
                             uint64_t free_bytes, bool system)
{
    hr_volume *v = &s->volumes[s->volume_count++];
    hr_strlcpy(v->dev.mount_point, mount, sizeof v->dev.mount_point);
    hr_strlcpy(v->dev.fs_type, fs, sizeof v->dev.fs_type);
    v->dev.rotational = HR_TRI_NO;
    v->dev.removable = v->dev.usb = v->dev.encrypted = HR_TRI_NO;
    v->dev.fs_total_bytes = total;
    v->dev.fs_free_bytes = free_bytes;
    v->is_system = system;
    v->fs_devices = 1;
    char why[HR_SNAP_WHY_MAX] = "";
    v->can_hold_swap = s->platform.os == HR_OS_WINDOWS ? HR_TRI_YES
                       : hr_swap_fs_capable(HR_OS_LINUX, fs, 1, false, why, sizeof why);
    hr_strlcpy(v->why_not, why, sizeof v->why_not);
    return v;
}

static hr_snapshot *machine(hr_os os, uint64_t ram)
{
    hr_snapshot *s = malloc(sizeof *s);
    hr_snapshot_init(s, os);
    hr_section_ok(&s->ram.s, "test");
    s->ram.total_bytes = ram;
    s->ram.available_bytes = ram / 2;
    hr_section_ok(&s->paging_s, "test");
    hr_section_ok(&s->volumes_s, "test");
    s->platform.page_size = 4096;
    s->platform.container = s->platform.wsl2 = HR_TRI_NO;
    hr_strlcpy(s->platform.system_volume, os == HR_OS_WINDOWS ? "C:\\" : "/",
               sizeof s->platform.system_volume);
    if (os == HR_OS_WINDOWS) {
        hr_section_ok(&s->paging_config.s, "test");
        s->paging_config.present = true;
        s->paging_config.automatic = HR_TRI_YES;
        hr_paging_config_entry *e = &s->paging_config.entries[s->paging_config.count++];
        hr_strlcpy(e->path, "?:\\pagefile.sys", sizeof e->path);
        e->mode = HR_PAGING_MODE_AUTOMATIC;
        e->initial_bytes = e->maximum_bytes = HR_UNKNOWN;
        s->commit.overcommit_mode = HR_OVERCOMMIT_NONE;
    } else {
        s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
        s->cgroup.memory_max_bytes = HR_UNLIMITED;
    }
    return s;
}

static void synthetic_machines(void)
{
    hr_snapshot *s = machine(HR_OS_LINUX, 16 * GIB);
    add_volume(s, "/", "f2fs", 500 * GIB, 300 * GIB, true);
    machines++;
    every_input("synthetic: f2fs root only", s);
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    hr_plan *p = calloc(1, sizeof *p);
    hr_error err = {0};
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK(!p->recommended.target_known);   /* the rule apply uses refuses f2fs */
    CHECK(!p->candidates[0].eligible);
    CHECK_CONTAINS(p->candidates[0].reasons[0].text, "f2fs");
    add_volume(s, "/data", "ext4", 1000 * GIB, 900 * GIB, false);
    every_input("synthetic: f2fs root, ext4 /data", s);
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK_STR(p->recommended.target_path, "/data/headroom.swap");
    free(s);

    /* Tight: 60 GB free of 256 keeps 12.8 GB: room for 47 GB, not the table's 64. */
    s = machine(HR_OS_LINUX, 16 * GIB);
    add_volume(s, "/", "ext4", 256 * GIB, 60 * GIB, true);
    machines++;
    every_input("synthetic: ext4 root, 60 GB free", s);
    free(s);
    s = machine(HR_OS_WINDOWS, 16 * GIB);
    add_volume(s, "C:\\", "NTFS", 256 * GIB, 60 * GIB, true);
    machines++;
    every_input("synthetic: C: with 60 GB free", s);
    hr_plan_inputs_init(&in);
    in.vram_bytes = 8 * GIB;
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK_EQ_U64(p->recommended.maximum_bytes, 47 * GIB);
    free(s);
    free(p);
}

#ifndef _WIN32
static void linux_tree(const char *dir, const char *name)
{
    char tree[1400], probe[1500];
    snprintf(tree, sizeof tree, "%s/%s", dir, name);
    snprintf(probe, sizeof probe, "%s/proc", tree);
    DIR *p = opendir(probe);
    if (!p)
        return;   /* README, the fixture script */
    closedir(p);
    hr_probe_opts opts = {.sysroot = tree, .skip_procs = true};
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_error err = {0};
    int r = hr_platform_snapshot(&opts, snap, &err);
    CHECK(r == 0 || r == HR_EPARTIAL);
    if (r == 0 || r == HR_EPARTIAL) {
        machines++;
        every_input(name, snap);
    }
    free(snap);
}
#endif

int main(void)
{
    const char *src = getenv("HR_SOURCE_DIR");
    if (!src) {
        fprintf(stderr, "HR_SOURCE_DIR is not set\n");
        return 1;
    }
    synthetic_machines();
    each_fixture(src, "windows", windows_recording);
#ifndef _WIN32
    each_fixture(src, "linux", linux_tree);
#endif
    printf("%d machines, %d combinations: %d accepted by apply, %d nothing to change, %d with no "
           "file to create\n", machines, combos, applied, nothing, no_target);
    CHECK(machines >= 5);
    CHECK(applied > 0);
    return TEST_DONE();
}
