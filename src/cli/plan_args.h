/* headroom — the what-if flags shared by `plan` and `check` (one option table each group,
 * listed in both commands' specs), and getting the snapshot they judge: the live machine, a
 * recorded one (--sysroot / --replay), or none at all when the flags describe another machine
 * (--os windows on Linux). */
#ifndef HR_CLI_PLAN_ARGS_H
#define HR_CLI_PLAN_ARGS_H

#include "options.h"

#include "core/plan/plan.h"
#include "platform/platform.h"

#include <stdbool.h>

/* The option groups (ids 1 to 19 are theirs). */
extern const hr_opt hr_plan_whatif_opts[];    /* --ram --vram --os --workload --comfy-args ... */
extern const hr_opt hr_plan_machine_opts[];   /* --sysroot --replay --no-gpu */
extern const hr_opt hr_plan_output_opts[];    /* --json */

typedef struct hr_plan_cli {
    hr_plan_inputs in;
    hr_probe_opts probe;
    const char *replay;     /* --replay FILE, or NULL */
    bool json;
} hr_plan_cli;

/* What both commands do first. HR_PLAN_ARGS_GO: go on; else the exit status to return. */
#define HR_PLAN_ARGS_GO (-1)

/* Parse argv (argv[0] is the command) with spec, whose groups are the tables above; --help
 * prints the page generated from spec. HR_PLAN_ARGS_GO, or the exit status (0 after --help,
 * 64 after a one-line error). */
int hr_plan_args_parse(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_cli *out);

/* The snapshot to judge: *snap is NULL when the machine is hypothetical. HR_PLAN_ARGS_GO, or
 * the exit status after printing the error. The caller frees *snap. */
int hr_plan_args_snapshot(const char *cmd, const hr_plan_cli *cli, hr_snapshot **snap);

/* Compute the plan; on failure print "<cmd>: <why>" and return the exit status (3 when a
 * fact is missing and the user can give it), else HR_PLAN_ARGS_GO. */
int hr_plan_args_compute(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli,
                         hr_plan *plan);

#endif
