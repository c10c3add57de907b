#include "core/model/swap_header.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

uint64_t hr_swap_pages(uint64_t file_bytes, size_t page_size)
{
    if (page_size == 0)
        return 0;
    uint64_t pages = file_bytes / page_size;
    /* last_page is a u32: mkswap caps the area there (17.59 TB with 4 KiB pages). */
    if (pages > (uint64_t)UINT32_MAX + 1)
        pages = (uint64_t)UINT32_MAX + 1;
    return pages;
}

static int page_size_ok(size_t page_size)
{
    return page_size >= 4096 && page_size <= 65536 && (page_size & (page_size - 1)) == 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, sizeof v); /* native byte order, as the kernel and mkswap expect */
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

int hr_swap_header_build(unsigned char *page, size_t page_size, uint64_t file_bytes, const unsigned char uuid[16],
                         const char *label, hr_error *err)
{
    if (!page || !uuid)
        return hr_error_set(err, HR_EINVAL, HR_T("swap header: missing buffer or UUID"));
    if (!page_size_ok(page_size))
        return hr_error_set(err, HR_EINVAL,
                            HR_T("swap header: page size %lu is not a power of two "
                                 "from 4096 to 65536"),
                            (unsigned long)page_size);
    uint64_t pages = hr_swap_pages(file_bytes, page_size);
    if (pages < HR_SWAP_MIN_GOOD_PAGES + 1)
        return hr_error_set(err, HR_ERANGE,
                            HR_T("swap header: a swap area needs at least %d pages "
                                 "(%lu KiB); got %llu bytes"),
                            HR_SWAP_MIN_GOOD_PAGES + 1,
                            (unsigned long)((HR_SWAP_MIN_GOOD_PAGES + 1) * page_size / 1024),
                            (unsigned long long)file_bytes);
    size_t llen = label ? strlen(label) : 0;
    if (llen > HR_SWAP_LABEL_MAX)
        return hr_error_set(err, HR_ERANGE, HR_T("swap header: label '%s' is longer than %d bytes"), label,
                            HR_SWAP_LABEL_MAX);
    memset(page, 0, page_size);
    put_u32(page + HR_SWAP_OFF_VERSION, 1);
    put_u32(page + HR_SWAP_OFF_LAST_PAGE, (uint32_t)(pages - 1));
    put_u32(page + HR_SWAP_OFF_NR_BADPAGES, 0);
    memcpy(page + HR_SWAP_OFF_UUID, uuid, 16);
    if (llen)
        memcpy(page + HR_SWAP_OFF_LABEL, label, llen);
    memcpy(page + page_size - HR_SWAP_MAGIC_LEN, HR_SWAP_MAGIC, HR_SWAP_MAGIC_LEN);
    return 0;
}

int hr_swap_header_parse(const unsigned char *page, size_t n, size_t page_size, hr_swap_header_info *out, hr_error *err)
{
    if (!page || !out || !page_size_ok(page_size))
        return hr_error_set(err, HR_EINVAL, HR_T("swap header: bad arguments"));
    if (n < page_size)
        return hr_error_set(err, HR_EPARSE, HR_T("swap header: only %lu bytes, a page is %lu"), (unsigned long)n,
                            (unsigned long)page_size);
    if (memcmp(page + page_size - HR_SWAP_MAGIC_LEN, HR_SWAP_MAGIC, HR_SWAP_MAGIC_LEN) != 0)
        return hr_error_set(err, HR_EPARSE, HR_T("swap header: no SWAPSPACE2 signature at offset %lu"),
                            (unsigned long)(page_size - HR_SWAP_MAGIC_LEN));
    memset(out, 0, sizeof *out);
    out->version = get_u32(page + HR_SWAP_OFF_VERSION);
    out->last_page = get_u32(page + HR_SWAP_OFF_LAST_PAGE);
    out->nr_badpages = get_u32(page + HR_SWAP_OFF_NR_BADPAGES);
    memcpy(out->uuid, page + HR_SWAP_OFF_UUID, 16);
    memcpy(out->label, page + HR_SWAP_OFF_LABEL, HR_SWAP_LABEL_MAX);
    out->label[HR_SWAP_LABEL_MAX] = '\0';
    if (out->version != 1)
        return hr_error_set(err, HR_EPARSE, HR_T("swap header: version %u, only version 1 is known"), out->version);
    return 0;
}

int hr_uuid_parse(const char *text, unsigned char out[16])
{
    if (!text || strlen(text) != 36)
        return HR_EPARSE;
    int k = 0;
    for (int i = 0; i < 36;) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (text[i] != '-')
                return HR_EPARSE;
            i++;
            continue;
        }
        int hi = hr_hex_digit((unsigned char)text[i]), lo = hr_hex_digit((unsigned char)text[i + 1]);
        if (hi < 0 || lo < 0)
            return HR_EPARSE;
        out[k++] = (unsigned char)(hi * 16 + lo);
        i += 2;
    }
    return 0;
}

void hr_uuid_format(const unsigned char u[16], char out[37])
{
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
             u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

void hr_uuid_make_v4(unsigned char u[16])
{
    u[6] = (unsigned char)((u[6] & 0x0f) | 0x40);
    u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
}
