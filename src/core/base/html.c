/* headroom — HTML documents (html.h): escaping, the page frame and its style sheet, bars. */
#include "core/base/html.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void esc_byte(hr_buf *out, unsigned char c)
{
    switch (c) {
    case '&': hr_buf_puts(out, "&amp;"); break;
    case '<': hr_buf_puts(out, "&lt;"); break;
    case '>': hr_buf_puts(out, "&gt;"); break;
    case '"': hr_buf_puts(out, "&quot;"); break;
    case '\'': hr_buf_puts(out, "&#39;"); break;
    default:
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
            hr_buf_puts(out, "\xEF\xBF\xBD");
        else
            hr_buf_putc(out, (char)c);
    }
}

void hr_html_text(hr_buf *out, const char *s)
{
    if (!s)
        return;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        size_t len = hr_utf8_valid_prefix(p + i, n - i);
        if (len == 0) { /* a byte that does not start valid UTF-8 */
            hr_buf_puts(out, "\xEF\xBF\xBD");
            i++;
        } else if (len == 1) {
            esc_byte(out, p[i++]);
        } else {
            hr_buf_append(out, p + i, len);
            i += len;
        }
    }
}

HR_PRINTF(2, 0) static void textv(hr_buf *out, const char *fmt, va_list ap)
{
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    hr_html_text(out, tmp);
}

void hr_html_textf(hr_buf *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    textv(out, fmt, ap);
    va_end(ap);
}

/* One column, system fonts with the CJK faces Windows, macOS and Linux ship; colours that
 * survive black-and-white printing (the verdict also has its word, never colour alone). */
static const char style[] =
    ":root{--ok:#1a7f37;--risk:#9a6700;--fail:#cf222e;--unk:#6e7781;--fg:#1f2328;--mut:#59636e;"
    "--bg:#fff;--line:#d1d9e0;--c1:#0969da;--c2:#8250df;--c3:#bf3989;--c4:#1a7f37}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"
    "\"Segoe UI\",\"Microsoft YaHei\",\"PingFang SC\",\"Noto Sans CJK SC\",\"Noto Sans\",sans-serif}\n"
    "main{max-width:52rem;margin:0 auto;padding:1rem}\n"
    "h1{font-size:1.5rem;margin:.5rem 0 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem;"
    "border-bottom:1px solid var(--line);padding-bottom:.25rem}\n"
    ".sub{color:var(--mut);margin:.25rem 0 1rem}\n"
    ".verdict{border:2px solid var(--unk);border-left-width:.6rem;border-radius:.4rem;"
    "padding:.75rem 1rem;margin:1rem 0}\n"
    ".verdict .label{font-weight:700;font-size:1.3rem;line-height:1.3}\n"
    ".verdict.ok{border-color:var(--ok)}.verdict.ok .label{color:var(--ok)}\n"
    ".verdict.at-risk{border-color:var(--risk)}.verdict.at-risk .label{color:var(--risk)}\n"
    ".verdict.will-fail{border-color:var(--fail)}.verdict.will-fail .label{color:var(--fail)}\n"
    ".rule{color:var(--mut);font-size:.85em;white-space:nowrap}\n"
    "table{border-collapse:collapse;width:100%;font-size:.95rem}\n"
    "th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid var(--line)}\n"
    "td.num,th.num{text-align:right;white-space:nowrap}tr[data-tier] th{white-space:nowrap}\n"
    ".wrap{overflow-x:auto}\n"
    "ol,ul{padding-left:1.4rem}li{margin:.25rem 0}ul.evidence{list-style:none;padding:0}\n"
    "code,pre{font-family:ui-monospace,Consolas,\"Noto Sans Mono\",monospace;font-size:.88em}\n"
    "pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:.5rem;border-radius:.3rem}\n"
    "svg{display:block;width:100%;height:auto;max-width:100%}\n"
    "svg text{font:13px system-ui,\"Microsoft YaHei\",\"Noto Sans CJK SC\",sans-serif;fill:var(--fg)}\n"
    "svg .grid{stroke:var(--line);stroke-width:1}svg .axis{fill:var(--mut)}\n"
    ".c1{fill:var(--c1);stroke:var(--c1)}.c2{fill:var(--c2);stroke:var(--c2)}"
    ".c3{fill:var(--c3);stroke:var(--c3)}.c4{fill:var(--c4);stroke:var(--c4)}"
    ".bad{fill:var(--fail);stroke:var(--fail)}.good{fill:var(--ok);stroke:var(--ok)}"
    ".warn{fill:var(--risk);stroke:var(--risk)}\n"
    "svg polyline{fill:none;stroke-width:2}svg .limit{stroke-dasharray:6 4}\n"
    ".legend span{display:inline-block;margin-right:1rem;white-space:nowrap}"
    ".legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}\n"
    ".legend i.c1{background:var(--c1)}.legend i.c2{background:var(--c2)}"
    ".legend i.c3{background:var(--c3)}.legend i.c4{background:var(--c4)}"
    ".legend i.bad{background:var(--fail)}.legend i.warn{background:var(--risk)}\n"
    ".legend i.dash{background:none;height:0;border-top:3px dashed}.legend i.c1{border-color:var(--c1)}"
    ".legend i.c2{border-color:var(--c2)}.legend i.c3{border-color:var(--c3)}.legend i.c4{border-color:var(--c4)}"
    ".legend i.bad{border-color:var(--fail)}.legend i.warn{border-color:var(--risk)}\n"
    "figure{margin:1rem 0}figcaption{margin-bottom:.25rem}\n"
    "footer{color:var(--mut);font-size:.85rem;margin:2rem 0 1rem;border-top:1px solid var(--line);"
    "padding-top:.5rem}\n"
    "@media (max-width:40rem){body{font-size:15px}main{padding:.6rem}th,td{padding:.25rem .3rem}}\n"
    "@media print{body{font-size:11pt}main{max-width:none;padding:0}section{break-inside:avoid}"
    ".verdict{border-left-width:.4rem}a{color:inherit;text-decoration:none}}\n";

