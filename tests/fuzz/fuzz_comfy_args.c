/* Fuzz the ComfyUI launch-flag parser: any bytes, never a crash, a read past the length or a
 * value outside what the flags allow. */
#include "core/model/comfy_args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so a read past the end is caught by ASan. */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    hr_comfy_args a;
    hr_error err = {0};
    int r = hr_comfy_args_parse(copy, size, &a, &err);
    if (r == 0) {
        if (a.flags_known > a.flags_seen || (a.reserve_vram_given && a.reserve_vram_bytes > ((uint64_t)1 << 51)))
            abort();
        char d[128];
        hr_comfy_args_describe(&a, d, sizeof d);
        (void)hr_comfy_args_lean_on_ram(&a);
    } else if (err.msg[0] == '\0') {
        abort();   /* every failure says why */
    }
    free(copy);
    return 0;
}
