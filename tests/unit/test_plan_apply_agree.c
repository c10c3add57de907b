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
#include "core/estimate/estimate_workflow.h"
#include "core/model/run_need.h"
#include "core/scan/workflow.h"
#include "core/model/comfy_args.h"
#include "core/model/commit_ceiling.h"
#include "core/model/swap_target.h"
#include "core/model/win_model.h"
#include "core/plan/plan.h"
#include "platform/platform.h"
#include "plan_text.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIB ((uint64_t)1 << 30)

static int shrinks, combos, applied, no_target, nothing, simulated, reached_ok;

static bool has_todo(const hr_check *c, const char *id)
{
    for (int i = 0; i < c->todo_count; i++)
        if (strcmp(c->todo[i].id, id) == 0)
            return true;
    return false;
}

/* What the machine looks like once plan's recommendation is carried out: the new file in
 * use and configured, the removed ones gone, the commit limit and the drive's free space
 * following. NULL when there is nothing to carry out here (no place, the host, WSL's file). */
static hr_snapshot *carry_out(const hr_snapshot *snap, const hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    const hr_plan_facts *f = &p->facts;
    if (!r->target_known || f->wsl2 || f->in_container || f->cgroup_limited || f->hypothetical || p->nothing_to_change)
        return NULL;
    hr_snapshot *s = malloc(sizeof *s);
    *s = *snap;
    const bool win = f->os == HR_OS_WINDOWS;
    hr_volume *vol = NULL;
    for (int i = 0; i < s->volume_count; i++) {
        char d[HR_SNAP_PATH_MAX];
        hr_strlcpy(d, s->volumes[i].dev.mount_point, sizeof d);
        if (win ? hr_same_drive(d, r->target) : strcmp(d, r->target) == 0)
            vol = &s->volumes[i];
    }
    /* Drop what the plan removes (and, on Windows, every file but the target and the dump file). */
    int kept = 0;
    for (int i = 0; i < s->paging_count; i++) {
        const hr_paging *pg = &s->paging[i];
        bool drop = false;
        for (int j = 0; j < p->removal_count; j++) {
            const char *t = p->removal_paths[j];
            drop |= win ? hr_same_drive(t, pg->path) : strcmp(t, pg->path) == 0;
        }
        if (win)
            drop = !(p->dump_file[0] && hr_same_drive(pg->path, p->dump_file));
        if (!drop)
            s->paging[kept++] = *pg;
    }
    s->paging_count = kept;
    /* Linux: what /etc/fstab names and nothing switched on yet comes on (swapon -a, or the
     * restart the plan asks for). */
    for (int i = 0; !win && i < snap->paging_config.count && s->paging_count < HR_MAX_PAGING; i++) {
        const hr_paging_config_entry *e = &snap->paging_config.entries[i];
        bool active = false;
        for (int j = 0; j < s->paging_count; j++)
            active |= strcmp(s->paging[j].path, e->path) == 0;
        if (active || e->maximum_bytes == HR_UNKNOWN || e->path[0] != '/' || strncmp(e->path, "/dev/", 5) == 0)
            continue;
        hr_paging *pg = &s->paging[s->paging_count++];
        memset(pg, 0, sizeof *pg);
        hr_strlcpy(pg->path, e->path, sizeof pg->path);
        pg->kind = HR_PAGING_FILE;
        pg->size_bytes = e->maximum_bytes - 4096;
        pg->peak_bytes = HR_UNKNOWN;
        pg->priority = 10;
        if (vol) {
            pg->has_device = true;
            pg->device = vol->dev;
        }
    }
    uint64_t add = win ? r->initial_bytes : r->add_bytes;
    if (add > 0 && s->paging_count < HR_MAX_PAGING) {
        hr_paging *pg = &s->paging[s->paging_count++];
        memset(pg, 0, sizeof *pg);
        hr_strlcpy(pg->path, r->target_path, sizeof pg->path);
        pg->kind = win ? HR_PAGING_PAGEFILE : HR_PAGING_FILE;
        pg->size_bytes = win ? add : add - 4096; /* a swap area reads a page short (the header) */
        pg->used_bytes = 0;
        pg->peak_bytes = HR_UNKNOWN;
        pg->priority = win ? HR_UNKNOWN_I64 : 10;
        if (vol) {
            pg->has_device = true;
            pg->device = vol->dev;
            if (vol->dev.fs_free_bytes != HR_UNKNOWN)
                vol->dev.fs_free_bytes = vol->dev.fs_free_bytes > add ? vol->dev.fs_free_bytes - add : 0;
        }
    }
    hr_section_ok(&s->paging_s, "carried out");
    if (win) {
        hr_paging_config *cfg = &s->paging_config;
        hr_paging_config_entry dump = { 0 };
        bool have_dump = false;
        for (int i = 0; i < cfg->count; i++)
            if (p->dump_file[0] && hr_same_drive(cfg->entries[i].path, p->dump_file)) {
                dump = cfg->entries[i];
                have_dump = true;
            }
        const hr_paging_config was = *cfg; /* CrashControl is not the plan's to change */
        memset(cfg, 0, sizeof *cfg);
        cfg->dump_needs_system_paging = was.dump_needs_system_paging;
        cfg->crash_dump_enabled = was.crash_dump_enabled;
        hr_strlcpy(cfg->dedicated_dump_file, was.dedicated_dump_file, sizeof cfg->dedicated_dump_file);
        hr_section_ok(&cfg->s, "carried out");
        cfg->present = true;
        cfg->automatic = HR_TRI_NO;
        cfg->temp_page_file = HR_TRI_NO;
        if (have_dump)
            cfg->entries[cfg->count++] = dump;
        hr_paging_config_entry *e = &cfg->entries[cfg->count++];
        hr_strlcpy(e->path, r->target_path, sizeof e->path);
        e->mode = HR_PAGING_MODE_CUSTOM;
        e->initial_bytes = r->initial_bytes;
        e->maximum_bytes = r->maximum_bytes;
        e->priority = HR_UNKNOWN_I64;
    }
    uint64_t disk = hr_snapshot_disk_paging_bytes(s);
    s->commit.limit_bytes = hr_sat_add(hr_commit_ram_part(s, f->os, s->ram.total_bytes), disk);
    return s;
}

