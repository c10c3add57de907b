/* headroom — Windows: where the ComfyUI Desktop app keeps its settings, and home (comfy_find.c). */
#include "platform/platform.h"

#include <stdio.h>

bool hr_platform_comfy_desktop_dir(char *dir, size_t n)
{
    char v[HR_COMFY_PATH_MAX];
    if (!hr_platform_getenv("APPDATA", v, sizeof v) || !v[0])
        return false;
    snprintf(dir, n, "%s\\ComfyUI", v);
    return true;
}

bool hr_platform_home_dir(char *dir, size_t n)
{
    return hr_platform_getenv("USERPROFILE", dir, n) && dir[0];
}
