/* Test helpers: build Windows-like and Linux-like snapshots by hand (the facts a backend
 * would read), so placement and warnings are tested against exact, visible inputs. */
#ifndef HR_TEST_PLAN_SNAP_H
#define HR_TEST_PLAN_SNAP_H

#include "core/plan/plan.h"
#include "core/base/size.h"
#include "plan_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GB(n) ((uint64_t)(n) << 30)

static inline hr_snapshot *snap_new(hr_os os, uint64_t ram)
{
    hr_snapshot *s = malloc(sizeof *s);
    hr_snapshot_init(s, os);
    hr_section_ok(&s->ram.s, "test");
    s->ram.total_bytes = ram;
    s->ram.used_bytes = ram / 2;
    s->ram.available_bytes = ram / 2;
    hr_section_ok(&s->paging_s, "test");
    hr_section_ok(&s->volumes_s, "test");
    hr_section_ok(&s->gpus.s, "test");
    hr_section_ok(&s->power.s, "test");
    s->power.on_battery = HR_TRI_NO;
    s->power.power_saver = HR_TRI_NO;
    s->platform.container = HR_TRI_NO;
    s->platform.wsl2 = HR_TRI_NO;
    hr_strlcpy(s->platform.system_volume, os == HR_OS_WINDOWS ? "C:\\" : "/", sizeof s->platform.system_volume);
    if (os == HR_OS_WINDOWS) {
        hr_section_ok(&s->paging_config.s, "test");
        s->paging_config.present = true;
        s->paging_config.automatic = HR_TRI_NO;
        s->compression.windows_compression = HR_TRI_YES;
        s->commit.overcommit_mode = HR_OVERCOMMIT_NONE;
    } else {
        s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
        s->commit.overcommit_ratio = 50;
        s->commit.overcommit_kbytes = 0;
        s->cgroup.memory_max_bytes = HR_UNLIMITED;
        s->cgroup.swap_max_bytes = HR_UNLIMITED;
        s->compression.zswap_enabled = HR_TRI_NO;
    }
    return s;
}

/* A volume: mount "C:\\" or "/data"; ssd: 1 SSD, 0 HDD, -1 unknown. */
static inline hr_volume *snap_volume(hr_snapshot *s, const char *mount, const char *fs, int ssd, uint64_t total,
                                     uint64_t free_bytes, bool is_system)
{
    hr_volume *v = &s->volumes[s->volume_count++];
    hr_strlcpy(v->dev.mount_point, mount, sizeof v->dev.mount_point);
    hr_strlcpy(v->dev.name, mount, sizeof v->dev.name);
    hr_strlcpy(v->dev.fs_type, fs, sizeof v->dev.fs_type);
    v->dev.rotational = ssd == 1 ? HR_TRI_NO : ssd == 0 ? HR_TRI_YES : HR_TRI_UNKNOWN;
    v->dev.removable = HR_TRI_NO;
    v->dev.usb = HR_TRI_NO;
    v->dev.encrypted = HR_TRI_NO;
    v->dev.fs_total_bytes = total;
    v->dev.fs_free_bytes = free_bytes;
    v->is_system = is_system;
    v->can_hold_swap = HR_TRI_YES;
    v->fs_devices = 1; /* a single-device file system (what btrfs needs for a swap file) */
    return v;
}

static inline hr_paging *snap_paging(hr_snapshot *s, const char *path, hr_paging_kind kind, uint64_t size,
                                     const hr_volume *on)
{
    hr_paging *p = &s->paging[s->paging_count++];
    hr_strlcpy(p->path, path, sizeof p->path);
    p->kind = kind;
    p->size_bytes = size;
    p->used_bytes = 0;
    if (on) {
        p->has_device = true;
        p->device = on->dev;
    }
    return p;
}

static inline void snap_config(hr_snapshot *s, const char *path, hr_paging_mode mode, uint64_t initial,
                               uint64_t maximum)
{
    hr_paging_config_entry *e = &s->paging_config.entries[s->paging_config.count++];
    hr_strlcpy(e->path, path, sizeof e->path);
    e->mode = mode;
    e->initial_bytes = initial;
    e->maximum_bytes = maximum;
    e->priority = HR_UNKNOWN_I64;
}

static inline hr_gpu *snap_gpu(hr_snapshot *s, const char *name, uint64_t vram, bool integrated)
{
    hr_gpu *g = &s->gpus.gpu[s->gpus.count++];
    hr_strlcpy(g->name, name, sizeof g->name);
    g->vram_total_bytes = integrated ? 0 : vram;
    g->vram_used_bytes = 0;
    g->shared_total_bytes = integrated ? vram : HR_UNKNOWN;
    g->shared_used_bytes = HR_UNKNOWN;
    g->integrated = integrated ? HR_TRI_YES : HR_TRI_NO;
    return g;
}

static inline hr_plan *plan_run(const hr_snapshot *s, const hr_plan_inputs *in)
{
    hr_plan *p = calloc(1, sizeof *p);
    hr_error err = { 0 };
    int r = hr_plan_compute(s, in, p, &err);
    if (r != 0)
        fprintf(stderr, "hr_plan_compute: %s\n", err.msg);
    return p;
}

/* The warning ids, sorted and joined with ",": compares a plan's set with the expected one. */
static inline void warning_set(const hr_plan *p, char *out, size_t n)
{
    const char *ids[HR_PLAN_MAX_WARNINGS];
    int c = p->warning_count;
    for (int i = 0; i < c; i++)
        ids[i] = p->warnings[i].id;
    for (int i = 1; i < c; i++)
        for (int j = i; j > 0 && strcmp(ids[j - 1], ids[j]) > 0; j--) {
            const char *t = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = t;
        }
    out[0] = '\0';
    for (int i = 0; i < c; i++) {
        if (i)
            strncat(out, ",", n - strlen(out) - 1);
        strncat(out, ids[i], n - strlen(out) - 1);
    }
}

static inline bool has_reason(const hr_plan *p, const char *id, const char *rule)
{
    for (int i = 0; i < p->recommended.reason_count; i++)
        if (strcmp(p->recommended.reasons[i].id, id) == 0 && strcmp(p->recommended.reasons[i].rule, rule) == 0)
            return true;
    return false;
}

static inline const hr_plan_step *find_step(const hr_plan *p, const char *id)
{
    for (int i = 0; i < p->step_count; i++)
        if (strcmp(p->steps[i].id, id) == 0)
            return &p->steps[i];
    return NULL;
}

/* A step's command and text, or NULL when the plan has no such step (CHECK_CONTAINS then
 * fails and says so, instead of the test dereferencing NULL). */
static inline const char *step_command(const hr_plan *p, const char *id)
{
    const hr_plan_step *s = find_step(p, id);
    return s ? s->command : NULL;
}

static inline const char *step_text(const hr_plan *p, const char *id)
{
    const hr_plan_step *s = find_step(p, id);
    return s ? step_text_of(s) : NULL;
}

static inline int step_index(const hr_plan *p, const char *id)
{
    for (int i = 0; i < p->step_count; i++)
        if (strcmp(p->steps[i].id, id) == 0)
            return i;
    return -1;
}

#endif