/* Carry out the plan on the snapshot: check then says OK (or names the one thing the paging
 * file cannot fix: RAM to add, room to make), and the plan changes nothing more. */
static void plan_reaches_ok(const char *what, const hr_snapshot *snap, const hr_plan_inputs *in, const hr_plan *p)
{
    if (p->recommended.fixed == false)
        return; /* a range's commit limit starts at the initial size: judged as it grows */
    hr_snapshot *after = carry_out(snap, p);
    if (!after)
        return;
    simulated++;
    hr_plan *p2 = calloc(1, sizeof *p2);
    hr_check *c2 = calloc(1, sizeof *c2);
    hr_error err = { 0 };
    CHECK(hr_plan_compute(after, in, p2, &err) == 0);
    hr_check_compute(after, in, p2, c2);
    const hr_plan_recommended *r = &p->recommended;
    if (c2->verdict == HR_VERDICT_OK) {
        reached_ok++;
    } else {
        bool named =
            (r->upgrade_ram_first && has_todo(c2, "upgrade-ram")) ||
            (r->room_capped && (has_todo(c2, "more-room") || has_todo(c2, "make-room") || has_todo(c2, "free-room")));
        char t[HR_PLAN_TEXT_MAX];
        if (!named)
            fprintf(stderr, "%s: after the plan check says %s: %s (to-do: %d, first %s)\n", what,
                    hr_check_verdict_label(c2->verdict), hr_check_verdict_text(c2, HR_LANG_EN, t, sizeof t),
                    c2->todo_count, c2->todo_count ? c2->todo[0].id : "-");
        CHECK(named);
    }
    if (!p2->nothing_to_change && !r->room_capped) {
        fprintf(stderr, "%s: after the plan, plan still changes something (%s: %s)\n", what,
                p2->step_count ? p2->steps[0].id : "-", p2->step_count ? step_text_of(&p2->steps[0]) : "");
        CHECK(p2->nothing_to_change);
        if (getenv("HR_DEBUG_AGREE")) {
            for (int i = 0; i < p2->removal_count; i++)
                fprintf(stderr, "  removal: %s\n", line_text(&p2->removals[i]));
            for (int i = 0; i < after->paging_config.count; i++)
                fprintf(stderr, "  config: %s %llu %llu mode %d\n", after->paging_config.entries[i].path,
                        (unsigned long long)after->paging_config.entries[i].initial_bytes,
                        (unsigned long long)after->paging_config.entries[i].maximum_bytes,
                        (int)after->paging_config.entries[i].mode);
            for (int i = 0; i < after->paging_count; i++)
                fprintf(stderr, "  in use: %s\n", after->paging[i].path);
            fprintf(stderr, "  target %s dump '%s' max %llu\n", p2->recommended.target, p2->dump_file,
                    (unsigned long long)p2->recommended.maximum_bytes);
        }
    }
    free(p2);
    free(c2);
    free(after);
}

