#include "core/diagnose/diag_render.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/wrap.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void hr_diag_format_time(int64_t t, char *out, size_t n)
{
    int64_t days = t / 86400, secs = t % 86400;
    if (secs < 0) {
        secs += 86400;
        days--;
    }
    int64_t year = 1970;
    for (;;) {
        bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        int64_t len = leap ? 366 : 365;
        if (days >= 0 && days < len)
            break;
        if (days < 0) {
            year--;
            bool pl = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            days += pl ? 366 : 365;
        } else {
            days -= len;
            year++;
        }
        if (year < 1 || year > 9999) {
            snprintf(out, n, "?");
            return;
        }
    }
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int month = 0;
    while (month < 11) {
        int ml = mdays[month] + (month == 1 && leap);
        if (days < ml)
            break;
        days -= ml;
        month++;
    }
    snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)year, month + 1, (int)days + 1, (int)(secs / 3600),
             (int)(secs / 60 % 60), (int)(secs % 60));
}

static const char *log_os_id(const hr_diag_ctx *c)
{
    return c->log_os == 2 ? "windows" : c->log_os == 1 ? "linux" : NULL;
}

/* a part of the machine's words, after a comma when not the first */
static void add_part(char *out, size_t cap, const char *part)
{
    size_t len = strlen(out);
    if (len)
        hr_strlcpy(out + len, HR_T(", "), cap - len), len = strlen(out);
    hr_strlcpy(out + len, part, cap - len);
}

void hr_diag_machine_words(const hr_diag_ctx *c, char *out, size_t cap)
{
    const hr_diag_log_machine *m = &c->log_machine;
    out[0] = '\0';
    if (!hr_diag_log_machine_known(m) || !cap)
        return;
    char part[160], size[32];
    if (c->log_os)
        add_part(out, cap, c->log_os == 2 ? "Windows" : "Linux");
    if (m->ram_bytes) {
        hr_size_gb(m->ram_bytes, size, sizeof size);
        snprintf(part, sizeof part, HR_T("%s RAM"), size);
        add_part(out, cap, part);
    }
    if (m->vram_bytes) {
        hr_size_gb(m->vram_bytes, size, sizeof size);
        if (m->device[0])
            snprintf(part, sizeof part, HR_T("%s VRAM (%s)"), size, m->device);
        else
            snprintf(part, sizeof part, HR_T("%s VRAM"), size);
        add_part(out, cap, part);
    } else if (m->device[0]) {
        add_part(out, cap, m->device);
    }
    if (m->vram_state[0])
        add_part(out, cap, m->vram_state);
    if (m->pytorch[0]) {
        snprintf(part, sizeof part, "pytorch %s", m->pytorch);
        add_part(out, cap, part);
    }
    if (m->comfyui_version[0] && m->comfyui_date[0])
        snprintf(part, sizeof part, HR_T("ComfyUI %s of %s"), m->comfyui_version, m->comfyui_date);
    else if (m->comfyui_version[0])
        snprintf(part, sizeof part, "ComfyUI %s", m->comfyui_version);
    else if (m->comfyui_date[0])
        snprintf(part, sizeof part, HR_T("ComfyUI of %s"), m->comfyui_date);
    else
        part[0] = '\0';
    if (part[0])
        add_part(out, cap, part);
}

void hr_diag_machine_command(const hr_diag_ctx *c, char *out, size_t cap)
{
    if (!cap)
        return;
    out[0] = '\0';
    const hr_cause cause = hr_diag_cause(c);
    const hr_diag_log_machine *m = &c->log_machine;
    /* without the sizes the flags would describe this machine, not the log's */
    if (!m->ram_bytes || (cause != HR_CAUSE_GPU_OOM && cause != HR_CAUSE_HOST_OOM && cause != HR_CAUSE_KILLED &&
                          cause != HR_CAUSE_LOW_VM))
        return;
    char flags[200];
    hr_diag_log_machine_flags(m, log_os_id(c), flags, sizeof flags);
    if (!flags[0])
        return;
    snprintf(out, cap,
             cause == HR_CAUSE_GPU_OOM ? "headroom estimate WORKFLOW.json %s"
                                       : "headroom plan --workflow WORKFLOW.json %s",
             flags);
}

static const char *input_name(const hr_diag_ctx *c, int input)
{
    return input >= 0 && (size_t)input < c->ninputs && c->inputs[input].name ? c->inputs[input].name : "-";
}

