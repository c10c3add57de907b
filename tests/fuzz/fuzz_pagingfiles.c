/* Fuzz the registry string splitter and the PagingFiles / ExistingPageFiles parsers. The
 * first byte picks the registry type; the rest is the value's data. */
#include "core/model/pagingfiles.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const uint32_t types[] = {HR_REG_SZ, HR_REG_MULTI_SZ, HR_REG_EXPAND_SZ, HR_REG_DWORD};
    uint32_t type = types[data[0] % 4];
    static hr_paging_config cfg;
    memset(&cfg, 0, sizeof cfg);
    hr_error err = {0};
    if (hr_pagingfiles_parse(data + 1, size - 1, type, &cfg, &err) == 0) {
        if (cfg.count < 0 || cfg.count > HR_WIN_MAX_PAGING_FILES)
            __builtin_trap();
        for (int i = 0; i < cfg.count; i++)
            if (memchr(cfg.entries[i].path, 0, sizeof cfg.entries[i].path) == NULL)
                __builtin_trap();
    }
    (void)hr_existing_pagefiles_parse(data + 1, size - 1, type, &cfg, &err);
    /* Each string also as a single entry. */
    char line[256];
    size_t n = size - 1 < sizeof line - 1 ? size - 1 : sizeof line - 1;
    memcpy(line, data + 1, n);
    line[n] = '\0';
    hr_paging_config_entry e;
    (void)hr_pagingfiles_parse_entry(line, &e, &err);
    return 0;
}
