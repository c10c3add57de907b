/* Phrases that are words match whole words only: PyTorch's OutOfMemoryError is a VRAM error,
 * and the Python MemoryError inside its name is not a second, host-RAM cause; nor is a longer
 * identifier that contains it (retry_on_MemoryError). Python's own MemoryError, alone or as a traceback's last line,
 * is one. Lines as the real logs print them (tests/diagnose/corpus). */
#include "test.h"

#include "core/diagnose/diag.h"

static hr_diag_ctx ctx;

/* Classify one log given as lines ("\n"-separated). */
static void run(const char *log)
{
    hr_error err = { 0 };
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    hr_diag_begin_input(&ctx, "t.log");
    uint64_t line = 1;
    const char *p = log;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n)
            hr_diag_feed(&ctx, p, n, line, 0);
        line++;
        p += n + (nl ? 1 : 0);
    }
    hr_diag_end_input(&ctx, "utf-8", strlen(log), line - 1, 0);
    hr_diag_finish(&ctx);
}

static bool found(hr_cause c)
{
    for (size_t i = 0; i < ctx.norder; i++)
        if (ctx.order[i]->cause == c)
            return true;
    return false;
}

int main(void)
{
    static const char *const gpu_only[] = {
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 0 has a total "
        "capacity of 11.72 GiB of which 301.44 MiB is free.",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
        "capacity of 6.00 GiB of which 0 bytes is free.",
        "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.22 GiB.",
        "torch.cuda.OutOfMemoryError",
    };
    for (size_t i = 0; i < sizeof gpu_only / sizeof gpu_only[0]; i++) {
        run(gpu_only[i]);
        CHECK_EQ_U64(hr_diag_cause(&ctx), HR_CAUSE_GPU_OOM);
        if (found(HR_CAUSE_HOST_OOM))
            fprintf(stderr, "a host-RAM cause in: %s\n", gpu_only[i]);
        CHECK(!found(HR_CAUSE_HOST_OOM));
        CHECK_EQ_U64(ctx.norder, 1);
    }
    /* Nor is a longer identifier: letters, digits and '_' continue a Python name, so a
     * setting or counter dumped to the log is not the exception. */
    static const char *const names[] = {
        "MemoryErrorHandler installed",
        "  retry_on_MemoryError: true",
        "stats: MemoryError_count=0 oom_retries=0",
        "class MyMemoryError(Exception)",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        run(names[i]);
        if (found(HR_CAUSE_HOST_OOM))
            fprintf(stderr, "a host-RAM cause in: %s\n", names[i]);
        CHECK(!found(HR_CAUSE_HOST_OOM));
    }

    /* Python's MemoryError itself: the host cause; high when it says how much it could not
     * get, low when bare (it cannot say what ran out). */
    static const struct {
        const char *log;
        hr_confidence conf;
    } host[] = {
        { "MemoryError: Unable to allocate 3.00 GiB for an array", HR_CONF_HIGH },
        { "MemoryError", HR_CONF_LOW },
        { "    raise MemoryError()\nMemoryError", HR_CONF_LOW },
    };
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) {
        run(host[i].log);
        CHECK_EQ_U64(hr_diag_cause(&ctx), HR_CAUSE_HOST_OOM);
        CHECK_EQ_U64(hr_diag_confidence(&ctx), host[i].conf);
    }
    hr_diag_free(&ctx);
    return TEST_DONE();
}
