#include "core/base/size.h"
#include "core/base/i18n.h"

#include "core/base/text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The refusal of a bare number, with the reading the user most likely meant: under 1024 a
 * number of GB ("--ram 16"), up to 16 TB's worth a number of MB (the dialog's unit), beyond
 * that bytes. */
static int bare_number(const char *text, uint64_t n, hr_error *err)
{
    if (n < 1024)
        return hr_error_set(err, HR_EPARSE, HR_T("size '%s': a size needs a unit — did you mean %lluG?"), text,
                            (unsigned long long)n);
    char gb[32];
    if (n < ((uint64_t)16 << 20)) {
        hr_size_gb(n * HR_MIB, gb, sizeof gb);
        return hr_error_set(err, HR_EPARSE, HR_T("size '%s': a size needs a unit — did you mean %llu MB (%s)?"), text,
                            (unsigned long long)n, gb);
    }
    hr_size_gb(n, gb, sizeof gb);
    return hr_error_set(err, HR_EPARSE, HR_T("size '%s': a size needs a unit — did you mean %lluB (%s)?"), text,
                        (unsigned long long)n, gb);
}

int hr_size_parse(const char *text, uint64_t *bytes, hr_error *err)
{
    const char *p = text;
    if (!p)
        return hr_error_set(err, HR_EINVAL, HR_T("size: missing value"));
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return hr_error_set(err, HR_EPARSE, HR_T("size '%s': expected a number such as 16G or 16384M"), text);
    uint64_t whole = 0;
    while (isdigit((unsigned char)*p)) {
        unsigned d = (unsigned)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return hr_error_set(err, HR_ERANGE, HR_T("size '%s': too large"), text);
        whole = whole * 10 + d;
        p++;
    }
    /* Up to six decimals, kept as a fraction in millionths. */
    uint64_t frac = 0, scale = 1;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return hr_error_set(err, HR_EPARSE, HR_T("size '%s': digits expected after '.'"), text);
        while (isdigit((unsigned char)*p)) {
            if (scale < 1000000) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                scale *= 10;
            }
            p++;
        }
    }
    while (*p == ' ')
        p++;
    uint64_t unit = 1;
    switch (toupper((unsigned char)*p)) {
    case '\0':
        /* A bare number is refused: 32768 is the MB figure the plan prints and the Windows
         * dialog shows, 16 is what a user means by "--ram 16"; read as bytes, either would
         * size a paging file of a few kilobytes (docs/units.md). "B" says bytes. */
        if (frac)
            return hr_error_set(err, HR_EPARSE, HR_T("size '%s': a fraction needs a unit"), text);
        if (whole)
            return bare_number(text, whole, err);
        unit = 1; /* 0 is 0 in any unit (--vram 0: no dedicated VRAM) */
        break;
    case 'B':
        unit = 1;
        p++;
        break;
    case 'K':
        unit = HR_KIB;
        p++;
        break;
    case 'M':
        unit = HR_MIB;
        p++;
        break;
    case 'G':
        unit = HR_GIB;
        p++;
        break;
    case 'T':
        unit = HR_TIB;
        p++;
        break;
    default: return hr_error_set(err, HR_EPARSE, HR_T("size '%s': unknown unit (use K, M, G or T)"), text);
    }
    if (unit > 1) {
        if (*p == 'i' || *p == 'I')
            p++;
        if (*p == 'b' || *p == 'B')
            p++;
    }
    while (*p == ' ')
        p++;
    if (*p)
        return hr_error_set(err, HR_EPARSE, HR_T("size '%s': unexpected text after the unit"), text);
    if (frac && unit == 1)
        return hr_error_set(err, HR_EPARSE, HR_T("size '%s': a fraction needs a unit"), text);
    if (whole > UINT64_MAX / unit)
        return hr_error_set(err, HR_ERANGE, HR_T("size '%s': too large"), text);
    uint64_t v = whole * unit;
    uint64_t f = unit / scale * frac + (unit % scale) * frac / scale;
    /* The top two values stand for "unknown" and "unlimited" everywhere: never a size. */
    if (v > UINT64_MAX - f || v + f >= HR_UNLIMITED)
        return hr_error_set(err, HR_ERANGE, HR_T("size '%s': too large"), text);
    *bytes = v + f;
    return 0;
}

void hr_size_format(uint64_t bytes, char *out, size_t n)
{
    static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    double v = (double)bytes;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(out, n, "%llu B", (unsigned long long)bytes);
    else if (v >= 100.0)
        snprintf(out, n, "%.0f %s", v, units[u]);
    else if (v >= 10.0)
        snprintf(out, n, "%.1f %s", v, units[u]);
    else
        snprintf(out, n, "%.2f %s", v, units[u]);
}

uint64_t hr_size_round_up_gib(uint64_t bytes)
{
    return bytes / HR_GIB + (bytes % HR_GIB ? 1 : 0);
}

void hr_size_gb(uint64_t bytes, char *out, size_t n)
{
    if (bytes == HR_UNKNOWN) {
        snprintf(out, n, "unknown");
        return;
    }
    if (bytes < HR_GIB) {
        snprintf(out, n, "%llu MB", (unsigned long long)(bytes / HR_MIB));
        return;
    }
    uint64_t tenths = bytes / (HR_GIB / 10) + ((bytes % (HR_GIB / 10)) >= HR_GIB / 20 ? 1 : 0);
    uint64_t whole = tenths / 10, tenth = tenths % 10;
    if (whole >= 100)
        snprintf(out, n, "%llu GB", (unsigned long long)(whole + (tenth >= 5)));
    else if (tenth == 0)
        snprintf(out, n, "%llu GB", (unsigned long long)whole);
    else
        snprintf(out, n, "%llu.%llu GB", (unsigned long long)whole, (unsigned long long)tenth);
}
