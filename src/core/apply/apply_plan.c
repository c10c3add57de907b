#include "core/apply/apply_plan.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/model/swap_header.h"
#include "core/model/swap_target.h"
#include "core/base/utf8.h"

#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hr_step_kind_name(hr_step_kind k)
{
    switch (k) {
    case HR_STEP_RECORD: return "record";
    case HR_STEP_CREATE_FILE: return "create-file";
    case HR_STEP_ALLOCATE: return "allocate";
    case HR_STEP_WRITE_HEADER: return "write-header";
    case HR_STEP_SWAPON: return "swapon";
    case HR_STEP_FSTAB_ADD: return "fstab-add";
    case HR_STEP_SWAPOFF_OLD: return "swapoff-old";
    case HR_STEP_FSTAB_REMOVE_OLD: return "fstab-remove-old";
    case HR_STEP_DELETE_OLD: return "delete-old";
    case HR_STEP_BACKUP_REGISTRY: return "backup-registry";
    case HR_STEP_WRITE_PAGING_FILES: return "write-paging-files";
    case HR_STEP_FINISH: return "finish";
    }
    return "unknown";
}

HR_PRINTF(4, 5)
static hr_apply_step *add_step(hr_apply_plan *p, hr_step_kind k, const char *path, const char *fmt, ...)
{
    if (p->step_count == HR_APPLY_MAX_STEPS)
        return NULL;
    hr_apply_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    hr_strlcpy(s->name, hr_step_kind_name(k), sizeof s->name);
    if (path)
        hr_strlcpy(s->path, path, sizeof s->path);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        hr_msg_vset(&s->msg, fmt, ap);
        va_end(ap);
    }
    return s;
}

/* The note added, or NULL when the notes are full (never: at most six are made; a note past
 * the last would be left out). */
static hr_msg *add_note(hr_apply_plan *p, hr_apply_note_kind kind)
{
    if (p->note_count == HR_APPLY_MAX_NOTES)
        return NULL;
    hr_apply_note *n = &p->notes[p->note_count++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return &n->msg;
}

/* Mark a %s value that is a msgid of its own; "" stays "" (it is no message). */
static void tr_arg(hr_msg *m, int i, const char *value)
{
    if (m && value && value[0])
        hr_msg_translate_arg(m, i);
}

bool hr_fs_can_hold_swap(const hr_fs_facts *fs, hr_swap_verdict *why)
{
    /* The one rule (core/model/swap_target.h) plan placement and the volume probe use too. */
    return hr_swap_fs_capable(HR_OS_LINUX, fs->type, fs->devices, fs->read_only, why) == HR_TRI_YES;
}

bool hr_apply_margin_ok(uint64_t total, uint64_t free, uint64_t grow, char *why, size_t n)
{
    char a[32], b[32], c[32];
    if (total == HR_UNKNOWN || free == HR_UNKNOWN) {
        snprintf(why, n, HR_T("the free space of the volume is unknown"));
        return false;
    }
    if (!hr_room_ok(total, free, grow)) { /* the reserve plan placement keeps too */
        hr_size_format(free, a, sizeof a);
        hr_size_format(grow, b, sizeof b);
        hr_size_format(hr_reserve_bytes(total), c, sizeof c);
        snprintf(why, n,
                 HR_T("only %s free; after %s more at least %s must stay free "
                      "(10 GiB and %d%% of the volume)"),
                 a, b, c, HR_RESERVE_PERCENT);
        return false;
    }
    return true;
}

/* "/x/headroom.swap" <-> "/x/headroom-2.swap"; other names get "-2" appended/removed. */
static void alternate_path(const char *p, char *out, size_t n)
{
    size_t len = strlen(p);
    const char *ext = ".swap";
    size_t el = strlen(ext);
    if (len > el + 2 && strcmp(p + len - el, ext) == 0) {
        if (strncmp(p + len - el - 2, "-2", 2) == 0)
            snprintf(out, n, "%.*s%s", (int)(len - el - 2), p, ext);
        else
            snprintf(out, n, "%.*s-2%s", (int)(len - el), p, ext);
    } else if (len > 2 && strcmp(p + len - 2, "-2") == 0) {
        snprintf(out, n, "%.*s", (int)(len - 2), p);
    } else {
        snprintf(out, n, "%s-2", p);
    }
}

static const hr_apply_area *applied_area(const hr_apply_state *st)
{
    if (!st || strcmp(st->status, "applied") != 0)
        return NULL;
    for (int i = 0; i < st->area_count; i++)
        if (st->areas[i].created)
            return &st->areas[i];
    return NULL;
}

bool hr_apply_linux_grow_own(const hr_apply_state *state, const char *plan_path, uint64_t add_bytes, char *path,
                             size_t n, uint64_t *size_bytes)
{
    const hr_apply_area *cur = applied_area(state);
    if (!cur || !plan_path || add_bytes == 0 || add_bytes == HR_UNKNOWN)
        return false;
    char alt[HR_SNAP_PATH_MAX];
    alternate_path(cur->path, alt, sizeof alt);
    /* beside it: the same file grown; elsewhere: the new file replaces it, so it carries the
     * old file's share too (the total never drops below what was on) */
    hr_strlcpy(path, strcmp(alt, plan_path) == 0 ? cur->path : plan_path, n);
    *size_bytes = hr_sat_add(cur->size_bytes, add_bytes);
    return true;
}

int hr_apply_linux_choose_path(const char *target, bool target_is_dir, uint64_t size_bytes, int priority,
                               size_t page_size, const hr_apply_state *state, char *out, size_t n, hr_error *err)
{
    char path[HR_SNAP_PATH_MAX];
    if (!target || target[0] != '/')
        return hr_error_set(err, HR_EINVAL, HR_T("target '%s' must be an absolute path"), target ? target : "");
    int w;
    if (target_is_dir) {
        size_t tl = strlen(target);
        w = snprintf(path, sizeof path, "%s%s%s", target, tl && target[tl - 1] == '/' ? "" : "/", HR_APPLY_SWAP_NAME);
    } else {
        w = snprintf(path, sizeof path, "%s", target);
    }
    if (w < 0 || (size_t)w >= sizeof path)
        return hr_error_set(err, HR_ERANGE, HR_T("target '%s': path too long"), target);
    const hr_apply_area *cur = applied_area(state);
    uint64_t aligned = page_size ? size_bytes / page_size * page_size : size_bytes;
    if (cur && strcmp(cur->path, path) == 0 && (cur->size_bytes != aligned || cur->priority != priority)) {
        char alt[HR_SNAP_PATH_MAX];
        alternate_path(path, alt, sizeof alt);
        hr_strlcpy(out, alt, n);
        return 0;
    }
    /* Resizing an area created at the alternate name: go back to the plain one. */
    if (cur && target_is_dir) {
        char alt[HR_SNAP_PATH_MAX];
        alternate_path(path, alt, sizeof alt);
        if (strcmp(cur->path, alt) == 0 && cur->size_bytes == aligned && cur->priority == priority) {
            hr_strlcpy(out, alt, n);
            return 0;
        }
    }
    hr_strlcpy(out, path, n);
    return 0;
}

static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        size_t k = hr_utf8_valid_prefix(p, n);
        if (!k)
            return false;
        p += k;
        n -= k;
    }
    return true;
}

