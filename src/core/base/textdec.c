#include "core/base/textdec.h"

#include "core/base/codepage.h"
#include "core/base/utf8.h"

#include <string.h>

enum { ESC_NONE, ESC_START, ESC_CSI, ESC_OSC, ESC_OSC_ESC };

void hr_textdec_init(hr_textdec *d, hr_textdec_fn fn, void *user)
{
    memset(d, 0, offsetof(hr_textdec, seg));
    d->fn = fn;
    d->user = user;
    d->lineno = 1;
}

uint64_t hr_textdec_lines(const hr_textdec *d)
{
    return d->lineno - 1 + (d->mid_line ? 1 : 0);
}

bool hr_textdec_not_text(const hr_textdec *d)
{
    return d->bytes > 0 && d->bad * 16 > d->bytes;
}

const char *hr_textdec_encoding_name(const hr_textdec *d)
{
    switch (d->enc) {
    case HR_TEXT_UTF16LE: return "utf-16le";
    case HR_TEXT_UTF16BE: return "utf-16be";
    default:
        if (d->gbk_segments && d->cp1252_segments)
            return "utf-8+gbk+cp1252";
        return d->gbk_segments ? "utf-8+gbk" : d->cp1252_segments ? "utf-8+cp1252" : "utf-8";
    }
}

/* Invalid UTF-8 positions in s (each bad byte counts once). */
static size_t utf8_invalid(const unsigned char *s, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = hr_utf8_valid_prefix(s + i, n - i);
        if (k == 0) {
            bad++;
            i++;
        } else {
            i += k;
        }
    }
    return bad;
}

/* GBK → UTF-8 into d->conv (at most 3 output bytes per input byte); *bad counts the bytes
 * that are not GBK at all (a character GBK has but the table lacks is not counted). */
static size_t gbk_convert(hr_textdec *d, const unsigned char *s, size_t n, size_t *bad)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            d->conv[o++] = (char)c;
            i++;
        } else if (c >= 0x81 && c <= 0xfe && i + 1 < n && s[i + 1] >= 0x40 && s[i + 1] <= 0xfe && s[i + 1] != 0x7f) {
            o += hr_utf8_encode(hr_gbk_lookup(c, s[i + 1]), d->conv + o);
            i += 2;
        } else {
            o += hr_utf8_encode(c == 0x80 ? 0x20AC : 0xFFFD, d->conv + o); /* CP936's euro */
            *bad += c != 0x80;
            i++;
        }
    }
    return o;
}

/* CP1252 → UTF-8 into d->conv. */
static size_t cp1252_convert(hr_textdec *d, const unsigned char *s, size_t n, size_t *bad)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = hr_cp1252_lookup(s[i]);
        *bad += cp == 0xFFFD;
        o += hr_utf8_encode(cp, d->conv + o);
    }
    return o;
}

/* Which 8-bit code page a line that is not UTF-8 is in. Chinese text in GBK is runs of byte
 * pairs that are both high (GB2312's rows and cells are 0xA1..0xFE); Western text in CP1252
 * is single high bytes between ASCII letters. */
static bool looks_gbk(const unsigned char *s, size_t n)
{
    size_t cjk = 0, other = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0x81 && c <= 0xfe && i + 1 < n && s[i + 1] >= 0x40 && s[i + 1] != 0x7f && s[i + 1] != 0xff &&
            hr_gbk_lookup(c, s[i + 1]) != 0xFFFD) {
            if (s[i + 1] >= 0x80)
                cjk++;
            else
                other++;
            i += 2;
        } else {
            other++;
            i++;
        }
    }
    return cjk > other;
}

/* Hand on the segment s[0..n) (d->seg, or a whole line straight from the input); high: it
 * has a byte >= 0x80 (-1: not known yet). */
