#include "commands.h"

#include <stddef.h>

const hr_command hr_commands[] = {
    {"check", "the verdict: will a run fit? what to do (the default command)", hr_cmd_check, NULL},
    {"status", "show the three memory tiers and every paging file / swap area", hr_cmd_status, &hr_spec_status},
    {"plan", "how much paging file / swap, where, and the exact steps (changes nothing)", hr_cmd_plan, NULL},
    {"apply", "set the paging file / swap file safely (dry run unless --yes)", hr_cmd_apply, NULL},
    {"rollback", "undo what apply changed (dry run unless --yes)", hr_cmd_rollback, NULL},
    {"verify", "compare the configured paging/swap with what is in use", hr_cmd_verify, NULL},
    {"diagnose", "say why a run died: GPU memory, RAM + paging file, or killed by the OS", hr_cmd_diagnose, NULL},
    {NULL, NULL, NULL, NULL},
};