static const char *const paging_todos[] = { "set-paging",  "add-swap", "remove-swap", "make-room", "wslconfig",
                                            "raise-limit", "restart",  "swapon-all",  NULL };

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

/* Windows: what apply leaves in PagingFiles is what the plan leaves — the target, and the
 * crash-dump file exactly when the plan keeps one (X.dump: one rule for both). */
static int dump_kept, dump_machines;

static void windows_final(const char *what, const hr_snapshot *snap, const hr_plan *plan, const hr_apply_plan *ap)
{
    const hr_pfw_list *fin = NULL;
    hr_pfw_list now = { 0 };
    if (ap->nothing_to_do) { /* what is configured is already the end */
        for (int i = 0; i < snap->paging_config.count && now.count < HR_PFW_MAX_ENTRIES; i++)
            hr_strlcpy(now.e[now.count++].path, snap->paging_config.entries[i].path, sizeof now.e[0].path);
        fin = &now;
    } else {
        fin = &ap->stages[ap->stage_count - 1].value;
    }
    int target = 0, dump = 0, other = 0;
    for (int i = 0; i < fin->count; i++) {
        if (hr_same_drive(fin->e[i].path, plan->recommended.target))
            target++;
        else if (plan->dump_file[0] && strcmp(fin->e[i].path, plan->dump_file) == 0)
            dump++;
        else
            other++;
    }
    if (target != 1 || other != 0 || dump != (plan->dump_file[0] ? 1 : 0))
        fprintf(stderr, "%s: apply leaves %d on the target, %d dump file (plan keeps '%s'), %d other\n", what, target,
                dump, plan->dump_file, other);
    CHECK_EQ_I64(target, 1);
    CHECK_EQ_I64(other, 0);
    CHECK_EQ_I64(dump, plan->dump_file[0] ? 1 : 0);
    dump_kept += dump;
}

static void agree(const char *machine, const hr_snapshot *snap, const hr_plan_inputs *in)
{
    char what[512];
    describe(what, sizeof what, machine, in);
    hr_plan *plan = calloc(1, sizeof *plan);
    hr_check *chk = calloc(1, sizeof *chk);
    hr_apply_plan *ap = calloc(1, sizeof *ap);
    hr_error err = { 0 };
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
    } else if (!rec->target_known || plan->facts.wsl2 || (plan->facts.os == HR_OS_LINUX && rec->add_bytes == 0)) {
        no_target++; /* nothing apply could be given: advice, the host, .wslconfig, removals */
    } else {
        hr_apply_take take;
        r = hr_apply_take_plan(plan, snap->platform.os, &take, &err);
        CHECK(r == 0);
        if (r == 0) {
            hr_error_clear(&err);
            r = hr_apply_plan_from_snapshot(snap, &take, ap, &err);
            /* The plan says when its removals lower what is configured (S6, "shrink"): apply
             * then asks for --allow-shrink, and with it accepts. Nowhere else. */
            bool shrink = hr_plan_find_warning(plan, HR_PW_SHRINK) != NULL;
            if (shrink) {
                CHECK_EQ_I64(r, HR_EUNSAFE);
                CHECK_CONTAINS(err.msg, "--allow-shrink");
                take.allow_shrink = true;
                hr_error_clear(&err);
                r = hr_apply_plan_from_snapshot(snap, &take, ap, &err);
                shrinks++;
            }
            if (r != 0)
                fprintf(stderr, "%s: plan recommends %s (%llu MB) and apply refuses: %s\n", what, take.target,
                        (unsigned long long)(rec->maximum_bytes / HR_MIB), err.msg);
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
                    windows_final(what, snap, plan, ap);
                }
            }
        }
    }

    /* check's "Do this" is the plan's. */
    hr_check_compute(snap, in, plan, chk);
    /* A verdict that is not OK always says what to do; OK never beside a plan that changes
     * something (issue 10). */
    if (chk->verdict == HR_VERDICT_AT_RISK || chk->verdict == HR_VERDICT_WILL_FAIL) {
        if (chk->todo_count == 0)
            fprintf(stderr, "%s: %s with nothing to do\n", what, hr_check_verdict_label(chk->verdict));
        CHECK(chk->todo_count > 0);
    }
    if (chk->verdict == HR_VERDICT_OK && !plan->facts.in_container && !plan->facts.cgroup_limited &&
        !plan->facts.wsl2) {
        if (!plan->nothing_to_change)
            fprintf(stderr, "%s: OK, and the plan changes something (%s)\n", what,
                    plan->step_count ? plan->steps[0].id : "-");
        CHECK(plan->nothing_to_change);
    }
    plan_reaches_ok(what, snap, in, plan);
    int paging = -1;
    for (int i = 0; i < chk->todo_count; i++)
        if (is_paging_todo(chk->todo[i].id)) {
            CHECK(paging < 0); /* one item stands for the plan's steps */
            paging = i;
        }
    const bool wants = chk->verdict != HR_VERDICT_OK || hr_plan_find_warning(plan, HR_PW_AUTO_MANAGED) ||
                       hr_plan_find_warning(plan, HR_PW_AUTO_FULL_SYSTEM) ||
                       hr_plan_find_warning(plan, HR_PW_PAGING_ON_REMOVABLE);
    if (plan->nothing_to_change) {
        if (paging >= 0)
            fprintf(stderr, "%s: plan changes nothing, check says: %s\n", what, line_text(&chk->todo[paging]));
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
            CHECK_CONTAINS(line_text(t), sz);
            if (rec->target_known)
                CHECK_CONTAINS(line_text(t), rec->target_path);
        } else if (strcmp(t->id, "set-paging") == 0) {
            hr_size_gb(rec->maximum_bytes, sz, sizeof sz);
            CHECK_CONTAINS(line_text(t), sz);
            CHECK_CONTAINS(line_text(t), rec->fixed ? "fixed" : "ranged");
            if (rec->target_known)
                CHECK_CONTAINS(line_text(t), rec->target);
        } else if (strcmp(t->id, "remove-swap") == 0) {
            CHECK(rec->add_bytes == 0 && plan->removal_count > 0);
            for (int i = 0; i < plan->step_count; i++)
                if (strcmp(plan->steps[i].id, "swapoff-old") == 0)
                    CHECK_CONTAINS(line_text(t), plan->steps[i].command + strlen("sudo swapoff "));
        } else if (strcmp(t->id, "make-room") == 0) {
            CHECK(!rec->target_known);
        }
    }
