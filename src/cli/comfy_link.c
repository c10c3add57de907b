/* headroom — watch --comfyui / --protect (comfy_link.h). */
#include "comfy_link.h"

#include "cli_util.h"
#include "exit_status.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/estimate/estimate_workflow.h"

#include <stdlib.h>
#include <string.h>

#define RETRY_MS      10000
/* The most the link reads of one answer: a running prompt's /queue (its workflow) and its
 * /history entry are tens of kB; a server that sends more is refused, said once, so that
 * watch stays a few MB resident whatever a server sends (the reads stop at the cap). */
#define LINK_BODY_MAX ((size_t)2 << 20)
static const char k_free_body[] = "{\"unload_models\":true,\"free_memory\":true}";

static int req_timeout(const hr_comfy_link *c)
{
    int64_t t = c->interval_ms < 1000 ? 1000 : c->interval_ms;
    return (int)(t > 2000 ? 2000 : t);
}

/* Every line the link writes passes here: a thread left to the process's end (mute) writes
 * nothing after the monitor closed. */
static void emit_say(hr_comfy_link *c, bool to_stderr, const char *text)
{
    hr_lock_take(c->lock);
    if (!c->mute)
        hr_monitor_say(c->m, to_stderr, text);
    hr_lock_give(c->lock);
}

static void emit_record(hr_comfy_link *c, const hr_buf *line)
{
    hr_lock_take(c->lock);
    if (!c->mute)
        hr_monitor_record(c->m, line);
    hr_lock_give(c->lock);
}

static void say(hr_comfy_link *c, const char *fmt, ...) HR_PRINTF(2, 3);
static void say(hr_comfy_link *c, const char *fmt, ...)
{
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit_say(c, false, text);
}

/* A recording line of this link: its type and times first, as every line of the recording. */
static void record_begin(hr_comfy_link *c, hr_json_writer *w, const char *type)
{
    hr_monitor *m = c->m;
    hr_buf_reset(&c->rec);
    hr_json_init(w, &c->rec, false);
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "type", type);
    hr_json_i64(w, "t", hr_platform_mono_ms() - m->t0);
    hr_json_i64(w, "time", hr_platform_wall_ms());
}

static void record_end(hr_comfy_link *c, hr_json_writer *w)
{
    hr_json_end_object(w);
    (void)hr_json_finish(w);
    emit_record(c, &c->rec);
}

static void record_event(hr_comfy_link *c, const hr_comfy_event *e)
{
    hr_monitor *m = c->m;
    hr_buf_reset(&c->rec);
    hr_rec_node_line(&c->rec, m->t0, hr_platform_mono_ms(), hr_platform_wall_ms(), e);
    emit_record(c, &c->rec);
}

static void show_events(hr_comfy_link *c, const hr_comfy_event *ev, int n)
{
    for (int i = 0; i < n; i++) {
        const hr_comfy_event *e = &ev[i];
        record_event(c, e);
        if (e->kind == HR_CEV_NODE_START)
            continue; /* the end says it all, with the growth */
        char text[400];
        if (e->kind == HR_CEV_PROMPT_START) {
            snprintf(text, sizeof text, HR_T("prompt %.8s started"), e->prompt_id);
        } else {
            hr_comfy_event_text(e, text, sizeof text);
            char how[400];
            hr_comfy_event_words(e, hr_lang_get(), how, sizeof how);
            if (e->kind == HR_CEV_PROMPT_END && how[0]) {
                size_t k = strlen(text);
                snprintf(text + k, sizeof text - k, " — %s", how);
            }
            if (e->kind == HR_CEV_PROMPT_END && c->likely_node[0] && strcmp(e->prompt_id, c->likely_prompt) == 0) {
                size_t k = strlen(text);
                snprintf(text + k, sizeof text - k, HR_T("; likely node %s %s (the estimate's profile)"),
                         c->likely_node, c->likely_class);
            }
        }
        say(c, "%s", text);
    }
}

/* the freshest sample the sampling loop handed over, for the edges of a span (the link
 * never samples itself: the sampler is the loop's) */
static const hr_wsample *fresh(hr_comfy_link *c)
{
    return &c->now;
}

