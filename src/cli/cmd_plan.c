/* headroom plan — how much paging file / swap, where, and the exact steps. Changes nothing. */
#include "cli_util.h"
#include "commands.h"
#include "plan_args.h"

#include "core/base/json_writer.h"
#include "core/plan/plan.h"

#include <stdlib.h>

static void plan_usage(FILE *f)
{
    fputs("usage: headroom plan [what-if flags] [--json]\n"
          "Says how much paging file (Windows) / swap (Linux), where, fixed or as a range, what to\n"
          "remove and what else to change, each with its reason and rule (docs/plan.md).\n"
          "It never changes anything.\n\n",
          f);
    hr_plan_args_usage(f);
    fputs("exit status: 0 plan printed; 3 the RAM size could not be read (give --ram); 64 bad command\n"
          "line; 66 --sysroot/--replay missing; 70 failure\n", f);
}

int hr_cmd_plan(int argc, char **argv)
{
    hr_plan_cli cli;
    hr_snapshot *snap;
    int rc = hr_plan_args_start("plan", argc, argv, plan_usage, &cli, &snap);
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    hr_plan *plan = malloc(sizeof *plan);
    if (!plan) {
        free(snap);
        hr_cli_error("plan: out of memory");
        return HR_EXIT_FAILURE;
    }
    rc = hr_plan_args_compute("plan", snap, &cli, plan);
    if (rc != HR_PLAN_ARGS_GO) {
        free(plan);
        free(snap);
        return rc;
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    int w;
    if (cli.json) {
        hr_json_writer jw;
        hr_json_init(&jw, &out, true);
        hr_plan_json(plan, &jw, NULL);
        w = hr_json_finish(&jw);
    } else {
        w = hr_plan_text(plan, &out);
    }
    rc = hr_cli_emit("plan", "plan", w, &out);
    hr_buf_free(&out);
    free(plan);
    free(snap);
    return rc;
}
