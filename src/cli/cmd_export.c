/* headroom export — the status snapshot and the check verdict as Prometheus metrics, to
 * stdout or as a file for node_exporter's / windows_exporter's textfile collector
 * (docs/export.md). The metrics are the check report rendered as Prometheus text. */
#include "cli_util.h"
#include "commands.h"
#include "console.h"
#include "plan_args.h"

#include "core/base/i18n.h"
#include "core/check/check.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_TEXTFILE = 40 };

/* node_exporter reads *.prom; a file half written must never be read: written beside it
 * under a unique name and renamed over it (hr_platform_output_replace). */
#define HR_EXPORT_FILE "headroom.prom"

static const hr_opt export_opts[] = {
    { OPT_TEXTFILE, "--textfile", HR_ARG_DIR, NULL,
      HR_N("write DIR/headroom.prom atomically (the textfile collector's directory) instead of "
           "printing"),
      NULL, HR_OPT_NONEMPTY },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const export_examples[] = {
    "headroom export",
    "headroom export --textfile /var/lib/prometheus/node-exporter --workload flux",
    "headroom export --textfile \"C:\\Program Files\\windows_exporter\\textfile_inputs\"",
    NULL,
};

const hr_cmd_spec hr_spec_export = {
    .name = "export",
    .synopsis = "[--textfile DIR] [what-if options]",
    .summary = HR_N("Prometheus metrics for fleet monitoring: commit charge, limit and peak, paging "
                    "file / swap sizes and use, VRAM, memory pressure, and the check verdict."),
    .groups = { export_opts, hr_plan_whatif_opts, hr_source_opts },
    .examples = export_examples,
    .exits = HR_N("0 the metrics were written (the verdict is a metric, not the exit status); "
                  "64 and up errors (docs/exit-status.md)"),
    .doc = "docs/export.md",
};

static int take(void *ctx, const hr_optparse *p, int id, const char *v)
{
    (void)p;
    if (id == OPT_TEXTFILE)
        *(const char **)ctx = v;
    return 0;
}

static int write_textfile(const char *dir, const hr_buf *out)
{
    char path[4096];
    size_t n = strlen(dir);
    bool sep = n > 0 && (dir[n - 1] == '/' || dir[n - 1] == '\\');
    int w = snprintf(path, sizeof path, "%s%s%s", dir, sep ? "" : "/", HR_EXPORT_FILE);
    if (w < 0 || (size_t)w >= sizeof path) {
        hr_cli_error("export: --textfile %s: %s", dir, HR_T("path too long"));
        return HR_EXIT_USAGE;
    }
    hr_error err = { 0 };
    int r = hr_platform_output_replace(path, out->data, out->len, &err);
    if (r < 0) {
        hr_cli_error("export: %s", err.msg[0] ? err.msg : hr_strerror(r));
        return hr_cli_output_exit(r);
    }
    return HR_EXIT_OK;
}

int hr_cmd_export(int argc, char **argv)
{
    const char *textfile = NULL;
    hr_plan_cli cli;
    hr_snapshot *snap;
    hr_plan *plan;
    int rc = hr_plan_args_run_extra(&hr_spec_export, argc, argv, take, &textfile, &cli, &snap, &plan);
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    hr_check *chk = malloc(sizeof *chk);
    if (!chk) {
        hr_cli_error("export: %s", hr_strerror(HR_ENOMEM));
        rc = hr_exit_from_error(HR_ENOMEM);
    } else {
        hr_check_compute(snap, &cli.in, plan, chk);
        hr_buf out;
        hr_buf_init(&out, 0);
        hr_render rd;
        hr_render_init(&rd, HR_FORMAT_PROMETHEUS, &out, false);
        hr_check_render(chk, &rd);
        if (!textfile) {
            hr_console_binary_stdout(); /* the format's lines end in "\n" alone */
            rc = hr_cli_emit_render("export", "metrics", &rd);
        } else {
            int e = hr_render_finish(&rd);
            rc = e ? hr_cli_emit("export", "metrics", e, &out, HR_FORMAT_PROMETHEUS) : write_textfile(textfile, &out);
        }
        hr_buf_free(&out);
    }
    free(chk);
    free(plan);
    free(snap);
    return rc;
}
