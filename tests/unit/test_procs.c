/* The biggest memory users: /proc/<pid>/status parsing, folding a program's processes into
 * one line, and the Linux probe over a recorded /proc tree written here. */
#include "core/model/procs.h"
#include "core/base/size.h"
#include "test.h"

#ifdef _WIN32
#include "platform/win/probe_procs.h"
#else
#include "platform/linux/probe_procs.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

static const char chrome_status[] =
    "Name:\tchrome\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nPid:\t4242\n"
    "VmPeak:\t 1200000 kB\nVmRSS:\t  204800 kB\nRssAnon:\t  102400 kB\nRssFile:\t   90000 kB\n"
    "VmSwap:\t    1024 kB\nThreads:\t12\n";

static void test_parse(void)
{
    hr_proc_status st;
    hr_error err = { 0 };
    CHECK(hr_proc_status_parse(chrome_status, sizeof chrome_status - 1, &st, &err) == 0);
    CHECK_STR(st.name, "chrome");
    CHECK_EQ_U64(st.rss_bytes, 204800 * HR_KIB);
    CHECK_EQ_U64(st.anon_bytes, 102400 * HR_KIB);
    CHECK_EQ_U64(st.swap_bytes, 1024 * HR_KIB);

    const char kthread[] = "Name:\tkworker/0:1\nState:\tI (idle)\nPid:\t12\n";
    CHECK(hr_proc_status_parse(kthread, sizeof kthread - 1, &st, &err) == HR_ENOENT);
    const char noname[] = "VmRSS:\t1 kB\n";
    CHECK(hr_proc_status_parse(noname, sizeof noname - 1, &st, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "Name");
    const char bad[] = "Name:\tx\nVmRSS:\tlots kB\n";
    CHECK(hr_proc_status_parse(bad, sizeof bad - 1, &st, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "VmRSS");
    const char huge[] = "Name:\tx\nVmRSS:\t99999999999999999999 kB\n";
    CHECK(hr_proc_status_parse(huge, sizeof huge - 1, &st, &err) == HR_ERANGE);
    /* Control bytes in a name never reach a terminal. */
    const char esc[] = "Name:\tev\x1b[31mil\nVmRSS:\t4 kB\n";
    CHECK(hr_proc_status_parse(esc, sizeof esc - 1, &st, &err) == 0);
    CHECK_STR(st.name, "ev?[31mil");
    /* Nor do C1 controls (CSI as UTF-8: C2 9B) or a bidi override (U+202E). */
    const char c1[] = "Name:\tev\xc2\x9b"
                      "31mil\xe2\x80\xae"
                      "gpj\nVmRSS:\t4 kB\n";
    CHECK(hr_proc_status_parse(c1, sizeof c1 - 1, &st, &err) == 0);
    CHECK_STR(st.name, "ev?31mil?gpj");
    /* Old kernels (no RssAnon): 0, not a failure. */
    const char old[] = "Name:\told\nVmRSS:\t8 kB";
    CHECK(hr_proc_status_parse(old, sizeof old - 1, &st, &err) == 0);
    CHECK_EQ_U64(st.anon_bytes, 0);
}

static void test_table(void)
{
    hr_proc_table t;
    hr_proc_table_init(&t);
    for (int i = 0; i < 20; i++)
        CHECK(hr_proc_table_add(&t, "chrome", 100 + i, 100 * HR_MIB, 50 * HR_MIB) == 0);
    CHECK(hr_proc_table_add(&t, "Discord", 7, 300 * HR_MIB, 400 * HR_MIB) == 0);
    char name[32];
    for (int i = 0; i < 30; i++) {
        snprintf(name, sizeof name, "small%d", i);
        CHECK(hr_proc_table_add(&t, name, 1000 + i, HR_MIB, (uint64_t)i * HR_KIB) == 0);
    }
    hr_procs out;
    memset(&out, 0, sizeof out);
    hr_proc_table_top(&t, &out);
    CHECK_EQ_I64(out.count, HR_MAX_PROCS);
    CHECK_STR(out.proc[0].name, "chrome");
    CHECK_EQ_I64(out.proc[0].processes, 20);
    CHECK_EQ_U64(out.proc[0].commit_bytes, 1000 * HR_MIB);
    CHECK_EQ_U64(out.proc[0].resident_bytes, 2000 * HR_MIB);
    CHECK_EQ_I64(out.proc[0].pid, 100);
    CHECK_STR(out.proc[1].name, "Discord");
    CHECK_STR(out.proc[2].name, "small29");
    CHECK(!hr_procs_has_kind(&out, "python"));
    /* a python too small to be listed still runs (maybe ComfyUI, its models on the GPU) */
    CHECK(hr_proc_table_add(&t, "python3", 4242, HR_MIB, 0) == 0);
    hr_proc_table_top(&t, &out);
    CHECK_EQ_I64(out.count, HR_MAX_PROCS);
    for (int i = 0; i < out.count; i++)
        CHECK(strcmp(out.proc[i].name, "python3") != 0);
    CHECK(out.python_unlisted && hr_procs_has_kind(&out, "python"));
    CHECK(hr_procs_has_kind(&out, "chat")); /* Discord is listed */
    hr_proc_table_free(&t);

    CHECK_STR(hr_proc_kind("chrome.exe"), "browser");
    CHECK_STR(hr_proc_kind("firefox"), "browser");
    CHECK_STR(hr_proc_kind("WeChat.exe"), "chat");
    CHECK_STR(hr_proc_kind("Discord"), "chat");
    CHECK_STR(hr_proc_kind("python.exe"), "python");
    /* any interpreter named by its version, and PyTorch's main thread as Linux names the process */
    CHECK_STR(hr_proc_kind("python3.9"), "python");
    CHECK_STR(hr_proc_kind("python3.14"), "python");
    CHECK_STR(hr_proc_kind("python3.12.exe"), "python");
    CHECK_STR(hr_proc_kind("pt_main_thread"), "python");
    CHECK(hr_proc_kind("python3.") == NULL);
    CHECK(hr_proc_kind("python3.1x") == NULL);
    CHECK(hr_proc_kind("explorer.exe") == NULL);
    CHECK(hr_proc_kind("chromedriver") == NULL);
}

#ifndef _WIN32
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_linux_probe(void)
{
    char root[] = "/tmp/hr-procs-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char p[512];
    snprintf(p, sizeof p, "%s/proc", root);
    mkdir(p, 0755);
    const char *pids[] = { "1", "4242", "4243", "77", "self" };
    const char *texts[] = { "Name:\tsystemd\nVmRSS:\t 12000 kB\nRssAnon:\t4000 kB\nVmSwap:\t0 kB\n", chrome_status,
                            chrome_status, "Name:\tkthreadd\nPid:\t77\n", "Name:\tnot-a-pid\nVmRSS:\t1 kB\n" };
    for (int i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/proc/%s", root, pids[i]);
        mkdir(p, 0755);
        snprintf(p, sizeof p, "%s/proc/%s/status", root, pids[i]);
        put(p, texts[i]);
    }
    snprintf(p, sizeof p, "%s/proc/9999", root); /* exited: a directory without status */
    mkdir(p, 0755);
    hr_procs out;
    memset(&out, 0, sizeof out);
    CHECK(hr_linux_probe_procs(root, &out) == 0);
    CHECK(out.s.ok);
    CHECK_EQ_I64(out.count, 2);
    CHECK_STR(out.proc[0].name, "chrome");
    CHECK_EQ_I64(out.proc[0].processes, 2);
    CHECK_EQ_U64(out.proc[0].commit_bytes, 2 * (102400 + 1024) * HR_KIB);
    CHECK_STR(out.proc[1].name, "systemd");

    /* A malformed file is counted and named; the rest still lists. */
    snprintf(p, sizeof p, "%s/proc/1/status", root);
    put(p, "Name:\tsystemd\nVmRSS:\tgarbage\n");
    memset(&out, 0, sizeof out);
    CHECK(hr_linux_probe_procs(root, &out) == 0);
    CHECK(!out.s.ok);
    CHECK_CONTAINS(hr_words_in(&out.s.why, HR_LANG_EN), "/proc/1/status");
    CHECK_EQ_I64(out.count, 1);

    /* No /proc at all. */
    memset(&out, 0, sizeof out);
    CHECK(hr_linux_probe_procs("/nonexistent-hr-root", &out) < 0);
    CHECK_CONTAINS(hr_words_in(&out.s.why, HR_LANG_EN), "/nonexistent-hr-root/proc");

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);

    /* This machine: at least this test process is there. */
    memset(&out, 0, sizeof out);
    CHECK(hr_linux_probe_procs("/", &out) == 0);
    CHECK(out.count >= 1);
}
#endif

#ifdef _WIN32
/* The real Toolhelp32 + GetProcessMemoryInfo path (under Wine in CI): this test itself runs. */
static void test_win_probe(void)
{
    hr_procs out;
    memset(&out, 0, sizeof out);
    CHECK(hr_win_probe_procs(&out) == 0);
    CHECK(out.count >= 1);
    bool self = false;
    for (int i = 0; i < out.count; i++) {
        CHECK(out.proc[i].name[0] != '\0');
        CHECK(out.proc[i].processes >= 1);
        if (i)
            CHECK(out.proc[i - 1].commit_bytes >= out.proc[i].commit_bytes);
        self |= strcmp(out.proc[i].name, "test_procs.exe") == 0;
    }
    if (!self)
        printf("note: test_procs.exe not among the %d biggest (fine on a busy machine)\n", out.count);
}
#endif

int main(void)
{
    test_parse();
    test_table();
#ifdef _WIN32
    test_win_probe();
#else
    test_linux_probe();
#endif
    return TEST_DONE();
}