static void went_down(hr_comfy_link *c, const hr_error *err)
{
    if (c->ws_up)
        hr_ws_close(&c->ws);
    c->ws_up = false;
    c->sid[0] = '\0';
    hr_strlcpy(c->last_error, err->msg, sizeof c->last_error);
    /* run: the server ends with the child, and the verdict says how */
    if (strcmp(c->mode, "run") != 0 && (c->up || !c->reported_down))
        hr_cli_error(HR_T("%s: ComfyUI at %s: %s; watching memory without it (trying again every "
                          "10 s)"),
                     c->mode, c->url_text, err->msg);
    c->up = false;
    c->reported_down = true;
    c->next_try = hr_platform_mono_ms() + RETRY_MS;
}

static void record_comfyui(hr_comfy_link *c, const hr_comfy_stats *st)
{
    hr_json_writer w;
    record_begin(c, &w, "comfyui");
    hr_json_str(&w, "url", c->url_text);
    hr_json_str(&w, "version", st->version[0] ? st->version : NULL);
    hr_json_str(&w, "os", st->os[0] ? st->os : NULL);
    if (st->ram_total >= 0)
        hr_json_i64(&w, "ram_total", st->ram_total);
    else
        hr_json_null(&w, "ram_total");
    hr_json_begin_array(&w, "devices");
    for (int i = 0; i < st->ndev; i++) {
        hr_json_begin_object(&w, NULL);
        hr_json_str(&w, "name", st->dev[i].name);
        hr_json_str(&w, "type", st->dev[i].type);
        if (st->dev[i].vram_total >= 0)
            hr_json_i64(&w, "vram_total", st->dev[i].vram_total);
        else
            hr_json_null(&w, "vram_total");
        if (st->dev[i].vram_free >= 0)
            hr_json_i64(&w, "vram_free", st->dev[i].vram_free);
        else
            hr_json_null(&w, "vram_free");
        hr_json_end_object(&w);
    }
    hr_json_end_array(&w);
    record_end(c, &w);
}

/* run: the server did not come up (the bound passed, or the command ended first) */
static void record_down(hr_comfy_link *c, int64_t waited_ms, bool ended)
{
    hr_json_writer w;
    record_begin(c, &w, "comfyui-down");
    hr_json_str(&w, "url", c->url_text);
    hr_json_i64(&w, "waited_ms", waited_ms);
    hr_json_bool(&w, "command_ended", ended);
    hr_json_str(&w, "error", c->last_error[0] ? c->last_error : NULL);
    record_end(c, &w);
}

static void try_connect(hr_comfy_link *c)
{
    hr_error err = { 0 };
    hr_http_response r;
    int rc = hr_http_do(&c->url, "GET", "/system_stats", NULL, req_timeout(c), &c->resp, &r, &err);
    if (rc == 0 && r.status != 200)
        rc = hr_error_set(&err, HR_EPARSE, HR_T("GET /system_stats answered HTTP %d (not ComfyUI?)"), r.status);
    hr_comfy_stats st;
    if (rc == 0)
        rc = hr_comfy_parse_stats(r.body, r.body_len, &st, &err);
    if (rc != 0) {
        went_down(c, &err);
        return;
    }
    c->up = true;
    c->reported_down = false;
    if (!c->ever_up)
        c->up_after_ms = hr_platform_mono_ms() - c->wait_start;
    c->ever_up = true;
    c->waiting = false;
    record_comfyui(c, &st);
    c->ram_total = st.ram_total;
    c->vram_total = -1;
    for (int i = 0; i < st.ndev; i++)
        if (st.dev[i].vram_total > c->vram_total && strcmp(st.dev[i].type, "cpu") != 0)
            c->vram_total = st.dev[i].vram_total;
    hr_strlcpy(c->version, st.version, sizeof c->version);
    char line[600];
    int k = snprintf(line, sizeof line, HR_T("ComfyUI %s at %s"), st.version[0] ? st.version : "?", c->url_text);
    for (int i = 0; i < st.ndev && k > 0 && (size_t)k < sizeof line; i++) {
        char tot[32] = "?", fr[32] = "?";
        if (st.dev[i].vram_total >= 0)
            hr_size_gb((uint64_t)st.dev[i].vram_total, tot, sizeof tot);
        if (st.dev[i].vram_free >= 0)
            hr_size_gb((uint64_t)st.dev[i].vram_free, fr, sizeof fr);
        k += snprintf(line + k, sizeof line - (size_t)k, HR_T("; %s: VRAM %s, %s free"),
                      st.dev[i].name[0] ? st.dev[i].name : st.dev[i].type, tot, fr);
    }
    say(c, "%s", line);
    /* our own client id: the server makes one up (never another client's) */
    if (hr_ws_open(&c->ws, &c->url, "/ws", req_timeout(c), &err) == 0) {
        c->ws_up = true;
    } else {
        say(c, HR_T("no websocket (%s): following the queue only"), err.msg);
    }
    c->queue_dirty = true;
}

