/* headroom — Windows: hr_platform_map_read is not done here (platform.h): the caller reads
 * the file as before. */
#include "platform/platform.h"

int hr_platform_map_read(FILE *f, size_t chunk, hr_map_fn fn, void *ctx, hr_error *err)
{
    (void)f;
    (void)chunk;
    (void)fn;
    (void)ctx;
    (void)err;
    return 0;
}
