/* headroom — a strict, bounded JSON parser (RFC 8259) into a read-only tree.
 *
 * Used for everything headroom reads as JSON: recorded Windows answers, workflows, settings.
 * The input is a bounded buffer (need not be NUL-terminated); the limits cap its size, its
 * nesting depth and the number of values, so hostile input cannot make it recurse deeply or
 * allocate without bound. Strict: no comments, no trailing commas, no leading zeros, no
 * control characters or invalid UTF-8 in strings, no lone surrogates, nothing after the
 * value. A UTF-8 byte order mark at the start is skipped (RFC 8259 §8.1 allows ignoring it).
 * Errors say where: "line 3, column 14: expected ':' after an object key".
 *
 * The tree is one allocation owned by hr_json_doc; values stay valid until hr_json_free. */
#ifndef HR_JSON_PARSE_H
#define HR_JSON_PARSE_H

#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hr_json_type {
    HR_JSON_NULL = 0,
    HR_JSON_FALSE,
    HR_JSON_TRUE,
    HR_JSON_NUMBER,
    HR_JSON_STRING,
    HR_JSON_ARRAY,
    HR_JSON_OBJECT
} hr_json_type;

/* Where and why a parse failed, as data, for a caller that keeps the message to show it in
 * more than one language. */
typedef enum hr_json_found {
    HR_JSON_FOUND_NONE = 0, /* what says it all */
    HR_JSON_FOUND_END,      /* what (what was expected), found the end of the input */
    HR_JSON_FOUND_CHAR,     /* ..., found the character c */
    HR_JSON_FOUND_BYTE,     /* ..., found the byte c */
} hr_json_found;

typedef struct hr_json_failure {
    unsigned line, column;
    const char *what; /* the reason's msgid (or what was expected: found says) */
    hr_json_found found;
    unsigned char c;
} hr_json_failure;

typedef struct hr_json_limits {
    size_t max_bytes;         /* input size; 0 = HR_JSON_DEFAULT_MAX_BYTES */
    int max_depth;            /* nesting of arrays/objects; 0 = HR_JSON_DEFAULT_MAX_DEPTH */
    size_t max_values;        /* values in the whole document; 0 = HR_JSON_DEFAULT_MAX_VALUES */
    bool no_nul;              /* refuse "\u0000" in strings and member names: for documents whose
                            text must stay C strings (paths), where a NUL would cut them short */
    hr_json_failure *failure; /* may be NULL; filled when the parse fails */
} hr_json_limits;

#define HR_JSON_DEFAULT_MAX_BYTES  ((size_t)16 << 20)
#define HR_JSON_DEFAULT_MAX_DEPTH  64
#define HR_JSON_DEFAULT_MAX_VALUES ((size_t)1 << 20)

typedef struct hr_json_value hr_json_value;
typedef struct hr_json_doc hr_json_doc;

/* Parse buf[0..len). On success *doc owns the tree (free with hr_json_free) and 0 is
 * returned. On failure *doc is NULL and err says where and what: HR_EPARSE (malformed),
 * HR_ETOOBIG (a limit was passed), HR_ENOMEM. lim may be NULL for the defaults. */
int hr_json_parse(const char *buf, size_t len, const hr_json_limits *lim, hr_json_doc **doc, hr_error *err);
void hr_json_free(hr_json_doc *doc);

const hr_json_value *hr_json_root(const hr_json_doc *doc);

/* Accessors accept NULL and then answer "nothing" (NULL / 0 / false), so lookups chain:
 * hr_json_get(hr_json_get(root, "perf"), "page_size"). */
hr_json_type hr_json_type_of(const hr_json_value *v); /* HR_JSON_NULL for NULL */
const char *hr_json_type_name(hr_json_type t);        /* "null", "string", ... */
bool hr_json_is(const hr_json_value *v, hr_json_type t);

/* Arrays and objects: number of elements / members, and iteration in document order. */
size_t hr_json_count(const hr_json_value *v);
const hr_json_value *hr_json_first(const hr_json_value *container);
const hr_json_value *hr_json_next(const hr_json_value *element);
const hr_json_value *hr_json_at(const hr_json_value *array, size_t i);
/* Object member by name (the first one if the name repeats); NULL if absent. */
const hr_json_value *hr_json_get(const hr_json_value *object, const char *key);
/* The member name of a value reached by iterating an object; NULL otherwise. */
const char *hr_json_key(const hr_json_value *member);

/* Strings: decoded UTF-8, NUL-terminated; len (may be NULL) gets the byte length, which
 * counts embedded NULs ("\u0000"). NULL if v is not a string. */
const char *hr_json_string(const hr_json_value *v, size_t *len);
/* Numbers: the literal text as written ("1.5e3"); NULL if v is not a number. */
const char *hr_json_number_text(const hr_json_value *v);
/* Exact integer conversions: 0 on success; HR_EINVAL if v is not a number, HR_ERANGE if
 * it has a fraction/exponent, a sign where none is allowed, or does not fit. */
int hr_json_as_u64(const hr_json_value *v, uint64_t *out);
int hr_json_as_i64(const hr_json_value *v, int64_t *out);
/* Any number as a double (nearest); HR_EINVAL if not a number. */
int hr_json_as_double(const hr_json_value *v, double *out);
/* true/false; HR_EINVAL if not a boolean. */
int hr_json_as_bool(const hr_json_value *v, bool *out);

/* Line and column (1-based, columns in bytes) where a value starts, for messages about
 * valid JSON with wrong content ("line 12, column 5: expected a number"). */
void hr_json_position(const hr_json_value *v, unsigned *line, unsigned *column);

#endif
