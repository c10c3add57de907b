/* headroom — legacy torch files (.ckpt/.pt/.pth/.bin) as zip archives: the end of central
 * directory record (zip64 where the archive needs it) and the central directory. Nothing is
 * decompressed and no pickle is ever run: the sizes of the archive's data/ entries are the
 * tensor bytes (torch.save stores them uncompressed). */
#include "core/scan/model_scan.h"
#include "core/base/i18n.h"

#include <stdio.h>
#include <string.h>

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return le16(p) | le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int hr_zip_parse_tail(const char *name, const unsigned char *tail, size_t len, uint64_t file_size, hr_model_info *m,
                      size_t *need, hr_error *err)
{
    *need = 0;
    m->format = HR_MODEL_FMT_TORCH_ZIP;
    m->file_bytes = file_size;
    m->coarse = true;
    if (len > file_size)
        len = (size_t)file_size;
    /* the end record: 22 bytes + a comment of up to 65535, searched from the end */
    size_t eocd = SIZE_MAX;
    for (size_t i = len >= 22 ? len - 22 + 1 : 0; i-- > 0;) {
        if (le32(tail + i) == 0x06054b50u && i + 22 + le16(tail + i + 20) == len) {
            eocd = i;
            break;
        }
        if (len - i > 65535 + 22)
            break;
    }
    if (eocd == SIZE_MAX)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: a zip archive without its end record: "
                                  "truncated"),
                             name);
    uint64_t entries = le16(tail + eocd + 10);
    uint64_t cd_size = le32(tail + eocd + 12);
    uint64_t cd_off = le32(tail + eocd + 16);
    size_t end_of_cd = eocd; /* where the directory must end, in the tail */
    if (eocd >= 20 && le32(tail + eocd - 20) == 0x07064b50u) {
        uint64_t z64 = le64(tail + eocd - 20 + 8);
        uint64_t tail_start = file_size - len;
        if (z64 < tail_start || z64 - tail_start + 56 > eocd - 20)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: zip64 end record outside the file's end"), name);
        const unsigned char *z = tail + (z64 - tail_start);
        if (le32(z) != 0x06064b50u)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: zip64 end record is damaged"), name);
        entries = le64(z + 32);
        cd_size = le64(z + 40);
        cd_off = le64(z + 48);
        end_of_cd = (size_t)(z64 - tail_start);
    }
    uint64_t tail_start = file_size - len;
    if (cd_off > file_size || cd_size > file_size - cd_off || cd_off + cd_size != tail_start + end_of_cd)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: zip central directory (%llu bytes at %llu) does "
                                  "not end where the end record is: a damaged archive"),
                             name, (unsigned long long)cd_size, (unsigned long long)cd_off);
    if (cd_off < tail_start) {
        uint64_t want = file_size - cd_off;
        if (want > HR_ZIP_MAX_TAIL)
            return hr_model_fail(m, err, HR_ETOOBIG,
                                 HR_N("%s: zip central directory is larger than %zu "
                                      "bytes"),
                                 name, HR_ZIP_MAX_TAIL);
        *need = (size_t)want;
        return 0;
    }
    const unsigned char *p = tail + (cd_off - tail_start);
    const unsigned char *end = p + cd_size;
    uint64_t data = 0, n = 0, all = 0;
    bool pkl = false;
    while (p < end) {
        if ((size_t)(end - p) < 46 || le32(p) != 0x02014b50u)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: zip central directory entry %llu is damaged"), name,
                                 (unsigned long long)n);
        uint64_t csize = le32(p + 20), usize = le32(p + 24);
        size_t nl = le16(p + 28), xl = le16(p + 30), cl = le16(p + 32);
        if ((size_t)(end - p) - 46 < nl + xl + cl)
            return hr_model_fail(m, err, HR_EPARSE,
                                 HR_N("%s: zip central directory entry %llu runs past "
                                      "the directory"),
                                 name, (unsigned long long)n);
        const char *nm = (const char *)p + 46;
        const unsigned char *x = p + 46 + nl, *xe = x + xl;
        while (xe - x >= 4) {
            uint32_t id = le16(x), sz = le16(x + 2);
            if ((size_t)(xe - x) - 4 < sz)
                break;
            if (id == 1) {
                const unsigned char *q = x + 4, *qe = q + sz;
                if (usize == 0xffffffffu && qe - q >= 8) {
                    usize = le64(q);
                    q += 8;
                }
                if (csize == 0xffffffffu && qe - q >= 8) {
                    csize = le64(q);
                    q += 8;
                }
            }
            x += 4 + sz;
        }
        if (csize > file_size)
            return hr_model_fail(m, err, HR_EPARSE,
                                 HR_N("%s: zip entry %llu claims %llu bytes, more than "
                                      "the file"),
                                 name, (unsigned long long)n, (unsigned long long)csize);
        if (nl >= 8 && memcmp(nm + nl - 8, "data.pkl", 8) == 0)
            pkl = true;
        else if (nl >= 6) {
            for (size_t i = 0; i + 6 <= nl; i++)
                if (memcmp(nm + i, "/data/", 6) == 0) {
                    data += usize <= ((uint64_t)1 << 50) ? usize : csize;
                    m->tensors++;
                    break;
                }
        }
        all += csize;
        n++;
        p += 46 + nl + xl + cl;
    }
    if (n != entries)
        return hr_model_fail(m, err, HR_EPARSE,
                             HR_N("%s: zip directory holds %llu entries, its end record "
                                  "says %llu"),
                             name, (unsigned long long)n, (unsigned long long)entries);
    m->tensor_bytes = data ? data : all;
    m->metadata_keys = (size_t)n;
    hr_msg_set(&m->note,
               pkl ? HR_N("torch zip archive of %llu entries: sizes from its directory, never unpickled")
                   : HR_N("a zip archive of %llu entries: sizes from its directory, never unpickled"),
               (unsigned long long)n);
    return 0;
}