static void emit_text(hr_textdec *d, const char *text, size_t n, int high, unsigned flags)
{
    if (n == 0) {
        d->seg_bad = 0;
        return;
    }
    const unsigned char *s = (const unsigned char *)text;
    size_t len = n;
    const char *out = text;
    if (high < 0) {
        high = 0;
        for (size_t i = 0; i < n; i++) {
            if (s[i] >= 0x80) {
                high = 1;
                break;
            }
        }
    }
    if (high && d->enc == HR_TEXT_UTF8) {
        size_t bad = utf8_invalid(s, n);
        /* A window of a long line may cut a character at either end: a few bad bytes there
         * do not make it GBK. */
        if (bad > ((flags & HR_SEG_CUT) ? 6u : 0u)) {
            size_t notdecoded = 0;
            if (looks_gbk(s, n)) {
                n = gbk_convert(d, s, n, &notdecoded);
                flags |= HR_SEG_GBK;
                d->gbk_segments++;
            } else {
                n = cp1252_convert(d, s, n, &notdecoded);
                flags |= HR_SEG_CP1252;
                d->cp1252_segments++;
            }
            d->seg_bad += notdecoded;
            d->bad += notdecoded;
            out = d->conv;
        }
    }
    /* Binary data: control bytes and undecodable bytes make up more than 1 in 16. */
    if (d->seg_bad >= 2 && d->seg_bad * 16 > len + d->seg_bad) {
        flags |= HR_SEG_JUNK;
        d->junk_segments++;
    }
    d->seg_bad = 0;
    d->segments++;
    d->fn(d->user, out, n, d->lineno, flags);
}

static void emit(hr_textdec *d, unsigned flags)
{
    emit_text(d, d->seg, d->len, -1, flags);
}

static void end_segment(hr_textdec *d, unsigned flags)
{
    if (d->cut)
        flags |= HR_SEG_CUT;
    emit(d, flags);
    d->len = 0;
    d->cut = false;
}

static void push_text(hr_textdec *d, unsigned char c)
{
    if (d->len == HR_TEXTDEC_SEG_MAX) {
        if (!d->cut)
            d->long_lines++;
        d->cut = true;
        emit(d, HR_SEG_CUT);
        memmove(d->seg, d->seg + HR_TEXTDEC_SEG_MAX - HR_TEXTDEC_OVERLAP, HR_TEXTDEC_OVERLAP);
        d->len = HR_TEXTDEC_OVERLAP;
    }
    d->seg[d->len++] = (char)c;
}

/* One byte of (UTF-8 or 8-bit) text after decoding. */
static void push_byte(hr_textdec *d, unsigned char c)
{
    d->mid_line = c != '\n';
    if (d->pending_cr) {
        d->pending_cr = false;
        if (c == '\n') {
            end_segment(d, 0);
            d->lineno++;
            return;
        }
        end_segment(d, HR_SEG_CR);
    }
    if (d->esc != ESC_NONE) {
        /* A newline always ends an escape sequence: a broken one must not eat the log. */
        if (c != '\n' && c != '\r' && ++d->esc_len < 256) {
            switch (d->esc) {
            case ESC_START: d->esc = c == '[' ? ESC_CSI : c == ']' ? ESC_OSC : ESC_NONE; return;
            case ESC_CSI:
                if (c >= 0x20 && c <= 0x3f)
                    return;
                d->esc = ESC_NONE;
                if (c >= 0x40 && c <= 0x7e)
                    return;
                break; /* not a CSI byte: end it and keep the byte */
            case ESC_OSC:
                if (c == 0x07)
                    d->esc = ESC_NONE;
                else if (c == 0x1b)
                    d->esc = ESC_OSC_ESC;
                return;
            case ESC_OSC_ESC: d->esc = c == '\\' ? ESC_NONE : ESC_OSC; return;
            default: d->esc = ESC_NONE; break;
            }
        } else {
            d->esc = ESC_NONE;
        }
    }
    switch (c) {
    case '\n':
        end_segment(d, 0);
        d->lineno++;
        return;
    case '\r': d->pending_cr = true; return;
    case 0x1b:
        d->esc = ESC_START;
        d->esc_len = 0;
        return;
    case '\t': push_text(d, ' '); return;
    default: break;
    }
    if (c < 0x20 || c == 0x7f) {
        d->dropped++;
        d->seg_bad++;
        if (c != 0)
            d->bad++; /* a run of NULs is a file's padding after a crash, not binary */
        return;
    }
    push_text(d, c);
}