/* fstab edited by hand since headroom last wrote it, and this plan writes fstab: never in
 * silence. The edits are kept (apply changes only its own lines) and become what rollback
 * leaves: from now on it takes out headroom's lines alone instead of restoring the bytes
 * from before headroom, which would undo the edits. */
static void linux_hand_note(const hr_apply_linux_in *in, const hr_apply_area *cur, hr_apply_plan *p)
{
    const hr_apply_state *st = in->state;
    /* headroom's file resized by hand (swapoff, a new size, mkswap, swapon): the kernel's
     * size, which leaves out the header page, is not the one recorded */
    const hr_swap_active *a = NULL;
    for (int i = 0; cur && i < in->active_count && !a; i++)
        if (strcmp(in->active[i].path, cur->path) == 0)
            a = &in->active[i];
    if (a && a->size_bytes != HR_UNKNOWN && in->page_size &&
        (a->size_bytes + 2 * in->page_size < cur->size_bytes || a->size_bytes > cur->size_bytes)) {
        char now[32], rec[32];
        hr_size_format(a->size_bytes, now, sizeof now);
        hr_size_format(cur->size_bytes, rec, sizeof rec);
        bool have = p->note_count > 0;
        hr_msg *m = add_note(p, HR_APPLY_NOTE_MSG);
        if (m)
            hr_msg_set(m,
                       HR_N("%s%s was resized by hand since headroom made it (%s on now, %s recorded); it is still "
                            "headroom's file: a resize replaces it and rollback deletes it."),
                       have ? " " : "", cur->path, now, rec);
    }
    bool writes = false;
    for (int i = 0; i < p->step_count; i++)
        writes |= p->steps[i].kind == HR_STEP_FSTAB_ADD || p->steps[i].kind == HR_STEP_FSTAB_REMOVE_OLD;
    if (!st || !st->fstab_written || !in->fstab_edited || !writes)
        return;
    p->hand_edited = true;
    bool have = p->note_count > 0;
    hr_msg *m = add_note(p, HR_APPLY_NOTE_MSG);
    if (m) {
        const char *backup = st->fstab_backup[0] ? st->fstab_backup : HR_N("the backup");
        /* its last value, the fstab line's own sentence, is the note after it */
        hr_msg_set(m,
                   HR_N("%s%s was changed by hand since headroom last wrote it: apply keeps those edits and changes "
                        "only its own lines, and rollback will take out only headroom's lines instead of restoring "
                        "%s (the copy from before headroom), so the edits stay.%s"),
                   have ? " " : "", in->fstab_path, backup, "");
        if (!st->fstab_backup[0])
            hr_msg_translate_arg(m, 2);
    }
    long i = cur ? hr_fstab_find_swap(in->fstab, cur->path) : -1;
    if (i >= 0) {
        /* the options fstab.c writes: "defaults,pri=N" */
        const char *o = in->fstab->lines[i].opts ? in->fstab->lines[i].opts : "defaults";
        char *end = NULL;
        bool ours =
            strncmp(o, "defaults,pri=", 13) == 0 && strtoll(o + 13, &end, 10) == cur->priority && end && *end == '\0';
        hr_msg *l = ours ? NULL : add_note(p, HR_APPLY_NOTE_MSG);
        const char *goes = strcmp(cur->path, in->path) == 0 ? "" : HR_N("; that line goes with the old file");
        if (l) {
            hr_msg_set(l,
                       HR_N(" Its line for %s now reads '%s', not 'defaults,pri=%lld' as headroom "
                            "wrote it%s."),
                       cur->path, o, (long long)cur->priority, goes);
            tr_arg(l, 3, goes);
        }
    }
}

