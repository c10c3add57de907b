/* headroom — Linux backend: read /proc and /sys through a root prefix, so tests replay
 * recorded trees (`--sysroot DIR`). Every read is bounded. */
#ifndef HR_LX_READ_H
#define HR_LX_READ_H

#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>

#define HR_LX_SMALL_FILE ((size_t)64 << 10) /* sysfs attributes, cgroup files */
#define HR_LX_BIG_FILE   ((size_t)4 << 20)  /* mountinfo on busy hosts, meminfo */

/* sysroot + path → out (sysroot "/" or NULL = the live machine). */
void hr_lx_path(const char *sysroot, const char *path, char *out, size_t outn);

/* Read a whole file into b (reset first), at most max bytes: larger is HR_ETOOBIG.
 * Errors name the path (as the user knows it, without the sysroot) and the reason. */
int hr_lx_read(const char *sysroot, const char *path, hr_buf *b, size_t max, hr_error *err);

/* Read a small file and trim it into out (attribute files). False if unreadable. */
bool hr_lx_read_str(const char *sysroot, const char *path, char *out, size_t outn);
bool hr_lx_read_u64(const char *sysroot, const char *path, unsigned long long *out);

bool hr_lx_exists(const char *sysroot, const char *path);

/* Resolve a path under the sysroot to its canonical sysroot-relative form ("/sys/devices/.."),
 * following every symlink in it, component by component; false when a part is missing. */
bool hr_lx_resolve(const char *sysroot, const char *path, char *out, size_t outn);

/* Read the small file dir/name of the live machine as it is (not trimmed: cgroup.procs keeps
 * its lines) into out, at most outn - 1 bytes. False if it cannot be read. */
bool hr_lx_read_in(const char *dir, const char *name, char *out, size_t outn);

/* Write all n bytes to fd, again after EINTR or a short write: 0, or -1 with errno. */
int hr_lx_write_all(int fd, const void *p, size_t n);

/* Is this the live machine (not a replayed tree)? */
bool hr_lx_live(const char *sysroot);

#endif