static void push_cp(hr_textdec *d, uint32_t cp)
{
    char b[4];
    size_t n = hr_utf8_encode(cp, b);
    for (size_t i = 0; i < n; i++)
        push_byte(d, (unsigned char)b[i]);
}

static void push_bad_cp(hr_textdec *d)
{
    d->seg_bad++;
    d->bad++;
    push_cp(d, 0xFFFD);
}

static void push_u16(hr_textdec *d, uint32_t u)
{
    if (u >= 0xd800 && u <= 0xdbff) {
        if (d->u16_high)
            push_bad_cp(d);
        d->u16_high = u;
        return;
    }
    if (u >= 0xdc00 && u <= 0xdfff) {
        if (d->u16_high) {
            uint32_t cp = 0x10000 + ((d->u16_high - 0xd800) << 10) + (u - 0xdc00);
            d->u16_high = 0;
            push_cp(d, cp);
        } else {
            push_bad_cp(d);
        }
        return;
    }
    if (d->u16_high) {
        d->u16_high = 0;
        push_bad_cp(d);
    }
    push_cp(d, u);
}

/* Sixteen bytes as one value where the compiler offers vectors (GCC, Clang). */
#if defined(__GNUC__) && (defined(__SSE2__) || defined(__ARM_NEON))
#define HR_TEXTDEC_VEC 1
typedef unsigned char hr_textdec_u8x16 __attribute__((vector_size(16)));
#else
#define HR_TEXTDEC_VEC 0
#endif

/* HR_SEG_BAR's test of a run of ASCII text p[0..n) (n < 64), given the mask of its letters
 * and '%' bytes (bit i: p[i]): the letters only in the last five bytes, "it/s]" or "s/it]".
 * Returns 0 or the flags to add. */
static unsigned bar_shape(const unsigned char *p, size_t n, uint64_t marks)
{
    if (!hr_bar_tail((const char *)p, n))
        return 0;
    unsigned flags = HR_SEG_BAR;
    for (marks &= (UINT64_C(1) << (n - 5)) - 1; marks; marks &= marks - 1) {
#if defined(__GNUC__)
        size_t k = (size_t)__builtin_ctzll(marks);
#else
        size_t k = 0;
        while (!(marks >> k & 1u))
            k++;
#endif
        if (p[k] != '%')
            return 0; /* a letter */
        if (hr_bar_full_at(p, n, k))
            flags |= HR_SEG_BAR_FULL;
    }
    return flags;
}

/* Ordinary text bytes (printable ASCII and every byte >= 0x80) need no decision: they are
 * found eight at a time, and a whole line of them that lies in the input is handed on from
 * there without a copy; only control bytes go through push_byte. This is most of the speed.
 * *high: the run has a byte >= 0x80. *marks: where the compiler has SSE2 and the run is
 * shorter than 64 bytes, a bit for each of its ASCII letters and '%' (bit i: p[i]; see
 * bar_shape), else all ones (not known). */
