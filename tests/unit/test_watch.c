/* watch's tick on sample series: rates from counters, the slope and time to the limit, each
 * warning rule on its series and quiet on the others, re-arming, peaks, and the recording's
 * lines parsed back as JSON. */
#include "core/base/i18n.h"
#include "core/base/json_parse.h"
#include "core/base/size.h"
#include "core/watch/verdict.h"
#include "core/watch/watch.h"
#include "test.h"

#include <stdlib.h>

#define MB ((int64_t)HR_MIB)
#define GB ((int64_t)HR_GIB)

static int fired[HR_WRULE_COUNT];
static int64_t fired_t[HR_WRULE_COUNT];

static size_t feed(hr_watch *w, hr_wsample *s)
{
    hr_warning out[HR_WATCH_MAX_WARNINGS];
    size_t n = hr_watch_tick(w, s, out);
    for (size_t i = 0; i < n; i++) {
        if (fired[out[i].rule]++ == 0)
            fired_t[out[i].rule] = out[i].t_ms;
        CHECK(hr_msg_is_set(&out[i].msg));
    }
    return n;
}

static void reset_fired(void)
{
    memset(fired, 0, sizeof fired);
    memset(fired_t, 0, sizeof fired_t);
}

/* A quiet desktop: 16 GB RAM, 40 % used, flat, Linux heuristic overcommit with Committed_AS
 * above CommitLimit (normal there): nothing fires. */
static void test_idle(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    for (int i = 0; i < 120; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = 1000 + i * 1000;
        s.time_ms = 1764702000000 + i * 1000;
        s.ram_total = 16 * GB;
        s.ram_used = 6 * GB + (i % 3) * MB;
        s.swap_total = 8 * GB;
        s.swap_used = 0;
        s.commit = 30 * GB;
        s.commit_limit = 16 * GB;
        s.commit_enforced = false;
        s.pages_in_total = 100;
        s.pages_out_total = 200;
        s.disk_busy_ms_total = 5000 + i * 10;
        snprintf(s.disk, sizeof s.disk, "nvme0n1");
        s.psi_full_avg10 = 0.0;
        feed(&w, &s);
        if (i > 0) {
            CHECK(s.pages_in_ps == 0.0);
            CHECK(s.disk_busy_pct > 0.9 && s.disk_busy_pct < 1.1);
        }
    }
    for (int r = 0; r < HR_WRULE_COUNT; r++)
        CHECK_EQ_I64(fired[r], 0);
    CHECK_EQ_U64(w.warnings, 0);
    CHECK_EQ_I64(w.first_warning_t, HR_W_UNKNOWN);
    CHECK_EQ_I64(w.peaks.ram_used, 6 * GB + 2 * MB);
    CHECK_STR(w.limit_name, "RAM + swap");
}

/* An idle desktop whose RAM creeps up by a few MB a second (caches, a browser tab) with 20 GB
 * free: the time to the limit is over twenty minutes and a tenth of the limit is used, so the
 * panel names no "limit in N s" and no warning fires; the same machine at 70 % and climbing
 * 100 MB/s shows the time. */
static void test_idle_creep_no_eta(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    hr_wsample s;
    for (int i = 0; i < 30; i++) {
        hr_wsample_init(&s);
        s.t_ms = 1000 + i * 1000;
        s.time_ms = 1764702000000 + i * 1000;
        s.ram_total = 24 * GB;
        s.ram_used = 2 * GB + i * 16 * MB;
        s.swap_total = 0;
        s.swap_used = 0;
        feed(&w, &s);
    }
    CHECK(w.eta_s > 600.0); /* a slope there is, but over 22 GB */
    CHECK(!hr_watch_eta_meaningful(&w));
    hr_buf line;
    hr_buf_init(&line, 4096);
    hr_watch_line(&line, &w, &s);
    CHECK(!strstr(hr_buf_str(&line), "limit ("));
    hr_buf_free(&line);
    CHECK_EQ_I64(fired[HR_WRULE_TTL], 0);

    hr_watch_init(&w, NULL);
    for (int i = 0; i < 30; i++) {
        hr_wsample_init(&s);
        s.t_ms = 1000 + i * 1000;
        s.time_ms = 1764702000000 + i * 1000;
        s.ram_total = 24 * GB;
        s.ram_used = 17 * GB + i * 100 * MB;
        s.swap_total = 0;
        s.swap_used = 0;
        feed(&w, &s);
    }
    CHECK(hr_watch_eta_meaningful(&w));
    hr_buf_init(&line, 4096);
    hr_watch_line(&line, &w, &s);
    CHECK(strstr(hr_buf_str(&line), "limit (") != NULL);
    hr_buf_free(&line);
}

