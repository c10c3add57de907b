/* PagingFiles list reader + safe sequence: never crashes; every stage keeps a paging file;
 * serialize/deserialize round trips. */
#include "core/apply/pagingfiles_write.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_pfw_list *l = malloc(sizeof *l), *m = malloc(sizeof *m);
    hr_pfw_stage *st = malloc(sizeof(hr_pfw_stage) * HR_PFW_MAX_STAGES);
    hr_error err = {0};
    if (l && m && st && hr_pfw_deserialize((const char *)data, size, l, &err) == 0) {
        hr_buf b;
        hr_buf_init(&b, 0);
        if (hr_pfw_serialize(l, &b) == 0) {
            if (hr_pfw_deserialize(b.data, b.len, m, &err) != 0 || !hr_pfw_equal(l, m))
                abort();
        }
        hr_buf_free(&b);
        hr_pfw_entry t = {.mode = HR_PAGING_MODE_CUSTOM, .initial_mb = 1024, .maximum_mb = 2048};
        strcpy(t.path, "D:\\pagefile.sys");
        int n = 0;
        if (hr_pfw_safe_sequence(l, &t, 'C', NULL, st, &n, &err) == 0)
            for (int i = 0; i < n; i++)
                if (st[i].value.count < 1)
                    abort();
    }
    free(l);
    free(m);
    free(st);
    return 0;
}
