/* headroom — the check screen and its JSON (schema headroom.check/1, docs/check.md). */
#include "core/check/check.h"

#include "core/base/i18n.h"
#include "core/base/utf8.h"

#include "core/base/prom.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/model/pagingfiles.h"
#include "core/model/procs.h"
#include "core/status/status_render.h"

#include <string.h>

#define RED    "\033[1;31m"
#define YELLOW "\033[1;33m"
#define GREEN  "\033[1;32m"
#define RESET  "\033[0m"

static const char *verdict_color(hr_check_verdict v)
{
    return v == HR_VERDICT_OK ? GREEN : v == HR_VERDICT_AT_RISK ? YELLOW : v == HR_VERDICT_WILL_FAIL ? RED : YELLOW;
}

/* Windows: what the registry configures, in the dialog's terms ("initial 32768 MB, maximum
 * 65536 MB"), and whether it waits for a restart. */
static void configured(const hr_status *st, const hr_plan_facts *f, hr_buf *out)
{
    if (st->configured_automatic == HR_TRI_YES)
        return; /* "managed automatically" says it */
    hr_buf_puts(out, HR_T("; configured: "));
    if (st->configured_count == 0)
        hr_buf_puts(out, HR_T("no paging file"));
    for (int i = 0; i < st->configured_count; i++) {
        const hr_status_configured *e = &st->configured[i];
        char shown[HR_SNAP_PATH_MAX * 4];
        hr_buf_printf(out, "%s%s ", i ? HR_T(", ") : "", hr_win_path_shown(e->path, shown, sizeof shown));
        if (e->mode == HR_PAGING_MODE_CUSTOM && e->initial_bytes != HR_UNKNOWN && e->maximum_bytes != HR_UNKNOWN)
            hr_buf_printf(out, HR_T("initial %llu MB, maximum %llu MB"),
                          (unsigned long long)(e->initial_bytes / HR_MIB),
                          (unsigned long long)(e->maximum_bytes / HR_MIB));
        else
            hr_buf_puts(out, e->mode == HR_PAGING_MODE_SYSTEM_MANAGED ? HR_T("system managed") : HR_T("automatic"));
    }
    if (f->restart_pending)
        hr_buf_puts(out, HR_T(" — takes effect at the next restart"));
}

/* The value of tier 1 (VRAM), 2 (RAM) or 3 (paging file / swap) after its name: one line
 * of text, no newline; text and HTML show the same words. st: the status report of the
 * machine (NULL: a hypothetical one). */