out:
    free(plan);
    free(chk);
    free(ap);
}

/* The sample workflows (tests/fixtures/workflows/est_*.json), read once. */
#define MAX_WF 16
static hr_est_input *wf_in[MAX_WF];
static char wf_name[MAX_WF][64];
static int wf_count, wf_combos, wf_feasible_ok;

/* dir/name read whole (at most max - 1 bytes) into a buffer the caller frees; NULL when it
 * cannot be read (a failed check). */
static char *read_fixture(const char *dir, const char *name, size_t max, size_t *len)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    char *buf = malloc(max);
    *len = buf ? fread(buf, 1, max - 1, f) : 0;
    fclose(f);
    CHECK(buf != NULL);
    return buf;
}

static void load_workflow(const char *dir, const char *name)
{
    size_t n = strlen(name);
    if (wf_count >= MAX_WF || strncmp(name, "est_", 4) != 0 || n < 6 || strcmp(name + n - 5, ".json") != 0)
        return;
    size_t len = 0;
    char *buf = read_fixture(dir, name, (size_t)1 << 20, &len);
    if (!buf)
        return;
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_est_input *in = calloc(1, sizeof *in);
    hr_est_wf_result res;
    hr_error err = { 0 };
    CHECK(hr_workflow_parse(name, buf, len, wf, &err) == 0);
    CHECK(hr_est_from_workflow(wf, in, &res, &err) == 0);
    hr_workflow_free(wf);
    free(wf);
    free(buf);
    wf_in[wf_count] = in;
    hr_strlcpy(wf_name[wf_count++], name, sizeof wf_name[0]);
}

static int rank(hr_check_verdict v)
{
    return v == HR_VERDICT_UNKNOWN ? 3 : (int)v;
}

static void agree(const char *machine, const hr_snapshot *snap, const hr_plan_inputs *in);

/* The one sizing rule over every sample workflow and ComfyUI's version known or not: check,
 * estimate and plan agree on the need; the recommended maximum is never under the table (nor
 * under what the need asks); carrying the plan out never makes the verdict worse, and reaches
 * OK where it can be carried out in full (agree → plan_reaches_ok). */
