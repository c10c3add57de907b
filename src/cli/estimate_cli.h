/* headroom — the estimate's options and run, shared by `estimate` and plan/check's
 * --workflow (ids 40 to 59 are theirs). */
#ifndef HR_CLI_ESTIMATE_CLI_H
#define HR_CLI_ESTIMATE_CLI_H

#include "options.h"

#include "core/estimate/estimate_workflow.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

extern const hr_opt hr_estimate_opts[]; /* --comfyui --ram --vram --vram-used --os --gpu --comfy-args
                                        * --comfyui-version --comfyui-date */

typedef struct hr_est_cli {
    const char *comfyui;
    uint64_t ram, vram, vram_used;
    bool vram_given, vram_used_given;
    int os;  /* -1, 0 linux, 1 windows, 2 macos, 3 wsl (Linux in WSL2) */
    int gpu; /* -1 or hr_est_vendor */
    hr_comfy_args args;
    int version[3];
    bool version_given;
    hr_est_commit commit; /* --comfyui-date; date 0 = not given */
} hr_est_cli;

void hr_est_cli_init(hr_est_cli *c);
/* --comfyui-version's value ("0.3.60", "v0.16"): 0 with out filled, or the exit status after
 * its one-line error (plan, check and export take the same flag). */
int hr_est_cli_parse_version(const hr_optparse *p, const char *v, int out[3]);
/* The one-line refusal of --comfyui-date without a version (estimate, plan, check, export). */
#define HR_EST_CLI_DATE_NEEDS_VERSION                                                                                  \
    HR_N("--comfyui-date needs the version the checkout names too (--comfyui-version, e.g. 0.3.76, or a ComfyUI "      \
         "folder with its comfyui_version.py)")
/* --comfyui-date's value ("2025-12-04", "2025-12-03 23:28:44 -0500"): 0 with *out filled, or
 * the exit status after its one-line error. */
int hr_est_cli_parse_date(const hr_optparse *p, const char *v, hr_est_commit *out);
/* Take an option of hr_estimate_opts: 0, an exit status after its error, or -1 when id is
 * not one of them. */
int hr_est_cli_take(hr_est_cli *c, const hr_optparse *p, int id, const char *v);
/* Read, parse and estimate workflow on snap (NULL: a what-if machine). 0, or the exit status
 * after a one-line error. */
int hr_est_cli_run(const char *cmd, const hr_est_cli *c, const char *workflow, const hr_snapshot *snap,
                   hr_estimate *out, hr_est_wf_result *res);
/* The same for a prompt of a server's GET /history (hr_workflow_history_each), labelled
 * "prompt <id>" in out->workflow; wf's contents are taken. bound: the most that prompt can
 * need (X.serverneed, hr_est_server_bound). 0, or the exit status after a one-line error. */
int hr_est_cli_run_prompt(const char *cmd, const hr_est_cli *c, hr_workflow *wf, const char *prompt_id,
                          const hr_snapshot *snap, hr_estimate *out, hr_est_wf_result *res, uint64_t *bound);

/* The same for the workflow a named workload stands for (hr_est_sample_workflow), with the
 * catalog's models; HR_ENOENT for a name that has none. */
int hr_est_cli_run_sample(const char *cmd, const hr_est_cli *c, const char *workload, const hr_snapshot *snap,
                          hr_estimate *out, hr_est_wf_result *res);

#endif
