/* Linux: the kernel's and the OOM daemons' own records of memory kills, for headroom
 * diagnose. Sources, in order of preference (docs/rules.md, sources: OOM records):
 *   kernel log   /dev/kmsg (non-blocking, until EAGAIN; needs CAP_SYSLOG when
 *                kernel.dmesg_restrict=1), else `dmesg`, else `journalctl -k`;
 *   journal      systemd-oomd, earlyoom, nohang and systemd's "killed by the OOM killer";
 *   counters     /proc/vmstat oom_kill (since boot), this cgroup's memory.events (v2) or
 *                memory.oom_control (v1) oom_kill.
 * Every record goes through the same phrase table as log lines (core/diagnose/diag.c). */
#include "platform/platform.h"
#include "core/base/i18n.h"

#include "linux_probes.h"

#include "core/diagnose/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REC_MAX           8192
#define JOURNAL_LINES_MAX 2000000

typedef struct collect {
    hr_diag_ctx *ctx;
    const char *root; /* "" for the live system, else the sysroot without a trailing / */
    bool live;
    int64_t since;
    double uptime; /* seconds since boot, 0 if unknown */
    int64_t boot;  /* Unix time of boot, 0 if unknown */
    int partial;
} collect;

static void path_of(const collect *k, const char *rel, char *out, size_t n)
{
    snprintf(out, n, "%s%s", k->root, rel);
}

static int64_t rec_time(const collect *k, uint64_t usec)
{
    return k->boot ? k->boot + (int64_t)(usec / 1000000) : 0;
}

static bool in_window(const collect *k, uint64_t usec)
{
    if (k->uptime <= 0)
        return true;
    double age = k->uptime - (double)usec / 1e6;
    return age <= (double)k->since;
}

static void read_uptime(collect *k)
{
    char p[4096];
    path_of(k, "/proc/uptime", p, sizeof p);
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    double up = 0;
    if (fscanf(f, "%lf", &up) == 1 && up > 0) {
        k->uptime = up;
        k->boot = (int64_t)time(NULL) - (int64_t)up;
    }
    fclose(f);
}

/* /dev/kmsg, live: one record per read(); EAGAIN = caught up; EPIPE = records were
 * overwritten while we read (skip on). */
static int kmsg_live(collect *k, int64_t *total, int64_t *used)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    char *rec = malloc(REC_MAX);
    if (!rec) {
        close(fd);
        return -ENOMEM;
    }
    for (;;) {
        ssize_t n = read(fd, rec, REC_MAX - 1);
        if (n < 0) {
            if (errno == EINTR || errno == EPIPE)
                continue;
            break; /* EAGAIN: the end; anything else: stop with what we have */
        }
        if (n == 0)
            break;
        hr_klog_record r;
        if (hr_kmsg_parse(rec, (size_t)n, &r) != 0)
            continue;
        (*total)++;
        if (!in_window(k, r.usec))
            continue;
        (*used)++;
        hr_diag_feed_record(k->ctx, "/dev/kmsg", rec_time(k, r.usec), r.text, r.len);
    }
    free(rec);
    close(fd);
    return 0;
}

/* Lines of a stream (a recorded file or a program's output), each bounded. */
typedef int (*line_parser)(const char *line, size_t n, hr_klog_record *out);

static void read_lines(collect *k, FILE *f, line_parser parse, const char *source, int64_t *total, int64_t *used)
{
    char *line = malloc(REC_MAX);
    if (!line)
        return;
    while (fgets(line, REC_MAX, f) && *total < JOURNAL_LINES_MAX) {
        size_t n = strlen(line);
        if (n == REC_MAX - 1 && line[n - 1] != '\n') {
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ; /* longer than any kernel record: keep the head, drop the rest */
        }
        hr_klog_record r;
        if (parse(line, n, &r) != 0)
            continue;
        (*total)++;
        int64_t t = r.unix_time ? r.unix_time : rec_time(k, r.usec);
        if (!r.unix_time && !in_window(k, r.usec))
            continue;
        if (r.unix_time && k->boot && r.unix_time < (int64_t)time(NULL) - k->since)
            continue;
        (*used)++;
        hr_diag_feed_record(k->ctx, source, t, r.text, r.len);
    }
    free(line);
}

static int run_program(collect *k, const char *cmd, line_parser parse, const char *source, int64_t *total,
                       int64_t *used)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -errno;
    read_lines(k, p, parse, source, total, used);
    int st = pclose(p);
    return st == 0 ? 0 : -1;
}

