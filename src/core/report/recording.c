/* headroom — reading a watch/run recording (recording.h, docs/recording.md). */
#include "core/report/recording.h"

#include "core/base/i18n.h"
#include "core/base/json_parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const field_keys[HR_RF_COUNT] = {
    "ram_total",      "ram_used",       "ram_available", "swap_total",  "swap_used",    "commit",
    "commit_limit",   "cgroup_current", "cgroup_max",    "pages_in_ps", "pages_out_ps", "psi_some_avg10",
    "psi_full_avg10", "disk_busy_pct",  "proc_rss",      "proc_swap",   "vram_used",    "vram_total",
};

const char *hr_rec_field_key(hr_rec_field f)
{
    return (unsigned)f < HR_RF_COUNT ? field_keys[f] : "?";
}

void hr_rec_init(hr_recording *r)
{
    memset(r, 0, sizeof *r);
    r->started_ms = NAN;
    r->interval_ms = NAN;
    r->exit_code = r->exit_signal = r->cgroup_oom_kill = NAN;
    r->commit_needed = NAN;
    r->stride = 1;
    for (int f = 0; f < HR_RF_COUNT; f++)
        r->peak[f] = NAN;
}

/* A number member: NaN when absent or null; HR_EPARSE when it is something else, or a number
 * no double holds. */
static int num(const hr_json_value *o, const char *key, double *out, uint64_t line, hr_error *err)
{
    const hr_json_value *v = hr_json_get(o, key);
    *out = NAN;
    if (!v || hr_json_is(v, HR_JSON_NULL))
        return 0;
    double d;
    if (hr_json_as_double(v, &d) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: \"%s\" is %s, not a number"), (unsigned long long)line,
                            key, hr_json_type_name(hr_json_type_of(v)));
    if (!isfinite(d) || fabs(d) > 1e30)
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: \"%s\" is out of range"), (unsigned long long)line, key);
    *out = d;
    return 0;
}

/* A string member copied (cut) into out; "" when absent or null. */
static int str(const hr_json_value *o, const char *key, char *out, size_t n, uint64_t line, hr_error *err)
{
    const hr_json_value *v = hr_json_get(o, key);
    out[0] = '\0';
    if (!v || hr_json_is(v, HR_JSON_NULL))
        return 0;
    const char *s = hr_json_string(v, NULL);
    if (!s)
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: \"%s\" is %s, not a string"), (unsigned long long)line,
                            key, hr_json_type_name(hr_json_type_of(v)));
    /* Cut at a character boundary, never inside a UTF-8 sequence. */
    size_t len = strlen(s);
    if (len >= n) {
        len = n - 1;
        while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
            len--;
    }
    memcpy(out, s, len);
    out[len] = '\0';
    return 0;
}

static double maxd(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* Halve the kept samples: neighbours merge, each field keeping its highest value. */
static void thin(hr_recording *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->nsamples; i += 2, k++) {
        hr_rec_sample s = r->samples[i];
        if (i + 1 < r->nsamples)
            for (int f = 0; f < HR_RF_COUNT; f++)
                s.v[f] = maxd(s.v[f], r->samples[i + 1].v[f]);
        r->samples[k] = s;
    }
    r->nsamples = k;
    r->stride *= 2;
    r->pending = r->stride; /* the last kept one is full: the next sample starts a new one */
}

static int sample(hr_recording *r, const hr_json_value *o, double t, uint64_t line, hr_error *err)
{
    hr_rec_sample s;
    s.t_ms = t;
    for (int f = 0; f < HR_RF_COUNT; f++)
        if (num(o, field_keys[f], &s.v[f], line, err))
            return err->code;
    r->samples_seen++;
    if (r->nsamples && r->pending < r->stride) {
        hr_rec_sample *last = &r->samples[r->nsamples - 1];
        for (int f = 0; f < HR_RF_COUNT; f++)
            last->v[f] = maxd(last->v[f], s.v[f]);
        r->pending++;
        return 0;
    }
    if (r->nsamples == HR_REC_MAX_SAMPLES)
        thin(r);
    r->samples[r->nsamples++] = s;
    r->pending = 1;
    return 0;
}

