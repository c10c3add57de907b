/* Recorded Win32 answers <-> JSON ("headroom.win-raw/1"). See win_model.h. */
#include "core/base/i18n.h"
#include "core/base/json_parse.h"
#include "core/model/pagingfiles.h"
#include "core/base/utf16.h"
#include "core/base/text.h"
#include "core/model/win_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const state_names[] = { "not_asked", "ok", "failed", "unsupported", "absent", "denied" };

const char *hr_win_state_name(hr_win_state s)
{
    return (unsigned)s < sizeof state_names / sizeof state_names[0] ? state_names[s] : "?";
}

void hr_win_raw_init(hr_win_raw *raw)
{
    memset(raw, 0, sizeof *raw);
    for (int i = 0; i < HR_WIN_MAX_PAGEFILES; i++)
        raw->enum_files[i].min_pages = raw->enum_files[i].max_pages = raw->nt_files[i].min_pages =
            raw->nt_files[i].max_pages = HR_UNKNOWN;
}

/* ---- loading ---------------------------------------------------------------------- */

typedef struct loader {
    hr_error *err;
    char path[128]; /* member being read, for messages */
} loader;

static int bad(loader *L, const hr_json_value *v, const char *what)
{
    unsigned line, col;
    hr_json_position(v, &line, &col);
    if (v)
        return hr_error_set(L->err, HR_EPARSE, HR_T("line %u, column %u: %s: %s"), line, col, L->path, what);
    return hr_error_set(L->err, HR_EPARSE, "%s: %s", L->path, what);
}

static void at(loader *L, const char *obj, const char *key)
{
    snprintf(L->path, sizeof L->path, "%s%s%s", obj, obj[0] ? "." : "", key);
}

/* Optional members: absent or null leaves *out alone. */
static int get_u64(loader *L, const hr_json_value *o, const char *obj, const char *key, uint64_t *out)
{
    const hr_json_value *v = hr_json_get(o, key);
    if (!v || hr_json_is(v, HR_JSON_NULL))
        return 0;
    at(L, obj, key);
    if (hr_json_as_u64(v, out) != 0)
        return bad(L, v, HR_T("expected a non-negative integer"));
    return 0;
}

static int get_u32(loader *L, const hr_json_value *o, const char *obj, const char *key, uint32_t *out)
{
    uint64_t x = *out;
    int r = get_u64(L, o, obj, key, &x);
    if (r)
        return r;
    if (x > UINT32_MAX)
        return bad(L, hr_json_get(o, key), HR_T("value does not fit in 32 bits"));
    *out = (uint32_t)x;
    return 0;
}

static int get_int(loader *L, const hr_json_value *o, const char *obj, const char *key, int *out)
{
    const hr_json_value *v = hr_json_get(o, key);
    if (!v || hr_json_is(v, HR_JSON_NULL))
        return 0;
    at(L, obj, key);
    bool b;
    int64_t x;
    if (hr_json_as_bool(v, &b) == 0) {
        *out = b;
        return 0;
    }
    if (hr_json_as_i64(v, &x) != 0 || x < INT32_MIN || x > INT32_MAX)
        return bad(L, v, HR_T("expected true, false or an integer"));
    *out = (int)x;
    return 0;
}

static int get_str(loader *L, const hr_json_value *o, const char *obj, const char *key, char *out, size_t n)
{
    const hr_json_value *v = hr_json_get(o, key);
    if (!v || hr_json_is(v, HR_JSON_NULL))
        return 0;
    at(L, obj, key);
    size_t len;
    const char *s = hr_json_string(v, &len);
    if (!s)
        return bad(L, v, HR_T("expected a string"));
    if (len >= n)
        return bad(L, v, HR_T("string too long"));
    if (memchr(s, 0, len))
        return bad(L, v, HR_T("string holds a NUL character"));
    memcpy(out, s, len + 1);
    return 0;
}

