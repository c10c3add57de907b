/* headroom — one option table per command drives parsing, --help, the man page and the
 * shell completions, so the four can never disagree.
 *
 * A command declares its options (hr_opt) and its page (hr_cmd_spec) as static data and
 * walks argv with hr_optparse_next(). Every command also takes the global options
 * (--help/-h and, on Windows, /?; --lang en|zh). Option help is English, marked HR_N() so it
 * lands in the message catalogue, and translated when printed. */
#ifndef HR_CLI_OPTIONS_H
#define HR_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's value is: validated by the parser, and told to shell completion. */
typedef enum hr_arg {
    HR_ARG_NONE = 0, /* a flag */
    HR_ARG_STRING,   /* free text */
    HR_ARG_FILE,     /* a path to a file ("-" where the command reads stdin) */
    HR_ARG_DIR,      /* a path to a directory */
    HR_ARG_SIZE,     /* a size with a unit ("16G", "32768M"); parsed into p->size */
    HR_ARG_CHOICE,   /* one of opt->choices, case-insensitive; *value is the canonical one */
    HR_ARG_NUMBER,   /* a non-negative integer; parsed into p->number */
    HR_ARG_DURATION  /* "90s", "30m", "2h" */
} hr_arg;

enum {
    HR_OPT_NONEMPTY = 1u << 0, /* an empty value is an error */
    HR_OPT_HIDDEN = 1u << 1,   /* for tests: parsed, but not shown in help or completion */
    HR_OPT_SMALL_OK = 1u << 2  /* HR_ARG_SIZE: a size under 1 GB is normal here (--vram) */
};

typedef struct hr_opt {
    int id;           /* > 0, the command's own; unique within the command */
    const char *name; /* "--json"; NULL ends a table */
    hr_arg arg;
    const char *metavar;        /* the value's name in help: "SIZE", "FILE" (NULL: from arg) */
    const char *help;           /* one line, English, HR_N()-marked */
    const char *const *choices; /* HR_ARG_CHOICE: NULL-terminated list */
    unsigned flags;
} hr_opt;

#define HR_OPT_GROUPS 4

typedef struct hr_cmd_spec {
    const char *name;                    /* "status" */
    const char *synopsis;                /* after "headroom <name> ": "[options] [LOG...]" */
    const char *summary;                 /* one line: what the command does (HR_N) */
    const hr_opt *groups[HR_OPT_GROUPS]; /* option tables, NULL after the last */
    const char *operands;                /* help for operands ("LOG  a console log"); NULL: none taken */
    const char *const *examples;         /* NULL-terminated command lines, or NULL */
    const char *exits;                   /* what the exit statuses mean for this command (HR_N) */
    const char *doc;                     /* "docs/status.md" */
} hr_cmd_spec;

/* What hr_optparse_next() returns besides an option's id. */
enum {
    HR_OPT_END = 0,      /* no more arguments */
    HR_OPT_OPERAND = -1, /* *value is an operand (not an option) */
    HR_OPT_STOP = -2     /* stop and exit with p->status: help was printed (0) or an
                             * error was (64) */
};

typedef struct hr_optparse {
    const hr_cmd_spec *spec;
    int argc;
    char **argv;
    int i;                /* the next argv index */
    bool operands_only;   /* after "--" */
    bool stop_at_operand; /* `run`: the first operand starts the child's command line */
    bool lang_scanned;    /* --lang was looked for in the whole command line */
    int status;           /* with HR_OPT_STOP: the exit status */
    uint64_t size;        /* HR_ARG_SIZE: the value in bytes */
    uint64_t number;      /* HR_ARG_NUMBER */
    int64_t seconds;      /* HR_ARG_DURATION */
    const hr_opt *opt;    /* the option just returned */
} hr_optparse;

/* argv[0] is the command's name; parsing starts at argv[1]. */
void hr_optparse_init(hr_optparse *p, const hr_cmd_spec *spec, int argc, char **argv);

/* The next option (its id, *value its text or NULL for a flag), an operand, the end, or
 * HR_OPT_STOP. Errors are printed as one line: "headroom: <cmd>: <what is wrong>".
 * The first call looks for --lang in the whole command line (hr_optparse_scan_lang) before
 * parsing anything, so every message of the parse is in the language asked for, wherever
 * --lang stands. */
int hr_optparse_next(hr_optparse *p, const char **value);

/* The one place the language of a command line is decided: walk argv[1..] as the parser
 * will (an option's value is skipped, "--" ends the options, and with stop_at_operand so does
 * the first operand) and set the language of the last valid --lang en|zh / --lang=en|zh. An
 * invalid value is left for the parser to report. spec NULL: only the global options are
 * known (the overview, an unknown command). Without --lang the language stays as chosen from
 * the environment (hr_cli_choose_language). */
void hr_optparse_scan_lang(const hr_cmd_spec *spec, int argc, char **argv, bool stop_at_operand);

/* The arguments not yet parsed (after "--" or the first operand with stop_at_operand). */
char **hr_optparse_rest(hr_optparse *p, int *argc);

/* Print the command's help page (usage, summary, options, operands, examples, exits) to f,
 * stdout or stderr, as text for people (hr_cli_put_page). 0, or the exit status of a page that
 * could not be made; a failed write shows at exit, on stdout's error flag. */
int hr_cmd_help(const hr_cmd_spec *spec, FILE *f);

/* Report a bad value for an option that was parsed: "<cmd>: <name> <value>: <why>", and
 * return HR_EXIT_USAGE, for checks the command makes itself. */
int hr_opt_bad_value(const hr_optparse *p, const char *value, const char *why);

/* A size a user gave for paging, swap or a run (every HR_ARG_SIZE option but those marked
 * HR_OPT_SMALL_OK, and apply's --size): under 1 GB, one line on stderr says it cannot help a
 * ComfyUI run. The parse itself refuses a bare number ("did you mean 32768 MB (32 GB)?"). */
void hr_opt_size_note(const char *cmd, const char *name, const char *text, uint64_t bytes);

/* The global options every command takes (--help, --lang), for the man page and completion. */
extern const hr_opt hr_global_opts[];

/* The name shown for an option's value: its metavar, or one made from its kind. */
const char *hr_opt_metavar(const hr_opt *o);

#endif
