/* PagingFiles / ExistingPageFiles: every syntax of docs/rules.md (sources: PagingFiles), as REG_MULTI_SZ
 * (UTF-16LE, with the 0/2/4-byte empties) and as the REG_SZ Wine writes. */
#include "test.h"

#include "core/model/pagingfiles.h"
#include "core/base/utf16.h"

/* Build a REG_MULTI_SZ from UTF-8 strings: each NUL-terminated, plus the final NUL. */
static size_t multi_sz(uint8_t *out, size_t cap, const char *const *strs, int n)
{
    size_t w = 0;
    for (int i = 0; i < n; i++) {
        w += hr_utf8_to_utf16le(strs[i], strlen(strs[i]), out + w, cap - w);
        out[w++] = 0;
        out[w++] = 0;
    }
    out[w++] = 0;
    out[w++] = 0;
    return w;
}

static hr_paging_config cfg;

static void parse_multi(const char *const *strs, int n)
{
    uint8_t buf[4096];
    size_t len = multi_sz(buf, sizeof buf, strs, n);
    memset(&cfg, 0, sizeof cfg);
    hr_error err = { 0 };
    CHECK(hr_pagingfiles_parse(buf, len, HR_REG_MULTI_SZ, &cfg, &err) == 0);
}

static void test_syntaxes(void)
{
    const char *automatic[] = { "?:\\pagefile.sys" };
    parse_multi(automatic, 1);
    CHECK(cfg.present);
    CHECK_EQ_I64(cfg.count, 1);
    CHECK(cfg.automatic == HR_TRI_YES);
    CHECK(cfg.entries[0].mode == HR_PAGING_MODE_AUTOMATIC);
    CHECK_STR(cfg.entries[0].path, "?:\\pagefile.sys");
    CHECK_EQ_U64(cfg.entries[0].initial_bytes, HR_UNKNOWN);

    const char *sysman[] = { "C:\\pagefile.sys 0 0" };
    parse_multi(sysman, 1);
    CHECK(cfg.automatic == HR_TRI_NO);
    CHECK(cfg.entries[0].mode == HR_PAGING_MODE_SYSTEM_MANAGED);
    CHECK_STR(cfg.entries[0].path, "C:\\pagefile.sys");

    const char *bare[] = { "C:\\pagefile.sys" };
    parse_multi(bare, 1);
    CHECK(cfg.entries[0].mode == HR_PAGING_MODE_SYSTEM_MANAGED);

    const char *custom[] = { "D:\\pagefile.sys 16384 32768" };
    parse_multi(custom, 1);
    CHECK(cfg.entries[0].mode == HR_PAGING_MODE_CUSTOM);
    CHECK_EQ_U64(cfg.entries[0].initial_bytes, 16384ull << 20);
    CHECK_EQ_U64(cfg.entries[0].maximum_bytes, 32768ull << 20);

    const char *several[] = { "C:\\pagefile.sys 0 0", "D:\\pagefile.sys 16384 32768",
                              "  E:\\pagefile.sys\t65536\t65536  " };
    parse_multi(several, 3);
    CHECK_EQ_I64(cfg.count, 3);
    CHECK_STR(cfg.entries[2].path, "E:\\pagefile.sys");
    CHECK_EQ_U64(cfg.entries[2].maximum_bytes, 65536ull << 20);
    CHECK(hr_words_empty(&cfg.notes));

    /* Doc example: '?:' with sizes — automatic drive, custom sizes. */
    const char *anysized[] = { "?:\\pagefile.sys 1024 1124" };
    parse_multi(anysized, 1);
    CHECK(cfg.automatic == HR_TRI_YES);
    CHECK_EQ_U64(cfg.entries[0].initial_bytes, 1024ull << 20);

    /* smss rules: one number -> max = min; min > max -> max raised; hex; NT path form. */
    const char *odd[] = { "F:\\pagefile.sys 4096", "G:\\pagefile.sys 8192 1024", "H:\\pagefile.sys 0x400 0x800",
                          "\\??\\I:\\pagefile.sys 00 000" };
    parse_multi(odd, 4);
    CHECK_EQ_I64(cfg.count, 4);
    CHECK_EQ_U64(cfg.entries[0].maximum_bytes, 4096ull << 20);
    CHECK_EQ_U64(cfg.entries[1].maximum_bytes, 8192ull << 20);
    CHECK_EQ_U64(cfg.entries[2].initial_bytes, 1024ull << 20);
    CHECK_EQ_U64(cfg.entries[2].maximum_bytes, 2048ull << 20);
    CHECK_STR(cfg.entries[3].path, "I:\\pagefile.sys");
    CHECK(cfg.entries[3].mode == HR_PAGING_MODE_SYSTEM_MANAGED);

    /* Rejected entries are left out and said. */
    const char *bad[] = { "J:\\pagefile.sys abc", "?:\\pagefile.sys", "?:\\pagefile.sys 0 0",
                          "K:\\pagefile.sys 99999999999999999999 1" };
    parse_multi(bad, 4);
    CHECK_EQ_I64(cfg.count, 1);
    CHECK_CONTAINS(hr_words_in(&cfg.notes, HR_LANG_EN), "not a number of MB");
    CHECK_CONTAINS(hr_words_in(&cfg.notes, HR_LANG_EN), "duplicate");

    const char *many[20];
    char names[20][32];
    for (int i = 0; i < 20; i++) {
        snprintf(names[i], sizeof names[i], "%c:\\pagefile.sys 16 16", 'C' + i);
        many[i] = names[i];
    }
    parse_multi(many, 20);
    CHECK_EQ_I64(cfg.count, 16);
    CHECK_CONTAINS(hr_words_in(&cfg.notes, HR_LANG_EN), "at most 16");

    /* Chinese path survives the UTF-16 round trip. */
    const char *zh[] = { "D:\\\xe8\x99\x9a\xe6\x8b\x9f\xe5\x86\x85\xe5\xad\x98\\pagefile.sys 1 2" };
    parse_multi(zh, 1);
    CHECK_STR(cfg.entries[0].path, "D:\\\xe8\x99\x9a\xe6\x8b\x9f\xe5\x86\x85\xe5\xad\x98\\pagefile.sys");
}

