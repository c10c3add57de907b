#include "commands.h"

#include <stddef.h>

const hr_command hr_commands[] = {
    {"status", "show the three memory tiers and every paging file / swap area", hr_cmd_status},
    {"diagnose", "say why a run died: GPU memory, RAM + paging file, or killed by the OS", hr_cmd_diagnose},
    {NULL, NULL, NULL},
};
