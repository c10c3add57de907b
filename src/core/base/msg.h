/* headroom — a message kept as data: its English template (the msgid) and its typed
 * arguments, formatted and translated only where it is shown.
 *
 * Why: a rule that writes prose fixes the language when it judges, so a JSON report (always
 * English) and a text report (the user's language) could not come from one result without a
 * process-wide "English please" switch. A rule now records hr_msg_set(&m, HR_N("..."), ...);
 * the text renderer calls hr_msg_format(&m, the user's language, ...), the JSON renderer the
 * same with HR_LANG_EN.
 *
 * The arguments are taken by the template's own printf conversions (%d %lld %zu %u %llu %x
 * %f %.1f %g %s %c %%, with * widths), so the compiler checks the call as it checks printf.
 * A %s argument is copied (paths, names: shown as given), unless hr_msg_translate_arg()
 * marks it as an English msgid of its own (a reason, a tier's name): that one is translated
 * with the rest. A translation must keep its template's conversions, in order (msgfmt
 * --check-format holds the catalogue to it); a template the formatter cannot read is shown
 * as its English text with the arguments left out, never with a wrong value. */
#ifndef HR_MSG_H
#define HR_MSG_H

#include "core/base/error.h"
#include "core/base/i18n.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define HR_MSG_MAX_ARGS  16
#define HR_MSG_STR_BYTES 400 /* every copied %s argument of one message, NULs included */

typedef enum hr_msg_arg_kind {
    HR_MSG_ARG_INT,    /* d i c, any length modifier, and * widths */
    HR_MSG_ARG_UINT,   /* u x X o, any length modifier */
    HR_MSG_ARG_DOUBLE, /* f F e E g G */
    HR_MSG_ARG_STR,    /* s: copied into the message */
} hr_msg_arg_kind;

typedef struct hr_msg_arg {
    hr_msg_arg_kind kind;
    bool translate; /* a %s that is itself an English msgid */
    bool has_zh;    /* a %s with its own Chinese wording, at str_zh in strs */
    unsigned short str_zh;
    union {
        long long i;
        unsigned long long u;
        double d;
        unsigned short str; /* offset in strs */
    } v;
} hr_msg_arg;

typedef struct hr_msg {
    const char *fmt; /* the English template, static storage; NULL: no message */
    int nargs;
    bool truncated; /* an argument did not fit: shown as far as it was kept */
    hr_msg_arg args[HR_MSG_MAX_ARGS];
    char strs[HR_MSG_STR_BYTES];
} hr_msg;

/* Record fmt (a static English msgid, normally HR_N("...")) and its arguments. */
void hr_msg_set(hr_msg *m, const char *fmt, ...) HR_PRINTF(2, 3);
void hr_msg_vset(hr_msg *m, const char *fmt, va_list ap) HR_PRINTF(2, 0);

/* Argument i (from 0, in the template's order) is an English msgid: translate it too. */
void hr_msg_translate_arg(hr_msg *m, int i);

/* Argument i (from 0, in the template's order), a %s, reads zh_text in Chinese: a value that
 * is itself worded in both languages (a reason the probe gave, core/base/words.h), so that a
 * message can hold another one's words. False when it is not a %s or the store is full. */
bool hr_msg_arg_zh(hr_msg *m, int i, const char *zh_text);

/* True when m holds a message. */
static inline bool hr_msg_is_set(const hr_msg *m)
{
    return m && m->fmt != NULL;
}

/* m in lang into out (always NUL-terminated when cap > 0; "" for no message). Returns the
 * length the whole text needs, as snprintf does. */
size_t hr_msg_format(const hr_msg *m, hr_lang lang, char *out, size_t cap);

#endif
