/* The status report (core/status/status.h) on recorded machines: the ceiling and its basis
 * computed once from the facts the tree or recording holds (X.ceiling), and every format
 * printing that one value rather than judging again. */
#include "test.h"

#include "core/base/size.h"
#include "core/model/win_model.h"
#include "core/status/status.h"
#include "core/status/status_render.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src_dir;

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Swap on disk, summed here from the areas (zram is compressed RAM, not a backstop). */
static uint64_t disk_swap(const hr_snapshot *s)
{
    uint64_t t = 0;
    for (int i = 0; i < s->paging_count; i++)
        if (s->paging[i].kind != HR_PAGING_ZRAM)
            t += s->paging[i].size_bytes;
    return t;
}

/* The report's ceiling and basis are those the facts give, and JSON, Prometheus and the text
 * all print the report's value: a second ceiling planted in the report is what they show. */
static void formats_print_the_report(const char *name, hr_status *st)
{
    char want[64];
    hr_buf out = { 0 };
    hr_render r;

    st->ceiling.bytes = 3 * ((uint64_t)1 << 30) + 12345; /* no machine's: only the report has it */
    hr_render_init(&r, HR_FORMAT_JSON, &out, false);
    hr_status_render(st, &r);
    CHECK_EQ_I64(hr_render_finish(&r), 0);
    snprintf(want, sizeof want, "\"real_ceiling_bytes\": %llu,", (unsigned long long)st->ceiling.bytes);
    CHECK_CONTAINS(out.data ? out.data : "", want);
    hr_buf_free(&out);

    hr_buf_init(&out, 0);
    hr_render_init(&r, HR_FORMAT_PROMETHEUS, &out, false);
    hr_status_render(st, &r);
    CHECK_EQ_I64(hr_render_finish(&r), 0);
    snprintf(want, sizeof want, "\nheadroom_ceiling_bytes %llu\n", (unsigned long long)st->ceiling.bytes);
    CHECK_CONTAINS(out.data ? out.data : "", want);
    hr_buf_free(&out);

    const hr_snapshot *s = st->snap;
    if (s->platform.os == HR_OS_LINUX &&
        (s->commit.overcommit_mode == HR_OVERCOMMIT_HEURISTIC || s->commit.overcommit_mode == HR_OVERCOMMIT_ALWAYS)) {
        char size[32];
        hr_size_format(st->ceiling.bytes, size, sizeof size);
        snprintf(want, sizeof want, "= %s;", size);
        hr_buf_init(&out, 0);
        hr_render_init(&r, HR_FORMAT_TEXT, &out, false);
        hr_status_render(st, &r);
        CHECK_EQ_I64(hr_render_finish(&r), 0);
        CHECK_CONTAINS(out.data ? out.data : "", want);
        /* The basis words the line: a cgroup cap says so. */
        CHECK(out.data && (strstr(out.data, "the cgroup limit (below RAM + disk swap)") != NULL) ==
                              (st->ceiling.basis == HR_CEILING_CGROUP));
        hr_buf_free(&out);
    }
    (void)name;
}

