/* The evidence: findings and their bounded slots, the records not blamed, the warnings. */
#include "core/diagnose/diag_evidence.h"

#include "core/base/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Copy text into a fixed evidence slot: whitespace trimmed, and when too long, a window
 * around the match (byte offset at) cut at UTF-8 character boundaries. */
void hr_diag_clip(char *dst, size_t cap, const char *s, size_t n, size_t at)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
        at = at ? at - 1 : 0;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    size_t room = cap - 8; /* two ellipses and the NUL */
    size_t b = 0, e = n;
    if (n > room) {
        b = at > 100 ? at - 100 : 0;
        if (b + room > n)
            b = n - room;
        while (b > 0 && ((unsigned char)s[b] & 0xc0) == 0x80)
            b--;
        e = b + room;
        while (e > b && e < n && ((unsigned char)s[e] & 0xc0) == 0x80)
            e--;
    }
    size_t o = 0;
    if (b > 0) {
        memcpy(dst, "\xe2\x80\xa6", 3);
        o = 3;
    }
    memcpy(dst + o, s + b, e - b);
    o += e - b;
    if (e < n) {
        memcpy(dst + o, "\xe2\x80\xa6", 3);
        o += 3;
    }
    dst[o] = '\0';
}

/* When evidence happened, for "the first failure wins": log lines in reading order come
 * first; system records after them, among themselves by their time (the collectors read
 * source by source, not in time order), undated ones last. */
static uint64_t order_key(const hr_diag_ctx *c, const hr_diag_hit *at)
{
    const uint64_t system = (uint64_t)1 << 62, undated = (uint64_t)1 << 61;
    if (at->input >= 0)
        return c->seq;
    if (at->time > 0 && at->time < (int64_t)undated)
        return system + (uint64_t)at->time;
    return system + undated + c->seq;
}

hr_diag_evidence *hr_diag_add_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning,
                                       const hr_diag_hit *at)
{
    hr_diag_finding *f = &c->findings[cause];
    uint64_t key = order_key(c, at);
    if (!f->present) {
        f->present = true;
        f->order = key;
        f->meaning = meaning ? meaning : hr_cause_meaning(cause);
    } else if (key < f->order) {
        f->order = key;
    }
    if (conf > f->conf) {
        f->conf = conf;
        if (meaning)
            f->meaning = meaning;
    }
    if (at->input >= 0) {
        c->have_marker = true;
        c->marker_line = at->line;
        /* a failure a phrase explained ends the finder's candidate before it */
        if (c->ev.kind && at->line >= c->ev.line)
            c->ev.kind = HR_EV_NONE;
    }
    if (f->last_input == at->input && f->last_line == at->key) {
        /* The same line again (another phrase, or the overlap of a long line's windows). */
        if (f->last_ev && conf > f->last_ev->conf)
            f->last_ev->conf = conf;
        return NULL;
    }
    f->last_input = at->input;
    f->last_line = at->key;
    f->count++;
    if (at->input >= 0 && (size_t)at->input < c->ninputs)
        c->inputs[at->input].hits++;
    hr_diag_evidence *e;
    if (f->nfirst < HR_DIAG_EVIDENCE_FIRST) {
        e = &f->evidence[f->nfirst++];
    } else {
        e = &f->evidence[HR_DIAG_EVIDENCE_FIRST + f->last_pos];
        f->last_pos = (f->last_pos + 1) % HR_DIAG_EVIDENCE_LAST;
        if (f->nlast < HR_DIAG_EVIDENCE_LAST)
            f->nlast++;
    }
    /* field by field: the messages are large, and one not set is one whose fmt is NULL */
    f->last_ev = e;
    e->input = at->input;
    e->line = at->line;
    e->time = at->time;
    e->conf = conf;
    e->source[0] = '\0';
    e->source_msg.fmt = NULL;
    e->why.fmt = NULL;
    e->what.fmt = NULL;
    e->tail[0] = '\0';
    e->what_cap = 0;
    e->text[0] = '\0';
    if (at->source_msg) {
        e->source_msg = *at->source_msg;
        /* source keeps the text of the language this was made in, for readers of the plain
         * field (the run's verdict); the reports format source_msg in their own language */
        hr_msg_format(&e->source_msg, hr_lang_get(), e->source, sizeof e->source);
    } else if (at->source) {
        snprintf(e->source, sizeof e->source, "%s", at->source);
    }
    return e;
}

void hr_diag_line_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning, uint64_t line,
                           uint64_t seq, const char *text, size_t len)
{
    if (c->input < 0 || (unsigned)cause >= HR_CAUSE_UNKNOWN)
        return;
    /* in its own place among the findings: where the line was, not where the input ended */
    uint64_t now = c->seq;
    c->seq = seq;
    hr_diag_hit at = { .input = c->input, .key = line, .line = line };
    hr_diag_evidence *e = hr_diag_add_evidence(c, cause, conf, meaning, &at);
    c->seq = now;
    if (e)
        hr_diag_clip(e->text, sizeof e->text, text, len, 0);
}

bool hr_diag_memory_seen(const hr_diag_ctx *c)
{
    static const hr_cause mem[] = { HR_CAUSE_GPU_OOM, HR_CAUSE_HOST_OOM, HR_CAUSE_KILLED, HR_CAUSE_LOW_VM };
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
        const hr_diag_finding *f = &c->findings[mem[i]];
        if (f->present && f->last_input == c->input)
            return true;
    }
    return false;
}