static const hr_swap_active *find_active(const hr_apply_linux_in *in, const char *path)
{
    for (int i = 0; i < in->active_count; i++)
        if (strcmp(in->active[i].path, path) == 0)
            return &in->active[i];
    return NULL;
}

int hr_apply_plan_linux(const hr_apply_linux_in *in, hr_apply_plan *p, hr_error *err)
{
    memset(p, 0, sizeof *p);
    p->os = HR_OS_LINUX;
    p->priority = in->priority;
    p->page_size = in->page_size;
    hr_strlcpy(p->path, in->path, sizeof p->path);
    hr_strlcpy(p->fs_type, in->fs.type, sizeof p->fs_type);
    char why[256], sz[32];

    if (in->page_size < 4096 || in->page_size > 65536)
        return hr_error_set(err, HR_EINVAL, HR_T("page size %lu is not supported"), (unsigned long)in->page_size);
    p->size_bytes = in->size_bytes / in->page_size * in->page_size;
    if (hr_swap_pages(p->size_bytes, in->page_size) < HR_SWAP_MIN_GOOD_PAGES + 1)
        return hr_error_set(err, HR_ERANGE,
                            HR_T("size %llu bytes is below the smallest swap area "
                                 "(%lu KiB)"),
                            (unsigned long long)in->size_bytes,
                            (unsigned long)((HR_SWAP_MIN_GOOD_PAGES + 1) * in->page_size / 1024));
    if (p->size_bytes > ((uint64_t)UINT32_MAX + 1) * in->page_size)
        return hr_error_set(err, HR_ERANGE, HR_T("size is larger than a swap area can be"));
    if (in->priority < 0 || in->priority > 32767)
        return hr_error_set(err, HR_ERANGE, HR_T("priority %d: must be 0 to 32767"), in->priority);
    if (in->path[0] != '/')
        return hr_error_set(err, HR_EINVAL, HR_T("swap file path '%s' is not absolute"), in->path);
    if (!valid_utf8(in->path))
        return hr_error_set(err, HR_EINVAL,
                            HR_T("swap file path is not valid UTF-8; headroom only "
                                 "creates files whose names it can record exactly"));
    if (in->state && strcmp(in->state->status, "in-progress") == 0)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("an earlier apply stopped after step '%s'; run "
                                 "'headroom rollback --yes' first"),
                            in->state->last_step[0] ? in->state->last_step : HR_T("(none)"));

    const hr_apply_area *cur = applied_area(in->state);
    long fidx = hr_fstab_find_swap(in->fstab, in->path);
    const hr_swap_active *act = find_active(in, in->path);
    hr_size_format(p->size_bytes, sz, sizeof sz);

    /* Already headroom's file at this path with this size: idempotent, or repair. */
    if (cur && strcmp(cur->path, in->path) == 0 && cur->size_bytes == p->size_bytes && cur->priority == in->priority) {
        bool on = act && act->priority == in->priority;
        bool listed = fidx >= 0;
        if (on && listed) {
            p->nothing_to_do = true;
            return 0;
        }
        if (act && !on)
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("%s is on with priority %lld, not %d; "
                                     "change it with a new size or roll back"),
                                in->path, (long long)act->priority, in->priority);
        if (!in->path_exists)
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("%s was created by headroom but is gone; run "
                                     "'headroom rollback --yes' and apply again"),
                                in->path);
        if (in->dir_unsafe[0])
            return hr_error_set(err, HR_EUNSAFE, "%s", in->dir_unsafe);
        add_step(p, HR_STEP_RECORD, NULL, HR_N("record the change in the state file"));
        if (!act)
            add_step(p, HR_STEP_SWAPON, in->path, HR_N("turn on swap %s with priority %d"), in->path, in->priority);
        if (!listed)
            add_step(p, HR_STEP_FSTAB_ADD, in->fstab_path,
                     HR_N("add '%s none swap defaults,pri=%d 0 0' "
                          "to %s (temporary file, fsync, rename; backup kept)"),
                     in->path, in->priority, in->fstab_path);
        add_step(p, HR_STEP_FINISH, NULL, HR_N("mark the change as applied in the state file"));
        linux_hand_note(in, cur, p);
        return 0;
    }

    /* A new file. */
    if (in->path_is_symlink)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s is a symbolic link; headroom never follows "
                                 "links when it creates a swap file"),
                            in->path);
    if (in->path_exists)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s already exists and headroom did not create it; "
                                 "headroom never overwrites or deletes a file it did not create"),
                            in->path);
    if (fidx >= 0)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s already has a swap line in %s that headroom "
                                 "did not add"),
                            in->path, in->fstab_path);
    /* The rules plan uses; their reasons are put in words here, where apply refuses. */
    hr_swap_verdict verdict;
    if (!hr_fs_can_hold_swap(&in->fs, &verdict) || hr_device_removable(&in->dev, &verdict) == HR_TRI_YES ||
        hr_swap_dir_cleared(HR_OS_LINUX, in->path, NULL, &verdict) == HR_TRI_YES) {
        hr_swap_why_text(&verdict, why, sizeof why);
        return hr_error_set(err, HR_EUNSAFE, "%s: %s", in->path, why);
    }
    if (!hr_apply_margin_ok(in->fs.total_bytes, in->fs.free_bytes, p->size_bytes, why, sizeof why))
        return hr_error_set(err, HR_EUNSAFE, "%s: %s", in->path, why);
    if (in->dir_unsafe[0])
        return hr_error_set(err, HR_EUNSAFE, "%s", in->dir_unsafe);
    if (in->active_count >= HR_MAX_PAGING)
        return hr_error_set(err, HR_EUNSAFE, HR_T("%d swap areas are on; the kernel takes no more"), in->active_count);

    add_step(p, HR_STEP_RECORD, in->fstab_path,
             HR_N("back up %s and record the change in the state "
                  "file (so that rollback can undo every step)"),
             in->fstab_path);
    const char *nocow =
        strcmp(in->fs.type, "btrfs") == 0 ? HR_N(", no copy-on-write (chattr +C) while it is empty") : "";
    /* the template is no sentence: its words are the values, each translated */
    hr_apply_step *cs = add_step(p, HR_STEP_CREATE_FILE, in->path, "%s %s.headroom-tmp: %s%s", HR_N("create"), in->path,
                                 HR_N("new file only (O_EXCL, no symlinks), mode 0600"), nocow);
    if (cs) {
        hr_msg_translate_arg(&cs->msg, 0);
        hr_msg_translate_arg(&cs->msg, 2);
        tr_arg(&cs->msg, 3, nocow);
    }
    add_step(p, HR_STEP_ALLOCATE, in->path, HR_N("allocate all %s of %s on %s (no holes), fsync"), sz, in->path,
             in->fs.type);
    hr_apply_step *hs = add_step(p, HR_STEP_WRITE_HEADER, in->path,
                                 HR_N("write the swap header (label '%s', %llu pages "
                                      "of %lu bytes), fsync"
                                      "; %s"),
                                 HR_APPLY_SWAP_LABEL, (unsigned long long)hr_swap_pages(p->size_bytes, in->page_size),
                                 (unsigned long)in->page_size, HR_N("rename the finished file to its name"));
    if (hs)
        hr_msg_translate_arg(&hs->msg, 3);
    add_step(p, HR_STEP_SWAPON, in->path, HR_N("turn on swap %s with priority %d"), in->path, in->priority);
    add_step(p, HR_STEP_FSTAB_ADD, in->fstab_path,
             HR_N("add '%s none swap defaults,pri=%d 0 0' to %s "
                  "(temporary file, fsync, rename; backup kept)"),
             in->path, in->priority, in->fstab_path);
    hr_msg shrink;
    memset(&shrink, 0, sizeof shrink);
    if (cur && strcmp(cur->path, in->path) != 0 &&
        !hr_apply_shrink_ok(HR_OS_LINUX, cur->size_bytes, p->size_bytes, in->allow_shrink, &shrink)) {
        char swhy[600]; /* a refusal is an error: in the language of the moment */
        hr_msg_format(&shrink, hr_lang_get(), swhy, sizeof swhy);
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s would replace headroom's swap file %s: %s"), sz, cur->path, swhy);
    }
    if (cur && strcmp(cur->path, in->path) != 0) {
        hr_strlcpy(p->old_path, cur->path, sizeof p->old_path);
        char osz[32];
        hr_size_format(cur->size_bytes, osz, sizeof osz);
        /* The old line goes first: at no moment does fstab name a file that is not on. */
        add_step(p, HR_STEP_FSTAB_REMOVE_OLD, in->fstab_path, HR_N("remove the line for %s from %s"), cur->path,
                 in->fstab_path);
        add_step(p, HR_STEP_SWAPOFF_OLD, cur->path,
                 HR_N("turn off the old swap file %s (%s), now that "
                      "the new one is on"),
                 cur->path, osz);
        add_step(p, HR_STEP_DELETE_OLD, cur->path, HR_N("delete %s (created by headroom)"), cur->path);
    }
    add_step(p, HR_STEP_FINISH, NULL, HR_N("mark the change as applied in the state file"));
    hr_msg_set(&p->notes[p->note_count++].msg, HR_N("No reboot needed: the swap file is on at once, and the "
                                                    "fstab line turns it on at every boot."));
    hr_msg *sm = hr_msg_is_set(&shrink) ? add_note(p, HR_APPLY_NOTE_SENTENCE) : NULL;
    if (sm) /* --allow-shrink: how much goes */
        *sm = shrink;
    linux_hand_note(in, cur, p);
    return 0;
}