static void poll_history(hr_comfy_link *c, const char *prompt_id, hr_msg *how)
{
    char path[HR_COMFY_ID_MAX + 16];
    snprintf(path, sizeof path, "/history/%s", prompt_id);
    hr_error err = { 0 };
    hr_http_response r;
    hr_comfy_history h;
    how->fmt = NULL;
    if (hr_http_do(&c->url, "GET", path, NULL, req_timeout(c), &c->resp, &r, &err) != 0 || r.status != 200 ||
        hr_comfy_parse_history(r.body, r.body_len, prompt_id, &h, &err) != 0 || !h.found)
        return;
    if (h.error_node[0]) {
        const char *cls = h.error_class[0] ? h.error_class : "?";
        if (h.interrupted)
            hr_msg_set(how, HR_N("interrupted at node %s %s (history)"), h.error_node, cls);
        else
            hr_msg_set(how, HR_N("error at node %s %s: %s (history)"), h.error_node, cls, h.exception);
    } else if (h.status[0]) {
        hr_msg_set(how, HR_N("%s, %d nodes from the cache (history)"), h.status, h.cached);
    }
}

static void tell_likely(hr_comfy_link *c);

static void tell_owner(hr_comfy_link *c)
{
    hr_comfy_queue *q = c->queue;
    if (strcmp(c->owner_told, q->prompt_id) == 0)
        return;
    hr_strlcpy(c->owner_told, q->prompt_id, sizeof c->owner_told);
    if (q->client_id[0] && strcmp(q->client_id, c->sid) != 0) {
        say(c,
            HR_T("prompt %.8s (%zu nodes) belongs to another client (a browser tab): ComfyUI "
                 "tells only that client which node runs; headroom measures the prompt as a "
                 "whole and names the node when the history does"),
            q->prompt_id, q->n_nodes);
        tell_likely(c);
    } else
        say(c,
            HR_T("prompt %.8s (%zu nodes): its node messages reach every client; headroom "
                 "measures each node"),
            q->prompt_id, q->n_nodes);
}

/* how_given: ComfyUI's own word ("success", "") or, in said, headroom's words (kept as data:
 * the recording says them in English, the screen in the user's language) */
static void prompt_ended(hr_comfy_link *c, const char *prompt_id, const char *source, const char *how_given,
                         const hr_msg *said)
{
    hr_msg how = { 0 };
    if (said)
        how = *said;
    char id[HR_COMFY_ID_MAX];
    hr_strlcpy(id, prompt_id && *prompt_id ? prompt_id : c->track.prompt_id, sizeof id);
    if (id[0]) {
        hr_msg hist;
        poll_history(c, id, &hist);
        if (hr_msg_is_set(&hist))
            how = hist;
    }
    hr_comfy_event ev[2];
    int n = hr_comfy_prompt_end(&c->track, fresh(c), id, source, hr_msg_is_set(&how) ? "" : how_given, ev);
    if (n > 0 && ev[n - 1].kind == HR_CEV_PROMPT_END && hr_msg_is_set(&how))
        ev[n - 1].said = how;
    show_events(c, ev, n);
}

/* The estimate's per-node profile of the running prompt (the /queue body in c->resp), for
 * a prompt another client owns: its node messages never reach headroom, so the node to blame
 * when memory climbs is the one whose step adds the most RAM by the estimate. */
