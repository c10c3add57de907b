/* The diagnosis classifier, its judges, the kernel record parsers and durations. */
#include "test.h"

#include "core/diagnose/diag.h"
#include "core/base/i18n.h"
#include "core/diagnose/diag_render.h"
#include "core/base/duration.h"
#include "core/diagnose/kmsg.h"
#include "core/base/phrase_match.h"
#include "core/base/textdec.h"

#include <stdlib.h>
#ifndef _WIN32
#include "platform/platform.h"

#include <sys/stat.h>
#include <unistd.h>
#endif

static hr_diag_ctx ctx;

/* A kept message in a language (two buffers: a CHECK may hold two at once). */
static const char *in(const hr_msg *m, hr_lang lang)
{
    static char buf[2][HR_DIAG_REASON_MAX];
    static int k;
    k ^= 1;
    hr_msg_format(m, lang, buf[k], sizeof buf[k]);
    return buf[k];
}

/* Classify a log given as lines ("\n"-separated, each one segment). */
static hr_cause run(const char *log)
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
    return hr_diag_cause(&ctx);
}

static uint64_t first_line(void)
{
    if (!ctx.norder)
        return 0;
    const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
    return hr_diag_evidence_list(ctx.order[0], ev) ? ev[0]->line : 0;
}

static void acm_tests(void)
{
    const char *const phrases[] = { "he", "she", "his", "hers", "out of memory" };
    hr_acm m;
    hr_error err = { 0 };
    CHECK(hr_acm_build(&m, phrases, 5, &err) == 0);
    hr_acm_hit hits[8];
    unsigned st = 0;
    size_t n = hr_acm_scan(&m, &st, "USHERS", 6, hits, 8);
    CHECK_EQ_U64(n, 3); /* she, he, hers */
    st = 0;
    n = hr_acm_scan(&m, &st, "CUDA Out Of Mem", 15, hits, 8);
    CHECK_EQ_U64(n, 0);
    n = hr_acm_scan(&m, &st, "ory.", 4, hits, 8); /* continued from the last state */
    CHECK_EQ_U64(n, 1);
    CHECK_EQ_U64(hits[0].phrase, 4);
    CHECK_EQ_U64(hits[0].end, 3);
    hr_acm_free(&m);
    const char *const dup[] = { "abc", "ABC" };
    CHECK(hr_acm_build(&m, dup, 2, &err) == HR_EINVAL);
    const char *const empty[] = { "" };
    CHECK(hr_acm_build(&m, empty, 1, &err) == HR_EINVAL);
}

static unsigned char fold_ascii(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool ci_eq(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fold_ascii((unsigned char)a[i]) != fold_ascii((unsigned char)b[i]))
            return false;
    return true;
}

/* The prefiltered scan against brute force: every occurrence of every phrase, in the
 * automaton's order (by end, then longest first), the same when the text is cut into pieces
 * with the state carried, and the end state the longest suffix that begins a phrase. */
static void acm_prefilter_case(const char *const *ph, size_t np, unsigned seed)
{
    hr_acm m;
    hr_error err = { 0 };
    CHECK(hr_acm_build(&m, ph, np, &err) == 0);
    static const char alpha[] = "abcdefhimorstuyABCDEHIMORS :/]\xe6\x98\xbe";
    srand(seed);
    for (int round = 0; round < 3000; round++) {
        char text[200];
        size_t n = (size_t)(rand() % 120);
        for (size_t i = 0; i < n;) {
            if (rand() % 4 == 0) { /* a phrase, maybe cut short, maybe upper case */
                const char *q = ph[rand() % (int)np];
                size_t k = strlen(q);
                if (rand() % 3 == 0)
                    k = 1 + (size_t)rand() % k;
                for (size_t t = 0; t < k && i < n; t++, i++)
                    text[i] = rand() % 2 ? q[t] : (char)(q[t] >= 'a' && q[t] <= 'z' ? q[t] - 32 : q[t]);
            } else {
                text[i++] = alpha[rand() % (int)(sizeof alpha - 1)];
            }
        }
        /* brute force */
        hr_acm_hit want[4096];
        size_t nwant = 0;
        for (size_t e = 1; e <= n; e++)
            for (size_t len = e; len >= 1; len--)
                for (size_t k = 0; k < np; k++)
                    if (strlen(ph[k]) == len && ci_eq(text + e - len, ph[k], len))
                        want[nwant++] = (hr_acm_hit){ .phrase = (uint32_t)k, .end = e };
        size_t deepest = 0;
        for (size_t len = 1; len <= n; len++)
            for (size_t k = 0; k < np; k++)
                if (strlen(ph[k]) >= len && ci_eq(text + n - len, ph[k], len))
                    deepest = len;
        /* in pieces */
        unsigned st = 0;
        size_t at = 0, got = 0;
        bool same = true;
        while (at < n || at == 0) {
            size_t piece = n - at < 1 ? 0 : 1 + (size_t)rand() % (n - at);
            hr_acm_hit hits[4096];
            size_t h = hr_acm_scan(&m, &st, text + at, piece, hits, 4096);
            for (size_t i = 0; i < h; i++, got++)
                same &= got < nwant && hits[i].phrase == want[got].phrase && hits[i].end + at == want[got].end;
            at += piece;
            if (piece == 0)
                break;
        }
        same &= got == nwant && m.depth[st] == deepest;
        CHECK(same);
        if (!same)
            break;
    }
    hr_acm_free(&m);
}

static void acm_prefilter_tests(void)
{
    const char *const ph[] = { "he",
                               "she",
                               "his",
                               "hers",
                               "oom",
                               "out of memory",
                               "it/s]",
                               "s/it]",
                               "error:",
                               "rr",
                               "\xe6\x98\xbe\xe5\xad\x98",
                               "ee",
                               "eee",
                               "mem",
                               "memory error" };
    acm_prefilter_case(ph, sizeof ph / sizeof ph[0], 1);
    /* a one-byte phrase turns the prefilter off: the same answers, byte by byte */
    const char *const one[] = { "e", "he", "oom", "/", "ror:" };
    acm_prefilter_case(one, sizeof one / sizeof one[0], 2);
}