static int get_call(loader *L, const hr_json_value *o, const char *obj, hr_win_call *c)
{
    c->state = HR_WIN_NOT_ASKED;
    c->code = 0;
    if (!o)
        return 0;
    snprintf(L->path, sizeof L->path, "%s", obj);
    if (!hr_json_is(o, HR_JSON_OBJECT))
        return bad(L, o, HR_T("expected an object"));
    const hr_json_value *st = hr_json_get(o, "state");
    at(L, obj, "state");
    const char *s = hr_json_string(st, NULL);
    if (!s)
        return bad(L, st ? st : o,
                   HR_T("expected \"state\": one of ok, failed, unsupported, absent, denied, not_asked"));
    bool found = false;
    for (unsigned i = 0; i < sizeof state_names / sizeof state_names[0]; i++)
        if (strcmp(s, state_names[i]) == 0) {
            c->state = (hr_win_state)i;
            found = true;
        }
    if (!found)
        return bad(L, st, HR_T("unknown state (expected ok, failed, unsupported, absent, denied or not_asked)"));
    return get_u32(L, o, obj, "code", &c->code);
}

/* The array o[key] of at most max entries (NULL when absent), with L->path at it; msg says
 * what was expected. */
static int get_array(loader *L, const hr_json_value *o, const char *obj, const char *key, size_t max, const char *msg,
                     const hr_json_value **arr)
{
    *arr = hr_json_get(o, key);
    if (!*arr)
        return 0;
    snprintf(L->path, sizeof L->path, "%s.%s", obj, key);
    if (!hr_json_is(*arr, HR_JSON_ARRAY) || hr_json_count(*arr) > max)
        return bad(L, *arr, msg);
    return 0;
}

/* Registry value: {"state","type", "hex": "3f003a00..." | "strings": [..] | "dword": n}. */
static int get_regval(loader *L, const hr_json_value *reg, const char *key, hr_win_regval *rv)
{
    char obj[64];
    snprintf(obj, sizeof obj, "registry.%s", key);
    const hr_json_value *o = hr_json_get(reg, key);
    int r = get_call(L, o, obj, &rv->q);
    if (r || rv->q.state != HR_WIN_OK)
        return r;
    rv->type = HR_REG_NONE;
    if ((r = get_u32(L, o, obj, "type", &rv->type)) != 0)
        return r;
    rv->len = 0;
    const hr_json_value *hex = hr_json_get(o, "hex");
    const hr_json_value *strs = hr_json_get(o, "strings");
    const hr_json_value *dw = hr_json_get(o, "dword");
    if (hex) {
        at(L, obj, "hex");
        size_t n;
        const char *h = hr_json_string(hex, &n);
        if (!h || n % 2)
            return bad(L, hex, HR_T("expected an even number of hex digits"));
        if (n / 2 > sizeof rv->data)
            return bad(L, hex, HR_T("value larger than the limit"));
        for (size_t i = 0; i < n; i += 2) {
            int a = hr_hex_digit(h[i]), b = hr_hex_digit(h[i + 1]);
            if (a < 0 || b < 0)
                return bad(L, hex, HR_T("expected hex digits"));
            rv->data[rv->len++] = (uint8_t)(a << 4 | b);
        }
    } else if (strs) {
        at(L, obj, "strings");
        if (!hr_json_is(strs, HR_JSON_ARRAY))
            return bad(L, strs, HR_T("expected an array of strings"));
        if (rv->type == HR_REG_NONE)
            rv->type = HR_REG_MULTI_SZ;
        for (const hr_json_value *s = hr_json_first(strs); s; s = hr_json_next(s)) {
            size_t n;
            const char *t = hr_json_string(s, &n);
            if (!t)
                return bad(L, s, HR_T("expected a string"));
            size_t w = hr_utf8_to_utf16le(t, n, rv->data + rv->len, sizeof rv->data - rv->len);
            rv->len += w;
            if (rv->len + 4 > sizeof rv->data)
                return bad(L, s, HR_T("value larger than the limit"));
            rv->data[rv->len++] = 0;
            rv->data[rv->len++] = 0;
        }
        if (rv->type == HR_REG_MULTI_SZ) {
            rv->data[rv->len++] = 0;
            rv->data[rv->len++] = 0;
        }
    } else if (dw) {
        uint32_t x = 0;
        if ((r = get_u32(L, o, obj, "dword", &x)) != 0)
            return r;
        if (rv->type == HR_REG_NONE)
            rv->type = HR_REG_DWORD;
        for (int i = 0; i < 4; i++)
            rv->data[i] = (uint8_t)(x >> (8 * i));
        rv->len = 4;
    } else {
        snprintf(L->path, sizeof L->path, "%s", obj);
        return bad(L, o, HR_T("an \"ok\" value needs \"hex\", \"strings\" or \"dword\""));
    }
    return 0;
}

