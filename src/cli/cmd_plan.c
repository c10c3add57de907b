/* headroom plan — how much paging file / swap, where, and the exact steps. Changes nothing. */
#include "cli_util.h"
#include "commands.h"
#include "plan_args.h"

#include "core/base/i18n.h"
#include "core/plan/plan.h"

#include <stdlib.h>

static const char *const plan_examples[] = {
    "headroom plan",
    "headroom plan --workload video --vram 8G",
    "headroom plan --ram 16G --vram 8G --workload sdxl --os windows --json",
    NULL,
};

const hr_cmd_spec hr_spec_plan = {
    .name = "plan",
    .synopsis = "[what-if options] [--json]",
    .summary = HR_N("Say how much paging file (Windows) / swap (Linux), where, fixed or as a range, what "
                    "to remove and what else to change, each with its reason and rule. It never changes "
                    "anything; every what-if option overrides what was read from the machine."),
    .groups = { hr_plan_whatif_opts, hr_source_opts, hr_plan_output_opts },
    .examples = plan_examples,
    .exits = HR_N("0 the plan is printed; 3 the RAM size could not be read (give --ram); 64 and up "
                  "errors (docs/exit-status.md)"),
    .doc = "docs/plan.md",
};

int hr_cmd_plan(int argc, char **argv)
{
    hr_plan_cli cli;
    hr_snapshot *snap;
    hr_plan *plan;
    int rc = hr_plan_args_run(&hr_spec_plan, argc, argv, &cli, &snap, &plan);
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, cli.json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
    hr_plan_render(plan, &rd);
    rc = hr_cli_emit_render("plan", "plan", &rd);
    hr_buf_free(&out);
    free(plan);
    free(snap);
    return rc;
}
