/* headroom run — start a command, pass its output through unchanged, watch it, and say why
 * it ended (docs/run.md). */
#include "cli_util.h"
#include "comfy_link.h"
#include "commands.h"
#include "console.h"
#include "monitor.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/textdec.h"
#include "core/diagnose/diag.h"
#include "core/plan/plan.h"
#include "core/watch/verdict.h"
#include "platform/platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_RECORD = 1, OPT_LOG, OPT_INTERVAL, OPT_LIMIT, OPT_NO_CGROUP, OPT_COMFYUI, OPT_PROTECT, OPT_COMFYUI_WAIT };

static const hr_opt run_opts[] = {
    { OPT_RECORD, "--record", HR_ARG_FILE, NULL,
      HR_N("write the recording to FILE as JSON lines; its last line is the verdict "
           "(docs/recording.md)"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_LOG, "--log", HR_ARG_FILE, NULL, HR_N("also write the command's output, byte for byte, to FILE"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_INTERVAL, "--interval", HR_ARG_NUMBER, "MS", HR_N("milliseconds between samples (default 1000, at least 50)"),
      NULL, 0 },
    { OPT_LIMIT, "--limit", HR_ARG_SIZE, NULL,
      HR_N("Linux: run the command with this memory limit and no swap (its own memory cgroup)"), NULL, 0 },
    { OPT_NO_CGROUP, "--no-cgroup", HR_ARG_NONE, NULL, HR_N("Linux: leave the command in headroom's cgroup"), NULL, 0 },
    { OPT_COMFYUI, "--comfyui", HR_ARG_STRING, "URL",
      HR_N("the command is a ComfyUI serving at URL (or only the port): follow its prompts and "
           "nodes as `watch --comfyui` does"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_COMFYUI_WAIT, "--comfyui-wait", HR_ARG_NUMBER, "SECONDS",
      HR_N("how long to wait for that ComfyUI to answer before saying it did not come up "
           "(default 300)"),
      NULL, 0 },
    { OPT_PROTECT, "--protect", HR_ARG_NONE, NULL,
      HR_N("when the limit is near, ask that ComfyUI to free memory, then interrupt the prompt "
           "when memory still climbs (as `watch --protect`)"),
      NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const run_examples[] = {
    "headroom run -- python3 main.py --listen",
    "headroom run --record run.jsonl --log comfyui.log -- python3 main.py",
    "headroom run --limit 8G -- python3 main.py",
    "headroom run --comfyui 8188 --protect -- python3 main.py",
    NULL,
};

const hr_cmd_spec hr_spec_run = {
    .name = "run",
    .synopsis = "[options] -- COMMAND [ARGS...]",
    .summary = HR_N("Start COMMAND (ComfyUI or anything else), pass its output through unchanged, "
                    "watch memory as `watch` does and warn before the limit, and when it ends say "
                    "why: finished, GPU out of memory, system memory exhausted, or killed by the "
                    "OS — with the kernel's record, the peaks and how big the paging file / swap "
                    "should be."),
    .groups = { run_opts },
    .operands = HR_N("COMMAND [ARGS...]  the command to run (after --)"),
    .examples = run_examples,
    .exits = HR_N("the command's own exit status; 128 + N when a signal N ended it; 127 when "
                  "it could not be started; with --comfyui, 69 when the command exited 0 but its "
                  "ComfyUI never answered; 64 and up headroom's errors"),
    .doc = "docs/run.md",
};

#define LINE_MAX_BYTES 4096

typedef struct run_ctx {
    hr_monitor *mon;
    hr_comfy_link *link; /* --comfyui, or NULL */
    FILE *log;
    bool log_error;
    bool term_error[3];
    hr_diag_ctx *diag;
    hr_textdec *dec;
    char line[3][LINE_MAX_BYTES]; /* a line being assembled per stream */
    size_t line_len[3];
    char node[96]; /* the last thing ComfyUI said it was doing */
    uint64_t bytes[3];
} run_ctx;

/* ComfyUI's console: what it is doing now, for the recording and the verdict. */
static void console_marker(run_ctx *r, const char *s, size_t n)
{
    static const struct {
        const char *prefix;
        const char *event;
    } marks[] = {
        { "got prompt", "prompt-start" },       { "Prompt executed in", "prompt-end" },
        { "Requested to load ", "model-load" }, { "loaded completely", "model-load" },
        { "loaded partially", "model-load" },   { "!!! Exception during processing", "error" },
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        size_t pl = strlen(marks[i].prefix);
        if (n < pl || memcmp(s, marks[i].prefix, pl) != 0)
            continue;
        hr_monitor *m = r->mon;
        int64_t t = hr_platform_mono_ms();
        hr_buf_reset(&m->rec_line);
        hr_json_writer w;
        hr_json_init(&w, &m->rec_line, false);
        hr_json_begin_object(&w, NULL);
        hr_json_str(&w, "type", "node");
        hr_json_i64(&w, "t", t - m->t0);
        hr_json_i64(&w, "time", hr_platform_wall_ms());
        hr_json_str(&w, "event", marks[i].event);
        hr_json_null(&w, "prompt_id");
        hr_json_null(&w, "node");
        hr_json_null(&w, "class_type");
        hr_json_str(&w, "source", "console");
        hr_json_strn(&w, "text", s, n > 200 ? 200 : n);
        hr_json_end_object(&w);
        (void)hr_json_finish(&w);
        hr_monitor_record(m, &m->rec_line);
        if (strcmp(marks[i].event, "prompt-end") == 0)
            r->node[0] = '\0';
        else
            snprintf(r->node, sizeof r->node, "%.*s", (int)(n > 90 ? 90 : n), s);
        return;
    }
}

static void line_done(run_ctx *r, int st)
{
    size_t n = r->line_len[st];
    if (n == 0)
        return;
    hr_textdec_feed(r->dec, r->line[st], n);
    size_t k = n;
    while (k && (r->line[st][k - 1] == '\n' || r->line[st][k - 1] == '\r'))
        k--;
    console_marker(r, r->line[st], k);
    if (r->link)
        hr_comfy_link_console(r->link, r->line[st], k);
    r->line_len[st] = 0;
}

static void on_output(void *ctx, int stream, const char *data, size_t n)
{
    run_ctx *r = ctx;
    int st = stream == 2 ? 2 : 1;
    r->bytes[st] += n;
    /* the terminal and the log get the bytes as they came */
    if (!r->term_error[st] && !hr_platform_write_stream(st, data, n))
        r->term_error[st] = true; /* a closed pipe: keep the log and the child going */
    if (r->log && !r->log_error && fwrite(data, 1, n, r->log) != n)
        r->log_error = true;
    /* whole lines (per stream) to the classifier, so stdout and stderr never interleave */
    for (size_t i = 0; i < n; i++) {
        char c = data[i];
        r->line[st][r->line_len[st]++] = c;
        if (c == '\n' || c == '\r' || r->line_len[st] == LINE_MAX_BYTES)
            line_done(r, st);
    }
}

static void on_segment(void *user, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    hr_diag_feed(user, text, len, lineno, flags);
}

/* plan's advice, sized from what the run really used at its peak; when the limit that was
 * hit is a cgroup's, paging files and swap are not the answer. */
static void advice(hr_run_verdict *v, const hr_monitor *m, const hr_run_end *end)
{
    int64_t cg_max = m->last.cg_max;
    int64_t cg_peak = end->cg_peak >= 0 ? end->cg_peak : m->w.peaks.cg_current;
    if (cg_max > 0 && cg_max != HR_W_UNLIMITED && cg_peak >= 0 && (double)cg_peak >= 0.9 * (double)cg_max) {
        char lim[32];
        hr_size_gb((uint64_t)cg_max, lim, sizeof lim);
#define CG_ADVICE                                                                                                      \
    HR_N("the limit reached was the memory cgroup's (%s), not the machine's: raise it "                                \
         "(memory.max, a container's --memory, --limit) or let the run hold less at once")
        snprintf(v->advice, sizeof v->advice, hr_tr_lang(HR_LANG_EN, CG_ADVICE), lim);
        snprintf(v->advice_local, sizeof v->advice_local, hr_tr(CG_ADVICE), lim);
        return;
    }
    if (v->need_bytes <= 0)
        return;
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_plan *plan = malloc(sizeof *plan);
    if (!snap || !plan) {
        free(snap);
        free(plan);
        return;
    }
    hr_probe_opts po = { .sysroot = "/", .skip_gpu = false, .skip_procs = true };
    hr_error err = { 0 };
    int r = hr_platform_snapshot(&po, snap, &err);
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.peak_commit_bytes = (uint64_t)v->need_bytes;
    char peak[32];
    hr_size_gb((uint64_t)v->need_bytes, peak, sizeof peak);
    if ((r == 0 || r == HR_EPARTIAL) && hr_plan_compute(snap, &in, plan, &err) == 0) {
        char sz[32];
        hr_size_gb(plan->recommended.maximum_bytes, sz, sizeof sz);
#define PLAN_ADVICE HR_N("plan, from the peak of %s: a paging file / swap of %s%s (headroom plan --peak-commit %lluM)")
#define PLAN_ON     HR_N(" on %s")
        char on_en[300] = "", on_loc[300] = "";
        if (plan->recommended.target_known) {
            snprintf(on_en, sizeof on_en, hr_tr_lang(HR_LANG_EN, PLAN_ON), plan->recommended.target);
            snprintf(on_loc, sizeof on_loc, hr_tr(PLAN_ON), plan->recommended.target);
        }
        unsigned long long mib = ((uint64_t)v->need_bytes + HR_MIB - 1) / HR_MIB;
        snprintf(v->advice, sizeof v->advice, hr_tr_lang(HR_LANG_EN, PLAN_ADVICE), peak, sz, on_en, mib);
        snprintf(v->advice_local, sizeof v->advice_local, hr_tr(PLAN_ADVICE), peak, sz, on_loc, mib);
    }
    free(snap);
    free(plan);
}

int hr_cmd_run(int argc, char **argv)
{
    const char *record = NULL, *log_path = NULL;
    int64_t interval = 1000;
    uint64_t limit = 0;
    bool no_cgroup = false, protect = false;
    int64_t comfyui_wait = 300;
    const char *comfyui = NULL;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_run, argc, argv);
    p.stop_at_operand = true;
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        if (id == HR_OPT_OPERAND)
            break;
        switch (id) {
        case OPT_RECORD: record = v; break;
        case OPT_LOG: log_path = v; break;
        case OPT_INTERVAL:
            if (p.number < 50 || p.number > 3600000)
                return hr_opt_bad_value(&p, v, HR_T("between 50 and 3600000 milliseconds"));
            interval = (int64_t)p.number;
            break;
        case OPT_LIMIT:
            if (p.size < 16 * HR_MIB)
                return hr_opt_bad_value(&p, v, HR_T("at least 16M"));
            limit = p.size;
            break;
        case OPT_NO_CGROUP: no_cgroup = true; break;
        case OPT_COMFYUI: comfyui = v; break;
        case OPT_PROTECT: protect = true; break;
        case OPT_COMFYUI_WAIT:
            if (p.number < 1 || p.number > 86400)
                return hr_opt_bad_value(&p, v, HR_T("between 1 and 86400 seconds"));
            comfyui_wait = (int64_t)p.number;
            break;
        default: break;
        }
    }
    int cargc = 0;
    char **cargv = hr_optparse_rest(&p, &cargc);
    if (cargc == 0 || !cargv) {
        hr_cli_error(HR_T("run: no command given (headroom run [options] -- COMMAND [ARGS...])"));
        return HR_EXIT_USAGE;
    }
    if (no_cgroup && limit) {
        hr_cli_error(HR_T("run: --limit needs the cgroup that --no-cgroup refuses"));
        return HR_EXIT_USAGE;
    }
    /* argv for the child, NULL-terminated */
    char **child_argv = calloc((size_t)cargc + 1, sizeof *child_argv);
    run_ctx *r = calloc(1, sizeof *r);
    hr_diag_ctx *diag = malloc(sizeof *diag);
    hr_textdec *dec = malloc(sizeof *dec);
    hr_monitor *mon = malloc(sizeof *mon);
    if (!child_argv || !r || !diag || !dec || !mon) {
        hr_cli_error("run: %s", hr_strerror(HR_ENOMEM));
        free(child_argv), free(r), free(diag), free(dec), free(mon);
        return HR_EXIT_FAILURE;
    }
    for (int i = 0; i < cargc; i++)
        child_argv[i] = cargv[i];
    int rc = HR_EXIT_OK;
    hr_error err = { 0 };
    if (hr_diag_init(diag, &err) < 0) {
        hr_cli_error("run: %s", err.msg);
        free(child_argv), free(r), free(diag), free(dec), free(mon);
        return HR_EXIT_FAILURE;
    }
    hr_diag_begin_input(diag, "output");
    hr_textdec_init(dec, on_segment, diag);
    r->diag = diag;
    r->dec = dec;
    r->mon = mon;
    if (log_path) {
        r->log = hr_platform_output_open(log_path, &err);
        if (!r->log) {
            hr_cli_error(HR_T("run: cannot create the log: %s"), err.msg);
            hr_diag_free(diag);
            free(child_argv), free(r), free(diag), free(dec), free(mon);
            return hr_cli_output_exit(err.code);
        }
    }

    /* the recording too is opened before the child starts: a refused one starts nothing */
    FILE *rec_file = NULL;
    if (record && !(rec_file = hr_platform_output_open(record, &err))) {
        hr_cli_error(HR_T("%s: cannot create the recording: %s"), "run", err.msg);
        if (r->log)
            fclose(r->log);
        hr_diag_free(diag);
        free(child_argv), free(r), free(diag), free(dec), free(mon);
        return hr_cli_output_exit(err.code);
    }

    hr_child *child = NULL;
    char note[512];
    hr_child_opts co = { .argv = child_argv, .own_cgroup = !no_cgroup, .limit_bytes = limit };
    int sr = hr_child_start(&co, &child, note, sizeof note, &err);
    if (sr < 0) {
        hr_cli_error("%s", err.msg[0] ? err.msg : hr_strerror(sr));
        rc = sr == HR_ENOENT || sr == HR_EIO ? 127 : hr_exit_from_error(sr);
        goto out_nochild;
    }
    hr_child_catch_signals(child);
    if (!no_cgroup && note[0]) {
        char line[768];
        snprintf(line, sizeof line,
                 HR_T("headroom run: no memory cgroup of its own for the command (%s); "
                      "its oom_kill count will be the system's\n"),
                 note);
        hr_console_put(stderr, line, strlen(line), true);
    }

    hr_monitor_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.sampler.pid = hr_child_pid(child);
    mo.sampler.cgroup_dir = hr_child_cgroup(child);
    mo.sampler.job = hr_child_job(child);
    mo.view = HR_MON_QUIET;
    mo.journal = hr_console_journal(stderr);
    mo.record = record;
    mo.record_file = rec_file;
    mo.mode = "run";
    mo.interval_ms = interval;
    mo.argc = cargc;
    mo.argv = child_argv;
    char url[HR_NET_HOST_MAX + 64];
    if (protect && !comfyui)
        comfyui = "http://127.0.0.1:8188";
    if (comfyui) {
        hr_comfy_url_text(comfyui, url, sizeof url);
        mo.comfyui = url;
    }
    rc = hr_monitor_open(mon, &mo);
    if (rc != 0) {
        /* the child is running already: let it run, unwatched, and pass its output on */
        mon->sampler = NULL;
        if (rec_file)
            fclose(rec_file); /* not taken: the sampler failed first */
    } else if (comfyui) {
        hr_comfy_link *link = malloc(sizeof *link);
        if (link && hr_comfy_link_open(link, mon, url, protect, "run", interval) == 0) {
            r->link = link;
            hr_comfy_link_attach(link, mon);
            hr_comfy_link_await(link, comfyui_wait * 1000);
        } else {
            free(link);
        }
    }
    int64_t next = hr_platform_mono_ms();
    for (;;) {
        int64_t now = hr_platform_mono_ms();
        if (rc == 0 && now >= next) {
            hr_monitor_step(mon);
            next += interval;
            if (next < now)
                next = now + interval;
        }
        /* memory pressure appearing (the sampler's PSI trigger, as under watch) ends the
         * wait early: sample now, and keep the cadence from there */
        int pr = hr_child_pump(child, rc == 0 ? next - hr_platform_mono_ms() : 1000, rc == 0 ? mon->sampler : NULL,
                               on_output, r);
        if (pr == 2) {
            next = hr_platform_mono_ms();
            continue;
        }
        if (pr != 0)
            break;
    }
    for (int st = 1; st <= 2; st++)
        line_done(r, st);
    hr_textdec_finish(dec);
    hr_diag_end_input(diag, hr_textdec_encoding_name(dec), r->bytes[1] + r->bytes[2], hr_textdec_lines(dec), 0);
    hr_diag_finish(diag);

    hr_child_exit ce;
    hr_child_result(child, &ce);
    hr_run_end end = { .exited = ce.exited,
                       .code = ce.code,
                       .signal = ce.signal,
                       .pid = hr_child_pid(child),
                       .oom_kill = ce.oom_kill,
                       .cg_peak = ce.peak };
    int child_rc = ce.exited ? ce.code : 128 + ce.signal;
    if (rc == 0) {
        /* a ComfyUI that never answered: said plainly, and not an exit status of 0 */
        if (r->link && hr_comfy_link_never_up(r->link) && child_rc == 0)
            child_rc = HR_EXIT_UNAVAILABLE;
        if (r->link) {
            /* the server ended with the child: nothing more to ask it */
            hr_comfy_link_close(r->link);
            if (!r->link->abandoned)
                free(r->link); /* else its thread still uses it: the process's end frees it */
            r->link = NULL;
            mon->after = NULL;
            mon->after_ctx = NULL;
        }
        hr_monitor_step(mon); /* the state right after the end */
        /* the OS's records over the run, when a signal ended it */
        hr_diag_ctx *sys = NULL;
        if (!ce.exited) {
            sys = malloc(sizeof *sys);
            if (sys && hr_diag_init(sys, &err) == 0) {
                hr_probe_opts po = { .sysroot = "/" };
                int64_t since = (ce.end_wall_ms - ce.start_wall_ms) / 1000 + 10;
                (void)hr_platform_oom_evidence(&po, since, sys, &err);
                hr_diag_finish(sys);
            } else {
                free(sys);
                sys = NULL;
            }
        }
        hr_run_verdict *vd = malloc(sizeof *vd);
        if (vd) {
            hr_run_verdict_make(diag, sys, &end, &mon->w, vd);
            hr_strlcpy(vd->node, r->node, sizeof vd->node);
            if (strcmp(vd->cause, "killed") == 0 || strcmp(vd->cause, "host-oom") == 0 ||
                strcmp(vd->cause, "low-virtual-memory") == 0 || vd->warned_before)
                advice(vd, mon, &end);
            int64_t t = hr_platform_mono_ms(), wall = hr_platform_wall_ms();
            hr_buf_reset(&mon->rec_line);
            hr_rec_exit_line(&mon->rec_line, mon->t0, t, wall, &end);
            hr_monitor_record(mon, &mon->rec_line);
            hr_buf_reset(&mon->rec_line);
            hr_rec_verdict_line(&mon->rec_line, mon->t0, t, wall, vd, &mon->w);
            hr_monitor_record(mon, &mon->rec_line);
            hr_buf_reset(&mon->line);
            hr_buf_putc(&mon->line, '\n');
            hr_run_verdict_text(&mon->line, vd, &end, &mon->w);
            fflush(stdout);
            hr_console_put(stderr, hr_buf_str(&mon->line), mon->line.len, true);
            free(vd);
        }
        if (sys) {
            hr_diag_free(sys);
            free(sys);
        }
        int mr = hr_monitor_close(mon, false);
        rc = mr ? mr : child_rc;
    } else {
        rc = child_rc;
    }
    hr_child_close(child);
out_nochild:
    if (rec_file && !child)
        fclose(rec_file);
    if (r->log) {
        if (fclose(r->log) != 0)
            r->log_error = true;
        if (r->log_error) {
            hr_cli_error(HR_T("run: the log %s could not be written"), log_path);
            if (rc == 0)
                rc = HR_EXIT_IOERR;
        }
    }
    hr_diag_free(diag);
    free(child_argv), free(r), free(diag), free(dec), free(mon);
    return rc;
}