static void test_empty_and_types(void)
{
    hr_error err = { 0 };
    static const uint8_t zeros[4] = { 0, 0, 0, 0 };
    for (size_t len = 0; len <= 4; len += 2) {
        memset(&cfg, 0xff, sizeof cfg);
        CHECK(hr_pagingfiles_parse(zeros, len, HR_REG_MULTI_SZ, &cfg, &err) == 0);
        CHECK(cfg.present);
        CHECK_EQ_I64(cfg.count, 0);
        CHECK(cfg.automatic == HR_TRI_NO);
    }
    /* Wine: REG_SZ "C:\pagefile.sys 27 77" with its terminator. */
    uint8_t buf[256];
    const char *wine = "C:\\pagefile.sys 27 77";
    size_t len = hr_utf8_to_utf16le(wine, strlen(wine), buf, sizeof buf);
    buf[len++] = 0;
    buf[len++] = 0;
    memset(&cfg, 0, sizeof cfg);
    CHECK(hr_pagingfiles_parse(buf, len, HR_REG_SZ, &cfg, &err) == 0);
    CHECK_EQ_I64(cfg.count, 1);
    CHECK_EQ_U64(cfg.entries[0].initial_bytes, 27ull << 20);
    CHECK_EQ_U64(cfg.entries[0].maximum_bytes, 77ull << 20);
    /* Without terminator, and with an odd trailing byte. */
    CHECK(hr_pagingfiles_parse(buf, len - 2, HR_REG_SZ, &cfg, &err) == 0 && cfg.count == 1);
    CHECK(hr_pagingfiles_parse(buf, len - 1, HR_REG_MULTI_SZ, &cfg, &err) == 0 && cfg.count == 1);
    /* Multi-sz without the final empty string. */
    CHECK(hr_pagingfiles_parse(buf, len - 2, HR_REG_MULTI_SZ, &cfg, &err) == 0 && cfg.count == 1);
    /* Wrong type. */
    CHECK(hr_pagingfiles_parse(buf, len, HR_REG_DWORD, &cfg, &err) == HR_EINVAL);
    CHECK_CONTAINS(err.msg, "type 4");

    /* ExistingPageFiles. */
    const char *ex[] = { "\\??\\C:\\pagefile.sys", "\\??\\D:\\pagefile.sys" };
    len = multi_sz(buf, sizeof buf, ex, 2);
    memset(&cfg, 0, sizeof cfg);
    CHECK(hr_existing_pagefiles_parse(buf, len, HR_REG_MULTI_SZ, &cfg, &err) == 0);
    CHECK_EQ_I64(cfg.existing_count, 2);
    CHECK_STR(cfg.existing[1], "D:\\pagefile.sys");
}

static void test_utf16(void)
{
    /* Lone surrogates become U+FFFD; a pair becomes one 4-byte sequence. */
    const uint8_t in[] = { 0x41, 0, 0x00, 0xd8, 0x42, 0, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xdc };
    char out[32];
    hr_utf16le_to_utf8(in, 6, out, sizeof out, NULL);
    CHECK_STR(out, "A\xef\xbf\xbd"
                   "B\xf0\x9f\x98\x80\xef\xbf\xbd");
    int trunc = 0;
    hr_utf16le_to_utf8(in, 6, out, 4, &trunc);
    CHECK_STR(out, "A");
    CHECK(trunc == 1);
    uint8_t back[32];
    size_t n = hr_utf8_to_utf16le("\xf0\x9f\x98\x80\xff", 5, back, sizeof back);
    CHECK_EQ_U64(n, 6);
    CHECK(back[0] == 0x3d && back[1] == 0xd8 && back[4] == 0xfd && back[5] == 0xff);
}

int main(void)
{
    test_syntaxes();
    test_empty_and_types();
    test_utf16();
    return TEST_DONE();
}
