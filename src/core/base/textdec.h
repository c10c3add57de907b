/* headroom — a streaming decoder for console logs.
 *
 * Turns the bytes of a log, fed in chunks of any size, into clean UTF-8 text segments for
 * the diagnosis, in bounded memory whatever the input's size:
 *   - encoding: UTF-16LE/BE (BOM, or the pattern of NUL bytes PowerShell's `>` leaves),
 *     UTF-8 (BOM or not), and per line GBK / CP936 (Chinese Windows consoles) or CP1252
 *     (Western Windows) when a line is not valid UTF-8 (core/base/codepage.h: whole tables,
 *     generated at build time);
 *   - ANSI escape sequences (colours, cursor moves, OSC titles) removed, other control bytes
 *     and NULs dropped;
 *   - segments end at \n, \r\n and a lone \r (tqdm redraws its bar with \r), so a progress
 *     bar and the message glued after it arrive as separate segments, all carrying the line
 *     number an editor shows (lines counted by \n);
 *   - a segment longer than HR_TEXTDEC_SEG_MAX is handed on in overlapping windows so that
 *     a phrase anywhere in a multi-megabyte line is still seen whole.
 * Pure: no I/O, no allocation (the struct is large; allocate it, don't put it on a small
 * stack). */
#ifndef HR_TEXTDEC_H
#define HR_TEXTDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>

#define HR_TEXTDEC_SEG_MAX 8192 /* bytes of a segment handed on at once */
#define HR_TEXTDEC_OVERLAP 256  /* bytes repeated between windows of a long line */
#define HR_TEXTDEC_HEAD    512  /* bytes looked at to detect UTF-16 without a BOM */

typedef enum hr_text_encoding {
    HR_TEXT_UTF8 = 0, /* UTF-8, ASCII, or 8-bit text (GBK lines converted) */
    HR_TEXT_UTF16LE,
    HR_TEXT_UTF16BE
} hr_text_encoding;

/* Segment flags. */
#define HR_SEG_CR     1u  /* ended by a lone \r: a redrawn progress line */
#define HR_SEG_CUT    2u  /* a window of an over-long line */
#define HR_SEG_GBK    4u  /* decoded from GBK */
#define HR_SEG_CP1252 16u /* decoded from CP1252 */
#define HR_SEG_JUNK                                                                                                    \
    8u /* not text: more than 1 byte in 16 was a control byte or did not
                               decode (binary data); the diagnosis ignores such a segment */
/* A hint, given only where the decoder sees it for free (a whole short line of ASCII text
 * found sixteen bytes at a time); its absence says nothing: */
#define HR_SEG_BAR                                                                                                     \
    32u                     /* a bare tqdm bar's redraw: no letter but the "it/s]" or "s/it]"
                               that ends it */
#define HR_SEG_BAR_FULL 64u /* with HR_SEG_BAR: the bar holds "100%|" */

/* The end of a tqdm bar's redraw, p[0..n) ending in "it/s]" or "s/it]" (its rate): the one
 * test of it, for the decoder's HR_SEG_BAR and the diagnosis's bars it reads itself. */
static inline bool hr_bar_tail(const char *p, size_t n)
{
    return n >= 5 && (memcmp(p + n - 5, "it/s]", 5) == 0 || memcmp(p + n - 5, "s/it]", 5) == 0);
}

/* A finished tqdm bar, "100%|", with its '%' at p[k] inside p[0..n): the one test of it, for
 * the decoder's HR_SEG_BAR_FULL and for the diagnosis's bars it reads itself. Inline: both
 * ask it in their per-byte loops. */
static inline bool hr_bar_full_at(const unsigned char *p, size_t n, size_t k)
{
    return k >= 3 && k + 1 < n && p[k] == '%' && p[k + 1] == '|' && p[k - 3] == '1' && p[k - 2] == '0' &&
           p[k - 1] == '0';
}

/* Called for every non-empty segment: UTF-8 text (not NUL-terminated), its length, the
 * 1-based line number and HR_SEG_* flags. */
typedef void (*hr_textdec_fn)(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags);

typedef struct hr_textdec {
    hr_textdec_fn fn;
    void *user;
    hr_text_encoding enc;
    bool decided; /* encoding known */
    bool bom;     /* the input began with a byte-order mark */
    unsigned char head[HR_TEXTDEC_HEAD];
    size_t head_len;
    /* UTF-16 state across chunks */
    unsigned char u16_byte;
    bool u16_have_byte;
    uint32_t u16_high; /* pending high surrogate, 0 if none */
    /* ANSI escape state */
    int esc;
    unsigned esc_len;
    bool pending_cr;
    bool mid_line; /* bytes seen since the last \n */
    bool cut;      /* current line already cut into windows */
    size_t len;
    uint64_t lineno;
    /* statistics */
    uint64_t bytes;           /* input bytes */
    uint64_t segments;        /* segments handed on */
    uint64_t long_lines;      /* lines cut into windows */
    uint64_t gbk_segments;    /* segments decoded from GBK */
    uint64_t cp1252_segments; /* segments decoded from CP1252 */
    uint64_t dropped;         /* control bytes / NULs dropped */
    uint64_t bad;             /* bytes that are not text: control bytes other than NUL
                                        padding, and bytes that did not decode */
    uint64_t junk_segments;   /* segments flagged HR_SEG_JUNK */
    size_t seg_bad;           /* the same, in the current segment */
    /* buffers last: init clears everything before them */
    char seg[HR_TEXTDEC_SEG_MAX];
    char conv[HR_TEXTDEC_SEG_MAX * 3];
} hr_textdec;

void hr_textdec_init(hr_textdec *d, hr_textdec_fn fn, void *user);
void hr_textdec_feed(hr_textdec *d, const void *data, size_t n);
/* End of input: flush the last segment. */
void hr_textdec_finish(hr_textdec *d);

/* Lines in the input as an editor counts them (a last line without \n counts). */
uint64_t hr_textdec_lines(const hr_textdec *d);

/* True when the input is not text: more than 1 byte in 16 is a control byte (NUL padding
 * aside) or did not decode. A console log, whatever its encoding, has almost none. */
bool hr_textdec_not_text(const hr_textdec *d);

/* "utf-8", "utf-16le", "utf-16be"; with 8-bit lines seen, "utf-8+gbk", "utf-8+cp1252" or
 * "utf-8+gbk+cp1252". */
const char *hr_textdec_encoding_name(const hr_textdec *d);

#endif