static void estimate_prompt(hr_comfy_link *c, const char *body, size_t n)
{
    hr_strlcpy(c->likely_prompt, c->queue->prompt_id, sizeof c->likely_prompt);
    c->likely_node[0] = c->vram_node[0] = '\0';
    c->likely_said = false;
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_est_input *in = calloc(1, sizeof *in);
    hr_estimate *e = malloc(sizeof *e);
    hr_est_wf_result res;
    hr_error err = { 0 };
    int r = wf && in && e ? hr_workflow_parse("/queue", body, n, wf, &err) : HR_ENOMEM;
    if (r == 0) {
        r = hr_est_from_workflow(wf, in, &res, &err);
        hr_workflow_free(wf);
    }
    if (r == 0) {
        hr_est_machine m;
        hr_est_machine_init(&m);
        m.os = hr_platform_os();
        if (c->ram_total > 0)
            m.ram_bytes = (uint64_t)c->ram_total;
        if (c->vram_total >= 0)
            m.vram_bytes = (uint64_t)c->vram_total;
        int a = 0, b = 0, d = 0;
        if (sscanf(c->version, "%d.%d.%d", &a, &b, &d) == 3) {
            m.version[0] = a, m.version[1] = b, m.version[2] = d;
            m.version_known = true;
        }
        hr_comfy_args args;
        memset(&args, 0, sizeof args);
        r = hr_estimate_run(in, &m, &args, e, &err);
    }
    if (r == 0) {
        uint64_t prev = 0, best = 0;
        for (int i = 0; i < e->step_count; i++) {
            const hr_est_step *st = &e->step[i];
            if (st->ram_bytes > prev && st->ram_bytes - prev > best) {
                best = st->ram_bytes - prev;
                hr_strlcpy(c->likely_node, st->node_id, sizeof c->likely_node);
                hr_strlcpy(c->likely_class, st->class_type, sizeof c->likely_class);
            }
            prev = st->ram_bytes;
        }
        c->likely_ram = (int64_t)best;
        hr_strlcpy(c->vram_node, e->vram.node_id, sizeof c->vram_node);
        hr_strlcpy(c->vram_class, e->vram.class_type, sizeof c->vram_class);
        c->vram_peak = (int64_t)e->vram.value;
    }
    free(wf);
    free(in);
    free(e);
}

/* Said with the ownership, and in the recording as a node line (source "estimate"). */
static void tell_likely(hr_comfy_link *c)
{
    if (!c->likely_node[0] || strcmp(c->likely_prompt, c->queue->prompt_id) != 0)
        return;
    char ram[32], vram[32];
    hr_size_gb((uint64_t)c->likely_ram, ram, sizeof ram);
    hr_size_gb((uint64_t)c->vram_peak, vram, sizeof vram);
    hr_comfy_event ev;
    memset(&ev, 0, sizeof ev);
    hr_msg_set(&ev.said, HR_N("the estimate's profile: +%s RAM at this node"), ram);
    ev.kind = HR_CEV_LIKELY;
    ev.source = "estimate";
    hr_strlcpy(ev.prompt_id, c->likely_prompt, sizeof ev.prompt_id);
    hr_strlcpy(ev.node, c->likely_node, sizeof ev.node);
    hr_strlcpy(ev.class_type, c->likely_class, sizeof ev.class_type);
    ev.ram_growth = ev.commit_growth = ev.rss_growth = HR_W_UNKNOWN;
    ev.ram_peak = ev.rss_peak = HR_W_UNKNOWN;
    record_event(c, &ev);
    if (c->vram_node[0])
        say(c,
            HR_T("by the estimate's profile of its workflow, RAM grows most at node %s %s (+%s) "
                 "and VRAM peaks at node %s %s (%s): node %s is the likely one when memory "
                 "climbs"),
            c->likely_node, c->likely_class, ram, c->vram_node, c->vram_class, vram, c->likely_node);
    else
        say(c,
            HR_T("by the estimate's profile of its workflow, RAM grows most at node %s %s (+%s): "
                 "the likely one when memory climbs"),
            c->likely_node, c->likely_class, ram);
}

static void poll_queue(hr_comfy_link *c)
{
    c->last_queue_poll = hr_platform_mono_ms();
    c->queue_dirty = false;
    hr_error err = { 0 };
    hr_http_response r;
    int rc = hr_http_do(&c->url, "GET", "/queue", NULL, req_timeout(c), &c->resp, &r, &err);
    if (rc == 0 && r.status != 200)
        rc = hr_error_set(&err, HR_EPARSE, "GET /queue: HTTP %d", r.status);
    if (rc == 0)
        rc = hr_comfy_parse_queue(r.body, r.body_len, c->queue, &err);
    if (rc == HR_EPARSE || rc == HR_ETOOBIG) {
        if (!c->told_big || rc == HR_EPARSE)
            hr_cli_error("%s: GET /queue: %s", c->mode, err.msg);
        c->told_big = c->told_big || rc == HR_ETOOBIG;
        return;
    }
    if (rc == HR_EBUSY && c->ws_up) {
        /* a server busy with its own work (a node filling memory answers late): the
         * websocket still stands, so ask again at the next sample */
        c->queue_dirty = true;
        return;
    }
    if (rc != 0) {
        went_down(c, &err);
        return;
    }
    hr_comfy_track *t = &c->track;
    if (c->queue->running && c->queue->client_id[0] && strcmp(c->queue->client_id, c->sid) != 0 &&
        strcmp(c->likely_prompt, c->queue->prompt_id) != 0)
        estimate_prompt(c, r.body, r.body_len); /* before the history reuses the buffer */
    if (c->queue->running) {
        if (!t->prompt.active || strcmp(t->prompt_id, c->queue->prompt_id) != 0) {
            if (t->prompt.active)
                prompt_ended(c, t->prompt_id, "queue", "", NULL);
            hr_comfy_event ev[2];
            int n = hr_comfy_prompt_start(t, fresh(c), c->queue->prompt_id, "queue", ev);
            show_events(c, ev, n);
        }
        tell_owner(c);
    } else if (t->prompt.active) {
        prompt_ended(c, t->prompt_id, "queue", "", NULL);
    }
}

