/* headroom — what a fact's reader says about it (a source, why it is unknown, a note), worded
 * when the fact is read and kept in every language the renderers speak.
 *
 * Why: the platform layer learns a reason ("/proc/meminfo: MemTotal missing") while it reads
 * the machine, and the snapshot that holds it is then shown as JSON (English) and as text
 * or HTML (the user's language). Kept as both wordings, one snapshot serves every renderer
 * with no process-wide language switch. A list (several reasons) is joined with each
 * language's own separator ("; " and "；"). */
#ifndef HR_WORDS_H
#define HR_WORDS_H

#include "core/base/error.h"
#include "core/base/i18n.h"

#include <stdarg.h>
#include <stdbool.h>

#define HR_WORDS_MAX 200

typedef struct hr_words {
    char text[2][HR_WORDS_MAX]; /* [HR_LANG_EN], [HR_LANG_ZH]; "" when nothing is said */
} hr_words;

/* The words in lang ("" when none). */
static inline const char *hr_words_in(const hr_words *w, hr_lang lang)
{
    return w->text[lang == HR_LANG_ZH ? 1 : 0];
}

/* True when nothing is said. */
static inline bool hr_words_empty(const hr_words *w)
{
    return w->text[0][0] == '\0';
}

void hr_words_clear(hr_words *w);

/* Append one item worded from fmt (an English msgid, HR_N("...")) and its values. */
HR_PRINTF(2, 3)
void hr_words_add(hr_words *w, const char *fmt, ...);

HR_PRINTF(2, 0)
void hr_words_vadd(hr_words *w, const char *fmt, va_list ap);

/* Replace what is said with one item. */
HR_PRINTF(2, 3)
void hr_words_set(hr_words *w, const char *fmt, ...);

/* Replace what is said with a name: shown as given unless the catalogue words it (a msgid
 * such as "skipped (--no-gpu)" is translated; "/proc/meminfo" stays as it is). */
void hr_words_name(hr_words *w, const char *name);

/* Append one item already worded in lang (the other language's list is left as it is). */
void hr_words_add_in(hr_words *w, hr_lang lang, const char *text);

/* Append an error's message: its English (msg_en) and the language it was made in (msg). */
void hr_words_add_error(hr_words *w, const hr_error *e);

#endif
