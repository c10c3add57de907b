/* Compression tiers: zswap and zram. Both compress in RAM; neither is a disk backstop (S5.3). */
#include "linux_probes.h"
#include "lx_read.h"

#include "core/base/text.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    const hr_zram *x = a, *y = b;
    size_t lx = strlen(x->name), ly = strlen(y->name);
    return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);
}

void hr_lx_probe_compression(const char *sysroot, hr_snapshot *s)
{
    hr_compression *c = &s->compression;
    hr_section_ok(&c->s, "/sys/module/zswap/parameters, /sys/block/zram*");
    char v[128];
    if (hr_lx_read_str(sysroot, "/sys/module/zswap/parameters/enabled", v, sizeof v))
        c->zswap_enabled = (v[0] == 'Y' || v[0] == 'y' || v[0] == '1') ? HR_TRI_YES : HR_TRI_NO;
    else if (hr_lx_exists(sysroot, "/sys/module") && !hr_lx_exists(sysroot, "/sys/module/zswap"))
        c->zswap_enabled = HR_TRI_NO; /* kernel built without zswap */
    if (hr_lx_read_str(sysroot, "/sys/module/zswap/parameters/compressor", v, sizeof v))
        hr_strlcpy(c->zswap_compressor, v, sizeof c->zswap_compressor);
    unsigned long long pct;
    if (hr_lx_read_u64(sysroot, "/sys/module/zswap/parameters/max_pool_percent", &pct))
        c->zswap_max_pool_percent = pct;

    char dir[4096];
    hr_lx_path(sysroot, "/sys/block", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) {
        hr_section_fail(&c->s, "/sys/block: unreadable");
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && c->zram_count < HR_MAX_ZRAM) {
        if (strncmp(e->d_name, "zram", 4) != 0)
            continue;
        hr_zram *z = &c->zram[c->zram_count++];
        memset(z, 0, sizeof *z);
        hr_strlcpy(z->name, e->d_name, sizeof z->name);
        z->orig_data_bytes = z->compr_data_bytes = z->mem_used_bytes = HR_UNKNOWN;
        char p[512];
        unsigned long long ds;
        snprintf(p, sizeof p, "/sys/block/%s/disksize", z->name);
        z->disksize_bytes = hr_lx_read_u64(sysroot, p, &ds) ? ds : HR_UNKNOWN;
        snprintf(p, sizeof p, "/sys/block/%s/comp_algorithm", z->name);
        if (hr_lx_read_str(sysroot, p, v, sizeof v))
            hr_bracketed_choice(v, z->algorithm, sizeof z->algorithm);
        /* mm_stat: orig_data_size compr_data_size mem_used_total ... (bytes; more fields on newer kernels) */
        snprintf(p, sizeof p, "/sys/block/%s/mm_stat", z->name);
        if (hr_lx_read_str(sysroot, p, v, sizeof v)) {
            unsigned long long o, cd, mu;
            if (sscanf(v, "%llu %llu %llu", &o, &cd, &mu) == 3) {
                z->orig_data_bytes = o;
                z->compr_data_bytes = cd;
                z->mem_used_bytes = mu;
            }
        }
        char devpath[64];
        snprintf(devpath, sizeof devpath, "/dev/%s", z->name);
        for (int i = 0; i < s->paging_count; i++)
            if (strcmp(s->paging[i].path, devpath) == 0)
                z->used_as_swap = true;
    }
    closedir(d);
    qsort(c->zram, (size_t)c->zram_count, sizeof c->zram[0], by_name);
}