void hr_check_tier_value(const hr_status *st, const hr_plan *p, int tier, hr_buf *out)
{
    const hr_plan_facts *f = &p->facts;
    char a[32], b[32];
    if (tier == 1) {
        /* The GPU the VRAM fact is of, on a machine that was read. */
        const bool named = st && f->vram_gpu;
        if (f->vram_bytes == HR_UNKNOWN && f->estimate_vram_bytes != HR_UNKNOWN) {
            hr_size_gb(f->estimate_vram_bytes, a, sizeof a);
            hr_buf_printf(out, HR_T("unknown (no GPU memory could be read; give --vram): the estimate assumes %s"), a);
        } else if (f->vram_bytes == HR_UNKNOWN)
            hr_buf_puts(out, HR_T("unknown (no GPU memory could be read; give --vram)"));
        else if (f->vram_bytes == 0)
            hr_buf_puts(out, HR_T("none dedicated: an integrated GPU shares RAM"));
        else {
            hr_size_gb(f->vram_bytes, a, sizeof a);
            hr_buf_printf(out, "%s", a);
            if (named && strcmp(f->vram_source, "--vram") != 0) {
                hr_buf_printf(out, "  %s", f->vram_gpu_name);
                if (f->vram_gpu_used_bytes != HR_UNKNOWN) {
                    hr_size_gb(f->vram_gpu_used_bytes, b, sizeof b);
                    hr_buf_printf(out, HR_T(", %s in use"), b);
                }
            } else {
                hr_buf_printf(out, " (%s)", hr_tr(f->vram_source));
            }
        }
        return;
    }
    if (tier == 2) {
        hr_size_gb(f->ram_bytes, a, sizeof a);
        hr_buf_printf(out, "%s", a);
        if (st && strcmp(f->ram_source, "--ram") != 0 && st->ram_available_bytes != HR_UNKNOWN) {
            hr_size_gb(st->ram_available_bytes, b, sizeof b);
            hr_buf_printf(out, HR_T(", %s available now"), b);
        } else if (!st || strcmp(f->ram_source, "--ram") == 0) {
            hr_buf_printf(out, " (%s)", hr_tr(f->ram_source));
        }
        return;
    }
    const bool win_config = st && f->os == HR_OS_WINDOWS && st->configured_read;
    if (f->disk_paging_bytes == HR_UNKNOWN && win_config) {
        hr_buf_puts(out, HR_T("in use: not known"));
        configured(st, f, out);
        return;
    }
    if (f->disk_paging_bytes == HR_UNKNOWN) {
        hr_buf_puts(out, f->hypothetical ? HR_T("not known (a hypothetical machine)") : HR_T("unknown"));
        return;
    }
    hr_size_gb(f->disk_paging_bytes, a, sizeof a);
    hr_buf_printf(out, HR_T("%s on disk"), f->disk_paging_bytes ? a : HR_T("none"));
    int shown = 0;
    for (int i = 0; st && i < st->paging_count && shown < 3; i++) {
        const hr_status_paging *pg = &st->paging[i];
        if (!pg->disk_backstop)
            continue;
        char name[HR_SNAP_PATH_MAX * 4];
        hr_buf_printf(out, "%s%s", shown ? HR_T(", ") : HR_T(" ("), hr_win_path_shown(pg->path, name, sizeof name));
        shown++;
    }
    if (shown)
        hr_buf_puts(out, HR_T(")"));
    if (st && f->os == HR_OS_WINDOWS && hr_plan_find_warning(p, HR_PW_AUTO_MANAGED))
        hr_buf_puts(out, HR_T(", managed automatically"));
    if (st && f->os == HR_OS_WINDOWS && hr_plan_find_warning(p, HR_PW_AUTO_FULL_SYSTEM))
        hr_buf_puts(out, HR_T(", managed automatically on a nearly full system drive"));
    if (win_config)
        configured(st, f, out);
    if (st && f->os == HR_OS_LINUX && f->restart_pending)
        for (int i = 0; i < st->configured_count; i++) {
            const hr_status_configured *e = &st->configured[i];
            bool active = false;
            for (int j = 0; j < st->paging_count; j++)
                active |= strcmp(st->paging[j].path, e->path) == 0;
            if (active || e->path[0] != '/' || strncmp(e->path, "/dev/", 5) == 0)
                continue;
            hr_size_gb(e->maximum_bytes, a, sizeof a);
            char name[HR_SNAP_PATH_MAX * 4];
            hr_buf_printf(out, HR_T("; /etc/fstab also names %s (%s), not switched on yet"),
                          hr_text_shown(e->path, name, sizeof name), a);
        }
    for (int i = 0; st && i < st->paging_count; i++)
        if (!st->paging[i].disk_backstop) {
            hr_buf_puts(out, HR_T("; zram in RAM (compression, not a backstop)"));
            break;
        }
}

const char *hr_check_tier_name(const hr_plan *p, int tier)
{
    return tier == 1                      ? HR_T("VRAM")
           : tier == 2                    ? HR_T("RAM")
           : p->facts.os == HR_OS_WINDOWS ? HR_T("paging")
                                          : HR_T("swap");
}

static void tiers(const hr_status *st, const hr_plan *p, hr_buf *out)
{
    /* The names in one column, padded by display width (a Chinese character takes two). */
    size_t col = 6;
    for (int t = 1; t <= 3; t++)
        if (hr_utf8_width(hr_check_tier_name(p, t)) > col)
            col = hr_utf8_width(hr_check_tier_name(p, t));
    for (int t = 1; t <= 3; t++) {
        const char *name = hr_check_tier_name(p, t);
        hr_buf_printf(out, "  %d %s%*s  ", t, name, (int)(col - hr_utf8_width(name)), "");
        hr_check_tier_value(st, p, t, out);
        hr_buf_putc(out, '\n');
    }
}

