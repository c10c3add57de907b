/* headroom — the CLI's command table. One file per command (cmd_<name>.c). */
#ifndef HR_CLI_COMMANDS_H
#define HR_CLI_COMMANDS_H

#include "exit_status.h"
#include "options.h"

typedef struct hr_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);   /* argv[0] is the command name */
    const hr_cmd_spec *spec;             /* its options and help page */
} hr_command;

extern const hr_cmd_spec hr_spec_status;

int hr_cmd_status(int argc, char **argv);
int hr_cmd_plan(int argc, char **argv);
int hr_cmd_check(int argc, char **argv);
int hr_cmd_apply(int argc, char **argv);
int hr_cmd_rollback(int argc, char **argv);
int hr_cmd_verify(int argc, char **argv);
int hr_cmd_diagnose(int argc, char **argv);

/* NULL-terminated table in commands.c. */
extern const hr_command hr_commands[];

#endif