bool hr_apply_shrink_ok(hr_os os, uint64_t before, uint64_t after, bool allow_shrink, hr_msg *why)
{
    memset(why, 0, sizeof *why);
    if (before == HR_UNKNOWN || after == HR_UNKNOWN || after >= before)
        return true;
    char b[32], a[32], d[32];
    hr_size_format(before, b, sizeof b);
    hr_size_format(after, a, sizeof a);
    hr_size_format(before - after, d, sizeof d);
    if (allow_shrink)
        hr_msg_set(why,
                   os == HR_OS_WINDOWS
                       ? HR_N("--allow-shrink: this removes %s of paging file (%s configured now, %s after)")
                       : HR_N("--allow-shrink: this removes %s of swap (%s configured now, %s after)"),
                   d, b, a);
    else
        hr_msg_set(why,
                   os == HR_OS_WINDOWS
                       ? HR_N("it would remove %s of paging file (%s configured now, %s after); headroom never "
                              "lowers the paging file that is configured unless told to: add --allow-shrink to "
                              "do it")
                       : HR_N("it would remove %s of swap (%s configured now, %s after); headroom never lowers "
                              "the swap that is configured unless told to: add --allow-shrink to do it"),
                   d, b, a);
    return allow_shrink;
}

uint64_t hr_apply_win_total(const hr_apply_win_in *in, const hr_pfw_list *l, bool *known)
{
    uint64_t sum = 0;
    *known = true;
    for (int i = 0; i < l->count; i++) {
        const hr_pfw_entry *e = &l->e[i];
        if (e->mode == HR_PAGING_MODE_CUSTOM) {
            sum = hr_sat_add(sum, e->maximum_mb * HR_MIB);
            continue;
        }
        char d = hr_pfw_drive(e->path);
        if (d == '?' || e->mode == HR_PAGING_MODE_AUTOMATIC)
            d = in->system_drive;
        uint64_t f = d >= 'A' && d <= 'Z' ? in->drive_file_bytes[d - 'A'] : HR_UNKNOWN;
        if (f == HR_UNKNOWN)
            *known = false;
        else
            sum = hr_sat_add(sum, f);
    }
    return sum;
}

