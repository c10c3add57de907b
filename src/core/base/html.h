/* headroom — HTML documents: the HTML format of the one renderer interface (render.h).
 *
 * A report page is one self-contained file: inline CSS and inline SVG, no script, no font,
 * image or style sheet fetched from anywhere, so it opens offline, can be mailed or attached
 * to a forum post, and prints. The layout is one column that reads on a phone and on paper
 * (the CSS has a print block). The page's lang attribute and its headings follow the
 * message language (i18n.h). Every text that comes from the machine or the user goes through
 * hr_html_text(), which escapes it. */
#ifndef HR_HTML_H
#define HR_HTML_H

#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stdint.h>

/* Text as HTML character data or a quoted attribute value: & < > " ' escaped; bytes that are
 * not valid UTF-8 and control characters (but tab and newline) become U+FFFD. */
void hr_html_text(hr_buf *out, const char *s);
/* printf, then hr_html_text. */
HR_PRINTF(2, 3)
void hr_html_textf(hr_buf *out, const char *fmt, ...);

/* <!DOCTYPE html> ... <body><main>, with the page's title (escaped), the language of the
 * current messages and the style sheet; then an <h1> of title and a line under it. */
void hr_html_begin(hr_buf *out, const char *title, const char *subtitle);
/* The footer (what wrote the page) and </main></body></html>. */
void hr_html_end(hr_buf *out);

/* <section id="id"><h2>title</h2> ... </section>. id is an ASCII name the tests look for. */
void hr_html_section(hr_buf *out, const char *id, const char *title);
void hr_html_section_end(hr_buf *out);

/* The verdict box: class is "ok", "at-risk", "will-fail" or "unknown" (colour), label the
 * big word ("AT RISK"), text the sentence, rule its rule id (may be NULL). */
void hr_html_verdict(hr_buf *out, const char *cls, const char *label, const char *text, const char *rule);

/* A horizontal bar chart as inline SVG: one bar per item, scaled to the largest value (or to
 * max when it is larger), value labels in GB. Items whose value is HR_UNKNOWN are drawn as
 * "unknown". Each bar is a <rect> with data-series="<series id>". */
typedef struct hr_html_bar {
    const char *series; /* ASCII id: "capacity", "need" */
    const char *label;  /* shown left of the bar */
    uint64_t bytes;     /* HR_UNKNOWN: not known */
    const char *cls;    /* colour class: "c1".."c4", "bad", "good" */
} hr_html_bar;
void hr_html_bars(hr_buf *out, const char *id, const char *title, const hr_html_bar *bars, int count);

/* Building blocks the report pages share, so that each piece of markup has one home. */

/* " <span class=\"rule\">[rule]</span>", the rule id after a sentence; nothing when rule is NULL
 * or empty. */
void hr_html_rule(hr_buf *out, const char *rule);
/* <p>text</p> (cls NULL) or <p class="cls">text</p>, and a new line. */
void hr_html_p(hr_buf *out, const char *cls, const char *text);
/* <p>printf</p>. */
HR_PRINTF(2, 3)
void hr_html_pf(hr_buf *out, const char *fmt, ...);
/* <h3>text</h3>. */
void hr_html_h3(hr_buf *out, const char *text);
/* <li>text [rule]</li>, a list item with its rule id (rule may be NULL). */
void hr_html_li(hr_buf *out, const char *text, const char *rule);

/* A table that scrolls sideways on a narrow screen: <div class="wrap"><table>, then, when
 * count > 0, a header row of cols[0..count), the first text_cols of them left-aligned and the
 * rest right-aligned numbers. hr_html_table_end closes both. */
void hr_html_table_begin(hr_buf *out, const char *const *cols, int count, int text_cols);
void hr_html_table_end(hr_buf *out);
/* <td>text</td> (cls NULL) or <td class="cls">text</td>. */
void hr_html_td(hr_buf *out, const char *cls, const char *text);
/* A right-aligned cell of bytes in GB, as hr_size_gb writes them. */
void hr_html_td_gb(hr_buf *out, uint64_t bytes);

/* Inline SVG for a chart: <svg [id="id"] viewBox="0 0 w h" role="img" aria-label="label">
 * (id may be NULL). The chart's markup follows; the caller closes it with </svg>. */
void hr_html_svg_begin(hr_buf *out, const char *id, int w, int h, const char *label);
/* A horizontal grid line from x1 to x2 at y with its value label left of x1. */
void hr_html_svg_ytick(hr_buf *out, int x1, int x2, double y, const char *label);
/* A label under the x axis at x, anchored "start", "middle" or "end". */
void hr_html_svg_xtick(hr_buf *out, double x, int y, const char *anchor, const char *label);
/* One legend entry: a swatch of colour class cls (dashed for a limit line) and its label. */
void hr_html_legend_item(hr_buf *out, const char *cls, bool dashed, const char *label);

#endif