static void cause_tests(void)
{
    /* every PyTorch phrasing of a GPU OOM */
    CHECK(run("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 4.00 GiB "
              "total capacity)") == HR_CAUSE_GPU_OOM);
    CHECK(run("torch.cuda.OutOfMemoryError: CUDA out of memory.") == HR_CAUSE_GPU_OOM);
    CHECK(run("torch.OutOfMemoryError: HIP out of memory. Tried") == HR_CAUSE_GPU_OOM);
    CHECK(run("RuntimeError: CUDA error: out of memory\nCompile with `TORCH_USE_CUDA_DSA` to "
              "enable device-side assertions.") == HR_CAUSE_GPU_OOM);
    CHECK(run("RuntimeError: MPS backend out of memory (MPS allocated: 1 GB)") == HR_CAUSE_GPU_OOM);
    CHECK(run("some future wording: torch.OutOfMemoryError: GPU exhausted") == HR_CAUSE_GPU_OOM);
    CHECK(run("cudaErrorMemoryAllocation") == HR_CAUSE_GPU_OOM);
    CHECK(run("the gpu is out of memory") == HR_CAUSE_GPU_OOM); /* generic + device word */
    /* host */
    CHECK(run("OSError: [WinError 1455] whatever the language says") == HR_CAUSE_HOST_OOM);
    CHECK(run("(os error 1455)") == HR_CAUSE_HOST_OOM);
    CHECK(run("error 14550 is not it") == HR_CAUSE_UNKNOWN);
    CHECK(run("MemoryError") == HR_CAUSE_HOST_OOM);
    CHECK(run("torch.cuda.OutOfMemoryError") == HR_CAUSE_GPU_OOM); /* not MemoryError */
    CHECK(run("what():  std::bad_alloc") == HR_CAUSE_HOST_OOM);
    CHECK(run("页面文件太小，无法完成操作。") == HR_CAUSE_HOST_OOM);
    CHECK(run("out of memory") == HR_CAUSE_HOST_OOM);
    CHECK_EQ_U64(hr_diag_confidence(&ctx), HR_CONF_LOW);
    /* killed */
    CHECK(run("Killed") == HR_CAUSE_KILLED);
    CHECK(run("Killed: 9") == HR_CAUSE_KILLED);
    CHECK(run("[1]+  Killed                  python main.py") == HR_CAUSE_KILLED);
    CHECK(run("run.sh: line 3: 4242 Killed    python main.py") == HR_CAUSE_KILLED);
    CHECK(run("The feature was killed in v2") == HR_CAUSE_UNKNOWN);
    CHECK(run("Killed the old cache and restarted") == HR_CAUSE_UNKNOWN);
    CHECK(run("container exited with code 137") == HR_CAUSE_KILLED);
    /* not 137: another non-zero status, a weak not-memory ending */
    CHECK(run("exit code 1370") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW);
    CHECK(run("returncode=-9") == HR_CAUSE_KILLED);
    CHECK(run("exited with code -1073741819") == HR_CAUSE_KILLED);
    CHECK(run("exit code: 0xC000012D") == HR_CAUSE_HOST_OOM);
    CHECK(run("exit code 3221225725") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("Out of memory: Killed process 4242 (python3) total-vm:1kB") == HR_CAUSE_KILLED);
    CHECK_EQ_I64(ctx.order[0]->victim_pid, 4242);
    CHECK_STR(ctx.order[0]->victim, "python3");
    CHECK(run("I killed process improvement") == HR_CAUSE_UNKNOWN);
    /* press any key: only after a silent stop */
    CHECK(run("got prompt\n 10%|#\nPress any key to continue . . .") == HR_CAUSE_KILLED);
    /* a fatal import error is a failure, not memory (and not a silent stop) */
    CHECK(run("ModuleNotFoundError: No module named 'x'\nPress any key to continue") == HR_CAUSE_NOT_MEMORY);
    /* not memory, even with memory in the words */
    CHECK(run("CUDA error: an illegal memory access was encountered") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("RuntimeError: CUDA error: device-side assert triggered") == HR_CAUSE_NOT_MEMORY);
    /* low virtual memory */
    CHECK(run("Your system is low on virtual memory.") == HR_CAUSE_LOW_VM);
    /* the first failure wins, the rest are listed */
    CHECK(run("Segmentation fault\nCUDA out of memory") == HR_CAUSE_NOT_MEMORY);
    CHECK_EQ_U64(ctx.norder, 2);
    CHECK(ctx.order[1]->cause == HR_CAUSE_GPU_OOM);
    /* ...but a weak early hint does not beat a clear later failure */
    CHECK(run("out of memory\nMemoryError") == HR_CAUSE_HOST_OOM);
    CHECK(run("maybe out of memory?\nCUDA error: an illegal memory access") == HR_CAUSE_NOT_MEMORY);
}

static void fold_tests(void)
{
    /* a phrase cut by an 80-column fold is found, reported at the line where it starts */
    CHECK(run("0123456789012345678901234567890123456789012345678901234567890 CUDA out of mem\n"
              "ory. Tried to allocate 2.00 GiB") == HR_CAUSE_GPU_OOM);
    CHECK_EQ_U64(first_line(), 1);
    CHECK_CONTAINS(ctx.order[0]->evidence[0].text, "CUDA out of mem");
    /* short lines are never joined */
    CHECK(run("CUDA out of mem\nory") == HR_CAUSE_UNKNOWN);
}

static void evidence_tests(void)
{
    /* first four and the latest four lines are kept, the count is exact */
    char log[4096] = "";
    for (int i = 1; i <= 20; i++)
        snprintf(log + strlen(log), sizeof log - strlen(log), "MemoryError %d\n", i);
    CHECK(run(log) == HR_CAUSE_HOST_OOM);
    const hr_diag_finding *f = ctx.order[0];
    CHECK_EQ_U64(f->count, 20);
    const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
    size_t n = hr_diag_evidence_list(f, ev);
    CHECK_EQ_U64(n, 8);
    CHECK_EQ_U64(ev[0]->line, 1);
    CHECK_EQ_U64(ev[3]->line, 4);
    CHECK_EQ_U64(ev[4]->line, 17);
    CHECK_EQ_U64(ev[7]->line, 20);
    /* a very long line is clipped around the match */
    static char big[5000];
    memset(big, 'a', sizeof big - 1);
    memcpy(big + 3000, " MemoryError ", 13);
    CHECK(run(big) == HR_CAUSE_HOST_OOM);
    CHECK(strlen(ctx.order[0]->evidence[0].text) < HR_DIAG_TEXT_MAX);
    CHECK_CONTAINS(ctx.order[0]->evidence[0].text, "MemoryError");
}

