/* headroom check — the main job: status + plan as one verdict, exit 0/1/2 (docs/check.md). */
#include "cli_util.h"
#include "commands.h"
#include "plan_args.h"

#include "core/base/i18n.h"
#include "core/check/check.h"

#include <stdlib.h>

static const char *const check_examples[] = {
    "headroom",
    "headroom check --workload flux",
    "headroom check --workload video --comfy-args \"--lowvram\" --json",
    "headroom check --workload flux --html report.html",
    NULL,
};

const hr_cmd_spec hr_spec_check = {
    .name = "check",
    .synopsis = "[what-if options] [--json] [--html FILE]",
    .summary = HR_N("The verdict: the three tiers, what this machine can back against what the workload "
                    "needs at its peak, the one to three things to do, and the biggest other memory users."),
    .groups = { hr_plan_whatif_opts, hr_source_opts, hr_plan_output_opts, hr_plan_html_opts },
    .examples = check_examples,
    .exits = HR_N("0 OK; 1 AT RISK; 2 WILL FAIL; 3 cannot tell (what the machine can back is unknown); "
                  "64 and up errors (docs/exit-status.md)"),
    .doc = "docs/check.md",
};

/* The verdict is the exit status (the exit table's verdict rows). */
static int exit_for(hr_check_verdict v)
{
    switch (v) {
    case HR_VERDICT_OK: return HR_EXIT_OK;
    case HR_VERDICT_AT_RISK: return HR_EXIT_VERDICT_1;
    case HR_VERDICT_WILL_FAIL: return HR_EXIT_VERDICT_2;
    case HR_VERDICT_UNKNOWN: break;
    }
    return HR_EXIT_PARTIAL;
}

int hr_cmd_check(int argc, char **argv)
{
    hr_plan_cli cli;
    hr_snapshot *snap;
    hr_plan *plan;
    int rc = hr_plan_args_run(&hr_spec_check, argc, argv, &cli, &snap, &plan);
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    hr_check *chk = malloc(sizeof *chk);
    if (!chk) {
        hr_cli_error("check: %s", hr_strerror(HR_ENOMEM));
        rc = hr_exit_from_error(HR_ENOMEM);
    } else {
        hr_check_compute(snap, &cli.in, plan, chk);
        hr_buf out;
        hr_buf_init(&out, 0);
        hr_render rd;
        hr_render_init(&rd, cli.json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
        hr_check_render(chk, &rd);
        rc = hr_cli_emit_render("check", "report", &rd);
        if (rc == 0 && cli.html) {
            hr_buf page;
            hr_buf_init(&page, 0);
            hr_render hd;
            hr_render_init(&hd, HR_FORMAT_HTML, &page, false);
            hr_check_render(chk, &hd);
            rc = hr_cli_emit_file("check", "report", cli.html, &hd);
            hr_buf_free(&page);
        }
        if (rc == 0)
            rc = exit_for(chk->verdict);
        hr_buf_free(&out);
    }
    free(chk);
    free(plan);
    free(snap);
    return rc;
}