static int peaks(hr_recording *r, const hr_json_value *o, uint64_t line, hr_error *err)
{
    const hr_json_value *p = hr_json_get(o, "peaks");
    if (!p || hr_json_is(p, HR_JSON_NULL))
        return 0;
    if (!hr_json_is(p, HR_JSON_OBJECT))
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: \"%s\" is %s, not an object"), (unsigned long long)line,
                            "peaks", hr_json_type_name(hr_json_type_of(p)));
    for (int f = 0; f < HR_RF_COUNT; f++)
        if (hr_json_get(p, field_keys[f]) && num(p, field_keys[f], &r->peak[f], line, err))
            return err->code;
    return 0;
}

static int verdict(hr_recording *r, const hr_json_value *o, uint64_t line, hr_error *err)
{
    r->have_verdict = true;
    if (str(o, "cause", r->cause, sizeof r->cause, line, err) ||
        str(o, "confidence", r->confidence, sizeof r->confidence, line, err) || peaks(r, o, line, err))
        return err->code;
    const hr_json_value *ev = hr_json_get(o, "evidence");
    if (ev && !hr_json_is(ev, HR_JSON_NULL) && !hr_json_is(ev, HR_JSON_ARRAY))
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: \"%s\" is %s, not an array"), (unsigned long long)line,
                            "evidence", hr_json_type_name(hr_json_type_of(ev)));
    r->nevidence = 0;
    for (const hr_json_value *e = hr_json_first(ev); e && r->nevidence < HR_REC_MAX_EVIDENCE; e = hr_json_next(e)) {
        hr_rec_evidence *x = &r->evidence[r->nevidence];
        if (!hr_json_is(e, HR_JSON_OBJECT))
            continue;
        if (str(e, "source", x->source, sizeof x->source, line, err) ||
            str(e, "text", x->text, sizeof x->text, line, err))
            return err->code;
        r->nevidence++;
    }
    const hr_json_value *node = hr_json_get(o, "node");
    if (hr_json_is(node, HR_JSON_OBJECT) && str(node, "class_type", r->end_node, sizeof r->end_node, line, err))
        return err->code;
    bool b = false;
    if (hr_json_as_bool(hr_json_get(o, "warned_before"), &b) == 0)
        r->warned_before = b;
    const hr_json_value *adv = hr_json_get(o, "advice");
    if (hr_json_is(adv, HR_JSON_OBJECT) && (num(adv, "commit_needed", &r->commit_needed, line, err) ||
                                            str(adv, "text", r->advice, sizeof r->advice, line, err)))
        return err->code;
    return 0;
}

static int header(hr_recording *r, const hr_json_value *o, uint64_t line, hr_error *err)
{
    char schema[64];
    if (str(o, "schema", schema, sizeof schema, line, err))
        return err->code;
    if (strcmp(schema, HR_REC_SCHEMA) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("line %llu: schema \"%s\", expected \"%s\" (docs/recording.md)"),
                            (unsigned long long)line, schema, HR_REC_SCHEMA);
    if (str(o, "version", r->version, sizeof r->version, line, err) || str(o, "os", r->os, sizeof r->os, line, err) ||
        str(o, "mode", r->mode, sizeof r->mode, line, err) || num(o, "started", &r->started_ms, line, err) ||
        num(o, "interval_ms", &r->interval_ms, line, err))
        return err->code;
    const hr_json_value *cmd = hr_json_get(o, "command");
    size_t at = 0;
    for (const hr_json_value *a = hr_json_is(cmd, HR_JSON_ARRAY) ? hr_json_first(cmd) : NULL; a; a = hr_json_next(a)) {
        const char *s = hr_json_string(a, NULL);
        if (!s)
            continue;
        int w = snprintf(r->command + at, sizeof r->command - at, "%s%s", at ? " " : "", s);
        if (w < 0 || (size_t)w >= sizeof r->command - at) {
            r->command[sizeof r->command - 1] = '\0';
            break;
        }
        at += (size_t)w;
    }
    return 0;
}

