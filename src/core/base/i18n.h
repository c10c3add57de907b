/* headroom — messages in the user's language (English and Simplified Chinese).
 *
 * Human messages are written in English in the code and wrapped in HR_T("..."); the English
 * text is the msgid of po/zh_CN.po, the gettext catalogue translators edit with their usual
 * tools. The build compiles it with msgfmt and links the compiled catalogue into the binary,
 * so the static headroom.exe needs no runtime library. HR_N("...") marks a string for the
 * catalogue without translating it (static tables; translate where it is shown).
 *
 * JSON is never translated: keys and values are a contract with scripts. The test
 * i18n.catalogue fails when a marked message has no translation, when a translation's printf
 * conversions differ from the English, or when the catalogue holds a message no longer used. */
#ifndef HR_I18N_H
#define HR_I18N_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__GNUC__)
#define HR_FORMAT_ARG(n) __attribute__((format_arg(n)))
#else
#define HR_FORMAT_ARG(n)
#endif

typedef enum hr_lang { HR_LANG_EN = 0, HR_LANG_ZH = 1 } hr_lang;

/* The language messages are shown in (process-wide; English until set). */
void hr_lang_set(hr_lang lang);
hr_lang hr_lang_get(void);

/* From a locale or language name: "en", "zh", "zh_CN.UTF-8", "zh-Hans", "zh_TW" (Chinese),
 * "C", "POSIX", "de_DE" (English, the fallback). Returns false (and English) on NULL or "". */
bool hr_lang_from_name(const char *name, hr_lang *out);
/* "en" or "zh". */
const char *hr_lang_code(hr_lang lang);

/* The message in the current language; the English msgid itself when there is no
 * translation. The result keeps msgid's printf conversions (checked by the catalogue test),
 * so it may be used as a format. */
HR_FORMAT_ARG(1)
const char *hr_tr(const char *msgid);

/* The message in a given language, whatever the current one. */
HR_FORMAT_ARG(2)
const char *hr_tr_lang(hr_lang lang, const char *msgid);

/* The English msgid of a text hr_tr() or hr_tr_lang() returned (the text itself when it is
 * not a translation): what lets a message made in the user's language be made in English
 * too, as an error is (core/base/error.h). */
HR_FORMAT_ARG(1)
const char *hr_tr_msgid(const char *text);

#define HR_T(msgid) hr_tr(msgid)
#define HR_N(msgid) (msgid)

/* The compiled catalogue (a gettext .mo image, generated at build time). */
extern const unsigned char hr_catalog_zh[];
extern const size_t hr_catalog_zh_len;

#endif