/* The seed's Task Manager picture (S2.3) on Windows: 32 GB RAM 70 % used, commit climbing
 * 300 MB/s towards a 48 GB limit, the paging disk at 99 %. */
static void test_s23(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    int64_t commit = 30 * GB;
    for (int i = 0; i < 60 && commit < 48 * GB; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = i * 1000;
        s.time_ms = 1764702000000 + i * 1000;
        s.ram_total = 32 * GB;
        s.ram_used = 22 * GB + i * 10 * MB;
        s.commit = commit;
        s.commit_limit = 48 * GB;
        s.commit_enforced = true;
        s.pages_in_ps = 4000;
        s.pages_out_ps = 9000;
        s.disk_busy_pct = i < 5 ? 30.0 : 99.0;
        snprintf(s.disk, sizeof s.disk, "C:");
        feed(&w, &s);
        commit += 300 * MB;
    }
    CHECK_EQ_I64(fired[HR_WRULE_S23], 1);
    CHECK_EQ_I64(fired_t[HR_WRULE_S23], 5000); /* as soon as the disk saturates */
    CHECK_EQ_I64(fired[HR_WRULE_COMMIT85], 1);
    CHECK_EQ_I64(fired[HR_WRULE_COMMIT95], 1);
    CHECK(fired_t[HR_WRULE_COMMIT85] < fired_t[HR_WRULE_COMMIT95]);
    CHECK_EQ_I64(fired[HR_WRULE_TTL], 1);
    CHECK(fired_t[HR_WRULE_TTL] <= fired_t[HR_WRULE_COMMIT85]);
    CHECK_EQ_I64(fired[HR_WRULE_CGROUP], 0);
    CHECK_STR(w.limit_name, "commit");
}

/* The same picture with the disk idle (plenty of RAM behind it): no S2.3. */
static void test_s23_needs_busy_disk(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    for (int i = 0; i < 30; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = i * 1000;
        s.ram_total = 32 * GB;
        s.ram_used = 20 * GB;
        s.commit = 20 * GB + i * 100 * MB;
        s.commit_limit = 96 * GB;
        s.commit_enforced = true;
        s.disk_busy_pct = 5.0;
        feed(&w, &s);
    }
    CHECK_EQ_I64(fired[HR_WRULE_S23], 0);
    CHECK_EQ_I64(fired[HR_WRULE_COMMIT85], 0);
}

/* A 200 MB/s ramp in a 1 GB memory cgroup without swap, sampled every 100 ms: time-to-limit
 * fires at least 3 s before the kernel's kill, cgroup-near before the end. */
