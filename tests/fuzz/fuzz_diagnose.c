/* Fuzz the whole diagnosis path: decoder (any chunking) → classifier, the kernel record
 * parsers on every line, a Windows event from NUL-separated values, then both renderers.
 * The JSON must always be complete. Two shortcuts are checked against the slow way on every
 * input: the matcher's hr_acm_find against walking the automaton (hr_acm_scan), and the
 * diagnosis with its progress-bar shortcut against one without (the same JSON). The decoder's
 * shortcuts (whole lines found sixteen bytes at a time, handed on without a copy) are checked
 * against feeding it one byte at a time, where they never apply: the same segments; and its
 * bar hint (HR_SEG_BAR, HR_SEG_BAR_FULL), wherever given, against a plain test of the text. */
#include "core/diagnose/diag.h"
#include "core/diagnose/diag_render.h"
#include "core/diagnose/kmsg.h"
#include "core/base/phrase_match.h"
#include "core/base/textdec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void feed(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    hr_diag_feed(user, text, len, lineno, flags);
}

/* The segments a decoder hands on, as a hash of their text, length, line and flags. */
typedef struct seg_hash {
    uint64_t h, n;
} seg_hash;

/* HR_SEG_BAR's meaning, byte by byte: no ASCII letter and no byte >= 0x80 but in the last
 * five bytes, "it/s]" or "s/it]"; *full: "100%|" in it. */