/* The size of each entry of l (HR_UNKNOWN: not known). */
static void win_entry_sizes(const hr_apply_win_in *in, const hr_pfw_list *l, uint64_t bytes[HR_PFW_MAX_ENTRIES])
{
    for (int i = 0; i < l->count && i < HR_PFW_MAX_ENTRIES; i++) {
        hr_pfw_list one = { 0 };
        one.count = 1;
        one.e[0] = l->e[i];
        bool known = true;
        uint64_t b = hr_apply_win_total(in, &one, &known);
        bytes[i] = known ? b : HR_UNKNOWN;
    }
}

/* "C:\pagefile.sys 4.00 GiB, D:\pagefile.sys 64.0 GiB" in lang, from each entry's size. */
static void win_sizes(const hr_pfw_list *l, const uint64_t *bytes, hr_lang lang, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < l->count; i++) {
        char sz[32];
        if (bytes[i] != HR_UNKNOWN)
            hr_size_format(bytes[i], sz, sizeof sz);
        else
            hr_strlcpy(sz, hr_tr_lang(lang, HR_N("size not known")), sizeof sz);
        size_t have = strlen(out);
        snprintf(out + have, n - have, "%s%s %s%s", i ? ", " : "", l->e[i].path, sz,
                 l->e[i].mode == HR_PAGING_MODE_CUSTOM ? ""
                                                       : hr_tr_lang(lang, HR_N(" (system managed, the file now)")));
    }
}

bool hr_apply_win_drive_ok(const hr_apply_win_in *in, char *why, size_t n)
{
    char d = in->drive;
    if (in->drive_type == HR_DRIVE_NONE) {
        snprintf(why, n, HR_T("%c: does not exist: there is no such drive"), d);
        return false;
    }
    if (in->dev.removable == HR_TRI_YES || in->drive_type == HR_DRIVE_REMOVABLE) {
        snprintf(why, n,
                 HR_T("%c: is a removable drive; a paging file there leaves Windows without "
                      "one when it is unplugged (S5.4)"),
                 d);
        return false;
    }
    if (in->dev.usb == HR_TRI_YES) {
        snprintf(why, n,
                 HR_T("%c: is attached by USB; a paging file there leaves Windows without one "
                      "when it is unplugged (S5.4)"),
                 d);
        return false;
    }
    if (in->dev.encrypted == HR_TRI_YES && strstr(in->dev.encryption, "To Go")) {
        snprintf(why, n, HR_T("%c: is a BitLocker To Go (removable) drive (S5.4)"), d);
        return false;
    }
    if (in->drive_type != HR_DRIVE_FIXED) {
        static const char *names[] = { HR_N("of unknown type"), HR_N("a fixed disk"),     HR_N("a removable drive"),
                                       HR_N("a network drive"), HR_N("an optical drive"), HR_N("a RAM disk") };
        snprintf(why, n, HR_T("%c: is %s; a paging file needs a fixed local disk"), d, hr_tr(names[in->drive_type]));
        return false;
    }
    /* The file already there is reused: only its growth needs room, and a file kept at its
     * size (or shrunk) needs none, even on a drive already under its reserve. */
    uint64_t grow = hr_room_needed(in->existing_file_bytes, in->maximum_mb * HR_MIB);
    char m[200];
    if (grow > 0 && !hr_apply_margin_ok(in->dev.fs_total_bytes, in->dev.fs_free_bytes, grow, m, sizeof m)) {
        snprintf(why, n, "%c: %s", d, m);
        return false;
    }
    return true;
}

