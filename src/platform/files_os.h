/* headroom — what each OS gives the shared bounded reads (platform/files.c): open a regular
 * file, read exactly n bytes at an offset, close. The head and tail reads, their bounds and
 * their messages are written once over these. Internal to src/platform. */
#ifndef HR_PLATFORM_FILES_OS_H
#define HR_PLATFORM_FILES_OS_H

#include "core/base/error.h"
#include "core/base/msg.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A file descriptor on Linux, a HANDLE on Windows. */
typedef uintptr_t hr_os_file;

/* A failure: why (may be NULL) keeps the message as data (fmt an English msgid, or "%s" of
 * words that are the same in every language, like strerror's in the C locale), err gets it in
 * the user's language. Returns code. */
int hr_os_file_fail(hr_error *err, hr_msg *why, int code, const char *fmt, ...) HR_PRINTF(4, 5);
/* The same for a message already made. */
int hr_os_file_failed(hr_error *err, hr_msg *why, int code, const hr_msg *m);

/* Open path to read; anything but a regular file (a FIFO, a device, a pipe, a console, a
 * folder) is refused before the first read. 0, or the error set in err and why. */
int hr_os_file_open(const char *path, hr_os_file *f, uint64_t *size, hr_error *err, hr_msg *why);
/* Read exactly n bytes at off into dst; a file that ends early is HR_EIO. */
int hr_os_file_read(hr_os_file f, const char *path, uint64_t off, char *dst, size_t n, hr_error *err, hr_msg *why);
void hr_os_file_close(hr_os_file f);
/* The open file as a stdio stream to read ("rb"), which then owns it; NULL (f closed) when
 * that fails. */
FILE *hr_os_file_stream(hr_os_file f);

#endif