static int get_pagefiles(loader *L, const hr_json_value *o, const char *obj, hr_win_pagefile *files, int *count)
{
    const hr_json_value *arr = hr_json_get(o, "files");
    *count = 0;
    if (!arr)
        return 0;
    at(L, obj, "files");
    if (!hr_json_is(arr, HR_JSON_ARRAY))
        return bad(L, arr, HR_T("expected an array"));
    if (hr_json_count(arr) > HR_WIN_MAX_PAGEFILES)
        return bad(L, arr, HR_T("more than 16 paging files"));
    int i = 0;
    for (const hr_json_value *f = hr_json_first(arr); f; f = hr_json_next(f), i++) {
        char p[64];
        snprintf(p, sizeof p, "%s.files[%d]", obj, i);
        hr_win_pagefile *pf = &files[i];
        int r;
        if ((r = get_str(L, f, p, "name", pf->name, sizeof pf->name)) ||
            (r = get_u64(L, f, p, "total_pages", &pf->total_pages)) ||
            (r = get_u64(L, f, p, "in_use_pages", &pf->in_use_pages)) ||
            (r = get_u64(L, f, p, "peak_pages", &pf->peak_pages)) ||
            (r = get_u64(L, f, p, "min_pages", &pf->min_pages)) || (r = get_u64(L, f, p, "max_pages", &pf->max_pages)))
            return r;
    }
    *count = i;
    return 0;
}

