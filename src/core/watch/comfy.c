/* headroom — watch --comfyui: ComfyUI's answers and messages, and the attribution (comfy.h). */
#include "core/watch/comfy.h"

#include "core/base/i18n.h"
#include "core/base/json_parse.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

static int parse(const char *body, size_t n, const char *what, hr_json_doc **doc, hr_error *err)
{
    hr_json_limits lim = { .max_bytes = HR_COMFY_BODY_MAX, .max_depth = 64, .max_values = (size_t)2 << 20 };
    hr_error e = { 0 };
    int rc = hr_json_parse(body, n, &lim, doc, &e);
    if (rc != 0)
        return hr_error_set(err, rc, "%s: %s", what, e.msg);
    return 0;
}

static void copy_str(char *out, size_t cap, const hr_json_value *v)
{
    const char *s = hr_json_string(v, NULL);
    hr_strlcpy(out, s ? s : "", cap);
    /* one line: nothing a hostile server sends can start a line or steer the terminal */
    hr_text_one_line(out);
}

/* X.localserver */
bool hr_comfy_cmdline_is_comfyui(const char *cmdline)
{
    return hr_str_icontains(cmdline, "main.py") || hr_str_icontains(cmdline, "comfy");
}

bool hr_comfy_host_is_local(const char *host)
{
    return hr_str_ieq(host, "localhost") || strcmp(host, "::1") == 0 || strncmp(host, "127.", 4) == 0;
}

static int64_t num(const hr_json_value *v)
{
    int64_t x;
    if (hr_json_as_i64(v, &x) == 0 && x >= 0)
        return x;
    double d;
    if (hr_json_as_double(v, &d) == 0 && d >= 0 && d < 9.0e18)
        return (int64_t)d;
    return HR_W_UNKNOWN;
}

