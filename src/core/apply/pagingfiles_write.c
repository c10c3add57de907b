#include "core/apply/pagingfiles_write.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/model/pagingfiles.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define HR_PFW_MIB ((uint64_t)1 << 20)

char hr_pfw_drive(const char *path)
{
    if (!path || !path[0] || path[1] != ':')
        return 0;
    if (path[0] == '?')
        return '?';
    if (isalpha((unsigned char)path[0]))
        return (char)toupper((unsigned char)path[0]);
    return 0;
}

int hr_pfw_parse_string(const char *s, hr_pfw_entry *out, hr_error *err)
{
    /* One reading of an entry, smss's, for status, plan, apply and verify alike
     * (core/model/pagingfiles.h): what status shows is what apply keeps. */
    memset(out, 0, sizeof *out);
    hr_paging_config_entry e;
    hr_error pe = { 0 };
    if (hr_pagingfiles_parse_entry(s, &e, &pe) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("PagingFiles: %s"), pe.msg);
    if (strlen(e.path) >= sizeof out->path)
        return hr_error_set(err, HR_EPARSE, HR_T("PagingFiles: entry '%s' has no usable path"), s);
    hr_strlcpy(out->path, e.path, sizeof out->path);
    out->mode = e.mode;
    if (hr_pfw_drive(out->path) == '?')
        out->mode = HR_PAGING_MODE_AUTOMATIC;
    else if (e.mode == HR_PAGING_MODE_CUSTOM) {
        out->initial_mb = e.initial_bytes / HR_PFW_MIB;
        out->maximum_mb = e.maximum_bytes / HR_PFW_MIB;
        if (out->initial_mb == 0 && out->maximum_mb == 0)
            out->mode = HR_PAGING_MODE_SYSTEM_MANAGED;
    }
    return 0;
}

int hr_pfw_format_string(const hr_pfw_entry *e, char *out, size_t n)
{
    int w;
    if (e->mode == HR_PAGING_MODE_AUTOMATIC)
        w = snprintf(out, n, "%s", e->path);
    else if (e->mode == HR_PAGING_MODE_SYSTEM_MANAGED)
        w = snprintf(out, n, "%s 0 0", e->path);
    else
        w = snprintf(out, n, "%s %llu %llu", e->path, (unsigned long long)e->initial_mb,
                     (unsigned long long)e->maximum_mb);
    return (w < 0 || (size_t)w >= n) ? HR_ETOOBIG : 0;
}

int hr_pfw_serialize(const hr_pfw_list *l, hr_buf *out)
{
    char s[HR_PFW_PATH_MAX + 48];
    for (int i = 0; i < l->count; i++) {
        int r = hr_pfw_format_string(&l->e[i], s, sizeof s);
        if (r == 0)
            r = hr_buf_append(out, s, strlen(s) + 1);
        if (r < 0)
            return r;
    }
    return hr_buf_putc(out, '\0');
}

int hr_pfw_deserialize(const char *data, size_t n, hr_pfw_list *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    size_t pos = 0;
    while (pos < n) {
        const char *z = memchr(data + pos, '\0', n - pos);
        size_t len = z ? (size_t)(z - (data + pos)) : n - pos;
        if (len == 0)
            break; /* the list's terminating empty string */
        if (out->count == HR_PFW_MAX_ENTRIES)
            return hr_error_set(err, HR_ETOOBIG, HR_T("PagingFiles: more than %d entries"), HR_PFW_MAX_ENTRIES);
        char tmp[HR_PFW_PATH_MAX + 64];
        if (len >= sizeof tmp)
            return hr_error_set(err, HR_EPARSE, HR_T("PagingFiles: entry %d is %lu bytes long"), out->count + 1,
                                (unsigned long)len);
        memcpy(tmp, data + pos, len);
        tmp[len] = '\0';
        int r = hr_pfw_parse_string(tmp, &out->e[out->count], err);
        if (r < 0)
            return r;
        out->count++;
        pos += len + 1;
    }
    return 0;
}

