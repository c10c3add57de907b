/* headroom — the CLI's command table. One file per command (cmd_<name>.c). */
#ifndef HR_CLI_COMMANDS_H
#define HR_CLI_COMMANDS_H

/* Exit statuses shared by all commands (docs/exit-status.md). Commands with verdicts
 * (check, verify) use 0/1/2 for them; errors are 3 and up everywhere. */
enum {
    HR_EXIT_OK = 0,
    HR_EXIT_PARTIAL = 3,    /* status: some sources unknown; the report is still printed */
    HR_EXIT_USAGE = 64,     /* bad command line */
    HR_EXIT_INPUT = 65,     /* bad input file */
    HR_EXIT_NOINPUT = 66,   /* input file or directory not found */
    HR_EXIT_FAILURE = 70    /* could not do the job */
};

typedef struct hr_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);   /* argv[0] is the command name */
} hr_command;

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
