/* Fuzz the model-file readers through the same entry the CLI uses: the head (safetensors,
 * GGUF, pickle/zip detection) with the input as the whole file, the zip directory with the
 * input as the file's tail, then the classifier over whatever tensor table came out. Any input
 * either parses or fails with a message; never a crash, a leak or a read past the buffer. */
#include "core/scan/model_scan.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_model_info m;
    hr_tensor_set ts;
    hr_error err = {0};
    hr_model_info_init(&m);
    hr_tensor_set_init(&ts);
    /* how much the reader would ask for must never exceed what exists */
    size_t want = hr_model_head_need(NULL, 0, size, NULL);
    if (want <= size)
        want = hr_model_head_need(data, want, size, NULL);
    (void)want;
    int r = hr_model_parse_head("fuzz", data, size, size, &m, &ts, &err);
    if (r != 0 && err.msg[0] == '\0')
        __builtin_trap();
    if (r == 0)
        hr_model_classify(&ts, "fuzz.safetensors", "checkpoints", &m);
    hr_tensor_set_free(&ts);
    size_t need = 0;
    hr_model_info_init(&m);
    hr_error zerr = {0};
    if (hr_zip_parse_tail("fuzz", data, size, size, &m, &need, &zerr) != 0 && zerr.msg[0] == '\0')
        __builtin_trap();
    return 0;
}