static void record_tests(void)
{
    hr_error err = { 0 };
    hr_diag_free(&ctx);
    hr_diag_init(&ctx, &err);
    const char rec[] = "3,912,81234118650,-;Memory cgroup out of memory: Killed process 912 "
                       "(python) total-vm:1kB\n SUBSYSTEM=x\n";
    hr_klog_record r;
    CHECK(hr_kmsg_parse(rec, sizeof rec - 1, &r) == 0);
    CHECK_EQ_U64(r.seq, 912);
    CHECK_EQ_U64(r.usec, 81234118650ull);
    CHECK_EQ_U64(r.len, strlen("Memory cgroup out of memory: Killed process 912 (python) total-vm:1kB"));
    hr_diag_feed_record(&ctx, "/dev/kmsg", 1700000000, r.text, r.len);
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_KILLED);
    CHECK_CONTAINS(ctx.order[0]->meaning, "memory cgroup");
    CHECK_STR(ctx.order[0]->evidence[0].source, "/dev/kmsg");
    CHECK(hr_kmsg_parse("garbage", 7, &r) == HR_EPARSE);
    CHECK(hr_kmsg_parse("1,2,3", 5, &r) == HR_EPARSE);
    CHECK(hr_dmesg_parse("[ 5678.901234] text", 19, &r) == 0);
    CHECK_EQ_U64(r.usec, 5678901234ull);
    CHECK(r.len == 4 && memcmp(r.text, "text", 4) == 0);
    CHECK(hr_dmesg_parse("<6>[    1.5] x", 14, &r) == 0);
    CHECK_EQ_U64(r.usec, 1500000);
    CHECK(hr_dmesg_parse("[abc] x", 7, &r) == HR_EPARSE);
    CHECK(hr_journal_parse("1714560000.123456 host kernel: hi", 33, &r) == 0);
    CHECK_EQ_I64(r.unix_time, 1714560000);
    CHECK(hr_journal_parse("Mar 02 host", 11, &r) == HR_EPARSE);

    /* Windows events */
    hr_diag_free(&ctx);
    hr_diag_init(&ctx, &err);
    const char *app[] = { "python.exe", "3.12.8150.1013", "6751c6f7",         "c10.dll", "0.0.0.0",
                          "00000000",   "c0000005",       "0000000000012345", "2f44" };
    hr_winevent ev = { "Application", "Application Error", 1000, 1700000000, 9, app };
    CHECK(hr_diag_feed_winevent(&ctx, &ev));
    const char *other[] = { "game.exe", "1", "2", "x.dll", "1", "2", "c0000005" };
    hr_winevent ev2 = { "Application", "Application Error", 1000, 0, 7, other };
    CHECK(!hr_diag_feed_winevent(&ctx, &ev2)); /* not a generation process */
    const char *v2004[34] = { "34359738368", "34300000000", "0", "0", "17179869184", "0", "0", "211" };
    for (int i = 8; i < 34; i++)
        v2004[i] = "";
    v2004[20] = "python.exe";
    v2004[21] = "11234";
    v2004[23] = "21474836480";
    v2004[27] = "msedge.exe";
    v2004[28] = "8812";
    v2004[30] = "1342177280";
    /* read after the crash, but Windows warned before it: time decides */
    hr_winevent lowvm = { "System", "Microsoft-Windows-Resource-Exhaustion-Detector", 2004, 1699999000, 34, v2004 };
    CHECK(hr_diag_feed_winevent(&ctx, &lowvm));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_LOW_VM);
    CHECK(ctx.findings[HR_CAUSE_KILLED].present);
    CHECK_CONTAINS(ctx.findings[HR_CAUSE_LOW_VM].evidence[0].text, "python.exe (11234) 20.0 GiB");
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_json_writer w;
    hr_json_init(&w, &out, false);
    hr_diag_json(&ctx, &w);
    CHECK(hr_json_finish(&w) == 0);
    CHECK_CONTAINS(hr_buf_str(&out), "\"source\":\"event log System 2004\"");
    CHECK_CONTAINS(hr_buf_str(&out), "\"time\":\"2023-11-14T21:56:40Z\"");
    hr_buf_free(&out);
}

