/* headroom — the report page of a recording (report.h). */
#include "core/report/report.h"

#include "core/base/html.h"
#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/diagnose/diag.h"
#include "core/diagnose/diag_render.h"
#include "core/watch/watch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W  480
#define H  230
#define PL 58
#define PR 12
#define PT 14
#define PB 28

static uint64_t bytes_of(double v)
{
    return isnan(v) || v < 0 ? HR_UNKNOWN : v >= 1.8e19 ? HR_UNKNOWN - 1 : (uint64_t)v;
}

static void fmt_value(double v, hr_chart_unit u, char *out, size_t n)
{
    if (u == HR_UNIT_BYTES)
        hr_size_gb(bytes_of(v), out, n);
    else if (u == HR_UNIT_PERCENT)
        snprintf(out, n, "%.0f%%", v);
    else if (!(v > -1e15 && v < 1e15))
        snprintf(out, n, "%.3g/s", v); /* no machine pages so fast: said, never cast (undefined) */
    else if (v == (double)(long long)v)
        snprintf(out, n, "%.0f/s", v);
    else
        snprintf(out, n, "%.1f/s", v); /* a quarter of 10: 2.5/s, never a rounded 2/s */
}

/* A recorded number (bytes, seconds) as an integer; HR_W_UNKNOWN when it is NaN, negative or
 * past what int64_t holds: a recording may say 1e29, and converting that is undefined. */
static int64_t i64_of(double v)
{
    return v >= 0 && v < 9.2e18 ? (int64_t)v : HR_W_UNKNOWN;
}

/* "m:ss" or "h:mm:ss" from milliseconds ("?" for a time no clock gives). */
static void fmt_time(double ms, char *out, size_t n)
{
    if (isnan(ms) || ms >= 9.2e21) {
        snprintf(out, n, "?");
        return;
    }
    long long s = ms < 0 ? 0 : (long long)(ms / 1000.0 + 0.5);
    if (s >= 3600)
        snprintf(out, n, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, n, "%lld:%02lld", s / 60, s % 60);
}

/* A round upper bound for the axis: 1, 2 or 5 times a power of ten (bytes: of GiB). */
static double nice_max(double v, hr_chart_unit u)
{
    if (u == HR_UNIT_PERCENT && v <= 100)
        return 100;
    /* A rate counts whole pages: four grid rows need at least 4/s, or the labels would read
     * "0/s 0/s 1/s 1/s" (quarters of 1 rounded). */
    if (u == HR_UNIT_RATE && v <= 4)
        return 4;
    double unit = u == HR_UNIT_BYTES ? 1073741824.0 : 1.0;
    double x = v / unit;
    if (x <= 0)
        return unit;
    /* the largest power of ten not above x, without libm (the watch process links none) */
    double p = 1;
    if (x >= 1) {
        while (p * 10 <= x)
            p *= 10;
    } else {
        double d = 1;
        while (x * d < 1 && d < 1e300)
            d *= 10;
        p = 1 / d;
    }
    double m = x / p;
    double step = m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10;
    return step * p * unit;
}

/* The time axis: its start and its length (> 0), from the samples that have a time (a
 * sample without "t" cannot be placed and is not drawn) and the warnings after them. */
static void time_span(const hr_recording *r, double *t0, double *span)
{
    double lo = NAN, hi = NAN;
    for (size_t i = 0; i < r->nsamples; i++) {
        double t = r->samples[i].t_ms;
        if (isnan(t))
            continue;
        if (isnan(lo) || t < lo)
            lo = t;
        if (isnan(hi) || t > hi)
            hi = t;
    }
    if (isnan(lo))
        lo = hi = 0;
    for (size_t i = 0; i < r->nwarnings; i++)
        if (!isnan(r->warnings[i].t_ms) && r->warnings[i].t_ms > hi)
            hi = r->warnings[i].t_ms;
    *t0 = lo;
    /* at 1e29 ms, lo + 1000 is lo again: the length is kept apart */
    *span = hi > lo ? hi - lo : 1000;
}

/* A recorded warning in the report's language: watch's own sentence made again from what the
 * line carries (its rule, value, limit and the rest); the recorded English when a recording
 * from an older version lacks what the sentence needs, or the rule is not one this version
 * knows. */
