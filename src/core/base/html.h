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
void hr_html_verdict(hr_buf *out, const char *cls, const char *label, const char *text,
                     const char *rule);

/* A horizontal bar chart as inline SVG: one bar per item, scaled to the largest value (or to
 * max when it is larger), value labels in GB. Items whose value is HR_UNKNOWN are drawn as
 * "unknown". Each bar is a <rect> with data-series="<series id>". */
typedef struct hr_html_bar {
    const char *series;   /* ASCII id: "capacity", "need" */
    const char *label;    /* shown left of the bar */
    uint64_t bytes;       /* HR_UNKNOWN: not known */
    const char *cls;      /* colour class: "c1".."c4", "bad", "good" */
} hr_html_bar;
void hr_html_bars(hr_buf *out, const char *id, const char *title, const hr_html_bar *bars,
                  int count);

#endif
