/* The language of messages on Linux: the environment, in gettext's order. */
#include "platform/platform.h"
#include "core/base/hot.h"

#include <stdlib.h>
#include <string.h>

HR_START bool hr_platform_ui_language(char *out, size_t n)
{
    static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
    const char *locale = NULL;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && !locale; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            locale = v;
    }
    /* LANGUAGE (a colon list of preferences) wins, except in the C locale, where gettext
     * ignores it too. */
    const char *language = getenv("LANGUAGE");
    if (language && *language && !(locale && (strcmp(locale, "C") == 0 || strcmp(locale, "POSIX") == 0))) {
        size_t k = strcspn(language, ":");
        if (k > 0 && k < n) {
            memcpy(out, language, k);
            out[k] = '\0';
            return true;
        }
    }
    if (!locale || strlen(locale) >= n)
        return false;
    strcpy(out, locale);
    return true;
}
