/* headroom — messages kept as data, formatted where they are shown (see msg.h). */
#include "core/base/msg.h"

#include <stdio.h>
#include <string.h>

/* One printf conversion: where it starts and ends in the template, and what it takes. */
typedef struct spec {
    const char *start; /* the '%' */
    const char *end;   /* one past the conversion letter */
    bool star_width, star_prec;
    char length[3]; /* "", "h", "hh", "l", "ll", "z", "j", "t" */
    char conv;      /* the letter; '%' for a literal percent sign */
} spec;

/* Reads the conversion at s (which points at '%'); false when it is not one msg can hold. */
static bool parse_spec(const char *s, spec *out)
{
    memset(out, 0, sizeof *out);
    out->start = s++;
    if (*s == '%') {
        out->conv = '%';
        out->end = s + 1;
        return true;
    }
    while (*s && strchr("-+ #0'", *s))
        s++;
    if (*s == '*') {
        out->star_width = true;
        s++;
    } else {
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == '.') {
        s++;
        if (*s == '*') {
            out->star_prec = true;
            s++;
        } else {
            while (*s >= '0' && *s <= '9')
                s++;
        }
    }
    size_t n = 0;
    while (*s && strchr("hlzjt", *s) && n < 2)
        out->length[n++] = *s++;
    out->length[n] = '\0';
    if (!*s || !strchr("diouxXcfFeEgGs", *s))
        return false;
    if (*s == 's' && n)
        return false; /* wide strings are not used */
    out->conv = *s;
    out->end = s + 1;
    return true;
}

static hr_msg_arg_kind spec_kind(char conv)
{
    switch (conv) {
    case 'd':
    case 'i':
    case 'c': return HR_MSG_ARG_INT;
    case 'o':
    case 'u':
    case 'x':
    case 'X': return HR_MSG_ARG_UINT;
    case 's': return HR_MSG_ARG_STR;
    default: return HR_MSG_ARG_DOUBLE;
    }
}

static bool add_int(hr_msg *m, long long v)
{
    if (m->nargs >= HR_MSG_MAX_ARGS)
        return false;
    hr_msg_arg *a = &m->args[m->nargs++];
    a->kind = HR_MSG_ARG_INT;
    a->v.i = v;
    return true;
}

/* Copies s into the message's string store at *used, cut at a character boundary when it is
 * full. */
static void store_str(hr_msg *m, size_t *used, const char *s)
{
    if (!s)
        s = "(null)";
    size_t room = sizeof m->strs - *used - 1;
    size_t n = strlen(s);
    if (n > room) {
        n = room;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        m->truncated = true;
    }
    memcpy(m->strs + *used, s, n);
    m->strs[*used + n] = '\0';
    *used += n + 1;
}

static bool add_str(hr_msg *m, size_t *used, const char *s)
{
    if (m->nargs >= HR_MSG_MAX_ARGS)
        return false;
    hr_msg_arg *a = &m->args[m->nargs++];
    a->kind = HR_MSG_ARG_STR;
    a->v.str = (unsigned short)*used;
    /* a value that is itself a translation (HR_T("...") given as a %s) is kept as its msgid and
     * worded with the rest, so it never fixes the message's language */
    const char *id = hr_tr_msgid(s);
    if (id != s) {
        s = id;
        a->translate = true;
    }
    store_str(m, used, s);
    return true;
}

