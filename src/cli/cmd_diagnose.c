/* headroom diagnose — why did a generation run die? (docs/diagnose.md, seed rule S2.1) */
#include "cli_util.h"
#include "console.h"
#include "commands.h"

#include "core/diagnose/diag.h"
#include "core/diagnose/diag_render.h"
#include "core/base/duration.h"
#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/textdec.h"
#include "platform/platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DIAG_DEFAULT_SINCE (7 * 86400)
#define DIAG_CHUNK         (1u << 16) /* stays in the cache between reading and decoding */
#define DIAG_MAX_LOGS      HR_DIAG_INPUTS_MAX

/* The exit statuses (docs/diagnose.md). */
enum { DIAG_EXIT_FOUND = 0, DIAG_EXIT_NOTHING = 1 };

enum { OPT_JSON = 1, OPT_NO_SYSTEM, OPT_SINCE, OPT_PID, OPT_HTML, OPT_SYSROOT };

static const hr_opt diagnose_opts[] = {
    { OPT_SINCE, "--since", HR_ARG_DURATION, "DUR",
      HR_N("how far back the system's records are read (30m, 2h, 7d; default 7d)"), NULL, 0 },
    { OPT_NO_SYSTEM, "--no-system", HR_ARG_NONE, NULL, HR_N("only the logs: skip the kernel log / event log"), NULL,
      0 },
    { OPT_PID, "--pid", HR_ARG_STRING, "PID",
      HR_N("the run's process: kill records of other processes are set aside, but for those "
           "the kernel's OOM record puts in its cgroup (the python a launcher started)"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (docs/diagnose.md)"), NULL, 0 },
    { OPT_HTML, "--html", HR_ARG_FILE, NULL, HR_N("also write the diagnosis as one self-contained HTML page"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_SYSROOT, "--sysroot", HR_ARG_DIR, NULL, HR_N("Linux: read recorded /proc and dev/kmsg under DIR (tests)"),
      NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const diagnose_examples[] = {
    "headroom diagnose comfyui.log",
    "headroom diagnose --no-system --json comfyui.log",
    "python main.py 2>&1 | tee comfyui.log; headroom diagnose comfyui.log",
    "headroom diagnose --pid 48213 --since 2h",
    NULL,
};

const hr_cmd_spec hr_spec_diagnose = {
    .name = "diagnose",
    .synopsis = "[options] [LOG...]",
    .summary = HR_N("Say why a generation run died: GPU memory (VRAM), system memory (RAM + "
                    "paging file / swap), killed by the OS, or not a memory problem; from its "
                    "console logs and the OS's own records (kernel log, journal, event log)."),
    .groups = { diagnose_opts },
    .operands = HR_N("LOG  console logs of ComfyUI or another tool (UTF-8, UTF-16, GBK, CP1252; "
                     "'-' = standard input, also read when no LOG is given and it is not a "
                     "terminal)"),
    .examples = diagnose_examples,
    .exits = HR_N("0 a cause was found; 1 nothing recognised (cause unknown); 64 bad usage; "
                  "65 unreadable input; 66 a LOG does not exist; 70 other failure; "
                  "74 cannot write the report"),
    .doc = "docs/diagnose.md",
};

typedef struct diag_log {
    const char *name;
    FILE *f;
    bool is_stdin;
} diag_log;

static void feed_segment(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    hr_diag_feed(user, text, len, lineno, flags);
}

/* Local time minus UTC, in seconds, now: the logs' own timestamps are local. */
static int64_t local_utc_offset(void)
{
    time_t now = time(NULL);
    struct tm *g = gmtime(&now);
    if (!g)
        return 0;
    struct tm gt = *g;
    gt.tm_isdst = -1;
    time_t as_local = mktime(&gt);
    return as_local == (time_t)-1 ? 0 : (int64_t)difftime(now, as_local);
}

static int read_log(hr_diag_ctx *ctx, hr_textdec *dec, diag_log *log, unsigned char *chunk)
{
    hr_diag_begin_input(ctx, log->name);
    hr_textdec_init(dec, feed_segment, ctx);
    /* read() into one small buffer, not a mapping of the file: the buffer stays in the
     * cache and its pages in the TLB, while a mapping's every new page costs a fault or a
     * page walk (on a virtual machine, half of diagnose's time; the copy costs far less) */
    for (;;) {
        size_t n = fread(chunk, 1, DIAG_CHUNK, log->f);
        if (n)
            hr_textdec_feed(dec, chunk, n);
        if (n < DIAG_CHUNK) {
            if (ferror(log->f)) {
                int e = errno;
                hr_cli_error(HR_T("diagnose: %s: read error: %s"), log->name, e ? strerror(e) : "unknown");
                return HR_EXIT_INPUT;
            }
            break;
        }
    }
    hr_textdec_finish(dec);
    int64_t mtime = log->is_stdin ? 0 : hr_platform_file_mtime(log->f);
    hr_diag_input_text(ctx, dec->bad, hr_textdec_not_text(dec), mtime);
    const hr_diag_input *in = &ctx->inputs[ctx->ninputs - 1];
    if (hr_textdec_not_text(dec) && in->hits == 0) {
        hr_cli_error(HR_T("diagnose: %s: not a text log: %llu of its %llu bytes are control "
                          "codes or do not decode (binary data?); give the console output "
                          "saved as text"),
                     log->name, (unsigned long long)dec->bad, (unsigned long long)dec->bytes);
        return HR_EXIT_INPUT;
    }
    hr_diag_end_input(ctx, hr_textdec_encoding_name(dec), dec->bytes, hr_textdec_lines(dec), dec->long_lines);
    return 0;
}

int hr_cmd_diagnose(int argc, char **argv)
{
    bool json = false, no_system = false;
    const char *html = NULL;
    int64_t since = DIAG_DEFAULT_SINCE;
    int64_t pid = -1;
    hr_probe_opts opts = { .sysroot = "/", .skip_gpu = true, .skip_procs = true };
    diag_log logs[DIAG_MAX_LOGS];
    size_t nlogs = 0;
    bool stdin_used = false;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_diagnose, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        switch (id) {
        case HR_OPT_STOP: return p.status;
        case OPT_JSON: json = true; break;
        case OPT_NO_SYSTEM: no_system = true; break;
        case OPT_SINCE: since = p.seconds; break;
        case OPT_PID: {
            char *end = NULL;
            errno = 0;
            long long n = strtoll(v, &end, 10);
            if (errno || !end || *end || end == v || n < 0) {
                hr_cli_error(HR_T("diagnose: --pid: '%s' is not a process id"), v);
                return HR_EXIT_USAGE;
            }
            pid = n;
            break;
        }
        case OPT_HTML: html = v; break;
        case OPT_SYSROOT: opts.sysroot = v; break;
        case HR_OPT_OPERAND: {
            if (nlogs == DIAG_MAX_LOGS) {
                hr_cli_error(HR_T("diagnose: at most %d logs at once"), DIAG_MAX_LOGS);
                return HR_EXIT_USAGE;
            }
            bool is_stdin = strcmp(v, "-") == 0;
            if (is_stdin && stdin_used) {
                hr_cli_error(HR_T("diagnose: standard input ('-') given twice"));
                return HR_EXIT_USAGE;
            }
            stdin_used |= is_stdin;
            logs[nlogs++] = (diag_log){ .name = is_stdin ? "<stdin>" : v, .is_stdin = is_stdin };
            break;
        }
        default: break;
        }
    }
    if (nlogs == 0 && !hr_cli_stdin_is_tty())
        logs[nlogs++] = (diag_log){ .name = "<stdin>", .is_stdin = true };
    if (nlogs == 0 && no_system) {
        hr_cli_error(HR_T("diagnose: nothing to read: give a LOG or leave out --no-system"));
        hr_cmd_help(&hr_spec_diagnose, stderr);
        return HR_EXIT_USAGE;
    }

    /* Open everything first: a name that cannot be read stops the run before any report. */
    int rc = HR_EXIT_OK;
    for (size_t i = 0; i < nlogs; i++) {
        if (logs[i].is_stdin) {
            hr_platform_binary_mode(stdin);
            logs[i].f = stdin;
            continue;
        }
        /* a device or a FIFO would never end or never start: refused, as models and report
         * refuse them (standard input, "-", stays allowed) */
        hr_error oerr = { 0 };
        logs[i].f = hr_platform_read_open(logs[i].name, &oerr);
        if (!logs[i].f) {
            hr_cli_error("diagnose: %s", oerr.msg);
            /* a missing file is 66, unreadable 77: the one mapping; not a file: bad input */
            rc = oerr.code == HR_EINVAL ? HR_EXIT_INPUT : hr_exit_from_error(oerr.code);
            break;
        }
    }

    hr_diag_ctx *ctx = NULL;
    hr_textdec *dec = NULL;
    unsigned char *chunk = NULL;
    if (rc == HR_EXIT_OK) {
        ctx = malloc(sizeof *ctx);
        dec = malloc(sizeof *dec);
        chunk = malloc(DIAG_CHUNK);
        hr_error err = { 0 };
        if (!ctx || !dec || !chunk) {
            hr_cli_error(HR_T("diagnose: out of memory"));
            rc = HR_EXIT_FAILURE;
        } else if (hr_diag_init(ctx, &err) < 0) {
            hr_cli_error("diagnose: %s", err.msg);
            free(ctx);
            ctx = NULL;
            rc = HR_EXIT_FAILURE;
        } else {
            ctx->pid = pid;
            ctx->tz_offset = local_utc_offset();
#ifdef _WIN32
            ctx->windows = true;
#endif
        }
    }
    for (size_t i = 0; rc == HR_EXIT_OK && i < nlogs; i++)
        rc = read_log(ctx, dec, &logs[i], chunk);
    for (size_t i = 0; i < nlogs; i++)
        if (logs[i].f && !logs[i].is_stdin)
            fclose(logs[i].f);
    free(chunk);
    free(dec);

    if (rc == HR_EXIT_OK) {
        hr_diag_set_window(ctx);
        if (no_system) {
            snprintf(ctx->system_reason, sizeof ctx->system_reason, "--no-system");
        } else {
            hr_error err = { 0 };
            ctx->system_checked = true;
            ctx->since_seconds = since;
            int r = hr_platform_oom_evidence(&opts, since, ctx, &err);
            if (r < 0 && r != HR_EPARTIAL)
                hr_cli_error(HR_T("diagnose: system records: %s"), err.msg[0] ? err.msg : hr_strerror(r));
        }
        hr_diag_finish(ctx);
        hr_buf out;
        hr_buf_init(&out, 0);
        int w;
        if (json) {
            hr_json_writer jw;
            hr_json_init(&jw, &out, true);
            hr_diag_json(ctx, &jw);
            w = hr_json_finish(&jw);
        } else {
            w = hr_diag_text(ctx, &out);
        }
        rc = hr_cli_emit("diagnose", "report", w, &out, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT);
        if (rc == 0 && html) {
            hr_buf page;
            hr_buf_init(&page, 0);
            hr_render hd;
            hr_render_init(&hd, HR_FORMAT_HTML, &page, false);
            hr_diag_render(ctx, &hd);
            rc = hr_cli_emit_file("diagnose", "report", html, &hd);
            hr_buf_free(&page);
        }
        if (rc == 0)
            rc = hr_diag_cause(ctx) == HR_CAUSE_UNKNOWN ? DIAG_EXIT_NOTHING : DIAG_EXIT_FOUND;
        hr_buf_free(&out);
    }
    if (ctx) {
        hr_diag_free(ctx);
        free(ctx);
    }
    return rc;
}