static void test_cgroup_ramp(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    int64_t kill_t = -1;
    for (int i = 0; i < 200; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = 5000 + i * 100;
        s.ram_total = 24 * GB;
        s.ram_used = 2 * GB + i * 20 * MB;
        s.swap_total = 0;
        s.swap_used = 0;
        s.cg_current = 8 * MB + i * 20 * MB;
        s.cg_max = 1 * GB;
        s.cg_swap_current = 0;
        s.cg_swap_max = HR_W_UNLIMITED; /* but there is no swap */
        if (s.cg_current >= s.cg_max) {
            kill_t = s.t_ms;
            break;
        }
        feed(&w, &s);
    }
    CHECK(kill_t > 0);
    CHECK_EQ_I64(fired[HR_WRULE_TTL], 1);
    CHECK(kill_t - fired_t[HR_WRULE_TTL] >= 3000);
    CHECK_EQ_I64(fired[HR_WRULE_CGROUP], 1);
    CHECK(fired_t[HR_WRULE_CGROUP] < kill_t);
    CHECK_STR(w.limit_name, "cgroup");
    CHECK(w.slope_bps > 190.0 * MB && w.slope_bps < 210.0 * MB);
    CHECK_EQ_I64(w.first_warning_t, fired_t[HR_WRULE_TTL]);
    /* an unlimited cgroup is no limit */
    hr_watch u;
    hr_watch_init(&u, NULL);
    reset_fired();
    for (int i = 0; i < 50; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = i * 100;
        s.cg_current = i * 100 * MB;
        s.cg_max = HR_W_UNLIMITED;
        feed(&u, &s);
    }
    CHECK_EQ_I64(fired[HR_WRULE_CGROUP], 0);
    CHECK_EQ_I64(fired[HR_WRULE_TTL], 0);
    CHECK(u.limit_name == NULL);
}

/* Swap a cgroup may use counts as room: 900 MB of 1 GB RAM in the cgroup but 4 GB of swap
 * allowed is not "near". */
static void test_cgroup_swap_room(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    for (int i = 0; i < 5; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = i * 1000;
        s.swap_total = 8 * GB;
        s.cg_current = 950 * MB;
        s.cg_max = 1 * GB;
        s.cg_swap_current = 10 * MB;
        s.cg_swap_max = 4 * GB;
        feed(&w, &s);
    }
    CHECK_EQ_I64(fired[HR_WRULE_CGROUP], 0);
    CHECK_EQ_I64(w.cap, 5 * GB);
}

/* A condition that comes and goes fires once per episode, re-arming after rearm_ms quiet. */
static void test_rearm(void)
{
    reset_fired();
    hr_watch w;
    hr_watch_init(&w, NULL);
    for (int i = 0; i < 60; i++) {
        hr_wsample s;
        hr_wsample_init(&s);
        s.t_ms = i * 1000;
        /* 0-9 high, 10-11 low (2 s: not re-armed), 12-19 high, 20-39 low, 40+ high */
        bool high = i < 10 || (i >= 12 && i < 20) || i >= 40;
        s.psi_full_avg10 = high ? 25.0 : 0.0;
        s.psi_some_avg10 = high ? 40.0 : 0.0;
        feed(&w, &s);
    }
    CHECK_EQ_I64(fired[HR_WRULE_PRESSURE], 2);
    CHECK(w.peaks.psi_full_avg10 == 25.0);
}

/* Counters that go backwards (a counter reset, a swap device changed) give no rate. */
static void test_counter_reset(void)
{
    hr_watch w;
    hr_watch_init(&w, NULL);
    hr_wsample a, b;
    hr_wsample_init(&a);
    a.t_ms = 0;
    a.pages_out_total = 1000;
    a.disk_busy_ms_total = 500;
    snprintf(a.disk, sizeof a.disk, "sda");
    hr_warning out[HR_WATCH_MAX_WARNINGS];
    hr_watch_tick(&w, &a, out);
    hr_wsample_init(&b);
    b.t_ms = 1000;
    b.pages_out_total = 10;
    b.disk_busy_ms_total = 900;
    snprintf(b.disk, sizeof b.disk, "sdb");
    hr_watch_tick(&w, &b, out);
    CHECK(b.pages_out_ps < 0);
    CHECK(b.disk_busy_pct < 0);
    /* 1500 ms busy in 1000 ms (merged partitions) clamps to 100 % */
    hr_wsample c;
    hr_wsample_init(&c);
    c.t_ms = 2000;
    c.disk_busy_ms_total = 2400;
    snprintf(c.disk, sizeof c.disk, "sdb");
    hr_watch_tick(&w, &c, out);
    CHECK(c.disk_busy_pct == 100.0);
}

