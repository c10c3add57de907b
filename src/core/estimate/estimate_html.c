/* headroom — the workflow estimate as one HTML page (base/html.h): the verdict, the peaks
 * against what the machine has, VRAM / RAM / commit step by step as an SVG chart, the
 * verdicts with their fixes, the model loads and the notes. */
#include "core/estimate/estimate.h"

#include "core/base/html.h"
#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

#define W  480
#define H  220
#define PL 58
#define PR 12
#define PT 12
#define PB 40

static const char *severity_class(int s)
{
    return s == 0 ? "ok" : s == 1 ? "at-risk" : s == 3 ? "unknown" : "will-fail";
}

static const char *severity_label(int s)
{
    return s == 0 ? HR_T("OK") : s == 1 ? HR_T("AT RISK") : s == 3 ? HR_T("CANNOT TELL") : HR_T("WILL FAIL");
}

/* How bad a verdict is: the at-risk commit with the other at-risk kinds, cannot-tell above
 * them, the will-fail ones above all. */
static int rank(hr_est_verdict_kind k)
{
    return k == HR_EV_COMMIT_UNKNOWN    ? 2 * HR_EV_PINNED + 1
           : k == HR_EV_COMMIT_TIGHT    ? 2 * HR_EV_PINNED
           : k == HR_EV_SYSMEM_FALLBACK ? 2 * HR_EV_HEAVY_PAGING
                                        : 2 * (int)k;
}

static uint64_t step_value(const hr_est_step *s, int series)
{
    return series == 0 ? s->vram_bytes : series == 1 ? s->ram_bytes : s->commit_bytes;
}

/* VRAM, RAM and commit after each step, one polyline each, with the machine's VRAM, RAM and
 * commit limit as dashed lines. */
static void steps_chart(const hr_estimate *e, hr_buf *out)
{
    static const char *const ids[3] = { "vram", "ram", "commit" };
    static const char *const cls[3] = { "c2", "c1", "c3" };
    const char *labels[3] = { HR_T("VRAM"), HR_T("RAM"), HR_T("commit") };
    uint64_t limit[3] = { e->machine.vram_bytes, e->machine.ram_bytes, e->machine.commit_limit_bytes };
    uint64_t ymax = 1;
    for (int i = 0; i < e->step_count; i++)
        for (int k = 0; k < 3; k++)
            if (step_value(&e->step[i], k) != HR_UNKNOWN && step_value(&e->step[i], k) > ymax)
                ymax = step_value(&e->step[i], k);
    for (int k = 0; k < 3; k++)
        if (limit[k] != HR_UNKNOWN && limit[k] > ymax)
            ymax = limit[k];
    uint64_t gib = hr_size_round_up_gib(ymax);
    uint64_t step = gib <= 8 ? 2 : gib <= 32 ? 8 : gib <= 64 ? 16 : gib <= 128 ? 32 : 64;
    gib = (gib + step - 1) / step * step;
    double top = (double)gib * (double)HR_GIB;
    const double pw = W - PL - PR, ph = H - PT - PB;
    int n = e->step_count;
    hr_buf_puts(out, "<figure id=\"chart-steps\">\n");
    hr_html_svg_begin(out, NULL, W, H, HR_T("Memory after each step"));
    for (uint64_t g = 0; g <= gib; g += step) {
        double y = PT + ph - ph * (double)g / (double)gib;
        char lab[32];
        snprintf(lab, sizeof lab, "%llu GB", (unsigned long long)g);
        hr_html_svg_ytick(out, PL, W - PR, y, lab);
    }
    for (int i = 0; i < n; i++) {
        double x = n > 1 ? PL + pw * i / (n - 1) : PL + pw / 2;
        hr_html_svg_xtick(out, x, H - PB + 16, "middle", e->step[i].node_id);
    }
    for (int k = 0; k < 3; k++) {
        if (limit[k] != HR_UNKNOWN && limit[k] > 0) {
            double y = PT + ph - ph * (double)limit[k] / top;
            hr_buf_printf(out,
                          "<g data-series=\"%s-limit\" class=\"%s\"><polyline class=\"limit\" "
                          "points=\"%d,%.1f %d,%.1f\"/></g>\n",
                          ids[k], cls[k], PL, y, W - PR, y);
        }
        hr_buf_printf(out, "<g data-series=\"%s\" data-points=\"%d\" class=\"%s\"><polyline points=\"", ids[k], n,
                      cls[k]);
        for (int i = 0; i < n; i++) {
            uint64_t v = step_value(&e->step[i], k);
            double x = n > 1 ? PL + pw * i / (n - 1) : PL + pw / 2;
            double y = PT + ph - ph * (v == HR_UNKNOWN ? 0 : (double)v) / top;
            hr_buf_printf(out, "%s%.1f,%.1f", i ? " " : "", x, y);
        }
        hr_buf_puts(out, "\"/></g>\n");
    }
    hr_buf_puts(out, "</svg>\n<div class=\"legend\">");
    for (int k = 0; k < 3; k++)
        hr_html_legend_item(out, cls[k], false, labels[k]);
    hr_buf_puts(out, "</div>\n</figure>\n");
}

