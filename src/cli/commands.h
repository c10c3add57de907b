/* headroom — the CLI's command table. One file per command (cmd_<name>.c), each with its
 * option table and help page (an hr_cmd_spec), registered in commands.c. */
#ifndef HR_CLI_COMMANDS_H
#define HR_CLI_COMMANDS_H

#include "exit_status.h"
#include "options.h"

typedef struct hr_command {
    const char *name;
    const char *summary;               /* one line for `headroom --help` (HR_N) */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const hr_cmd_spec *spec;           /* its options and help page; NULL: not converted yet */
} hr_command;

extern const hr_cmd_spec hr_spec_status;
extern const hr_cmd_spec hr_spec_plan;
extern const hr_cmd_spec hr_spec_check;
extern const hr_cmd_spec hr_spec_apply;
extern const hr_cmd_spec hr_spec_rollback;
extern const hr_cmd_spec hr_spec_verify;
extern const hr_cmd_spec hr_spec_watch;
extern const hr_cmd_spec hr_spec_run;
extern const hr_cmd_spec hr_spec_diagnose;
extern const hr_cmd_spec hr_spec_export;
extern const hr_cmd_spec hr_spec_report;
extern const hr_cmd_spec hr_spec_stress;
extern const hr_cmd_spec hr_spec_models;
extern const hr_cmd_spec hr_spec_estimate;
extern const hr_cmd_spec hr_spec_workflow;

int hr_cmd_status(int argc, char **argv);
int hr_cmd_plan(int argc, char **argv);
int hr_cmd_check(int argc, char **argv);
int hr_cmd_apply(int argc, char **argv);
int hr_cmd_rollback(int argc, char **argv);
int hr_cmd_verify(int argc, char **argv);
int hr_cmd_diagnose(int argc, char **argv);
int hr_cmd_watch(int argc, char **argv);
int hr_cmd_run(int argc, char **argv);
int hr_cmd_export(int argc, char **argv);
int hr_cmd_report(int argc, char **argv);
int hr_cmd_stress(int argc, char **argv);
int hr_cmd_models(int argc, char **argv);
int hr_cmd_estimate(int argc, char **argv);
int hr_cmd_workflow(int argc, char **argv);

/* NULL-terminated table in commands.c; the first entry is the default command. */
extern const hr_command hr_commands[];

/* The command of this name, or NULL. */
const hr_command *hr_command_find(const char *name);
/* The one command within two edits of name (a typo: "chek", "staus"), or NULL. */
const hr_command *hr_command_nearest(const char *name);

#endif