static int load(loader *L, const hr_json_value *root, hr_win_raw *raw)
{
    int r;
    snprintf(L->path, sizeof L->path, "%s", HR_T("(document)"));
    if (!hr_json_is(root, HR_JSON_OBJECT))
        return bad(L, root, HR_T("expected an object"));
    const char *schema = hr_json_string(hr_json_get(root, "schema"), NULL);
    snprintf(L->path, sizeof L->path, "schema");
    if (!schema || strcmp(schema, HR_WIN_RAW_SCHEMA) != 0) {
        char want[64];
        snprintf(want, sizeof want, HR_T("expected \"%s\""), HR_WIN_RAW_SCHEMA);
        return bad(L, hr_json_get(root, "schema"), want);
    }
    if ((r = get_str(L, root, "", "note", raw->machine_note, sizeof raw->machine_note)))
        return r;

    const hr_json_value *o = hr_json_get(root, "os");
    if ((r = get_call(L, o, "os", &raw->os)) || (r = get_u32(L, o, "os", "major", &raw->os_major)) ||
        (r = get_u32(L, o, "os", "minor", &raw->os_minor)) || (r = get_u32(L, o, "os", "build", &raw->os_build)) ||
        (r = get_str(L, o, "os", "system_drive", raw->system_drive, sizeof raw->system_drive)))
        return r;

    o = hr_json_get(root, "performance_info");
    const char *n = "performance_info";
    if ((r = get_call(L, o, n, &raw->perf)) || (r = get_u64(L, o, n, "commit_total", &raw->commit_total_pages)) ||
        (r = get_u64(L, o, n, "commit_limit", &raw->commit_limit_pages)) ||
        (r = get_u64(L, o, n, "commit_peak", &raw->commit_peak_pages)) ||
        (r = get_u64(L, o, n, "physical_total", &raw->physical_total_pages)) ||
        (r = get_u64(L, o, n, "physical_available", &raw->physical_available_pages)) ||
        (r = get_u64(L, o, n, "page_size", &raw->page_size)))
        return r;
    if (raw->perf.state == HR_WIN_OK && (raw->page_size == 0 || raw->page_size > (1u << 24))) {
        at(L, n, "page_size");
        return bad(L, hr_json_get(o, "page_size"), HR_T("expected a page size in bytes (4096)"));
    }

    o = hr_json_get(root, "memory_status");
    n = "memory_status";
    if ((r = get_call(L, o, n, &raw->mem)) || (r = get_u64(L, o, n, "total_phys", &raw->total_phys)) ||
        (r = get_u64(L, o, n, "avail_phys", &raw->avail_phys)) ||
        (r = get_u64(L, o, n, "total_page_file", &raw->total_page_file)) ||
        (r = get_u64(L, o, n, "avail_page_file", &raw->avail_page_file)) ||
        (r = get_u32(L, o, n, "memory_load", &raw->memory_load)))
        return r;

    o = hr_json_get(root, "enum_page_files");
    if ((r = get_call(L, o, "enum_page_files", &raw->enum_pf)) ||
        (r = get_pagefiles(L, o, "enum_page_files", raw->enum_files, &raw->enum_count)))
        return r;
    o = hr_json_get(root, "nt_page_files");
    if ((r = get_call(L, o, "nt_page_files", &raw->nt_pf)) ||
        (r = get_u32(L, o, "nt_page_files", "class", &raw->nt_pf_class)) ||
        (r = get_pagefiles(L, o, "nt_page_files", raw->nt_files, &raw->nt_count)))
        return r;

    const hr_json_value *reg = hr_json_get(root, "registry");
    if ((r = get_regval(L, reg, "paging_files", &raw->paging_files)) ||
        (r = get_regval(L, reg, "existing_page_files", &raw->existing_page_files)) ||
        (r = get_regval(L, reg, "temp_page_file", &raw->temp_page_file)) ||
        (r = get_regval(L, reg, "crash_dump_enabled", &raw->crash_dump_enabled)) ||
        (r = get_regval(L, reg, "dedicated_dump_file", &raw->dedicated_dump_file)))
        return r;

    const hr_json_value *vols = hr_json_get(root, "volumes");
    if (vols) {
        snprintf(L->path, sizeof L->path, "volumes");
        if (!hr_json_is(vols, HR_JSON_ARRAY))
            return bad(L, vols, HR_T("expected an array"));
        if (hr_json_count(vols) > HR_WIN_MAX_VOLUMES)
            return bad(L, vols, HR_T("more than 26 drives"));
        int i = 0;
        for (const hr_json_value *v = hr_json_first(vols); v; v = hr_json_next(v), i++) {
            hr_win_volume *w = &raw->volumes[i];
            char p[64], q[80];
            snprintf(p, sizeof p, "volumes[%d]", i);
            if ((r = get_str(L, v, p, "root", w->root, sizeof w->root)) ||
                (r = get_u32(L, v, p, "drive_type", &w->drive_type)))
                return r;
            if (!w->root[0]) {
                snprintf(L->path, sizeof L->path, "%s.root", p);
                return bad(L, v, HR_T("missing (e.g. \"C:\\\\\")"));
            }
            const hr_json_value *s = hr_json_get(v, "space");
            snprintf(q, sizeof q, "%s.space", p);
            if ((r = get_call(L, s, q, &w->space)) || (r = get_u64(L, s, q, "free_to_caller", &w->free_to_caller)) ||
                (r = get_u64(L, s, q, "total", &w->total)) || (r = get_u64(L, s, q, "total_free", &w->total_free)))
                return r;
            s = hr_json_get(v, "info");
            snprintf(q, sizeof q, "%s.info", p);
            if ((r = get_call(L, s, q, &w->info)) || (r = get_str(L, s, q, "fs", w->fs, sizeof w->fs)))
                return r;
            s = hr_json_get(v, "seek_penalty");
            snprintf(q, sizeof q, "%s.seek_penalty", p);
            if ((r = get_call(L, s, q, &w->seek)) ||
                (r = get_int(L, s, q, "incurs_seek_penalty", &w->incurs_seek_penalty)))
                return r;
            s = hr_json_get(v, "device");
            snprintf(q, sizeof q, "%s.device", p);
            if ((r = get_call(L, s, q, &w->device)) || (r = get_u32(L, s, q, "bus_type", &w->bus_type)) ||
                (r = get_int(L, s, q, "removable_media", &w->removable_media)))
                return r;
            s = hr_json_get(v, "bitlocker");
            snprintf(q, sizeof q, "%s.bitlocker", p);
            int prot = 0;
            if ((r = get_call(L, s, q, &w->bitlocker)) || (r = get_int(L, s, q, "protection", &prot)))
                return r;
            w->bitlocker_protection = prot;
        }
        raw->volume_count = i;
    }

    const hr_json_value *c = hr_json_get(root, "compression");
    o = hr_json_get(c, "process");
    if ((r = get_call(L, o, "compression.process", &raw->procs)) ||
        (r = get_int(L, o, "compression.process", "found", &raw->compression_process)) ||
        (r = get_u64(L, o, "compression.process", "working_set", &raw->compression_working_set)))
        return r;
    o = hr_json_get(c, "store");
    if ((r = get_call(L, o, "compression.store", &raw->store)) ||
        (r = get_u64(L, o, "compression.store", "working_set", &raw->store_working_set)) ||
        (r = get_u64(L, o, "compression.store", "data", &raw->store_data)) ||
        (r = get_u64(L, o, "compression.store", "compressed", &raw->store_compressed)))
        return r;

    o = hr_json_get(root, "nvml");
    if ((r = get_call(L, o, "nvml", &raw->nvml)) ||
        (r = get_str(L, o, "nvml", "driver", raw->nvml_driver, sizeof raw->nvml_driver)))
        return r;
    const hr_json_value *arr;
    if ((r = get_array(L, o, "nvml", "devices", HR_MAX_GPUS, HR_T("expected an array of at most 16 devices"), &arr)))
        return r;
    if (arr) {
        int i = 0;
        for (const hr_json_value *d = hr_json_first(arr); d; d = hr_json_next(d), i++) {
            char p[48];
            snprintf(p, sizeof p, "nvml.devices[%d]", i);
            hr_win_nvml_gpu *g = &raw->nvml_gpus[i];
            if ((r = get_str(L, d, p, "name", g->name, sizeof g->name)) || (r = get_u64(L, d, p, "total", &g->total)) ||
                (r = get_u64(L, d, p, "used", &g->used)) || (r = get_u64(L, d, p, "free", &g->free)))
                return r;
        }
        raw->nvml_count = i;
    }

    o = hr_json_get(root, "dxgi");
    if ((r = get_call(L, o, "dxgi", &raw->dxgi)))
        return r;
    if ((r = get_array(L, o, "dxgi", "adapters", HR_WIN_MAX_ADAPTERS, HR_T("expected an array of at most 8 adapters"),
                       &arr)))
        return r;
    if (arr) {
        int i = 0;
        for (const hr_json_value *d = hr_json_first(arr); d; d = hr_json_next(d), i++) {
            char p[48];
            snprintf(p, sizeof p, "dxgi.adapters[%d]", i);
            hr_win_adapter *a = &raw->adapters[i];
            if ((r = get_str(L, d, p, "description", a->description, sizeof a->description)) ||
                (r = get_u32(L, d, p, "vendor_id", &a->vendor_id)) ||
                (r = get_u32(L, d, p, "device_id", &a->device_id)) || (r = get_u32(L, d, p, "flags", &a->flags)) ||
                (r = get_u64(L, d, p, "dedicated_video", &a->dedicated_video)) ||
                (r = get_u64(L, d, p, "dedicated_system", &a->dedicated_system)) ||
                (r = get_u64(L, d, p, "shared_system", &a->shared_system)) ||
                (r = get_u32(L, d, p, "luid_high", &a->luid_high)) || (r = get_u32(L, d, p, "luid_low", &a->luid_low)))
                return r;
        }
        raw->adapter_count = i;
    }

    o = hr_json_get(root, "gpu_memory");
    if ((r = get_call(L, o, "gpu_memory", &raw->gpu_pdh)))
        return r;
    if ((r = get_array(L, o, "gpu_memory", "adapters", HR_WIN_MAX_ADAPTERS,
                       HR_T("expected an array of at most 8 adapters"), &arr)))
        return r;
    if (arr) {
        int i = 0;
        for (const hr_json_value *d = hr_json_first(arr); d; d = hr_json_next(d), i++) {
            char p[48];
            snprintf(p, sizeof p, "gpu_memory.adapters[%d]", i);
            hr_win_gpu_use *u = &raw->gpu_use[i];
            if ((r = get_u32(L, d, p, "luid_high", &u->luid_high)) ||
                (r = get_u32(L, d, p, "luid_low", &u->luid_low)) ||
                (r = get_u64(L, d, p, "dedicated_used", &u->dedicated_used)))
                return r;
        }
        raw->gpu_use_count = i;
    }
    if ((r = get_int(L, o, "gpu_memory", "processes_listed", &raw->gpu_procs_listed)))
        return r;
    if ((r = get_array(L, o, "gpu_memory", "processes", HR_WIN_MAX_GPU_PROCS,
                       HR_T("expected an array of at most 128 processes"), &arr)))
        return r;
    if (arr) {
        int i = 0;
        for (const hr_json_value *d = hr_json_first(arr); d; d = hr_json_next(d), i++) {
            char p[48];
            snprintf(p, sizeof p, "gpu_memory.processes[%d]", i);
            hr_win_gpu_proc *x = &raw->gpu_procs[i];
            if ((r = get_u32(L, d, p, "pid", &x->pid)) || (r = get_str(L, d, p, "name", x->name, sizeof x->name)) ||
                (r = get_u32(L, d, p, "luid_high", &x->luid_high)) ||
                (r = get_u32(L, d, p, "luid_low", &x->luid_low)) ||
                (r = get_u64(L, d, p, "dedicated_used", &x->dedicated_used)))
                return r;
        }
        raw->gpu_proc_count = i;
    }

    o = hr_json_get(root, "power");
    if ((r = get_call(L, o, "power", &raw->power)) || (r = get_u32(L, o, "power", "ac_line", &raw->ac_line)) ||
        (r = get_u32(L, o, "power", "battery_flag", &raw->battery_flag)) ||
        (r = get_u32(L, o, "power", "battery_percent", &raw->battery_percent)) ||
        (r = get_u32(L, o, "power", "system_status_flag", &raw->system_status_flag)))
        return r;
    o = hr_json_get(root, "power_scheme");
    if ((r = get_call(L, o, "power_scheme", &raw->scheme)) ||
        (r = get_str(L, o, "power_scheme", "guid", raw->scheme_guid, sizeof raw->scheme_guid)))
        return r;
    return 0;
}