static bool have_journal(void)
{
    struct stat st;
    return stat("/run/systemd/journal", &st) == 0 || stat("/var/log/journal", &st) == 0;
}

static void kernel_log(collect *k)
{
    int64_t total = 0, used = 0;
    long long window = (long long)k->since; /* each template says "in the last %lld s" whole */
    if (!k->live) {
        char p[4096];
        path_of(k, "/dev/kmsg", p, sizeof p);
        FILE *f = fopen(p, "r");
        if (!f) {
            hr_diag_note_source(k->ctx, HR_N("kernel log"), false, -1, "%s: %s", p, strerror(errno));
            k->partial = 1;
            return;
        }
        read_lines(k, f, hr_kmsg_parse, "/dev/kmsg", &total, &used);
        fclose(f);
        hr_diag_note_source(k->ctx, HR_N("kernel log"), true, used, HR_N("%s: %lld records, %lld in the last %lld s"),
                            p, (long long)total, (long long)used, window);
        return;
    }
    int r = kmsg_live(k, &total, &used);
    if (r == 0) {
        hr_diag_note_source(k->ctx, HR_N("kernel log"), true, used,
                            HR_N("/dev/kmsg: %lld records since boot, %lld in the last %lld s"), (long long)total,
                            (long long)used, window);
        return;
    }
    const char *why = strerror(-r);
    total = used = 0;
    if (run_program(k, "dmesg 2>/dev/null", hr_dmesg_parse, "dmesg", &total, &used) == 0 && total > 0) {
        hr_diag_note_source(k->ctx, HR_N("kernel log"), true, used,
                            HR_N("dmesg (/dev/kmsg: %s): %lld records, %lld in the last %lld s"), why, (long long)total,
                            (long long)used, window);
        return;
    }
    total = used = 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "journalctl -k -q --no-pager -o short-unix --since=-%" PRId64 "s 2>/dev/null", k->since);
    if (have_journal() && run_program(k, cmd, hr_journal_parse, "journal (kernel)", &total, &used) == 0) {
        hr_diag_note_source(k->ctx, HR_N("kernel log"), true, used,
                            HR_N("journalctl -k (/dev/kmsg: %s; dmesg not readable): %lld records in the last %lld s"),
                            why, (long long)used, window);
        return;
    }
    hr_diag_note_source(k->ctx, HR_N("kernel log"), false, -1,
                        HR_N("/dev/kmsg: %s; dmesg and journalctl -k not readable either (needs root "
                             "or CAP_SYSLOG when kernel.dmesg_restrict=1, or membership of the "
                             "systemd-journal / adm group)"),
                        why);
    k->partial = 1;
}

static void oom_daemons(collect *k)
{
    if (!k->live)
        return;
    if (!have_journal()) {
        hr_diag_note_source(k->ctx, "journal", false, -1,
                            HR_N("no systemd journal on this machine (systemd-oomd / earlyoom "
                                 "messages are kept there)"));
        return;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "journalctl -q --no-pager -o short-unix --since=-%" PRId64 "s "
             "SYSLOG_IDENTIFIER=systemd-oomd SYSLOG_IDENTIFIER=earlyoom SYSLOG_IDENTIFIER=nohang "
             "SYSLOG_IDENTIFIER=systemd 2>/dev/null",
             k->since);
    int64_t total = 0, used = 0;
    if (run_program(k, cmd, hr_journal_parse, "journal", &total, &used) != 0) {
        hr_diag_note_source(k->ctx, "journal", false, -1, HR_N("journalctl failed or is not installed"));
        k->partial = 1;
        return;
    }
    hr_diag_note_source(k->ctx, "journal", true, used, HR_N("systemd-oomd, earlyoom, nohang, systemd: %lld messages"),
                        (long long)used);
}

/* "key value" files (/proc/vmstat, memory.events, memory.oom_control): the value of key. */
static bool keyed_value(const char *path, const char *key, int64_t *value)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[256];
    size_t k = strlen(key);
    bool found = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, k) == 0 && line[k] == ' ') {
            char *end = NULL;
            long long v = strtoll(line + k + 1, &end, 10);
            if (end != line + k + 1 && v >= 0) {
                *value = v;
                found = true;
            }
            break;
        }
    }
    fclose(f);
    return found;
}