const hr_pfw_entry *hr_apply_win_dump_entry(const hr_apply_win_in *in)
{
    /* The rule plan keeps to (core/model/swap_target.h): what plan calls its dump file is
     * the entry that stays here. */
    for (int i = 0; i < in->current.count; i++) {
        const hr_pfw_entry *e = &in->current.e[i];
        bool custom = e->mode == HR_PAGING_MODE_CUSTOM;
        if (hr_dump_file_stays(in->dump_needs_system_paging, in->system_drive, in->drive, hr_pfw_drive(e->path),
                               e->mode, custom ? e->initial_mb * HR_MIB : HR_UNKNOWN,
                               custom ? e->maximum_mb * HR_MIB : HR_UNKNOWN))
            return e;
    }
    return NULL;
}

int hr_apply_plan_windows(const hr_apply_win_in *in, hr_apply_plan *p, hr_error *err)
{
    memset(p, 0, sizeof *p);
    p->os = HR_OS_WINDOWS;
    char why[256];
    if (in->drive < 'A' || in->drive > 'Z')
        return hr_error_set(err, HR_EINVAL, HR_T("target drive must be a letter A: to Z:"));
    if (in->initial_mb == 0 || in->maximum_mb < in->initial_mb)
        return hr_error_set(err, HR_ERANGE,
                            HR_T("sizes: initial %llu MB, maximum %llu MB: need "
                                 "0 < initial <= maximum"),
                            (unsigned long long)in->initial_mb, (unsigned long long)in->maximum_mb);
    if (in->maximum_mb > 16u * 1024 * 1024)
        return hr_error_set(err, HR_ERANGE, HR_T("maximum %llu MB is beyond a paging file's 16 TB"),
                            (unsigned long long)in->maximum_mb);
    if (in->state && strcmp(in->state->status, "in-progress") == 0)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("an earlier apply stopped after step '%s'; run "
                                 "'headroom rollback --yes' first"),
                            in->state->last_step);
    hr_pfw_entry *t = &p->target;
    snprintf(t->path, sizeof t->path, "%c:\\pagefile.sys", in->drive);
    t->mode = HR_PAGING_MODE_CUSTOM;
    t->initial_mb = in->initial_mb;
    t->maximum_mb = in->maximum_mb;
    const hr_pfw_entry *dump = hr_apply_win_dump_entry(in);
    int r = hr_pfw_safe_sequence(&in->current, t, in->system_drive, dump ? dump->path : NULL, p->stages,
                                 &p->stage_count, err);
    if (r < 0)
        return r;
    if (p->stage_count == 0) {
        p->nothing_to_do = true;
        return 0;
    }
    if (!hr_apply_win_drive_ok(in, why, sizeof why))
        return hr_error_set(err, HR_EUNSAFE, "%s", why);
    /* Never less paging file than is configured, unless the user said so. A size not known
     * counts 0: `before` is then the least there is, and less than that is surely a shrink. */
    bool known_before = true, known_after = true;
    const hr_pfw_list *fin = &p->stages[p->stage_count - 1].value;
    uint64_t before = hr_apply_win_total(in, &in->current, &known_before);
    uint64_t after = hr_apply_win_total(in, fin, &known_after);
    hr_msg shrink;
    if (!hr_apply_shrink_ok(HR_OS_WINDOWS, before, after, in->allow_shrink, &shrink)) {
        /* a refusal is an error: in the language of the moment */
        char now[800], swhy[600];
        uint64_t bytes[HR_PFW_MAX_ENTRIES];
        win_entry_sizes(in, &in->current, bytes);
        win_sizes(&in->current, bytes, hr_lang_get(), now, sizeof now);
        hr_msg_format(&shrink, hr_lang_get(), swhy, sizeof swhy);
        return hr_error_set(err, HR_EUNSAFE, HR_T("%c:\\pagefile.sys %llu MB would replace %s: %s"), in->drive,
                            (unsigned long long)in->maximum_mb, now, swhy);
    }
    add_step(p, HR_STEP_BACKUP_REGISTRY, NULL,
             HR_N("back up PagingFiles (and ExistingPageFiles, "
                  "TempPageFile) to a timestamped file and record the change in the state file"));
    for (int i = 0; i < p->stage_count; i++) {
        /* its words are the stage's and the value's (hr_apply_step_text) */
        hr_apply_step *st = add_step(p, HR_STEP_WRITE_PAGING_FILES, NULL, NULL);
        if (!st)
            return hr_error_set(err, HR_EINTERNAL, HR_T("too many steps"));
        snprintf(st->name, sizeof st->name, "write-paging-files-%d", i + 1);
        st->stage = i;
        st->needs_reboot = true;
    }
    add_step(p, HR_STEP_FINISH, NULL, HR_N("mark the change as applied in the state file"));
    p->reboot_needed = true;
    /* A value typed by hand since headroom's last write (neither that value nor the one a
     * cut-short write may have left): never taken over in silence. It becomes the value
     * rollback gives back (backed up again); the one from before headroom stays in its backup. */
    const hr_apply_state *st = in->state;
    p->hand_edited = st && st->reg_written && !hr_pfw_equal(&in->current, &st->written) &&
                     !(st->pending_set && hr_pfw_equal(&in->current, &st->pending));
    if (p->hand_edited) {
        p->hand_now = in->current;
        win_entry_sizes(in, &in->current, p->hand_now_bytes);
        hr_strlcpy(p->hand_backup, st->reg_backup, sizeof p->hand_backup);
    }
    hr_msg_set(&p->notes[p->note_count++].msg, /* the first note */
               HR_N("A reboot is needed: Windows creates and removes paging files only at boot (smss). "
                    "The first boot after a move can be slow or show a paging file message while Windows "
                    "removes the old file and creates the new one; the second boot is normal (S5.1). "
                    "headroom does not grow the file live: every change waits for the reboot. After it, "
                    "run 'headroom verify'."));
    hr_msg *dm = dump ? add_note(p, HR_APPLY_NOTE_MSG) : NULL;
    if (dm) {
        hr_msg_set(dm,
                   HR_N(" %s (%llu MB) stays: Windows writes a kernel crash dump through a paging file on the system "
                        "drive, and the plan keeps it for that (X.dump)."),
                   dump->path, (unsigned long long)dump->maximum_mb);
    }
    /* S5.4: a drive that may be removable or on USB is taken (plan ranks it last), but the
     * doubt is said, never silent */
    if (hr_device_removable(&in->dev, NULL) == HR_TRI_UNKNOWN) {
        hr_msg *m = add_note(p, HR_APPLY_NOTE_MSG);
        if (m)
            hr_msg_set(m,
                       HR_N(" Not known: whether %c: is removable or attached by USB (%s). A paging file on a "
                            "drive that is unplugged leaves Windows without one; plan ranks such a drive last "
                            "(S5.4)."),
                       in->drive,
                       !hr_words_empty(&in->dev.why) ? hr_words_in(&in->dev.why, HR_LANG_EN) : HR_N("not read"));
        /* the drive's reason as the probe worded it, in each language */
        if (m && hr_words_empty(&in->dev.why))
            hr_msg_translate_arg(m, 1);
        else if (m)
            hr_msg_arg_zh(m, 1, hr_words_in(&in->dev.why, HR_LANG_ZH));
    }
    /* X.dump: the system drive's file goes while crash dumps need it: said, never silent. */
    bool sys_before = false, sys_after = false;
    for (int k = 0; k < in->current.count; k++)
        sys_before |=
            in->current.e[k].path[0] == '?' || toupper((unsigned char)in->current.e[k].path[0]) == in->system_drive;
    for (int k = 0; k < fin->count; k++)
        sys_after |= toupper((unsigned char)fin->e[k].path[0]) == in->system_drive;
    if (!dump && sys_before && !sys_after && in->dump_needs_system_paging != HR_TRI_NO) {
        const char *unread = in->dump_needs_system_paging == HR_TRI_UNKNOWN ? HR_N(" not read: assumed on") : "";
        hr_msg *m = add_note(p, HR_APPLY_NOTE_MSG);
        if (m)
            hr_msg_set(
                m,
                HR_N(" %c:'s paging file goes, and crash dumps are on (CrashControl%s): until a small paging file is "
                     "back on %c: (Custom size, at least the dump's size) or a dedicated dump file is set, Windows "
                     "cannot write a kernel crash dump after a blue screen (X.dump)."),
                in->system_drive, unread, in->system_drive);
        tr_arg(m, 1, unread);
    }
    hr_msg *sm = hr_msg_is_set(&shrink) ? add_note(p, HR_APPLY_NOTE_SENTENCE) : NULL;
    if (sm)
        *sm = shrink;
    if (p->hand_edited)
        add_note(p, HR_APPLY_NOTE_WIN_HAND);
    return 0;
}