static bool entry_equal(const hr_pfw_entry *a, const hr_pfw_entry *b)
{
    if (strcmp(a->path, b->path) != 0 || a->mode != b->mode)
        return false;
    return a->mode != HR_PAGING_MODE_CUSTOM || (a->initial_mb == b->initial_mb && a->maximum_mb == b->maximum_mb);
}

bool hr_pfw_equal(const hr_pfw_list *a, const hr_pfw_list *b)
{
    if (a->count != b->count)
        return false;
    for (int i = 0; i < a->count; i++)
        if (!entry_equal(&a->e[i], &b->e[i]))
            return false;
    return true;
}

static void describe(const hr_pfw_entry *e, hr_lang lang, char *out, size_t n)
{
    if (e->mode == HR_PAGING_MODE_CUSTOM)
        snprintf(out, n, hr_tr_lang(lang, HR_N("%s initial %llu MB, maximum %llu MB")), e->path,
                 (unsigned long long)e->initial_mb, (unsigned long long)e->maximum_mb);
    else if (e->mode == HR_PAGING_MODE_SYSTEM_MANAGED)
        snprintf(out, n, hr_tr_lang(lang, HR_N("%s system managed")), e->path);
    else
        snprintf(out, n, hr_tr_lang(lang, HR_N("%s automatic")), e->path);
}

size_t hr_pfw_stage_text(const hr_pfw_stage *st, hr_lang lang, char *out, size_t n)
{
    /* the stage's words were kept in 700 bytes: shown so, in every language */
    char what[700], d[HR_PFW_PATH_MAX + 64];
    bool many = strchr(st->removed, ',') != NULL;
    switch (st->kind) {
    case HR_PFW_STAGE_AUTO_OFF:
        hr_strlcpy(what,
                   hr_tr_lang(lang, HR_N("turn off automatic paging file management "
                                         "(the system drive keeps a system-managed file until the new one "
                                         "is set)")),
                   sizeof what);
        break;
    case HR_PFW_STAGE_SET:
    case HR_PFW_STAGE_ADD:
        describe(&st->target, lang, d, sizeof d);
        if (st->kind == HR_PFW_STAGE_SET)
            snprintf(what, sizeof what, hr_tr_lang(lang, HR_N("set %s")), d);
        else
            snprintf(what, sizeof what, hr_tr_lang(lang, HR_N("add %s (before anything is removed)")), d);
        break;
    case HR_PFW_STAGE_REMOVE:
        if (st->kept[0])
            snprintf(what, sizeof what,
                     many ? hr_tr_lang(lang, HR_N("remove the old paging files: %s (%s stays for "
                                                  "crash dumps, X.dump)"))
                          : hr_tr_lang(lang, HR_N("remove the old paging file: %s (%s stays for crash dumps, X.dump)")),
                     st->removed, st->kept);
        else
            snprintf(what, sizeof what,
                     many ? hr_tr_lang(lang, HR_N("remove the old paging files: %s"))
                          : hr_tr_lang(lang, HR_N("remove the old paging file: %s")),
                     st->removed);
        break;
    default: what[0] = '\0';
    }
    if (n)
        hr_strlcpy(out, what, n);
    return strlen(what);
}

static int push_stage(hr_pfw_stage *stages, int *ns, const hr_pfw_list *prev, const hr_pfw_list *v,
                      const hr_pfw_stage *what)
{
    if (hr_pfw_equal(prev, v))
        return 0;
    if (*ns == HR_PFW_MAX_STAGES)
        return HR_EINTERNAL;
    stages[*ns] = *what;
    stages[*ns].value = *v;
    (*ns)++;
    return 0;
}