static bool plain_bar(const char *text, size_t len, bool *full)
{
    const unsigned char *p = (const unsigned char *)text;
    if (len < 5 || (memcmp(p + len - 5, "it/s]", 5) != 0 && memcmp(p + len - 5, "s/it]", 5) != 0))
        return false;
    for (size_t i = 0; i + 5 < len; i++)
        if (p[i] >= 0x80 || ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z'))
            return false;
    *full = false;
    for (size_t i = 0; i + 5 <= len; i++)
        *full |= memcmp(p + i, "100%|", 5) == 0;
    return true;
}

static void hash_seg(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    seg_hash *sh = user;
    if (flags & HR_SEG_BAR) {
        bool full = false;
        if (!plain_bar(text, len, &full) || full != ((flags & HR_SEG_BAR_FULL) != 0))
            abort();
    } else if (flags & HR_SEG_BAR_FULL) {
        abort();
    }
    /* a hint, given where the decoder sees it for free: not part of the segments */
    flags &= ~(HR_SEG_BAR | HR_SEG_BAR_FULL);
    uint64_t h = sh->h ^ (len * 0x9e3779b97f4a7c15u) ^ (lineno << 20) ^ flags;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 0x100000001b3u;
    sh->h = h * 0x100000001b3u;
    sh->n++;
}

/* The decoder gives the same segments whether fed the whole input at once or byte by byte. */
static void check_decoder(hr_textdec *dec, const uint8_t *data, size_t size)
{
    seg_hash whole = {0, 0}, bytes = {0, 0};
    hr_textdec_init(dec, hash_seg, &whole);
    hr_textdec_feed(dec, data, size);
    hr_textdec_finish(dec);
    hr_textdec_init(dec, hash_seg, &bytes);
    for (size_t i = 0; i < size; i++)
        hr_textdec_feed(dec, data + i, 1);
    hr_textdec_finish(dec);
    if (whole.h != bytes.h || whole.n != bytes.n)
        abort();
}

/* hr_acm_find and hr_acm_end_state give what hr_acm_scan gives from state 0. */
static void check_matcher(const hr_acm *m, const char *s, size_t n)
{
    hr_acm_hit a[16], b[16];
    unsigned st = 0;
    size_t na = hr_acm_scan(m, &st, s, n, a, 16);
    size_t nb = hr_acm_find(m, s, n, b, 16);
    if (na != nb || st != hr_acm_end_state(m, s, n))
        abort();
    for (size_t i = 0; i < na && i < 16; i++)
        if (a[i].phrase != b[i].phrase || a[i].end != b[i].end)
            abort();
}

static void run_once(hr_diag_ctx *ctx, hr_textdec *dec, const uint8_t *data, size_t size,
                     bool bars, hr_buf *json)
{
    hr_diag_reset(ctx);   /* the matcher is built once; everything else starts fresh */
    if (!bars)
        ctx->bar_rule[0] = ctx->bar_rule[1] = -1;

    /* the log, in chunks whose size the first byte picks */
    hr_diag_begin_input(ctx, "fuzz.log");
    hr_textdec_init(dec, feed, ctx);
    size_t chunk = size ? (size_t)(data[0] % 97) + 1 : 1;
    for (size_t i = 0; i < size; i += chunk)
        hr_textdec_feed(dec, data + i, size - i < chunk ? size - i : chunk);
    hr_textdec_finish(dec);
    hr_diag_end_input(ctx, hr_textdec_encoding_name(dec), dec->bytes, hr_textdec_lines(dec),
                      dec->long_lines);

    /* every line as a kernel / journal record */
    const char *s = (const char *)data;
    for (size_t i = 0; i < size;) {
        const char *nl = memchr(s + i, '\n', size - i);
        size_t n = nl ? (size_t)(nl - (s + i)) + 1 : size - i;
        hr_klog_record r;
        if (hr_kmsg_parse(s + i, n, &r) == 0)
            hr_diag_feed_record(ctx, "/dev/kmsg", (int64_t)r.usec, r.text, r.len);
        if (hr_dmesg_parse(s + i, n, &r) == 0)
            hr_diag_feed_record(ctx, "dmesg", 0, r.text, r.len);
        if (hr_journal_parse(s + i, n, &r) == 0)
            hr_diag_feed_record(ctx, "journal", r.unix_time, r.text, r.len);
        i += n;
    }

    /* a Windows event: NUL-separated values (each copied to a terminated string) */
    static const struct {
        const char *provider;
        unsigned id;
    } kinds[] = {{"Application Error", 1000}, {"Windows Error Reporting", 1001},
                 {".NET Runtime", 1026}, {"Microsoft-Windows-Resource-Exhaustion-Detector", 2004},
                 {"Application Popup", 26}};
    char *copy = malloc(size + 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    copy[size] = '\0';
    const char *values[48];
    size_t nv = 0;
    for (size_t i = 0; i <= size && nv < 48;) {
        values[nv++] = copy + i;
        i += strlen(copy + i) + 1;
    }
    unsigned k = size > 1 ? data[1] % 5 : 0;
    hr_winevent ev = {"System", kinds[k].provider, kinds[k].id, size > 2 ? data[2] : 0, nv, values};
    hr_diag_feed_winevent(ctx, &ev);
    free(copy);

    hr_diag_finish(ctx);
    hr_json_writer w;
    hr_json_init(&w, json, size % 2 == 0);
    hr_diag_json(ctx, &w);
    if (hr_json_finish(&w) != 0)
        abort();
    hr_buf out;
    hr_buf_init(&out, 0);
    if (hr_diag_text(ctx, &out) != 0)
        abort();
    hr_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hr_diag_ctx *ctx;
    static hr_textdec *dec;
    if (!ctx) {
        ctx = malloc(sizeof *ctx);
        dec = malloc(sizeof *dec);
        hr_error err = {0};
        if (!ctx || !dec || hr_diag_init(ctx, &err) != 0)
            abort();
    }
    /* the matcher on the whole input and on each line */
    const char *s = (const char *)data;
    check_matcher(&ctx->acm, s, size);
    for (size_t i = 0; i < size;) {
        const char *nl = memchr(s + i, '\n', size - i);
        size_t n = nl ? (size_t)(nl - (s + i)) : size - i;
        check_matcher(&ctx->acm, s + i, n);
        i += n + 1;
    }
    check_decoder(dec, data, size);
    hr_buf fast, slow;
    hr_buf_init(&fast, 0);
    hr_buf_init(&slow, 0);
    run_once(ctx, dec, data, size, true, &fast);
    run_once(ctx, dec, data, size, false, &slow);
    if (fast.len != slow.len || memcmp(fast.data, slow.data, fast.len) != 0)
        abort();
    hr_buf_free(&fast);
    hr_buf_free(&slow);
    return 0;
}
