/* headroom — tqdm progress bars in the diagnosis (internal). A bar's redraw
 * ("45%|####5     | 9/20 [00:10<00:12,  1.1s/it]") is most of a log's bytes and says only
 * that the run is busy: it is recognised here without the phrase matcher, and its effect
 * (the run's busy state) applied. static inline: this is the hot loop, every redraw comes
 * here, and no call may cross into another file. */
#ifndef HR_DIAG_BARS_H
#define HR_DIAG_BARS_H

#include "core/diagnose/diag.h"
#include "core/diagnose/diag_time.h"
#include "core/base/textdec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A line this long that ends inside a phrase may have been folded by a terminal: the
 * matcher's state is carried into the next line. */
#define HR_DIAG_FOLD_MIN 60

/* Set up the bytes a bar is made of and the bar phrases' rules (bar_rule < 0: turned off,
 * when another phrase could be spelled with these bytes). */
void hr_diag_bar_setup(hr_diag_ctx *c);

/* A tqdm bar at its end: "100%|". */
static inline bool hr_diag_bar_finished(const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '%', (size_t)(end - p))) != NULL) {
        if (hr_bar_full_at((const unsigned char *)s, n, (size_t)(p - s)))
            return true;
        p++;
    }
    return false;
}

/* text[0..k) into dst, k >= 16: sixteen bytes at a time, the last sixteen overlapping (a
 * memcpy of a length not known at compile time was inlined as a slow "rep movs"; fixed-size
 * copies become single moves). Up to 64 bytes (a bar's redraw: every one comes here) the
 * first and last sixteen and the two next to them, with no loop; a longer text's middle in
 * a loop. Always inlined: hr_diag_feed's hinted path makes no call. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
hr_diag_copy_by16(char *dst, const char *text, size_t k)
{
    unsigned char w[16];
    memcpy(w, text, 16);
    memcpy(dst, w, 16);
    memcpy(w, text + k - 16, 16);
    memcpy(dst + k - 16, w, 16);
    if (k > 32) {
        memcpy(w, text + 16, 16);
        memcpy(dst + 16, w, 16);
        memcpy(w, text + k - 32, 16);
        memcpy(dst + k - 32, w, 16);
        for (size_t i = 32; i + 32 < k; i += 16) {
            memcpy(w, text + i, 16);
            memcpy(dst + i, w, 16);
        }
    }
}

/* A busy phrase (a model loading, a bar's redraw) seen in the line. Every redraw of a
 * progress bar comes here: keep it cheap. */
static inline void hr_diag_busy_state(hr_diag_ctx *c, const char *text, size_t len, uint64_t line, bool finished)
{
    /* the run went on: an error before this was not its end */
    c->ev.kind = HR_EV_NONE;
    c->ev.frame_tail = false;
    if (finished) {
        c->run_state = 0; /* a bar that reached its end: that step finished */
        return;
    }
    c->run_state = 1;
    c->busy_line = line;
    size_t k = len < sizeof c->busy_text - 1 ? len : sizeof c->busy_text - 1;
    while (k > 0 && k < len && ((unsigned char)text[k] & 0xc0) == 0x80)
        k--; /* whole UTF-8 characters */
    if (k >= 16) {
        hr_diag_copy_by16(c->busy_text, text, k);
    } else if (k >= 8) {
        uint64_t w0, w1;
        memcpy(&w0, text, 8);
        memcpy(&w1, text + k - 8, 8);
        memcpy(c->busy_text, &w0, 8);
        memcpy(c->busy_text + k - 8, &w1, 8);
    } else {
        for (size_t i = 0; i < k; i++)
            c->busy_text[i] = text[i];
    }
    c->busy_text[k] = '\0';
}

/* The first byte (in memory order) of a word whose bytes' top bits m marks. */
static inline unsigned hr_diag_first_byte(uint64_t m)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (unsigned)__builtin_ctzll(m) >> 3;
#else
    unsigned char b[8];
    memcpy(b, &m, 8);
    unsigned k = 0;
    while (k < 7 && !(b[k] & 0x80))
        k++;
    return k;
#endif
}