static int one_line(hr_recording *r, const char *p, size_t n, uint64_t line, hr_error *err)
{
    if (n > HR_REC_MAX_LINE)
        return hr_error_set(err, HR_ETOOBIG, HR_T("line %llu: longer than %zu KiB"), (unsigned long long)line,
                            HR_REC_MAX_LINE >> 10);
    hr_json_limits lim = { .max_bytes = HR_REC_MAX_LINE, .max_depth = 8, .max_values = 4096, .no_nul = true };
    hr_json_doc *doc = NULL;
    hr_error jerr = { 0 };
    if (hr_json_parse(p, n, &lim, &doc, &jerr) != 0)
        return hr_error_set(err, jerr.code ? jerr.code : HR_EPARSE, HR_T("line %llu: %s"), (unsigned long long)line,
                            jerr.msg);
    const hr_json_value *o = hr_json_root(doc);
    int rc = 0;
    char type[24];
    double t = NAN;
    if (!hr_json_is(o, HR_JSON_OBJECT)) {
        rc = hr_error_set(err, HR_EPARSE, HR_T("line %llu: not a JSON object"), (unsigned long long)line);
    } else if ((rc = str(o, "type", type, sizeof type, line, err)) != 0) {
    } else if (r->lines == 1 && strcmp(type, "header") != 0) {
        rc = hr_error_set(err, HR_EPARSE, HR_T("line 1: not a headroom recording (the first line is not the header)"));
    } else if (strcmp(type, "header") == 0) {
        rc = r->lines == 1 ? header(r, o, line, err)
                           : hr_error_set(err, HR_EPARSE, HR_T("line %llu: a second header"), (unsigned long long)line);
    } else if ((rc = num(o, "t", &t, line, err)) != 0) {
    } else if (strcmp(type, "sample") == 0) {
        rc = sample(r, o, t, line, err);
    } else if (strcmp(type, "warning") == 0) {
        r->warnings_seen++;
        if (r->nwarnings < HR_REC_MAX_WARNINGS) {
            hr_rec_warning *w = &r->warnings[r->nwarnings];
            w->t_ms = t;
            rc = str(o, "rule", w->rule, sizeof w->rule, line, err);
            if (!rc)
                rc = str(o, "level", w->level, sizeof w->level, line, err);
            if (!rc)
                rc = str(o, "message", w->message, sizeof w->message, line, err);
            w->limit_name[0] = '\0';
            if (!rc)
                rc = str(o, "limit_name", w->limit_name, sizeof w->limit_name, line, err);
            static const char *const wkeys[] = { "value", "limit", "eta_s", "disk_busy_pct", "psi_full_avg10" };
            double *wv[] = { &w->value, &w->limit, &w->eta_s, &w->disk_busy_pct, &w->psi_full_avg10 };
            for (size_t k = 0; !rc && k < sizeof wkeys / sizeof wkeys[0]; k++)
                rc = num(o, wkeys[k], wv[k], line, err);
            if (!rc)
                r->nwarnings++;
        }
    } else if (strcmp(type, "node") == 0) {
        r->nodes_seen++;
        if (r->nnodes < HR_REC_MAX_NODES) {
            hr_rec_node *nd = &r->nodes[r->nnodes];
            nd->t_ms = t;
            rc = str(o, "event", nd->event, sizeof nd->event, line, err);
            if (!rc)
                rc = str(o, "node", nd->node, sizeof nd->node, line, err);
            if (!rc)
                rc = str(o, "class_type", nd->class_type, sizeof nd->class_type, line, err);
            if (!rc)
                rc = num(o, "ram_growth", &nd->ram_growth, line, err);
            if (!rc)
                rc = num(o, "peak_rss", &nd->peak_rss, line, err);
            if (!rc)
                r->nnodes++;
        }
    } else if (strcmp(type, "action") == 0) {
        r->actions_seen++;
    } else if (strcmp(type, "exit") == 0) {
        r->have_exit = true;
        rc = num(o, "code", &r->exit_code, line, err);
        if (!rc)
            rc = num(o, "signal", &r->exit_signal, line, err);
        if (!rc)
            rc = num(o, "cgroup_oom_kill", &r->cgroup_oom_kill, line, err);
    } else if (strcmp(type, "verdict") == 0) {
        rc = verdict(r, o, line, err);
    } else if (strcmp(type, "end") == 0) {
        r->have_end = true;
        rc = peaks(r, o, line, err);
    } else {
        r->skipped++;
    }
    hr_json_free(doc);
    return rc;
}