static void drain_console(hr_comfy_link *c);

static void on_message(void *ctx, int opcode, const char *data, size_t n)
{
    hr_comfy_link *c = ctx;
    /* the child's lines that came before this message are its node's: taken first */
    drain_console(c);
    c->ws_messages++;
    if (opcode != HR_WS_TEXT) {
        c->ws_binary++; /* previews: not ours to read */
        return;
    }
    hr_comfy_msg msg;
    hr_error err = { 0 };
    if (hr_comfy_parse_msg(data, n, &msg, &err) != 0 || msg.type == HR_CMSG_OTHER) {
        c->ws_unknown++;
        return;
    }
    hr_comfy_track *t = &c->track;
    hr_comfy_event ev[2];
    int k = 0;
    switch (msg.type) {
    case HR_CMSG_STATUS:
        if (msg.sid[0])
            hr_strlcpy(c->sid, msg.sid, sizeof c->sid);
        if (msg.queue_remaining >= 0)
            c->queue_remaining = msg.queue_remaining;
        c->queue_dirty = true;
        break;
    case HR_CMSG_EXECUTION_START:
        if (msg.prompt_id[0])
            k = hr_comfy_prompt_start(t, fresh(c), msg.prompt_id, "websocket", ev);
        break;
    case HR_CMSG_EXECUTING:
        if (msg.node_null) {
            show_events(c, ev, hr_comfy_node_end(t, fresh(c), "websocket", ev));
            if (t->prompt.active)
                prompt_ended(c, msg.prompt_id, "websocket", "", NULL);
            break;
        }
        if (msg.prompt_id[0] && strcmp(c->queue->prompt_id, msg.prompt_id) != 0)
            poll_queue(c); /* the class of the node: the prompt's workflow */
        k = hr_comfy_node_start(t, fresh(c), msg.prompt_id, msg.node, hr_comfy_class_of(c->queue, msg.node),
                                "websocket", ev);
        break;
    case HR_CMSG_SUCCESS: prompt_ended(c, msg.prompt_id, "websocket", "success", NULL); break;
    case HR_CMSG_ERROR:
    case HR_CMSG_INTERRUPTED: {
        hr_msg how;
        const char *cls = msg.node_type[0] ? msg.node_type : "?";
        if (msg.type == HR_CMSG_ERROR)
            hr_msg_set(&how, HR_N("error at node %s %s: %s"), msg.node, cls, msg.exception);
        else
            hr_msg_set(&how, HR_N("interrupted at node %s %s"), msg.node, cls);
        prompt_ended(c, msg.prompt_id, "websocket", "", &how);
        break;
    }
    default: break;
    }
    show_events(c, ev, k);
}

/* The websocket failed (closed, or a protocol error such as a masked frame): said once, the
 * queue followed meanwhile, a new one tried every 10 s. */
static void ws_lost(hr_comfy_link *c, const hr_error *err)
{
    c->ws_up = false;
    c->queue_dirty = true;
    c->next_try = hr_platform_mono_ms();
    say(c, HR_T("%s; following the queue only (trying a new websocket every 10 s)"), err->msg);
}

void hr_comfy_url_text(const char *given, char *out, size_t n)
{
    bool digits = *given != '\0';
    for (const char *p = given; *p; p++)
        digits = digits && *p >= '0' && *p <= '9';
    if (digits)
        snprintf(out, n, "http://127.0.0.1:%s", given);
    else if (!strstr(given, "://"))
        snprintf(out, n, "http://%s", given);
    else
        snprintf(out, n, "%s", given);
}

