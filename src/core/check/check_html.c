/* headroom — the check report as one HTML page (base/html.h; `headroom check --html FILE`).
 * The same structure as the text screen, read at a glance: the verdict first, then the
 * tiers, what the machine can back against what the run needs as bars, what to do, who else
 * uses memory, and the plan's steps with their exact commands. */
#include "core/check/check.h"

#include "core/base/html.h"
#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/model/procs.h"

#include <stdio.h>

static const char *verdict_label(hr_check_verdict v)
{
    switch (v) {
    case HR_VERDICT_OK: return HR_T("OK");
    case HR_VERDICT_AT_RISK: return HR_T("AT RISK");
    case HR_VERDICT_WILL_FAIL: return HR_T("WILL FAIL");
    case HR_VERDICT_UNKNOWN: break;
    }
    return HR_T("CANNOT TELL");
}

static void tiers(const hr_check *c, const hr_status *st, hr_buf *out)
{
    const hr_plan *p = c->plan;
    hr_html_section(out, "tiers", HR_T("The three tiers of memory"));
    hr_buf_puts(out, "<table>\n");
    hr_buf tmp;
    hr_buf_init(&tmp, 4096);
    for (int t = 1; t <= 3; t++) {
        hr_buf_reset(&tmp);
        hr_check_tier_value(st, p, t, &tmp);
        hr_buf_printf(out, "<tr data-tier=\"%d\"><th>%d</th><th>", t, t);
        hr_html_text(out, t == 3 && p->facts.os == HR_OS_WINDOWS ? HR_T("paging file")
                          : t == 3                               ? HR_T("swap")
                                                                 : hr_check_tier_name(p, t));
        hr_buf_puts(out, "</th><td>");
        hr_html_text(out, hr_buf_str(&tmp));
        hr_buf_puts(out, "</td></tr>\n");
    }
    hr_buf_free(&tmp);
    hr_buf_puts(out, "</table>\n");
    hr_html_section_end(out);
}

static void capacity(const hr_check *c, hr_buf *out)
{
    hr_html_section(out, "capacity", HR_T("What the machine can back, and what the run needs"));
    hr_html_bar bars[4];
    int n = 0;
    bars[n++] = (hr_html_bar){ "capacity", HR_T("can back"), c->capacity_bytes, "c1" };
    if (c->charge_bytes != HR_UNKNOWN)
        bars[n++] = (hr_html_bar){ "charge", HR_T("in use now"), c->charge_bytes, "c2" };
    bars[n++] = (hr_html_bar){ "need", HR_T("the run needs"), c->need_bytes,
                               c->verdict == HR_VERDICT_OK          ? "good"
                               : c->verdict == HR_VERDICT_WILL_FAIL ? "bad"
                                                                    : "warn" };
    if (c->capacity_after_bytes != HR_UNKNOWN && c->verdict != HR_VERDICT_OK && !c->plan->nothing_to_change)
        bars[n++] = (hr_html_bar){ "after-plan", HR_T("with the plan"), c->capacity_after_bytes, "c4" };
    hr_html_bars(out, "chart-capacity", HR_T("What the machine can back, and what the run needs"), bars, n);
    hr_buf_puts(out, "<ul>\n");
    char a[32];
    hr_size_gb(c->capacity_bytes, a, sizeof a);
    hr_buf_puts(out, "<li>");
    hr_html_textf(out, HR_T("can back %s — %s"), a, hr_check_capacity_text(c->capacity_basis));
    hr_buf_puts(out, "</li>\n<li>");
    hr_size_gb(c->need_bytes, a, sizeof a);
    char basis[HR_CHECK_BASIS_MAX];
    hr_html_textf(out, HR_T("needs %s at the run's peak — %s"), a,
                  hr_check_need_basis_text(c, hr_lang_get(), basis, sizeof basis));
    hr_buf_puts(out, "</li>\n");
    if (c->capacity_after_bytes != HR_UNKNOWN && c->verdict != HR_VERDICT_OK && !c->plan->nothing_to_change) {
        hr_size_gb(c->capacity_after_bytes, a, sizeof a);
        hr_buf_puts(out, "<li>");
        hr_html_textf(out, HR_T("with the plan: can back %s → %s"), a, verdict_label(c->verdict_after));
        hr_buf_puts(out, "</li>\n");
    }
    hr_buf_puts(out, "</ul>\n");
    hr_html_section_end(out);
}

