#include "core/apply/apply_verify.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/utf8.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A finding: its verdict counts; the message it holds, or NULL when the list is full. */
static hr_verify_item *add_item(hr_verify_result *r, hr_verify_verdict v)
{
    if (v > r->verdict)
        r->verdict = v;
    if (r->count == HR_VERIFY_MAX_ITEMS)
        return NULL;
    hr_verify_item *it = &r->items[r->count++];
    memset(it, 0, sizeof *it);
    it->verdict = v;
    return it;
}

HR_PRINTF(3, 4)
static hr_msg *item(hr_verify_result *r, hr_verify_verdict v, const char *fmt, ...)
{
    hr_verify_item *it = add_item(r, v);
    if (!it)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&it->msg, fmt, ap);
    va_end(ap);
    return &it->msg;
}

/* Mark a %s value that is a msgid of its own; "" stays "" (it is no message). */
static void tr_arg(hr_msg *m, int i, const char *value)
{
    if (m && value && value[0])
        hr_msg_translate_arg(m, i);
}

size_t hr_verify_item_text(const hr_verify_item *it, hr_lang lang, char *out, size_t n)
{
    /* a finding's words were kept in 600 bytes: shown so, in every language */
    char text[600], cut[96] = "";
    if (it->kind != HR_VERIFY_ITEM_MSG && it->cut_step[0])
        snprintf(cut, sizeof cut, hr_tr_lang(lang, HR_N(" (step '%s' was cut short)")), it->cut_step);
    switch (it->kind) {
    case HR_VERIFY_ITEM_ROLLBACK_CUT:
        snprintf(text, sizeof text,
                 hr_tr_lang(lang, HR_N("a rollback was interrupted%s: run 'headroom rollback --yes' "
                                       "to finish it")),
                 cut);
        break;
    case HR_VERIFY_ITEM_CHANGE_CUT:
        snprintf(text, sizeof text,
                 hr_tr_lang(lang, HR_N("a change was interrupted%s: run 'headroom rollback --yes' to "
                                       "undo it")),
                 cut);
        break;
    case HR_VERIFY_ITEM_APPLY_CUT:
        snprintf(text, sizeof text,
                 hr_tr_lang(lang, HR_N("an apply was interrupted after step '%s'%s: run 'headroom "
                                       "rollback --yes' to undo it, then apply again")),
                 it->last_step[0] ? it->last_step : hr_tr_lang(lang, HR_N("(none)")), cut);
        break;
    default: hr_msg_format(&it->msg, lang, text, sizeof text);
    }
    if (n)
        hr_strlcpy(out, text, n);
    return strlen(text);
}

/* An apply or rollback that did not finish: say so, with the command that finishes it. */
static void interrupted(hr_verify_result *r, const hr_apply_state *st)
{
    if (!st || !hr_apply_state_interrupted(st))
        return;
    hr_verify_item *it = add_item(r, HR_VERDICT_DIFFER);
    if (!it)
        return;
    it->kind = strcmp(st->status, "rolling-back") == 0 ? HR_VERIFY_ITEM_ROLLBACK_CUT
               : strcmp(st->status, "applied") == 0    ? HR_VERIFY_ITEM_CHANGE_CUT
                                                       : HR_VERIFY_ITEM_APPLY_CUT;
    hr_strlcpy(it->last_step, st->last_step, sizeof it->last_step);
    hr_strlcpy(it->cut_step, st->intent.step, sizeof it->cut_step);
}

/* A caveat: shown, tagged "note", and no part of the verdict. */
HR_PRINTF(2, 3)
static void note(hr_verify_result *r, const char *fmt, ...)
{
    if (r->count == HR_VERIFY_MAX_ITEMS)
        return;
    hr_verify_item *it = &r->items[r->count++];
    memset(it, 0, sizeof *it);
    it->verdict = HR_VERDICT_MATCH;
    it->note = true;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&it->msg, fmt, ap);
    va_end(ap);
}

