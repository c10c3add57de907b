/* headroom — writing the Prometheus text exposition format (version 0.0.4), the format
 * node_exporter's and windows_exporter's textfile collectors read.
 *
 * A family's "# HELP" and "# TYPE" lines are written before its first sample, and samples
 * of one family must be written together (the format requires it). Label values are
 * escaped (backslash, double quote, newline); metric and label names are the caller's
 * constants and must match [a-zA-Z_][a-zA-Z0-9_]*. Errors stay in the buffer (sticky). */
#ifndef HR_PROM_H
#define HR_PROM_H

#include "core/base/buf.h"

#include <stdint.h>

typedef struct hr_prom {
    hr_buf *out;
    char family[128]; /* the family whose header was written last */
} hr_prom;

void hr_prom_init(hr_prom *p, hr_buf *out);

/* One sample. labels: NULL, or NULL-terminated name, value, name, value, ... pairs.
 * type: "gauge" or "counter". value: the number as text ("1", "0.25", "NaN"). */
void hr_prom_sample(hr_prom *p, const char *name, const char *type, const char *help, const char *const *labels,
                    const char *value);
/* The same with an integer value. */
void hr_prom_u64(hr_prom *p, const char *name, const char *type, const char *help, const char *const *labels,
                 uint64_t value);

/* Append a label value, escaped, to out. */
void hr_prom_escape(hr_buf *out, const char *s);

#endif
