/* Fuzz the size parser users type into (plan/apply --size) and the formatter. An accepted
 * size formats without overflow, and its exact byte count parses back to itself. */
#include "core/base/size.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    uint64_t v = 0;
    hr_error err = {0};
    if (hr_size_parse(text, &v, &err) == 0) {
        char out[32], exact[32];
        hr_size_format(v, out, sizeof out);
        if (!memchr(out, '\0', sizeof out) || !out[0])
            abort();
        snprintf(exact, sizeof exact, "%" PRIu64 "B", v);
        uint64_t back = 0;
        if (hr_size_parse(exact, &back, &err) != 0 || back != v)
            abort();
        (void)hr_size_round_up_gib(v);
    } else if (!err.msg[0]) {
        abort();
    }
    free(text);
    return 0;
}