void hr_recovery_add(hr_recovery_log *log, hr_recovered_kind kind, const char *step, const char *path)
{
    if (!log || log->count == HR_RECOVERED_MAX)
        return;
    hr_recovered *e = &log->e[log->count++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    hr_strlcpy(e->step, step ? step : "", sizeof e->step);
    hr_strlcpy(e->path, path ? path : "", sizeof e->path);
}

size_t hr_recovered_text(const hr_recovered *e, hr_lang lang, char *out, size_t n)
{
    char line[1024], tail[HR_SNAP_PATH_MAX + 64] = "";
    if (e->kind == HR_RECOVERED_REMOVED_TMP) {
        snprintf(line, sizeof line, hr_tr_lang(lang, HR_N("recovered: removed the unfinished %s\n")), e->path);
    } else {
        switch (e->kind) {
        case HR_RECOVERED_DONE: snprintf(tail, sizeof tail, "%s\n", hr_tr_lang(lang, HR_N("it was done"))); break;
        case HR_RECOVERED_NOT_DONE:
            snprintf(tail, sizeof tail, "%s\n", hr_tr_lang(lang, HR_N("it was not done")));
            break;
        case HR_RECOVERED_FSTAB_CHANGED:
            snprintf(tail, sizeof tail, "%s\n", hr_tr_lang(lang, HR_N("fstab changed")));
            break;
        case HR_RECOVERED_ON: snprintf(tail, sizeof tail, hr_tr_lang(lang, HR_N("%s is on\n")), e->path); break;
        case HR_RECOVERED_OFF: snprintf(tail, sizeof tail, hr_tr_lang(lang, HR_N("%s is off\n")), e->path); break;
        case HR_RECOVERED_CHECKED_PATH:
            snprintf(tail, sizeof tail, hr_tr_lang(lang, HR_N("checked %s\n")), e->path);
            break;
        case HR_RECOVERED_CHECKED_BACKUP:
            hr_strlcpy(tail, hr_tr_lang(lang, HR_N("checked the fstab backup\n")), sizeof tail);
            break;
        case HR_RECOVERED_MARKED_APPLIED:
            hr_strlcpy(tail, hr_tr_lang(lang, HR_N("marked applied\n")), sizeof tail);
            break;
        default: hr_strlcpy(tail, hr_tr_lang(lang, HR_N("checked\n")), sizeof tail);
        }
        int k = snprintf(line, sizeof line, hr_tr_lang(lang, HR_N("recovered: step '%s' was cut short; ")), e->step);
        if (k >= 0 && (size_t)k < sizeof line)
            hr_strlcpy(line + k, tail, sizeof line - (size_t)k);
    }
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n')
        line[--len] = '\0';
    if (n)
        hr_strlcpy(out, line, n);
    return len;
}

int hr_recovery_log_text(const hr_recovery_log *log, hr_lang lang, hr_buf *out)
{
    int e = 0;
    char line[1024];
    for (int i = 0; log && i < log->count && e == 0; i++) {
        hr_recovered_text(&log->e[i], lang, line, sizeof line);
        e = hr_buf_printf(out, "%s\n", line);
    }
    return e;
}

static void result_init(hr_verify_result *r, hr_os os)
{
    memset(r, 0, sizeof *r);
    r->os = os;
    r->paging_total_known = true;
    r->commit_limit_bytes = r->commit_charge_bytes = HR_UNKNOWN;
}

void hr_verify_linux(const hr_verify_linux_in *in, hr_verify_result *r)
{
    result_init(r, HR_OS_LINUX);
    r->commit_limit_bytes = in->commit_limit_bytes;
    r->commit_charge_bytes = in->commit_charge_bytes;
    const char *fst = in->fstab_path ? in->fstab_path : "/etc/fstab";
    char sz[32];

    interrupted(r, in->state);

    bool used[HR_MAX_PAGING] = { false };
    for (int i = 0; i < in->config_count; i++) {
        const hr_verify_config *c = &in->config[i];
        if (c->noauto) {
            note(r, HR_N("%s: noauto in %s, not expected on"), c->spec, fst);
            continue;
        }
        const char *want = c->resolved[0] ? c->resolved : c->spec;
        int k = -1;
        for (int j = 0; j < in->active_count; j++)
            if (strcmp(in->active[j].path, want) == 0 || strcmp(in->active[j].path, c->spec) == 0)
                k = j;
        if (k < 0) {
            const char *unres = c->resolved[0] || c->spec[0] == '/' ? "" : HR_N("; could not resolve it");
            tr_arg(item(r, HR_VERDICT_DIFFER, HR_N("%s: configured in %s but not in use (not in /proc/swaps)%s"),
                        c->spec, fst, unres),
                   2, unres);
            continue;
        }
        used[k] = true;
        const hr_swap_active *a = &in->active[k];
        hr_size_format(a->size_bytes, sz, sizeof sz);
        if (c->priority != HR_UNKNOWN_I64 && c->priority != a->priority)
            item(r, HR_VERDICT_DIFFER, HR_N("%s: priority %lld in %s, %lld in use"), c->spec, (long long)c->priority,
                 fst, (long long)a->priority);
        else
            item(r, HR_VERDICT_MATCH, HR_N("%s: in use, %s, priority %lld"), c->spec, sz, (long long)a->priority);
    }
    for (int j = 0; j < in->active_count; j++) {
        const hr_swap_active *a = &in->active[j];
        if (a->size_bytes != HR_UNKNOWN)
            r->paging_total_bytes += a->size_bytes;
        else
            r->paging_total_known = false;
        if (used[j])
            continue;
        if (strncmp(a->path, "/dev/zram", 9) == 0) {
            item(r, HR_VERDICT_MATCH, HR_N("%s: zram (set up by a service, not by fstab)"), a->path);
            continue;
        }
        item(r, HR_VERDICT_DIFFER, HR_N("%s: in use but not in %s: it will be gone after a reboot"), a->path, fst);
    }
    if (in->state)
        for (int i = 0; i < in->state->area_count; i++) {
            const hr_apply_area *a = &in->state->areas[i];
            bool found = false;
            for (int j = 0; j < in->active_count; j++)
                if (strcmp(in->active[j].path, a->path) == 0) {
                    found = true;
                    if (a->size_bytes && in->active[j].size_bytes != HR_UNKNOWN &&
                        in->active[j].size_bytes + 65536 < a->size_bytes)
                        item(r, HR_VERDICT_DIFFER,
                             HR_N("%s: headroom made it %llu bytes, the kernel "
                                  "uses %llu"),
                             a->path, (unsigned long long)a->size_bytes, (unsigned long long)in->active[j].size_bytes);
                }
            if (!found && strcmp(in->state->status, "applied") == 0)
                item(r, HR_VERDICT_DIFFER, HR_N("%s: created by headroom apply but not in use"), a->path);
        }
    if (in->config_count == 0 && in->active_count == 0)
        item(r, HR_VERDICT_MATCH, HR_N("no swap configured in %s and none in use"), fst);
}

/* "\??\C:\pagefile.sys" -> "C:\pagefile.sys"; upper-cased drive for comparing. */
static void norm_path(const char *in, char *out, size_t n)
{
    if (strncmp(in, "\\??\\", 4) == 0)
        in += 4;
    hr_strlcpy(out, in, n);
    for (char *p = out; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

void hr_verify_windows(const hr_verify_win_in *in, hr_verify_result *r)
{
    result_init(r, HR_OS_WINDOWS);
    r->commit_limit_bytes = in->commit_limit_bytes;
    r->commit_charge_bytes = in->commit_charge_bytes;
    /* A change written after this boot began waits for the reboot. */
    bool pending = false;
    interrupted(r, in->state);
    if (in->state && in->state->reg_written && in->boot_unix != HR_UNKNOWN_I64 &&
        in->state->started_unix >= in->boot_unix)
        pending = true;
    hr_verify_verdict miss = pending ? HR_VERDICT_PENDING_REBOOT : HR_VERDICT_DIFFER;
    if (in->temp_page_file == HR_TRI_YES)
        item(r, HR_VERDICT_DIFFER,
             HR_N("TempPageFile = 1: Windows could not use the configured paging file at this boot and runs on "
                  "a temporary one; the configuration is not what is in use (check that its "
                  "drive exists and has room, then restart)"));

    /* What exists now: ExistingPageFiles, and the open files (more precise when known). */
    char now[2 * HR_PFW_MAX_ENTRIES][HR_PFW_PATH_MAX];
    uint64_t now_size[2 * HR_PFW_MAX_ENTRIES];
    int nn = 0;
    for (int i = 0; i < in->open_count && nn < 2 * HR_PFW_MAX_ENTRIES; i++) {
        norm_path(in->open[i].path, now[nn], sizeof now[nn]);
        now_size[nn++] = in->open[i].size_bytes;
    }
    for (int i = 0; i < in->existing_count && nn < 2 * HR_PFW_MAX_ENTRIES; i++) {
        char p[HR_PFW_PATH_MAX];
        norm_path(in->existing[i], p, sizeof p);
        bool dup = false;
        for (int k = 0; k < nn; k++)
            if (strcmp(now[k], p) == 0)
                dup = true;
        if (!dup) {
            hr_strlcpy(now[nn], p, sizeof now[nn]);
            now_size[nn++] = HR_UNKNOWN;
        }
    }
    bool matched[2 * HR_PFW_MAX_ENTRIES] = { false };
    bool automatic = false;
    if (!in->configured_present || in->configured.count == 0) {
        const char *but = nn ? HR_N(", but paging files are in use") : "";
        tr_arg(item(r, nn ? miss : HR_VERDICT_MATCH, HR_N("PagingFiles: no paging file configured%s"), but), 0, but);
    }
    for (int i = 0; i < in->configured.count; i++) {
        const hr_pfw_entry *e = &in->configured.e[i];
        char p[HR_PFW_PATH_MAX], szs[32];
        norm_path(e->path, p, sizeof p);
        if (e->mode == HR_PAGING_MODE_AUTOMATIC) {
            automatic = true;
            tr_arg(item(r, nn ? HR_VERDICT_MATCH : miss, HR_N("%s: automatic management%s"), e->path,
                        nn ? HR_N("; Windows chose the files below") : HR_N(", but no paging file is in use")),
                   1, "x");
            for (int k = 0; k < nn; k++)
                matched[k] = true;
            continue;
        }
        int k = -1;
        for (int j = 0; j < nn; j++)
            if (strcmp(now[j], p) == 0)
                k = j;
        char dl = (char)toupper((unsigned char)e->path[0]);
        if (k < 0 && in->drives_known && dl >= 'A' && dl <= 'Z' && e->path[1] == ':' &&
            !(in->drives_mask & (1u << (dl - 'A')))) {
            /* the template is no sentence: its words are the value, translated */
            tr_arg(item(r, HR_VERDICT_DIFFER, "%s: %s (%c:)", e->path,
                        HR_N("configured, but this machine has no such drive, so no restart will "
                             "create it"),
                        dl),
                   1, "x");
            continue;
        }
        if (k < 0) {
            const char *yet = pending ? HR_N(" yet (the reboot creates it)") : "";
            tr_arg(item(r, miss, HR_N("%s: configured but not in use%s"), e->path, yet), 1, yet);
            continue;
        }
        matched[k] = true;
        if (e->mode == HR_PAGING_MODE_CUSTOM && now_size[k] != HR_UNKNOWN &&
            (now_size[k] < e->initial_mb * HR_MIB - HR_MIB || now_size[k] > e->maximum_mb * HR_MIB + HR_MIB)) {
            hr_size_format(now_size[k], szs, sizeof szs);
            item(r, miss, HR_N("%s: in use at %s, configured %llu-%llu MB"), e->path, szs,
                 (unsigned long long)e->initial_mb, (unsigned long long)e->maximum_mb);
        } else {
            bool known = now_size[k] != HR_UNKNOWN;
            if (known)
                hr_size_format(now_size[k], szs, sizeof szs);
            else
                hr_strlcpy(szs, HR_N("size unknown"), sizeof szs);
            hr_msg *m = item(r, HR_VERDICT_MATCH, HR_N("%s: in use (%s), as configured"), e->path, szs);
            if (!known)
                tr_arg(m, 1, szs);
        }
    }
    for (int k = 0; k < nn; k++)
        if (!matched[k] && !automatic)
            tr_arg(item(r, miss, HR_N("%s: still in use but no longer configured%s"), now[k],
                        pending ? HR_N(": the reboot removes it") : HR_N(" (a file that should be gone)")),
                   1, "x");
    for (int k = 0; k < in->open_count; k++)
        if (in->open[k].size_bytes != HR_UNKNOWN)
            r->paging_total_bytes += in->open[k].size_bytes;
        else
            r->paging_total_known = false;
    if (!in->open_known) {
        r->paging_total_known = false;
        note(r, HR_N("the open paging files could not be listed; compared with "
                     "ExistingPageFiles only"));
    }
}

int hr_verify_text(const hr_verify_result *r, hr_buf *out)
{
    hr_lang lang = hr_lang_get(); /* text is the user's */
    char text[1024];
    /* TRANSLATORS: the tag in front of each line of verify, padded to a column seven wide
     * (the translation need not be: it is padded by its display width). */
    static const char *tag[] = { HR_N("ok     "), HR_N("reboot "), HR_N("DIFFER ") };
    static const char *note_tag = HR_N("note   ");
    static const char *fixed_tag = HR_N("fixed  ");
    static const char *verdict[] = { HR_N("configured = in use"), HR_N("a change waits for a reboot"),
                                     HR_N("configured and in use disagree") };
    int e = hr_buf_printf(out, HR_T("verify: %s\n"), hr_tr(verdict[r->verdict]));
    /* Recovery changed the machine's records before the comparison: say what it did. */
    for (int i = 0; e == 0 && i < r->recovered.count; i++) {
        const char *t = hr_tr(fixed_tag);
        size_t w = hr_utf8_width(t);
        hr_recovered_text(&r->recovered.e[i], lang, text, sizeof text);
        e = hr_buf_printf(out, "  %s%*s %s\n", t, w < 7 ? (int)(7 - w) : 0, "", text);
    }
    for (int i = 0; i < r->count && e == 0; i++) {
        const char *t = hr_tr(r->items[i].note ? note_tag : tag[r->items[i].verdict]);
        size_t w = hr_utf8_width(t);
        hr_verify_item_text(&r->items[i], lang, text, sizeof text);
        e = hr_buf_printf(out, "  %s%*s %s\n", t, w < 7 ? (int)(7 - w) : 0, "", text);
    }
    if (e == 0 && r->commit_limit_bytes != HR_UNKNOWN) {
        char a[32], b[32], c[32];
        hr_size_format(r->commit_limit_bytes, a, sizeof a);
        if (r->commit_charge_bytes == HR_UNKNOWN)
            hr_strlcpy(b, HR_T("not known"), sizeof b);
        else
            hr_size_format(r->commit_charge_bytes, b, sizeof b);
        if (r->paging_total_known)
            hr_size_format(r->paging_total_bytes, c, sizeof c);
        else
            hr_strlcpy(c, HR_T("an amount not known"), sizeof c);
        e = hr_buf_printf(out,
                          HR_T("commit limit %s (committed now %s; paging in use adds %s). "
                               "Whether that is enough for your workflows is what headroom check "
                               "answers.\n"),
                          a, b, c);
    }
    return e;
}

static void verify_json_to(const hr_verify_result *r, hr_json_writer *w)
{
    static const char *names[] = { "match", "pending-reboot", "differ" };
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", "headroom.verify/1");
    hr_json_str(w, "os", r->os == HR_OS_WINDOWS ? "windows" : "linux");
    hr_json_str(w, "verdict", names[r->verdict]);
    hr_json_i64(w, "exit_status", r->verdict);
    char text[1024]; /* JSON is English, whatever language the text is in */
    hr_json_begin_array(w, "items");
    for (int i = 0; i < r->count; i++) {
        hr_verify_item_text(&r->items[i], HR_LANG_EN, text, sizeof text);
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "verdict", r->items[i].note ? "note" : names[r->items[i].verdict]);
        hr_json_str(w, "text", text);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "recovered"); /* what verify finished or undid of a cut-short run */
    for (int i = 0; i < r->recovered.count; i++) {
        hr_recovered_text(&r->recovered.e[i], HR_LANG_EN, text, sizeof text);
        hr_json_str(w, NULL, text);
    }
    hr_json_end_array(w);
    if (r->commit_limit_bytes == HR_UNKNOWN)
        hr_json_null(w, "commit_limit_bytes");
    else
        hr_json_u64(w, "commit_limit_bytes", r->commit_limit_bytes);
    if (r->commit_charge_bytes == HR_UNKNOWN)
        hr_json_null(w, "commit_charge_bytes");
    else
        hr_json_u64(w, "commit_charge_bytes", r->commit_charge_bytes);
    if (r->paging_total_known)
        hr_json_u64(w, "paging_in_use_bytes", r->paging_total_bytes);
    else
        hr_json_null(w, "paging_in_use_bytes");
    hr_json_end_object(w);
}

int hr_verify_json(const hr_verify_result *r, hr_buf *out)
{
    hr_json_writer w;
    hr_json_init(&w, out, true);
    verify_json_to(r, &w);
    return hr_json_finish(&w);
}

void hr_verify_render(const hr_verify_result *r, hr_render *rd)
{
    switch (rd->format) {
    case HR_FORMAT_TEXT: hr_verify_text(r, rd->out); break; /* sticky: the buffer keeps a failure */
    case HR_FORMAT_JSON: verify_json_to(r, &rd->json); break;
    default: hr_render_unsupported(rd);
    }
}
