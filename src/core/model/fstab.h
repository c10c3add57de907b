/* headroom — /etc/fstab, read and edited without disturbing anything else.
 *
 * apply adds one swap line (and a comment saying who added it); rollback takes them out.
 * Every other byte of the file — comments, blank lines, tabs, UUID= entries, a missing final
 * newline — comes back out of hr_fstab_render exactly as it went in, so a parse + render of
 * an untouched file is the identity (the fuzz harness checks it). Fields are decoded the way
 * libmount does: \040 (space), \011 (tab), \012 (newline), \134 (backslash) and any other
 * three-digit octal escape. A line we cannot understand (1 or 2 fields, more than 6, a NUL
 * byte) fails the parse: headroom never rewrites a file it does not understand. */
#ifndef HR_FSTAB_H
#define HR_FSTAB_H

#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_FSTAB_MAX_LINES 4096
#define HR_FSTAB_MAX_BYTES ((size_t)1 << 20)
#define HR_FSTAB_MARKER    "# added by headroom apply; undo with: headroom rollback"

typedef struct hr_fstab_line {
    char *raw; /* the line's bytes without its '\n' (NUL-terminated copy) */
    size_t len;
    bool newline; /* the line ended with '\n' (false only for a last line) */
    bool entry;   /* not blank, not a comment */
    /* Decoded fields of an entry (NULL otherwise); opts defaults to "defaults". */
    char *spec, *file, *type, *opts;
    int freq, passno;
} hr_fstab_line;

typedef struct hr_fstab {
    hr_fstab_line *lines;
    size_t count, cap;
} hr_fstab;

void hr_fstab_init(hr_fstab *f);
void hr_fstab_free(hr_fstab *f);

/* Parse text[0..len). `name` (the path, for messages) may be NULL. On error f is empty. */
int hr_fstab_parse(hr_fstab *f, const char *text, size_t len, const char *name, hr_error *err);

/* Append the file's bytes to out. */
int hr_fstab_render(const hr_fstab *f, hr_buf *out);

/* Index of the swap entry whose decoded spec is `path`, or -1. */
long hr_fstab_find_swap(const hr_fstab *f, const char *path);
bool hr_fstab_is_swap(const hr_fstab_line *l);

/* The pri= of a mount option string, or INT64_MIN when there is none. */
int64_t hr_fstab_opt_priority(const char *opts);
/* Whether a comma-separated option list holds `name` (e.g. "noauto"). */
bool hr_fstab_opt_has(const char *opts, const char *name);

/* Escape a path for an fstab field (space, tab, newline, backslash as octal). */
int hr_fstab_escape(const char *in, hr_buf *out);

/* The swap line headroom writes for path (escaped), appended to out: apply writes it, plan
 * shows it in its command. Returns 0 or a negative hr_error code. */
int hr_fstab_swap_line(const char *path, int priority, hr_buf *out);

/* Append the marker comment and "<path> none swap defaults,pri=<prio> 0 0". If the last line
 * had no final newline, one is added to it and *added_newline is set (rollback uses it to
 * give the bytes back exactly). Fails with HR_EEXIST if a swap entry for path exists. */
int hr_fstab_add_swap(hr_fstab *f, const char *path, int priority, bool *added_newline, hr_error *err);

/* Remove the swap entry for path and the marker comment right above it (if it is there).
 * With strip_newline, and when the removed lines were the last ones, the newline that
 * hr_fstab_add_swap added to the line before is taken away again. HR_ENOENT if absent. */
int hr_fstab_remove_swap(hr_fstab *f, const char *path, bool strip_newline);

/* FNV-1a 64 of a byte string: how rollback tells whether fstab changed since apply wrote
 * it (a change detector, not a security measure). */
uint64_t hr_fnv1a64(const void *p, size_t n);

#endif