static void vmstat_counter(collect *k, bool kernel_log_ok)
{
    char p[4096];
    path_of(k, "/proc/vmstat", p, sizeof p);
    int64_t kills = 0;
    if (!keyed_value(p, "oom_kill", &kills)) {
        hr_diag_note_source(k->ctx, "/proc/vmstat", false, -1,
                            HR_N("no oom_kill counter (kernel older than 4.13, or not readable)"));
        return;
    }
    hr_diag_note_source(k->ctx, "/proc/vmstat", true, -1, HR_N("oom_kill %lld since boot"), (long long)kills);
    if (kills > 0 && !kernel_log_ok) {
        hr_msg source, what;
        hr_msg_set(&source, "%s", "/proc/vmstat");
        hr_msg_set(&what,
                   HR_N("oom_kill %lld: the kernel's OOM killer has ended processes %lld times since "
                        "boot (the kernel log, which names them, was not readable)"),
                   (long long)kills, (long long)kills);
        hr_diag_add_msg(k->ctx, HR_CAUSE_KILLED, HR_CONF_LOW, &source, 0, &what, "", 200, NULL);
    }
}

static void cgroup_counter(collect *k)
{
    char dir[4096], p[6200];
    hr_cgroup_version v = HR_CGROUP_NONE;
    if (!hr_lx_memory_cgroup_dir(k->root, dir, sizeof dir, &v)) {
        hr_diag_note_source(k->ctx, "cgroup", false, -1, HR_N("no memory cgroup found for this process"));
        return;
    }
    snprintf(p, sizeof p, "%s%s/%s", k->root, dir, v == HR_CGROUP_V2 ? "memory.events" : "memory.oom_control");
    int64_t kills = 0;
    if (!keyed_value(p, "oom_kill", &kills)) {
        /* The root cgroup has no memory.events: nothing to count there. */
        hr_diag_note_source(k->ctx, "cgroup", false, -1, HR_N("%s: no oom_kill counter"), p);
        return;
    }
    hr_diag_note_source(k->ctx, "cgroup", true, -1, "%s: oom_kill %" PRId64, p, kills);
    if (kills > 0) {
        hr_msg source, what;
        hr_msg_set(&source, "%s", "cgroup");
        hr_msg_set(&what,
                   HR_N("%.200s: oom_kill %lld (processes of this cgroup "
                        "ended by an OOM killer since it was created)"),
                   p, (long long)kills);
        hr_diag_add_msg(k->ctx, HR_CAUSE_KILLED, HR_CONF_LOW, &source, 0, &what, "", HR_DIAG_TEXT_MAX, NULL);
    }
}

/* --pid's cgroup, while the process still runs (a launcher outlives the python it started):
 * the v2 path ("0::/path"), or v1's memory controller's. */
static void pid_cgroup(collect *k)
{
    hr_diag_ctx *c = k->ctx;
    c->pid_cgroup[0] = '\0';
    if (c->pid < 0)
        return;
    char rel[64], p[4096];
    snprintf(rel, sizeof rel, "/proc/%lld/cgroup", (long long)c->pid);
    path_of(k, rel, p, sizeof p);
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *path = NULL;
        if (strncmp(line, "0::", 3) == 0)
            path = line + 3;
        else if (strstr(line, ":memory:"))
            path = strstr(line, ":memory:") + 8;
        if (path && path[0] == '/' && strlen(path) < sizeof c->pid_cgroup) {
            snprintf(c->pid_cgroup, sizeof c->pid_cgroup, "%s", path);
            if (line[0] == '0')
                break;
        }
    }
    fclose(f);
}

int hr_platform_oom_evidence(const hr_probe_opts *opts, int64_t since_seconds, hr_diag_ctx *ctx, hr_error *err)
{
    (void)err;
    const char *root = opts && opts->sysroot ? opts->sysroot : "/";
    char rootbuf[2048];
    snprintf(rootbuf, sizeof rootbuf, "%s", root);
    size_t rl = strlen(rootbuf);
    while (rl > 0 && rootbuf[rl - 1] == '/')
        rootbuf[--rl] = '\0';
    collect k = { .ctx = ctx, .root = rootbuf, .live = rl == 0, .since = since_seconds };
    read_uptime(&k);
    pid_cgroup(&k);
    size_t before = ctx->nsources;
    kernel_log(&k);
    bool kernel_ok = ctx->nsources > before && ctx->sources[before].ok;
    oom_daemons(&k);
    vmstat_counter(&k, kernel_ok);
    cgroup_counter(&k);
    return k.partial ? HR_EPARTIAL : 0;
}