static bool absolute(const char *p)
{
    return p[0] == '/' || p[0] == '\\' ||
           (((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/'));
}

/* ComfyUI's folder from its argv: --base-directory DIR (or =DIR), else an absolute
 * .../main.py's folder. Anything relative is relative to a working folder not known here. */
static void base_dir_of(const hr_json_value *argv, char *out, size_t cap)
{
    out[0] = '\0';
    const hr_json_value *a0 = hr_json_first(argv);
    for (const hr_json_value *a = a0; a; a = hr_json_next(a)) {
        const char *s = hr_json_string(a, NULL);
        if (!s)
            continue;
        if (strcmp(s, "--base-directory") == 0 || strcmp(s, "--base_directory") == 0) {
            copy_str(out, cap, hr_json_next(a));
        } else if (strncmp(s, "--base-directory=", 17) == 0) {
            hr_strlcpy(out, s + 17, cap);
        }
    }
    if (out[0] && absolute(out))
        return;
    out[0] = '\0';
    const char *p = hr_json_string(a0, NULL);
    size_t n = p ? strlen(p) : 0;
    if (n > 8 && n < cap && absolute(p) && strcmp(p + n - 7, "main.py") == 0 && (p[n - 8] == '/' || p[n - 8] == '\\')) {
        memcpy(out, p, n - 8);
        out[n - 8] = '\0';
    }
    hr_text_one_line(out);
}

int hr_comfy_parse_stats(const char *body, size_t n, hr_comfy_stats *o, hr_error *err)
{
    memset(o, 0, sizeof *o);
    o->ram_total = o->ram_free = HR_W_UNKNOWN;
    hr_json_doc *doc;
    int rc = parse(body, n, "/system_stats", &doc, err);
    if (rc)
        return rc;
    const hr_json_value *root = hr_json_root(doc);
    const hr_json_value *sys = hr_json_get(root, "system");
    if (!hr_json_is(root, HR_JSON_OBJECT) || !hr_json_is(sys, HR_JSON_OBJECT)) {
        hr_json_free(doc);
        return hr_error_set(err, HR_EPARSE, HR_T("/system_stats: no \"system\" object (not ComfyUI?)"));
    }
    copy_str(o->version, sizeof o->version, hr_json_get(sys, "comfyui_version"));
    copy_str(o->os, sizeof o->os, hr_json_get(sys, "os"));
    o->ram_total = num(hr_json_get(sys, "ram_total"));
    o->ram_free = num(hr_json_get(sys, "ram_free"));
    for (const hr_json_value *d = hr_json_first(hr_json_get(root, "devices")); d && o->ndev < HR_COMFY_DEVICES_MAX;
         d = hr_json_next(d)) {
        if (!hr_json_is(d, HR_JSON_OBJECT))
            continue;
        hr_comfy_device *x = &o->dev[o->ndev++];
        copy_str(x->name, sizeof x->name, hr_json_get(d, "name"));
        copy_str(x->type, sizeof x->type, hr_json_get(d, "type"));
        x->vram_total = num(hr_json_get(d, "vram_total"));
        x->vram_free = num(hr_json_get(d, "vram_free"));
    }
    base_dir_of(hr_json_get(sys, "argv"), o->base_dir, sizeof o->base_dir);
    hr_json_free(doc);
    return 0;
}

int hr_comfy_parse_queue(const char *body, size_t n, hr_comfy_queue *o, hr_error *err)
{
    o->running = false;
    o->prompt_id[0] = o->client_id[0] = '\0';
    o->pending = 0;
    o->n_nodes = 0;
    hr_json_doc *doc;
    int rc = parse(body, n, "/queue", &doc, err);
    if (rc)
        return rc;
    const hr_json_value *root = hr_json_root(doc);
    const hr_json_value *run = hr_json_get(root, "queue_running");
    if (!hr_json_is(run, HR_JSON_ARRAY)) {
        hr_json_free(doc);
        return hr_error_set(err, HR_EPARSE, HR_T("/queue: no \"queue_running\" list (not ComfyUI?)"));
    }
    o->pending = (int)hr_json_count(hr_json_get(root, "queue_pending"));
    const hr_json_value *item = hr_json_at(run, 0);
    const char *id = hr_json_string(hr_json_at(item, 1), NULL);
    if (id && *id) {
        o->running = true;
        copy_str(o->prompt_id, sizeof o->prompt_id, hr_json_at(item, 1));
        copy_str(o->client_id, sizeof o->client_id, hr_json_get(hr_json_at(item, 3), "client_id"));
        for (const hr_json_value *m = hr_json_first(hr_json_at(item, 2)); m && o->n_nodes < HR_COMFY_NODES_MAX;
             m = hr_json_next(m)) {
            const char *key = hr_json_key(m);
            if (!key)
                break; /* the prompt is not an object */
            hr_comfy_node *nd = &o->nodes[o->n_nodes++];
            hr_strlcpy(nd->id, key, sizeof nd->id);
            copy_str(nd->class_type, sizeof nd->class_type, hr_json_get(m, "class_type"));
        }
    }
    hr_json_free(doc);
    return 0;
}

const char *hr_comfy_class_of(const hr_comfy_queue *q, const char *node)
{
    for (size_t i = 0; i < q->n_nodes; i++)
        if (strcmp(q->nodes[i].id, node) == 0)
            return q->nodes[i].class_type[0] ? q->nodes[i].class_type : NULL;
    return NULL;
}

int hr_comfy_parse_history(const char *body, size_t n, const char *prompt_id, hr_comfy_history *o, hr_error *err)
{
    memset(o, 0, sizeof *o);
    hr_json_doc *doc;
    int rc = parse(body, n, "/history", &doc, err);
    if (rc)
        return rc;
    const hr_json_value *root = hr_json_root(doc);
    if (!hr_json_is(root, HR_JSON_OBJECT)) {
        hr_json_free(doc);
        return hr_error_set(err, HR_EPARSE, HR_T("/history: not an object"));
    }
    const hr_json_value *h = hr_json_get(root, prompt_id);
    if (h) {
        o->found = true;
        const hr_json_value *st = hr_json_get(h, "status");
        copy_str(o->status, sizeof o->status, hr_json_get(st, "status_str"));
        bool b = false;
        if (hr_json_as_bool(hr_json_get(st, "completed"), &b) == 0)
            o->completed = b;
        for (const hr_json_value *m = hr_json_first(hr_json_get(st, "messages")); m; m = hr_json_next(m)) {
            const char *ev = hr_json_string(hr_json_at(m, 0), NULL);
            const hr_json_value *d = hr_json_at(m, 1);
            if (!ev)
                continue;
            if (strcmp(ev, "execution_cached") == 0) {
                o->cached += (int)hr_json_count(hr_json_get(d, "nodes"));
            } else if (strcmp(ev, "execution_error") == 0 || strcmp(ev, "execution_interrupted") == 0) {
                o->interrupted = ev[10] == 'i';
                copy_str(o->error_node, sizeof o->error_node, hr_json_get(d, "node_id"));
                copy_str(o->error_class, sizeof o->error_class, hr_json_get(d, "node_type"));
                copy_str(o->exception, sizeof o->exception, hr_json_get(d, "exception_message"));
            }
        }
    }
    hr_json_free(doc);
    return 0;
}

int hr_comfy_parse_msg(const char *text, size_t n, hr_comfy_msg *o, hr_error *err)
{
    memset(o, 0, sizeof *o);
    o->queue_remaining = -1;
    hr_json_doc *doc;
    int rc = parse(text, n, "websocket", &doc, err);
    if (rc)
        return rc;
    const hr_json_value *root = hr_json_root(doc);
    const hr_json_value *d = hr_json_get(root, "data");
    copy_str(o->type_name, sizeof o->type_name, hr_json_get(root, "type"));
    static const struct {
        const char *name;
        hr_cmsg_type type;
    } types[] = {
        { "status", HR_CMSG_STATUS },
        { "execution_start", HR_CMSG_EXECUTION_START },
        { "executing", HR_CMSG_EXECUTING },
        { "executed", HR_CMSG_EXECUTED },
        { "progress", HR_CMSG_PROGRESS },
        { "execution_cached", HR_CMSG_CACHED },
        { "execution_success", HR_CMSG_SUCCESS },
        { "execution_error", HR_CMSG_ERROR },
        { "execution_interrupted", HR_CMSG_INTERRUPTED },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(o->type_name, types[i].name) == 0)
            o->type = types[i].type;
    copy_str(o->prompt_id, sizeof o->prompt_id, hr_json_get(d, "prompt_id"));
    if (o->type == HR_CMSG_STATUS) {
        copy_str(o->sid, sizeof o->sid, hr_json_get(d, "sid"));
        int64_t q = num(hr_json_get(hr_json_get(hr_json_get(d, "status"), "exec_info"), "queue_remaining"));
        o->queue_remaining = q >= 0 && q < INT32_MAX ? (int)q : -1;
    }
    const hr_json_value *node = hr_json_get(d, "node");
    if (!node)
        node = hr_json_get(d, "node_id");
    if (o->type == HR_CMSG_EXECUTING && (!node || hr_json_is(node, HR_JSON_NULL)))
        o->node_null = true;
    copy_str(o->node, sizeof o->node, node);
    copy_str(o->node_type, sizeof o->node_type, hr_json_get(d, "node_type"));
    copy_str(o->exception, sizeof o->exception, hr_json_get(d, "exception_message"));
    hr_json_free(doc);
    return 0;
}

/* ---- attribution ---- */
void hr_comfy_track_init(hr_comfy_track *t)
{
    memset(t, 0, sizeof *t);
}

static void span_start(hr_cspan *sp, const hr_wsample *s)
{
    sp->active = true;
    sp->t_start = s->t_ms;
    sp->ram_start = sp->ram_peak = s->ram_used;
    sp->commit_start = sp->commit_peak = s->commit;
    sp->rss_start = sp->rss_peak = s->proc_rss;
}

static void peak(int64_t *p, int64_t v)
{
    if (v != HR_W_UNKNOWN && (*p == HR_W_UNKNOWN || v > *p))
        *p = v;
}

static void span_sample(hr_cspan *sp, const hr_wsample *s)
{
    if (!sp->active)
        return;
    peak(&sp->ram_peak, s->ram_used);
    peak(&sp->commit_peak, s->commit);
    peak(&sp->rss_peak, s->proc_rss);
}

static int64_t diff(int64_t a, int64_t b)
{
    return a == HR_W_UNKNOWN || b == HR_W_UNKNOWN ? HR_W_UNKNOWN : a - b;
}

static void span_end(hr_cspan *sp, const hr_wsample *s, hr_comfy_event *e)
{
    span_sample(sp, s);
    e->has_growth = true;
    e->ram_growth = diff(s->ram_used, sp->ram_start);
    e->commit_growth = diff(s->commit, sp->commit_start);
    e->rss_growth = diff(s->proc_rss, sp->rss_start);
    e->ram_peak = sp->ram_peak;
    e->rss_peak = sp->rss_peak;
    e->duration_ms = s->t_ms - sp->t_start;
    sp->active = false;
}

void hr_comfy_track_sample(hr_comfy_track *t, const hr_wsample *s)
{
    span_sample(&t->prompt, s);
    span_sample(&t->nodespan, s);
    span_sample(&t->load, s);
}

static hr_comfy_event *new_event(hr_comfy_event *e, hr_cev_kind k, const char *source, const char *prompt_id)
{
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->source = source;
    e->ram_growth = e->commit_growth = e->rss_growth = HR_W_UNKNOWN;
    e->ram_peak = e->rss_peak = e->duration_ms = HR_W_UNKNOWN;
    hr_strlcpy(e->prompt_id, prompt_id ? prompt_id : "", sizeof e->prompt_id);
    return e;
}

static int64_t growth_of(const hr_comfy_event *e)
{
    return e->rss_growth != HR_W_UNKNOWN ? e->rss_growth : e->ram_growth;
}

int hr_comfy_node_end(hr_comfy_track *t, const hr_wsample *s, const char *source, hr_comfy_event ev[2])
{
    if (!t->nodespan.active)
        return 0;
    hr_comfy_event *e = new_event(&ev[0], HR_CEV_NODE_END, source, t->prompt_id);
    hr_strlcpy(e->node, t->node, sizeof e->node);
    hr_strlcpy(e->class_type, t->class_type, sizeof e->class_type);
    span_end(&t->nodespan, s, e);
    int64_t g = growth_of(e);
    if (g != HR_W_UNKNOWN && (!t->have_heaviest || g > growth_of(&t->heaviest))) {
        t->heaviest = *e;
        t->have_heaviest = true;
    }
    t->node[0] = '\0';
    return 1;
}

int hr_comfy_prompt_start(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *source,
                          hr_comfy_event ev[2])
{
    if (t->prompt.active && strcmp(t->prompt_id, prompt_id) == 0)
        return 0;
    int k = 0;
    if (t->prompt.active)
        k = hr_comfy_prompt_end(t, s, t->prompt_id, source, "", ev);
    hr_strlcpy(t->prompt_id, prompt_id, sizeof t->prompt_id);
    span_start(&t->prompt, s);
    new_event(&ev[k], HR_CEV_PROMPT_START, source, prompt_id);
    return k + 1;
}

int hr_comfy_prompt_end(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *source,
                        const char *how, hr_comfy_event ev[2])
{
    if (!t->prompt.active || (prompt_id && *prompt_id && strcmp(prompt_id, t->prompt_id) != 0))
        return 0;
    int k = hr_comfy_node_end(t, s, source, ev);
    hr_comfy_event *e = new_event(&ev[k], HR_CEV_PROMPT_END, source, t->prompt_id);
    hr_strlcpy(e->text, how ? how : "", sizeof e->text);
    span_end(&t->prompt, s, e);
    t->prompt_id[0] = '\0';
    return k + 1;
}

int hr_comfy_node_start(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *node,
                        const char *class_type, const char *source, hr_comfy_event ev[2])
{
    if (t->nodespan.active && strcmp(t->node, node) == 0)
        return 0;
    int k = hr_comfy_node_end(t, s, source, ev);
    if (prompt_id && *prompt_id && !t->prompt.active) {
        hr_strlcpy(t->prompt_id, prompt_id, sizeof t->prompt_id);
        span_start(&t->prompt, s);
    }
    hr_comfy_event *e = new_event(&ev[k], HR_CEV_NODE_START, source, t->prompt_id);
    hr_strlcpy(t->node, node, sizeof t->node);
    hr_strlcpy(t->class_type, class_type ? class_type : "", sizeof t->class_type);
    hr_strlcpy(e->node, t->node, sizeof e->node);
    hr_strlcpy(e->class_type, t->class_type, sizeof e->class_type);
    t->node_source = source;
    span_start(&t->nodespan, s);
    return k + 1;
}

int hr_comfy_console(hr_comfy_track *t, const hr_wsample *s, const char *line, size_t n, hr_comfy_event ev[2])
{
    static const char req[] = "Requested to load ";
    if (n >= sizeof req - 1 && memcmp(line, req, sizeof req - 1) == 0) {
        size_t k = n < sizeof t->load_text - 1 ? n : sizeof t->load_text - 1;
        memcpy(t->load_text, line, k);
        t->load_text[k] = '\0';
        span_start(&t->load, s);
        hr_strlcpy(t->load_node, t->nodespan.active ? t->node : "", sizeof t->load_node);
        hr_strlcpy(t->load_class, t->nodespan.active ? t->class_type : "", sizeof t->load_class);
        return 0;
    }
    if (t->load.active && ((n >= 17 && memcmp(line, "loaded completely", 17) == 0) ||
                           (n >= 16 && memcmp(line, "loaded partially", 16) == 0))) {
        hr_comfy_event *e = new_event(&ev[0], HR_CEV_MODEL_LOAD, "console", t->prompt_id);
        /* ComfyUI's own words (its console is English) */
        static const char done_c[] = "loaded completely", done_p[] = "loaded partially";
        snprintf(e->text, sizeof e->text, "%s (%s)", t->load_text + sizeof req - 1, line[7] == 'c' ? done_c : done_p);
        hr_text_one_line(e->text);
        span_end(&t->load, s, e);
        if (t->load_node[0]) {
            hr_strlcpy(e->node, t->load_node, sizeof e->node);
            hr_strlcpy(e->class_type, t->load_class, sizeof e->class_type);
        } else if (t->nodespan.active) {
            hr_strlcpy(e->node, t->node, sizeof e->node);
            hr_strlcpy(e->class_type, t->class_type, sizeof e->class_type);
        }
        return 1;
    }
    return 0;
}

static void signed_gb(int64_t v, char *out, size_t n)
{
    char g[32];
    hr_size_gb((uint64_t)(v < 0 ? -v : v), g, sizeof g);
    snprintf(out, n, "%s%s", v < 0 ? "-" : "+", g);
}

void hr_comfy_event_words(const hr_comfy_event *e, hr_lang lang, char *out, size_t n)
{
    if (hr_msg_is_set(&e->said))
        hr_msg_format(&e->said, lang, out, n);
    else
        snprintf(out, n, "%s", e->text);
}

void hr_comfy_event_text(const hr_comfy_event *e, char *out, size_t n)
{
    char what[200];
    if (e->kind == HR_CEV_NODE_END || e->kind == HR_CEV_NODE_START || e->kind == HR_CEV_LIKELY)
        snprintf(what, sizeof what, HR_T("node %s %s"), e->node, e->class_type[0] ? e->class_type : "?");
    else if (e->kind == HR_CEV_MODEL_LOAD)
        snprintf(what, sizeof what, HR_T("model load %s"), e->text);
    else
        snprintf(what, sizeof what, HR_T("prompt %.8s"), e->prompt_id);
    if (!e->has_growth) {
        snprintf(out, n, "%s", what);
        return;
    }
    /* the process tree's resident size when followed, else the machine's RAM in use */
    bool rss = e->rss_growth != HR_W_UNKNOWN;
    int64_t g = rss ? e->rss_growth : e->ram_growth;
    int64_t pk = rss ? e->rss_peak : e->ram_peak;
    char gs[40] = "?", ps[32] = "?";
    if (g != HR_W_UNKNOWN)
        signed_gb(g, gs, sizeof gs);
    if (pk != HR_W_UNKNOWN)
        hr_size_gb((uint64_t)pk, ps, sizeof ps);
    snprintf(out, n, rss ? HR_T("%s: %s RSS, peak %s (%.1f s)") : HR_T("%s: %s RAM, peak %s (%.1f s)"), what, gs, ps,
             (double)e->duration_ms / 1000.0);
}

static const char *kind_name(hr_cev_kind k)
{
    switch (k) {
    case HR_CEV_PROMPT_START: return "prompt-start";
    case HR_CEV_PROMPT_END: return "prompt-end";
    case HR_CEV_NODE_START: return "start";
    case HR_CEV_NODE_END: return "end";
    case HR_CEV_MODEL_LOAD: return "model-load";
    case HR_CEV_LIKELY: return "likely-node";
    }
    return "?";
}

static void ji(hr_json_writer *w, const char *key, int64_t v)
{
    if (v == HR_W_UNKNOWN)
        hr_json_null(w, key);
    else
        hr_json_i64(w, key, v);
}

void hr_rec_node_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_comfy_event *e)
{
    hr_json_writer w;
    hr_json_init(&w, out, false);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "type", "node");
    hr_json_i64(&w, "t", t_ms - t0);
    hr_json_i64(&w, "time", time_ms);
    hr_json_str(&w, "event", kind_name(e->kind));
    hr_json_str(&w, "prompt_id", e->prompt_id[0] ? e->prompt_id : NULL);
    hr_json_str(&w, "node", e->node[0] ? e->node : NULL);
    hr_json_str(&w, "class_type", e->class_type[0] ? e->class_type : NULL);
    hr_json_str(&w, "source", e->source);
    char text[400];
    hr_comfy_event_words(e, HR_LANG_EN, text, sizeof text); /* a recording is English */
    if (text[0])
        hr_json_str(&w, "text", text);
    if (e->has_growth) {
        ji(&w, "ram_growth", e->ram_growth);
        ji(&w, "commit_growth", e->commit_growth);
        ji(&w, "rss_growth", e->rss_growth);
        ji(&w, "peak_ram_used", e->ram_peak);
        ji(&w, "peak_rss", e->rss_peak);
        ji(&w, "duration_ms", e->duration_ms);
    }
    hr_json_end_object(&w);
    (void)hr_json_finish(&w);
}