static size_t plain_run(const unsigned char *p, size_t n, int *high, uint64_t *marks)
{
    const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
    size_t i = 0;
    uint64_t seen = 0;
    *marks = ~UINT64_C(0);
#if HR_TEXTDEC_VEC && defined(__SSE2__)
    /* sixteen at a time first, the same tests, each made a mask of one bit a byte (SSE2's
     * pmovmskb): the first stop byte is found there at once, the bytes >= 0x80 before it
     * are its top bits. In the same pass a third mask, of the letters and '%': a tqdm bar's
     * redraw (most of the segments of a console log) is told from it without a second look
     * at its bytes. Past 64 bytes the shift wraps: that mask is then not used. */
    typedef char hr_textdec_c8x16 __attribute__((vector_size(16)));
    typedef signed char hr_textdec_s8x16 __attribute__((vector_size(16)));
    unsigned hi = 0;
    uint64_t mk = 0;
    while (i + 16 <= n) {
        hr_textdec_u8x16 x, stop;
        memcpy(&x, p + i, 16);
        stop = (hr_textdec_u8x16)(((x & 0xe0) == 0) | (x == 0x7f)); /* < 0x20 or 0x7f */
        /* an ASCII letter: x | 0x20 in 'a'..'z', moved to -128..-103 as a signed byte (one
         * compare; no byte >= 0x80 lands there) */
        hr_textdec_s8x16 l = (hr_textdec_s8x16)((x | 0x20) + (unsigned char)(0x80 - 'a'));
        hr_textdec_u8x16 mark = (hr_textdec_u8x16)(l < -128 + 26) | (x == '%');
        unsigned sm = (unsigned)__builtin_ia32_pmovmskb128((hr_textdec_c8x16)stop);
        unsigned hm = (unsigned)__builtin_ia32_pmovmskb128((hr_textdec_c8x16)x);
        mk |= (uint64_t)(unsigned)__builtin_ia32_pmovmskb128((hr_textdec_c8x16)mark) << (i & 63);
        if (sm) {
            unsigned k = (unsigned)__builtin_ctz(sm);
            *high = (hi | (hm & ((1u << k) - 1))) != 0;
            if (i < 64)
                *marks = mk; /* bits past the stop are the caller's to ignore */
            return i + k;
        }
        hi |= hm;
        i += 16;
    }
    if (hi)
        seen = tops;
#elif HR_TEXTDEC_VEC
    /* sixteen at a time first, where the compiler has vectors: the same tests */
    hr_textdec_u8x16 seen16 = { 0 };
    while (i + 16 <= n) {
        hr_textdec_u8x16 x, stop;
        memcpy(&x, p + i, 16);
        stop = (hr_textdec_u8x16)((x < 0x20) | (x == 0x7f));
        uint64_t q[2];
        memcpy(q, &stop, 16);
        if (q[0] | q[1])
            break; /* the eight-byte loop below finds which byte */
        seen16 |= x;
        i += 16;
    }
    uint64_t s16[2];
    memcpy(s16, &seen16, 16);
    seen = s16[0] | s16[1];
#endif
    while (i + 8 <= n) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        /* a byte below 0x20 or 0x7f, exactly per byte (no carry crosses a byte): s is a
         * byte's low seven bits plus one, in 0x21..0x7f just where it is printable ASCII
         * (s + 0x5f has its top bit set, s has not); bytes >= 0x80 are text too */
        uint64_t s = (x & ones * 0x7f) + ones;
        uint64_t stop = ~(((s + ones * 0x5f) & ~s) | x) & tops;
        if (stop) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            size_t k = (size_t)__builtin_ctzll(stop) >> 3;
            if (k) {
                uint64_t keep = ((uint64_t)1 << (k * 8)) - 1;
                seen |= x & keep;
                i += k;
            }
            *high = (seen & tops) != 0;
            return i;
#else
            break;
#endif
        }
        seen |= x;
        i += 8;
    }
    while (i < n && p[i] >= 0x20 && p[i] != 0x7f)
        seen |= p[i++];
    *high = (seen & tops) != 0;
    return i;
}

