/* headroom — small pure helpers for line-oriented kernel text (procfs, sysfs and cgroup files). */
#ifndef HR_TEXT_H
#define HR_TEXT_H

#include "core/base/i18n.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Unknown and unlimited sizes: never a silent 0. */
#define HR_UNKNOWN     UINT64_MAX
#define HR_UNLIMITED   (UINT64_MAX - 1) /* cgroup "max", no limit set */
#define HR_UNKNOWN_I64 INT64_MIN

/* Iterate lines of buf[0..len): returns false at the end. (*line, *n) is the line without its
 * '\n' (a trailing '\r' is kept; callers that care strip it). */
bool hr_next_line(const char **cur, const char *end, const char **line, size_t *n);

/* Parse an unsigned decimal number at s[0..n) with optional surrounding blanks. Fails on
 * empty text, signs, junk and overflow. */
bool hr_parse_u64(const char *s, size_t n, uint64_t *out);
bool hr_parse_i64(const char *s, size_t n, int64_t *out);

/* A file that holds one number ("8589934592\n"), or "max" → HR_UNLIMITED (cgroup limits). */
bool hr_parse_limit(const char *s, size_t n, uint64_t *out);

/* Value of `key` in "key value" lines (memory.events, oom_control, vmstat) or "KEY=value"
 * lines (uevent): copies the value (trimmed) into out. */
bool hr_kv_find(const char *buf, size_t len, const char *key, char sep, char *out, size_t outn);
bool hr_kv_u64(const char *buf, size_t len, const char *key, char sep, uint64_t *out);

/* Trim blanks and newlines at both ends, in place on a C string. */
char *hr_trim(char *s);

/* Undo the kernel's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash) of
 * /proc/swaps and mountinfo paths; src[0..n) → dst (NUL-terminated, truncated to dstn). */
void hr_unescape_octal(const char *src, size_t n, char *dst, size_t dstn);

/* The bracketed choice in "lzo [lz4] zstd" (zram comp_algorithm); the whole text if none. */
void hr_bracketed_choice(const char *s, char *out, size_t outn);

/* Copy with truncation, always NUL-terminated (no strlcpy in C11). */
void hr_strlcpy(char *dst, const char *src, unsigned long size);

/* s as one word for a POSIX shell, into out: as it is when every byte is plainly safe
 * (letters, digits, / . _ - + , : @ % =), else in single quotes with each ' written '\''.
 * A command shown to be pasted must not split a path with a space in it. False (and out
 * "") when it does not fit in size. */
bool hr_shell_quote(const char *s, char *out, unsigned long size);

/* ASCII case-insensitive equality, and prefix ("NTFS" = "ntfs"; "nfs4" starts with "NFS"). */
bool hr_str_ieq(const char *a, const char *b);
/* Edits (insert, delete, substitute, swap two neighbours) between a and b, ASCII case
 * folded; any count above max (or a word longer than 32 bytes) is max + 1. */
unsigned hr_edit_distance(const char *a, const char *b, unsigned max);
bool hr_str_istarts(const char *s, const char *prefix);
/* ASCII case-insensitive substring: does hay contain needle ("Wan22" in "WanImageToVideo"...). */
bool hr_str_icontains(const char *hay, const char *needle);
/* A path's last part: after the last '/' or '\\', whichever OS wrote it (a Windows workflow
 * carries "SDXL\\x.safetensors" on Linux too). */
const char *hr_path_base(const char *path);

/* Windows paths: the drive letter of "d:\x" or "D:" in upper case, or 0 when there is none;
 * and whether two paths are on the same lettered drive. */
char hr_drive_letter(const char *path);
bool hr_same_drive(const char *a, const char *b);
/* Append item to the "; "-separated list in dst (size bytes); dropped when there is no room
 * for more than the separator, cut short when there is room for part of it. */
void hr_strlist_add(char *dst, unsigned long size, const char *item);
/* The same in a given language (its separator). */
void hr_strlist_add_in(char *dst, unsigned long size, const char *item, hr_lang lang);

/* Text another program chose (a server's prompt id, a node's class), made one harmless line
 * in place: C0 controls, DEL, C1 controls (U+0080..U+009F, CSI among them), the bidi
 * controls (U+200E/F, U+202A..U+202E, U+2066..U+2069, U+061C) and bytes that are not UTF-8
 * become '?', so that it can neither start a line of its own nor steer the terminal.
 * Returns how many were replaced. */
size_t hr_text_one_line(char *s);

/* A name the system gave (a swap file's or a cgroup's path, decoded from the kernel's \ooo
 * escapes) made safe to print, reversibly: C0 controls, DEL and bytes that are not UTF-8
 * become \ooo (the kernel's own spelling), C1 and bidi controls become \u{XXXX}; everything
 * else, backslashes and Chinese included, is copied. Writes at most n bytes to dst, always
 * terminated (cut at a whole character); returns dst. */
const char *hr_text_shown(const char *s, char *dst, size_t n);

/* The value of a hexadecimal digit (0-9, a-f, A-F), -1 for any other character (a char
 * that is negative included). */
int hr_hex_digit(int c);

#endif