int hr_comfy_link_open(hr_comfy_link *c, hr_monitor *m, const char *url, bool protect, const char *mode,
                       int64_t interval_ms)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->mode = mode;
    c->protect = protect;
    c->interval_ms = interval_ms;
    c->queue_remaining = -1;
    c->ws.s.h = -1;
    hr_error err = { 0 };
    if (hr_url_parse(url, &c->url, &err) != 0) {
        hr_cli_error("%s: --comfyui: %s", mode, err.msg);
        return HR_EXIT_USAGE;
    }
    hr_strlcpy(c->url_text, url, sizeof c->url_text);
    size_t k = strlen(c->url_text);
    while (k > 0 && c->url_text[k - 1] == '/')
        c->url_text[--k] = '\0';
    c->queue = calloc(1, sizeof *c->queue);
    if (!c->queue) {
        hr_cli_error("%s: %s", mode, hr_strerror(HR_ENOMEM));
        return HR_EXIT_FAILURE;
    }
    hr_buf_init(&c->resp, LINK_BODY_MAX);
    hr_buf_init(&c->rec, (size_t)1 << 20);
    c->lock = hr_lock_new();
    if (!c->lock) {
        hr_cli_error("%s: %s", mode, hr_strerror(HR_ENOMEM));
        return HR_EXIT_FAILURE;
    }
    hr_comfy_track_init(&c->track);
    hr_protect_init(&c->policy);
    hr_wsample_init(&c->now);
    return 0;
}

static void record_action(hr_comfy_link *c, const char *action, const char *path, const char *reason, int status,
                          const char *error)
{
    hr_json_writer w;
    record_begin(c, &w, "action");
    hr_json_str(&w, "action", action);
    char u[sizeof c->url_text + 16];
    snprintf(u, sizeof u, "%s%s", c->url_text, path);
    hr_json_str(&w, "url", u);
    if (status > 0)
        hr_json_i64(&w, "status", status);
    else
        hr_json_null(&w, "status");
    if (error)
        hr_json_str(&w, "error", error);
    hr_json_str(&w, "reason", reason);
    hr_json_str(&w, "prompt_id", c->track.prompt_id[0] ? c->track.prompt_id : NULL);
    record_end(c, &w);
}

static void act(hr_comfy_link *c, const char *action, const char *path, const char *body, const char *reason)
{
    hr_error err = { 0 };
    hr_http_response r;
    int rc = hr_http_do(&c->url, "POST", path, body, req_timeout(c), &c->resp, &r, &err);
    if (rc == 0 && (r.status < 200 || r.status > 299))
        rc = hr_error_set(&err, HR_EIO, "HTTP %d", r.status);
    record_action(c, action, path, reason, rc == 0 || r.status ? r.status : 0, rc == 0 ? NULL : err.msg);
    if (strcmp(action, "free") == 0)
        c->free_ok = rc == 0;
    char text[600];
    if (rc != 0)
        snprintf(text, sizeof text, HR_T("--protect: POST %s failed: %s"), path, err.msg);
    else if (strcmp(action, "free") == 0)
        snprintf(text, sizeof text,
                 HR_T("--protect: the limit is near (%s): asked ComfyUI to unload its models and "
                      "free memory (POST /free, HTTP %d)"),
                 reason, r.status);
    else if (!c->free_ok)
        snprintf(text, sizeof text,
                 HR_T("--protect: memory still climbing, and POST /free had failed: interrupted "
                      "the running prompt (POST /interrupt, HTTP %d) so that ComfyUI survives"),
                 r.status);
    else
        snprintf(text, sizeof text,
                 HR_T("--protect: memory still climbing after /free: interrupted the running "
                      "prompt (POST /interrupt, HTTP %d) so that ComfyUI survives"),
                 r.status);
    /* an action is never only in the recording: stderr under --json */
    emit_say(c, c->m->view == HR_MON_JSON, text);
}

/* --protect: the core's policy decides (core/watch/protect.h), the link sends and says. */
static void protect(hr_comfy_link *c, const hr_wsample *s, const hr_warning *wr, size_t nw)
{
    hr_protect_in in = { .t_ms = s->t_ms,
                         .active = c->w_active,
                         .wr = wr,
                         .nw = nw,
                         .fill = c->w_fill,
                         .slope_bps = c->w_slope_bps,
                         .climb_bps = c->w_climb_bps,
                         .interval_ms = c->interval_ms };
    hr_protect_decision d = hr_protect_step(&c->policy, &in);
    if (d.act == HR_PROTECT_FREE)
        act(c, "free", "/free", k_free_body, d.reason);
    else if (d.act == HR_PROTECT_INTERRUPT)
        act(c, "interrupt", "/interrupt", NULL, d.reason);
}

