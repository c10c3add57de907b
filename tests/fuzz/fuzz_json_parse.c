/* Fuzz the strict JSON parser: any input either parses into a tree we can walk completely
 * or fails with a message; never a crash, a leak or a read past the buffer. */
#include "core/base/json_parse.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t walk(const hr_json_value *v, int depth)
{
    size_t n = 1;
    size_t len;
    uint64_t u;
    int64_t i;
    double d;
    bool b;
    (void)hr_json_string(v, &len);
    (void)hr_json_as_u64(v, &u);
    (void)hr_json_as_i64(v, &i);
    (void)hr_json_as_double(v, &d);
    (void)hr_json_as_bool(v, &b);
    (void)hr_json_key(v);
    for (const hr_json_value *c = hr_json_first(v); c; c = hr_json_next(c)) {
        n += walk(c, depth + 1);
        if (hr_json_key(c))
            (void)hr_json_get(v, hr_json_key(c));
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_json_doc *doc = NULL;
    hr_error err = {0};
    hr_json_limits lim = {.max_bytes = 1 << 20, .max_depth = 64, .max_values = 100000};
    if (hr_json_parse((const char *)data, size, &lim, &doc, &err) == 0) {
        walk(hr_json_root(doc), 0);
        hr_json_free(doc);
    } else if (err.msg[0] == '\0') {
        __builtin_trap();
    }
    return 0;
}
