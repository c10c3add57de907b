/* headroom — command-line entry: dispatch to one command file per command. */
#include "cli_util.h"
#include "commands.h"
#include "console.h"

#include <stdio.h>
#include <string.h>


static void usage(FILE *f)
{
    fprintf(f, "headroom %s — make sure a ComfyUI run never dies for lack of memory\n\n"
               "usage: headroom <command> [options]\n\ncommands:\n", HR_VERSION);
    for (const hr_command *c = hr_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f, "\nheadroom <command> --help shows a command's options.\n"
               "Exit status: 0 ok; check/verify use 1 and 2 for their verdicts; 3 and up are errors "
               "(see docs/exit-status.md).\n");
}

static const hr_command *find(const char *name)
{
    for (const hr_command *c = hr_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static int run(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "help") == 0)) {
        usage(stdout);
        return HR_EXIT_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("headroom %s\n", HR_VERSION);
        return HR_EXIT_OK;
    }
    /* No command (or only options): the main job. */
    const hr_command *def = find("check");
    if (!def)
        def = find("status");
    if (argc < 2 || argv[1][0] == '-') {
        char *fallback[64], name[32];
        int n = 0;
        snprintf(name, sizeof name, "%s", def->name);
        fallback[n++] = name;
        for (int i = 1; i < argc && n < 63; i++)
            fallback[n++] = argv[i];
        fallback[n] = NULL;
        return def->run(n, fallback);
    }
    const hr_command *c = find(argv[1]);
    if (!c) {
        hr_cli_error("unknown command '%s' (try: headroom --help)", argv[1]);
        return HR_EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    hr_console_start(&argc, &argv);
    hr_cli_choose_language();
    int rc = run(argc, argv);
    hr_console_end(rc);
    return rc;
}