/* "100%|" with its '%' at p[k] (hr_diag_bar_finished). */
static inline bool hr_diag_finished_at(const unsigned char *p, size_t n, size_t k)
{
    return hr_bar_full_at(p, n, k);
}

/* Sixteen bytes as one value, where the compiler offers vectors (GCC, Clang): hr_diag_bar_redraw
 * tests a redraw with them; elsewhere eight at a time in an integer. */
#if defined(__GNUC__) && (defined(__SSE2__) || defined(__ARM_NEON))
#define HR_BAR_VEC 1
typedef unsigned char hr_u8x16 __attribute__((vector_size(16)));
#else
#define HR_BAR_VEC 0
#endif

/* The bytes of x (eight of a segment) that hr_diag_bar_redraw's eight-at-a-time test does not pass
 * have their top bits set in the result (with other bits): the ASCII letters (l is x's low
 * seven bits in lower case: at least 0x61 and below 0x7b there) and the bytes >= 0x80,
 * exactly per byte (no carry crosses a byte). *pct: at least the '%' bytes (u is 0 there;
 * a byte after one may be marked too, hr_diag_finished_at looks again). */
static inline uint64_t hr_diag_bar_word(uint64_t x, uint64_t *pct)
{
    const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
    uint64_t l = (x & ones * 0x7f) | ones * 0x20, u = x ^ ones * '%';
    *pct = (u - ones) & ~u & tops;
    return ((l + ones * (0x80 - 'a')) & ~(l + ones * (0x80 - 'z' - 1))) | x;
}

/* A "100%|" at one of the '%' that pct marks in the word at p[i]. */
static inline bool hr_diag_bar_pct(const unsigned char *p, size_t n, size_t i, uint64_t pct)
{
    bool fin = false;
    for (; pct; pct &= pct - 1)
        fin |= hr_diag_finished_at(p, n, i + hr_diag_first_byte(pct));
    return fin;
}

#if HR_BAR_VEC
typedef signed char hr_s8x16 __attribute__((vector_size(16)));
/* hr_diag_bar_pct for sixteen bytes at p[i]: at is 0xff where a byte is '%', else 0. */
static inline bool hr_diag_bar_pct16(const unsigned char *p, size_t n, size_t i, hr_u8x16 at)
{
    bool fin = false;
#if defined(__SSE2__)
    /* one bit a byte, in a register at once (SSE2's pmovmskb) */
    typedef char hr_c8x16 __attribute__((vector_size(16)));
    unsigned m = (unsigned)__builtin_ia32_pmovmskb128((hr_c8x16)at);
    for (; m; m &= m - 1)
        fin |= hr_diag_finished_at(p, n, i + (size_t)__builtin_ctz(m));
#else
    const uint64_t tops = 0x8080808080808080u;
    uint64_t q[2];
    memcpy(q, &at, 16);
    if (q[0] | q[1]) {
        fin |= hr_diag_bar_pct(p, n, i, q[0] & tops);
        fin |= hr_diag_bar_pct(p, n, i + 8, q[1] & tops);
    }
#endif
    return fin;
}
#endif

/* A segment that is a progress bar only: bar bytes, ending in "it/s]" or "s/it]" (whose
 * boundaries always hold: any byte may come before, none after). *finished: it holds "100%|"
 * (hr_diag_bar_finished). The decoder's hint HR_SEG_BAR says so already (its bars, no letter in the
 * body, are some of these); else eight bytes at a time: an ASCII byte other than a letter is
 * a bar byte (see hr_diag_bar_setup); only when another byte is seen is the whole looked up in the
 * table. */
