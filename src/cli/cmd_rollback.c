/* headroom rollback — undo what apply changed, and only that. Dry run unless --yes.
 * docs/apply.md. */
#include "cli_util.h"
#include "commands.h"

#include "core/base/i18n.h"
#include "platform/platform.h"

#include <string.h>

#define ROLLBACK_LOCK_WAIT_S 30

enum { OPT_FSTAB = 1, OPT_STATE_DIR, OPT_YES };

static const hr_opt rollback_opts[] = {
    { OPT_FSTAB, "--fstab", HR_ARG_FILE, NULL, HR_N("Linux: the fstab (default: the one recorded by apply)"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_STATE_DIR, "--state-dir", HR_ARG_DIR, NULL, HR_N("where apply kept its state file and backups"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_YES, "--yes", HR_ARG_NONE, NULL, HR_N("do it (without it: print what would be done)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const rollback_examples[] = {
    "headroom rollback",
    "headroom rollback --yes",
    NULL,
};

const hr_cmd_spec hr_spec_rollback = {
    .name = "rollback",
    .synopsis = "[options]",
    .summary = HR_N("Undo what 'headroom apply' changed, and only that: Windows: the paging "
                    "file settings from the backup, byte for byte; Linux: turns off and deletes "
                    "the swap files headroom created and gives fstab back its bytes. Finishes a "
                    "rollback or apply that was cut short."),
    .groups = { rollback_opts },
    .examples = rollback_examples,
    .exits = HR_N("0 done, dry run or nothing to undo; 64 usage; 65 bad state file; 70 a step "
                  "failed; 75 another run holds the lock; 77 needs admin/root"),
    .doc = "docs/apply.md",
};

int hr_cmd_rollback(int argc, char **argv)
{
    hr_apply_request rq = { 0 };
    bool yes = false;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_rollback, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        switch (id) {
        case HR_OPT_STOP: return p.status;
        case OPT_FSTAB: rq.fstab_path = v; break;
        case OPT_STATE_DIR: rq.state_dir = v; break;
        case OPT_YES: yes = true; break;
        default: hr_cli_error("rollback: %s '%s'", HR_T("unexpected argument"), v ? v : ""); return HR_EXIT_USAGE;
        }
    }
    if (yes && !hr_platform_is_admin()) {
        hr_cli_error("rollback: %s", hr_platform_os() == HR_OS_WINDOWS
                                         ? HR_T("needs an elevated prompt (Run as administrator)")
                                         : HR_T("needs root: run it with sudo"));
        return HR_EXIT_NOPERM;
    }
    hr_error err = { 0 };
    if (yes) {
        int lr = hr_platform_lock(&rq, false, ROLLBACK_LOCK_WAIT_S, &err);
        if (lr < 0) {
            hr_cli_error("rollback: %s", err.msg);
            return hr_exit_from_error(lr);
        }
    }
    hr_buf log;
    hr_buf_init(&log, 0);
    if (!yes)
        hr_buf_printf(&log, "%s\n", HR_T("Dry run (add --yes to do it):"));
    int r = hr_platform_rollback(&rq, !yes, &log, &err);
    hr_platform_unlock();
    hr_cli_write(&log, HR_FORMAT_TEXT);
    hr_buf_free(&log);
    if (r < 0) {
        hr_cli_error("rollback: %s", err.msg[0] ? err.msg : hr_strerror(r));
        /* Each undo is journalled like apply's steps: what is left stays recorded. */
        if (yes)
            hr_cli_error("rollback: %s", HR_T("what is not undone yet is still recorded; run "
                                              "'headroom rollback --yes' again once the cause "
                                              "is fixed"));
        return hr_exit_from_error(r);
    }
    if (r == 1 && yes)
        hr_cli_print("%s\n", hr_platform_os() == HR_OS_WINDOWS
                                 ? HR_T("Restored. Reboot for Windows to use the old paging file "
                                        "configuration again.")
                                 : HR_T("Restored: what headroom changed is undone."));
    return HR_EXIT_OK;
}