static void duration_tests(void)
{
    int64_t s = 0;
    hr_error err = { 0 };
    CHECK(hr_duration_parse("90", &s, &err) == 0 && s == 90);
    CHECK(hr_duration_parse("30m", &s, &err) == 0 && s == 1800);
    CHECK(hr_duration_parse("1h30m", &s, &err) == 0 && s == 5400);
    CHECK(hr_duration_parse("7d", &s, &err) == 0 && s == 604800);
    CHECK(hr_duration_parse("2w", &s, &err) == 0 && s == 1209600);
    CHECK(hr_duration_parse("5x", &s, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "5x");
    CHECK(hr_duration_parse("", &s, &err) == HR_EPARSE);
    CHECK(hr_duration_parse("0", &s, &err) == HR_EPARSE);
    CHECK(hr_duration_parse("99999999999d", &s, &err) == HR_ERANGE);
    char t[40];
    hr_diag_format_time(0, t, sizeof t);
    CHECK_STR(t, "1970-01-01T00:00:00Z");
    hr_diag_format_time(951782400, t, sizeof t); /* a leap day */
    CHECK_STR(t, "2000-02-29T00:00:00Z");
}

/* Precision: evidence must be about this run (issue: unrelated kill, recovered warning,
 * silent stop). */
static void precision_tests(void)
{
    hr_error err = { 0 };
    /* a recovered VAE shortage is a GPU-tier warning, not a cause */
    CHECK(run("got prompt\nWarning: Ran out of memory when regular VAE decoding, retrying with "
              "tiled VAE decoding.\nPrompt executed in 25.00 seconds") == HR_CAUSE_UNKNOWN);
    CHECK_EQ_U64(ctx.warnings[0].count, 1);
    CHECK_EQ_U64(ctx.warnings[0].line, 2);
    CHECK_EQ_U64(ctx.warnings[1].count, 0);
    /* a notice that only mentions memory is nothing */
    CHECK(run("got prompt\n[SomeNode] Cleared CUDA cache to avoid out of memory errors\n"
              "Prompt executed in 3.10 seconds") == HR_CAUSE_UNKNOWN);
    CHECK_EQ_U64(ctx.warnings[0].count + ctx.warnings[1].count, 0);
    /* mlock's "Cannot allocate memory" is a limit on locked pages, not RAM running out:
     * forgotten when the run goes on, a weak not-memory ending when it is the last word */
    CHECK(run("warning: failed to mlock 1048576-byte buffer (after previously locking 0 bytes): "
              "Cannot allocate memory\nPrompt executed in 3.10 seconds") == HR_CAUSE_UNKNOWN);
    CHECK(run("warning: failed to mlock 1048576-byte buffer (after previously locking 0 bytes): "
              "Cannot allocate memory\nTry increasing RLIMIT_MLOCK") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW);
    CHECK_EQ_U64(first_line(), 1);
    /* a silent stop mid-sampling: killed, medium, the last busy line as evidence */
    CHECK(run("got prompt\nRequested to load SDXL\n 45%|####5     | 9/20 [00:10<00:12,  1.1s/it]") == HR_CAUSE_KILLED);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_MEDIUM);
    CHECK_EQ_U64(first_line(), 3);
    /* ... not when it finished, nor when an error ended it */
    CHECK(run("got prompt\n100%|##########| 20/20 [00:17<00:00,  1.16it/s]\nPrompt executed in 19.20 "
              "seconds") == HR_CAUSE_UNKNOWN);
    CHECK(run("got prompt\nTraceback (most recent call last):\n  File \"x.py\", line 1\n"
              "ValueError: bad value") == HR_CAUSE_NOT_MEMORY);
    CHECK_EQ_U64(first_line(), 4);

    /* kill records: only the run's process and time count */
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    hr_diag_begin_input(&ctx, "t.log");
    const char *l1 = "[2026-03-14 20:41:07.118] got prompt";
    const char *l2 = "[2026-03-14 20:41:30.000] Prompt executed in 25.00 seconds";
    hr_diag_feed(&ctx, l1, strlen(l1), 1, 0);
    hr_diag_feed(&ctx, l2, strlen(l2), 2, 0);
    hr_diag_input_text(&ctx, 0, false, 0);
    hr_diag_end_input(&ctx, "utf-8", 100, 2, 0);
    hr_diag_set_window(&ctx);
    /* 2026-03-14 20:41:07 UTC = 1773520867 */
    CHECK_EQ_I64(ctx.window_start, 1773520867 - 60);
    CHECK_EQ_I64(ctx.window_end, 1773520890 + 600);
    const char *firefox = "Out of memory: Killed process 5150 (firefox) total-vm:9000000kB";
    hr_diag_feed_record(&ctx, "/dev/kmsg", 1773520880, firefox, strlen(firefox));
    const char *late = "Out of memory: Killed process 6000 (python3) total-vm:9000000kB";
    hr_diag_feed_record(&ctx, "/dev/kmsg", 1773520890 + 7200, late, strlen(late));
    const char *oomd = "systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/"
                       "app.slice/app-firefox-1234.scope due to memory pressure for /user.slice";
    hr_diag_feed_record(&ctx, "journal", 1773520885, oomd, strlen(oomd));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_UNKNOWN);
    CHECK_EQ_U64(ctx.ignored_total, 3);
    CHECK_EQ_U64(ctx.nignored, 3);
    /* one reason, shown in either language whatever the language was when it was judged */
    CHECK_STR(in(&ctx.window_why, HR_LANG_EN), "from the first time in t.log to 10 min after t.log ends");
    CHECK_STR(in(&ctx.window_why, HR_LANG_ZH), "从 t.log 中的第一个时间到 t.log 结束后 10 分钟");
    CHECK_STR(in(&ctx.ignored[1].why, HR_LANG_EN), "after the run's log was last written");
    hr_lang_set(HR_LANG_ZH);
    hr_diag_set_window(&ctx);
    CHECK_STR(in(&ctx.window_why, HR_LANG_EN), "from the first time in t.log to 10 min after t.log ends");
    hr_diag_feed_record(&ctx, "/dev/kmsg", 1773520890 + 9000, late, strlen(late));
    hr_lang_set(HR_LANG_EN);
    CHECK_EQ_U64(ctx.nignored, 3); /* deduplicated by the reason */
    CHECK_STR(in(&ctx.ignored[1].why, HR_LANG_EN), "after the run's log was last written");

    /* the run's own process in the window: used, and it raises a silent stop to high */
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    hr_diag_begin_input(&ctx, "t.log");
    const char *b1 = " 45%|####5     | 9/20 [00:10<00:12,  1.1s/it]";
    hr_diag_feed(&ctx, b1, strlen(b1), 1, HR_SEG_CR);
    hr_diag_input_text(&ctx, 0, false, 1773520890);
    hr_diag_end_input(&ctx, "utf-8", 100, 1, 0);
    hr_diag_set_window(&ctx);
    const char *mine = "Out of memory: Killed process 4242 (python3) total-vm:9000000kB";
    hr_diag_feed_record(&ctx, "/dev/kmsg", 1773520893, mine, strlen(mine));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_KILLED);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_HIGH);
    CHECK_EQ_U64(ctx.order[0]->count, 2);
    CHECK_EQ_I64(ctx.order[0]->victim_pid, 4242);

    /* --pid: another python's kill is set aside */
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    ctx.pid = 777;
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, mine, strlen(mine));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_UNKNOWN);
    CHECK_STR(in(&ctx.ignored[0].why, HR_LANG_EN), "pid 4242 is not --pid 777");
    CHECK(hr_diag_subject_is_run(&ctx, "python3", 777) == 1);
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    ctx.pid = 777;
    hr_lang_set(HR_LANG_ZH);
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, mine, strlen(mine));
    hr_lang_set(HR_LANG_EN);
    CHECK_STR(in(&ctx.ignored[0].why, HR_LANG_EN), "pid 4242 is not --pid 777");
    CHECK_STR(in(&ctx.ignored[0].why, HR_LANG_ZH), "pid 4242 不是 --pid 777");

    /* --pid is the launcher, the kernel killed the python it started: the oom-kill record
     * puts the victim in --pid's cgroup, so it is the run's tree (medium, and why) */
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    ctx.pid = 777;
    snprintf(ctx.pid_cgroup, sizeof ctx.pid_cgroup,
             "/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-9.scope");
    const char *tree = "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,"
                       "mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice/"
                       "user@1000.service/app.slice/vte-spawn-9.scope,task=python3,pid=4242,"
                       "uid=1000";
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, tree, strlen(tree));
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, mine, strlen(mine));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_KILLED);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_MEDIUM);
    {
        const hr_diag_evidence *ev[HR_DIAG_EVIDENCE_MAX];
        CHECK(hr_diag_evidence_list(ctx.order[0], ev) == 1);
        CHECK_STR(in(&ev[0]->why, HR_LANG_EN), "pid 4242 is in --pid 777's cgroup vte-spawn-9.scope");
    }
    CHECK_STR(in(&ctx.ignored[0].why, HR_LANG_EN), "pid 4242 is not --pid 777"); /* the line without a cgroup */
    /* another cgroup (a browser's scope): set aside as before */
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    ctx.pid = 777;
    snprintf(ctx.pid_cgroup, sizeof ctx.pid_cgroup, "/user.slice/app-firefox-1.scope");
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, tree, strlen(tree));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_UNKNOWN);
    ctx.pid = -1;
    CHECK(hr_diag_subject_is_run(&ctx, "pt_main_thread", -1) == 1);
    CHECK(hr_diag_subject_is_run(&ctx, "chrome", -1) == -1);
    CHECK(hr_diag_subject_is_run(&ctx, "/user.slice/vte-spawn-1.scope", -1) == 0);
}

