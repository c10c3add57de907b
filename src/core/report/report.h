/* headroom — `headroom report`: a watch/run recording as one HTML page a user reads at a
 * glance: the verdict, the peaks, SVG line charts of the three tiers over time, commit
 * against its limit, paging activity and pressure, with ComfyUI's node markers and the
 * warnings on the time axis, the warnings and nodes as tables, the evidence and the plan
 * (the size that covers the recorded peak, and the command that plans it). */
#ifndef HR_REPORT_H
#define HR_REPORT_H

#include "core/base/buf.h"
#include "core/base/render.h"
#include "core/report/recording.h"

/* The page (base/html.h). name is the recording's file name, shown under the title. */
void hr_report_html(const hr_recording *r, const char *name, hr_buf *out);

/* The report in r->format: HTML (the recording itself is the data for scripts). */
void hr_report_render(const hr_recording *rec, const char *name, hr_render *r);

/* One line chart as inline SVG over the recording's samples: a <g data-series="id"> per
 * series with its polyline(s) (a gap where a value is missing), node starts and warnings as
 * markers on the time axis. Series whose values are all missing are left out; when none
 * has data, a sentence says so instead. */
typedef enum hr_chart_unit { HR_UNIT_BYTES = 0, HR_UNIT_PERCENT, HR_UNIT_RATE } hr_chart_unit;
typedef struct hr_chart_series {
    const char *id;    /* ASCII: "ram-used" */
    const char *label; /* shown in the legend */
    const char *cls;   /* colour: c1..c4, bad, warn */
    hr_rec_field field;
    bool limit; /* a limit: drawn dashed */
} hr_chart_series;
void hr_report_chart(hr_buf *out, const hr_recording *r, const char *id, const char *title, hr_chart_unit unit,
                     const hr_chart_series *s, int n);

#endif