/* The recording's lines: one JSON object each, "schema" in the header, null for unknown. */
/* The GPU memory of a process tree from a driver's process list (hr_wvram_tree): members
 * only, a pid listed as compute and graphics once, "not available" (WDDM) makes it unknown,
 * none of the tree on the GPU is 0. */
static void test_vram_tree(void)
{
    const int64_t tree[] = { 100, 101, 105 };
    const hr_gpu_proc l1[] = { { 7, 500 * MB }, { 100, 3 * GB }, { 101, 256 * MB }, { 8, 1 * GB } };
    CHECK_EQ_U64((uint64_t)hr_wvram_tree(l1, 4, tree, 3), (uint64_t)(3 * GB + 256 * MB));
    /* listed twice (compute, then graphics): counted once, the larger amount */
    const hr_gpu_proc l2[] = { { 100, 2 * GB }, { 9, 1 * GB }, { 100, 2 * GB + 10 * MB } };
    CHECK_EQ_U64((uint64_t)hr_wvram_tree(l2, 3, tree, 3), (uint64_t)(2 * GB + 10 * MB));
    /* one entry with, one without an amount: the amount */
    const hr_gpu_proc l3[] = { { 105, HR_W_UNKNOWN }, { 105, 64 * MB } };
    CHECK_EQ_U64((uint64_t)hr_wvram_tree(l3, 2, tree, 3), (uint64_t)(64 * MB));
    /* WDDM: the tree is on the GPU but the driver does not say how much */
    const hr_gpu_proc l4[] = { { 100, HR_W_UNKNOWN }, { 8, 1 * GB } };
    CHECK(hr_wvram_tree(l4, 2, tree, 3) == HR_W_UNKNOWN);
    /* the tree is not on this GPU; an empty list; an empty tree */
    const hr_gpu_proc l5[] = { { 7, 1 * GB }, { 8, HR_W_UNKNOWN } };
    CHECK(hr_wvram_tree(l5, 2, tree, 3) == 0);
    CHECK(hr_wvram_tree(NULL, 0, tree, 3) == 0);
    CHECK(hr_wvram_tree(l1, 4, NULL, 0) == 0);
    /* amounts that would overflow together: unknown, not wrapped */
    const hr_gpu_proc l6[] = { { 100, INT64_MAX - 5 }, { 101, 10 } };
    CHECK(hr_wvram_tree(l6, 2, tree, 3) == HR_W_UNKNOWN);
    /* the sample's field starts unknown and reaches the recording and the peaks */
    hr_wsample s;
    hr_wsample_init(&s);
    CHECK(s.proc_vram == HR_W_UNKNOWN);
    hr_watch w;
    hr_watch_init(&w, NULL);
    hr_warning out[HR_WATCH_MAX_WARNINGS];
    s.t_ms = 0;
    s.proc_vram = 3 * GB;
    hr_watch_tick(&w, &s, out);
    s.t_ms = 1000;
    s.proc_vram = 1 * GB;
    hr_watch_tick(&w, &s, out);
    CHECK_EQ_U64((uint64_t)w.peaks.proc_vram, (uint64_t)(3 * GB));
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_rec_sample_line(&b, 0, &s);
    CHECK(strstr(hr_buf_str(&b), "\"proc_vram\":1073741824}") != NULL);
    hr_buf_reset(&b);
    hr_rec_end_line(&b, 0, 2000, 0, &w);
    CHECK(strstr(hr_buf_str(&b), "\"proc_vram\":3221225472") != NULL);
    hr_buf_free(&b);
}

