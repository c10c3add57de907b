/* Swap header: layout, limits, parse; and byte-for-byte equality with util-linux mkswap
 * (when mkswap is installed: `mkswap -U <uuid> -L <label> file` on a zeroed file). */
#include "test.h"

#include "core/model/swap_header.h"

#include <stdlib.h>

#ifndef _WIN32
#include <unistd.h>
#endif

static int compare_with_mkswap(size_t page_size)
{
#ifdef _WIN32
    (void)page_size;
    return 77;
#else
    if (system("command -v mkswap >/dev/null 2>&1") != 0 && access("/sbin/mkswap", X_OK) != 0 &&
        access("/usr/sbin/mkswap", X_OK) != 0)
        return 77;
    if ((size_t)sysconf(_SC_PAGESIZE) != page_size)
        return 77;
    char dir[] = "/tmp/hr-swaphdr-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char file[64], cmd[256];
    snprintf(file, sizeof file, "%s/f", dir);
    const uint64_t size = 4u << 20;
    FILE *fp = fopen(file, "wb");
    if (!fp)
        return 1;
    static unsigned char zero[4u << 20];
    fwrite(zero, 1, sizeof zero, fp);
    fclose(fp);
    const char *uuid_s = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";
    snprintf(cmd, sizeof cmd,
             "PATH=$PATH:/sbin:/usr/sbin; chmod 600 %s; mkswap -U %s -L headroom %s "
             ">/dev/null 2>&1",
             file, uuid_s, file);
    int rc = system(cmd);
    CHECK(rc == 0);
    unsigned char *theirs = malloc(size), *ours = calloc(1, size);
    fp = fopen(file, "rb");
    CHECK(fp && fread(theirs, 1, size, fp) == size);
    if (fp)
        fclose(fp);
    unsigned char uuid[16];
    CHECK(hr_uuid_parse(uuid_s, uuid) == 0);
    hr_error err = { 0 };
    CHECK(hr_swap_header_build(ours, page_size, size, uuid, "headroom", &err) == 0);
    CHECK(memcmp(ours, theirs, size) == 0); /* the whole file, not only page 0 */
    free(theirs);
    free(ours);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    system(cmd);
    return 0;
#endif
}

int main(void)
{
    hr_error err = { 0 };
    unsigned char page[65536];
    unsigned char uuid[16];
    CHECK(hr_uuid_parse("1b4e28ba-2fa1-41d2-883f-0016d3cca427", uuid) == 0);
    char s[37];
    hr_uuid_format(uuid, s);
    CHECK_STR(s, "1b4e28ba-2fa1-41d2-883f-0016d3cca427");
    CHECK(hr_uuid_parse("1b4e28ba2fa1-41d2-883f-0016d3cca427-", uuid) != 0);
    CHECK(hr_uuid_parse("zb4e28ba-2fa1-41d2-883f-0016d3cca427", uuid) != 0);
    CHECK(hr_uuid_parse("1b4e28ba-2fa1-41d2-883f-0016d3cca427", uuid) == 0);

    CHECK(hr_swap_header_build(page, 4096, 1u << 20, uuid, "headroom", &err) == 0);
    CHECK(memcmp(page + 4086, "SWAPSPACE2", 10) == 0);
    uint32_t v;
    memcpy(&v, page + 1024, 4);
    CHECK_EQ_U64(v, 1);
    memcpy(&v, page + 1028, 4);
    CHECK_EQ_U64(v, 255); /* 1 MiB of 4 KiB pages: last page 255 */
    for (int i = 0; i < 1024; i++)
        if (page[i]) {
            CHECK(!"boot bits must stay zero");
            break;
        }
    hr_swap_header_info info;
    CHECK(hr_swap_header_parse(page, 4096, 4096, &info, &err) == 0);
    CHECK_EQ_U64(info.last_page, 255);
    CHECK_STR(info.label, "headroom");
    CHECK(memcmp(info.uuid, uuid, 16) == 0);

    /* 64 KiB pages (arm64/ppc64 kernels): magic at the end of that page. */
    CHECK(hr_swap_header_build(page, 65536, 64u << 20, uuid, NULL, &err) == 0);
    CHECK(memcmp(page + 65536 - 10, "SWAPSPACE2", 10) == 0);
    /* Limits. */
    CHECK(hr_swap_header_build(page, 4096, 10 * 4096, uuid, NULL, &err) == HR_ERANGE);
    CHECK(hr_swap_header_build(page, 4096, 11 * 4096, uuid, NULL, &err) == 0);
    CHECK(hr_swap_header_build(page, 3000, 1u << 20, uuid, NULL, &err) == HR_EINVAL);
    CHECK(hr_swap_header_build(page, 4096, 1u << 20, uuid, "seventeen-bytes!!", &err) == HR_ERANGE);
    CHECK(hr_swap_header_build(page, 4096, 1u << 20, uuid, "sixteen-bytes!!!", &err) == 0);
    CHECK(hr_swap_header_parse(page, 4096, 4096, &info, &err) == 0);
    CHECK_STR(info.label, "sixteen-bytes!!!");
    CHECK_EQ_U64(hr_swap_pages((uint64_t)1 << 50, 4096), (uint64_t)UINT32_MAX + 1);
    page[4095] = 'X';
    CHECK(hr_swap_header_parse(page, 4096, 4096, &info, &err) == HR_EPARSE);
    CHECK(hr_swap_header_parse(page, 100, 4096, &info, &err) == HR_EPARSE);
    unsigned char u2[16] = { 0 };
    memset(u2, 0xff, 16);
    hr_uuid_make_v4(u2);
    CHECK_EQ_U64(u2[6] >> 4, 4);
    CHECK_EQ_U64(u2[8] >> 6, 2);

    int m = compare_with_mkswap(4096);
    if (m == 77)
        printf("note: mkswap not available or page size differs; byte comparison skipped\n");
    else
        printf("compared with mkswap: byte-identical 4 MiB file\n");
    return TEST_DONE();
}