static bool take_arg(hr_msg *m, size_t *used, const spec *sp, va_list *ap)
{
    hr_msg_arg_kind kind = spec_kind(sp->conv);
    const char *len = sp->length;
    if (kind == HR_MSG_ARG_STR)
        return add_str(m, used, va_arg(*ap, const char *));
    if (kind == HR_MSG_ARG_DOUBLE) {
        if (m->nargs >= HR_MSG_MAX_ARGS)
            return false;
        hr_msg_arg *a = &m->args[m->nargs++];
        a->kind = HR_MSG_ARG_DOUBLE;
        a->v.d = va_arg(*ap, double);
        return true;
    }
    if (kind == HR_MSG_ARG_INT) {
        long long v;
        if (!strcmp(len, "ll") || !strcmp(len, "j"))
            v = va_arg(*ap, long long);
        else if (!strcmp(len, "l"))
            v = va_arg(*ap, long);
        else if (!strcmp(len, "z") || !strcmp(len, "t"))
            v = (long long)va_arg(*ap, ptrdiff_t);
        else
            v = va_arg(*ap, int);
        return add_int(m, v);
    }
    unsigned long long v;
    if (!strcmp(len, "ll") || !strcmp(len, "j"))
        v = va_arg(*ap, unsigned long long);
    else if (!strcmp(len, "l"))
        v = va_arg(*ap, unsigned long);
    else if (!strcmp(len, "z") || !strcmp(len, "t"))
        v = va_arg(*ap, size_t);
    else
        v = va_arg(*ap, unsigned int);
    if (m->nargs >= HR_MSG_MAX_ARGS)
        return false;
    hr_msg_arg *a = &m->args[m->nargs++];
    a->kind = HR_MSG_ARG_UINT;
    a->v.u = v;
    return true;
}

void hr_msg_vset(hr_msg *m, const char *fmt, va_list ap)
{
    memset(m, 0, sizeof *m);
    m->fmt = fmt;
    if (!fmt)
        return;
    size_t used = 0;
    va_list aq;
    va_copy(aq, ap);
    for (const char *s = strchr(fmt, '%'); s; s = strchr(s, '%')) {
        spec sp;
        if (!parse_spec(s, &sp)) {
            m->nargs = -1; /* not a template msg can hold: shown as written */
            break;
        }
        s = sp.end;
        if (sp.conv == '%')
            continue;
        bool ok = true;
        if (sp.star_width)
            ok = add_int(m, va_arg(aq, int));
        if (ok && sp.star_prec)
            ok = add_int(m, va_arg(aq, int));
        if (!ok || !take_arg(m, &used, &sp, &aq)) {
            m->nargs = -1;
            break;
        }
    }
    va_end(aq);
}

void hr_msg_set(hr_msg *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(m, fmt, ap);
    va_end(ap);
}

/* The template's i-th value as a %s argument, or NULL. i counts the template's values, not its
 * * widths. */
static hr_msg_arg *str_arg(hr_msg *m, int i)
{
    int seen = 0;
    if (!m->fmt || m->nargs < 0)
        return NULL;
    for (const char *s = strchr(m->fmt, '%'); s; s = strchr(s, '%')) {
        spec sp;
        if (!parse_spec(s, &sp))
            return NULL;
        s = sp.end;
        if (sp.conv == '%')
            continue;
        seen += sp.star_width + sp.star_prec;
        if (i-- == 0)
            return seen < m->nargs && m->args[seen].kind == HR_MSG_ARG_STR ? &m->args[seen] : NULL;
        seen++;
    }
    return NULL;
}

void hr_msg_translate_arg(hr_msg *m, int i)
{
    hr_msg_arg *a = str_arg(m, i);
    if (a)
        a->translate = true;
}

bool hr_msg_arg_zh(hr_msg *m, int i, const char *zh_text)
{
    hr_msg_arg *a = str_arg(m, i);
    if (!a)
        return false;
    /* the store's end: past every string kept so far */
    size_t used = 0;
    for (int k = 0; k < m->nargs; k++) {
        const hr_msg_arg *b = &m->args[k];
        if (b->kind != HR_MSG_ARG_STR)
            continue;
        size_t end = b->v.str + strlen(m->strs + b->v.str) + 1;
        if (end > used)
            used = end;
        if (b->has_zh && (size_t)b->str_zh + strlen(m->strs + b->str_zh) + 1 > used)
            used = (size_t)b->str_zh + strlen(m->strs + b->str_zh) + 1;
    }
    if (used >= sizeof m->strs)
        return false;
    a->str_zh = (unsigned short)used;
    a->has_zh = true;
    store_str(m, &used, zh_text);
    return true;
}

/* Output that counts what it would write, as snprintf does. */
typedef struct out {
    char *p;
    size_t cap, len;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len < o->cap) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->p + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

