#include "core/apply/apply_state.h"

#include "core/base/i18n.h"
#include "core/base/json_parse.h"
#include "core/base/json_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_apply_state_init(hr_apply_state *s, hr_os os)
{
    memset(s, 0, sizeof *s);
    s->os = os;
    hr_strlcpy(s->status, "in-progress", sizeof s->status);
    hr_strlcpy(s->orig_type, "missing", sizeof s->orig_type);
    s->orig_raw_type = -1;
}

bool hr_apply_state_interrupted(const hr_apply_state *s)
{
    return strcmp(s->status, "applied") != 0 || s->intent.step[0] != '\0';
}

hr_apply_area *hr_apply_state_find(hr_apply_state *s, const char *path)
{
    for (int i = 0; i < s->area_count; i++)
        if (strcmp(s->areas[i].path, path) == 0)
            return &s->areas[i];
    return NULL;
}

hr_apply_area *hr_apply_state_add(hr_apply_state *s, const char *path)
{
    hr_apply_area *a = hr_apply_state_find(s, path);
    if (a)
        return a;
    if (s->area_count == HR_APPLY_MAX_AREAS)
        return NULL;
    a = &s->areas[s->area_count++];
    memset(a, 0, sizeof *a);
    hr_strlcpy(a->path, path, sizeof a->path);
    a->priority = HR_UNKNOWN_I64;
    return a;
}

void hr_apply_state_drop(hr_apply_state *s, const char *path)
{
    for (int i = 0; i < s->area_count; i++)
        if (strcmp(s->areas[i].path, path) == 0) {
            memmove(&s->areas[i], &s->areas[i + 1], (size_t)(s->area_count - i - 1) * sizeof s->areas[0]);
            s->area_count--;
            return;
        }
}

static void write_pfw(hr_json_writer *w, const char *key, const hr_pfw_list *l)
{
    char s[HR_PFW_PATH_MAX + 48];
    hr_json_begin_array(w, key);
    for (int i = 0; i < l->count; i++) {
        if (hr_pfw_format_string(&l->e[i], s, sizeof s) == 0)
            hr_json_str(w, NULL, s);
    }
    hr_json_end_array(w);
}

int hr_apply_state_write(const hr_apply_state *s, hr_buf *out)
{
    hr_json_writer w;
    char hex[24];
    hr_json_init(&w, out, true);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "schema", HR_APPLY_STATE_SCHEMA);
    hr_json_str(&w, "os", s->os == HR_OS_WINDOWS ? "windows" : "linux");
    hr_json_str(&w, "status", s->status);
    hr_json_str(&w, "last_step", s->last_step);
    hr_json_str(&w, "started", s->started);
    hr_json_i64(&w, "started_unix", s->started_unix);
    if (s->os == HR_OS_LINUX) {
        hr_json_begin_object(&w, "fstab");
        hr_json_str(&w, "path", s->fstab_path);
        hr_json_str(&w, "backup", s->fstab_backup);
        hr_json_bool(&w, "existed", s->fstab_existed);
        hr_json_bool(&w, "added_newline", s->fstab_added_newline);
        hr_json_bool(&w, "written", s->fstab_written);
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->fstab_written_hash);
        hr_json_str(&w, "written_fnv1a64", hex);
        hr_json_bool(&w, "hand_edits_kept", s->fstab_hand_kept);
        hr_json_end_object(&w);
        hr_json_begin_array(&w, "areas");
        for (int i = 0; i < s->area_count; i++) {
            const hr_apply_area *a = &s->areas[i];
            hr_json_begin_object(&w, NULL);
            hr_json_str(&w, "path", a->path);
            hr_json_u64(&w, "size_bytes", a->size_bytes);
            if (a->priority == HR_UNKNOWN_I64)
                hr_json_null(&w, "priority");
            else
                hr_json_i64(&w, "priority", a->priority);
            hr_json_str(&w, "uuid", a->uuid);
            hr_json_bool(&w, "created", a->created);
            hr_json_bool(&w, "enabled", a->enabled);
            hr_json_bool(&w, "in_fstab", a->in_fstab);
            hr_json_u64(&w, "device", a->device);
            hr_json_u64(&w, "inode", a->inode);
            hr_json_str(&w, "tmp", a->tmp);
            hr_json_end_object(&w);
        }
        hr_json_end_array(&w);
    } else {
        hr_json_begin_object(&w, "registry");
        hr_json_str(&w, "backup", s->reg_backup);
        hr_json_bool(&w, "written", s->reg_written);
        hr_json_str(&w, "original_type", s->orig_type);
        write_pfw(&w, "original_paging_files", &s->orig);
        write_pfw(&w, "written_paging_files", &s->written);
        if (s->pending_set)
            write_pfw(&w, "pending_paging_files", &s->pending);
        if (s->orig_raw_known) {
            hr_json_i64(&w, "original_raw_type", s->orig_raw_type);
            hr_json_str(&w, "original_raw_hex", s->orig_raw_hex);
        }
        hr_json_end_object(&w);
    }
    hr_json_begin_object(&w, "intent");
    hr_json_str(&w, "step", s->intent.step);
    hr_json_str(&w, "path", s->intent.path);
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->intent.old_hash);
    hr_json_str(&w, "old_fnv1a64", hex);
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->intent.new_hash);
    hr_json_str(&w, "new_fnv1a64", hex);
    hr_json_bool(&w, "fstab_created", s->intent.fstab_created);
    hr_json_end_object(&w);
    hr_json_end_object(&w);
    return hr_json_finish(&w);
}

