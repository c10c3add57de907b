/* headroom — the `status` report: human text, JSON and Prometheus, from the report
 * hr_status_compute() made (status.h).
 *
 * Pure functions: the same snapshot always renders the same bytes, whichever OS produced
 * it, so Linux fixtures and recorded Windows answers are checked against expected files. */
#ifndef HR_STATUS_RENDER_H
#define HR_STATUS_RENDER_H

#include "core/base/buf.h"
#include "core/base/json_writer.h"
#include "core/base/render.h"
#include "core/model/snapshot.h"
#include "core/status/status.h"

#include <stdbool.h>

#define HR_STATUS_SCHEMA "headroom.status/1"

typedef struct hr_render_opts {
    bool color; /* ANSI colour for verdicts and warnings */
} hr_render_opts;

/* Each renderer prints a report hr_status_compute() made (status.h) and judges nothing. */

/* Human report; returns 0 or a negative HR_E* code. */
int hr_status_report_text(const hr_status *st, hr_buf *out, const hr_render_opts *o);

/* The status object (docs/status-json.md). With key == NULL writes a complete top-level
 * object; with a key writes it as a member of the writer's open object (check embeds it). */
void hr_status_report_json(const hr_status *st, hr_json_writer *w, const char *key);

/* Prometheus text: the snapshot's metrics (docs/export.md). Appends to out. */
void hr_status_report_prom(const hr_status *st, hr_buf *out);

/* The status report in r->format (text, JSON, Prometheus); the one entry point commands use. */
void hr_status_render(const hr_status *st, hr_render *r);

/* For a caller holding only a snapshot (the parsers' tests and fuzzers): computes the report,
 * then renders it as above. check embeds the report it computed instead. */
int hr_status_text(const hr_snapshot *s, hr_buf *out, const hr_render_opts *o);
void hr_status_json(const hr_snapshot *s, hr_json_writer *w, const char *key);
void hr_status_prom(const hr_snapshot *s, hr_buf *out);

#endif
