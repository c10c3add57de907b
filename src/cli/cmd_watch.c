/* headroom watch — follow memory live and warn before the limit (docs/watch.md). */
#include "cli_util.h"
#include "comfy_link.h"
#include "commands.h"
#include "console.h"
#include "monitor.h"

#include "core/base/i18n.h"
#include "core/base/hot.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_PID = 1, OPT_NAME, OPT_INTERVAL, OPT_COUNT, OPT_JSON, OPT_RECORD, OPT_COMFYUI, OPT_PROTECT };

static const hr_opt watch_opts[] = {
    { OPT_PID, "--pid", HR_ARG_NUMBER, NULL, HR_N("follow process N and its children"), NULL, 0 },
    { OPT_NAME, "--name", HR_ARG_STRING, "PATTERN",
      HR_N("follow every process whose name or command line contains PATTERN, with its children"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_INTERVAL, "--interval", HR_ARG_NUMBER, "MS", HR_N("milliseconds between samples (default 1000, at least 50)"),
      NULL, 0 },
    { OPT_COUNT, "--count", HR_ARG_NUMBER, NULL, HR_N("stop after N samples (default: until Ctrl-C)"), NULL, 0 },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("write the recording's JSON lines to stdout (docs/recording.md)"),
      NULL, 0 },
    { OPT_RECORD, "--record", HR_ARG_FILE, NULL,
      HR_N("also write the recording to FILE as JSON lines (docs/recording.md)"), NULL, HR_OPT_NONEMPTY },
    { OPT_COMFYUI, "--comfyui", HR_ARG_STRING, "URL",
      HR_N("follow the ComfyUI server at URL (http://127.0.0.1:8188, or only the port or "
           "host:port): its devices, the running prompt, and which node or model load the "
           "memory grew under"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_PROTECT, "--protect", HR_ARG_NONE, NULL,
      HR_N("when the limit is near, ask ComfyUI to free memory (POST /free), and interrupt the "
           "prompt (POST /interrupt) when memory still climbs; implies --comfyui "
           "http://127.0.0.1:8188 when not given"),
      NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const watch_examples[] = {
    "headroom watch",
    "headroom watch --name main.py --record run.jsonl",
    "headroom watch --count 10 --json",
    "headroom watch --comfyui http://127.0.0.1:8188 --protect",
    NULL,
};

const hr_cmd_spec hr_spec_watch = {
    .name = "watch",
    .synopsis = "[options]",
    .summary = HR_N("Follow RAM, swap / paging file, commit, paging activity, the paging disk, "
                    "memory pressure and a process tree live, and warn before the limit: the "
                    "seed's test [S2.3], commit at 85 and 95 percent of its limit, a memory cgroup "
                    "near its limit, and the time left at the recent rate."),
    .groups = { watch_opts },
    .examples = watch_examples,
    .exits = HR_N("0 stopped after --count samples or Ctrl-C; 64 and up errors"),
    .doc = "docs/watch.md",
};

static volatile int stop;

HR_HOT int hr_cmd_watch(int argc, char **argv)
{
    hr_monitor_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.sampler.pid = -1;
    mo.mode = "watch";
    mo.interval_ms = 1000;
    uint64_t count = 0;
    bool json = false, protect = false;
    const char *comfyui = NULL;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_watch, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        switch (id) {
        case OPT_PID:
            if (p.number == 0 || p.number > INT32_MAX)
                return hr_opt_bad_value(&p, v, HR_T("not a process id"));
            mo.sampler.pid = (int64_t)p.number;
            break;
        case OPT_NAME: mo.sampler.name = v; break;
        case OPT_INTERVAL:
            if (p.number < 50 || p.number > 3600000)
                return hr_opt_bad_value(&p, v, HR_T("between 50 and 3600000 milliseconds"));
            mo.interval_ms = (int64_t)p.number;
            break;
        case OPT_COUNT: count = p.number; break;
        case OPT_JSON: json = true; break;
        case OPT_RECORD: mo.record = v; break;
        case OPT_COMFYUI: comfyui = v; break;
        case OPT_PROTECT: protect = true; break;
        default: break;
        }
    }
    if (mo.sampler.pid > 0 && mo.sampler.name) {
        hr_cli_error(HR_T("watch: --pid and --name: choose one"));
        return HR_EXIT_USAGE;
    }
    /* under systemd with the journal behind stderr (a service): the events alone, one line
     * each with its priority, not a line per second */
    mo.journal = hr_console_journal(stderr);
    mo.view = json ? HR_MON_JSON : mo.journal ? HR_MON_QUIET : hr_cli_stdout_is_tty() ? HR_MON_PANEL : HR_MON_LINES;
    char url[HR_NET_HOST_MAX + 64];
    if (protect && !comfyui)
        comfyui = "http://127.0.0.1:8188";
    if (comfyui) {
        hr_comfy_url_text(comfyui, url, sizeof url);
        mo.comfyui = url;
    }

    hr_monitor m;
    hr_comfy_link *link = NULL;
    if (mo.comfyui) {
        link = malloc(sizeof *link);
        if (!link) {
            hr_cli_error("watch: %s", hr_strerror(HR_ENOMEM));
            return HR_EXIT_FAILURE;
        }
        int lr = hr_comfy_link_open(link, &m, mo.comfyui, protect, "watch", mo.interval_ms);
        if (lr != 0) {
            free(link);
            return lr;
        }
    }
    int rc = hr_monitor_open(&m, &mo);
    if (rc != 0) {
        if (link)
            hr_comfy_link_close(link);
        free(link);
        return rc;
    }
    if (link)
        hr_comfy_link_attach(link, &m);
    (void)hr_platform_lock_memory();
    hr_platform_catch_stop(&stop);
    int64_t next = hr_platform_mono_ms();
    int matched = -1; /* --name: did the last sample find a process (-1: not told yet) */
    for (uint64_t n = 0; !stop && (count == 0 || n < count); n++) {
        hr_monitor_step(&m);
        if (mo.sampler.name && (matched == -1 || (m.last.proc_count > 0) != (matched == 1))) {
            /* A pattern that matches nothing would leave the process columns empty with no
             * word why: say so, and say when a match appears (or goes). */
            char say[400];
            if (m.last.proc_count > 0)
                snprintf(say, sizeof say, HR_T("--name '%s' matches now (processes: %lld)"), mo.sampler.name,
                         (long long)m.last.proc_count);
            else
                snprintf(say, sizeof say,
                         HR_T("--name '%s' matches no process (name or command line): "
                              "only the machine is watched until one starts"),
                         mo.sampler.name);
            if (matched != -1 || m.last.proc_count <= 0)
                hr_monitor_say(&m, json, say);
            matched = m.last.proc_count > 0;
        }
        if (m.write_error || (count && n + 1 >= count))
            break;
        next += mo.interval_ms;
        int64_t now = hr_platform_mono_ms();
        if (next < now)
            next = now; /* late (the machine thrashes): keep the cadence from here */
        /* memory pressure appearing (a PSI trigger) ends the wait early: sample now, and keep
         * the cadence from there. --comfyui's link runs on its own thread: nothing here waits
         * for the network, and a signal ends the wait at once */
        while (!stop && (now = hr_platform_mono_ms()) < next) {
            if (hr_sampler_wait(m.sampler, next - now) > 0) {
                next = hr_platform_mono_ms();
                break;
            }
        }
    }
    if (link)
        hr_comfy_link_close(link);
    rc = hr_monitor_close(&m, true);
    if (link && !link->abandoned)
        free(link); /* else its thread still uses it: the process's end frees it */
    return rc;
}
