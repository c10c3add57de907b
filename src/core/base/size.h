/* headroom — sizes: parsing what users type and formatting what we show.
 *
 * One convention, documented in docs/units.md: K, M, G, T are binary (1G = 1024 MiB), with or
 * without "B"/"iB" ("16G" = "16GB" = "16GiB"), because the Windows paging file dialog counts
 * in binary megabytes and so does Linux. A bare number is refused, with the reading the user
 * most likely meant ("did you mean 32768 MB (32 GB)?"); bytes are written "4096B". */
#ifndef HR_SIZE_H
#define HR_SIZE_H

#include "core/base/error.h"

#include <stddef.h>
#include <stdint.h>

#define HR_KIB ((uint64_t)1024)
#define HR_MIB (HR_KIB * 1024)
#define HR_GIB (HR_MIB * 1024)
#define HR_TIB (HR_GIB * 1024)

/* "16G", "16 GiB", "16384M", "1.5G", "16GB" → bytes. Fails (HR_EPARSE / HR_ERANGE) on
 * anything else, with a message quoting the text. */
int hr_size_parse(const char *text, uint64_t *bytes, hr_error *err);

/* "15.6 GiB", "512 MiB", "0 B": three significant figures, binary units. */
void hr_size_format(uint64_t bytes, char *out, size_t n);

/* Whole GiB, rounded up (the unit the plan speaks in). */
uint64_t hr_size_round_up_gib(uint64_t bytes);

/* The plan's and check's unit, for people: "64 GB", "15.6 GB", "512 MB", "unknown" —
 * GB = GiB to the nearest tenth (whole from 100 GB up; 8388604 kB of swap is "8 GB", not
 * "7.9"), MB below 1 GB, as the paging file dialog counts (docs/units.md). */
void hr_size_gb(uint64_t bytes, char *out, size_t n);

/* Sizes add up without wrapping: absurd inputs (a 16 EB --peak-commit, a corrupt recording)
 * saturate instead of turning into small numbers. */
static inline uint64_t hr_sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
static inline uint64_t hr_sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

#endif