/* ---- Reading: the project's strict JSON parser (json_parse.h) with tight limits, then the
 * members we know. Strings stay byte for byte: invalid UTF-8 and "\u0000" are refused, never
 * replaced or cut short, because paths read here name files that rollback deletes. */

#define STATE_MAX_DEPTH  8
#define STATE_MAX_VALUES 4096

static void get_str(const hr_json_value *o, const char *key, char *out, size_t n)
{
    const char *v = hr_json_string(hr_json_get(o, key), NULL);
    if (v)
        hr_strlcpy(out, v, n);
}

static bool get_bool(const hr_json_value *o, const char *key)
{
    bool b = false;
    return hr_json_as_bool(hr_json_get(o, key), &b) == 0 && b;
}

/* A number that fits int64 (and, for sizes and identities, is not negative); else *out stays. */
static void get_i64(const hr_json_value *o, const char *key, int64_t *out)
{
    int64_t v;
    if (hr_json_as_i64(hr_json_get(o, key), &v) == 0)
        *out = v;
}

static void get_u64(const hr_json_value *o, const char *key, uint64_t *out)
{
    int64_t v;
    if (hr_json_as_i64(hr_json_get(o, key), &v) == 0 && v >= 0)
        *out = (uint64_t)v;
}

static int get_pfw(const hr_json_value *reg, const char *key, const char *name, hr_pfw_list *l, hr_error *err)
{
    const hr_json_value *arr = hr_json_get(reg, key);
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < HR_PFW_MAX_ENTRIES; i++) {
        const hr_json_value *v = hr_json_at(arr, i);
        if (!v)
            break;
        const char *str = hr_json_string(v, NULL);
        if (!str) {
            unsigned line, col;
            hr_json_position(v, &line, &col);
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u, column %u: paging file list: string expected"), name,
                                line, col);
        }
        int e = hr_pfw_parse_string(str, &l->e[l->count], err);
        if (e < 0)
            return e;
        l->count++;
    }
    return 0;
}

static int read_areas(const hr_json_value *root, const char *name, hr_apply_state *s, hr_error *err)
{
    const hr_json_value *areas = hr_json_get(root, "areas");
    for (int i = 0; i < HR_APPLY_MAX_AREAS + 1; i++) {
        const hr_json_value *o = hr_json_at(areas, (size_t)i);
        const hr_json_value *pv = hr_json_get(o, "path");
        if (!pv)
            break;
        const char *path = hr_json_string(pv, NULL);
        if (i == HR_APPLY_MAX_AREAS || !path || path[0] != '/' || strlen(path) >= HR_SNAP_PATH_MAX)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: areas[%d]: bad or too many entries"), name, i);
        hr_apply_area *a = hr_apply_state_add(s, path);
        get_u64(o, "size_bytes", &a->size_bytes);
        get_i64(o, "priority", &a->priority);
        get_str(o, "uuid", a->uuid, sizeof a->uuid);
        a->created = get_bool(o, "created");
        a->enabled = get_bool(o, "enabled");
        a->in_fstab = get_bool(o, "in_fstab");
        get_u64(o, "device", &a->device);
        get_u64(o, "inode", &a->inode);
        get_str(o, "tmp", a->tmp, sizeof a->tmp);
        if (a->tmp[0] && a->tmp[0] != '/')
            return hr_error_set(err, HR_EPARSE, HR_T("%s: areas[%d].tmp: not an absolute path"), name, i);
    }
    return 0;
}

