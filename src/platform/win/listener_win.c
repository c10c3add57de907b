/* headroom — Windows: the process behind a local listening socket is not asked (platform.h):
 * the root-only trust check of a local ComfyUI is Linux's. */
#include "platform/platform.h"

int hr_platform_local_listener(unsigned port, char *cmdline, size_t n, long long *pid)
{
    (void)port;
    if (n)
        cmdline[0] = '\0';
    *pid = -1;
    return HR_ENOTSUP;
}
