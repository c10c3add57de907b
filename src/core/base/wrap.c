#include "core/base/wrap.h"
#include "core/base/utf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The code point at p (n bytes left) and its length; an invalid byte is itself, 1 byte. */
static uint32_t next_cp(const char *p, size_t n, size_t *len)
{
    const unsigned char *u = (const unsigned char *)p;
    *len = hr_utf8_valid_prefix(u, n);
    if (*len == 0) {
        *len = 1;
        return u[0];
    }
    if (*len == 1)
        return u[0];
    uint32_t cp = u[0] & (0x7fu >> *len);
    for (size_t i = 1; i < *len; i++)
        cp = (cp << 6) | (u[i] & 0x3fu);
    return cp;
}

/* The display width of one code point, measured by the shared table. */
static size_t cp_width(const char *p, size_t len)
{
    char one[5];
    memcpy(one, p, len);
    one[len] = '\0';
    return hr_utf8_width(one);
}

/* Closing punctuation a line may not start with (the Chinese rule 避头), and openers it may
 * not end with (避尾). */
static bool closing(uint32_t c)
{
    static const uint32_t set[] = { 0xff0c, 0x3002, 0xff1a, 0xff1b, 0xff09, 0x3001, 0xff01, 0xff1f,
                                    0x201d, 0x2019, 0x300b, 0x300d, 0x2026, 0x2014, 0xff05, ',',
                                    '.',    ':',    ';',    ')',    ']',    '%',    '!',    '?' };
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        if (set[i] == c)
            return true;
    return false;
}

static bool opening(uint32_t c)
{
    return c == 0xff08 || c == 0x201c || c == 0x2018 || c == 0x300a || c == 0x300c || c == '(' || c == '[';
}

static bool wide(const char *p, size_t len)
{
    return cp_width(p, len) == 2;
}

/* The token (run of non-space bytes) that starts at p: is it a unit a number may carry? */
static bool is_unit(const char *p)
{
    static const char *const units[] = { "B",   "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB",
                                         "TiB", "kB", "%",  "s",  "ms", "min", "h",   "x" };
    size_t n = strcspn(p, " \n");
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t u = strlen(units[i]);
        /* "16 GB，" and "16 GB）" are a number and its unit too. */
        if (n >= u && !strncmp(p, units[i], u) &&
            (n == u || !(((unsigned char)p[u] >= 'A' && (unsigned char)p[u] <= 'Z') ||
                         ((unsigned char)p[u] >= 'a' && (unsigned char)p[u] <= 'z'))))
            return true;
    }
    /* A Chinese measure word after a number: "81 帧", "2 个进程", "7 天". */
    static const char *const words[] = { "个", "次", "帧", "天", "秒", "分钟", "小时", "行", "字节", "条",
                                         "步", "项", "块", "张", "倍", "年",   "月",   "日", "周" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strncmp(p, words[i], strlen(words[i])))
            return true;
    return false;
}

/* May a line break at the spaces between prev_end (one past the last byte of the word
 * before) and next (the first byte of the word after)? */
static bool break_at_space(const char *start, const char *prev_end, const char *next)
{
    const char *w = prev_end;
    while (w > start && w[-1] != ' ')
        w--;
    const char last = prev_end[-1];
    size_t len;
    uint32_t c = next_cp(next, strlen(next), &len);
    if (closing(c))
        return false;
    if (last >= '0' && last <= '9' && is_unit(next))
        return false;
    if ((prev_end - w == 1 && (*w == '=' || *w == '+' || *w == '-' || *w == 0x7e)) ||
        ((*next == '=' || *next == '+') && (next[1] == ' ' || next[1] == '\0')))
        return false;
    /* The character before the spaces: an opening bracket keeps its word. */
    const char *q = prev_end - 1;
    while (q > start && ((unsigned char)*q & 0xc0) == 0x80)
        q--;
    if (opening(next_cp(q, (size_t)(prev_end - q), &len)))
        return false;
    return true;
}

void hr_wrap(hr_buf *out, const char *indent, const char *s, size_t width)
{
    const size_t ind = hr_utf8_width(indent);
    while (*s == ' ')
        s++;
    if (!*s) {
        hr_buf_puts(out, indent);
        hr_buf_putc(out, '\n');
        return;
    }
    while (*s) {
        size_t col = ind;
        const char *p = s, *cut_end = NULL, *cut_next = NULL;
        const char *prev = NULL; /* the character before p on this line */
        while (*p) {
            size_t len;
            uint32_t c = next_cp(p, strlen(p), &len);
            if (*p == ' ') {
                const char *q = p;
                while (*q == ' ')
                    q++;
                if (!*q) {
                    p = q;
                    break;
                }
                if (break_at_space(s, p, q)) {
                    cut_end = p;
                    cut_next = q;
                }
                size_t sp = (size_t)(q - p);
                if (col + sp > width && cut_end)
                    break;
                col += sp;
                prev = q - 1;
                p = q;
                continue;
            }
            if (prev && *prev != ' ') {
                size_t plen;
                const char *pp = prev;
                while (pp > s && ((unsigned char)*pp & 0xc0) == 0x80)
                    pp--;
                uint32_t pc = next_cp(pp, strlen(pp), &plen);
                /* Between two characters with no space, Chinese may break. */
                if ((wide(p, len) || wide(pp, plen)) && !closing(c) && !opening(pc)) {
                    cut_end = p;
                    cut_next = p;
                }
            }
            size_t w = cp_width(p, len);
            if (col + w > width && cut_end)
                break;
            col += w;
            prev = p + len - 1;
            p += len;
        }
        if (!*p) {
            /* The rest fits (or is one word longer than the line). */
            const char *end = p;
            while (end > s && end[-1] == ' ')
                end--;
            hr_buf_puts(out, indent);
            hr_buf_append(out, s, (size_t)(end - s));
            hr_buf_putc(out, '\n');
            return;
        }
        hr_buf_puts(out, indent);
        hr_buf_append(out, s, (size_t)(cut_end - s));
        hr_buf_putc(out, '\n');
        s = cut_next;
    }
}

const char *hr_label_gap(const char *label)
{
    size_t n = strlen(label);
    if (n == 0)
        return "";
    const char *q = label + n - 1;
    while (q > label && ((unsigned char)*q & 0xc0) == 0x80)
        q--;
    size_t len;
    (void)next_cp(q, (size_t)(label + n - q), &len);
    return wide(q, len) ? "" : " ";
}
