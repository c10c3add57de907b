/* fstab editor: parse never crashes; parse + render is the identity; add + remove of a swap
 * line gives the original bytes back. */
#include "core/model/fstab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_fstab f;
    hr_error err = {0};
    if (hr_fstab_parse(&f, (const char *)data, size, "fuzz", &err) != 0)
        return 0;
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_fstab_render(&f, &b);
    if (b.len != size || (size && memcmp(b.data, data, size) != 0))
        abort();
    bool added = false;
    if (hr_fstab_add_swap(&f, "/fuzz dir/交换.swap", 7, &added, &err) == 0) {
        hr_buf_reset(&b);
        hr_fstab_render(&f, &b);
        hr_fstab g;
        if (hr_fstab_parse(&g, hr_buf_str(&b), b.len, "fuzz2", &err) != 0)
            abort();   /* what we write must parse */
        if (hr_fstab_find_swap(&g, "/fuzz dir/交换.swap") < 0)
            abort();
        hr_fstab_free(&g);
        if (hr_fstab_remove_swap(&f, "/fuzz dir/交换.swap", added) != 0)
            abort();
        hr_buf_reset(&b);
        hr_fstab_render(&f, &b);
        if (b.len != size || (size && memcmp(b.data, data, size) != 0))
            abort();
    }
    hr_buf_free(&b);
    hr_fstab_free(&f);
    return 0;
}