int hr_check_text(const hr_check *c, hr_buf *out, bool color)
{
    const hr_plan *p = c->plan;
    const hr_plan_facts *f = &p->facts;
    const hr_lang lang = hr_lang_get();
    char a[32], b[32], t[HR_PLAN_TEXT_MAX], basis[HR_CHECK_BASIS_MAX];
    hr_check_need_basis_text(c, lang, basis, sizeof basis);
    hr_buf_printf(out, HR_T("headroom check — %s%s on %s\n\n"),
                  c->workflow[0] ? c->workflow : hr_workload_label(c->workload),
                  c->workload_assumed ? HR_T(" (assumed: give --workload sd15|sdxl|flux|video)") : "",
                  f->hypothetical ? HR_T("a hypothetical machine")
                  : f->recorded   ? HR_T("the recorded machine")
                                  : HR_T("this machine"));
    tiers(hr_check_judged(c), p, out);

    hr_size_gb(c->capacity_bytes, a, sizeof a);
    if (c->capacity_bytes == HR_UNKNOWN)
        hr_strlcpy(a, HR_T("unknown"), sizeof a);
    hr_buf_printf(out, HR_T("\n  can back  %s — %s\n"), a, hr_check_capacity_text(c->capacity_basis));
    if (c->charge_bytes != HR_UNKNOWN) {
        hr_size_gb(c->charge_bytes, b, sizeof b);
        hr_buf_printf(out, HR_T("  in use    %s committed now\n"), b);
    }
    const hr_run_need *n = &c->need;
    hr_size_gb(c->need_bytes, b, sizeof b);
    if (n->low != n->high) {
        hr_size_gb(n->low, a, sizeof a);
        hr_buf_printf(out, HR_T("  needs     %s – %s at the run's peak — %s\n"), a, b, basis);
    } else {
        hr_buf_printf(out, HR_T("  needs     %s at the run's peak — %s\n"), b, basis);
    }
    const bool ranged = n->others_low != n->others_high;
    if (n->others_basis == HR_OTHERS_MEASURED) {
        hr_size_gb(n->others, a, sizeof a);
        hr_buf_printf(out, HR_T("  + others  %s other programs commit now (measured)\n"), a);
    } else if (n->others_basis == HR_OTHERS_OUTSIDE_CGROUP) {
        hr_buf_puts(out,
                    HR_T("  + others  none: what runs outside the memory cgroup does not count against its limit\n"));
    } else if (n->others_basis == HR_OTHERS_ALLOWANCE) {
        hr_size_gb(n->others, a, sizeof a);
        hr_buf_printf(out, HR_T("  + others  %s allowed for the OS and a browser (a hypothetical machine)\n"), a);
        if (ranged) {
            char busy[32];
            hr_size_gb(n->others_low, b, sizeof b);
            hr_size_gb(n->others_high, busy, sizeof busy);
            hr_buf_printf(out, HR_T("            real desktops: %s (lean) – %s (busy)\n"), b, busy);
        }
    }
    hr_size_gb(n->margin, a, sizeof a);
    hr_buf_printf(out, HR_T("  + margin  %s (%d %% of the high end, S4.1)\n"), a, HR_RUN_MARGIN_PERCENT);
    hr_size_gb(n->must_back, a, sizeof a);
    hr_size_gb(n->fail_below, b, sizeof b);
    if (hr_run_need_busy_sets(n)) {
        char busy[32];
        hr_size_gb(n->others_high, busy, sizeof busy);
        hr_buf_printf(out,
                      HR_T("  = must back %s: the high end and a busy desktop's %s, more than the others and the "
                           "margin above (WILL FAIL below %s, the low end and a lean desktop's)\n\n"),
                      a, busy, b);
    } else if (ranged)
        hr_buf_printf(out, HR_T("  = must back %s (WILL FAIL below %s, the low end and a lean desktop's others)\n\n"),
                      a, b);
    else
        hr_buf_printf(out, HR_T("  = must back %s (WILL FAIL below %s, the low end and the others)\n\n"), a, b);

    if (color)
        hr_buf_printf(out, "%s%s%s", verdict_color(c->verdict), hr_check_verdict_label(c->verdict), RESET);
    else
        hr_buf_puts(out, hr_check_verdict_label(c->verdict));
    hr_buf_printf(out, "  %s [%s]\n", hr_check_verdict_text(c, lang, t, sizeof t), c->verdict_rule);
    if (c->capacity_after_bytes != HR_UNKNOWN && c->verdict != HR_VERDICT_OK && !p->nothing_to_change) {
        hr_size_gb(c->capacity_after_bytes, a, sizeof a);
        if (c->plan_feasible) {
            hr_buf_printf(out, HR_T("  with the plan: can back %s → %s\n"), a,
                          hr_check_verdict_label(c->verdict_after));
        } else {
            hr_size_gb(p->recommended.maximum_bytes, b, sizeof b);
            hr_buf_printf(out,
                          HR_T("  with the plan: cannot be carried out here — no drive has room for the %s file: "
                               "it needs %s (make room there, or add one); until then the verdict stays %s\n"),
                          b, hr_plan_advice_text(&p->recommended, lang, t, sizeof t),
                          hr_check_verdict_label(c->verdict));
            (void)a;
        }
    }

    if (c->todo_count) {
        hr_buf_puts(out, HR_T("\nDo this:\n"));
        for (int i = 0; i < c->todo_count; i++)
            hr_buf_printf(out, "  %d. %s [%s]\n", i + 1, hr_plan_line_text(&c->todo[i], lang, t, sizeof t),
                          c->todo[i].rule);
    } else {
        hr_buf_puts(out, HR_T("\nNothing to do.\n"));
    }

    if (c->other_count) {
        hr_buf_puts(out, HR_T("\nBiggest other memory users now (close what you do not need before a run, S5.2):\n"));
        for (int i = 0; i < c->other_count; i++) {
            const hr_check_other *o = &c->others[i];
            hr_size_gb(o->proc.commit_bytes, a, sizeof a);
            hr_size_gb(o->proc.resident_bytes, b, sizeof b);
            int np = o->proc.processes > 1 ? o->proc.processes : 1;
            hr_buf_printf(out, HR_T("  %-22.22s %9s private, %9s in RAM"), o->proc.name, a, b);
            if (np > 1)
                hr_buf_printf(out, HR_T(", %d processes"), np);
            if (o->kind)
                hr_buf_printf(out, HR_T("  (%s)"), hr_tr(hr_proc_kind_words(o->kind)));
            hr_buf_putc(out, '\n');
        }
    }
    const int warnings_left = p->warning_count;
    if (warnings_left)
        hr_buf_printf(out,
                      warnings_left == 1 ? HR_T("\n%d more note in headroom plan.\n")
                                         : HR_T("\n%d more notes in headroom plan.\n"),
                      warnings_left);
    return hr_buf_error(out);
}

