/* The log decoder: encodings, line endings, escapes, long lines, chunk boundaries. */
#include "test.h"

#include "core/base/textdec.h"

#include <stdlib.h>

typedef struct collected {
    char text[65536];
    size_t len;
    unsigned segs;
    unsigned flags_or;
} collected;

/* Segments joined as "<line>:<text>|". */
static void collect(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    collected *c = user;
    c->len += (size_t)snprintf(c->text + c->len, sizeof c->text - c->len, "%llu:%.*s|", (unsigned long long)lineno,
                               (int)len, text);
    c->segs++;
    c->flags_or |= flags;
}

static hr_textdec dec;

static void decode(collected *c, const void *data, size_t n, size_t chunk)
{
    memset(c, 0, sizeof *c);
    hr_textdec_init(&dec, collect, c);
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i += chunk)
        hr_textdec_feed(&dec, p + i, n - i < chunk ? n - i : chunk);
    hr_textdec_finish(&dec);
}

/* The bar hint of each segment, as letters: '-' none, 'b' HR_SEG_BAR, 'f' with
 * HR_SEG_BAR_FULL. */
typedef struct hints {
    char s[64];
    size_t n;
} hints;

static void collect_hint(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    (void)text;
    (void)len;
    (void)lineno;
    hints *h = user;
    if (h->n + 1 < sizeof h->s)
        h->s[h->n++] = (flags & HR_SEG_BAR_FULL) ? 'f' : (flags & HR_SEG_BAR) ? 'b' : '-';
}

/* The same result whatever the chunking. */
static void check_chunking(const void *data, size_t n, const char *want)
{
    static collected c;
    size_t chunks[] = { 1, 2, 3, 7, 511, 512, 513, 4096 };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        decode(&c, data, n, chunks[i]);
        CHECK_STR(c.text, want);
    }
}