static void test_recording_lines(void)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    char a0[] = "python3", a1[] = "main.py";
    char *argv[] = { a0, a1, NULL };
    hr_rec_header h = { .version = "0.1.0",
                        .os = "linux",
                        .started_ms = 1764702000000,
                        .interval_ms = 1000,
                        .mode = "run",
                        .pid = 42,
                        .name = NULL,
                        .argc = 2,
                        .argv = argv,
                        .comfyui = NULL };
    hr_rec_header_line(&b, &h);
    hr_wsample s;
    hr_wsample_init(&s);
    s.t_ms = 5500;
    s.time_ms = 1764702000500;
    s.ram_total = 16 * GB;
    s.cg_max = HR_W_UNLIMITED;
    s.psi_full_avg10 = 1.25;
    hr_rec_sample_line(&b, 5000, &s);
    hr_watch w;
    hr_watch_init(&w, NULL);
    hr_rec_end_line(&b, 5000, 6000, 1764702001000, &w);
    CHECK_EQ_U64(hr_buf_error(&b), 0);

    const char *cur = hr_buf_str(&b), *endp = cur + b.len;
    int lines = 0;
    while (cur < endp) {
        const char *nl = memchr(cur, '\n', (size_t)(endp - cur));
        CHECK(nl != NULL);
        if (!nl)
            break;
        hr_json_doc *doc = NULL;
        hr_error err = { 0 };
        CHECK(hr_json_parse(cur, (size_t)(nl - cur), NULL, &doc, &err) == 0);
        const hr_json_value *root = hr_json_root(doc);
        const char *type = hr_json_string(hr_json_get(root, "type"), NULL);
        CHECK(type != NULL);
        if (lines == 0) {
            CHECK_STR(type, "header");
            CHECK_STR(hr_json_string(hr_json_get(root, "schema"), NULL), HR_RECORDING_SCHEMA);
        } else if (lines == 1) {
            CHECK_STR(type, "sample");
            int64_t t = 0;
            CHECK(hr_json_as_i64(hr_json_get(root, "t"), &t) == 0 && t == 500);
            CHECK(hr_json_get(root, "cgroup_max") && hr_json_is(hr_json_get(root, "cgroup_max"), HR_JSON_NULL));
            CHECK(hr_json_get(root, "ram_used") && hr_json_is(hr_json_get(root, "ram_used"), HR_JSON_NULL));
        } else {
            CHECK_STR(type, "end");
        }
        hr_json_free(doc);
        lines++;
        cur = nl + 1;
    }
    CHECK_EQ_I64(lines, 3);
    hr_buf_free(&b);
}

/* One warning, fired while the user's language is Chinese: the terminal's line in the language
 * it is shown in (the limit's name too), the recording's message in English. */
static void test_warning_languages(void)
{
    hr_lang_set(HR_LANG_ZH);
    hr_warning wr;
    memset(&wr, 0, sizeof wr);
    wr.rule = HR_WRULE_COMMIT95;
    wr.value = 15 * GB;
    wr.limit = 16 * GB;
    wr.eta_s = -1;
    wr.limit_name = "commit";
    hr_warning_msg(&wr);
    char zh[256], en[256];
    hr_warning_text(&wr, zh, sizeof zh);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_rec_warning_line(&b, 0, &wr);
    hr_lang_set(HR_LANG_EN);
    hr_warning_text(&wr, en, sizeof en);
    CHECK_STR(zh, "提交 已用 15 GB / 16 GB：超过限制的 95%");
    CHECK_STR(en, "commit in use 15 GB of 16 GB: past 95% of the limit");
    CHECK_CONTAINS(hr_buf_str(&b), "\"message\":\"commit in use 15 GB of 16 GB: past 95% of the limit\"");
    hr_buf_free(&b);
}

/* run's verdict: hard evidence first, a plain SIGKILL is not an OOM kill, the log's finding
 * wins over the exit code, and the OS's records count only when they name the child. */
