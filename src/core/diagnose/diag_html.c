/* headroom — the diagnosis as one HTML page (base/html.h; `headroom diagnose --html FILE`):
 * the cause and its fix first, then the evidence lines with where they came from, the other
 * findings, and what was read. Call after hr_diag_finish. */
#include "core/diagnose/diag_render.h"

#include "core/base/html.h"
#include "core/base/i18n.h"

#include <inttypes.h>
#include <stdio.h>

static const char *input_name(const hr_diag_ctx *c, int input)
{
    return input >= 0 && (size_t)input < c->ninputs && c->inputs[input].name ? c->inputs[input].name : "-";
}

/* The verdict box's colour: a memory cause is the failure the page is about. */
static const char *cause_class(hr_cause cause)
{
    switch (cause) {
    case HR_CAUSE_GPU_OOM:
    case HR_CAUSE_HOST_OOM:
    case HR_CAUSE_KILLED: return "will-fail";
    case HR_CAUSE_LOW_VM: return "at-risk";
    case HR_CAUSE_NOT_MEMORY: return "ok";
    default: return "unknown";
    }
}

static void evidence(const hr_diag_ctx *c, const hr_diag_finding *f, hr_buf *out, size_t max)
{
    const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
    size_t n = hr_diag_evidence_list(f, ev);
    hr_buf_printf(out, "<ul class=\"evidence\" data-cause=\"%s\">\n", hr_cause_id(f->cause));
    for (size_t i = 0; i < n && i < max; i++) {
        const hr_diag_evidence *e = ev[i];
        hr_buf_puts(out, "<li><span class=\"rule\">");
        if (e->input >= 0) {
            hr_html_textf(out, "%s:%" PRIu64, input_name(c, e->input), e->line);
        } else {
            char t[40] = "";
            if (e->time > 0)
                hr_diag_format_time(e->time, t, sizeof t);
            char src[HR_DIAG_SOURCE_MAX];
            hr_html_text(out, hr_diag_evidence_source(e, hr_lang_get(), src));
            if (t[0]) {
                hr_buf_puts(out, " ");
                hr_html_text(out, t);
            }
        }
        hr_buf_puts(out, "</span><pre>");
        char text[HR_DIAG_TEXT_MAX];
        hr_html_text(out, hr_diag_evidence_text(e, hr_lang_get(), text));
        hr_buf_puts(out, "</pre></li>\n");
    }
    hr_buf_puts(out, "</ul>\n");
}

void hr_diag_html(const hr_diag_ctx *c, hr_buf *out)
{
    hr_cause cause = hr_diag_cause(c);
    const hr_diag_finding *f = c->norder ? c->order[0] : NULL;
    hr_html_begin(out, HR_T("headroom diagnose"), HR_T("Why did the run die?"));
    char label[160];
    if (f)
        snprintf(label, sizeof label, HR_T("%s, confidence %s"), hr_tr(hr_cause_title(cause)),
                 hr_tr(hr_confidence_name(f->conf)));
    else
        snprintf(label, sizeof label, "%s", hr_tr(hr_cause_title(cause)));
    hr_html_verdict(out, cause_class(cause), label, hr_tr(f ? f->meaning : hr_cause_meaning(cause)),
                    hr_cause_id(cause));
    if (f && f->victim_pid >= 0)
        hr_html_pf(out, HR_T("Process ended: %s (pid %lld)"), f->victim[0] ? f->victim : "?", (long long)f->victim_pid);
    hr_html_section(out, "fix", f ? HR_T("Fix") : HR_T("Next"));
    hr_html_p(out, NULL, hr_tr(hr_diag_fix(c, cause)));
    hr_html_section_end(out);
    char words[400];
    hr_diag_machine_words(c, words, sizeof words);
    if (words[0]) {
        hr_html_section(out, "machine", HR_T("The machine in the log"));
        hr_html_p(out, NULL, words);
        char cmd[320];
        hr_diag_machine_command(c, cmd, sizeof cmd);
        if (cmd[0]) {
            hr_html_p(out, NULL, HR_T("For that machine, with the run's workflow:"));
            hr_buf_puts(out, "<pre>");
            hr_html_text(out, cmd);
            hr_buf_puts(out, "</pre>\n");
        }
        hr_html_section_end(out);
    }
    if (f) {
        hr_html_section(out, "evidence", HR_T("Evidence"));
        hr_html_pf(out, HR_T("%llu lines or records showed it; the first and the latest:"),
                   (unsigned long long)f->count);
        evidence(c, f, out, HR_DIAG_EVIDENCE_MAX);
        hr_html_section_end(out);
    }
    if (c->norder > 1) {
        hr_html_section(out, "also", HR_T("Also found (later in the input)"));
        for (size_t i = 1; i < c->norder; i++) {
            const hr_diag_finding *g = c->order[i];
            hr_buf_puts(out, "<h3>");
            hr_html_textf(out, HR_T("%s, confidence %s"), hr_tr(hr_cause_title(g->cause)),
                          hr_tr(hr_confidence_name(g->conf)));
            hr_html_rule(out, hr_cause_id(g->cause));
            hr_buf_puts(out, "</h3>\n");
            evidence(c, g, out, 2);
        }
        hr_html_section_end(out);
    }
    hr_html_section(out, "read", HR_T("What was read"));
    hr_buf_puts(out, "<ul>\n");
    for (size_t i = 0; i < c->ninputs; i++) {
        const hr_diag_input *in = &c->inputs[i];
        hr_buf_puts(out, "<li><code>");
        hr_html_text(out, in->name);
        hr_buf_puts(out, "</code>: ");
        hr_html_textf(out, HR_T("%llu lines, %llu bytes, %s"), (unsigned long long)in->lines,
                      (unsigned long long)in->bytes, in->encoding);
        hr_buf_puts(out, "</li>\n");
    }
    if (c->system_checked) {
        for (size_t i = 0; i < c->nsources; i++) {
            const hr_diag_source *s = &c->sources[i];
            hr_buf_puts(out, "<li><code>");
            hr_html_text(out, hr_tr(s->name));
            hr_buf_puts(out, "</code>: ");
            if (!s->ok)
                hr_html_text(out, HR_T("not read: "));
            char detail[HR_DIAG_DETAIL_MAX];
            hr_msg_format(&s->detail, hr_lang_get(), detail, sizeof detail);
            hr_html_text(out, detail);
            hr_buf_puts(out, "</li>\n");
        }
    } else {
        hr_buf_puts(out, "<li>");
        hr_html_textf(out, HR_T("system records: not read (%s)"),
                      c->system_reason[0] ? c->system_reason : HR_T("not requested"));
        hr_buf_puts(out, "</li>\n");
    }
    hr_buf_puts(out, "</ul>\n");
    hr_html_section_end(out);
    hr_html_end(out);
}

void hr_diag_render(const hr_diag_ctx *c, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT: {
        int e = hr_diag_text(c, r->out);
        if (e)
            hr_buf_fail(r->out, e);
        break;
    }
    case HR_FORMAT_JSON: hr_diag_json(c, &r->json); break;
    case HR_FORMAT_HTML: hr_diag_html(c, r->out); break;
    case HR_FORMAT_PROMETHEUS: hr_render_unsupported(r); break;
    }
}