static void decode(hr_textdec *d, const unsigned char *p, size_t n)
{
    if (d->enc == HR_TEXT_UTF8) {
        size_t i = 0;
        while (i < n) {
            if (d->esc == ESC_NONE && !d->pending_cr) {
                int high = 0;
                uint64_t marks = 0;
                size_t run, e;
            whole:
                run = plain_run(p + i, n - i, &high, &marks);
                e = i + run;
                /* A whole line (or a redrawn bar) in the input: no copy. What push_byte
                 * would do with its \n, \r\n or lone \r, done here. */
                if (d->len == 0 && run <= HR_TEXTDEC_SEG_MAX && e < n &&
                    (p[e] == '\n' || (p[e] == '\r' && e + 1 < n))) {
                    bool cr = p[e] == '\r' && p[e + 1] != '\n';
                    if (!high && run && d->seg_bad == 0) {
                        /* emit_text's work for ASCII text, where there is nothing to decide */
                        unsigned flags = cr ? HR_SEG_CR : 0;
                        if (run < 64 && p[e - 1] == ']')
                            flags |= bar_shape(p + i, run, marks);
                        d->segments++;
                        d->fn(d->user, (const char *)p + i, run, d->lineno, flags);
                    } else {
                        emit_text(d, (const char *)p + i, run, high, cr ? HR_SEG_CR : 0);
                    }
                    if (cr) {
                        d->mid_line = true;
                        i = e + 1;
                    } else {
                        d->mid_line = false;
                        d->lineno++;
                        i = e + (p[e] == '\r' ? 2 : 1);
                    }
                    /* this path leaves no escape, no pending \r and nothing in d->seg:
                     * the next line is looked at at once */
                    if (i < n)
                        goto whole;
                    continue;
                }
                while (run > 0) {
                    if (d->len == HR_TEXTDEC_SEG_MAX) {
                        push_text(d, p[i]); /* emits a window and makes room */
                        i++;
                        run--;
                        continue;
                    }
                    size_t k = HR_TEXTDEC_SEG_MAX - d->len;
                    if (k > run)
                        k = run;
                    memcpy(d->seg + d->len, p + i, k);
                    d->len += k;
                    d->mid_line = true;
                    i += k;
                    run -= k;
                }
                if (i >= n)
                    break;
            }
            push_byte(d, p[i++]);
        }
        return;
    }
    bool le = d->enc == HR_TEXT_UTF16LE;
    for (size_t i = 0; i < n; i++) {
        if (!d->u16_have_byte) {
            d->u16_byte = p[i];
            d->u16_have_byte = true;
            continue;
        }
        d->u16_have_byte = false;
        uint32_t u = le ? (uint32_t)d->u16_byte | (uint32_t)p[i] << 8 : (uint32_t)d->u16_byte << 8 | (uint32_t)p[i];
        push_u16(d, u);
    }
}

/* Decide the encoding from the head bytes and decode them. */
static void decide(hr_textdec *d)
{
    const unsigned char *h = d->head;
    size_t n = d->head_len, skip = 0;
    d->decided = true;
    if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf) {
        d->enc = HR_TEXT_UTF8;
        skip = 3;
        d->bom = true;
    } else if (n >= 2 && h[0] == 0xff && h[1] == 0xfe) {
        d->enc = HR_TEXT_UTF16LE;
        skip = 2;
        d->bom = true;
    } else if (n >= 2 && h[0] == 0xfe && h[1] == 0xff) {
        d->enc = HR_TEXT_UTF16BE;
        skip = 2;
        d->bom = true;
    } else if (n >= 4) {
        /* Text in UTF-16 has a NUL in every other byte for ASCII characters: many NULs at
         * odd offsets and few at even ones means LE, the mirror image BE. Binary junk has
         * NULs everywhere and stays 8-bit. */
        size_t even = 0, odd = 0, pairs = n / 2;
        for (size_t i = 0; i + 1 < n; i += 2) {
            even += h[i] == 0;
            odd += h[i + 1] == 0;
        }
        if (odd * 10 >= pairs * 4 && even * 10 <= pairs)
            d->enc = HR_TEXT_UTF16LE;
        else if (even * 10 >= pairs * 4 && odd * 10 <= pairs)
            d->enc = HR_TEXT_UTF16BE;
    }
    decode(d, h + skip, n - skip);
}

void hr_textdec_feed(hr_textdec *d, const void *data, size_t n)
{
    const unsigned char *p = data;
    d->bytes += n;
    if (!d->decided) {
        size_t take = HR_TEXTDEC_HEAD - d->head_len;
        if (take > n)
            take = n;
        memcpy(d->head + d->head_len, p, take);
        d->head_len += take;
        p += take;
        n -= take;
        if (d->head_len < HR_TEXTDEC_HEAD)
            return;
        decide(d);
    }
    decode(d, p, n);
}

void hr_textdec_finish(hr_textdec *d)
{
    if (!d->decided)
        decide(d);
    if (d->u16_have_byte || d->u16_high) {
        d->u16_have_byte = false;
        d->u16_high = 0;
        push_cp(d, 0xFFFD);
    }
    if (d->pending_cr) {
        d->pending_cr = false;
        end_segment(d, HR_SEG_CR);
    }
    d->esc = ESC_NONE;
    end_segment(d, 0);
}