size_t hr_apply_step_text(const hr_apply_plan *p, int i, hr_lang lang, char *out, size_t n)
{
    /* a step's words were kept in 1400 bytes: shown so, in every language */
    char what[1400];
    const hr_apply_step *s = &p->steps[i];
    if (s->kind == HR_STEP_WRITE_PAGING_FILES && s->stage >= 0 && s->stage < p->stage_count) {
        const hr_pfw_stage *stage = &p->stages[s->stage];
        char words[700], e[HR_PFW_PATH_MAX + 48];
        hr_pfw_stage_text(stage, lang, words, sizeof words);
        hr_buf v; /* the value as written: exact, never translated */
        hr_buf_init(&v, 0);
        for (int k = 0; k < stage->value.count; k++) {
            hr_pfw_format_string(&stage->value.e[k], e, sizeof e);
            hr_buf_printf(&v, "%s\"%s\"", k ? ", " : "", e);
        }
        snprintf(what, sizeof what, hr_tr_lang(lang, HR_N("%s: PagingFiles = [%s]")), words, hr_buf_str(&v));
        hr_buf_free(&v);
    } else {
        hr_msg_format(&s->msg, lang, what, sizeof what);
    }
    if (n)
        hr_strlcpy(out, what, n);
    return strlen(what);
}