int hr_pfw_safe_sequence(const hr_pfw_list *cur, const hr_pfw_entry *target, char system_drive, const char *keep,
                         hr_pfw_stage stages[HR_PFW_MAX_STAGES], int *nstages, hr_error *err)
{
    *nstages = 0;
    char tdrive = hr_pfw_drive(target->path);
    if (!tdrive || tdrive == '?' || target->mode == HR_PAGING_MODE_AUTOMATIC)
        return hr_error_set(err, HR_EINVAL, HR_T("PagingFiles: target '%s' must be a file on a drive"), target->path);
    if (system_drive)
        system_drive = (char)toupper((unsigned char)system_drive);
    hr_pfw_list v = *cur, prev = *cur;
    hr_pfw_stage what;

    /* 1. Untick "automatically manage": the automatic entry becomes what the dialog shows
     *    after unticking it — the system drive, system managed — so paging stays on. */
    bool had_auto = false;
    for (int i = 0; i < v.count; i++)
        if (v.e[i].mode == HR_PAGING_MODE_AUTOMATIC) {
            had_auto = true;
            memmove(&v.e[i], &v.e[i + 1], (size_t)(v.count - i - 1) * sizeof v.e[0]);
            v.count--;
            i--;
        }
    if (had_auto) {
        bool sys_present = false;
        for (int i = 0; i < v.count; i++)
            if (hr_pfw_drive(v.e[i].path) == system_drive)
                sys_present = true;
        if (!sys_present && system_drive && v.count < HR_PFW_MAX_ENTRIES) {
            hr_pfw_entry *e = &v.e[v.count++];
            memset(e, 0, sizeof *e);
            snprintf(e->path, sizeof e->path, "%c:\\pagefile.sys", system_drive);
            e->mode = HR_PAGING_MODE_SYSTEM_MANAGED;
        }
        if (v.count == 0)
            return hr_error_set(err, HR_EINVAL,
                                HR_T("PagingFiles: automatic management is on and "
                                     "the system drive is unknown"));
        memset(&what, 0, sizeof what);
        what.kind = HR_PFW_STAGE_AUTO_OFF;
        if (push_stage(stages, nstages, &prev, &v, &what) < 0)
            return hr_error_set(err, HR_EINTERNAL, HR_T("PagingFiles: too many stages"));
        prev = v;
    }

    /* 2. "Set" the new file: add it (or change the entry on the target drive in place). */
    memset(&what, 0, sizeof what);
    what.target = *target;
    int at = -1;
    for (int i = 0; i < v.count; i++)
        if (hr_pfw_drive(v.e[i].path) == tdrive)
            at = i;
    if (at >= 0) {
        v.e[at] = *target;
        what.kind = HR_PFW_STAGE_SET;
    } else {
        if (v.count == HR_PFW_MAX_ENTRIES)
            return hr_error_set(err, HR_ETOOBIG, HR_T("PagingFiles: already %d entries"), HR_PFW_MAX_ENTRIES);
        v.e[v.count++] = *target;
        what.kind = HR_PFW_STAGE_ADD;
    }
    if (push_stage(stages, nstages, &prev, &v, &what) < 0)
        return hr_error_set(err, HR_EINTERNAL, HR_T("PagingFiles: too many stages"));
    prev = v;

    /* 3. Only now the old files go ("No paging file" on the other drives) — all but the
     *    crash-dump file X.dump keeps; what stays keeps its place in the list. */
    int tidx = at >= 0 ? at : v.count - 1;
    hr_pfw_list fin = { 0 };
    char removed[200] = "", kept[HR_PFW_PATH_MAX] = "";
    for (int i = 0; i < v.count; i++) {
        if (i == tidx) {
            fin.e[fin.count++] = v.e[i];
        } else if (keep && keep[0] && !kept[0] && strcmp(v.e[i].path, keep) == 0 &&
                   hr_pfw_drive(v.e[i].path) != tdrive) {
            hr_strlcpy(kept, v.e[i].path, sizeof kept);
            fin.e[fin.count++] = v.e[i];
        } else {
            size_t have = strlen(removed);
            snprintf(removed + have, sizeof removed - have, "%s%s", have ? ", " : "", v.e[i].path);
        }
    }
    memset(&what, 0, sizeof what);
    what.kind = HR_PFW_STAGE_REMOVE;
    hr_strlcpy(what.removed, removed, sizeof what.removed);
    hr_strlcpy(what.kept, kept, sizeof what.kept);
    if (push_stage(stages, nstages, &prev, &fin, &what) < 0)
        return hr_error_set(err, HR_EINTERNAL, HR_T("PagingFiles: too many stages"));
    return 0;
}
