/* The language of messages on Windows: the user's display (UI) language, which is what a
 * Chinese Windows shows its own dialogs in, whatever the console code page. */
#include "platform/platform.h"

#include <windows.h>

#include <stdio.h>

bool hr_platform_ui_language(char *out, size_t n)
{
    WCHAR name[LOCALE_NAME_MAX_LENGTH];
    LANGID id = GetUserDefaultUILanguage();
    if (LCIDToLocaleName(MAKELCID(id, SORT_DEFAULT), name, LOCALE_NAME_MAX_LENGTH, 0) > 0) {
        int k = WideCharToMultiByte(CP_UTF8, 0, name, -1, out, (int)n, NULL, NULL);
        if (k > 0)
            return true;
    }
    /* No name for it: the primary language alone decides Chinese or not. */
    snprintf(out, n, "%s", PRIMARYLANGID(id) == LANG_CHINESE ? "zh" : "en");
    return true;
}