/* Word boundaries: a phrase inside a longer word is not that phrase. */
/* The terminal-event finder: the last failure-shaped line no phrase explains, judged when
 * the input ends; and the look-alikes judged by what their own text says. */
static void event_tests(void)
{
    /* an exception line after frames ends the log: not memory, medium, that line */
    CHECK(run("  File \"x.py\", line 3, in f\n    g()\nValueError: bad architecture 'qwen2vl'") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_MEDIUM);
    CHECK_EQ_U64(first_line(), 3);
    /* the same exception with no frames before it: only a hint */
    CHECK(run("got prompt\nValueError: bad architecture") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW);
    /* ... and nothing at all when the run went on after it */
    CHECK(run("ValueError: bad architecture\ngot prompt\nPrompt executed in 3.10 seconds") == HR_CAUSE_UNKNOWN);
    /* an error line that says the process was killed */
    CHECK(run("level=ERROR msg=\"error loading llama server\" error=\"llama runner process has "
              "terminated: exit status 2\"") == HR_CAUSE_NOT_MEMORY);
    /* a crash reporter's header: the line under it says what failed */
    CHECK(run("### Reason ###\nSomething the reporter says\nmore") == HR_CAUSE_NOT_MEMORY);
    CHECK_EQ_U64(first_line(), 2);
    /* a stack that ends the log, under no header: a weak not-memory hint at its first frame */
    CHECK(run("loading\n0x00007FF8 python310.dll + 0x1 byte(s)\n0x00007FF9 python310.dll") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW);
    CHECK_EQ_U64(first_line(), 2);
    /* a memory failure earlier keeps the cause: the crash after it is its consequence */
    CHECK(run("terminate called after throwing an instance of 'std::bad_alloc'\n"
              "  what():  std::bad_alloc\nAborted (core dumped)") == HR_CAUSE_HOST_OOM);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW); /* bare: it cannot say what ran out */
    CHECK_EQ_U64(ctx.norder, 1);
    CHECK(run("MemoryError: Unable to allocate 3.00 GiB for an array") == HR_CAUSE_HOST_OOM);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_HIGH);
    /* a GPU OOM whose own figures show room: the program held no more than it asked */
    CHECK(run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has "
              "a total capacity of 23.99 GiB of which 15.11 GiB is free. Of the allocated memory "
              "0 bytes is allocated by PyTorch") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_MEDIUM);
    /* ... but not when it held gigabytes: then "free" is the usual fragmentation story */
    CHECK(run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.35 GiB. GPU 0 has "
              "a total capacity of 31.86 GiB of which 13.40 GiB is free. Of the allocated memory "
              "17.84 GiB is allocated by PyTorch") == HR_CAUSE_GPU_OOM);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_HIGH);
    /* XLA's allocator ran out on the GPU; TensorFlow's "not a failure" is only a warning */
    CHECK(run("W bfc_allocator.cc:501] Allocator (GPU_0_bfc) ran out of memory trying to "
              "allocate 34.10MiB") == HR_CAUSE_GPU_OOM);
    CHECK(run("W bfc_allocator.cc:246] Allocator (GPU_0_bfc) ran out of memory trying to allocate "
              "1.02GiB with freed_by_count=0. The caller indicates that this is not a failure") == HR_CAUSE_UNKNOWN);
    CHECK_EQ_U64(ctx.warnings[0].count, 1);
    /* the kernel's page allocation failure before the OOM killer */
    CHECK(run("kswapd0: page allocation failure: order:0, mode:0x2284020(GFP_ATOMIC)") == HR_CAUSE_KILLED);
    /* a graphics driver's module in a German crash report, before its exception code */
    CHECK(run("Name des fehlerhaften Moduls: nvwgf2umx.dll, Version: 31.0.15.3623\n"
              "Ausnahmecode: 0xc0000005") == HR_CAUSE_NOT_MEMORY);
    CHECK_EQ_U64(ctx.norder, 2);
    CHECK(ctx.order[1]->cause == HR_CAUSE_KILLED);
    /* a driver module is known by its vendor's family, not by a list of files: Intel's
     * ig4dev32 in a Russian report; another DLL in the same place is no driver crash */
    CHECK(run("Имя сбойного модуля: ig4dev32.dll, версия: 8.14.10.1930\n"
              "Код исключения: 0xc0000005") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("Имя сбойного модуля: ucrtbase.dll, версия: 10.0.14393.2247\n"
              "Код исключения: 0xc0000005") == HR_CAUSE_KILLED);
    CHECK(run("Fault Module Name:\tamdxx64.dll") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("Faulting module path: C:\\Windows\\System32\\DriverStore\\igxelpicd64.DLL") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("0x00007FF8 nvwgf2umx.dll+0x1a2b3c") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("Sig[3].Value=nvoglv64.dll") == HR_CAUSE_NOT_MEMORY);
    /* a driver DLL named outside a crash report (a device banner) is no crash */
    CHECK(run("Using device: cuda:0 NVIDIA GeForce RTX 3060 (driver nvcuda.dll 560.94)") == HR_CAUSE_UNKNOWN);
    CHECK(run("nvdaHelperRemote.dll") == HR_CAUSE_UNKNOWN);
    CHECK(run("loaded nvrtc64_120_0.dll") == HR_CAUSE_UNKNOWN);
    CHECK(run("Faulting module name: ig9icd64.dll") == HR_CAUSE_NOT_MEMORY);
    CHECK(run("Faulting module name: ignite.dll") == HR_CAUSE_UNKNOWN);
    /* a program's own page-file warning */
    CHECK(run("Warning: your page file is too small (4,0 GB); increase the page file to 32 GB") == HR_CAUSE_LOW_VM);
    /* the page file named with a word of shortage, in any language and number format */
    CHECK(run("Warnung: Auslagerungsdatei (1,5 GB) zu klein, bitte auf 32 GB erhöhen") == HR_CAUSE_LOW_VM);
    CHECK(run("Pagefile below recommended! Consider increasing to 20000MB.") == HR_CAUSE_LOW_VM);
    CHECK(run("pagefile: C:\\pagefile.sys 16384 MB") == HR_CAUSE_UNKNOWN);
    CHECK(run("the elbow of the page file curve") == HR_CAUSE_UNKNOWN);
    /* a page file reported, not blamed: "below" a figure, an increase that happened */
    CHECK(run("Swap file usage below 10%, all good") == HR_CAUSE_UNKNOWN);
    CHECK(run("virtual memory in use: 12.1 GB (increase of 0.2 GB)") == HR_CAUSE_UNKNOWN);
    CHECK(run("page file increased to 32 GB at 10:02") == HR_CAUSE_UNKNOWN);
    CHECK(run("Page file size is below the required 16 GB") == HR_CAUSE_LOW_VM);
    /* the OS's own 1455 message stays the commit limit */
    CHECK(run("OSError: The paging file is too small for this operation to complete.") == HR_CAUSE_HOST_OOM);
    /* a GPU that will not initialise, blamed by the program on its page file: the bare
     * OOM before it is the symptom; a specific CUDA OOM is not */
    CHECK(run("device 4: stream create failed: -2 (out of memory)\n"
              "device 4: init OOM on Windows is usually an undersized pagefile, not VRAM") == HR_CAUSE_LOW_VM);
    CHECK(run("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
              "hint: increase your pagefile") == HR_CAUSE_GPU_OOM);
    /* ggml asserting the pointer an allocation returned */
    CHECK(run("GGML_ASSERT: llama.cpp:453: data") == HR_CAUSE_HOST_OOM);
    CHECK(run("GGML_ASSERT: ggml.c:1234: n_dims <= 4") == HR_CAUSE_NOT_MEMORY);
}

