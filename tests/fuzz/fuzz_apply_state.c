/* apply state reader: never crashes on any bytes; what parses writes back and re-parses to
 * the same areas. */
#include "core/apply/apply_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_apply_state *s = malloc(sizeof *s), *t = malloc(sizeof *t);
    hr_error err = {0};
    if (s && t && hr_apply_state_parse((const char *)data, size, "fuzz", s, &err) == 0) {
        hr_buf b;
        hr_buf_init(&b, 0);
        if (hr_apply_state_write(s, &b) != 0)
            abort();
        if (hr_apply_state_parse(b.data, b.len, "fuzz2", t, &err) != 0)
            abort();
        if (t->area_count != s->area_count)
            abort();
        for (int i = 0; i < s->area_count; i++)
            if (strcmp(s->areas[i].path, t->areas[i].path) != 0)
                abort();
        hr_buf_free(&b);
    }
    free(s);
    free(t);
    return 0;
}