static const char *warning_text(const hr_rec_warning *rw, char *out, size_t n)
{
    hr_warning wr;
    memset(&wr, 0, sizeof wr);
    if (!hr_wrule_from_id(rw->rule, &wr.rule))
        return hr_tr(rw->message);
    wr.value = i64_of(rw->value);
    wr.limit = i64_of(rw->limit);
    wr.eta_s = isnan(rw->eta_s) ? -1.0 : rw->eta_s;
    wr.busy_pct = wr.rule == HR_WRULE_S23 ? rw->disk_busy_pct : wr.rule == HR_WRULE_PRESSURE ? rw->psi_full_avg10 : NAN;
    if ((wr.rule == HR_WRULE_S23 || wr.rule == HR_WRULE_PRESSURE) && isnan(wr.busy_pct))
        return hr_tr(rw->message);
    if ((wr.rule == HR_WRULE_COMMIT85 || wr.rule == HR_WRULE_COMMIT95 || wr.rule == HR_WRULE_CGROUP ||
         wr.rule == HR_WRULE_TTL) &&
        (wr.value == HR_W_UNKNOWN || wr.limit == HR_W_UNKNOWN))
        return hr_tr(rw->message);
    if (wr.rule == HR_WRULE_TTL && wr.eta_s < 0)
        return hr_tr(rw->message);
    /* commit-85/95 name their limit; an older line says it only in its English sentence */
    const char *name = rw->limit_name[0] ? rw->limit_name : rw->message;
    wr.limit_name = strncmp(name, "commit", 6) == 0 ? "commit" : "RAM + swap";
    hr_warning_msg(&wr);
    hr_warning_text(&wr, out, n);
    return out;
}

