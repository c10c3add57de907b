/* Test helper: allocate and touch memory until the kernel stops us. Run inside a memory
 * cgroup with a small limit, the OOM killer ends it with SIGKILL (tests/diagnose/memcg.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long mib = argc > 1 ? strtol(argv[1], NULL, 10) : 512;
    for (long i = 0; i < mib; i++) {
        /* volatile: an optimiser may drop a malloc whose memory is never read, and with it
         * the charge this child exists to make (clang -O3 does) */
        char *volatile p = malloc(1 << 20);
        if (!p) {
            fprintf(stderr, "oom_child: malloc failed after %ld MiB\n", i);
            return 2;
        }
        memset(p, 0x5a, 1 << 20);   /* touch every page: only touched pages are charged */
    }
    fprintf(stderr, "oom_child: allocated %ld MiB and was not stopped\n", mib);
    return 1;
}