static void boundary_tests(void)
{
    CHECK(run("the standard transfer") == HR_CAUSE_UNKNOWN); /* "tdr" nowhere whole */
    CHECK(run("xtdr yTDR tdrz") == HR_CAUSE_UNKNOWN);
    CHECK(run("BadAllocation on devices") == HR_CAUSE_UNKNOWN);
    CHECK(run("OSError: [WinError 1455] x") == HR_CAUSE_HOST_OOM); /* allowed inside */
    CHECK(run("exit code 0xC0000005") == HR_CAUSE_KILLED);
    CHECK(run("Exception code: 0xc000012d") == HR_CAUSE_HOST_OOM); /* 0x is a boundary */
    CHECK(run("abc000012d") == HR_CAUSE_UNKNOWN);
}

/* Windows: event 1023, and the advice for each OS. */
static void windows_tests(void)
{
    hr_error err = { 0 };
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    const char *v1023[] = { "Application: python.exe\nFramework Version: v4.0.30319\nDescription: "
                            "The process was terminated due to an internal error in the .NET "
                            "Runtime at IP 7FF8 (7FF8) with exit code 80131506." };
    hr_winevent ev = { "Application", ".NET Runtime", 1023, 1700000000, 1, v1023 };
    /* the value names python.exe inside a longer text: found by its name */
    CHECK(hr_diag_feed_winevent(&ctx, &ev));
    const char *vother[] = { "Application: notepad.exe\nDescription: internal error" };
    hr_winevent ev2 = { "Application", ".NET Runtime", 1023, 1700000000, 1, vother };
    CHECK(!hr_diag_feed_winevent(&ctx, &ev2));
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_KILLED);

    /* no cgroup or systemd advice on Windows; the manual path when the log was not read */
    ctx.windows = true;
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_KILLED), "cgroup") == NULL);
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_KILLED), "systemd") == NULL);
    ctx.system_checked = true;
    hr_diag_note_source(&ctx, "event log", false, -1, "event log unavailable");
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_UNKNOWN), "Event Viewer") != NULL);
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_UNKNOWN), "Get-WinEvent") != NULL);
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_UNKNOWN), "--no-system") == NULL);
    ctx.windows = false;
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_KILLED), "cgroup") != NULL);
    ctx.system_checked = false;
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_UNKNOWN), "--no-system") != NULL);
}

/* Any byte of a CJK character (UTF-8 lead bytes 0xE3..0xE9) or a full-width punctuation. */
static bool has_cjk(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0xE3 && (unsigned char)*s <= 0xEF)
            return true;
    return false;
}

/* One diagnosis three ways: its text in Chinese (the language set when called), its JSON
 * while the language is still Chinese, then its text in English (the language is left so). */
static void render_zh_en_json(const hr_diag_ctx *c, hr_buf *zh, hr_buf *en, hr_buf *json)
{
    hr_buf_init(zh, 0);
    hr_buf_init(en, 0);
    hr_buf_init(json, 0);
    CHECK(hr_diag_text(c, zh) == 0);
    hr_json_writer jw;
    hr_json_init(&jw, json, true);
    hr_diag_json(c, &jw);
    CHECK(hr_json_finish(&jw) == 0);
    hr_lang_set(HR_LANG_EN);
    CHECK(hr_diag_text(c, en) == 0);
}

/* One diagnosis, judged while the user's language is Chinese, rendered twice: the text in
 * the language it is rendered in, the JSON in English whatever the language is. */
static void render_both_tests(void)
{
    hr_error err = { 0 };
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    hr_lang_set(HR_LANG_ZH);
    hr_diag_begin_input(&ctx, "t.log");
    const char *l1 = "[2026-03-14 20:41:07.118] got prompt";
    hr_diag_feed(&ctx, l1, strlen(l1), 1, 0);
    hr_diag_input_text(&ctx, 0, false, 0);
    hr_diag_end_input(&ctx, "utf-8", 40, 1, 0);
    hr_diag_set_window(&ctx);
    ctx.system_checked = true;
    ctx.pid = 777;
    snprintf(ctx.pid_cgroup, sizeof ctx.pid_cgroup, "/user.slice/app.slice/vte-spawn-9.scope");
    const char *tree = "oom-kill:constraint=CONSTRAINT_NONE,global_oom,task_memcg=/user.slice/app.slice/"
                       "vte-spawn-9.scope,task=python3,pid=4242,uid=1000";
    const char *other = "Out of memory: Killed process 5150 (firefox) total-vm:9000000kB";
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, tree, strlen(tree));
    hr_diag_feed_record(&ctx, "/dev/kmsg", 0, other, strlen(other));
    hr_diag_note_source(&ctx, HR_N("kernel log"), true, 2, HR_N("%s: %lld records, %lld in the last %lld s"),
                        "/dev/kmsg", 2LL, 2LL, 600LL);
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_KILLED);

    hr_buf zh, en, json;
    render_zh_en_json(&ctx, &zh, &en, &json);
    const char *z = hr_buf_str(&zh), *e = hr_buf_str(&en), *j = hr_buf_str(&json);
    CHECK_CONTAINS(z, "（采用：pid 4242 位于 --pid 777 的 cgroup vte-spawn-9.scope 中）");
    CHECK_CONTAINS(z, "已忽略：pid 5150 不是 --pid 777");
    CHECK_CONTAINS(z, "（从 t.log 中的第一个时间到 t.log 结束后 10 分钟）");
    CHECK_CONTAINS(e, "(used: pid 4242 is in --pid 777's cgroup vte-spawn-9.scope)");
    CHECK_CONTAINS(e, "ignored: pid 5150 is not --pid 777");
    CHECK_CONTAINS(e, "(from the first time in t.log to 10 min after t.log ends)");
    CHECK_CONTAINS(j, "\"why\": \"pid 4242 is in --pid 777's cgroup vte-spawn-9.scope\"");
    CHECK_CONTAINS(j, "\"why\": \"pid 5150 is not --pid 777\"");
    CHECK_CONTAINS(j, "\"why\": \"from the first time in t.log to 10 min after t.log ends\"");
    CHECK_CONTAINS(z, "  内核日志: /dev/kmsg：2 条记录，其中 2 条在最近 600 秒内\n");
    CHECK_CONTAINS(e, "  kernel log: /dev/kmsg: 2 records, 2 in the last 600 s\n");
    CHECK_CONTAINS(j, "\"detail\": \"/dev/kmsg: 2 records, 2 in the last 600 s\"");
    CHECK_CONTAINS(j, "\"name\": \"kernel log\"");
    CHECK(!has_cjk(j));
    CHECK(!has_cjk(e));
    hr_buf_free(&zh);
    hr_buf_free(&en);
    hr_buf_free(&json);
}

