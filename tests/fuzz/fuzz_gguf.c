/* Fuzz the GGUF reader alone, with the input as a head of a larger file (the partial-read
 * path: it must ask for more, never read past what it has) and as the whole file. */
#include "core/scan/model_scan.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_model_info m;
    hr_tensor_set ts;
    hr_error err = {0};
    size_t need = 0;
    uint64_t sizes[2] = {size, (uint64_t)size * 3 + 4096};
    for (int i = 0; i < 2; i++) {
        hr_model_info_init(&m);
        hr_tensor_set_init(&ts);
        int r = hr_gguf_parse("fuzz", data, size, sizes[i], &ts, &m, &need, &err);
        if (r != 0 && err.msg[0] == '\0')
            __builtin_trap();
        if (r == 0 && need == 0)
            hr_model_classify(&ts, "fuzz.gguf", "unet", &m);
        hr_tensor_set_free(&ts);
    }
    return 0;
}