/* One conversion with its value; the spec is rebuilt with the length the value is held in. */
static bool put_arg(out *o, const spec *sp, const hr_msg *m, int *next, hr_lang lang)
{
    char f[48];
    size_t n = 0;
    f[n++] = '%';
    const char *s = sp->start + 1;
    while (s < sp->end - 1 && !strchr("hlzjt", *s)) {
        if (*s == '*') {
            if (*next >= m->nargs || m->args[*next].kind != HR_MSG_ARG_INT)
                return false;
            n += (size_t)snprintf(f + n, sizeof f - n, "%lld", m->args[(*next)++].v.i);
            s++;
            continue;
        }
        if (n + 8 >= sizeof f)
            return false;
        f[n++] = *s++;
    }
    hr_msg_arg_kind kind = spec_kind(sp->conv);
    if (*next >= m->nargs || m->args[*next].kind != kind)
        return false;
    const hr_msg_arg *a = &m->args[(*next)++];
    if ((kind == HR_MSG_ARG_INT && sp->conv != 'c') || kind == HR_MSG_ARG_UINT) {
        f[n++] = 'l';
        f[n++] = 'l';
    }
    f[n++] = sp->conv;
    f[n] = '\0';
    char buf[512];
    int w;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    switch (kind) {
    case HR_MSG_ARG_INT:
        w = sp->conv == 'c' ? snprintf(buf, sizeof buf, f, (int)a->v.i) : snprintf(buf, sizeof buf, f, a->v.i);
        break;
    case HR_MSG_ARG_UINT: w = snprintf(buf, sizeof buf, f, a->v.u); break;
    case HR_MSG_ARG_DOUBLE: w = snprintf(buf, sizeof buf, f, a->v.d); break;
    default: {
        const char *str = m->strs + a->v.str;
        if (a->has_zh && lang == HR_LANG_ZH)
            str = m->strs + a->str_zh;
        else if (a->translate)
            str = hr_tr_lang(lang, str);
        /* a string's own text is never limited by buf: only its spec's width and precision */
        if (!strcmp(f, "%s")) {
            put(o, str, strlen(str));
            return true;
        }
        w = snprintf(buf, sizeof buf, f, str);
        break;
    }
    }
#pragma GCC diagnostic pop
    if (w < 0)
        return false;
    put(o, buf, (size_t)w < sizeof buf ? (size_t)w : sizeof buf - 1);
    return true;
}

/* The template t with m's values; false (and o untouched past start) when t and the values
 * do not agree. */
static bool render(out *o, const char *t, const hr_msg *m, hr_lang lang)
{
    int next = 0;
    for (;;) {
        const char *pct = strchr(t, '%');
        if (!pct) {
            put(o, t, strlen(t));
            return next == m->nargs;
        }
        put(o, t, (size_t)(pct - t));
        spec sp;
        if (!parse_spec(pct, &sp))
            return false;
        if (sp.conv == '%')
            put(o, "%", 1);
        else if (!put_arg(o, &sp, m, &next, lang))
            return false;
        t = sp.end;
    }
}

/* Where a text cut at n ends on a whole character: a cut never leaves half of a Chinese one. */
static size_t whole_chars(const char *s, size_t n)
{
    size_t lead = n;
    while (lead > 0 && ((unsigned char)s[lead - 1] & 0xC0) == 0x80)
        lead--;
    if (lead == 0)
        return n;
    unsigned char c = (unsigned char)s[lead - 1];
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return lead - 1 + len > n ? lead - 1 : n;
}

size_t hr_msg_format(const hr_msg *m, hr_lang lang, char *buf, size_t cap)
{
    out o = { buf, cap, 0 };
    if (cap)
        buf[0] = '\0';
    if (!hr_msg_is_set(m))
        return 0;
    if (m->nargs >= 0) {
        if (render(&o, hr_tr_lang(lang, m->fmt), m, lang))
            goto done;
        o.len = 0;
        if (render(&o, m->fmt, m, lang))
            goto done;
        o.len = 0;
    }
    put(&o, m->fmt, strlen(m->fmt));
done:
    if (cap) {
        size_t end = o.len < cap ? o.len : cap - 1;
        if (o.len >= cap)
            end = whole_chars(buf, end);
        buf[end] = '\0';
    }
    return o.len;
}
