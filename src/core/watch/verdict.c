/* headroom — run's verdict (verdict.h). */
#include "core/watch/verdict.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

/* "name N": a counter or status as the OS names it (data for the JSON, not prose) */
static void name_num(char *out, size_t n, const char *name, long long v)
{
    hr_strlcpy(out, name, n);
    size_t k = strlen(out);
    snprintf(out + k, n - k, " %lld", v);
}

/* An evidence line in English (the JSON) and in the user's language (the text): a record the
 * OS describes is a message, worded in each; a log line is the same in both. */
static void add_ev(hr_run_verdict *v, const char *source, const char *text, const char *source_local,
                   const char *text_local)
{
    if (v->nev >= HR_VERDICT_EVIDENCE)
        return;
    hr_verdict_ev *e = &v->ev[v->nev++];
    hr_strlcpy(e->source, source ? source : "", sizeof e->source);
    hr_strlcpy(e->text, text ? text : "", sizeof e->text);
    hr_strlcpy(e->source_local, source_local ? source_local : e->source, sizeof e->source_local);
    hr_strlcpy(e->text_local, text_local ? text_local : e->text, sizeof e->text_local);
}

/* only_pid > 0: the OS's records about this process only (others' kills are not evidence) */
static void add_finding(hr_run_verdict *v, const hr_diag_ctx *c, const hr_diag_finding *f, int64_t only_pid)
{
    const hr_diag_evidence *list[HR_DIAG_EVIDENCE_MAX];
    size_t n = hr_diag_evidence_list(f, list);
    char n1[48], n2[48];
    snprintf(n1, sizeof n1, "process %lld ", (long long)only_pid);
    snprintf(n2, sizeof n2, "pid=%lld,", (long long)only_pid);
    for (size_t i = 0; i < n; i++) {
        char en[HR_DIAG_TEXT_MAX], local[HR_DIAG_TEXT_MAX];
        const char *text = hr_diag_evidence_text(list[i], HR_LANG_EN, en);
        if (only_pid > 0 && !strstr(text, n1) && !strstr(text, n2))
            continue;
        char src[HR_DIAG_SOURCE_MAX], src_local[HR_DIAG_SOURCE_MAX];
        const char *source = src, *source_local = src;
        if (list[i]->input >= 0 && (size_t)list[i]->input < c->ninputs) {
            snprintf(src, sizeof src, "%s:%llu", c->inputs[list[i]->input].name, (unsigned long long)list[i]->line);
        } else {
            source = hr_diag_evidence_source(list[i], HR_LANG_EN, src);
            source_local = hr_diag_evidence_source(list[i], hr_lang_get(), src_local);
        }
        add_ev(v, source, text, source_local, hr_diag_evidence_text(list[i], hr_lang_get(), local));
    }
}

/* Does the OS's record name this child as the OOM killer's victim? */
static bool names_child(const hr_diag_finding *f, int64_t pid)
{
    if (!f->present || pid <= 0)
        return false;
    if (f->victim_pid == pid)
        return true;
    const hr_diag_evidence *list[HR_DIAG_EVIDENCE_MAX];
    size_t n = hr_diag_evidence_list(f, list);
    char needle[48];
    snprintf(needle, sizeof needle, "process %lld ", (long long)pid);
    for (size_t i = 0; i < n; i++) {
        char en[HR_DIAG_TEXT_MAX];
        if (strstr(hr_diag_evidence_text(list[i], HR_LANG_EN, en), needle))
            return true;
    }
    return false;
}

