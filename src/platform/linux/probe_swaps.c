/* Every active swap area from /proc/swaps, with the device facts behind it (S3.3, S5.4). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include "core/model/swaps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_lx_probe_swaps(const char *sysroot, hr_snapshot *s)
{
    hr_buf b;
    hr_buf_init(&b, HR_LX_BIG_FILE);
    hr_error err = { 0 };
    hr_swap_area *areas = calloc(HR_MAX_PAGING, sizeof *areas);
    int n = 0;
    int r = areas ? hr_lx_read(sysroot, "/proc/swaps", &b, HR_LX_BIG_FILE, &err) : HR_ENOMEM;
    if (r == 0)
        r = hr_parse_swaps(hr_buf_str(&b), b.len, "/proc/swaps", areas, HR_MAX_PAGING, &n, &err);
    hr_buf_free(&b);
    if (r != 0) {
        if (!err.msg[0])
            hr_error_set(&err, r, NULL);
        hr_section_fail_error(&s->paging_s, &err);
        free(areas);
        return;
    }
    hr_section_ok(&s->paging_s, "/proc/swaps");
    for (int i = 0; i < n; i++) {
        hr_paging *p = &s->paging[s->paging_count++];
        hr_strlcpy(p->path, areas[i].path, sizeof p->path);
        p->kind = areas[i].kind;
        p->size_bytes = areas[i].size_bytes;
        p->used_bytes = areas[i].used_bytes;
        p->priority = areas[i].priority;
        p->peak_bytes = HR_UNKNOWN;
        if (p->kind == HR_PAGING_FILE) {
            p->has_device = true;
            hr_lx_file_device(sysroot, p->path, &p->device);
        } else if (p->kind == HR_PAGING_PARTITION || p->kind == HR_PAGING_ZRAM) {
            unsigned maj, min;
            p->has_device = true;
            if (hr_lx_block_dev_numbers(sysroot, p->path, &maj, &min))
                hr_lx_device_facts(sysroot, maj, min, &p->device);
            else
                hr_words_set(&p->device.why, HR_N("%s: block device not found in /sys/class/block"), areas[i].path);
        }
    }
    free(areas);
}