static inline bool hr_diag_bar_redraw(const hr_diag_ctx *c, const char *text, size_t len, unsigned flags,
                                      bool *finished)
{
    if (c->bar_rule[0] < 0)
        return false;
    if (flags & HR_SEG_BAR) {
        *finished = (flags & HR_SEG_BAR_FULL) != 0;
        return true;
    }
    if (len < 5 || text[len - 1] != ']' || !hr_bar_tail(text, len))
        return false;
    const unsigned char *p = (const unsigned char *)text;
    size_t body = len - 5; /* the bar phrase: bar bytes, no '%' */
    bool fin = false;
    uint64_t other = 0, pct = 0;
#if HR_BAR_VEC
    if (body >= 16) {
        /* the same test sixteen bytes at a time, where the compiler has vectors: the chunks
         * at 0, 16, ... and the last sixteen bytes (overlapping) */
        hr_u8x16 acc = { 0 };
        for (size_t i = 0;; i += 16) {
            bool last = i + 16 >= body;
            if (last)
                i = body - 16;
            hr_u8x16 x;
            memcpy(&x, p + i, 16);
            /* an ASCII letter: x | 0x20 in 'a'..'z', moved to -128..-103 as a signed byte
             * (one compare); a byte >= 0x80 has its top bit set in x itself (what the
             * compare says of it does not matter) */
            hr_s8x16 l = (hr_s8x16)((x | 0x20) + (unsigned char)(0x80 - 'a'));
            acc |= (hr_u8x16)(l < -128 + 26) | x;
            fin |= hr_diag_bar_pct16(p, len, i, (hr_u8x16)(x == '%'));
            if (last)
                break;
        }
#if defined(__SSE2__)
        typedef char hr_c8x16 __attribute__((vector_size(16)));
        other = __builtin_ia32_pmovmskb128((hr_c8x16)acc) != 0 ? 0x80u : 0; /* any top bit */
#else
        uint64_t o[2];
        memcpy(o, &acc, 16);
        other = (o[0] | o[1]) & 0x8080808080808080u;
#endif
    } else
#endif
        if (body >= 8) {
        /* the words at 0, 8, 16, ... and the last eight bytes (overlapping: looking at a
         * byte twice changes nothing) */
        size_t i = 0;
        uint64_t x;
        for (; i + 8 <= body; i += 8) {
            memcpy(&x, p + i, 8);
            other |= hr_diag_bar_word(x, &pct);
            if (pct)
                fin |= hr_diag_bar_pct(p, len, i, pct);
        }
        if (i < body) {
            i = body - 8;
            memcpy(&x, p + i, 8);
            other |= hr_diag_bar_word(x, &pct);
            if (pct)
                fin |= hr_diag_bar_pct(p, len, i, pct);
        }
    } else {
        for (size_t i = 0; i < body; i++) {
            other |= (uint64_t)!c->bar_bytes[p[i]] << 7;
            fin |= hr_diag_finished_at(p, len, i);
        }
    }
    if (other & 0x8080808080808080u) {
        unsigned ok = 1;
        for (size_t i = 0; i < body; i++)
            ok &= c->bar_bytes[p[i]];
        if (!ok)
            return false;
    }
    *finished = fin;
    return true;
}

/* What a bar's redraw does, found by hr_diag_bar_feed or the decoder's hint. */
static inline void hr_diag_bar_seen(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, bool finished)
{
    c->seq++;
    if (text[0] == '[' || text[0] == '*' || (text[0] >= '0' && text[0] <= '9'))
        hr_diag_note_time(c, text, len); /* else it finds no time */
    if (c->input >= 0)
        hr_diag_busy_state(c, text, len, lineno, finished);
    c->carry_state = 0;
    c->prev_line = lineno;
}

/* hr_diag_feed for a bar's redraw in the common case (ended by \r or short, not joined to a
 * line before, no traceback to end): the same effect as the whole path below, in less.
 * *not_bar: hr_diag_bar_redraw was asked and said no (the path below need not ask again). */
static inline bool hr_diag_bar_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags,
                                    bool *not_bar)
{
    bool finished = false;
    if ((flags & (HR_SEG_JUNK | HR_SEG_CUT)) || (!(flags & HR_SEG_CR) && len >= HR_DIAG_FOLD_MIN) ||
        (c->carry_state && lineno == c->carry_line + 1) ||
        (c->in_traceback && lineno != c->traceback_line && text[0] != ' '))
        return false;
    if (!hr_diag_bar_redraw(c, text, len, flags, &finished)) {
        *not_bar = true;
        return false;
    }
    hr_diag_bar_seen(c, text, len, lineno, finished);
    return true;
}

#endif