void hr_run_verdict_make(const hr_diag_ctx *log, const hr_diag_ctx *sys, const hr_run_end *end, const hr_watch *w,
                         hr_run_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->first_warning_t = w->first_warning_t == HR_W_UNKNOWN ? HR_W_UNKNOWN : w->first_warning_t - w->t0;
    v->warned_before = w->warnings > 0;
    /* what to size from: commit where the OS enforces it, else what was really in use */
    v->need_bytes = w->prev.commit_enforced ? w->peaks.commit : w->peaks.ram_swap_used;

    const hr_diag_finding *kf = sys ? &sys->findings[HR_CAUSE_KILLED] : NULL;
    v->kernel_record = kf && names_child(kf, end->pid);
    if (!end->exited && end->signal == 9 && (end->oom_kill > 0 || v->kernel_record)) {
        v->cause = hr_cause_id(HR_CAUSE_KILLED);
        v->title = hr_cause_title(HR_CAUSE_KILLED);
        v->meaning = hr_cause_meaning(HR_CAUSE_KILLED);
        v->fix = hr_cause_fix(HR_CAUSE_KILLED);
        v->conf = HR_CONF_HIGH;
        char t[96];
        snprintf(t, sizeof t, "signal 9 (SIGKILL)");
        add_ev(v, HR_N("exit status"), t, NULL, NULL);
        if (end->oom_kill > 0) {
            name_num(t, sizeof t, "oom_kill", (long long)end->oom_kill);
            add_ev(v, HR_N("the child's memory cgroup"), t, NULL, NULL);
        }
        if (v->kernel_record)
            add_finding(v, sys, kf, end->pid);
        return;
    }
    hr_cause lc = log ? hr_diag_cause(log) : HR_CAUSE_UNKNOWN;
    if (lc != HR_CAUSE_UNKNOWN && !(lc == HR_CAUSE_KILLED && !end->exited && end->signal == 9)) {
        v->cause = hr_cause_id(lc);
        v->title = hr_cause_title(lc);
        v->meaning = hr_cause_meaning(lc);
        v->fix = hr_diag_fix(log, lc);
        v->conf = hr_diag_confidence(log);
        add_finding(v, log, &log->findings[lc], 0);
        return;
    }
    char t[96];
    if (!end->exited) {
        v->cause = "signal";
        v->title = HR_N("ended by a signal");
        v->meaning = end->signal == 9 ? HR_N("killed with SIGKILL, but neither its memory cgroup nor the "
                                             "kernel's log recorded an out-of-memory kill: someone or "
                                             "something else ended it, not memory")
                                      : HR_N("ended by a signal that is not an out-of-memory kill");
        v->conf = HR_CONF_HIGH;
        snprintf(t, sizeof t, "signal %d", end->signal);
        add_ev(v, HR_N("exit status"), t, NULL, NULL);
        if (end->oom_kill >= 0) {
            name_num(t, sizeof t, "oom_kill", (long long)end->oom_kill);
            add_ev(v, HR_N("the child's memory cgroup"), t, NULL, NULL);
        }
        return;
    }
    name_num(t, sizeof t, "exit code", end->code);
    add_ev(v, HR_N("exit status"), t, NULL, NULL);
    if (end->code == 0) {
        v->cause = "ok";
        v->title = HR_N("finished normally");
        v->meaning = HR_N("exit code 0 and no memory failure in its output");
        v->conf = HR_CONF_HIGH;
    } else {
        v->cause = "exited";
        v->title = HR_N("exited with an error");
        v->meaning = HR_N("a non-zero exit code and no memory failure recognised in its output");
        v->conf = HR_CONF_MEDIUM;
    }
}

static void ji(hr_json_writer *w, const char *key, int64_t v)
{
    if (v < 0)
        hr_json_null(w, key);
    else
        hr_json_i64(w, key, v);
}

void hr_rec_exit_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_run_end *end)
{
    hr_json_writer w;
    hr_json_init(&w, out, false);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "type", "exit");
    hr_json_i64(&w, "t", t_ms - t0);
    hr_json_i64(&w, "time", time_ms);
    if (end->exited)
        hr_json_i64(&w, "code", end->code);
    else
        hr_json_null(&w, "code");
    if (end->exited)
        hr_json_null(&w, "signal");
    else
        hr_json_i64(&w, "signal", end->signal);
    ji(&w, "cgroup_oom_kill", end->oom_kill);
    ji(&w, "cgroup_peak", end->cg_peak);
    hr_json_end_object(&w);
    (void)hr_json_finish(&w);
}