/* The ceiling a machine's facts give, worked out here from the snapshot's raw fields. */
static void check_machine(const char *name, const hr_snapshot *s, hr_ceiling_basis want_basis)
{
    hr_status st;
    hr_status_compute(s, &st);
    printf("%s: ceiling %llu, basis %d\n", name, (unsigned long long)st.ceiling.bytes, (int)st.ceiling.basis);
    CHECK(st.snap == s);
    CHECK_EQ_I64(st.ceiling.basis, want_basis);
    uint64_t machine = HR_UNKNOWN;
    switch (want_basis) {
    case HR_CEILING_COMMIT_LIMIT:
        CHECK(st.ceiling.enforced);
        machine = s->commit.limit_bytes;
        CHECK_EQ_U64(st.ceiling.bytes, machine);
        break;
    case HR_CEILING_RAM_SWAP:
        CHECK(!st.ceiling.enforced);
        machine = s->ram.total_bytes + disk_swap(s);
        CHECK_EQ_U64(st.ceiling.bytes, machine);
        break;
    case HR_CEILING_CGROUP: {
        CHECK(!st.ceiling.enforced);
        machine = s->ram.total_bytes + disk_swap(s);
        const hr_cgroup *g = &s->cgroup;
        /* memory.max plus the swap it may use (no swap limit: all of it), v1 memsw caps both */
        uint64_t sw = disk_swap(s);
        if (g->swap_max_bytes != HR_UNKNOWN && g->swap_max_bytes != HR_UNLIMITED)
            sw = min_u64(sw, g->swap_max_bytes);
        uint64_t cap = g->memory_max_bytes + sw;
        if (g->memsw_max_bytes != HR_UNKNOWN && g->memsw_max_bytes != HR_UNLIMITED)
            cap = min_u64(cap, g->memsw_max_bytes);
        CHECK(cap < machine);
        CHECK_EQ_U64(st.ceiling.bytes, cap);
        break;
    }
    default: CHECK(!"a basis this test knows"); break;
    }
    CHECK_EQ_U64(st.ceiling.machine_bytes, machine);
    CHECK_EQ_U64(st.disk_paging_bytes, disk_swap(s));
    if (s->commit.charge_bytes != HR_UNKNOWN && s->commit.limit_bytes)
        CHECK(st.commit_used_percent > 0 && st.commit_used_percent < 1000);
    formats_print_the_report(name, &st);
}

static hr_snapshot *windows_recording(const char *file)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/tests/fixtures/windows/%s", src_dir, file);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    size_t max = (size_t)4 << 20;
    char *buf = malloc(max);
    size_t len = buf ? fread(buf, 1, max - 1, f) : 0;
    fclose(f);
    hr_snapshot *s = malloc(sizeof *s);
    hr_error err = { 0 };
    int r = buf && s ? hr_win_replay(buf, len, s, &err) : HR_ENOMEM;
    free(buf);
    CHECK(r == 0);
    if (r != 0) {
        free(s);
        return NULL;
    }
    return s;
}

#ifndef _WIN32
static hr_snapshot *linux_tree(const char *name)
{
    char tree[1400];
    snprintf(tree, sizeof tree, "%s/tests/fixtures/linux/%s", src_dir, name);
    hr_probe_opts opts = { .sysroot = tree, .skip_procs = true };
    hr_snapshot *s = malloc(sizeof *s);
    hr_error err = { 0 };
    int r = s ? hr_platform_snapshot(&opts, s, &err) : HR_ENOMEM;
    CHECK(r == 0);
    if (r != 0) {
        free(s);
        return NULL;
    }
    return s;
}
#endif

int main(void)
{
    src_dir = getenv("HR_SOURCE_DIR");
    if (!src_dir) {
        fprintf(stderr, "HR_SOURCE_DIR is not set\n");
        return 1;
    }
    static const struct {
        const char *file;
        hr_ceiling_basis basis;
    } win[] = {
        { "desktop-64g-fixed-d.json", HR_CEILING_COMMIT_LIMIT },
        { "laptop-16g-auto-full-c.json", HR_CEILING_COMMIT_LIMIT },
    };
    for (size_t i = 0; i < sizeof win / sizeof win[0]; i++) {
        hr_snapshot *s = windows_recording(win[i].file);
        if (s)
            check_machine(win[i].file, s, win[i].basis);
        free(s);
    }
#ifndef _WIN32
    static const struct {
        const char *tree;
        hr_ceiling_basis basis;
    } lx[] = {
        { "desktop-hdd-swap-partition", HR_CEILING_RAM_SWAP }, /* mode 0: RAM + disk swap */
        { "zram-only", HR_CEILING_RAM_SWAP },                  /* zram counts for nothing */
        { "overcommit-never", HR_CEILING_COMMIT_LIMIT },       /* mode 2: the enforced limit */
        { "docker-cgroup2-noswap", HR_CEILING_CGROUP },        /* v2 memory.max, swap.max 0 */
        { "cgroup-v1-limit", HR_CEILING_CGROUP },              /* v1 memsw */
    };
    for (size_t i = 0; i < sizeof lx / sizeof lx[0]; i++) {
        hr_snapshot *s = linux_tree(lx[i].tree);
        if (s)
            check_machine(lx[i].tree, s, lx[i].basis);
        free(s);
    }
#endif
    return TEST_DONE();
}