static void every_workflow(const char *machine, const hr_snapshot *snap)
{
    static const int versions[][3] = { { -1, 0, 0 }, { 0, 3, 60 }, { 0, 27, 0 } };
    static hr_estimate e;
    for (int w = 0; w < wf_count; w++)
        for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
            hr_est_machine m;
            hr_est_machine_init(&m);
            hr_est_machine_from_snapshot(&m, snap);
            if (snap->ram.total_bytes == HR_UNKNOWN)
                m.ram_bytes = 16 * GIB;
            m.version_known = versions[v][0] >= 0;
            if (m.version_known)
                memcpy(m.version, versions[v], sizeof m.version);
            hr_error err = { 0 };
            CHECK(hr_estimate_run(wf_in[w], &m, NULL, &e, &err) == 0);
            hr_plan_inputs in;
            hr_plan_inputs_init(&in);
            in.recorded = true;
            if (snap->ram.total_bytes == HR_UNKNOWN)
                in.ram_bytes = 16 * GIB;
            hr_plan_inputs_take_estimate(&in, &e);
            char what[600];
            snprintf(what, sizeof what, "%s, %s, ComfyUI %s", machine, wf_name[w],
                     versions[v][0] < 0    ? "unknown"
                     : versions[v][1] == 3 ? "0.3.60"
                                           : "0.27.0");
            hr_plan *p = calloc(1, sizeof *p);
            hr_check *c = calloc(1, sizeof *c);
            wf_combos++;
            if (hr_plan_compute(snap, &in, p, &err) == 0) {
                hr_check_compute(snap, &in, p, c);
                const hr_plan_recommended *r = &p->recommended;
                /* one need: the estimate's range is plan's and check's */
                CHECK_EQ_U64(r->need.high, e.commit.high);
                CHECK_EQ_U64(r->need.low, e.commit.low);
                CHECK_EQ_U64(c->need_bytes, e.commit.high);
                /* the table is a floor, and so is what the need asks */
                if (r->wanted_bytes < r->table_bytes || r->wanted_bytes < r->estimate_bytes)
                    fprintf(stderr, "%s: the plan asks %llu, the table %llu, the need %llu\n", what,
                            (unsigned long long)r->wanted_bytes, (unsigned long long)r->table_bytes,
                            (unsigned long long)r->estimate_bytes);
                CHECK(r->wanted_bytes >= r->table_bytes);
                CHECK(r->wanted_bytes >= r->estimate_bytes);
                /* a video workflow sizes from the video row */
                if (hr_workload_of_estimate(&e) == HR_WORKLOAD_VIDEO)
                    CHECK(p->facts.workload == HR_WORKLOAD_VIDEO);
                /* carrying the plan out never makes the verdict worse; one that cannot be
                 * carried out is not offered as OK */
                if (rank(c->verdict_after) > rank(c->verdict) && c->verdict != HR_VERDICT_UNKNOWN)
                    fprintf(stderr, "%s: %s now, %s with the plan\n", what, hr_check_verdict_label(c->verdict),
                            hr_check_verdict_label(c->verdict_after));
                CHECK(c->verdict == HR_VERDICT_UNKNOWN || rank(c->verdict_after) <= rank(c->verdict));
                if (!c->plan_feasible)
                    CHECK(c->verdict_after == c->verdict);
                /* check judges the plan's need, or against a memory cgroup's limit the same
                 * run without the programs outside the cgroup */
                const hr_run_need *jn = &c->need;
                if (c->capacity_basis == HR_CAP_CGROUP && r->need.others_basis == HR_OTHERS_MEASURED)
                    CHECK(jn->others_basis == HR_OTHERS_OUTSIDE_CGROUP && jn->others == 0 && jn->low == r->need.low &&
                          jn->high == r->need.high);
                else
                    CHECK(jn->others == r->need.others && jn->must_back == r->need.must_back &&
                          jn->fail_below == r->need.fail_below);
                /* below the low end with the others is never better than WILL FAIL but for the
                 * growth Windows or a range may still give (S1.2, S3.2) */
                if (c->capacity_bytes != HR_UNKNOWN &&
                    hr_sat_add(c->capacity_bytes, (uint64_t)1 << 30) < jn->fail_below)
                    CHECK(c->verdict != HR_VERDICT_OK);
                if (c->verdict == HR_VERDICT_OK)
                    CHECK(c->capacity_bytes != HR_UNKNOWN && c->capacity_bytes + ((uint64_t)1 << 30) >= jn->must_back);
                if (c->plan_feasible && c->verdict_after == HR_VERDICT_OK && !r->room_capped)
                    wf_feasible_ok++;
            }
            free(p);
            free(c);
            agree(what, snap, &in);
        }
}

