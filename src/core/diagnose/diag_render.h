/* headroom — the diagnosis report: JSON (docs/diagnose.md, schema "headroom.diagnose/1")
 * and text for people. Call after hr_diag_finish. */
#ifndef HR_DIAG_RENDER_H
#define HR_DIAG_RENDER_H

#include "core/base/buf.h"
#include "core/diagnose/diag.h"
#include "core/base/json_writer.h"
#include "core/base/render.h"

#define HR_DIAG_SCHEMA "headroom.diagnose/1"

/* The whole document as a top-level object. */
void hr_diag_json(const hr_diag_ctx *c, hr_json_writer *w);
/* The text report; returns 0 or a negative HR_E* code. */
int hr_diag_text(const hr_diag_ctx *c, hr_buf *out);
/* One self-contained HTML page (base/html.h): cause and fix, evidence, what was read. */
void hr_diag_html(const hr_diag_ctx *c, hr_buf *out);
/* The report in r->format (text, JSON, HTML). */
void hr_diag_render(const hr_diag_ctx *c, hr_render *r);
/* The machine the log describes, in words in the current language ("Windows, 31.7 GB RAM, 4 GB
 * VRAM (cuda:0 NVIDIA ...), NORMAL_VRAM, pytorch 2.2.2+cu118, ComfyUI of 2024-09-04"); "" when
 * the log says nothing of it. */
void hr_diag_machine_words(const hr_diag_ctx *c, char *out, size_t cap);
/* The command that sizes for that machine, for the cause's tier (plan for RAM and the paging
 * file / swap, estimate for VRAM); "" when the cause is not memory or nothing is known. */
void hr_diag_machine_command(const hr_diag_ctx *c, char *out, size_t cap);
/* "2024-05-01T12:34:56Z" for Unix seconds (UTC). */
void hr_diag_format_time(int64_t t, char *out, size_t n);

#endif