static void json_time(hr_json_writer *w, const char *key, int64_t t)
{
    if (t > 0) {
        char b[40];
        hr_diag_format_time(t, b, sizeof b);
        hr_json_str(w, key, b);
    } else {
        hr_json_null(w, key);
    }
}

static const char *warning_meaning(const hr_diag_warning *w)
{
    return w->tier == HR_CAUSE_GPU_OOM ? HR_N("VRAM ran short and the run went on with a slower way (tiled VAE, "
                                              "slices): a warning about the GPU tier, not a failure.")
                                       : HR_N("System RAM ran short and the run went on: a warning about the RAM + "
                                              "paging file / swap tier, not a failure.");
}

/* A reason (why) in lang: JSON asks for English, the text for the user's language. */
static const char *reason(const hr_msg *m, hr_lang lang, char *buf, size_t n)
{
    hr_msg_format(m, lang, buf, n);
    return buf;
}

static void json_finding(const hr_diag_ctx *c, const hr_diag_finding *f, hr_json_writer *w)
{
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "cause", hr_cause_id(f->cause));
    hr_json_str(w, "confidence", hr_confidence_name(f->conf));
    hr_json_str(w, "title", hr_cause_title(f->cause));
    hr_json_str(w, "meaning", f->meaning);
    hr_json_str(w, "fix", hr_diag_fix(c, f->cause));
    hr_json_u64(w, "count", f->count);
    if (f->victim_pid >= 0) {
        hr_json_begin_object(w, "victim");
        hr_json_i64(w, "pid", f->victim_pid);
        hr_json_str(w, "name", f->victim[0] ? f->victim : NULL);
        hr_json_end_object(w);
    }
    const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
    size_t n = hr_diag_evidence_list(f, ev);
    hr_json_begin_array(w, "evidence");
    for (size_t i = 0; i < n; i++) {
        const hr_diag_evidence *e = ev[i];
        hr_json_begin_object(w, NULL);
        if (e->input >= 0) {
            hr_json_u64(w, "line", e->line);
            hr_json_str(w, "file", input_name(c, e->input));
        } else {
            char src[HR_DIAG_SOURCE_MAX];
            hr_json_str(w, "source", hr_diag_evidence_source(e, HR_LANG_EN, src));
            if (e->time > 0) {
                char t[40];
                hr_diag_format_time(e->time, t, sizeof t);
                hr_json_str(w, "time", t);
            } else {
                hr_json_null(w, "time");
            }
        }
        hr_json_str(w, "confidence", hr_confidence_name(e->conf));
        char text[HR_DIAG_TEXT_MAX];
        hr_json_str(w, "text", hr_diag_evidence_text(e, HR_LANG_EN, text));
        char why[HR_DIAG_REASON_MAX];
        if (e->input < 0 && hr_msg_is_set(&e->why))
            hr_json_str(w, "why", reason(&e->why, HR_LANG_EN, why, sizeof why));
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);
}

