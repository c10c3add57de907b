/* headroom — the what-if flags shared by `plan` and `check` (one option table each group,
 * listed in both commands' specs), and getting the snapshot they judge: the live machine, a
 * recorded one (--sysroot / --replay), or none at all when the flags describe another machine
 * (--os windows on Linux). */
#ifndef HR_CLI_PLAN_ARGS_H
#define HR_CLI_PLAN_ARGS_H

#include "options.h"
#include "snapshot_source.h"

#include "core/plan/plan.h"

#include <stdbool.h>

/* The option groups (ids 1 to 19 are theirs); with hr_source_opts (--sysroot, --replay,
 * --no-gpu) they are the commands' whole table. */
extern const hr_opt hr_plan_whatif_opts[]; /* --ram --vram --os --workload --comfy-args ... */
extern const hr_opt hr_plan_output_opts[]; /* --json */
extern const hr_opt hr_plan_html_opts[];   /* --html FILE (check) */

typedef struct hr_plan_cli {
    hr_plan_inputs in;
    hr_source src;
    bool json;
    const char *html;     /* --html FILE, or NULL */
    const char *workflow; /* --workflow FILE, or NULL */
    const char *comfyui;  /* --comfyui DIR, or NULL */
    int gpu;              /* --gpu: an hr_est_vendor, or -1 */
    int version[3];       /* --comfyui-version */
    bool version_given;
    hr_est_commit commit; /* --comfyui-date; date 0 = not given */
    uint64_t vram_used;   /* --vram-used (for --workflow) */
    bool vram_used_given;
} hr_plan_cli;

/* What both commands do first. HR_PLAN_ARGS_GO: go on; else the exit status to return. */
#define HR_PLAN_ARGS_GO (-1)

/* Parse argv (argv[0] is the command) with spec, whose groups are the tables above; --help
 * prints the page generated from spec. HR_PLAN_ARGS_GO, or the exit status (0 after --help,
 * 64 after a one-line error). */
int hr_plan_args_parse(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_cli *out);

/* The start both commands share: parse argv, get the snapshot (*snap NULL when the machine
 * is hypothetical), compute the plan into a new *plan. HR_PLAN_ARGS_GO: go on (the caller
 * frees *snap and *plan); else the exit status to return, after printing the error (3 when a
 * fact is missing and the user can give it) — nothing is left to free. */
int hr_plan_args_run(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_cli *cli, hr_snapshot **snap,
                     hr_plan **plan);

/* hr_plan_args_run for a command with options of its own besides the shared tables (ids 40
 * to 89): extra(ctx, p, id, value) takes them and returns 0, or an exit status to stop
 * with (after its one-line error). */
typedef int (*hr_plan_args_extra)(void *ctx, const hr_optparse *p, int id, const char *value);
int hr_plan_args_run_extra(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_args_extra extra, void *ctx,
                           hr_plan_cli *cli, hr_snapshot **snap, hr_plan **plan);

#endif
