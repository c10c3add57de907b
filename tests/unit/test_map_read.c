/* hr_platform_map_read: a regular file's bytes in slices, from the stream's position; not a
 * regular file or empty: 0 (read it instead); a file that shrinks while it is read: -1 with
 * an error, not a crash (Linux: SIGBUS caught). Windows does not map: always 0. */
#include "test.h"

#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif

typedef struct got {
    unsigned char *data;
    size_t len, calls, max_slice;
    FILE *shrink; /* truncate this file to nothing at the first slice */
} got;

static void take(void *ctx, const unsigned char *p, size_t n)
{
    got *g = ctx;
    if (g->shrink && g->calls == 0) {
#ifndef _WIN32
        if (ftruncate(fileno(g->shrink), 0) != 0)
            abort();
#endif
    }
    g->calls++;
    if (n > g->max_slice)
        g->max_slice = n;
    memcpy(g->data + g->len, p, n); /* the shrunk file's pages fault here */
    g->len += n;
}

int main(void)
{
    const size_t size = 300000;
    unsigned char *want = malloc(size);
    got g = { .data = malloc(size) };
    CHECK(want && g.data);
    for (size_t i = 0; i < size; i++)
        want[i] = (unsigned char)(i * 131 + (i >> 9));
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK_EQ_U64(fwrite(want, 1, size, f), size);
    fflush(f);
    hr_error err = { 0 };
#ifdef _WIN32
    rewind(f);
    CHECK_EQ_I64(hr_platform_map_read(f, 65536, take, &g, &err), 0);
    CHECK_EQ_U64(g.calls, 0);
#else
    /* the whole file, in slices of at most the chunk */
    rewind(f);
    CHECK_EQ_I64(hr_platform_map_read(f, 65536, take, &g, &err), 1);
    CHECK_EQ_U64(g.len, size);
    CHECK(memcmp(g.data, want, size) == 0);
    CHECK_EQ_U64(g.max_slice, 65536);
    CHECK_EQ_U64(g.calls, (size + 65535) / 65536);

    /* from the stream's position (not on a page boundary), which is left as it was */
    CHECK(fseek(f, 5000, SEEK_SET) == 0);
    g.len = g.calls = 0;
    CHECK_EQ_I64(hr_platform_map_read(f, 4096, take, &g, &err), 1);
    CHECK_EQ_U64(g.len, size - 5000);
    CHECK(memcmp(g.data, want + 5000, size - 5000) == 0);
    CHECK_EQ_I64(ftell(f), 5000);

    /* at the end, and a pipe: nothing mapped */
    CHECK(fseek(f, 0, SEEK_END) == 0);
    g.len = g.calls = 0;
    CHECK_EQ_I64(hr_platform_map_read(f, 4096, take, &g, &err), 0);
    int fds[2];
    CHECK(pipe(fds) == 0);
    FILE *pf = fdopen(fds[0], "rb");
    CHECK(pf != NULL);
    CHECK_EQ_I64(hr_platform_map_read(pf, 4096, take, &g, &err), 0);
    CHECK_EQ_U64(g.calls, 0);
    fclose(pf);
    close(fds[1]);

    /* the file shrinks to nothing as the first slice is read: an error, the rest not read */
    rewind(f);
    g.len = g.calls = 0;
    g.shrink = f;
    CHECK_EQ_I64(hr_platform_map_read(f, 65536, take, &g, &err), -1);
    CHECK_EQ_U64(g.calls, 1);
    CHECK_EQ_U64(g.len, 0);
    CHECK_CONTAINS(err.msg, "shrank");
    /* and SIGBUS is the default again: a later read works as before */
    CHECK(fwrite(want, 1, size, f) == size);
    fflush(f);
    rewind(f);
    g.len = g.calls = 0;
    g.shrink = NULL;
    CHECK_EQ_I64(hr_platform_map_read(f, 65536, take, &g, &err), 1);
    CHECK_EQ_U64(g.len, size);
#endif
    fclose(f);
    free(want);
    free(g.data);
    return TEST_DONE();
}