void hr_diag_json(const hr_diag_ctx *c, hr_json_writer *w)
{
    hr_cause cause = hr_diag_cause(c);
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_DIAG_SCHEMA);
    hr_json_str(w, "cause", hr_cause_id(cause));
    if (c->norder) {
        hr_json_str(w, "confidence", hr_confidence_name(hr_diag_confidence(c)));
    } else {
        hr_json_null(w, "confidence");
        hr_json_str(w, "confidence_reason", "nothing in the input matched a known failure");
    }
    hr_json_str(w, "title", hr_cause_title(cause));
    hr_json_str(w, "meaning", c->norder ? c->order[0]->meaning : hr_cause_meaning(cause));
    hr_json_str(w, "fix", hr_diag_fix(c, cause));
    hr_json_begin_array(w, "findings");
    for (size_t i = 0; i < c->norder; i++)
        json_finding(c, c->order[i], w);
    hr_json_end_array(w);
    hr_json_begin_array(w, "inputs");
    for (size_t i = 0; i < c->ninputs; i++) {
        const hr_diag_input *in = &c->inputs[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", in->name);
        hr_json_str(w, "encoding", in->encoding);
        hr_json_u64(w, "bytes", in->bytes);
        hr_json_u64(w, "lines", in->lines);
        hr_json_u64(w, "long_lines", in->long_lines);
        hr_json_bool(w, "text", !in->not_text);
        hr_json_u64(w, "non_text_bytes", in->bad_bytes);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "warnings");
    for (size_t i = 0; i < 2; i++) {
        const hr_diag_warning *wg = &c->warnings[i];
        if (!wg->count)
            continue;
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "tier", wg->tier == HR_CAUSE_GPU_OOM ? "gpu" : "host");
        hr_json_str(w, "meaning", warning_meaning(wg));
        hr_json_u64(w, "count", wg->count);
        hr_json_str(w, "file", input_name(c, wg->input));
        hr_json_u64(w, "line", wg->line);
        hr_json_str(w, "text", wg->text);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    const hr_diag_log_machine *m = &c->log_machine;
    if (hr_diag_log_machine_known(m)) {
        hr_json_begin_object(w, "log_machine");
        hr_json_str(w, "os", log_os_id(c));
        if (m->ram_bytes)
            hr_json_u64(w, "ram_bytes", m->ram_bytes);
        else
            hr_json_null(w, "ram_bytes");
        if (m->vram_bytes)
            hr_json_u64(w, "vram_bytes", m->vram_bytes);
        else
            hr_json_null(w, "vram_bytes");
        hr_json_str(w, "device", m->device[0] ? m->device : NULL);
        hr_json_str(w, "gpu", hr_diag_log_machine_vendor(m));
        hr_json_str(w, "vram_state", m->vram_state[0] ? m->vram_state : NULL);
        hr_json_str(w, "pytorch_version", m->pytorch[0] ? m->pytorch : NULL);
        hr_json_str(w, "comfyui_version", m->comfyui_version[0] ? m->comfyui_version : NULL);
        hr_json_str(w, "comfyui_date", m->comfyui_date[0] ? m->comfyui_date : NULL);
        hr_json_str(w, "file", m->input >= 0 ? input_name(c, m->input) : NULL);
        if (m->input >= 0)
            hr_json_u64(w, "line", m->line);
        else
            hr_json_null(w, "line");
        char cmd[320];
        hr_diag_machine_command(c, cmd, sizeof cmd);
        hr_json_str(w, "command", cmd[0] ? cmd : NULL);
        hr_json_end_object(w);
    } else {
        hr_json_null(w, "log_machine");
    }
    if (c->system_checked) {
        hr_json_begin_object(w, "system");
        hr_json_i64(w, "since_seconds", c->since_seconds);
        if (c->pid >= 0)
            hr_json_i64(w, "pid", c->pid);
        else
            hr_json_null(w, "pid");
        hr_json_begin_object(w, "window");
        json_time(w, "start", c->window_start);
        json_time(w, "end", c->window_end);
        char why[HR_DIAG_REASON_MAX];
        hr_json_str(w, "why",
                    hr_msg_is_set(&c->window_why) ? reason(&c->window_why, HR_LANG_EN, why, sizeof why) : NULL);
        hr_json_end_object(w);
        hr_json_u64(w, "ignored_total", c->ignored_total);
        hr_json_begin_array(w, "ignored");
        for (size_t i = 0; i < c->nignored; i++) {
            const hr_diag_ignored *g = &c->ignored[i];
            hr_json_begin_object(w, NULL);
            char src[HR_DIAG_SOURCE_MAX];
            hr_json_str(w, "source", hr_diag_ignored_source(g, HR_LANG_EN, src));
            json_time(w, "time", g->time);
            hr_json_str(w, "text", g->text);
            hr_json_str(w, "why", reason(&g->why, HR_LANG_EN, why, sizeof why));
            hr_json_end_object(w);
        }
        hr_json_end_array(w);
        hr_json_begin_array(w, "sources");
        for (size_t i = 0; i < c->nsources; i++) {
            const hr_diag_source *s = &c->sources[i];
            hr_json_begin_object(w, NULL);
            hr_json_str(w, "name", s->name);
            hr_json_bool(w, "ok", s->ok);
            if (s->records >= 0)
                hr_json_i64(w, "records", s->records);
            else
                hr_json_null(w, "records");
            char detail[HR_DIAG_DETAIL_MAX];
            hr_json_str(w, "detail", reason(&s->detail, HR_LANG_EN, detail, sizeof detail));
            hr_json_end_object(w);
        }
        hr_json_end_array(w);
        hr_json_end_object(w);
    } else {
        hr_json_null(w, "system");
        hr_json_str(w, "system_reason", c->system_reason[0] ? c->system_reason : "not read");
    }
    hr_json_end_object(w);
}

