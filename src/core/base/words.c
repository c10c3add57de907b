#include "core/base/words.h"

#include "core/base/msg.h"
#include "core/base/text.h"

#include <stdarg.h>
#include <string.h>

static const hr_lang langs[2] = { HR_LANG_EN, HR_LANG_ZH };

void hr_words_clear(hr_words *w)
{
    w->text[0][0] = w->text[1][0] = '\0';
}

void hr_words_vadd(hr_words *w, const char *fmt, va_list ap)
{
    hr_msg m;
    hr_msg_vset(&m, fmt, ap);
    char one[HR_WORDS_MAX];
    for (int i = 0; i < 2; i++) {
        hr_msg_format(&m, langs[i], one, sizeof one);
        hr_strlist_add_in(w->text[i], sizeof w->text[i], one, langs[i]);
    }
}

void hr_words_add(hr_words *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr_words_vadd(w, fmt, ap);
    va_end(ap);
}

void hr_words_set(hr_words *w, const char *fmt, ...)
{
    hr_words_clear(w);
    va_list ap;
    va_start(ap, fmt);
    hr_words_vadd(w, fmt, ap);
    va_end(ap);
}

void hr_words_name(hr_words *w, const char *name)
{
    for (int i = 0; i < 2; i++)
        hr_strlcpy(w->text[i], name ? hr_tr_lang(langs[i], name) : "", sizeof w->text[i]);
}

void hr_words_add_error(hr_words *w, const hr_error *e)
{
    hr_strlist_add_in(w->text[0], sizeof w->text[0], e->msg_en[0] ? e->msg_en : e->msg, HR_LANG_EN);
    hr_strlist_add_in(w->text[1], sizeof w->text[1], e->msg, HR_LANG_ZH);
}

void hr_words_add_in(hr_words *w, hr_lang lang, const char *text)
{
    int i = lang == HR_LANG_ZH ? 1 : 0;
    hr_strlist_add_in(w->text[i], sizeof w->text[i], text, lang);
}