int hr_win_raw_load_json(const char *buf, size_t len, hr_win_raw *raw, hr_error *err)
{
    hr_win_raw_init(raw);
    hr_json_doc *doc = NULL;
    hr_json_limits lim = { .max_bytes = (size_t)4 << 20, .max_depth = 16, .max_values = 200000 };
    int r = hr_json_parse(buf, len, &lim, &doc, err);
    if (r)
        return r;
    loader L = { .err = err };
    r = load(&L, hr_json_root(doc), raw);
    hr_json_free(doc);
    if (r)
        hr_win_raw_init(raw);
    return r;
}

int hr_win_replay(const char *buf, size_t len, hr_snapshot *out, hr_error *err)
{
    hr_win_raw *raw = malloc(sizeof *raw);
    if (!raw) {
        hr_snapshot_init(out, HR_OS_WINDOWS);
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    }
    int r = hr_win_raw_load_json(buf, len, raw, err);
    if (r)
        hr_snapshot_init(out, HR_OS_WINDOWS);
    else
        r = hr_win_model_snapshot(raw, out);
    free(raw);
    return r;
}

/* ---- writing ---------------------------------------------------------------------- */

static void put_call(hr_json_writer *w, const char *key, const hr_win_call *c)
{
    hr_json_begin_object(w, key);
    hr_json_str(w, "state", hr_win_state_name(c->state));
    if (c->code)
        hr_json_u64(w, "code", c->code);
}