/* Records headroom describes in words (a Windows event, the kernel's oom_kill counter, a
 * set-aside event), judged while the user's language is Chinese: the text shows them in the
 * language it is rendered in, the JSON in English whatever the language is. */
static void render_described_tests(void)
{
    hr_error err = { 0 };
    hr_diag_free(&ctx);
    CHECK(hr_diag_init(&ctx, &err) == 0);
    hr_lang_set(HR_LANG_ZH);
    ctx.system_checked = true;
    ctx.pid = 777;
    const char *app[] = { "python.exe", "3.12.8150.1013", "6751c6f7",         "c10.dll", "0.0.0.0",
                          "00000000",   "c0000005",       "0000000000012345", "2f44" };
    hr_winevent crash = { "Application", "Application Error", 1000, 1700000000, 9, app };
    CHECK(hr_diag_feed_winevent(&ctx, &crash));
    const char *v2004[34] = { "34359738368", "34300000000" };
    for (int i = 2; i < 34; i++)
        v2004[i] = "";
    v2004[20] = "python.exe";
    v2004[21] = "11234";
    v2004[23] = "21474836480";
    hr_winevent lowvm = { "System", "Microsoft-Windows-Resource-Exhaustion-Detector", 2004, 1699999000, 34, v2004 };
    CHECK(hr_diag_feed_winevent(&ctx, &lowvm));
    /* another process's kill, in an event's text: set aside with its described source */
    const char *popup[] = { "Out of memory: Killed process 5150 (firefox) total-vm:9000000kB" };
    hr_winevent other = { "System", "Application Popup", 26, 0, 1, popup };
    hr_diag_feed_winevent(&ctx, &other);
#ifndef _WIN32
    /* the counter, as the Linux collector reads it from a machine whose kernel log it could
     * not read */
    char root[] = "/tmp/hr-diag-speak-XXXXXX", p[512];
    CHECK(mkdtemp(root) != NULL);
    snprintf(p, sizeof p, "%s/proc", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/proc/vmstat", root);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("pgfault 12\noom_kill 3\n", f);
        fclose(f);
    }
    hr_probe_opts po = { .sysroot = root };
    (void)hr_platform_oom_evidence(&po, 600, &ctx, &err);
    remove(p);
    snprintf(p, sizeof p, "%s/proc", root);
    rmdir(p);
    rmdir(root);
#endif
    hr_diag_finish(&ctx);
    CHECK(hr_diag_cause(&ctx) == HR_CAUSE_LOW_VM);

    hr_buf zh, en, json;
    render_zh_en_json(&ctx, &zh, &en, &json);
    const char *z = hr_buf_str(&zh), *e = hr_buf_str(&en), *j = hr_buf_str(&json);
    CHECK_CONTAINS(z, "[事件日志 System 2004 2023-11-14T21:56:40Z] Windows 诊断出虚拟内存不足：提交 31.9 GiB，上限 "
                      "32.0 GiB；占用最多： python.exe (11234) 20.0 GiB\n");
    CHECK_CONTAINS(z, "[事件日志 Application 1000 2023-11-14T22:13:20Z] Application Error 1000：python.exe 在 c10.dll "
                      "中崩溃，异常代码 0xc0000005\n");
    CHECK_CONTAINS(z, "  [事件日志 System 26] Out of memory: Killed process 5150 (firefox)");
    CHECK_CONTAINS(e, "[event log System 2004 2023-11-14T21:56:40Z] Windows diagnosed low virtual memory: commit "
                      "31.9 GiB of limit 32.0 GiB; top: python.exe (11234) 20.0 GiB\n");
    CHECK_CONTAINS(e, "[event log Application 1000 2023-11-14T22:13:20Z] Application Error 1000: python.exe crashed "
                      "in c10.dll, exception code 0xc0000005\n");
    CHECK_CONTAINS(e, "  [event log System 26] Out of memory: Killed process 5150 (firefox)");
    CHECK_CONTAINS(j, "\"source\": \"event log System 2004\"");
    CHECK_CONTAINS(j, "\"text\": \"Windows diagnosed low virtual memory: commit 31.9 GiB of limit 32.0 GiB; top: "
                      "python.exe (11234) 20.0 GiB\"");
    CHECK_CONTAINS(j, "\"text\": \"Application Error 1000: python.exe crashed in c10.dll, exception code "
                      "0xc0000005\"");
    CHECK_CONTAINS(j, "\"source\": \"event log System 26\"");
#ifndef _WIN32
    CHECK_CONTAINS(
        z, "[/proc/vmstat] oom_kill 3：开机以来内核的 OOM killer 已结束进程 3 次（记有进程名的内核日志无法读取）\n");
    CHECK_CONTAINS(e, "[/proc/vmstat] oom_kill 3: the kernel's OOM killer has ended processes 3 times since boot (the "
                      "kernel log, which names them, was not readable)\n");
    CHECK_CONTAINS(j, "\"text\": \"oom_kill 3: the kernel's OOM killer has ended processes 3 times since boot (the "
                      "kernel log, which names them, was not readable)\"");
#endif
    CHECK(!has_cjk(j));
    CHECK(!has_cjk(e));
    hr_buf_free(&zh);
    hr_buf_free(&en);
    hr_buf_free(&json);
}

/* The machine a ComfyUI log describes, and the command that sizes for it. The start is
 * ComfyUI-Manager #1035's log (2024-09-05: an RTX 3050 Ti laptop, Windows), then the Windows
 * commit failure its users meet. */