static int read_state(const hr_json_value *root, const char *name, hr_apply_state *s, hr_error *err)
{
    char schema[64] = "", os[16] = "";
    get_str(root, "schema", schema, sizeof schema);
    if (strcmp(schema, HR_APPLY_STATE_SCHEMA) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: schema '%s', expected '%s'"), name, schema,
                            HR_APPLY_STATE_SCHEMA);
    get_str(root, "os", os, sizeof os);
    if (strcmp(os, "linux") != 0 && strcmp(os, "windows") != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: os must be \"linux\" or \"windows\""), name);
    hr_apply_state_init(s, strcmp(os, "windows") == 0 ? HR_OS_WINDOWS : HR_OS_LINUX);
    get_str(root, "status", s->status, sizeof s->status);
    if (strcmp(s->status, "in-progress") != 0 && strcmp(s->status, "applied") != 0 &&
        strcmp(s->status, "rolling-back") != 0)
        return hr_error_set(err, HR_EPARSE,
                            HR_T("%s: status must be \"in-progress\", \"applied\" or "
                                 "\"rolling-back\""),
                            name);
    get_str(root, "last_step", s->last_step, sizeof s->last_step);
    get_str(root, "started", s->started, sizeof s->started);
    get_i64(root, "started_unix", &s->started_unix);

    const hr_json_value *fstab = hr_json_get(root, "fstab");
    get_str(fstab, "path", s->fstab_path, sizeof s->fstab_path);
    get_str(fstab, "backup", s->fstab_backup, sizeof s->fstab_backup);
    s->fstab_existed = get_bool(fstab, "existed");
    s->fstab_added_newline = get_bool(fstab, "added_newline");
    s->fstab_written = get_bool(fstab, "written");
    char hex[24] = "";
    get_str(fstab, "written_fnv1a64", hex, sizeof hex);
    s->fstab_written_hash = strtoull(hex, NULL, 16);
    s->fstab_hand_kept = get_bool(fstab, "hand_edits_kept");
    int e = read_areas(root, name, s, err);
    if (e < 0)
        return e;

    const hr_json_value *reg = hr_json_get(root, "registry");
    get_str(reg, "backup", s->reg_backup, sizeof s->reg_backup);
    s->reg_written = get_bool(reg, "written");
    get_str(reg, "original_type", s->orig_type, sizeof s->orig_type);
    e = get_pfw(reg, "original_paging_files", name, &s->orig, err);
    if (e == 0)
        e = get_pfw(reg, "written_paging_files", name, &s->written, err);
    if (e == 0 && hr_json_get(reg, "pending_paging_files")) {
        e = get_pfw(reg, "pending_paging_files", name, &s->pending, err);
        s->pending_set = true;
    }
    if (e == 0 && hr_json_get(reg, "original_raw_hex")) {
        const char *hx = hr_json_string(hr_json_get(reg, "original_raw_hex"), NULL);
        size_t hl = hx ? strlen(hx) : 0;
        if (!hx || hl % 2 || hl >= sizeof s->orig_raw_hex || strspn(hx, "0123456789abcdef") != hl)
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: registry.original_raw_hex: lower-case hex "
                                     "digits in pairs expected"),
                                name);
        hr_strlcpy(s->orig_raw_hex, hx, sizeof s->orig_raw_hex);
        get_i64(reg, "original_raw_type", &s->orig_raw_type);
        s->orig_raw_known = true;
    }
    if (e < 0)
        return e;

    const hr_json_value *in = hr_json_get(root, "intent");
    get_str(in, "step", s->intent.step, sizeof s->intent.step);
    get_str(in, "path", s->intent.path, sizeof s->intent.path);
    hex[0] = '\0';
    get_str(in, "old_fnv1a64", hex, sizeof hex);
    s->intent.old_hash = strtoull(hex, NULL, 16);
    hex[0] = '\0';
    get_str(in, "new_fnv1a64", hex, sizeof hex);
    s->intent.new_hash = strtoull(hex, NULL, 16);
    s->intent.fstab_created = get_bool(in, "fstab_created");
    return 0;
}

int hr_apply_state_parse(const char *text, size_t len, const char *name, hr_apply_state *s, hr_error *err)
{
    if (!name)
        name = "apply state";
    if (len > HR_APPLY_STATE_MAX_BYTES)
        return hr_error_set(err, HR_ETOOBIG, HR_T("%s: larger than %lu bytes"), name,
                            (unsigned long)HR_APPLY_STATE_MAX_BYTES);
    /* An object and nothing else: no byte order mark, no other value at the top. */
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    if (i == len || text[i] != '{')
        return hr_error_set(err, HR_EPARSE, HR_T("%s: a JSON object expected"), name);
    const hr_json_limits lim = { .max_bytes = HR_APPLY_STATE_MAX_BYTES,
                                 .max_depth = STATE_MAX_DEPTH,
                                 .max_values = STATE_MAX_VALUES,
                                 .no_nul = true };
    hr_json_doc *doc = NULL;
    hr_error perr = { 0 };
    int e = hr_json_parse(text, len, &lim, &doc, &perr);
    /* Past the depth or value limits the file is not one we wrote: malformed (HR_EPARSE). */
    if (e < 0)
        return hr_error_set(err, e == HR_ETOOBIG ? HR_EPARSE : e, "%s: %s", name, perr.msg);
    e = read_state(hr_json_root(doc), name, s, err);
    hr_json_free(doc);
    return e;
}
