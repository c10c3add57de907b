/* headroom — a DRM client's fdinfo (drm_fdinfo.h). */
#include "core/model/drm_fdinfo.h"
#include "core/base/text.h"

#include <string.h>

/* A value: digits, optional blanks, an optional unit (none: bytes). false when malformed or
 * too large. */
static bool value_bytes(const char *v, size_t n, uint64_t *out)
{
    size_t i = 0;
    uint64_t x = 0;
    if (i >= n || v[i] < '0' || v[i] > '9')
        return false;
    for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    uint64_t mult = 1;
    if (n - i == 3 && memcmp(v + i, "KiB", 3) == 0)
        mult = 1024;
    else if (n - i == 3 && memcmp(v + i, "MiB", 3) == 0)
        mult = 1024 * 1024;
    else if (i != n)
        return false;
    if (x >= HR_UNKNOWN / mult)
        return false; /* HR_UNKNOWN is UINT64_MAX: no real figure comes near it */
    *out = x * mult;
    return true;
}

/* A word of the value, up to a NUL byte (a malformed file) or cap - 1 bytes. */
static void copy_word(char *dst, size_t cap, const char *v, size_t n)
{
    size_t k = 0;
    for (; k < n && k < cap - 1 && v[k] != '\0'; k++)
        dst[k] = v[k];
    dst[k] = '\0';
}

void hr_drm_fdinfo_parse(const char *buf, size_t len, hr_drm_fdinfo *out)
{
    memset(out, 0, sizeof *out);
    out->vram_bytes = HR_UNKNOWN;
    uint64_t resident = 0, legacy = 0;
    bool have_resident = false, have_legacy = false;
    size_t pos = 0;
    while (pos < len) {
        const char *line = buf + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        const char *colon = memchr(line, ':', ll);
        if (!colon || ll < 4 || memcmp(line, "drm-", 4) != 0)
            continue;
        size_t kl = (size_t)(colon - line);
        const char *v = colon + 1;
        size_t vl = ll - kl - 1;
        while (vl && (*v == ' ' || *v == '\t'))
            v++, vl--;
        while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t' || v[vl - 1] == '\r'))
            vl--;
        uint64_t x;
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(line, s, kl) == 0)
        if (KEY("drm-driver")) {
            copy_word(out->driver, sizeof out->driver, v, vl);
            out->drm = out->driver[0] != '\0';
        } else if (KEY("drm-pdev")) {
            copy_word(out->pdev, sizeof out->pdev, v, vl);
        } else if (KEY("drm-client-id") && value_bytes(v, vl, &x)) {
            out->client_known = true;
            out->client_id = x;
        } else if (KEY("drm-memory-vram") && value_bytes(v, vl, &x)) {
            have_legacy = true;
            legacy = x;
        } else if (kl >= sizeof "drm-resident-vram" - 1 &&
                   memcmp(line, "drm-resident-vram", sizeof "drm-resident-vram" - 1) == 0 && value_bytes(v, vl, &x)) {
            /* one line per VRAM region: "vram" (amdgpu), "vram0", "vram1" (xe) */
            have_resident = true;
            resident = resident >= HR_UNKNOWN - 1 - x ? HR_UNKNOWN - 1 : resident + x;
        }
#undef KEY
    }
    if (have_resident)
        out->vram_bytes = resident;
    else if (have_legacy)
        out->vram_bytes = legacy;
}
