/* headroom rollback — undo what apply changed, and only that. Dry run unless --yes.
 * docs/apply.md. */
#include "cli_util.h"
#include "commands.h"

#include "platform/platform.h"

#include <string.h>

static void rollback_usage(FILE *f)
{
    fputs("usage: headroom rollback [--fstab PATH] [--state-dir DIR] [--yes]\n"
          "  Restores what 'headroom apply' changed: Windows: the PagingFiles value from the\n"
          "  backup; Linux: turns off and deletes the swap files headroom created and gives\n"
          "  fstab back its bytes. Never touches a file headroom did not create.\n"
          "  --fstab PATH     Linux: the fstab (default: the one recorded by apply)\n"
          "  --state-dir DIR  where apply kept its state file and backups\n"
          "  --yes            do it (without it: print what would be done)\n"
          "exit status: 0 done, dry run or nothing to undo; 64 usage; 65 bad state file;\n"
          "             70 a step failed; 77 needs admin/root\n",
          f);
}

int hr_cmd_rollback(int argc, char **argv)
{
    hr_apply_request rq = {0};
    bool yes = false;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (hr_cli_is_help(argv[i])) {
            rollback_usage(stdout);
            return HR_EXIT_OK;
        } else if (strcmp(argv[i], "--yes") == 0) {
            yes = true;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "rollback", "--fstab", "a path", true,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            rq.fstab_path = v;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "rollback", "--state-dir", "a directory", true,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            rq.state_dir = v;
        } else {
            hr_cli_error("rollback: unknown option '%s'", argv[i]);
            rollback_usage(stderr);
            return HR_EXIT_USAGE;
        }
    }
    if (yes && !hr_platform_is_admin()) {
        hr_cli_error("rollback: needs %s", hr_platform_os() == HR_OS_WINDOWS
                                               ? "an elevated prompt (Run as administrator)"
                                               : "root: run it with sudo");
        return 77;
    }
    hr_buf log;
    hr_buf_init(&log, 0);
    hr_error err = {0};
    if (!yes)
        hr_buf_puts(&log, "Dry run (add --yes to do it):\n");
    int r = hr_platform_rollback(&rq, !yes, &log, &err);
    hr_cli_write(&log);
    hr_buf_free(&log);
    if (r < 0) {
        hr_cli_error("rollback: %s", err.msg[0] ? err.msg : hr_strerror(r));
        return r == HR_EPARSE ? HR_EXIT_INPUT : r == HR_EPERM || r == HR_EACCES ? 77
                                                                                : HR_EXIT_FAILURE;
    }
    if (yes && hr_platform_os() == HR_OS_WINDOWS)
        fputs("Restored. Reboot for Windows to use the old paging file configuration again.\n",
              stdout);
    return HR_EXIT_OK;
}
