#include "commands.h"

#include "core/base/i18n.h"
#include "core/base/hot.h"
#include "core/base/text.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

const hr_command hr_commands[] = {
    { "check", HR_N("the verdict: will a run fit? what to do (the default command)"), hr_cmd_check, &hr_spec_check },
    { "status", HR_N("show the three memory tiers and every paging file / swap area"), hr_cmd_status, &hr_spec_status },
    { "plan", HR_N("how much paging file / swap, where, and the exact steps (changes nothing)"), hr_cmd_plan,
      &hr_spec_plan },
    { "apply", HR_N("set the paging file / swap file safely (dry run unless --yes)"), hr_cmd_apply, &hr_spec_apply },
    { "rollback", HR_N("undo what apply changed (dry run unless --yes)"), hr_cmd_rollback, &hr_spec_rollback },
    { "verify", HR_N("compare the configured paging/swap with what is in use"), hr_cmd_verify, &hr_spec_verify },
    { "watch", HR_N("follow memory live and warn before the limit; name the node that grew"), hr_cmd_watch,
      &hr_spec_watch },
    { "run", HR_N("start ComfyUI (or any command), watch it, and say why it ended"), hr_cmd_run, &hr_spec_run },
    { "diagnose", HR_N("say why a run died: GPU memory, RAM + paging file, or killed by the OS"), hr_cmd_diagnose,
      &hr_spec_diagnose },
    { "export", HR_N("Prometheus metrics for node_exporter / windows_exporter textfile collectors"), hr_cmd_export,
      &hr_spec_export },
    { "report", HR_N("a watch/run recording as one HTML page: charts, warnings, the verdict and the plan"),
      hr_cmd_report, &hr_spec_report },
    { "stress", HR_N("commit (and touch) memory step by step to prove where the ceiling is"), hr_cmd_stress,
      &hr_spec_stress },
    { "models", HR_N("what each model file is and its exact bytes, from its header"), hr_cmd_models, &hr_spec_models },
    { "estimate", HR_N("simulate a workflow through VRAM, RAM and commit: the peak and the node causing it"),
      hr_cmd_estimate, &hr_spec_estimate },
    { "workflow", HR_N("what a ComfyUI workflow loads (resolved, with bytes), its latents and order"), hr_cmd_workflow,
      &hr_spec_workflow },
    { NULL, NULL, NULL, NULL },
};

HR_START const hr_command *hr_command_find(const char *name)
{
    for (const hr_command *c = hr_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const hr_command *hr_command_nearest(const char *name)
{
    const hr_command *best = NULL;
    unsigned best_d = 3;
    bool tie = false;
    for (const hr_command *c = hr_commands; c->name; c++) {
        unsigned d = hr_edit_distance(name, c->name, 2);
        if (d < best_d)
            best = c, best_d = d, tie = false;
        else if (d == best_d)
            tie = true;
    }
    return best && !tie ? best : NULL;
}
