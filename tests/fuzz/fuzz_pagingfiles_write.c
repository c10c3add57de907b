/* PagingFiles list reader + safe sequence (with and without a kept crash-dump entry): never
 * crashes; every stage keeps a paging file; serialize/deserialize round trips. */
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
        /* With no file kept, and with the first entry kept (the crash-dump file X.dump keeps):
         * every stage keeps a paging file, and the last holds the target and at most the kept
         * entry beside it. */
        for (int k = 0; k < 2; k++) {
            const char *keep = k && l->count ? l->e[0].path : NULL;
            int n = 0;
            if (hr_pfw_safe_sequence(l, &t, 'C', keep, st, &n, &err) != 0)
                continue;
            for (int i = 0; i < n; i++)
                if (st[i].value.count < 1)
                    abort();
            if (n && st[n - 1].value.count > (keep ? 2 : 1))
                abort();
        }
    }
    free(l);
    free(m);
    free(st);
    return 0;
}