static void every_input(const char *machine, const hr_snapshot *snap)
{
    every_workflow(machine, snap);
    static const hr_workload workloads[] = { HR_WORKLOAD_NONE, HR_WORKLOAD_SD15, HR_WORKLOAD_SDXL, HR_WORKLOAD_FLUX,
                                             HR_WORKLOAD_VIDEO };
    static const uint64_t vram[] = { HR_UNKNOWN, 0, 6 * GIB, 8 * GIB, 12 * GIB, 24 * GIB };
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
                    in.ram_bytes = 16 * GIB; /* a tree that cannot tell: what a user gives */
                agree(machine, snap, &in);
                if (range)
                    continue;
                /* --comfy-args "--lowvram" moves the weights to RAM: check's need and plan's size
                 * both grow, or stay (S1.2c) — and the properties above hold with it too. */
                hr_plan_inputs low = in;
                low.have_comfy_args = true;
                CHECK(hr_comfy_args_parse("--lowvram", 9, &low.comfy, NULL) == 0);
                agree(machine, snap, &low);
                hr_plan *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
                hr_check *ca = calloc(1, sizeof *ca), *cb = calloc(1, sizeof *cb);
                hr_error err = { 0 };
                if (hr_plan_compute(snap, &in, a, &err) == 0 && hr_plan_compute(snap, &low, b, &err) == 0) {
                    hr_check_compute(snap, &in, a, ca);
                    hr_check_compute(snap, &low, b, cb);
                    CHECK(cb->need_bytes >= ca->need_bytes);
                    CHECK(b->recommended.wanted_bytes >= a->recommended.wanted_bytes || a->facts.row == HR_ROW_64);
                    if (vram[v] == 24 * GIB && workloads[w] == HR_WORKLOAD_SDXL)
                        CHECK(cb->need_bytes > ca->need_bytes); /* a big card no longer holds it */
                }
                free(a);
                free(b);
                free(ca);
                free(cb);
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

/* The recorded machine with a small custom file on its system drive (X.dump: what plan keeps
 * for crash dumps, and apply must keep too), the rest of its configuration as recorded but for
 * automatic management (off: the C: file is custom), with dumps on, not known and off; and with
 * the recorded file beside it on another drive cut to 16 GB, so that the plan grows it. */
static void dump_variants(const char *name, const hr_snapshot *rec)
{
    static const hr_tri dumps[] = { HR_TRI_YES, HR_TRI_UNKNOWN, HR_TRI_NO };
    static const char *const dump_names[] = { "on", "not known", "off" };
    char sys = hr_drive_letter(rec->platform.system_volume);
    if (!sys || !rec->paging_config.s.ok)
        return;
    for (int shape = 0; shape < 2; shape++)
        for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
            hr_snapshot *s = malloc(sizeof *s);
            *s = *rec;
            hr_paging_config *cfg = &s->paging_config;
            int kept = 0;
            for (int i = 0; i < cfg->count; i++) {
                hr_paging_config_entry *e = &cfg->entries[i];
                if (e->mode == HR_PAGING_MODE_AUTOMATIC || hr_drive_letter(e->path) == sys)
                    continue;
                if (shape == 1 && e->mode == HR_PAGING_MODE_CUSTOM)
                    e->initial_bytes = e->maximum_bytes = 16 * GIB;
                cfg->entries[kept++] = *e;
            }
            cfg->count = kept;
            if (shape == 1 && kept == 0)
                goto next; /* nothing beside C: to grow */
            memmove(&cfg->entries[1], &cfg->entries[0], (size_t)kept * sizeof cfg->entries[0]);
            hr_paging_config_entry *c = &cfg->entries[0];
            memset(c, 0, sizeof *c);
            snprintf(c->path, sizeof c->path, "%c:\\pagefile.sys", sys);
            c->mode = HR_PAGING_MODE_CUSTOM;
            c->initial_bytes = c->maximum_bytes = 4 * GIB;
            c->priority = HR_UNKNOWN_I64;
            cfg->count++;
            cfg->automatic = HR_TRI_NO;
            cfg->dump_needs_system_paging = dumps[d];
            cfg->crash_dump_enabled = dumps[d] == HR_TRI_UNKNOWN ? HR_UNKNOWN_I64 : dumps[d] == HR_TRI_YES ? 7 : 0;
            /* In use as configured (no restart pending): the files follow the registry. */
            s->paging_count = 0;
            for (int i = 0; i < cfg->count && s->paging_count < HR_MAX_PAGING; i++) {
                hr_paging *pg = &s->paging[s->paging_count++];
                memset(pg, 0, sizeof *pg);
                hr_strlcpy(pg->path, cfg->entries[i].path, sizeof pg->path);
                pg->kind = HR_PAGING_PAGEFILE;
                pg->size_bytes = cfg->entries[i].initial_bytes != HR_UNKNOWN ? cfg->entries[i].initial_bytes : 2 * GIB;
                pg->peak_bytes = HR_UNKNOWN;
                pg->priority = HR_UNKNOWN_I64;
                for (int v = 0; v < s->volume_count; v++)
                    if (hr_same_drive(s->volumes[v].dev.mount_point, pg->path)) {
                        pg->has_device = true;
                        pg->device = s->volumes[v].dev;
                    }
            }
            hr_section_ok(&s->paging_s, "test");
            s->commit.limit_bytes =
                hr_sat_add(hr_commit_ram_part(s, HR_OS_WINDOWS, s->ram.total_bytes), hr_snapshot_disk_paging_bytes(s));
            char what[300];
            snprintf(what, sizeof what, "%s + %c: 4 GB%s, crash dumps %s", name, sys,
                     shape ? ", the other file cut to 16 GB" : "", dump_names[d]);
            machines++;
            dump_machines++;
            every_input(what, s);
        next:
            free(s);
        }
}