void hr_check_json(const hr_check *c, hr_json_writer *w)
{
    const hr_plan *p = c->plan;
    /* JSON is English whatever language the user reads: every sentence is worded here. */
    char text[HR_PLAN_TEXT_MAX], basis[HR_CHECK_BASIS_MAX];
    hr_check_verdict_text(c, HR_LANG_EN, text, sizeof text);
    hr_check_need_basis_text(c, HR_LANG_EN, basis, sizeof basis);
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_CHECK_SCHEMA);
    if (c->verdict == HR_VERDICT_UNKNOWN) {
        hr_json_null(w, "verdict");
        hr_json_str(w, "verdict_reason", text);
    } else {
        hr_json_str(w, "verdict", hr_check_verdict_name(c->verdict));
    }
    hr_json_u64(w, "exit_status", (uint64_t)c->verdict);
    hr_json_str(w, "verdict_rule", c->verdict_rule);
    hr_json_str(w, "verdict_text", text);

    hr_json_begin_object(w, "need");
    hr_json_u64(w, "bytes", c->need_bytes);
    hr_json_str(w, "workload", hr_workload_name(c->workload));
    hr_json_bool(w, "workload_assumed", c->workload_assumed);
    hr_json_str(w, "basis", basis);
    hr_run_need_json_members(&c->need, w);
    hr_plan_need_version_members(p, w);
    hr_json_end_object(w);

    hr_json_begin_object(w, "capacity");
    hr_json_size(w, "bytes", c->capacity_bytes);
    hr_json_str(w, "basis", hr_check_capacity_msgid(c->capacity_basis));
    hr_json_size(w, "charge_bytes", c->charge_bytes);
    hr_json_size(w, "after_plan_bytes", c->capacity_after_bytes);
    hr_json_bool(w, "plan_feasible", c->plan_feasible);
    if (c->verdict_if_room == HR_VERDICT_UNKNOWN)
        hr_json_null(w, "verdict_if_room");
    else
        hr_json_str(w, "verdict_if_room", hr_check_verdict_name(c->verdict_if_room));
    if (c->verdict_after == HR_VERDICT_UNKNOWN)
        hr_json_null(w, "verdict_after_plan");
    else
        hr_json_str(w, "verdict_after_plan", hr_check_verdict_name(c->verdict_after));
    hr_json_end_object(w);

    hr_json_begin_array(w, "todo");
    for (int i = 0; i < c->todo_count; i++) {
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "id", c->todo[i].id);
        hr_json_str(w, "rule", c->todo[i].rule);
        char t[HR_PLAN_TEXT_MAX];
        hr_json_str(w, "text", hr_plan_line_text(&c->todo[i], HR_LANG_EN, t, sizeof t));
        hr_json_end_object(w);
    }
    hr_json_end_array(w);

    hr_json_begin_array(w, "others");
    for (int i = 0; i < c->other_count; i++) {
        const hr_check_other *o = &c->others[i];
        hr_json_begin_object(w, NULL);
        hr_json_i64(w, "pid", o->proc.pid);
        hr_json_str(w, "name", o->proc.name);
        hr_json_u64(w, "processes", (uint64_t)(o->proc.processes > 1 ? o->proc.processes : 1));
        hr_json_size(w, "resident_bytes", o->proc.resident_bytes);
        hr_json_size(w, "commit_bytes", o->proc.commit_bytes);
        hr_json_str(w, "kind", o->kind);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);

    if (hr_check_judged(c)) {
        hr_status_report_json(&c->status, w, "status");
    } else {
        hr_json_null(w, "status");
        hr_json_str(w, "status_reason", "a hypothetical machine: nothing was read from this one");
    }
    hr_plan_json(p, w, "plan");
    hr_json_end_object(w);
}