int main(void)
{
    static collected c;

    /* plain, CRLF, lone CR (progress bars), last line without newline */
    const char plain[] = "one\r\ntwo\n 10%|#\r 20%|##\rboom\nlast";
    check_chunking(plain, sizeof plain - 1, "1:one|2:two|3: 10%|#|3: 20%|##|3:boom|4:last|");
    decode(&c, plain, sizeof plain - 1, 4096);
    CHECK(c.flags_or & HR_SEG_CR);
    CHECK_EQ_U64(hr_textdec_lines(&dec), 4);
    decode(&c, "a\nb\n", 4, 4096);
    CHECK_EQ_U64(hr_textdec_lines(&dec), 2);
    CHECK_STR(hr_textdec_encoding_name(&dec), "utf-8");

    /* ANSI: colours (CSI), a window title (OSC ended by ST and by BEL), tabs, NULs */
    const char ansi[] = "\x1b[31;1mred\x1b[0m\tx\x1b]0;title\x1b\\y\x1b]2;t\x07z\x00!\n";
    check_chunking(ansi, sizeof ansi - 1, "1:red xyz!|");
    /* a broken escape must not swallow the next line */
    const char broken[] = "a\x1b]never ends\nnext line\n";
    check_chunking(broken, sizeof broken - 1, "1:a|2:next line|");

    /* UTF-16LE with BOM, CRLF, a character outside the BMP (surrogate pair) */
    const unsigned char le[] = {
        0xff, 0xfe, 'o', 0, 'k', 0, '\r', 0, '\n', 0, 0x3d, 0xd8, 0x00, 0xde, '!', 0, '\n', 0
    };
    check_chunking(le, sizeof le, "1:ok|2:\xf0\x9f\x98\x80!|");
    decode(&c, le, sizeof le, 4096);
    CHECK_STR(hr_textdec_encoding_name(&dec), "utf-16le");

    /* UTF-16LE without BOM (found by its NULs), and UTF-16BE with BOM */
    const char *ascii = "Traceback (most recent call last):\nMemoryError\n";
    unsigned char buf[256], be[256];
    size_t n = 0, m = 2;
    be[0] = 0xfe;
    be[1] = 0xff;
    for (const char *p = ascii; *p; p++) {
        buf[n++] = (unsigned char)*p;
        buf[n++] = 0;
        be[m++] = 0;
        be[m++] = (unsigned char)*p;
    }
    check_chunking(buf, n, "1:Traceback (most recent call last):|2:MemoryError|");
    check_chunking(be, m, "1:Traceback (most recent call last):|2:MemoryError|");

    /* GBK: 页面文件太小 (a line that is not UTF-8) next to a UTF-8 line */
    const unsigned char gbk[] = { '[',  'W',  'i',  'n',  'E',  'r',  'r',  'o',  'r',  ' ',  '1',  '4',  '5',
                                  '5',  ']',  ' ',  0xd2, 0xb3, 0xc3, 0xe6, 0xce, 0xc4, 0xbc, 0xfe, 0xcc, 0xab,
                                  0xd0, 0xa1, 0xa3, 0xac, 0xb0, 0xa1, '\n', 0xe4, 0xb8, 0xad, '\n' };
    /* the whole of GBK decodes (啊 at 0xB0A1 is in no phrase) */
    check_chunking(gbk, sizeof gbk, "1:[WinError 1455] 页面文件太小，啊|2:中|");
    decode(&c, gbk, sizeof gbk, 4096);
    CHECK_STR(hr_textdec_encoding_name(&dec), "utf-8+gbk");
    CHECK(c.flags_or & HR_SEG_GBK);

    /* a GBK path the phrases know nothing of: D:\AI绘画\模型 (the evidence lines used to be
     * garbled), GBK's extension beyond GB2312 (0x8140 丂), and CP936's euro at 0x80 */
    const unsigned char path[] = { 'D',  ':',  '\\', 'A',  'I', 0xbb, 0xe6, 0xbb, 0xad, '\\',
                                   0xc4, 0xa3, 0xd0, 0xcd, ' ', 0x81, 0x40, ' ',  0x80, '\n' };
    check_chunking(path, sizeof path, "1:D:\\AI绘画\\模型 丂 €|");
    /* CP1252 (Western Windows): single high bytes between letters */
    const unsigned char latin[] = "Die Auslagerungsdatei ist zu klein f\xfcr diesen Vorgang: "
                                  "caf\xe9 \x80 \x93ok\x94\n";
    check_chunking(latin, sizeof latin - 1, "1:Die Auslagerungsdatei ist zu klein für diesen Vorgang: café € “ok”|");
    decode(&c, latin, sizeof latin - 1, 4096);
    CHECK_STR(hr_textdec_encoding_name(&dec), "utf-8+cp1252");
    CHECK(c.flags_or & HR_SEG_CP1252);

    /* binary junk with NULs everywhere stays 8-bit (not UTF-16) */
    unsigned char junk[1024];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i % 3 == 0 ? 0 : (i * 37) & 0xff);
    decode(&c, junk, sizeof junk, 4096);
    CHECK(strncmp(hr_textdec_encoding_name(&dec), "utf-8", 5) == 0);

    /* a long line is handed on in overlapping windows: a phrase across a window edge is
     * still seen whole in one of them */
    size_t big = HR_TEXTDEC_SEG_MAX * 3;
    char *lng = malloc(big + 64);
    memset(lng, 'x', big);
    const char phrase[] = "CUDA out of memory";
    memcpy(lng + HR_TEXTDEC_SEG_MAX - 5, phrase, sizeof phrase - 1);
    memcpy(lng + big, "\nend\n", 5);
    static collected w;
    memset(&w, 0, sizeof w);
    hr_textdec_init(&dec, collect, &w);
    hr_textdec_feed(&dec, lng, big + 5);
    hr_textdec_finish(&dec);
    CHECK(w.flags_or & HR_SEG_CUT);
    CHECK_EQ_U64(dec.long_lines, 1);
    CHECK_CONTAINS(w.text, phrase);
    CHECK_CONTAINS(w.text, "|2:end|");
    free(lng);

    /* the bar hint: a whole line of ASCII in the input, with vectors (SSE2) only; where it
     * is given it is right (no letter before "it/s]" / "s/it]"; "100%|" in it) */
    const char bars[] = "head line, long enough to be looked at sixteen bytes at a time\n"
                        " 45%|####5     | 9/20 [00:10<00:12,  1.1s/it]\r"
                        "100%|##########| 20/20 [00:20<00:00,  1.21it/s]\r"
                        " 50%|Killed    | 1/2 [00:01<00:01,  1.0it/s]\r"
                        "  0%|          | 0/20 [00:00<?, ?it/s]\r"
                        "[2025-03-14 20:41:07] 100%|#| 1/1 [00:01<00:00, 1.00it/s]\n"
                        "tail line that is not a bar at all, the end of this little log\n";
    hints h;
    memset(&h, 0, sizeof h);
    hr_textdec_init(&dec, collect_hint, &h);
    hr_textdec_feed(&dec, bars, sizeof bars - 1);
    hr_textdec_finish(&dec);
#if defined(__GNUC__) && defined(__SSE2__)
    CHECK_STR(h.s, "-bf-bf-"); /* "[00:00<?, ?it/s]": no letter but its end */
#else
    CHECK_STR(h.s, "-------");
#endif
    /* fed one byte at a time (after the head the encoding is decided on): no whole line in
     * the input, no hint */
    memset(&h, 0, sizeof h);
    hr_textdec_init(&dec, collect_hint, &h);
    char head[HR_TEXTDEC_HEAD + 1];
    memset(head, '.', sizeof head - 1);
    head[sizeof head - 1] = '\n';
    hr_textdec_feed(&dec, head, sizeof head);
    for (size_t i = 0; i + 1 < sizeof bars; i++)
        hr_textdec_feed(&dec, bars + i, 1);
    hr_textdec_finish(&dec);
    CHECK_STR(h.s, "--------");

    /* empty input */
    decode(&c, "", 0, 1);
    CHECK_EQ_U64(c.segs, 0);
    CHECK_EQ_U64(hr_textdec_lines(&dec), 0);
    return TEST_DONE();
}