static void put_pagefiles(hr_json_writer *w, const hr_win_pagefile *f, int n)
{
    hr_json_begin_array(w, "files");
    for (int i = 0; i < n; i++) {
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", f[i].name);
        hr_json_u64(w, "total_pages", f[i].total_pages);
        hr_json_u64(w, "in_use_pages", f[i].in_use_pages);
        hr_json_u64(w, "peak_pages", f[i].peak_pages);
        if (f[i].min_pages != HR_UNKNOWN)
            hr_json_u64(w, "min_pages", f[i].min_pages);
        if (f[i].max_pages != HR_UNKNOWN)
            hr_json_u64(w, "max_pages", f[i].max_pages);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
}

static void put_strings_cb(void *ctx, int index, const char *s)
{
    (void)index;
    hr_json_str(ctx, NULL, s);
}

static void put_regval(hr_json_writer *w, const char *key, const hr_win_regval *rv)
{
    put_call(w, key, &rv->q);
    if (rv->q.state == HR_WIN_OK) {
        hr_json_u64(w, "type", rv->type);
        char hex[2 * HR_WIN_REG_MAX + 1];
        for (size_t i = 0; i < rv->len; i++)
            snprintf(hex + 2 * i, 3, "%02x", rv->data[i]);
        hex[2 * rv->len] = '\0';
        hr_json_str(w, "hex", hex);
        if (rv->type == HR_REG_SZ || rv->type == HR_REG_MULTI_SZ || rv->type == HR_REG_EXPAND_SZ) {
            hr_json_begin_array(w, "strings_read"); /* for people; the loader uses "hex" */
            hr_reg_strings(rv->data, rv->len, rv->type, put_strings_cb, w);
            hr_json_end_array(w);
        }
    }
    hr_json_end_object(w);
}

void hr_win_raw_write_json(const hr_win_raw *raw, hr_json_writer *w)
{
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_WIN_RAW_SCHEMA);
    if (raw->machine_note[0])
        hr_json_str(w, "note", raw->machine_note);
    put_call(w, "os", &raw->os);
    hr_json_u64(w, "major", raw->os_major);
    hr_json_u64(w, "minor", raw->os_minor);
    hr_json_u64(w, "build", raw->os_build);
    hr_json_str(w, "system_drive", raw->system_drive);
    hr_json_end_object(w);

    put_call(w, "performance_info", &raw->perf);
    hr_json_u64(w, "commit_total", raw->commit_total_pages);
    hr_json_u64(w, "commit_limit", raw->commit_limit_pages);
    hr_json_u64(w, "commit_peak", raw->commit_peak_pages);
    hr_json_u64(w, "physical_total", raw->physical_total_pages);
    hr_json_u64(w, "physical_available", raw->physical_available_pages);
    hr_json_u64(w, "page_size", raw->page_size);
    hr_json_end_object(w);

    put_call(w, "memory_status", &raw->mem);
    hr_json_u64(w, "total_phys", raw->total_phys);
    hr_json_u64(w, "avail_phys", raw->avail_phys);
    hr_json_u64(w, "total_page_file", raw->total_page_file);
    hr_json_u64(w, "avail_page_file", raw->avail_page_file);
    hr_json_u64(w, "memory_load", raw->memory_load);
    hr_json_end_object(w);

    put_call(w, "enum_page_files", &raw->enum_pf);
    put_pagefiles(w, raw->enum_files, raw->enum_count);
    hr_json_end_object(w);
    put_call(w, "nt_page_files", &raw->nt_pf);
    hr_json_u64(w, "class", raw->nt_pf_class);
    put_pagefiles(w, raw->nt_files, raw->nt_count);
    hr_json_end_object(w);

    hr_json_begin_object(w, "registry");
    put_regval(w, "paging_files", &raw->paging_files);
    put_regval(w, "existing_page_files", &raw->existing_page_files);
    put_regval(w, "temp_page_file", &raw->temp_page_file);
    put_regval(w, "crash_dump_enabled", &raw->crash_dump_enabled);
    put_regval(w, "dedicated_dump_file", &raw->dedicated_dump_file);
    hr_json_end_object(w);

    hr_json_begin_array(w, "volumes");
    for (int i = 0; i < raw->volume_count; i++) {
        const hr_win_volume *v = &raw->volumes[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "root", v->root);
        hr_json_u64(w, "drive_type", v->drive_type);
        put_call(w, "space", &v->space);
        hr_json_u64(w, "free_to_caller", v->free_to_caller);
        hr_json_u64(w, "total", v->total);
        hr_json_u64(w, "total_free", v->total_free);
        hr_json_end_object(w);
        put_call(w, "info", &v->info);
        hr_json_str(w, "fs", v->fs);
        hr_json_end_object(w);
        put_call(w, "seek_penalty", &v->seek);
        hr_json_bool(w, "incurs_seek_penalty", v->incurs_seek_penalty != 0);
        hr_json_end_object(w);
        put_call(w, "device", &v->device);
        hr_json_u64(w, "bus_type", v->bus_type);
        hr_json_bool(w, "removable_media", v->removable_media != 0);
        hr_json_end_object(w);
        put_call(w, "bitlocker", &v->bitlocker);
        hr_json_i64(w, "protection", v->bitlocker_protection);
        hr_json_end_object(w);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);

    hr_json_begin_object(w, "compression");
    put_call(w, "process", &raw->procs);
    hr_json_bool(w, "found", raw->compression_process != 0);
    hr_json_u64(w, "working_set", raw->compression_working_set);
    hr_json_end_object(w);
    put_call(w, "store", &raw->store);
    hr_json_u64(w, "working_set", raw->store_working_set);
    hr_json_u64(w, "data", raw->store_data);
    hr_json_u64(w, "compressed", raw->store_compressed);
    hr_json_end_object(w);
    hr_json_end_object(w);

    put_call(w, "nvml", &raw->nvml);
    hr_json_str(w, "driver", raw->nvml_driver);
    hr_json_begin_array(w, "devices");
    for (int i = 0; i < raw->nvml_count; i++) {
        const hr_win_nvml_gpu *g = &raw->nvml_gpus[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", g->name);
        hr_json_u64(w, "total", g->total);
        hr_json_u64(w, "used", g->used);
        hr_json_u64(w, "free", g->free);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);

    put_call(w, "dxgi", &raw->dxgi);
    hr_json_begin_array(w, "adapters");
    for (int i = 0; i < raw->adapter_count; i++) {
        const hr_win_adapter *a = &raw->adapters[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "description", a->description);
        hr_json_u64(w, "vendor_id", a->vendor_id);
        hr_json_u64(w, "device_id", a->device_id);
        hr_json_u64(w, "flags", a->flags);
        hr_json_u64(w, "dedicated_video", a->dedicated_video);
        hr_json_u64(w, "dedicated_system", a->dedicated_system);
        hr_json_u64(w, "shared_system", a->shared_system);
        hr_json_u64(w, "luid_high", a->luid_high);
        hr_json_u64(w, "luid_low", a->luid_low);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);

    put_call(w, "gpu_memory", &raw->gpu_pdh);
    hr_json_begin_array(w, "adapters");
    for (int i = 0; i < raw->gpu_use_count; i++) {
        const hr_win_gpu_use *u = &raw->gpu_use[i];
        hr_json_begin_object(w, NULL);
        hr_json_u64(w, "luid_high", u->luid_high);
        hr_json_u64(w, "luid_low", u->luid_low);
        hr_json_u64(w, "dedicated_used", u->dedicated_used);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_u64(w, "processes_listed", (uint64_t)raw->gpu_procs_listed);
    hr_json_begin_array(w, "processes");
    for (int i = 0; i < raw->gpu_proc_count; i++) {
        const hr_win_gpu_proc *x = &raw->gpu_procs[i];
        hr_json_begin_object(w, NULL);
        hr_json_u64(w, "pid", x->pid);
        hr_json_str(w, "name", x->name);
        hr_json_u64(w, "luid_high", x->luid_high);
        hr_json_u64(w, "luid_low", x->luid_low);
        hr_json_u64(w, "dedicated_used", x->dedicated_used);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);

    put_call(w, "power", &raw->power);
    hr_json_u64(w, "ac_line", raw->ac_line);
    hr_json_u64(w, "battery_flag", raw->battery_flag);
    hr_json_u64(w, "battery_percent", raw->battery_percent);
    hr_json_u64(w, "system_status_flag", raw->system_status_flag);
    hr_json_end_object(w);
    put_call(w, "power_scheme", &raw->scheme);
    hr_json_str(w, "guid", raw->scheme_guid);
    hr_json_end_object(w);
    hr_json_end_object(w);
}
