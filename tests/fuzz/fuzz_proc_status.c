/* Fuzz the /proc/<pid>/status parser and the by-program aggregation behind it. */
#include "core/model/procs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    hr_proc_status st;
    hr_error err = {0};
    int r = hr_proc_status_parse(copy, size, &st, &err);
    if (r == 0) {
        if (strlen(st.name) >= sizeof st.name || st.name[0] == '\0')
            abort();
        for (const char *p = st.name; *p; p++)
            if ((unsigned char)*p < 0x20)
                abort();
        hr_proc_table t;
        hr_proc_table_init(&t);
        hr_proc_table_add(&t, st.name, 1, st.rss_bytes, st.anon_bytes + st.swap_bytes);
        hr_proc_table_add(&t, st.name, 2, st.rss_bytes, st.swap_bytes);
        hr_procs out;
        memset(&out, 0, sizeof out);
        hr_proc_table_top(&t, &out);
        if (out.count != 1 || out.proc[0].processes != 2)
            abort();
        hr_proc_table_free(&t);
    } else if (r != HR_ENOENT && err.msg[0] == '\0') {
        abort();
    }
    free(copy);
    return 0;
}