void hr_html_begin(hr_buf *out, const char *title, const char *subtitle)
{
    hr_buf_printf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n",
                  hr_lang_get() == HR_LANG_ZH ? "zh-CN" : "en");
    hr_buf_puts(out, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"headroom\">\n<title>");
    hr_html_text(out, title);
    hr_buf_puts(out, "</title>\n<style>\n");
    hr_buf_puts(out, style);
    hr_buf_puts(out, "</style>\n</head>\n<body>\n<main>\n<h1>");
    hr_html_text(out, title);
    hr_buf_puts(out, "</h1>\n");
    if (subtitle && *subtitle) {
        hr_buf_puts(out, "<p class=\"sub\">");
        hr_html_text(out, subtitle);
        hr_buf_puts(out, "</p>\n");
    }
}

void hr_html_end(hr_buf *out)
{
    hr_buf_puts(out, "<footer>");
    hr_html_text(out, HR_T("Written by headroom. This page is self-contained: it loads nothing "
                           "from the network and runs no script."));
    hr_buf_puts(out, "</footer>\n</main>\n</body>\n</html>\n");
}

void hr_html_section(hr_buf *out, const char *id, const char *title)
{
    hr_buf_printf(out, "<section id=\"%s\">\n<h2>", id);
    hr_html_text(out, title);
    hr_buf_puts(out, "</h2>\n");
}

void hr_html_section_end(hr_buf *out)
{
    hr_buf_puts(out, "</section>\n");
}

void hr_html_verdict(hr_buf *out, const char *cls, const char *label, const char *text, const char *rule)
{
    hr_buf_printf(out,
                  "<div class=\"verdict %s\" id=\"verdict\" data-verdict=\"%s\">"
                  "<div class=\"label\">",
                  cls, cls);
    hr_html_text(out, label);
    hr_buf_puts(out, "</div><div>");
    hr_html_text(out, text);
    hr_html_rule(out, rule);
    hr_buf_puts(out, "</div></div>\n");
}

void hr_html_bars(hr_buf *out, const char *id, const char *title, const hr_html_bar *bars, int count)
{
    uint64_t max = 0;
    for (int i = 0; i < count; i++)
        if (bars[i].bytes != HR_UNKNOWN && bars[i].bytes > max)
            max = bars[i].bytes;
    const int row = 30, left = 110, width = 480, barw = width - left - 70;
    int height = row * count + 8;
    hr_html_svg_begin(out, id, width, height, title);
    for (int i = 0; i < count; i++) {
        const hr_html_bar *b = &bars[i];
        int y = 4 + i * row;
        hr_buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8, y + 20);
        hr_html_text(out, b->label);
        hr_buf_puts(out, "</text>");
        char gb[32];
        if (b->bytes == HR_UNKNOWN || max == 0) {
            hr_buf_printf(out,
                          "<rect data-series=\"%s\" class=\"%s\" x=\"%d\" y=\"%d\" width=\"0\" "
                          "height=\"22\"/><text x=\"%d\" y=\"%d\">",
                          b->series, b->cls, left, y + 4, left + 4, y + 20);
            hr_html_text(out, b->bytes == HR_UNKNOWN ? HR_T("unknown") : "0");
            hr_buf_puts(out, "</text>\n");
            continue;
        }
        double w = (double)b->bytes / (double)max * barw;
        if (w < 1)
            w = 1;
        hr_size_gb(b->bytes, gb, sizeof gb);
        hr_buf_printf(out,
                      "<rect data-series=\"%s\" class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
                      "height=\"22\" rx=\"3\"/><text x=\"%.1f\" y=\"%d\">",
                      b->series, b->cls, left, y + 4, w, left + w + 6, y + 20);
        hr_html_text(out, gb);
        hr_buf_puts(out, "</text>\n");
    }
    hr_buf_puts(out, "</svg>\n");
}

