/* headroom — the Linux swap area header (page 0 of a swap file), built and read by us.
 *
 * Byte-compatible with util-linux mkswap (version 1 header, "SWAPSPACE2" magic in the last
 * ten bytes of the page): headroom writes it itself so that it needs no external tool and
 * knows exactly what lands on disk (no mkswap to run or trust). Layout, from
 * the kernel's union swap_header: bootbits[1024], then u32 version = 1, u32 last_page,
 * u32 nr_badpages, uuid[16], volume_name[16], padding; magic at page_size - 10. Fields are
 * in the machine's byte order, as mkswap writes them. */
#ifndef HR_SWAP_HEADER_H
#define HR_SWAP_HEADER_H

#include "core/base/error.h"

#include <stddef.h>
#include <stdint.h>

#define HR_SWAP_MAGIC           "SWAPSPACE2"
#define HR_SWAP_MAGIC_LEN       10
#define HR_SWAP_MIN_GOOD_PAGES  10 /* mkswap's MIN_GOODPAGES */
#define HR_SWAP_LABEL_MAX       16 /* volume_name[16], NUL-padded, not necessarily terminated */
#define HR_SWAP_OFF_VERSION     1024
#define HR_SWAP_OFF_LAST_PAGE   1028
#define HR_SWAP_OFF_NR_BADPAGES 1032
#define HR_SWAP_OFF_UUID        1036
#define HR_SWAP_OFF_LABEL       1052

typedef struct hr_swap_header_info {
    uint32_t version;
    uint32_t last_page; /* index of the last usable page: pages - 1 */
    uint32_t nr_badpages;
    unsigned char uuid[16];
    char label[HR_SWAP_LABEL_MAX + 1];
} hr_swap_header_info;

/* Number of whole pages in a file of file_bytes, capped like mkswap (last_page fits u32). */
uint64_t hr_swap_pages(uint64_t file_bytes, size_t page_size);

/* Fill page[0..page_size) with the header of a swap area of file_bytes bytes. page_size is a
 * power of two from 4096 to 65536; the area needs at least 11 pages; the label at most 16
 * bytes. Bytes 0..1023 (boot bits) are zero, as in a fresh file. */
int hr_swap_header_build(unsigned char *page, size_t page_size, uint64_t file_bytes, const unsigned char uuid[16],
                         const char *label, hr_error *err);

/* Read a header from the first n bytes of a swap area (n >= page_size). HR_EPARSE when the
 * magic or version is wrong. */
int hr_swap_header_parse(const unsigned char *page, size_t n, size_t page_size, hr_swap_header_info *out,
                         hr_error *err);

/* "1b4e28ba-2fa1-41d2-883f-0016d3cca427" <-> 16 bytes. */
int hr_uuid_parse(const char *text, unsigned char out[16]);
void hr_uuid_format(const unsigned char uuid[16], char out[37]);
/* Turn 16 random bytes into an RFC 4122 version 4 UUID (as mkswap's uuid_generate does). */
void hr_uuid_make_v4(unsigned char uuid[16]);

#endif