void hr_report_chart(hr_buf *out, const hr_recording *r, const char *id, const char *title, hr_chart_unit unit,
                     const hr_chart_series *s, int n)
{
    double ymax = 0;
    int shown = 0;
    for (int k = 0; k < n; k++) {
        double m = hr_rec_max(r, s[k].field);
        if (!isnan(m)) {
            shown++;
            if (m > ymax)
                ymax = m;
        }
    }
    hr_buf_printf(out, "<figure id=\"%s\">\n<figcaption><strong>", id);
    hr_html_text(out, title);
    hr_buf_puts(out, "</strong></figcaption>\n");
    if (!shown) {
        hr_html_p(out, "sub", HR_T("not in the recording (the OS did not give these values)"));
        hr_buf_puts(out, "</figure>\n");
        return;
    }
    ymax = nice_max(ymax, unit);
    double t0, span;
    time_span(r, &t0, &span);
    const double pw = W - PL - PR, ph = H - PT - PB;
    hr_html_svg_begin(out, NULL, W, H, title);
    /* Grid and axis labels: 4 rows, 5 time marks. */
    char lab[32];
    for (int i = 0; i <= 4; i++) {
        double y = PT + ph - ph * i / 4.0;
        fmt_value(ymax * i / 4.0, unit, lab, sizeof lab);
        hr_html_svg_ytick(out, PL, W - PR, y, lab);
    }
    for (int i = 0; i <= 4; i++) {
        double x = PL + pw * i / 4.0;
        fmt_time(span * i / 4.0, lab, sizeof lab);
        hr_html_svg_xtick(out, x, H - 8, i == 0 ? "start" : i == 4 ? "end" : "middle", lab);
    }
    /* Node starts and warnings on the time axis. */
    for (size_t i = 0; i < r->nnodes; i++) {
        const hr_rec_node *nd = &r->nodes[i];
        if (strcmp(nd->event, "start") != 0 && strcmp(nd->event, "model-load") != 0)
            continue;
        if (isnan(nd->t_ms))
            continue;
        double x = PL + pw * (nd->t_ms - t0) / span;
        if (x < PL || x > W - PR)
            continue;
        hr_buf_printf(out,
                      "<line data-marker=\"node\" class=\"grid\" stroke-dasharray=\"2 3\" "
                      "x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\"><title>",
                      x, x, PT, PT + ph);
        hr_html_text(out, nd->class_type[0] ? nd->class_type : nd->event);
        hr_buf_puts(out, "</title></line>\n");
    }
    for (size_t i = 0; i < r->nwarnings; i++) {
        const hr_rec_warning *w = &r->warnings[i];
        if (isnan(w->t_ms))
            continue;
        double x = PL + pw * (w->t_ms - t0) / span;
        if (x < PL || x > W - PR)
            continue;
        hr_buf_printf(out,
                      "<path data-marker=\"warning\" class=\"%s\" d=\"M%.1f %d l-5 -9 h10 z\">"
                      "<title>",
                      strcmp(w->level, "critical") == 0 ? "bad" : "warn", x, PT + 9);
        hr_html_text(out, w->rule);
        hr_buf_puts(out, ": ");
        char text[HR_REC_TEXT];
        hr_html_text(out, warning_text(w, text, sizeof text));
        hr_buf_puts(out, "</title></path>\n");
    }
    /* The series: one polyline per run of known values. */
    for (int k = 0; k < n; k++) {
        if (isnan(hr_rec_max(r, s[k].field)))
            continue;
        size_t pts = 0;
        for (size_t i = 0; i < r->nsamples; i++)
            pts += !isnan(r->samples[i].v[s[k].field]) && !isnan(r->samples[i].t_ms);
        hr_buf_printf(out, "<g data-series=\"%s\" data-points=\"%zu\" class=\"%s%s\">", s[k].id, pts, s[k].cls,
                      s[k].limit ? " limit" : "");
        bool open = false;
        for (size_t i = 0; i < r->nsamples; i++) {
            double v = r->samples[i].v[s[k].field];
            if (isnan(v) || isnan(r->samples[i].t_ms)) {
                if (open)
                    hr_buf_puts(out, "\"/>");
                open = false;
                continue;
            }
            double x = PL + pw * (r->samples[i].t_ms - t0) / span;
            double y = PT + ph - ph * (v < 0 ? 0 : v > ymax ? ymax : v) / ymax;
            if (!open)
                hr_buf_printf(out, "<polyline class=\"%s\" points=\"", s[k].limit ? "limit" : "");
            hr_buf_printf(out, "%s%.1f,%.1f", open ? " " : "", x, y);
            open = true;
        }
        if (open)
            hr_buf_puts(out, "\"/>");
        hr_buf_puts(out, "</g>\n");
    }
    hr_buf_puts(out, "</svg>\n<div class=\"legend\">");
    for (int k = 0; k < n; k++) {
        if (isnan(hr_rec_max(r, s[k].field)))
            continue;
        hr_html_legend_item(out, s[k].cls, s[k].limit, s[k].label);
    }
    hr_buf_puts(out, "</div>\n</figure>\n");
}

static hr_cause cause_from_id(const char *id)
{
    for (int c = 0; c < HR_CAUSE_COUNT; c++)
        if (strcmp(hr_cause_id((hr_cause)c), id) == 0)
            return (hr_cause)c;
    return HR_CAUSE_COUNT;
}

static void verdict(const hr_recording *r, hr_buf *out)
{
    char text[512];
    if (r->have_verdict) {
        hr_cause c = cause_from_id(r->cause);
        if (strcmp(r->cause, "ok") == 0) {
            hr_html_verdict(out, "ok", HR_T("The run finished"), HR_T("It exited with status 0."), NULL);
        } else if (c == HR_CAUSE_COUNT || c == HR_CAUSE_UNKNOWN) {
            if (!isnan(r->exit_code))
                snprintf(text, sizeof text, HR_T("It exited with status %.0f; nothing in the records says why."),
                         r->exit_code);
            else
                snprintf(text, sizeof text, "%s", HR_T("Nothing in the records says why."));
            hr_html_verdict(out, "unknown", HR_T("The run ended with an error"), text, r->cause);
        } else {
            snprintf(text, sizeof text, HR_T("%s, confidence %s"), hr_tr(hr_cause_title(c)),
                     hr_tr(r->confidence[0] ? r->confidence : "none"));
            const char *cls = c == HR_CAUSE_NOT_MEMORY ? "at-risk" : "will-fail";
            hr_html_verdict(out, cls, text, hr_tr(hr_cause_meaning(c)), r->cause);
        }
    } else if (r->have_end) {
        if (r->warnings_seen)
            snprintf(text, sizeof text, HR_T("%llu warnings while it was watched; see the charts and the list below."),
                     (unsigned long long)r->warnings_seen);
        else
            snprintf(text, sizeof text, "%s", HR_T("No warning while it was watched."));
        hr_html_verdict(out, r->warnings_seen ? "at-risk" : "ok",
                        r->warnings_seen ? HR_T("Warnings") : HR_T("No warnings"), text, NULL);
    } else {
        hr_html_verdict(out, "unknown", HR_T("Cut short"),
                        HR_T("The recording ends without its last line: the machine or headroom stopped "
                             "while it was recording. Everything up to there is shown."),
                        NULL);
    }
}