void hr_rec_reader_init(hr_rec_reader *rd, hr_recording *r)
{
    rd->r = r;
    rd->n = 0;
    rd->blank = rd->blank_but_last = true;
    rd->last = '\0';
    rd->done = false;
    rd->rc = 0;
}

/* The line read so far ends: with its newline, or (nl false) with the input. */
static int end_line(hr_rec_reader *rd, bool nl, hr_error *err)
{
    hr_recording *r = rd->r;
    size_t n = rd->n;
    bool blank = rd->blank;
    if (n && rd->last == '\r') {
        n--;
        blank = rd->blank_but_last;
    }
    rd->n = 0;
    rd->blank = rd->blank_but_last = true;
    rd->last = '\0';
    r->lines++;
    if (!nl && r->lines > 1) {
        /* The last line without its newline: the writer died in the middle of it. */
        r->cut_line = !blank;
        return 0;
    }
    if (!blank)
        return one_line(r, rd->line, n, r->lines, err); /* refuses n past what line holds */
    if (r->lines == 1)
        return hr_error_set(err, HR_EPARSE,
                            HR_T("line 1: not a headroom recording (the first line is not the header)"));
    return 0;
}

int hr_rec_feed(hr_rec_reader *rd, const char *data, size_t len, hr_error *err)
{
    size_t pos = 0;
    while (!rd->done && pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - data) : len;
        for (size_t i = pos; i < end; i++) {
            char c = data[i];
            if (rd->n < sizeof rd->line)
                rd->line[rd->n] = c;
            rd->n++;
            rd->blank_but_last = rd->blank;
            rd->blank = rd->blank && (c == ' ' || c == '\t');
            rd->last = c;
        }
        pos = end;
        if (nl) {
            pos++;
            if ((rd->rc = end_line(rd, true, err)) != 0)
                rd->done = true;
        }
    }
    return rd->rc;
}

int hr_rec_finish(hr_rec_reader *rd, hr_error *err)
{
    if (rd->done)
        return rd->rc;
    rd->done = true;
    if (rd->n && (rd->rc = end_line(rd, false, err)) != 0)
        return rd->rc;
    if (rd->r->lines == 0)
        return rd->rc = hr_error_set(err, HR_EPARSE, HR_T("empty: not a headroom recording"));
    rd->r->truncated = !rd->r->have_verdict && !rd->r->have_end;
    return 0;
}

int hr_rec_parse(const char *data, size_t len, hr_recording *r, hr_error *err)
{
    hr_rec_reader rd;
    hr_rec_reader_init(&rd, r);
    int rc = hr_rec_feed(&rd, data, len, err);
    return rc ? rc : hr_rec_finish(&rd, err);
}

double hr_rec_max(const hr_recording *r, hr_rec_field f)
{
    double m = NAN;
    for (size_t i = 0; i < r->nsamples; i++)
        m = maxd(m, r->samples[i].v[f]);
    return m;
}
