#include "core/model/snapshot.h"
#include "core/base/i18n.h"

#include "core/base/size.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hr_device_init(hr_device *d)
{
    memset(d, 0, sizeof *d);
    d->rotational = d->removable = d->usb = d->encrypted = HR_TRI_UNKNOWN;
    d->fs_total_bytes = d->fs_free_bytes = d->fs_used_bytes = HR_UNKNOWN;
}

void hr_snapshot_init(hr_snapshot *s, hr_os os)
{
    memset(s, 0, sizeof *s);
    s->platform.os = os;
    s->platform.wsl2 = HR_TRI_UNKNOWN;
    s->platform.container = HR_TRI_UNKNOWN;
    s->platform.page_size = HR_UNKNOWN;

    s->ram.total_bytes = s->ram.available_bytes = s->ram.used_bytes = HR_UNKNOWN;
    s->ram.compressed_bytes = HR_UNKNOWN;

    s->commit.charge_bytes = s->commit.limit_bytes = s->commit.peak_bytes = HR_UNKNOWN;
    if (os == HR_OS_WINDOWS)
        hr_section_fail(&s->pressure.s, HR_N("Windows keeps no pressure stall information"));
    s->commit.enforced = HR_TRI_UNKNOWN;
    s->commit.overcommit_mode = HR_OVERCOMMIT_UNKNOWN;
    s->commit.overcommit_ratio = s->commit.overcommit_kbytes = s->commit.oom_kills = HR_UNKNOWN;

    for (int i = 0; i < HR_MAX_PAGING; i++) {
        s->paging[i].size_bytes = s->paging[i].used_bytes = s->paging[i].peak_bytes = HR_UNKNOWN;
        s->paging[i].priority = HR_UNKNOWN_I64;
        hr_device_init(&s->paging[i].device);
    }
    s->paging_config.automatic = HR_TRI_UNKNOWN;
    s->paging_config.temp_page_file = HR_TRI_UNKNOWN;
    s->paging_config.dump_needs_system_paging = HR_TRI_UNKNOWN;
    s->paging_config.crash_dump_enabled = HR_UNKNOWN_I64;
    for (int i = 0; i < HR_MAX_VOLUMES; i++) {
        hr_device_init(&s->volumes[i].dev);
        s->volumes[i].can_hold_swap = HR_TRI_UNKNOWN;
    }

    hr_compression *c = &s->compression;
    c->zswap_enabled = HR_TRI_UNKNOWN;
    c->zswap_max_pool_percent = c->zswap_pool_bytes = c->zswap_stored_bytes = HR_UNKNOWN;
    c->windows_compression = HR_TRI_UNKNOWN;
    c->windows_store_bytes = HR_UNKNOWN;

    hr_cgroup *g = &s->cgroup;
    g->memory_max_bytes = g->memory_high_bytes = g->swap_max_bytes = g->memsw_max_bytes = HR_UNKNOWN;
    g->memory_current_bytes = g->memory_peak_bytes = g->oom_kills = HR_UNKNOWN;

    s->power.on_battery = s->power.has_battery = s->power.power_saver = HR_TRI_UNKNOWN;
    s->power.battery_percent = HR_UNKNOWN;
}

void hr_section_ok(hr_section *s, const char *source)
{
    s->ok = true;
    hr_words_clear(&s->why);
    if (source)
        hr_words_name(&s->source, source);
}

void hr_section_fail(hr_section *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_words_vadd(&s->why, fmt, ap);
    va_end(ap);
    s->ok = false;
}

void hr_section_fail_error(hr_section *s, const hr_error *err)
{
    s->ok = false;
    hr_words_add_error(&s->why, err);
}

void hr_snapshot_note(hr_snapshot *s, const char *rule, const char *fmt, ...)
{
    if (s->note_count >= HR_MAX_NOTES)
        return;
    hr_note *n = &s->notes[s->note_count++];
    hr_strlcpy(n->rule, rule ? rule : "", sizeof n->rule);
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&n->msg, fmt, ap);
    va_end(ap);
}

bool hr_snapshot_partial(const hr_snapshot *s)
{
    const hr_section *all[] = { &s->ram.s,         &s->commit.s, &s->paging_s, &s->paging_config.s, &s->volumes_s,
                                &s->compression.s, &s->cgroup.s, &s->gpus.s,   &s->power.s };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!all[i]->ok && !hr_words_empty(&all[i]->why))
            return true;
    return false;
}

uint64_t hr_snapshot_disk_paging_bytes(const hr_snapshot *s)
{
    uint64_t sum = 0;
    for (int i = 0; i < s->paging_count; i++) {
        const hr_paging *p = &s->paging[i];
        if (p->kind == HR_PAGING_ZRAM || p->size_bytes == HR_UNKNOWN)
            continue;
        sum = hr_sat_add(sum, p->size_bytes);
    }
    return sum;
}

uint64_t hr_snapshot_disk_paging_known(const hr_snapshot *s)
{
    return s->paging_s.ok ? hr_snapshot_disk_paging_bytes(s) : HR_UNKNOWN;
}

const char *hr_paging_kind_name(hr_paging_kind k)
{
    switch (k) {
    case HR_PAGING_FILE: return HR_N("file");
    case HR_PAGING_PARTITION: return HR_N("partition");
    case HR_PAGING_ZRAM: return HR_N("zram");
    case HR_PAGING_PAGEFILE: return HR_N("pagefile");
    default: return HR_N("other");
    }
}

const char *hr_paging_mode_name(hr_paging_mode m)
{
    switch (m) {
    case HR_PAGING_MODE_CUSTOM: return HR_N("custom");
    case HR_PAGING_MODE_SYSTEM_MANAGED: return HR_N("system-managed");
    case HR_PAGING_MODE_AUTOMATIC: return HR_N("automatic");
    default: return HR_N("unknown");
    }
}

const char *hr_tri_name(hr_tri t)
{
    return t == HR_TRI_YES ? "yes" : t == HR_TRI_NO ? "no" : "unknown";
}
