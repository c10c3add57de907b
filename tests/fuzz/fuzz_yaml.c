/* Fuzz the extra_model_paths.yaml reader and the search order built from it: any input is
 * read or refused with a message naming the line; never a crash or an overflow. */
#include "core/scan/comfy_paths.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *env(const char *name, char *out, size_t n)
{
    if (name[0] == 'H') {
        snprintf(out, n, "/home/fuzz");
        return out;
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* one block for every input (init starts it afresh): a large allocation per input is what
     * makes the Windows run under Wine slow */
    static hr_comfy_paths *p;
    if (!p)
        p = malloc(sizeof *p);
    if (!p)
        return 0;
    hr_comfy_paths_init(p, "/opt/ComfyUI", '/');
    hr_error err = { 0 };
    int r = hr_comfy_yaml_parse("fuzz.yaml", (const char *)data, size, "/opt/ComfyUI", env, p, &err);
    if (r != 0 && err.msg[0] == '\0')
        __builtin_trap();
    static char dirs[16][HR_COMFY_PATH_MAX];
    const char *keys[] = { "checkpoints", "unet", "clip", "loras", "custom_key" };
    for (size_t i = 0; i < 5; i++)
        (void)hr_comfy_search_dirs(p, keys[i], dirs, 16);
    char rel[HR_COMFY_PATH_MAX];
    char name[256];
    size_t k = size < sizeof name - 1 ? size : sizeof name - 1;
    for (size_t i = 0; i < k; i++)
        name[i] = data[i] ? (char)data[i] : 'x';
    name[k] = '\0';
    hr_comfy_rel_name(name, '\\', rel, sizeof rel);
    return 0;
}