void hr_estimate_html(const hr_estimate *e, hr_buf *out)
{
    const hr_lang lang = hr_lang_get(); /* the user's */
    char sub[320], a[32], b[32], say[HR_EST_TEXT_MAX];
    hr_size_gb(e->machine.ram_bytes, a, sizeof a);
    hr_size_gb(e->machine.vram_bytes, b, sizeof b);
    snprintf(sub, sizeof sub, HR_T("%s — RAM %s, VRAM %s"), e->workflow[0] ? e->workflow : "-", a, b);
    hr_html_begin(out, HR_T("headroom estimate"), sub);
    int sev = hr_estimate_severity(e);
    int worst = -1;
    for (int i = 0; i < e->verdict_count; i++)
        if (worst < 0 || rank(e->verdict[i].kind) > rank(e->verdict[worst].kind))
            worst = i;
    hr_html_verdict(out, severity_class(sev), severity_label(sev),
                    worst >= 0 ? hr_est_msg_text(&e->verdict[worst].text, lang, say, sizeof say) : HR_T("It fits."),
                    NULL);

    hr_html_section(out, "peaks", HR_T("Peaks against what the machine has"));
    hr_html_bar bars[6] = {
        { "vram-peak", HR_T("VRAM peak"), e->vram.value, "c2" },
        { "machine-vram", HR_T("VRAM"), e->machine.vram_bytes, "c2" },
        { "ram-peak", HR_T("RAM peak"), e->ram.value, "c1" },
        { "machine-ram", HR_T("RAM"), e->machine.ram_bytes, "c1" },
        { "commit-peak", HR_T("commit peak"), e->commit.value, "c3" },
        { "machine-commit-limit", HR_T("commit limit"), e->machine.commit_limit_bytes, "c3" },
    };
    hr_html_bars(out, "chart-peaks", HR_T("Peaks against what the machine has"), bars, 6);
    hr_html_section_end(out);

    if (e->verdict_count) {
        hr_html_section(out, "verdicts", HR_T("What will happen"));
        hr_buf_puts(out, "<ul>\n");
        for (int i = 0; i < e->verdict_count; i++) {
            hr_buf_puts(out, "<li>");
            hr_html_text(out, hr_est_msg_text(&e->verdict[i].text, lang, say, sizeof say));
            if (hr_msg_is_set(&e->verdict[i].fix)) {
                hr_buf_puts(out, "<br><strong>");
                hr_html_text(out, HR_T("Fix"));
                hr_buf_puts(out, ":</strong> ");
                hr_html_text(out, hr_est_msg_text(&e->verdict[i].fix, lang, say, sizeof say));
            }
            hr_buf_puts(out, "</li>\n");
        }
        hr_buf_puts(out, "</ul>\n");
        hr_html_section_end(out);
    }

    hr_html_section(out, "steps", HR_T("Memory after each step"));
    if (e->step_count)
        steps_chart(e, out);
    const char *const step_cols[] = { HR_T("node"), HR_T("VRAM"), HR_T("RAM"), HR_T("commit") };
    hr_html_table_begin(out, step_cols, 4, 1);
    for (int i = 0; i < e->step_count; i++) {
        const hr_est_step *s = &e->step[i];
        hr_buf_puts(out, "<tr><td>");
        hr_html_text(out, s->class_type);
        hr_buf_puts(out, " <span class=\"rule\">#");
        hr_html_text(out, s->node_id);
        hr_buf_puts(out, "</span>");
        if (hr_est_step_note_text(e, i, lang, say, sizeof say)[0]) {
            hr_buf_puts(out, "<br><span class=\"rule\">");
            hr_html_text(out, say);
            hr_buf_puts(out, "</span>");
        }
        hr_buf_puts(out, "</td>");
        hr_html_td_gb(out, s->vram_bytes);
        hr_html_td_gb(out, s->ram_bytes);
        hr_html_td_gb(out, s->commit_bytes);
        hr_buf_puts(out, "</tr>\n");
    }
    hr_html_table_end(out);
    hr_html_section_end(out);

    if (e->load_count) {
        hr_html_section(out, "loads", HR_T("Model loads"));
        const char *const load_cols[] = { HR_T("model"), HR_T("in VRAM"), HR_T("offloaded") };
        hr_html_table_begin(out, load_cols, 3, 1);
        for (int i = 0; i < e->load_count; i++) {
            const hr_est_load *l = &e->load[i];
            hr_buf_puts(out, "<tr><td>");
            hr_html_text(out, l->model);
            hr_buf_puts(out, "</td>");
            hr_html_td_gb(out, l->loaded_bytes);
            hr_html_td_gb(out, l->offloaded_bytes);
            hr_buf_puts(out, "</tr>\n");
        }
        hr_html_table_end(out);
        hr_html_section_end(out);
    }
    char basis[HR_EST_MAX_BASIS][HR_EST_TEXT_MAX];
    int nb = hr_est_machine_basis(e, basis);
    if (e->note_count || nb) {
        hr_html_section(out, "notes", HR_T("Notes"));
        hr_buf_puts(out, "<ul>\n");
        for (int i = 0; i < nb; i++)
            hr_html_li(out, basis[i], NULL);
        for (int i = 0; i < e->note_count; i++)
            hr_html_li(out, hr_est_msg_text(&e->notes[i], lang, say, sizeof say), NULL);
        hr_buf_puts(out, "</ul>\n");
        hr_html_section_end(out);
    }
    hr_html_end(out);
}