static void test_verdict(void)
{
    hr_watch w;
    hr_watch_init(&w, NULL);
    hr_diag_ctx *log = malloc(sizeof *log), *sys = malloc(sizeof *sys);
    hr_run_verdict *v = malloc(sizeof *v);
    hr_error err = { 0 };
    CHECK(log && sys && v && hr_diag_init(log, &err) == 0 && hr_diag_init(sys, &err) == 0);
    if (!log || !sys || !v)
        return;
    hr_diag_finish(log);
    hr_diag_finish(sys);

    hr_run_end end = { .exited = false, .signal = 9, .pid = 668, .oom_kill = 1, .cg_peak = -1 };
    hr_run_verdict_make(log, sys, &end, &w, v);
    CHECK_STR(v->cause, "killed");
    CHECK(v->conf == HR_CONF_HIGH);
    CHECK(!v->kernel_record);

    end.oom_kill = 0;
    hr_run_verdict_make(log, sys, &end, &w, v);
    CHECK_STR(v->cause, "signal");

    /* a kernel record about another process is not about this child */
    static const char other[] = "Memory cgroup out of memory: Killed process 4242 (python3) "
                                "total-vm:216400kB, anon-rss:204144kB";
    hr_diag_reset(sys);
    hr_diag_feed_record(sys, "/dev/kmsg", 0, other, sizeof other - 1);
    hr_diag_finish(sys);
    end.oom_kill = -1;
    hr_run_verdict_make(log, sys, &end, &w, v);
    CHECK_STR(v->cause, "signal");
    static const char mine[] = "Memory cgroup out of memory: Killed process 668 (python3) "
                               "total-vm:216400kB, anon-rss:204144kB";
    hr_diag_feed_record(sys, "/dev/kmsg", 0, mine, sizeof mine - 1);
    hr_diag_finish(sys);
    hr_run_verdict_make(log, sys, &end, &w, v);
    CHECK_STR(v->cause, "killed");
    CHECK(v->kernel_record);
    bool named = false;
    for (size_t i = 0; i < v->nev; i++) {
        CHECK(strstr(v->ev[i].text, "4242") == NULL);
        named |= strstr(v->ev[i].text, "process 668 ") != NULL;
    }
    CHECK(named);

    /* a CUDA OOM traceback in the output: gpu-oom, whatever the exit code */
    static const char cuda[] = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                               "2.50 GiB. GPU 0 has a total capacity of 11.72 GiB";
    hr_diag_reset(log);
    hr_diag_begin_input(log, "output");
    hr_diag_feed(log, cuda, sizeof cuda - 1, 1, 0);
    hr_diag_end_input(log, "utf-8", sizeof cuda - 1, 1, 0);
    hr_diag_finish(log);
    hr_run_end ex0 = { .exited = true, .code = 0, .pid = 1, .oom_kill = 0, .cg_peak = -1 };
    hr_run_verdict_make(log, NULL, &ex0, &w, v);
    CHECK_STR(v->cause, "gpu-oom");
    CHECK(v->nev >= 1 && strstr(v->ev[0].text, "CUDA out of memory") != NULL);
    CHECK_STR(v->ev[0].source, "output:1");

    hr_diag_reset(log);
    hr_diag_finish(log);
    hr_run_verdict_make(log, NULL, &ex0, &w, v);
    CHECK_STR(v->cause, "ok");
    ex0.code = 2;
    hr_run_verdict_make(log, NULL, &ex0, &w, v);
    CHECK_STR(v->cause, "exited");

    /* the verdict line parses and carries the contract's keys */
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_rec_verdict_line(&b, 0, 10, 20, v, &w);
    hr_json_doc *doc = NULL;
    CHECK(hr_json_parse(hr_buf_str(&b), b.len, NULL, &doc, &err) == 0);
    const hr_json_value *root = hr_json_root(doc);
    CHECK_STR(hr_json_string(hr_json_get(root, "type"), NULL), "verdict");
    CHECK(hr_json_is(hr_json_get(root, "evidence"), HR_JSON_ARRAY));
    CHECK(hr_json_is(hr_json_get(root, "peaks"), HR_JSON_OBJECT));
    hr_json_free(doc);
    hr_buf_free(&b);
    hr_diag_free(log);
    hr_diag_free(sys);
    free(log);
    free(sys);
    free(v);
}

int main(void)
{
    test_idle();
    test_idle_creep_no_eta();
    test_s23();
    test_s23_needs_busy_disk();
    test_cgroup_ramp();
    test_cgroup_swap_room();
    test_rearm();
    test_counter_reset();
    test_vram_tree();
    test_recording_lines();
    test_verdict();
    test_warning_languages();
    return TEST_DONE();
}