size_t hr_apply_notes_text(const hr_apply_plan *p, hr_lang lang, char *out, size_t n)
{
    /* the notes were kept in 2048 bytes: shown so, in every language */
    char notes[2048] = "", one[2048];
    for (int i = 0; i < p->note_count; i++) {
        const hr_apply_note *note = &p->notes[i];
        if (note->kind == HR_APPLY_NOTE_WIN_HAND) {
            char now[600], hand[700];
            win_sizes(&p->hand_now, p->hand_now_bytes, lang, now, sizeof now);
            snprintf(hand, sizeof hand,
                     hr_tr_lang(lang, HR_N(" PagingFiles was changed by hand since headroom last wrote it (now %s): "
                                           "apply takes that value over as the one rollback gives back, and backs it "
                                           "up again; the value from before headroom stays in %s.")),
                     now, p->hand_backup);
            hr_strlcpy(one, hand, sizeof one);
        } else if (note->kind == HR_APPLY_NOTE_SENTENCE) {
            char c[600];
            hr_msg_format(&note->msg, lang, c, sizeof c);
            snprintf(one, sizeof one, " %s.", c);
        } else {
            hr_msg_format(&note->msg, lang, one, sizeof one);
        }
        size_t have = strlen(notes);
        snprintf(notes + have, sizeof notes - have, "%s", one);
    }
    if (n)
        hr_strlcpy(out, notes, n);
    return strlen(notes);
}

int hr_apply_plan_text(const hr_apply_plan *p, hr_buf *out)
{
    hr_lang lang = hr_lang_get(); /* text is the user's */
    if (p->nothing_to_do)
        return hr_buf_puts(out, hr_tr_lang(lang, HR_N("Nothing to do: the configuration is already in place.\n")));
    int r = 0;
    char what[1400], notes[2048];
    for (int i = 0; i < p->step_count && r == 0; i++) {
        hr_apply_step_text(p, i, lang, what, sizeof what);
        r = hr_buf_printf(out, "%2d. [%s] %s%s\n", i + 1, p->steps[i].name, what,
                          p->steps[i].needs_reboot ? hr_tr_lang(lang, HR_N(" (takes effect after a reboot)")) : "");
    }
    hr_apply_notes_text(p, lang, notes, sizeof notes);
    if (r == 0 && notes[0])
        r = hr_buf_printf(out, "\n%s\n", notes);
    return r;
}

static void apply_plan_json_to(const hr_apply_plan *p, hr_json_writer *w)
{
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", "headroom.apply-plan/1");
    hr_json_str(w, "os", p->os == HR_OS_WINDOWS ? "windows" : "linux");
    hr_json_bool(w, "nothing_to_do", p->nothing_to_do);
    hr_json_bool(w, "reboot_needed", p->reboot_needed);
    if (p->os == HR_OS_LINUX) {
        hr_json_str(w, "path", p->path);
        hr_json_u64(w, "size_bytes", p->size_bytes);
        hr_json_i64(w, "priority", p->priority);
        hr_json_str(w, "fs_type", p->fs_type);
        if (p->old_path[0])
            hr_json_str(w, "replaces", p->old_path);
        else
            hr_json_null(w, "replaces");
    } else {
        char s[HR_PFW_PATH_MAX + 48];
        hr_pfw_format_string(&p->target, s, sizeof s);
        hr_json_str(w, "paging_file", s);
        hr_json_u64(w, "initial_bytes", p->target.initial_mb * HR_MIB);
        hr_json_u64(w, "maximum_bytes", p->target.maximum_mb * HR_MIB);
    }
    /* JSON is English, whatever language the text is in */
    char what[1400], notes[2048];
    hr_json_begin_array(w, "steps");
    for (int i = 0; i < p->step_count; i++) {
        hr_apply_step_text(p, i, HR_LANG_EN, what, sizeof what);
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", p->steps[i].name);
        hr_json_str(w, "what", what);
        hr_json_bool(w, "needs_reboot", p->steps[i].needs_reboot);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_apply_notes_text(p, HR_LANG_EN, notes, sizeof notes);
    hr_json_str(w, "notes", notes);
    hr_json_end_object(w);
}

int hr_apply_plan_json(const hr_apply_plan *p, hr_buf *out)
{
    hr_json_writer w;
    hr_json_init(&w, out, true);
    apply_plan_json_to(p, &w);
    return hr_json_finish(&w);
}

void hr_apply_plan_render(const hr_apply_plan *p, hr_render *rd)
{
    switch (rd->format) {
    case HR_FORMAT_TEXT: hr_apply_plan_text(p, rd->out); break; /* sticky: the buffer keeps a failure */
    case HR_FORMAT_JSON: apply_plan_json_to(p, &rd->json); break;
    default: hr_render_unsupported(rd);
    }
}