/* The verdict as metrics after the status report's (docs/export.md): a state set (one sample
 * per verdict, 1 for the one that holds) so that alerts compare labels, not magic numbers. */
void hr_check_prom(const hr_check *c, hr_buf *out)
{
    if (c->has_status)
        hr_status_report_prom(&c->status, out);
    hr_prom p;
    hr_prom_init(&p, out);
    static const hr_check_verdict all[] = { HR_VERDICT_OK, HR_VERDICT_AT_RISK, HR_VERDICT_WILL_FAIL,
                                            HR_VERDICT_UNKNOWN };
    const char *wl = hr_workload_name(c->workload);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *l[] = { "verdict", hr_check_verdict_name(all[i]), "workload", wl, NULL };
        hr_prom_u64(&p, "headroom_check_verdict", "gauge",
                    "The check verdict (1 for the one that holds): ok, at-risk, will-fail, or "
                    "unknown when what the machine can back is not known.",
                    l, c->verdict == all[i] ? 1 : 0);
    }
    const char *l[] = { "workload", wl, NULL };
    if (c->need_bytes != HR_UNKNOWN)
        hr_prom_u64(&p, "headroom_check_need_bytes", "gauge",
                    "Memory the workload needs at its peak (measured --peak-commit or the table).", l, c->need_bytes);
    if (c->capacity_bytes != HR_UNKNOWN)
        hr_prom_u64(&p, "headroom_check_capacity_bytes", "gauge",
                    "Memory this machine can back now (the real ceiling the verdict used).", NULL, c->capacity_bytes);
    if (c->capacity_after_bytes != HR_UNKNOWN)
        hr_prom_u64(&p, "headroom_check_capacity_after_plan_bytes", "gauge",
                    "Memory this machine could back with the plan applied.", NULL, c->capacity_after_bytes);
    hr_prom_u64(&p, "headroom_check_todo_items", "gauge", "Things the check says to do (0 to 3).", NULL,
                (uint64_t)c->todo_count);
}

void hr_check_render(const hr_check *c, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT:
        hr_check_text(c, r->out, r->color); /* a failed write stays in the buffer (sticky) */
        break;
    case HR_FORMAT_JSON: hr_check_json(c, &r->json); break;
    case HR_FORMAT_HTML: hr_check_html(c, r->out); break;
    case HR_FORMAT_PROMETHEUS: hr_check_prom(c, r->out); break;
    }
}
