/* headroom — the `status` JSON document (docs/status-json.md). Keys are a contract with
 * users' scripts: add freely, never rename. Sizes are bytes; unknown values are null, and
 * the section's "unknown_reason" says why. */
#include "core/status/status_render.h"

#include "core/model/swap_verdict.h"

/* What the probe said, in English: JSON's language. */
static const char *english(const hr_words *w)
{
    return hr_words_in(w, HR_LANG_EN);
}

/* Limits: null both when unknown and when unlimited; "<key>_unlimited" tells them apart. */
static void limit(hr_json_writer *w, const char *key, const char *flag, uint64_t v)
{
    hr_json_size(w, key, v == HR_UNLIMITED ? HR_UNKNOWN : v);
    if (v == HR_UNKNOWN)
        hr_json_null(w, flag);
    else
        hr_json_bool(w, flag, v == HR_UNLIMITED);
}

static void str_or_null(hr_json_writer *w, const char *key, const char *s)
{
    hr_json_str(w, key, s && s[0] ? s : NULL);
}

static void section(hr_json_writer *w, const hr_section *s)
{
    str_or_null(w, "source", english(&s->source));
    str_or_null(w, "unknown_reason", english(&s->why));
}

static void device(hr_json_writer *w, const char *key, const hr_device *d, const hr_status_device *sd, bool win)
{
    hr_json_begin_object(w, key);
    str_or_null(w, "name", d->name);
    str_or_null(w, "disk", d->disk);
    str_or_null(w, "fs_type", d->fs_type);
    str_or_null(w, "mount_point", d->mount_point);
    hr_json_tri(w, "rotational", d->rotational);
    hr_json_tri(w, "ssd", sd->ssd);
    hr_json_bool(w, "virtual_disk", d->virtual_disk);
    hr_json_tri(w, "removable", d->removable);
    hr_json_tri(w, "usb", d->usb);
    hr_json_tri(w, "encrypted", d->encrypted);
    str_or_null(w, "encryption", d->encryption);
    if (win)
        str_or_null(w, "bus", d->bus);
    hr_json_size(w, "fs_total_bytes", d->fs_total_bytes);
    hr_json_size(w, "fs_free_bytes", d->fs_free_bytes);
    str_or_null(w, "unknown_reason", english(&d->why));
    hr_json_end_object(w);
}

static const char *overcommit_name(hr_overcommit m)
{
    switch (m) {
    case HR_OVERCOMMIT_HEURISTIC: return "heuristic";
    case HR_OVERCOMMIT_ALWAYS: return "always";
    case HR_OVERCOMMIT_NEVER: return "never";
    case HR_OVERCOMMIT_NONE: return "none";
    default: return NULL;
    }
}

static void platform(hr_json_writer *w, const hr_status *st)
{
    const hr_snapshot *s = st->snap;
    hr_json_str(w, "os", s->platform.os == HR_OS_WINDOWS ? "windows" : "linux");
    str_or_null(w, "os_name", english(&s->platform.os_name));
    hr_json_tri(w, "wsl2", s->platform.wsl2);
    hr_json_tri(w, "container", s->platform.container);
    str_or_null(w, "container_kind", s->platform.container_kind);
    hr_json_size(w, "page_size_bytes", s->platform.page_size);
    str_or_null(w, "system_volume", s->platform.system_volume);
    hr_json_bool(w, "partial", st->partial);
}

static void ram_commit(hr_json_writer *w, const hr_status *st)
{
    const hr_snapshot *s = st->snap;
    hr_json_begin_object(w, "ram");
    hr_json_size(w, "total_bytes", s->ram.total_bytes);
    hr_json_size(w, "available_bytes", s->ram.available_bytes);
    hr_json_size(w, "used_bytes", s->ram.used_bytes);
    hr_json_size(w, "compressed_bytes", s->ram.compressed_bytes);
    section(w, &s->ram.s);
    hr_json_end_object(w);

    const hr_commit *c = &s->commit;
    hr_json_begin_object(w, "commit");
    hr_json_size(w, "charge_bytes", c->charge_bytes);
    hr_json_size(w, "limit_bytes", c->limit_bytes);
    hr_json_size(w, "peak_bytes", c->peak_bytes);
    hr_json_tri(w, "enforced", c->enforced);
    hr_json_size(w, "real_ceiling_bytes", st->ceiling.bytes);
    if (s->platform.os == HR_OS_LINUX) {
        hr_json_begin_object(w, "overcommit");
        if (c->overcommit_mode == HR_OVERCOMMIT_UNKNOWN)
            hr_json_null(w, "mode");
        else
            hr_json_i64(w, "mode", c->overcommit_mode);
        hr_json_str(w, "mode_name", overcommit_name(c->overcommit_mode));
        hr_json_size(w, "ratio_percent", c->overcommit_ratio);
        hr_json_size(w, "kbytes", c->overcommit_kbytes);
        hr_json_end_object(w);
    }
    section(w, &c->s);
    hr_json_end_object(w);
}

