/* headroom — the evidence of a diagnosis (internal): each cause's finding with its first and
 * latest lines in fixed slots, the system records not blamed and why, the warnings of a
 * shortage the run survived. Memory is bounded: nothing is kept per line. */
#ifndef HR_DIAG_EVIDENCE_H
#define HR_DIAG_EVIDENCE_H

#include "core/diagnose/diag.h"

#include <stddef.h>
#include <stdint.h>

/* Where a hit was: a log line of an input, or a system record. */
typedef struct hr_diag_hit {
    int input;
    uint64_t key;  /* line number, or the record's sequence number */
    uint64_t line; /* 0 for a record */
    int64_t time;
    const char *source;       /* a record's plain source name, or */
    const hr_msg *source_msg; /* its source described in words (wins when set) */
} hr_diag_hit;

/* Count a hit as evidence of cause; returns the slot to fill with its text, NULL when the
 * line was already counted (another phrase of it). */
hr_diag_evidence *hr_diag_add_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning,
                                       const hr_diag_hit *at);
/* Copy text into a fixed evidence slot: whitespace trimmed, and when too long, a window
 * around the match (byte offset at) cut at UTF-8 character boundaries. */
void hr_diag_clip(char *dst, size_t cap, const char *s, size_t n, size_t at);
/* Evidence for a log line of the current input, in the order seq gave it. */
void hr_diag_line_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning, uint64_t line,
                           uint64_t seq, const char *text, size_t len);
/* Did this input already show a memory failure (any tier, any confidence)? */
bool hr_diag_memory_seen(const hr_diag_ctx *c);

/* A system record read but not blamed, and why (kept as a message, shown by the renderers). */
void hr_diag_add_ignored(hr_diag_ctx *c, const hr_diag_hit *at, const char *text, size_t len, const hr_msg *why);
/* A shortage of tier (VRAM or RAM) that was survived or only mentioned: a warning, counted
 * once a line; the first one's text around at_byte is kept. */
void hr_diag_add_warning(hr_diag_ctx *c, hr_cause tier, const char *text, size_t len, size_t at_byte,
                         const hr_diag_hit *at);

#endif