/* Prose folded at 92 columns by display width, in either language. */
static void wrap(hr_buf *out, const char *indent, const char *s)
{
    hr_wrap(out, indent, s, 92);
}

static void text_evidence(const hr_diag_ctx *c, const hr_diag_evidence *e, hr_buf *out, const char *indent)
{
    if (e->input >= 0) {
        hr_buf_printf(out, "%s%s:%" PRIu64 ": %s\n", indent, input_name(c, e->input), e->line, e->text);
    } else {
        char t[40] = "";
        if (e->time > 0)
            hr_diag_format_time(e->time, t, sizeof t);
        char src[HR_DIAG_SOURCE_MAX], text[HR_DIAG_TEXT_MAX];
        hr_buf_printf(out, "%s[%s%s%s] %s\n", indent, hr_diag_evidence_source(e, hr_lang_get(), src), t[0] ? " " : "",
                      t, hr_diag_evidence_text(e, hr_lang_get(), text));
        char why[HR_DIAG_REASON_MAX];
        if (hr_msg_is_set(&e->why))
            hr_buf_printf(out, HR_T("%s  (used: %s)\n"), indent, reason(&e->why, hr_lang_get(), why, sizeof why));
    }
}

int hr_diag_text(const hr_diag_ctx *c, hr_buf *out)
{
    hr_cause cause = hr_diag_cause(c);
    if (c->norder) {
        const hr_diag_finding *f = c->order[0];
        hr_buf_printf(out, HR_T("Cause: %s [%s], confidence %s\n"), hr_tr(hr_cause_title(cause)), hr_cause_id(cause),
                      hr_tr(hr_confidence_name(f->conf)));
        wrap(out, "  ", hr_tr(f->meaning));
        if (f->victim_pid >= 0) {
            hr_buf_puts(out, "  ");
            hr_buf_printf(out, HR_T("Process ended: %s (pid %lld)"), f->victim[0] ? f->victim : "?",
                          (long long)f->victim_pid);
            hr_buf_putc(out, '\n');
        }
        hr_buf_printf(out, HR_T("\n  Evidence (%llu):\n"), (unsigned long long)f->count);
        const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
        size_t n = hr_diag_evidence_list(f, ev);
        for (size_t i = 0; i < n; i++)
            text_evidence(c, ev[i], out, "    ");
        hr_buf_printf(out, "\n  %s%s\n", HR_T("Fix"), HR_T(":"));
        wrap(out, "    ", hr_tr(hr_diag_fix(c, cause)));
    } else {
        hr_buf_printf(out, HR_T("Cause: %s [unknown]\n"), hr_tr(hr_cause_title(cause)));
        wrap(out, "  ", hr_tr(hr_cause_meaning(cause)));
        hr_buf_printf(out, "\n  %s%s\n", HR_T("Next"), HR_T(":"));
        wrap(out, "    ", hr_tr(hr_diag_fix(c, cause)));
    }
    char words[400];
    hr_diag_machine_words(c, words, sizeof words);
    if (words[0]) {
        const hr_diag_log_machine *m = &c->log_machine;
        hr_buf_puts(out, "\n  ");
        if (m->input >= 0) {
            char where[300];
            snprintf(where, sizeof where, "%s:%" PRIu64, input_name(c, m->input), m->line);
            hr_buf_printf(out, HR_T("The machine in the log (%s):"), where);
        } else
            hr_buf_puts(out, HR_T("The machine in the log:"));
        hr_buf_putc(out, '\n');
        wrap(out, "    ", words);
        char cmd[320];
        hr_diag_machine_command(c, cmd, sizeof cmd);
        if (cmd[0]) {
            hr_buf_printf(out, "  %s\n", HR_T("For that machine, with the run's workflow:"));
            hr_buf_printf(out, "    %s\n", cmd);
            if (!c->log_os)
                wrap(out, "    ", HR_T("(the log does not say its OS: add --os windows or --os linux)"));
        }
    }
    if (c->norder > 1) {
        hr_buf_printf(out, "\n%s:\n", HR_T("Also found (later in the input)"));
        for (size_t i = 1; i < c->norder; i++) {
            const hr_diag_finding *f = c->order[i];
            hr_buf_printf(out, HR_T("  %s [%s], confidence %s, %llu\n"), hr_tr(hr_cause_title(f->cause)),
                          hr_cause_id(f->cause), hr_tr(hr_confidence_name(f->conf)), (unsigned long long)f->count);
            const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
            size_t n = hr_diag_evidence_list(f, ev);
            for (size_t k = 0; k < n && k < 2; k++)
                text_evidence(c, ev[k], out, "    ");
        }
    }
    bool any_warning = c->warnings[0].count || c->warnings[1].count;
    if (any_warning) {
        hr_buf_puts(out, HR_T("\nWarnings (the run went on):\n"));
        for (size_t i = 0; i < 2; i++) {
            const hr_diag_warning *w = &c->warnings[i];
            if (!w->count)
                continue;
            hr_buf_printf(out, HR_T("  %s tier, %llu:\n"),
                          w->tier == HR_CAUSE_GPU_OOM ? HR_T("GPU (VRAM)") : HR_T("RAM"), (unsigned long long)w->count);
            wrap(out, "    ", hr_tr(warning_meaning(w)));
            hr_buf_printf(out, "    %s:%" PRIu64 ": %s\n", input_name(c, w->input), w->line, w->text);
        }
    }
    if (c->system_checked && (c->ignored_total || hr_msg_is_set(&c->window_why) || c->pid >= 0)) {
        hr_buf_puts(out, HR_T("\nSystem records about other runs (set aside):\n"));
        if (c->pid >= 0)
            hr_buf_printf(out, HR_T("  the run: pid %lld (--pid)\n"), (long long)c->pid);
        char why[HR_DIAG_REASON_MAX];
        if (hr_msg_is_set(&c->window_why)) {
            char a[40] = "-", b[40] = "-";
            if (c->window_start > 0)
                hr_diag_format_time(c->window_start, a, sizeof a);
            if (c->window_end > 0)
                hr_diag_format_time(c->window_end, b, sizeof b);
            hr_buf_printf(out, HR_T("  time window: %s .. %s (%s)\n"), a, b,
                          reason(&c->window_why, hr_lang_get(), why, sizeof why));
        }
        for (size_t i = 0; i < c->nignored; i++) {
            const hr_diag_ignored *g = &c->ignored[i];
            char t[40] = "";
            if (g->time > 0)
                hr_diag_format_time(g->time, t, sizeof t);
            char src[HR_DIAG_SOURCE_MAX];
            hr_buf_printf(out, HR_T("  [%s%s%s] %s\n    ignored: %s\n"), hr_diag_ignored_source(g, hr_lang_get(), src),
                          t[0] ? " " : "", t, g->text, reason(&g->why, hr_lang_get(), why, sizeof why));
        }
        if (c->ignored_total > c->nignored)
            hr_buf_printf(out, HR_T("  ... %llu records set aside in all\n"), (unsigned long long)c->ignored_total);
        if (!c->ignored_total)
            hr_buf_puts(out, HR_T("  none\n"));
    }
    hr_buf_printf(out, "\n%s%s\n", HR_T("What was read"), HR_T(":"));
    for (size_t i = 0; i < c->ninputs; i++) {
        const hr_diag_input *in = &c->inputs[i];
        hr_buf_printf(out, "  %s: ", in->name);
        hr_buf_printf(out, HR_T("%llu lines, %llu bytes, %s"), (unsigned long long)in->lines,
                      (unsigned long long)in->bytes, in->encoding);
        hr_buf_putc(out, '\n');
    }
    if (c->system_checked) {
        for (size_t i = 0; i < c->nsources; i++) {
            const hr_diag_source *s = &c->sources[i];
            char detail[HR_DIAG_DETAIL_MAX];
            hr_buf_printf(out, "  %s: %s%s\n", hr_tr(s->name), s->ok ? "" : HR_T("not read: "),
                          reason(&s->detail, hr_lang_get(), detail, sizeof detail));
        }
    } else {
        hr_buf_puts(out, "  ");
        hr_buf_printf(out, HR_T("system records: not read (%s)"),
                      c->system_reason[0] ? c->system_reason : HR_T("not requested"));
        hr_buf_putc(out, '\n');
    }
    return out->len ? 0 : HR_EINTERNAL;
}