/* On the link's thread: a sample and its warnings. */
static void link_step(hr_comfy_link *c, const hr_wsample *s, const hr_warning *wr, size_t nw)
{
    c->now = *s;
    int64_t now = hr_platform_mono_ms();
    if (!c->up && now >= c->next_try)
        try_connect(c);
    if (c->waiting && !c->up && now - c->wait_start >= c->wait_ms) {
        c->waiting = false;
        record_down(c, now - c->wait_start, false);
        say(c,
            HR_T("ComfyUI did not come up at %s: no answer to GET /system_stats in %lld s (%s); "
                 "watching the command's memory without its prompts (asking again every 10 s)"),
            c->url_text, (long long)(c->wait_ms / 1000), c->last_error[0] ? c->last_error : HR_T("no answer yet"));
    }
    if (c->up && !c->ws_up && now >= c->next_try + RETRY_MS) {
        hr_error err = { 0 };
        if (hr_ws_open(&c->ws, &c->url, "/ws", req_timeout(c), &err) == 0)
            c->ws_up = true;
        c->next_try = now;
    }
    if (c->ws_up) {
        hr_error err = { 0 };
        if (hr_ws_poll(&c->ws, 0, on_message, c, &err) < 0)
            ws_lost(c, &err);
    }
    int64_t every = c->interval_ms < 1000 ? 1000 : c->interval_ms;
    if (c->up && (c->queue_dirty || ((c->queue_remaining != 0 || c->track.prompt.active || !c->ws_up) &&
                                     now - c->last_queue_poll >= every)))
        poll_queue(c);
    hr_comfy_track_sample(&c->track, s);
    /* memory climbs in a prompt whose nodes headroom cannot see: name the estimate's node */
    if (nw > 0 && c->track.prompt.active && !c->track.node[0] && c->likely_node[0] && !c->likely_said &&
        strcmp(c->likely_prompt, c->track.prompt_id) == 0) {
        c->likely_said = true;
        say(c,
            HR_T("memory climbs in prompt %.8s, whose nodes another client follows: likely node "
                 "%s %s (the estimate's profile of its workflow)"),
            c->track.prompt_id, c->likely_node, c->likely_class);
    }
    if (c->protect && c->up)
        protect(c, s, wr, nw);
}

/* On the link's thread: a line of the child's output. */
static void link_console(hr_comfy_link *c, const char *line, size_t n)
{
    hr_comfy_event ev[2];
    bool edge = (n >= 18 && memcmp(line, "Requested to load ", 18) == 0) || (n >= 7 && memcmp(line, "loaded ", 7) == 0);
    if (!edge)
        return;
    int k = hr_comfy_console(&c->track, fresh(c), line, n, ev);
    show_events(c, ev, k);
}

/* run: the child's lines handed over so far, in order, on the link's thread */
static void drain_console(hr_comfy_link *c)
{
    char line[HR_LINK_CONSOLE_MAX][256];
    hr_lock_take(c->lock);
    int n = c->mb.nconsole;
    memcpy(line, c->mb.console, (size_t)n * sizeof line[0]);
    c->mb.nconsole = 0;
    hr_lock_give(c->lock);
    for (int i = 0; i < n; i++)
        link_console(c, line[i], strlen(line[i]));
}

/* The link's thread: what the sampling loop handed over, then the websocket for a slice
 * (each slice bounded in time, whatever the server sends), then the queue when asked. */
static void link_thread(void *arg)
{
    hr_comfy_link *c = arg;
    hr_link_mailbox *in = malloc(sizeof *in);
    if (!in)
        return;
    for (;;) {
        hr_lock_take(c->lock);
        bool stop = c->mb.stop;
        memcpy(in, &c->mb, sizeof *in);
        c->mb.fresh = false;
        hr_lock_give(c->lock);
        if (stop)
            break;
        drain_console(c);
        if (in->fresh) {
            memcpy(c->w_active, in->active, sizeof c->w_active);
            c->w_fill = in->fill;
            c->w_slope_bps = in->slope_bps;
            c->w_climb_bps = in->climb_bps;
            link_step(c, &in->s, in->wr, in->nw);
        }
        if (!c->ws_up) {
            hr_platform_sleep_ms(50);
            continue;
        }
        hr_error err = { 0 };
        if (hr_ws_poll(&c->ws, 50, on_message, c, &err) < 0)
            ws_lost(c, &err);
        if (c->up && c->queue_dirty)
            poll_queue(c);
    }
    free(in);
}