static void peak_row(hr_buf *out, const char *label, double peak, double limit)
{
    if (isnan(peak))
        return;
    char b[32];
    hr_buf_puts(out, "<tr><th>");
    hr_html_text(out, label);
    hr_buf_puts(out, "</th>");
    hr_html_td_gb(out, bytes_of(peak));
    hr_buf_puts(out, "<td class=\"num\">");
    if (!isnan(limit) && limit > 0) {
        hr_size_gb(bytes_of(limit), b, sizeof b);
        hr_html_textf(out, HR_T("of %s (%.0f%%)"), b, peak / limit * 100.0);
    }
    hr_buf_puts(out, "</td></tr>\n");
}

static double peak_of(const hr_recording *r, hr_rec_field f)
{
    double a = hr_rec_max(r, f), b = r->peak[f];
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

static void summary(const hr_recording *r, hr_buf *out)
{
    hr_html_section(out, "summary", HR_T("Peaks"));
    double t0, span;
    time_span(r, &t0, &span);
    char d[32];
    fmt_time(r->nsamples ? span : 0, d, sizeof d);
    hr_buf_puts(out, "<p>");
    hr_html_textf(out, HR_T("%llu samples over %s"), (unsigned long long)r->samples_seen, d);
    if (r->stride > 1) {
        hr_buf_puts(out, " ");
        hr_html_textf(out, HR_T("(charted as %zu points, each the highest of %zu samples)"), r->nsamples, r->stride);
    }
    hr_buf_puts(out, "</p>\n<table>\n");
    peak_row(out, HR_T("RAM used"), peak_of(r, HR_RF_RAM_USED), hr_rec_max(r, HR_RF_RAM_TOTAL));
    peak_row(out, HR_T("commit"), peak_of(r, HR_RF_COMMIT), hr_rec_max(r, HR_RF_COMMIT_LIMIT));
    peak_row(out, r->os[0] == 'w' ? HR_T("paging file used") : HR_T("swap used"), peak_of(r, HR_RF_SWAP_USED),
             hr_rec_max(r, HR_RF_SWAP_TOTAL));
    peak_row(out, HR_T("cgroup memory"), peak_of(r, HR_RF_CGROUP_CURRENT), hr_rec_max(r, HR_RF_CGROUP_MAX));
    peak_row(out, HR_T("the watched processes (resident)"), peak_of(r, HR_RF_PROC_RSS), NAN);
    peak_row(out, HR_T("VRAM used"), peak_of(r, HR_RF_VRAM_USED), hr_rec_max(r, HR_RF_VRAM_TOTAL));
    hr_buf_puts(out, "</table>\n");
    hr_html_section_end(out);
}

static void charts(const hr_recording *r, hr_buf *out)
{
    bool win = r->os[0] == 'w';
    hr_html_section(out, "charts", HR_T("Over time"));
    const hr_chart_series tiers[] = {
        { "vram-used", HR_T("VRAM used"), "c2", HR_RF_VRAM_USED, false },
        { "vram-total", HR_T("VRAM"), "c2", HR_RF_VRAM_TOTAL, true },
        { "ram-used", HR_T("RAM used"), "c1", HR_RF_RAM_USED, false },
        { "ram-total", HR_T("RAM"), "c1", HR_RF_RAM_TOTAL, true },
        { "swap-used", win ? HR_T("paging file used") : HR_T("swap used"), "c3", HR_RF_SWAP_USED, false },
        { "swap-total", win ? HR_T("paging file") : HR_T("swap"), "c3", HR_RF_SWAP_TOTAL, true },
    };
    hr_report_chart(out, r, "chart-tiers", HR_T("The three tiers: VRAM, RAM, paging file / swap"), HR_UNIT_BYTES, tiers,
                    6);
    const hr_chart_series commit[] = {
        { "commit", HR_T("commit"), "c1", HR_RF_COMMIT, false },
        { "commit-limit", HR_T("commit limit"), "bad", HR_RF_COMMIT_LIMIT, true },
        { "cgroup-current", HR_T("cgroup memory"), "c3", HR_RF_CGROUP_CURRENT, false },
        { "cgroup-max", HR_T("cgroup limit"), "c3", HR_RF_CGROUP_MAX, true },
        { "proc-rss", HR_T("the watched processes (resident)"), "c4", HR_RF_PROC_RSS, false },
    };
    hr_report_chart(out, r, "chart-commit", HR_T("Commit against its limit"), HR_UNIT_BYTES, commit, 5);
    const hr_chart_series paging[] = {
        { "pages-in", HR_T("pages in per second"), "c2", HR_RF_PAGES_IN, false },
        { "pages-out", HR_T("pages out per second"), "c3", HR_RF_PAGES_OUT, false },
    };
    hr_report_chart(out, r, "chart-paging", HR_T("Paging activity"), HR_UNIT_RATE, paging, 2);
    const hr_chart_series pressure[] = {
        { "disk-busy", HR_T("paging disk busy"), "c1", HR_RF_DISK_BUSY, false },
        { "psi-some", HR_T("memory pressure (some)"), "warn", HR_RF_PSI_SOME, false },
        { "psi-full", HR_T("memory pressure (full)"), "bad", HR_RF_PSI_FULL, false },
    };
    hr_report_chart(out, r, "chart-pressure", HR_T("Disk and memory pressure"), HR_UNIT_PERCENT, pressure, 3);
    hr_html_p(out, "sub", HR_T("Dotted lines: a ComfyUI node started. Triangles: a warning."));
    hr_html_section_end(out);
}

static void warnings(const hr_recording *r, hr_buf *out)
{
    if (!r->nwarnings)
        return;
    hr_html_section(out, "warnings", HR_T("Warnings"));
    hr_html_table_begin(out, NULL, 0, 0);
    for (size_t i = 0; i < r->nwarnings; i++) {
        const hr_rec_warning *w = &r->warnings[i];
        char t[32];
        fmt_time(w->t_ms - (r->nsamples ? r->samples[0].t_ms : 0), t, sizeof t);
        hr_buf_printf(out, "<tr data-level=\"%s\"><td class=\"num\">",
                      strcmp(w->level, "critical") == 0 ? "critical" : "warn");
        hr_html_text(out, t);
        hr_buf_puts(out, "</td><td>");
        char text[HR_REC_TEXT];
        hr_html_text(out, warning_text(w, text, sizeof text));
        hr_buf_puts(out, " <span class=\"rule\">["); /* even when empty, as the recording has it */
        hr_html_text(out, w->rule);
        hr_buf_puts(out, "]</span></td></tr>\n");
    }
    hr_html_table_end(out);
    if (r->warnings_seen > r->nwarnings) {
        hr_buf_puts(out, "<p class=\"sub\">");
        hr_html_textf(out, HR_T("and %llu more"), (unsigned long long)(r->warnings_seen - r->nwarnings));
        hr_buf_puts(out, "</p>\n");
    }
    hr_html_section_end(out);
}

static void nodes(const hr_recording *r, hr_buf *out)
{
    size_t ends = 0;
    for (size_t i = 0; i < r->nnodes; i++)
        ends += strcmp(r->nodes[i].event, "end") == 0;
    if (!ends)
        return;
    hr_html_section(out, "nodes", HR_T("ComfyUI nodes"));
    const char *const cols[] = { HR_T("ended at"), HR_T("node"), HR_T("RAM growth"), HR_T("peak resident") };
    hr_html_table_begin(out, cols, 4, 2);
    for (size_t i = 0; i < r->nnodes; i++) {
        const hr_rec_node *nd = &r->nodes[i];
        if (strcmp(nd->event, "end") != 0)
            continue;
        char t[32], a[32] = "", b[32] = "";
        fmt_time(nd->t_ms - (r->nsamples ? r->samples[0].t_ms : 0), t, sizeof t);
        if (!isnan(nd->ram_growth)) {
            hr_size_gb(bytes_of(fabs(nd->ram_growth)), a + 1, sizeof a - 1);
            a[0] = nd->ram_growth < 0 ? '-' : '+';
        }
        if (!isnan(nd->peak_rss))
            hr_size_gb(bytes_of(nd->peak_rss), b, sizeof b);
        hr_buf_puts(out, "<tr>");
        hr_html_td(out, "num", t);
        hr_buf_puts(out, "<td>");
        hr_html_text(out, nd->class_type[0] ? nd->class_type : "?");
        if (nd->node[0]) {
            hr_buf_puts(out, " <span class=\"rule\">#");
            hr_html_text(out, nd->node);
            hr_buf_puts(out, "</span>");
        }
        hr_buf_puts(out, "</td>");
        hr_html_td(out, "num", a);
        hr_html_td(out, "num", b);
        hr_buf_puts(out, "</tr>\n");
    }
    hr_html_table_end(out);
    hr_html_section_end(out);
}

static void plan(const hr_recording *r, hr_buf *out)
{
    double need = r->commit_needed;
    double peak = peak_of(r, HR_RF_COMMIT);
    hr_html_section(out, "plan", HR_T("The plan"));
    if (r->have_verdict) {
        hr_cause c = cause_from_id(r->cause);
        if (c != HR_CAUSE_COUNT && c != HR_CAUSE_UNKNOWN)
            hr_html_p(out, NULL, hr_tr(hr_cause_fix_os(c, strcmp(r->os, "windows") == 0)));
    }
    if (r->advice[0])
        hr_html_p(out, NULL, hr_tr(r->advice));
    double basis = !isnan(need) ? need : peak;
    if (!isnan(basis) && basis > 0) {
        uint64_t gib = hr_size_round_up_gib(bytes_of(basis));
        hr_buf_puts(out, "<p>");
        hr_html_textf(out, HR_T("This run committed up to %llu GB. Size the paging file / swap from it:"),
                      (unsigned long long)gib);
        hr_buf_printf(out, "</p>\n<pre id=\"plan-command\">headroom plan --peak-commit %lluG</pre>\n",
                      (unsigned long long)gib);
    }
    if (r->nevidence) {
        hr_html_h3(out, HR_T("Evidence"));
        hr_buf_puts(out, "<ul class=\"evidence\">\n");
        for (size_t i = 0; i < r->nevidence; i++) {
            hr_buf_puts(out, "<li><span class=\"rule\">");
            hr_html_text(out, r->evidence[i].source);
            hr_buf_puts(out, "</span><pre>");
            hr_html_text(out, r->evidence[i].text);
            hr_buf_puts(out, "</pre></li>\n");
        }
        hr_buf_puts(out, "</ul>\n");
    }
    hr_html_section_end(out);
}

void hr_report_html(const hr_recording *r, const char *name, hr_buf *out)
{
    char sub[512], when[40] = "";
    /* a start past the year 9999 is no clock's (and the date is counted out year by year) */
    if (r->started_ms > 0 && r->started_ms < 253402300800000.0)
        hr_diag_format_time((int64_t)(r->started_ms / 1000), when, sizeof when);
    snprintf(sub, sizeof sub, "%s — %s%s%s%s%s", name ? name : "", strcmp(r->mode, "run") == 0 ? "run" : "watch",
             r->command[0] ? ": " : "", r->command, when[0] ? ", " : "", when);
    hr_html_begin(out, HR_T("headroom report"), sub);
    verdict(r, out);
    if (r->end_node[0])
        hr_html_pf(out, HR_T("Running when it ended: %s"), r->end_node);
    summary(r, out);
    charts(r, out);
    warnings(r, out);
    nodes(r, out);
    plan(r, out);
    hr_html_end(out);
}

void hr_report_render(const hr_recording *rec, const char *name, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_HTML: hr_report_html(rec, name, r->out); break;
    case HR_FORMAT_TEXT:
    case HR_FORMAT_JSON:
    case HR_FORMAT_PROMETHEUS: hr_render_unsupported(r); break;
    }
}