static void paging(hr_json_writer *w, const hr_status *st)
{
    const hr_snapshot *s = st->snap;
    hr_json_begin_array(w, "paging");
    for (int i = 0; i < s->paging_count; i++) {
        const hr_paging *p = &s->paging[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "path", p->path);
        hr_json_str(w, "kind", hr_paging_kind_name(p->kind));
        hr_json_size(w, "size_bytes", p->size_bytes);
        hr_json_size(w, "used_bytes", p->used_bytes);
        hr_json_size(w, "peak_bytes", p->peak_bytes);
        if (p->priority == HR_UNKNOWN_I64)
            hr_json_null(w, "priority");
        else
            hr_json_i64(w, "priority", p->priority);
        hr_json_bool(w, "disk_backstop", st->paging[i].disk_backstop);
        if (p->has_device)
            device(w, "device", &p->device, &st->paging[i].device, s->platform.os == HR_OS_WINDOWS);
        else
            hr_json_null(w, "device");
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_object(w, "paging_status");
    hr_json_u64(w, "count", (uint64_t)s->paging_count);
    hr_json_u64(w, "disk_total_bytes", st->disk_paging_bytes);
    section(w, &s->paging_s);
    hr_json_end_object(w);

    const hr_paging_config *pc = &s->paging_config;
    if (s->platform.os == HR_OS_WINDOWS || pc->present || !hr_words_empty(&pc->s.why)) {
        hr_json_begin_object(w, "paging_config");
        hr_json_bool(w, "present", pc->present);
        hr_json_tri(w, "automatic", pc->automatic);
        hr_json_tri(w, "temp_page_file", pc->temp_page_file);
        hr_json_begin_array(w, "entries");
        for (int i = 0; i < pc->count; i++) {
            const hr_paging_config_entry *e = &pc->entries[i];
            hr_json_begin_object(w, NULL);
            hr_json_str(w, "path", e->path);
            hr_json_str(w, "mode", hr_paging_mode_name(e->mode));
            hr_json_size(w, "initial_bytes", e->initial_bytes);
            hr_json_size(w, "maximum_bytes", e->maximum_bytes);
            if (e->priority == HR_UNKNOWN_I64)
                hr_json_null(w, "priority");
            else
                hr_json_i64(w, "priority", e->priority);
            hr_json_end_object(w);
        }
        hr_json_end_array(w);
        hr_json_begin_array(w, "existing");
        for (int i = 0; i < pc->existing_count; i++)
            hr_json_str(w, NULL, pc->existing[i]);
        hr_json_end_array(w);
        str_or_null(w, "ignored", english(&pc->notes)); /* Linux (/etc/fstab): null */
        section(w, &pc->s);
        hr_json_end_object(w);
    }
}

static void volumes(hr_json_writer *w, const hr_status *st)
{
    const hr_snapshot *s = st->snap;
    hr_json_begin_array(w, "volumes");
    for (int i = 0; i < s->volume_count; i++) {
        const hr_volume *v = &s->volumes[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "mount_point", v->dev.mount_point);
        hr_json_bool(w, "system", v->is_system);
        hr_json_bool(w, "holds_paging", v->holds_paging);
        hr_json_tri(w, "can_hold_swap", v->can_hold_swap);
        char why[HR_SNAP_WHY_MAX], id[32];
        hr_swap_why_text_lang(&v->why_not, HR_LANG_EN, why, sizeof why);
        str_or_null(w, "why_not", why);
        hr_swap_why_id(&v->why_not, id, sizeof id);
        str_or_null(w, "why_not_id", id); /* a closed set: scripts test this, not the words */
        device(w, "device", &v->dev, &st->volumes[i], s->platform.os == HR_OS_WINDOWS);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_object(w, "volumes_status");
    section(w, &s->volumes_s);
    hr_json_end_object(w);
}

static void compression(hr_json_writer *w, const hr_snapshot *s)
{
    const hr_compression *c = &s->compression;
    hr_json_begin_object(w, "compression");
    hr_json_str(w, "note", "compression keeps pages in RAM; it is not a disk backstop (S5.3)");
    if (s->platform.os == HR_OS_LINUX) {
        hr_json_begin_object(w, "zswap");
        hr_json_tri(w, "enabled", c->zswap_enabled);
        str_or_null(w, "compressor", c->zswap_compressor);
        hr_json_size(w, "max_pool_percent", c->zswap_max_pool_percent);
        hr_json_size(w, "pool_bytes", c->zswap_pool_bytes);
        hr_json_size(w, "stored_bytes", c->zswap_stored_bytes);
        hr_json_end_object(w);
        hr_json_begin_array(w, "zram");
        for (int i = 0; i < c->zram_count; i++) {
            const hr_zram *z = &c->zram[i];
            hr_json_begin_object(w, NULL);
            hr_json_str(w, "name", z->name);
            hr_json_size(w, "disksize_bytes", z->disksize_bytes);
            hr_json_size(w, "orig_data_bytes", z->orig_data_bytes);
            hr_json_size(w, "compr_data_bytes", z->compr_data_bytes);
            hr_json_size(w, "mem_used_bytes", z->mem_used_bytes);
            str_or_null(w, "algorithm", z->algorithm);
            hr_json_bool(w, "used_as_swap", z->used_as_swap);
            hr_json_end_object(w);
        }
        hr_json_end_array(w);
    } else {
        hr_json_tri(w, "memory_compression", c->windows_compression);
        hr_json_size(w, "store_bytes", c->windows_store_bytes);
    }
    section(w, &c->s);
    hr_json_end_object(w);
}

static void cgroup(hr_json_writer *w, const hr_snapshot *s)
{
    const hr_cgroup *g = &s->cgroup;
    if (s->platform.os != HR_OS_LINUX)
        return;
    hr_json_begin_object(w, "cgroup");
    if (g->memory_version == HR_CGROUP_NONE)
        hr_json_null(w, "version");
    else
        hr_json_u64(w, "version", (uint64_t)g->memory_version);
    hr_json_bool(w, "hybrid", g->hybrid);
    str_or_null(w, "path", g->path);
    str_or_null(w, "dir", g->dir);
    limit(w, "memory_max_bytes", "memory_max_unlimited", g->memory_max_bytes);
    limit(w, "memory_high_bytes", "memory_high_unlimited", g->memory_high_bytes);
    limit(w, "swap_max_bytes", "swap_max_unlimited", g->swap_max_bytes);
    limit(w, "memsw_max_bytes", "memsw_max_unlimited", g->memsw_max_bytes);
    hr_json_size(w, "memory_current_bytes", g->memory_current_bytes);
    hr_json_size(w, "memory_peak_bytes", g->memory_peak_bytes);
    hr_json_size(w, "oom_kills", g->oom_kills);
    section(w, &g->s);
    hr_json_end_object(w);
}

static void gpus(hr_json_writer *w, const hr_snapshot *s)
{
    hr_json_begin_array(w, "gpus");
    for (int i = 0; i < s->gpus.count; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", g->name);
        str_or_null(w, "vendor", g->vendor);
        str_or_null(w, "source", g->source);
        hr_json_size(w, "vram_total_bytes", g->vram_total_bytes);
        hr_json_size(w, "vram_used_bytes", g->vram_used_bytes);
        hr_json_size(w, "shared_total_bytes", g->shared_total_bytes);
        hr_json_size(w, "shared_used_bytes", g->shared_used_bytes);
        hr_json_tri(w, "integrated", g->integrated);
        hr_json_size(w, "python_vram_bytes", g->python_vram_bytes);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_object(w, "gpus_status");
    str_or_null(w, "notes", english(&s->gpus.notes));
    section(w, &s->gpus.s);
    hr_json_end_object(w);
}

static void power(hr_json_writer *w, const hr_snapshot *s)
{
    hr_json_begin_object(w, "power");
    hr_json_tri(w, "on_battery", s->power.on_battery);
    hr_json_tri(w, "has_battery", s->power.has_battery);
    hr_json_size(w, "battery_percent", s->power.battery_percent);
    hr_json_tri(w, "power_saver", s->power.power_saver);
    section(w, &s->power.s);
    hr_json_end_object(w);
}

void hr_status_report_json(const hr_status *st, hr_json_writer *w, const char *key)
{
    const hr_snapshot *s = st->snap;
    hr_json_begin_object(w, key);
    hr_json_str(w, "schema", HR_STATUS_SCHEMA);
    platform(w, st);
    ram_commit(w, st);
    paging(w, st);
    volumes(w, st);
    compression(w, s);
    cgroup(w, s);
    gpus(w, s);
    power(w, s);
    /* Notes: facts that need the whole snapshot, each with its rule. Only the Windows model
     * writes notes; the key is always there on Windows, elsewhere when there is one. */
    if (s->platform.os == HR_OS_WINDOWS || s->note_count > 0) {
        hr_json_begin_array(w, "notes");
        for (int i = 0; i < s->note_count; i++) {
            hr_json_begin_object(w, NULL);
            hr_json_str(w, "rule", s->notes[i].rule);
            char text[HR_SNAP_WHY_MAX * 2];
            hr_msg_format(&s->notes[i].msg, HR_LANG_EN, text, sizeof text);
            hr_json_str(w, "text", text);
            hr_json_end_object(w);
        }
        hr_json_end_array(w);
    }
    hr_json_end_object(w);
}
