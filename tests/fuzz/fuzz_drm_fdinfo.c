/* Fuzz a DRM client's fdinfo: no crash, no read past the input, a driver name and PCI address
 * always terminated, and no VRAM figure without a DRM client. */
#include "core/base/text.h"
#include "core/model/drm_fdinfo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_drm_fdinfo d;
    hr_drm_fdinfo_parse((const char *)data, size, &d);
    if (!memchr(d.driver, '\0', sizeof d.driver) || !memchr(d.pdev, '\0', sizeof d.pdev))
        abort();
    if (d.drm != (d.driver[0] != '\0'))
        abort();
    return 0;
}