static void link_after(void *ctx, const hr_watch *w, const hr_wsample *s, const hr_warning *wr, size_t nw)
{
    hr_comfy_link *c = ctx;
    if (!c->thread && !c->stopped) {
        c->thread = hr_thread_start(link_thread, c);
        if (!c->thread) {
            c->stopped = true;
            hr_cli_error(HR_T("%s: ComfyUI: no thread for the link; watching memory without it"), c->mode);
        }
    }
    hr_lock_take(c->lock);
    c->mb.s = *s;
    c->mb.nw = nw < HR_WATCH_MAX_WARNINGS ? nw : HR_WATCH_MAX_WARNINGS;
    memcpy(c->mb.wr, wr, c->mb.nw * sizeof *wr);
    memcpy(c->mb.active, w->active, sizeof c->mb.active);
    c->mb.fill = w->fill;
    c->mb.slope_bps = w->slope_bps;
    c->mb.climb_bps = w->cfg.climb_bps;
    c->mb.fresh = true;
    hr_lock_give(c->lock);
}

void hr_comfy_link_attach(hr_comfy_link *c, hr_monitor *m)
{
    m->after = link_after;
    m->after_ctx = c;
}

void hr_comfy_link_console(hr_comfy_link *c, const char *line, size_t n)
{
    bool edge = (n >= 18 && memcmp(line, "Requested to load ", 18) == 0) || (n >= 7 && memcmp(line, "loaded ", 7) == 0);
    if (!edge)
        return;
    hr_lock_take(c->lock);
    if (c->mb.nconsole < HR_LINK_CONSOLE_MAX) {
        size_t k = n < sizeof c->mb.console[0] - 1 ? n : sizeof c->mb.console[0] - 1;
        memcpy(c->mb.console[c->mb.nconsole], line, k);
        c->mb.console[c->mb.nconsole][k] = '\0';
        c->mb.nconsole++;
    }
    hr_lock_give(c->lock);
}

void hr_comfy_link_stop(hr_comfy_link *c)
{
    if (c->stopped)
        return;
    c->stopped = true;
    hr_lock_take(c->lock);
    c->mb.stop = true;
    hr_lock_give(c->lock);
    /* a request has a deadline of its own; a name that does not resolve may hold the
     * thread longer: then it is left, and ends with the process */
    if (c->thread && !hr_thread_join(c->thread, 300)) {
        c->abandoned = true;
        hr_lock_take(c->lock);
        c->mute = true;
        hr_lock_give(c->lock);
    }
    c->thread = NULL;
}

void hr_comfy_link_await(hr_comfy_link *c, int64_t wait_ms)
{
    c->waiting = true;
    c->wait_start = hr_platform_mono_ms();
    c->wait_ms = wait_ms;
    c->next_try = c->wait_start + 1000; /* the server needs a moment */
    c->reported_down = true;            /* its refusals while it starts are not news */
    say(c, HR_T("waiting for ComfyUI at %s to answer GET /system_stats (up to %lld s)"), c->url_text,
        (long long)(wait_ms / 1000));
}

bool hr_comfy_link_never_up(hr_comfy_link *c)
{
    hr_comfy_link_stop(c);
    if (c->abandoned || c->ever_up)
        return false;
    int64_t waited = hr_platform_mono_ms() - c->wait_start;
    record_down(c, waited, true);
    say(c,
        HR_T("ComfyUI never came up at %s: no answer to GET /system_stats in the %lld s the "
             "command ran (%s)"),
        c->url_text, (long long)((waited + 500) / 1000),
        c->last_error[0] ? c->last_error : HR_T("not asked yet: the command ended first"));
    return true;
}

void hr_comfy_link_close(hr_comfy_link *c)
{
    hr_comfy_link_stop(c);
    if (c->abandoned)
        return; /* its thread still holds what it uses: left to the process's end */
    hr_lock_free(c->lock);
    c->lock = NULL;
    hr_buf_free(&c->rec);
    if (c->track.have_heaviest) {
        char text[400];
        hr_comfy_event_text(&c->track.heaviest, text, sizeof text);
        say(c, HR_T("the node that grew most: %s"), text);
    }
    if (c->ws_up)
        hr_ws_close(&c->ws);
    c->ws_up = false;
    hr_buf_free(&c->resp);
    free(c->queue);
    c->queue = NULL;
}
