/* headroom — Linux: a regular file read through a read-only mapping (platform.h,
 * hr_platform_map_read). A file that shrinks while it is mapped raises SIGBUS on the pages
 * past its new end: caught here for the length of the read and turned into an error. */
#include "platform/platform.h"
#include "core/base/i18n.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static sigjmp_buf map_jump;

static void on_sigbus(int sig)
{
    (void)sig;
    siglongjmp(map_jump, 1);
}

int hr_platform_map_read(FILE *f, size_t chunk, hr_map_fn fn, void *ctx, hr_error *err)
{
    int fd = fileno(f);
    struct stat st;
    if (fd < 0 || chunk == 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0 || st.st_size <= pos || (uint64_t)(st.st_size - pos) > SIZE_MAX / 2)
        return 0;
    /* from the page that holds pos */
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return 0;
    off_t base = pos - pos % page;
    size_t len = (size_t)(st.st_size - base);
    int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE; /* the page tables filled at once, not a fault per page */
#endif
    unsigned char *map = mmap(NULL, len, PROT_READ, flags, fd, base);
    if (map == MAP_FAILED)
        return 0;
    struct sigaction sa = { 0 }, old;
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &old) != 0) {
        munmap(map, len);
        return 0;
    }
    /* volatile: read again after a jump back here */
    volatile size_t done = (size_t)(pos - base);
    int jumped = sigsetjmp(map_jump, 1);
    if (!jumped) {
        while (done < len) {
            size_t n = len - done < chunk ? len - done : chunk;
            fn(ctx, map + done, n);
            done += n;
        }
    }
    sigaction(SIGBUS, &old, NULL);
    munmap(map, len);
    if (jumped) {
        hr_error_set(err, HR_EIO, HR_T("the file shrank while it was read"));
        return -1;
    }
    return 1;
}
