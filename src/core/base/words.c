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

static void add_item(char *dst, size_t cap, const char *item, hr_lang lang)
{
    size_t have = strlen(dst);
    if (have == 0) {
        hr_strlcpy(dst, item, cap);
        return;
    }
    /* the list reads as one sentence of either language */
    const char *sep = hr_tr_lang(lang, "; ");
    size_t sn = strlen(sep);
    if (have + sn + 1 < cap) {
        memcpy(dst + have, sep, sn + 1);
        hr_strlcpy(dst + have + sn, item, cap - have - sn);
    }
}

void hr_words_vadd(hr_words *w, const char *fmt, va_list ap)
{
    hr_msg m;
    hr_msg_vset(&m, fmt, ap);
    char one[HR_WORDS_MAX];
    for (int i = 0; i < 2; i++) {
        hr_msg_format(&m, langs[i], one, sizeof one);
        add_item(w->text[i], sizeof w->text[i], one, langs[i]);
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

void hr_words_add_all(hr_words *w, const hr_words *src)
{
    for (int i = 0; i < 2; i++)
        if (src->text[i][0])
            add_item(w->text[i], sizeof w->text[i], src->text[i], langs[i]);
}

void hr_words_add_error(hr_words *w, const hr_error *e)
{
    add_item(w->text[0], sizeof w->text[0], e->msg_en[0] ? e->msg_en : e->msg, HR_LANG_EN);
    add_item(w->text[1], sizeof w->text[1], e->msg, HR_LANG_ZH);
}

void hr_words_add_in(hr_words *w, hr_lang lang, const char *text)
{
    int i = lang == HR_LANG_ZH ? 1 : 0;
    add_item(w->text[i], sizeof w->text[i], text, lang);
}
