/* headroom — the what-if flags shared by `plan` and `check`, and getting the snapshot they
 * judge: the live machine, a replayed one (--sysroot / --replay), or none at all when the
 * flags describe another machine (--os windows on Linux). */
#ifndef HR_CLI_PLAN_ARGS_H
#define HR_CLI_PLAN_ARGS_H

#include "core/plan/plan.h"
#include "platform/platform.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct hr_plan_cli {
    hr_plan_inputs in;
    hr_probe_opts probe;
    bool json;
    bool help;
} hr_plan_cli;

/* The option lines both commands print in their usage. */
void hr_plan_args_usage(FILE *f);

/* Parse argv[1..]; returns 0, or an exit status (64) after printing a one-line error. */
int hr_plan_args_parse(const char *cmd, int argc, char **argv, hr_plan_cli *out);

/* The snapshot to judge: *snap is NULL when the machine is hypothetical. Returns 0 or an
 * exit status after printing the error. The caller frees *snap. */
int hr_plan_args_snapshot(const char *cmd, const hr_plan_cli *cli, hr_snapshot **snap);

/* What both commands do first: parse argv, answer --help with usage(stdout), get the
 * snapshot. HR_PLAN_ARGS_GO: go on with *cli and *snap; else the exit status to return. */
#define HR_PLAN_ARGS_GO (-1)
int hr_plan_args_start(const char *cmd, int argc, char **argv, void (*usage)(FILE *f),
                       hr_plan_cli *cli, hr_snapshot **snap);

/* Compute the plan for cmd; on failure print "<cmd>: <why>" and return the exit status
 * (3 when a fact is missing and the user can give it), else HR_PLAN_ARGS_GO. */
int hr_plan_args_compute(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli, hr_plan *plan);

#endif
