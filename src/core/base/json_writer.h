/* headroom — a small streaming JSON writer.
 *
 * Writes into an hr_buf; tracks nesting so callers never place commas by hand. Strings are
 * written as valid UTF-8 JSON whatever the input: control characters are escaped and bytes
 * that are not valid UTF-8 become U+FFFD, so a path or log line with junk in it cannot
 * break a document a script will parse. */
#ifndef HR_JSON_WRITER_H
#define HR_JSON_WRITER_H

#include "core/base/buf.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_JSON_MAX_DEPTH 32

typedef struct hr_json_writer {
    hr_buf *out;
    int depth;
    bool pretty;
    bool first[HR_JSON_MAX_DEPTH + 1]; /* no member written yet at this depth */
    int err;                           /* first error seen (sticky) */
} hr_json_writer;

void hr_json_init(hr_json_writer *w, hr_buf *out, bool pretty);
/* `key` is the member name inside an object and NULL inside an array or at top level. */
void hr_json_begin_object(hr_json_writer *w, const char *key);
void hr_json_end_object(hr_json_writer *w);
void hr_json_begin_array(hr_json_writer *w, const char *key);
void hr_json_end_array(hr_json_writer *w);
void hr_json_str(hr_json_writer *w, const char *key, const char *s); /* NULL s → null */
void hr_json_strn(hr_json_writer *w, const char *key, const char *s, size_t n);
void hr_json_u64(hr_json_writer *w, const char *key, uint64_t v);
void hr_json_i64(hr_json_writer *w, const char *key, int64_t v);
void hr_json_double(hr_json_writer *w, const char *key, double v);
void hr_json_bool(hr_json_writer *w, const char *key, bool v);
void hr_json_null(hr_json_writer *w, const char *key);
/* A size or count that may be unknown: HR_UNKNOWN is null (sizes in JSON are bytes). */
void hr_json_size(hr_json_writer *w, const char *key, uint64_t v);
/* A yes/no fact that may be unknown: 1 true, 0 false, -1 null (the values of hr_tri). */
void hr_json_tri(hr_json_writer *w, const char *key, int t);
/* Finish: a trailing newline; returns the first error (0 when the document is complete). */
int hr_json_finish(hr_json_writer *w);

/* Append s as a quoted JSON string (used by the writer; handy for tests). */
int hr_json_quote(hr_buf *out, const char *s, size_t n);

#endif
