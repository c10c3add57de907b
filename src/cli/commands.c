#include "commands.h"

#include <stddef.h>

const hr_command hr_commands[] = {
    {"status", "show the three memory tiers and every paging file / swap area", hr_cmd_status},
    {NULL, NULL, NULL},
};
