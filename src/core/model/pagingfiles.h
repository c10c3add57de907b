/* headroom — Windows registry string values and the PagingFiles syntax, as pure functions.
 *
 * PagingFiles (HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management)
 * is read by the Session Manager (smss) at boot. Each string is "<path> [<initialMB>
 * <maximumMB>]". These functions follow smss's rules (docs/rules.md, sources: PagingFiles):
 *   - no sizes, or sizes made only of blanks and zeros  -> system managed ("C:\pagefile.sys 0 0")
 *   - drive letter '?'                                   -> automatic, on any drive ("?:\pagefile.sys")
 *   - one number                                         -> initial = maximum = that number
 *   - initial > maximum                                  -> maximum raised to initial
 *   - at most 16 paging files; a second '?:' entry is a duplicate; both are ignored
 *   - no value, or a value with no strings (0, 2 or 4 bytes) -> no paging file
 * The value is REG_MULTI_SZ on Windows; Wine writes a REG_SZ. Both are accepted. */
#ifndef HR_PAGINGFILES_H
#define HR_PAGINGFILES_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stddef.h>
#include <stdint.h>

/* Registry value types (winnt.h numbers, so recorded answers carry the real ones). */
#define HR_REG_NONE      0u
#define HR_REG_SZ        1u
#define HR_REG_EXPAND_SZ 2u
#define HR_REG_BINARY    3u
#define HR_REG_DWORD     4u
#define HR_REG_MULTI_SZ  7u

#define HR_WIN_MAX_PAGING_FILES 16 /* smss / the kernel accept no more */

/* Split string data (UTF-16LE bytes as the registry returns them) into UTF-8 strings.
 * REG_SZ / REG_EXPAND_SZ: one string (up to the first NUL). REG_MULTI_SZ: every non-empty
 * string up to the empty one that ends the list (or the end of the data). An odd final
 * byte is ignored. Calls `each` for every string; returns the number of strings, or
 * HR_EINVAL for a type that holds no strings. */
typedef void (*hr_reg_string_fn)(void *ctx, int index, const char *utf8);
int hr_reg_strings(const uint8_t *data, size_t len, uint32_t type, hr_reg_string_fn each, void *ctx);

/* Parse one PagingFiles string. Returns 0, or HR_EPARSE with a reason in err when smss
 * would reject it (no path, sizes that are not numbers). */
int hr_pagingfiles_parse_entry(const char *text, hr_paging_config_entry *e, hr_error *err);

/* Parse the whole value into cfg->entries / count / automatic / notes (cfg->present = 1).
 * Entries smss ignores are left out and said in cfg->notes. Returns 0, or HR_EINVAL when
 * the type holds no strings (err says which type). */
int hr_pagingfiles_parse(const uint8_t *data, size_t len, uint32_t type, hr_paging_config *cfg, hr_error *err);

/* ExistingPageFiles: NT paths ("\??\C:\pagefile.sys") into cfg->existing (DOS form). */
int hr_existing_pagefiles_parse(const uint8_t *data, size_t len, uint32_t type, hr_paging_config *cfg, hr_error *err);

/* "\??\C:\x" -> "C:\x"; other paths unchanged. Works in place. */
void hr_win_path_from_nt(char *path);

/* A paging file's path as shown to the user: made safe to print (hr_text_shown) with its
 * drive letter upper-case, as Explorer and the dialog write it ("c:\pagefile.sys", which the
 * registry often holds, is shown "C:\pagefile.sys"). The value itself is kept as Windows
 * wrote it: apply compares and writes it back. Returns dst. */
const char *hr_win_path_shown(const char *path, char *dst, size_t n);

#endif
