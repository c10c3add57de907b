/* headroom — fuzz replay driver for builds without libFuzzer (gcc, mingw under Wine).
 *
 * Runs a harness's LLVMFuzzerTestOneInput over every file of its corpus, then over a fixed
 * number of deterministic mutations of each (bit flips, truncations, byte runs, splices),
 * so the harness runs as an ordinary test and, under ASan/UBSan, as a sanitizer test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int run_file(const char *path, unsigned mutations, size_t *runs)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 1 << 20, n = 0;
    uint8_t *data = malloc(cap + 4096);
    if (!data) {
        fclose(f);
        return -1;
    }
    n = fread(data, 1, cap, f);
    fclose(f);
    /* Exact-size copy so ASan sees reads past the end. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, data, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    (*runs)++;
    for (unsigned m = 0; m < mutations; m++) {
        size_t len = n;
        uint8_t *buf = malloc(n + 4096);
        memcpy(buf, data, n);
        unsigned edits = 1 + (unsigned)(rng() % 8);
        for (unsigned e = 0; e < edits; e++) {
            switch (rng() % 6) {
            case 0: if (len) buf[rng() % len] ^= (uint8_t)(1u << (rng() % 8)); break;
            case 1: if (len) len = rng() % len; break;
            case 2: if (len) buf[rng() % len] = (uint8_t)rng(); break;
            case 3: { /* insert a run of one byte */
                size_t at = len ? rng() % len : 0, run = rng() % 64;
                if (len + run > n + 4096) break;
                memmove(buf + at + run, buf + at, len - at);
                memset(buf + at, (int)(rng() & 0xff), run);
                len += run;
                break;
            }
            case 4: { /* duplicate a slice */
                if (!len) break;
                size_t a = rng() % len, l = rng() % (len - a + 1);
                if (len + l > n + 4096) break;
                memmove(buf + len, buf + a, l);
                len += l;
                break;
            }
            default: if (len) buf[rng() % len] = "\0\n \t:=\"{}[]-9\xff"[rng() % 15]; break;
            }
        }
        uint8_t *ex = malloc(len ? len : 1);
        memcpy(ex, buf, len);
        LLVMFuzzerTestOneInput(ex, len);
        free(ex);
        free(buf);
        (*runs)++;
    }
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS]\n", argv[0]);
        return 2;
    }
    unsigned mutations = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200;
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "%s: cannot open corpus directory\n", argv[1]);
        return 2;
    }
    size_t runs = 0, files = 0;
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        if (run_file(path, mutations, &runs) < 0)
            return 1;
        files++;
    }
    closedir(d);
    if (files == 0) {
        fprintf(stderr, "%s: empty corpus\n", argv[1]);
        return 2;
    }
    printf("%zu corpus files, %zu inputs: 1 passed, 0 failed\n", files, runs);
    return 0;
}
