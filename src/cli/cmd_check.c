/* headroom check — the main job: status + plan as one verdict, exit 0/1/2 (docs/check.md). */
#include "cli_util.h"
#include "commands.h"
#include "plan_args.h"

#include "core/check/check.h"
#include "core/base/json_writer.h"

#include <stdlib.h>

static void check_usage(FILE *f)
{
    fputs("usage: headroom check [what-if flags] [--json]      (also: headroom with no command)\n"
          "The three tiers, what this machine can back vs what the workload needs at its peak, a\n"
          "verdict, the one to three things to do, and the biggest other memory users (docs/check.md).\n\n",
          f);
    hr_plan_args_usage(f);
    fputs("exit status: 0 OK; 1 AT RISK; 2 WILL FAIL; 3 cannot tell (what the machine can back is\n"
          "unknown); 64 bad command line; 66 --sysroot/--replay missing; 70 failure\n",
          f);
}

int hr_cmd_check(int argc, char **argv)
{
    hr_plan_cli cli;
    hr_snapshot *snap;
    int rc = hr_plan_args_start("check", argc, argv, check_usage, &cli, &snap);
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    hr_plan *plan = malloc(sizeof *plan);
    hr_check *chk = malloc(sizeof *chk);
    if (!plan || !chk) {
        free(plan);
        free(chk);
        free(snap);
        hr_cli_error("check: out of memory");
        return HR_EXIT_FAILURE;
    }
    rc = hr_plan_args_compute("check", snap, &cli, plan);
    if (rc != HR_PLAN_ARGS_GO) {
        free(plan);
        free(chk);
        free(snap);
        return rc;
    }
    hr_check_compute(snap, &cli.in, plan, chk);

    hr_buf out;
    hr_buf_init(&out, 0);
    int w;
    if (cli.json) {
        hr_json_writer jw;
        hr_json_init(&jw, &out, true);
        hr_check_json(chk, snap, plan, &jw);
        w = hr_json_finish(&jw);
    } else {
        w = hr_check_text(chk, snap, plan, &out, hr_cli_stdout_is_tty());
    }
    rc = hr_cli_emit("check", "report", w, &out);
    if (rc == 0)
        rc = (int)chk->verdict;   /* 0 OK, 1 AT RISK, 2 WILL FAIL, 3 cannot tell */
    hr_buf_free(&out);
    free(plan);
    free(chk);
    free(snap);
    return rc;
}
