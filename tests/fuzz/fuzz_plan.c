/* Fuzz the rules engine end to end: the bytes choose every fact of a snapshot (sizes up to
 * the extremes, unknowns, tri-states, strings) and the what-if inputs; plan, check and both
 * renderers must run without a crash, an overflow or a broken invariant. */
#include "core/check/check.h"
#include "core/plan/plan.h"
#include "core/base/size.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct src {
    const uint8_t *p;
    size_t n;
} src;

static uint8_t byte(src *s)
{
    if (!s->n)
        return 0;
    s->n--;
    return *s->p++;
}

/* A size: mostly realistic GiB counts, sometimes an edge (0, unknown, unlimited, huge). */
static uint64_t size_of(src *s)
{
    uint8_t k = byte(s);
    switch (k & 7) {
    case 0: return HR_UNKNOWN;
    case 1: return 0;
    case 2: return UINT64_MAX - (uint64_t)byte(s);
    case 3: return HR_UNLIMITED;
    default: return ((uint64_t)byte(s) << 30) + ((uint64_t)byte(s) << 20);
    }
}

static hr_tri tri(src *s)
{
    return (hr_tri)((int)(byte(s) % 3) - 1);
}

static void text(src *s, char *out, size_t n)
{
    size_t len = byte(s) % 12;
    size_t i = 0;
    for (; i < len && i + 1 < n; i++)
        out[i] = (char)(byte(s) % 3 == 0 ? ':' : 'A' + byte(s) % 26);
    out[i] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    src s = {data, size};
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_plan *plan = malloc(sizeof *plan);
    hr_check *chk = malloc(sizeof *chk);
    if (!snap || !plan || !chk)
        abort();
    hr_os os = (hr_os)(byte(&s) & 1);
    hr_snapshot_init(snap, os);
    snap->ram.total_bytes = size_of(&s);
    snap->ram.used_bytes = size_of(&s);
    snap->commit.limit_bytes = size_of(&s);
    snap->commit.charge_bytes = size_of(&s);
    snap->commit.overcommit_mode = (hr_overcommit)((int)(byte(&s) % 5) - 1);
    snap->commit.overcommit_ratio = byte(&s) % 2 ? HR_UNKNOWN : byte(&s);
    snap->commit.overcommit_kbytes = byte(&s) % 2 ? 0 : size_of(&s);
    snap->paging_s.ok = byte(&s) & 1;
    snap->paging_count = byte(&s) % 5;
    for (int i = 0; i < snap->paging_count; i++) {
        hr_paging *p = &snap->paging[i];
        text(&s, p->path, sizeof p->path);
        p->kind = (hr_paging_kind)(byte(&s) % 5);
        p->size_bytes = size_of(&s);
        p->has_device = byte(&s) & 1;
        p->device.usb = tri(&s);
        p->device.removable = tri(&s);
        p->device.rotational = tri(&s);
        text(&s, p->device.mount_point, sizeof p->device.mount_point);
    }
    snap->paging_config.s.ok = byte(&s) & 1;
    snap->paging_config.automatic = tri(&s);
    snap->paging_config.temp_page_file = tri(&s);
    snap->paging_config.count = byte(&s) % 4;
    for (int i = 0; i < snap->paging_config.count; i++) {
        hr_paging_config_entry *e = &snap->paging_config.entries[i];
        text(&s, e->path, sizeof e->path);
        e->mode = (hr_paging_mode)(byte(&s) % 3);
        e->initial_bytes = size_of(&s);
        e->maximum_bytes = size_of(&s);
    }
    snap->volume_count = byte(&s) % 6;
    for (int i = 0; i < snap->volume_count; i++) {
        hr_volume *v = &snap->volumes[i];
        text(&s, v->dev.mount_point, sizeof v->dev.mount_point);
        static const char *const fs[] = {"", "NTFS", "ext4", "btrfs", "tmpfs", "overlay", "FAT32", "xfs", "nfs4"};
        strcpy(v->dev.fs_type, fs[byte(&s) % 9]);
        v->dev.rotational = tri(&s);
        v->dev.usb = tri(&s);
        v->dev.removable = tri(&s);
        v->dev.encrypted = tri(&s);
        v->dev.virtual_disk = byte(&s) & 1;
        v->dev.fs_total_bytes = size_of(&s);
        v->dev.fs_free_bytes = size_of(&s);
        v->is_system = byte(&s) & 1;
        v->can_hold_swap = tri(&s);
    }
    snap->gpus.count = byte(&s) % 3;
    for (int i = 0; i < snap->gpus.count; i++) {
        snap->gpus.gpu[i].vram_total_bytes = size_of(&s);
        snap->gpus.gpu[i].shared_total_bytes = size_of(&s);
        snap->gpus.gpu[i].integrated = tri(&s);
    }
    snap->platform.wsl2 = tri(&s);
    snap->platform.container = tri(&s);
    snap->cgroup.memory_max_bytes = size_of(&s);
    snap->cgroup.swap_max_bytes = size_of(&s);
    snap->cgroup.memsw_max_bytes = size_of(&s);
    snap->power.on_battery = tri(&s);
    snap->power.power_saver = tri(&s);
    snap->compression.windows_compression = tri(&s);
    snap->compression.zswap_enabled = tri(&s);
    snap->procs.count = byte(&s) % 4;
    for (int i = 0; i < snap->procs.count; i++) {
        text(&s, snap->procs.proc[i].name, sizeof snap->procs.proc[i].name);
        snap->procs.proc[i].resident_bytes = size_of(&s);
        snap->procs.proc[i].commit_bytes = size_of(&s);
    }

    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    if (byte(&s) & 1)
        in.ram_bytes = size_of(&s);
    if (byte(&s) & 1)
        in.vram_bytes = size_of(&s);
    in.os = (int)(byte(&s) % 3) - 1;
    in.workload = (hr_workload)(byte(&s) % 5);
    in.have_comfy_args = byte(&s) & 1;
    in.comfy.lowvram = byte(&s) & 1;
    in.comfy.reserve_vram_given = byte(&s) & 1;
    in.comfy.reserve_vram_bytes = size_of(&s);
    if (byte(&s) & 1)
        in.peak_commit_bytes = size_of(&s);
    in.range = byte(&s) & 1;
    const hr_snapshot *use = byte(&s) % 8 == 0 ? NULL : snap;

    hr_error err = {0};
    if (hr_plan_compute(use, &in, plan, &err) == 0) {
        const hr_plan_recommended *r = &plan->recommended;
        if (r->initial_bytes > r->maximum_bytes || r->maximum_bytes == 0 || plan->step_count <= 0 ||
            plan->warning_count > HR_PLAN_MAX_WARNINGS || plan->candidate_count > HR_MAX_VOLUMES)
            abort();
        for (int i = 0; i < plan->candidate_count; i++) {
            const hr_plan_candidate *c = &plan->candidates[i];
            if (c->fits_fixed && (c->free_bytes == HR_UNKNOWN || c->free_bytes < r->maximum_bytes))
                abort();   /* a wrapped sum would make a full disk look roomy */
        }
        hr_check_compute(use, &in, plan, chk);
        if ((int)chk->verdict < 0 || chk->verdict > HR_VERDICT_UNKNOWN || chk->todo_count > HR_CHECK_MAX_TODO)
            abort();
        hr_buf b;
        hr_buf_init(&b, 0);
        if (hr_plan_text(plan, &b) != 0 || hr_check_text(chk, &b, true) != 0)
            abort();
        hr_buf_reset(&b);
        hr_json_writer w;
        hr_json_init(&w, &b, false);
        hr_plan_json(plan, &w, NULL);
        if (hr_json_finish(&w) != 0)
            abort();
        hr_buf_free(&b);
    } else if (!err.msg[0]) {
        abort();
    }
    free(snap);
    free(plan);
    free(chk);
    return 0;
}
