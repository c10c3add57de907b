/* headroom — command-line entry: dispatch to one command file per command. The overview
 * (`headroom --help`) is generated from the command table, the global options and the exit
 * table, like every command's own page is from its option table. */
#include "cli_util.h"
#include "commands.h"
#include "console.h"
#include "docgen.h"

#include "core/base/i18n.h"
#include "core/base/wrap.h"
#include "core/base/text.h"
#include "core/base/hot.h"

#include <stdio.h>
#include <string.h>

/* The overview, text for people: in a Windows file the console's code page (hr_cli_put_page). */
static int usage(void)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_buf_printf(&b, "headroom %s — %s\n\n%s%sheadroom [<command>] [%s]\n\n%s\n", HR_VERSION,
                  hr_tr("make sure a ComfyUI run never dies for lack of memory"), hr_tr("usage"), HR_T(": "),
                  hr_tr("options"), hr_tr("commands:"));
    for (const hr_command *c = hr_commands; c->name; c++)
        hr_buf_printf(&b, "  %-10s %s\n", c->name, hr_tr(c->summary));
    hr_buf_printf(&b, "\n%s\n", hr_tr("options of every command:"));
    for (const hr_opt *o = hr_global_opts; o->name; o++) {
        char head[64];
        if (o->arg == HR_ARG_NONE)
            snprintf(head, sizeof head, "%s", o->name);
        else
            snprintf(head, sizeof head, "%s %s", o->name, hr_opt_metavar(o));
        hr_buf_printf(&b, "  %-22s %s\n", head, hr_tr(o->help));
    }
    hr_buf_printf(&b, "  %-22s %s\n", "--version", hr_tr("print the version (headroom --version)"));
    hr_buf_printf(&b, "\n%s\n", hr_tr("exit status (docs/exit-status.md):"));
#define HR_X_EXIT(name, value, meaning) hr_buf_printf(&b, "  %3d  %s\n", value, hr_tr(meaning));
    HR_EXIT_TABLE(HR_X_EXIT)
#undef HR_X_EXIT
    hr_buf_printf(&b, "\n%s\n",
                  hr_tr("headroom <command> --help shows a command's options; headroom with no "
                        "command runs check."));
    return hr_cli_put_page(stdout, &b, true);
}

/* The man page and the completions are files for man(1), bash and zsh, which read UTF-8 with
 * bare line feeds on every OS (on Windows: Git Bash, MSYS2, WSL): the same bytes everywhere,
 * never the console's code page nor "\r\n" (docs/windows.md#console). */
static int generated(hr_buf *b)
{
    hr_console_binary_stdout();
    return hr_cli_put_page(stdout, b, false);
}

HR_START static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0
#ifdef _WIN32
           || strcmp(a, "/?") == 0
#endif
        ;
}

/* A global option before the command (`headroom --lang zh status`): how many arguments it
 * takes (0: none there, or a value the command's parser will refuse). The language itself is
 * set by hr_optparse_scan_lang(), the one place that reads --lang. */
HR_START static int take_leading_lang(int argc, char **argv)
{
    int used = 0;
    const char *v = NULL;
    if (argc >= 2 && strncmp(argv[1], "--lang=", 7) == 0) {
        v = argv[1] + 7;
        used = 1;
    } else if (argc >= 3 && strcmp(argv[1], "--lang") == 0) {
        v = argv[2];
        used = 2;
    }
    if (!v || (!hr_str_ieq(v, "en") && !hr_str_ieq(v, "zh"))) /* as the parser: any case */
        return 0;                                             /* not here: the command's parser reports it */
    hr_optparse_scan_lang(NULL, used + 1, argv, false);
    return used;
}

HR_START static int run(int argc, char **argv)
{
    int skip = take_leading_lang(argc, argv);
    if (skip) {
        argv[skip] = argv[0];
        argc -= skip;
        argv += skip;
    }
    /* No command's parser will run for the overview, the generated pages or an unknown
     * command: their messages take --lang from anywhere on the line here. */
    if (argc >= 2 && argv[1][0] != '\0' && !hr_command_find(argv[1]) &&
        (argv[1][0] != '-' || is_help(argv[1]) || strcmp(argv[1], "--completion") == 0))
        hr_optparse_scan_lang(NULL, argc, argv, false);
    if (argc >= 2 && is_help(argv[1])) {
        /* `headroom help plan`: that command's page. */
        const hr_command *c = argc >= 3 ? hr_command_find(argv[2]) : NULL;
        return c && c->spec ? hr_cmd_help(c->spec, stdout) : usage();
    }
    /* Hidden: the man page and shell completions, generated from the option tables. */
    if (argc >= 2 && strcmp(argv[1], "--man") == 0) {
        hr_buf b;
        hr_buf_init(&b, 0);
        hr_docgen_man(&b);
        return generated(&b);
    }
    if (argc >= 2 && strcmp(argv[1], "--completion") == 0) {
        hr_buf b;
        hr_buf_init(&b, 0);
        if (argc < 3 || hr_docgen_completion(argv[2], &b) != 0) {
            hr_buf_free(&b);
            hr_cli_error("--completion: %s", hr_tr("bash or zsh"));
            return HR_EXIT_USAGE;
        }
        return generated(&b);
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        hr_cli_print("headroom %s\n", HR_VERSION);
        return HR_EXIT_OK;
    }
    /* Double-clicked in Explorer (Windows): the window closes when we exit, so check also
     * writes its HTML report and offers to open it in the browser. */
    char page[1024];
    if (argc < 2 && hr_console_own_window() && hr_console_report_path(page, sizeof page)) {
        char name[32], opt[16];
        snprintf(name, sizeof name, "%s", hr_commands[0].name);
        snprintf(opt, sizeof opt, "--html");
        char *args[] = { name, opt, page, NULL };
        int rc = hr_commands[0].run(3, args);
        if (rc <= HR_EXIT_PARTIAL)
            hr_console_offer_open(page);
        return rc;
    }
    /* No command (or only options): the main job, the first command of the table. */
    const hr_command *def = &hr_commands[0];
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
    const hr_command *c = hr_command_find(argv[1]);
    if (!c) {
        const hr_command *near = hr_command_nearest(argv[1]);
        if (near)
            hr_cli_error(HR_T("unknown command '%s': did you mean '%s'? (try: headroom --help)"), argv[1], near->name);
        else
            hr_cli_error(HR_T("unknown command '%s' (try: headroom --help)"), argv[1]);
        return HR_EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    hr_console_start(&argc, &argv);
    hr_cli_choose_language();
    hr_console_check_env();
    int rc = run(argc, argv);
    /* Output written with no report of its own (help pages, the man page, --version) fails
     * late, at the flush: a full disk or a closed pipe is an error however the command ended. */
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc != HR_EXIT_IOERR) {
        hr_cli_error(HR_T("cannot write to standard output"));
        rc = hr_exit_from_error(HR_EIO);
    }
    hr_console_end(rc);
    return rc;
}