void hr_html_rule(hr_buf *out, const char *rule)
{
    if (!rule || !*rule)
        return;
    hr_buf_puts(out, " <span class=\"rule\">[");
    hr_html_text(out, rule);
    hr_buf_puts(out, "]</span>");
}

/* <tag [class="cls"]>text</tag>, then end ("" or a new line). */
static void element(hr_buf *out, const char *tag, const char *cls, const char *text, const char *end)
{
    if (cls)
        hr_buf_printf(out, "<%s class=\"%s\">", tag, cls);
    else
        hr_buf_printf(out, "<%s>", tag);
    hr_html_text(out, text);
    hr_buf_printf(out, "</%s>%s", tag, end);
}

void hr_html_p(hr_buf *out, const char *cls, const char *text)
{
    element(out, "p", cls, text, "\n");
}

void hr_html_pf(hr_buf *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_buf_puts(out, "<p>");
    textv(out, fmt, ap);
    hr_buf_puts(out, "</p>\n");
    va_end(ap);
}

void hr_html_h3(hr_buf *out, const char *text)
{
    hr_buf_puts(out, "<h3>");
    hr_html_text(out, text);
    hr_buf_puts(out, "</h3>\n");
}

void hr_html_li(hr_buf *out, const char *text, const char *rule)
{
    hr_buf_puts(out, "<li>");
    hr_html_text(out, text);
    hr_html_rule(out, rule);
    hr_buf_puts(out, "</li>\n");
}

void hr_html_table_begin(hr_buf *out, const char *const *cols, int count, int text_cols)
{
    hr_buf_puts(out, "<div class=\"wrap\"><table>\n");
    if (count <= 0)
        return;
    hr_buf_puts(out, "<tr>");
    for (int i = 0; i < count; i++) {
        hr_buf_puts(out, i < text_cols ? "<th>" : "<th class=\"num\">");
        hr_html_text(out, cols[i]);
        hr_buf_puts(out, "</th>");
    }
    hr_buf_puts(out, "</tr>\n");
}

void hr_html_table_end(hr_buf *out)
{
    hr_buf_puts(out, "</table></div>\n");
}

void hr_html_td(hr_buf *out, const char *cls, const char *text)
{
    element(out, "td", cls, text, "");
}

void hr_html_td_gb(hr_buf *out, uint64_t bytes)
{
    char a[32];
    hr_size_gb(bytes, a, sizeof a);
    hr_html_td(out, "num", a);
}

void hr_html_svg_begin(hr_buf *out, const char *id, int w, int h, const char *label)
{
    hr_buf_printf(out, "<svg%s%s%s viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", id ? " id=\"" : "", id ? id : "",
                  id ? "\"" : "", w, h);
    hr_html_text(out, label);
    hr_buf_puts(out, "\">\n");
}

void hr_html_svg_ytick(hr_buf *out, int x1, int x2, double y, const char *label)
{
    hr_buf_printf(out,
                  "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                  "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                  x1, x2, y, y, x1 - 6, y + 4);
    hr_html_text(out, label);
    hr_buf_puts(out, "</text>\n");
}

void hr_html_svg_xtick(hr_buf *out, double x, int y, const char *anchor, const char *label)
{
    hr_buf_printf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">", x, y, anchor);
    hr_html_text(out, label);
    hr_buf_puts(out, "</text>\n");
}

void hr_html_legend_item(hr_buf *out, const char *cls, bool dashed, const char *label)
{
    hr_buf_printf(out, "<span><i class=\"%s%s\"></i>", cls, dashed ? " dash" : "");
    hr_html_text(out, label);
    hr_buf_puts(out, "</span>");
}