static void windows_recording(const char *dir, const char *name)
{
    size_t n = strlen(name);
    if (n < 6 || strcmp(name + n - 5, ".json") != 0)
        return;
    size_t len = 0;
    char *buf = read_fixture(dir, name, (size_t)4 << 20, &len);
    if (!buf)
        return;
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_error err = { 0 };
    int r = buf && snap ? hr_win_replay(buf, len, snap, &err) : HR_ENOMEM;
    CHECK(r == 0 || r == HR_EPARTIAL);
    if (r == 0 || r == HR_EPARTIAL) {
        machines++;
        every_input(name, snap);
        dump_variants(name, snap);
    }
    free(buf);
    free(snap);
}

/* Machines the recordings lack, built from the facts a probe would read: the two places the
 * rules once disagreed — an f2fs root (plan recommended it, apply refused it) and a drive
 * with room for less than the maximum plus the reserve (plan's range fitted, apply refused
 * the maximum) — on both OSes. */
static hr_volume *add_volume(hr_snapshot *s, const char *mount, const char *fs, uint64_t total, uint64_t free_bytes,
                             bool system)
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
    v->can_hold_swap =
        s->platform.os == HR_OS_WINDOWS ? HR_TRI_YES : hr_swap_fs_capable(HR_OS_LINUX, fs, 1, false, &v->why_not);
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
    hr_strlcpy(s->platform.system_volume, os == HR_OS_WINDOWS ? "C:\\" : "/", sizeof s->platform.system_volume);
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
    hr_error err = { 0 };
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK(!p->recommended.target_known); /* the rule apply uses refuses f2fs */
    CHECK(!p->candidates[0].eligible);
    CHECK_CONTAINS(line_text(&p->candidates[0].reasons[0]), "f2fs");
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
    /* One size, the reserve kept: the largest that fits, said plainly, and the step's own
     * fallocate never breaks the reserve (issue 10: fallocate -l 64G on a / with 65 GB free). */
    hr_plan_inputs_init(&in);
    in.vram_bytes = 8 * GIB;
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK_EQ_U64(p->recommended.maximum_bytes, 47 * GIB);
    CHECK(p->recommended.room_capped);
    bool said = false;
    for (int i = 0; i < p->recommended.reason_count; i++)
        said |= strstr(line_text(&p->recommended.reasons[i]), "no room for the recommended 64 GB on any SSD") != NULL;
    CHECK(said);
    for (int i = 0; i < p->step_count; i++)
        if (strcmp(p->steps[i].id, "create") == 0)
            CHECK_CONTAINS(p->steps[i].command, "fallocate -l 47G /headroom.swap");
    CHECK(hr_room_ok(256 * GIB, 60 * GIB, p->recommended.add_bytes));
    free(s);
    /* An ext4 file system mounted on /tmp (systemd-tmpfiles empties it) or /var/tmp is never
     * the place, however roomy. */
    s = machine(HR_OS_LINUX, 16 * GIB);
    add_volume(s, "/", "ext4", 256 * GIB, 20 * GIB, true);
    add_volume(s, "/tmp", "ext4", 2000 * GIB, 1900 * GIB, false);
    add_volume(s, "/var/tmp", "xfs", 2000 * GIB, 1900 * GIB, false);
    machines++;
    every_input("synthetic: roomy ext4 /tmp and xfs /var/tmp, full /", s);
    hr_plan_inputs_init(&in);
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    for (int i = 0; i < p->candidate_count; i++)
        if (strncmp(p->candidates[i].target, "/tmp", 4) == 0 || strncmp(p->candidates[i].target, "/var/tmp", 8) == 0) {
            CHECK(!p->candidates[i].eligible);
            CHECK_CONTAINS(line_text(&p->candidates[i].reasons[0]), "systemd-tmpfiles");
        }
    CHECK(!p->recommended.target_known || strcmp(p->recommended.target, "/") == 0);
    free(s);
    /* headroom's own 2 GB file on a nearly full /, room on /data: plan says "add N (N + 2 in
     * all)" at /data/headroom.swap; apply, which keeps one file of its own and replaces the
     * old one, must end at the plan's total — never N with the 2 GB deleted. */
    s = machine(HR_OS_LINUX, 16 * GIB);
    add_volume(s, "/", "ext4", 256 * GIB, 20 * GIB, true);
    add_volume(s, "/data", "ext4", 1000 * GIB, 900 * GIB, false);
    hr_paging *own = &s->paging[s->paging_count++];
    hr_strlcpy(own->path, "/headroom.swap", sizeof own->path);
    own->kind = HR_PAGING_FILE;
    own->size_bytes = 2 * GIB;
    own->used_bytes = 0;
    own->priority = 10;
    machines++;
    every_input("synthetic: headroom's 2 GB file on a full /, room on /data", s);
    hr_plan_inputs_init(&in);
    in.vram_bytes = 8 * GIB;
    CHECK(hr_plan_compute(s, &in, p, &err) == 0);
    CHECK_STR(p->recommended.target_path, "/data/headroom.swap");
    CHECK_EQ_U64(p->recommended.add_bytes + 2 * GIB, p->recommended.maximum_bytes);
    hr_apply_take take;
    CHECK(hr_apply_take_plan(p, HR_OS_LINUX, &take, &err) == 0);
    hr_apply_state *st = calloc(1, sizeof *st);
    st->os = HR_OS_LINUX;
    hr_strlcpy(st->status, "applied", sizeof st->status);
    st->area_count = 1;
    hr_strlcpy(st->areas[0].path, "/headroom.swap", sizeof st->areas[0].path);
    st->areas[0].size_bytes = 2 * GIB;
    st->areas[0].priority = 10;
    st->areas[0].created = true;
    char own_path[HR_SNAP_PATH_MAX];
    uint64_t own_size = take.size_bytes;
    CHECK(hr_apply_linux_grow_own(st, take.target, take.size_bytes, own_path, sizeof own_path, &own_size));
    /* apply's result: the one file it keeps (the old one goes), the plan's total */
    CHECK_EQ_U64(own_size, p->recommended.maximum_bytes);
    CHECK(own_size >= 2 * GIB);
    free(st);
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
        return; /* README, the fixture script */
    closedir(p);
    hr_probe_opts opts = { .sysroot = tree, .skip_procs = true };
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_error err = { 0 };
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
    char wfdir[1024];
    snprintf(wfdir, sizeof wfdir, "%s/tests/fixtures/workflows", src);
    DIR *d = opendir(wfdir);
    CHECK(d != NULL);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        load_workflow(wfdir, de->d_name);
    if (d)
        closedir(d);
    CHECK(wf_count >= 5);
    synthetic_machines();
    each_fixture(src, "windows", windows_recording);
#ifndef _WIN32
    each_fixture(src, "linux", linux_tree);
#endif
    printf("%d machines (%d of them Windows ones with a crash-dump file on C:), %d combinations: %d accepted "
           "by apply (%d keeping the crash-dump file), %d nothing to change, %d with no file to create; %d carried "
           "out, %d of them then OK; %d plans that lower what is configured (apply: --allow-shrink)\n",
           machines, dump_machines, combos, applied, dump_kept, nothing, no_target, simulated, reached_ok, shrinks);
    printf("the one rule: %d machine × workflow × version combinations, %d where the plan reaches OK in full\n",
           wf_combos, wf_feasible_ok);
    CHECK(wf_feasible_ok > 0);
    CHECK(dump_machines > 0);
    CHECK(dump_kept > 0);
    CHECK(simulated > 0);
    CHECK(machines >= 5);
    CHECK(applied > 0);
    return TEST_DONE();
}