static void log_machine_tests(void)
{
    char words[400], cmd[320], flags[200];
    CHECK(run("** ComfyUI startup time: 2024-09-05 19:40:50.098429\n"
              "** Platform: Windows\n"
              "Total VRAM 4096 MB, total RAM 32439 MB\n"
              "pytorch version: 2.2.2+cu118\n"
              "Set vram state to: NORMAL_VRAM\n"
              "Device: cuda:0 NVIDIA GeForce RTX 3050 Ti Laptop GPU : cudaMallocAsync\n"
              "### ComfyUI Revision: 2648 [c7427375] | Released on '2024-09-04'\n"
              "got prompt\n"
              "RuntimeError: The paging file is too small for this operation to complete. (os error 1455)\n") ==
          HR_CAUSE_HOST_OOM);
    const hr_diag_log_machine *m = &ctx.log_machine;
    CHECK(m->ram_bytes == (uint64_t)32439 << 20 && m->vram_bytes == (uint64_t)4096 << 20);
    CHECK(m->input == 0 && m->line == 3);
    CHECK_STR(m->pytorch, "2.2.2+cu118");
    CHECK_STR(m->vram_state, "NORMAL_VRAM");
    CHECK_STR(m->device, "cuda:0 NVIDIA GeForce RTX 3050 Ti Laptop GPU");
    CHECK_STR(m->comfyui_date, "2024-09-04");
    CHECK(!m->comfyui_version[0]);
    hr_lang_set(HR_LANG_EN);
    hr_diag_machine_words(&ctx, words, sizeof words);
    CHECK_STR(words, "Windows, 31.7 GB RAM, 4 GB VRAM (cuda:0 NVIDIA GeForce RTX 3050 Ti Laptop GPU), NORMAL_VRAM, "
                     "pytorch 2.2.2+cu118, ComfyUI of 2024-09-04");
    /* RAM and the paging file: plan; the date alone is not a flag (estimate refuses it alone) */
    hr_diag_machine_command(&ctx, cmd, sizeof cmd);
    CHECK_STR(cmd, "headroom plan --workflow WORKFLOW.json --os windows --ram 32439M --vram 4096M --gpu nvidia");

    /* a ComfyUI log file's time prefix; the version; the GPU's OOM: estimate */
    CHECK(run("[2025-06-01 10:00:00.001] Total VRAM 24564 MB, total RAM 65298 MB\n"
              "[2025-06-01 10:00:00.002] Device: cuda:0 AMD Radeon RX 7900 XTX : native\n"
              "[2025-06-01 10:00:00.003] ComfyUI version: 0.3.40\n"
              "2025-06-01T10:00:01.000000 - ### ComfyUI Revision: 3800 [0a1b2c3d] | Released on '2025-05-30'\n"
              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
              "capacity of 23.99 GiB of which 0 bytes is free.\n") == HR_CAUSE_GPU_OOM);
    CHECK_STR(m->comfyui_version, "0.3.40");
    CHECK_STR(hr_diag_log_machine_vendor(m), "amd");
    hr_diag_machine_command(&ctx, cmd, sizeof cmd);
    CHECK_STR(cmd, "headroom estimate WORKFLOW.json --ram 65298M --vram 24564M --gpu amd --comfyui-version 0.3.40 "
                   "--comfyui-date 2025-05-30");

    /* not memory: the machine is said, no command */
    CHECK(run("Total VRAM 8192 MB, total RAM 16384 MB\n"
              "RuntimeError: CUDA error: an illegal memory access was encountered\n") == HR_CAUSE_NOT_MEMORY);
    hr_diag_machine_command(&ctx, cmd, sizeof cmd);
    CHECK(!cmd[0]);
    hr_diag_machine_words(&ctx, words, sizeof words);
    CHECK_STR(words, "16 GB RAM, 8 GB VRAM");

    /* taken whole or not at all: too many digits, a name with a control byte, a version that is
     * not three numbers, a date that is not one, a line too long to be ComfyUI's */
    CHECK(run("Total VRAM 4096 MB, total RAM 1234567890 MB\n"
              "Device: cuda:0 NVIDIA\x01 GeForce : native\n"
              "ComfyUI version: 0.3\n"
              "ComfyUI version: 1.2.3.4\n"
              "### ComfyUI Revision: 1 [x] | Released on '2024-9-04'\n"
              "Set vram state to: normal_vram\n"
              "Killed\n") == HR_CAUSE_KILLED);
    CHECK(!m->ram_bytes && !m->vram_bytes && !m->device[0] && !m->comfyui_version[0] && !m->comfyui_date[0] &&
          !m->vram_state[0] && !hr_diag_log_machine_known(m));
    hr_diag_machine_words(&ctx, words, sizeof words);
    hr_diag_machine_command(&ctx, cmd, sizeof cmd);
    CHECK(!words[0] && !cmd[0]);
    /* not memory on weak evidence (a stack trace, no error named): the advice does not rule
     * memory out; on a named error it does */
    CHECK(run("Exception in thread Thread-18 (prompt_worker):\n"
              "Traceback (most recent call last):\n"
              "  File \"D:\\AI\\ComfyUI\\execution.py\", line 327, in execute\n") == HR_CAUSE_NOT_MEMORY);
    CHECK(hr_diag_confidence(&ctx) == HR_CONF_LOW);
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_NOT_MEMORY), "The evidence is weak") != NULL);
    CHECK(run("RuntimeError: CUDA error: an illegal memory access was encountered\n") == HR_CAUSE_NOT_MEMORY);
    CHECK(strstr(hr_diag_fix(&ctx, HR_CAUSE_NOT_MEMORY), "will not help") != NULL);
    /* the flags never run past their buffer: a buffer too small gives none */
    hr_diag_log_machine ml;
    hr_diag_log_machine_init(&ml);
    hr_diag_log_machine_line(&ml, 0, 1, "Total VRAM 4096 MB, total RAM 32439 MB", 38);
    hr_diag_log_machine_flags(&ml, "linux", flags, 20);
    CHECK(!flags[0]);
    hr_diag_log_machine_flags(&ml, "linux", flags, sizeof flags);
    CHECK_STR(flags, "--os linux --ram 32439M --vram 4096M");
}

int main(void)
{
    acm_tests();
    acm_prefilter_tests();
    cause_tests();
    fold_tests();
    evidence_tests();
    record_tests();
    duration_tests();
    precision_tests();
    boundary_tests();
    event_tests();
    windows_tests();
    render_both_tests();
    render_described_tests();
    log_machine_tests();
    hr_diag_free(&ctx);
    return TEST_DONE();
}