void hr_rec_verdict_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_run_verdict *v,
                         const hr_watch *wt)
{
    hr_json_writer w;
    hr_json_init(&w, out, false);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "type", "verdict");
    hr_json_i64(&w, "t", t_ms - t0);
    hr_json_i64(&w, "time", time_ms);
    hr_json_str(&w, "cause", v->cause);
    hr_json_str(&w, "confidence", hr_confidence_name(v->conf));
    hr_json_str(&w, "title", v->title);
    hr_json_str(&w, "meaning", v->meaning);
    hr_json_begin_array(&w, "evidence");
    for (size_t i = 0; i < v->nev; i++) {
        hr_json_begin_object(&w, NULL);
        hr_json_str(&w, "source", v->ev[i].source);
        hr_json_str(&w, "text", v->ev[i].text);
        hr_json_end_object(&w);
    }
    hr_json_end_array(&w);
    hr_rec_peaks(&w, &wt->peaks);
    if (v->node[0]) {
        hr_json_begin_object(&w, "node");
        hr_json_str(&w, "text", v->node);
        hr_json_end_object(&w);
    } else {
        hr_json_null(&w, "node");
    }
    hr_json_bool(&w, "kernel_record", v->kernel_record);
    hr_json_bool(&w, "warned_before", v->warned_before);
    if (v->first_warning_t == HR_W_UNKNOWN)
        hr_json_null(&w, "first_warning_t");
    else
        hr_json_i64(&w, "first_warning_t", v->first_warning_t);
    hr_json_begin_object(&w, "advice");
    ji(&w, "commit_needed", v->need_bytes);
    hr_json_str(&w, "text", v->advice[0] ? v->advice : NULL);
    hr_json_end_object(&w);
    hr_json_end_object(&w);
    (void)hr_json_finish(&w);
}

static void gbs(int64_t v, char *out, size_t n)
{
    if (v < 0)
        snprintf(out, n, "?");
    else
        hr_size_gb((uint64_t)v, out, n);
}

/* An evidence text as shown: the counters name_num wrote ("exit code 3") keep their English
 * name in the JSON and are shown in the user's language. */
static void ev_text(hr_buf *out, const char *text)
{
    static const char *const names[] = { HR_N("exit code"), HR_N("signal") };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (!strncmp(text, names[i], n) && text[n] == ' ') {
            hr_buf_printf(out, "%s%s", hr_tr(names[i]), text + n);
            return;
        }
    }
    hr_buf_puts(out, text);
}

void hr_run_verdict_text(hr_buf *out, const hr_run_verdict *v, const hr_run_end *end, const hr_watch *w)
{
    hr_buf_printf(out, HR_T("headroom run: %s [%s], confidence %s\n"), HR_T(v->title), v->cause,
                  hr_tr(hr_confidence_name(v->conf)));
    if (v->meaning)
        hr_buf_printf(out, "  %s\n", HR_T(v->meaning));
    for (size_t i = 0; i < v->nev; i++) {
        /* The source is a file:line, a record worded already, or one of add_ev's names (a msgid);
         * hr_tr leaves the first two as they are. */
        hr_buf_printf(out, "  - %s%s", hr_tr(v->ev[i].source_local), HR_T(": "));
        ev_text(out, v->ev[i].text_local);
        hr_buf_putc(out, '\n');
    }
    if (v->node[0])
        hr_buf_printf(out, HR_T("  running: %s\n"), v->node);
    char a[24], b[24], c[24], d[24];
    gbs(w->peaks.ram_used, a, sizeof a);
    gbs(w->peaks.swap_used, b, sizeof b);
    gbs(w->peaks.commit, c, sizeof c);
    gbs(w->peaks.proc_rss, d, sizeof d);
    hr_buf_printf(out, HR_T("  peaks: RAM %s, swap %s, commit %s, the child's processes %s"), a, b, c, d);
    if (end->cg_peak >= 0 || w->peaks.cg_current >= 0) {
        gbs(end->cg_peak >= 0 ? end->cg_peak : w->peaks.cg_current, a, sizeof a);
        hr_buf_printf(out, HR_T(", its cgroup / job %s"), a);
    }
    hr_buf_putc(out, '\n');
    if (strcmp(v->cause, "killed") == 0 || strcmp(v->cause, "host-oom") == 0) {
        if (v->warned_before && v->first_warning_t != HR_W_UNKNOWN)
            hr_buf_printf(out, HR_T("  headroom warned %.1f s after the start\n"), (double)v->first_warning_t / 1000.0);
        else
            hr_buf_puts(out, HR_T("  no warning came before the end (too fast for the interval?)\n"));
    }
    if (v->fix && strcmp(v->cause, "ok") != 0)
        hr_buf_printf(out, HR_T("  fix: %s\n"), HR_T(v->fix));
    if (v->advice_local[0] || v->advice[0])
        hr_buf_printf(out, "  %s\n", v->advice_local[0] ? v->advice_local : v->advice);
}
