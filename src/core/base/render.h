/* headroom — the one renderer interface: every report is written through an hr_render.
 *
 * A report type has one function, `void hr_<report>_render(const <report> *, hr_render *)`,
 * that writes the report in r->format from the same report structure: text for people,
 * JSON for scripts, and later HTML and Prometheus text. Commands never format their own
 * output. Errors are sticky (the buffer's and the JSON writer's): a renderer writes on and
 * hr_render_finish() says once whether the whole document is there. A renderer asked for a
 * format it does not have calls hr_render_unsupported(). */
#ifndef HR_RENDER_H
#define HR_RENDER_H

#include "core/base/buf.h"
#include "core/base/json_writer.h"

#include <stdbool.h>

typedef enum hr_format {
    HR_FORMAT_TEXT = 0,
    HR_FORMAT_JSON = 1,
    HR_FORMAT_HTML = 2,
    HR_FORMAT_PROMETHEUS = 3
} hr_format;

typedef struct hr_render {
    hr_format format;
    hr_buf *out;
    hr_json_writer json; /* ready when format == HR_FORMAT_JSON */
    bool color;          /* text: ANSI colour for verdicts and warnings */
} hr_render;

/* Start a document in out (which the caller owns and frees). JSON is pretty-printed. */
void hr_render_init(hr_render *r, hr_format format, hr_buf *out, bool color);
/* The renderer met a format it cannot write: remembered as HR_ENOTSUP. */
void hr_render_unsupported(hr_render *r);
/* End the document; 0 when it is complete, else the first error (HR_ENOMEM, HR_ETOOBIG,
 * HR_ENOTSUP, a JSON nesting error...). */
int hr_render_finish(hr_render *r);
/* The name of a format ("text", "json", "html", "prometheus"). */
const char *hr_format_name(hr_format f);

#endif