static void others(const hr_check *c, hr_buf *out)
{
    if (!c->other_count)
        return;
    hr_html_section(out, "others", HR_T("Biggest other memory users now"));
    hr_buf_puts(out, "<p>");
    hr_html_text(out, HR_T("Close what you do not need before a run."));
    hr_html_rule(out, "S5.2");
    hr_buf_puts(out, "</p>\n");
    const char *const cols[] = { HR_T("program"), HR_T("private"), HR_T("in RAM"), HR_T("processes") };
    hr_html_table_begin(out, cols, 4, 1);
    for (int i = 0; i < c->other_count; i++) {
        const hr_check_other *o = &c->others[i];
        hr_buf_puts(out, "<tr><td>");
        hr_html_text(out, o->proc.name);
        if (o->kind) {
            char kind[96];
            snprintf(kind, sizeof kind, HR_T("(%s)"), hr_tr(hr_proc_kind_words(o->kind)));
            hr_buf_puts(out, " <span class=\"rule\">");
            hr_html_text(out, kind);
            hr_buf_puts(out, "</span>");
        }
        hr_buf_puts(out, "</td>");
        hr_html_td_gb(out, o->proc.commit_bytes);
        hr_html_td_gb(out, o->proc.resident_bytes);
        hr_buf_printf(out, "<td class=\"num\">%d</td></tr>\n", o->proc.processes > 1 ? o->proc.processes : 1);
    }
    hr_html_table_end(out);
    hr_html_section_end(out);
}

static void plan(const hr_plan *p, hr_buf *out)
{
    hr_html_section(out, "plan", HR_T("The plan"));
    if (p->nothing_to_change)
        hr_html_p(out, NULL, HR_T("The machine already matches the plan."));
    if (p->step_count) {
        hr_buf_puts(out, "<ol id=\"steps\">\n");
        for (int i = 0; i < p->step_count; i++) {
            const hr_plan_step *s = &p->steps[i];
            hr_buf_puts(out, "<li>");
            char t[HR_PLAN_TEXT_MAX];
            hr_html_text(out, hr_plan_step_text(s, hr_lang_get(), t, sizeof t));
            hr_buf_puts(out, " <span class=\"rule\">["); /* even when empty: a step always has its rule */
            hr_html_text(out, s->rule);
            hr_buf_puts(out, "]</span>");
            if (s->command[0]) {
                hr_buf_puts(out, "<pre>");
                hr_html_text(out, s->command);
                hr_buf_puts(out, "</pre>");
            }
            hr_buf_puts(out, "</li>\n");
        }
        hr_buf_puts(out, "</ol>\n");
    }
    if (p->warning_count) {
        hr_html_h3(out, HR_T("Notes"));
        hr_buf_puts(out, "<ul id=\"warnings\">\n");
        char t[HR_PLAN_TEXT_MAX];
        for (int i = 0; i < p->warning_count; i++)
            hr_html_li(out, hr_plan_line_text(&p->warnings[i], hr_lang_get(), t, sizeof t), p->warnings[i].rule);
        hr_buf_puts(out, "</ul>\n");
    }
    hr_html_section_end(out);
}

void hr_check_html(const hr_check *c, hr_buf *out)
{
    const hr_plan *p = c->plan;
    const hr_plan_facts *f = &p->facts;
    const hr_status *st = hr_check_judged(c);
    char sub[256];
    snprintf(sub, sizeof sub, "%s%s — %s", hr_workload_label(c->workload),
             c->workload_assumed ? HR_T(" (assumed: give --workload sd15|sdxl|flux|video)") : "",
             f->hypothetical ? HR_T("a hypothetical machine")
             : f->recorded   ? HR_T("the recorded machine")
                             : HR_T("this machine"));
    hr_html_begin(out, HR_T("headroom check"), sub);
    char text[HR_PLAN_TEXT_MAX];
    hr_html_verdict(out, hr_check_verdict_name(c->verdict), verdict_label(c->verdict),
                    hr_check_verdict_text(c, hr_lang_get(), text, sizeof text), c->verdict_rule);
    hr_html_section(out, "todo", HR_T("Do this"));
    if (c->todo_count) {
        hr_buf_puts(out, "<ol>\n");
        char t[HR_PLAN_TEXT_MAX];
        for (int i = 0; i < c->todo_count; i++)
            hr_html_li(out, hr_plan_line_text(&c->todo[i], hr_lang_get(), t, sizeof t), c->todo[i].rule);
        hr_buf_puts(out, "</ol>\n");
    } else {
        hr_html_p(out, NULL, HR_T("Nothing to do."));
    }
    hr_html_section_end(out);
    capacity(c, out);
    tiers(c, st, out);
    others(c, out);
    plan(p, out);
    hr_html_end(out);
}