size_t hr_diag_evidence_list(const hr_diag_finding *f, const hr_diag_evidence *out[HR_DIAG_EVIDENCE_MAX])
{
    size_t n = 0;
    for (size_t i = 0; i < f->nfirst; i++)
        out[n++] = &f->evidence[i];
    size_t start = f->nlast < HR_DIAG_EVIDENCE_LAST ? 0 : f->last_pos;
    for (size_t i = 0; i < f->nlast; i++)
        out[n++] = &f->evidence[HR_DIAG_EVIDENCE_FIRST + (start + i) % HR_DIAG_EVIDENCE_LAST];
    return n;
}

/* A described record's text in lang: what, then tail, cut at cap - 1 bytes as the fixed
 * buffer such a line was written into always cut it, then clipped as a line is. */
static void said_text(const hr_msg *what, const char *tail, size_t cap, hr_lang lang, char out[HR_DIAG_TEXT_MAX])
{
    char full[1024];
    hr_msg_format(what, lang, full, sizeof full);
    size_t n = strlen(full), t = strlen(tail);
    if (t > sizeof full - 1 - n)
        t = sizeof full - 1 - n;
    memcpy(full + n, tail, t);
    n += t;
    if (cap == 0 || cap > HR_DIAG_TEXT_MAX)
        cap = HR_DIAG_TEXT_MAX;
    if (n > cap - 1)
        n = cap - 1;
    hr_diag_clip(out, HR_DIAG_TEXT_MAX, full, n, 0);
}

void hr_diag_add_msg(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const hr_msg *source, int64_t time,
                     const hr_msg *what, const char *tail, size_t cap, const char *meaning)
{
    if ((unsigned)cause >= HR_CAUSE_UNKNOWN)
        return;
    c->seq++;
    hr_diag_hit at = { .input = -1, .key = c->seq, .time = time, .source_msg = source };
    hr_diag_evidence *e = hr_diag_add_evidence(c, cause, conf, meaning, &at);
    if (!e)
        return;
    e->what = *what;
    snprintf(e->tail, sizeof e->tail, "%s", tail ? tail : "");
    e->what_cap = (unsigned short)(cap && cap < HR_DIAG_TEXT_MAX ? cap : HR_DIAG_TEXT_MAX);
    /* text, as source: the language this was made in, for readers of the plain field */
    said_text(&e->what, e->tail, e->what_cap, hr_lang_get(), e->text);
}

const char *hr_diag_evidence_source(const hr_diag_evidence *e, hr_lang lang, char out[HR_DIAG_SOURCE_MAX])
{
    if (!hr_msg_is_set(&e->source_msg))
        return e->source;
    hr_msg_format(&e->source_msg, lang, out, HR_DIAG_SOURCE_MAX);
    return out;
}

const char *hr_diag_evidence_text(const hr_diag_evidence *e, hr_lang lang, char out[HR_DIAG_TEXT_MAX])
{
    if (!hr_msg_is_set(&e->what))
        return e->text;
    said_text(&e->what, e->tail, e->what_cap, lang, out);
    return out;
}

const char *hr_diag_ignored_source(const hr_diag_ignored *g, hr_lang lang, char out[HR_DIAG_SOURCE_MAX])
{
    if (!hr_msg_is_set(&g->source_msg))
        return g->source;
    hr_msg_format(&g->source_msg, lang, out, HR_DIAG_SOURCE_MAX);
    return out;
}

hr_msg *hr_diag_note_source(hr_diag_ctx *c, const char *name, bool ok, int64_t records, const char *fmt, ...)
{
    if (c->nsources >= HR_DIAG_SOURCES_MAX)
        return NULL;
    hr_diag_source *s = &c->sources[c->nsources++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->ok = ok;
    s->records = records;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&s->detail, fmt, ap);
    va_end(ap);
    return &s->detail;
}

/* Two reasons are the same when they read the same in English (the reason JSON shows). */
static bool same_reason(const hr_msg *a, const hr_msg *b)
{
    char ta[HR_DIAG_REASON_MAX], tb[HR_DIAG_REASON_MAX];
    hr_msg_format(a, HR_LANG_EN, ta, sizeof ta);
    hr_msg_format(b, HR_LANG_EN, tb, sizeof tb);
    return strcmp(ta, tb) == 0;
}

void hr_diag_add_ignored(hr_diag_ctx *c, const hr_diag_hit *at, const char *text, size_t len, const hr_msg *why)
{
    c->ignored_total++;
    /* one line per distinct reason and text is enough */
    for (size_t i = 0; i < c->nignored; i++)
        if (same_reason(&c->ignored[i].why, why))
            return;
    if (c->nignored >= HR_DIAG_IGNORED_MAX)
        return;
    hr_diag_ignored *g = &c->ignored[c->nignored++];
    snprintf(g->source, sizeof g->source, "%s", at->source ? at->source : "");
    if (at->source_msg)
        g->source_msg = *at->source_msg;
    else
        g->source_msg.fmt = NULL;
    g->time = at->time;
    hr_diag_clip(g->text, sizeof g->text, text, len, 0);
    g->why = *why;
}

void hr_diag_add_warning(hr_diag_ctx *c, hr_cause tier, const char *text, size_t len, size_t at_byte,
                         const hr_diag_hit *at)
{
    hr_diag_warning *w = &c->warnings[tier == HR_CAUSE_GPU_OOM ? 0 : 1];
    if (w->count && w->last_key == c->seq)
        return;
    w->last_key = c->seq;
    if (w->count++ == 0) {
        w->tier = tier;
        w->input = at->input;
        w->line = at->line;
        hr_diag_clip(w->text, sizeof w->text, text, len, at_byte);
    }
}
