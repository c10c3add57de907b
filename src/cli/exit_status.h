/* headroom — exit statuses: the one table (docs/exit-status.md describes it; the test
 * cli.exit_table checks the two agree).
 *
 * Verdicts are 0, 1 and 2 (check: OK, AT RISK, WILL FAIL; verify: in use, waits for a
 * restart, disagrees; diagnose: a cause, nothing recognised); 3 is "cannot tell"; errors
 * follow BSD sysexits so that scripts can tell "the machine is at risk" from "headroom could
 * not answer". Every error maps from its HR_E* code here, nowhere else. */
#ifndef HR_CLI_EXIT_STATUS_H
#define HR_CLI_EXIT_STATUS_H

#include "core/base/i18n.h"

/* name, value, meaning (one line, shown by `headroom --help` and in the docs) */
#define HR_EXIT_TABLE(X)                                                                                               \
    X(HR_EXIT_OK, 0, HR_N("ok; check: OK; verify: configured = in use; diagnose: a cause found"))                      \
    X(HR_EXIT_VERDICT_1, 1,                                                                                            \
      HR_N("check: AT RISK; verify: a change waits for a restart; diagnose: nothing recognised"))                      \
    X(HR_EXIT_VERDICT_2, 2,                                                                                            \
      HR_N("check: WILL FAIL; verify: configured and in use disagree; stress: stopped before SIZE"))                   \
    X(HR_EXIT_PARTIAL, 3, HR_N("cannot tell: a fact is missing (status: some sources unknown)"))                       \
    X(HR_EXIT_USAGE, 64, HR_N("bad command line (unknown option, missing or ambiguous value)"))                        \
    X(HR_EXIT_INPUT, 65, HR_N("bad input data (malformed file, log, recording, registry value)"))                      \
    X(HR_EXIT_NOINPUT, 66, HR_N("an input file or directory does not exist"))                                          \
    X(HR_EXIT_UNAVAILABLE, 69, HR_N("refused as unsafe, or not possible on this machine"))                             \
    X(HR_EXIT_FAILURE, 70, HR_N("could not do the job (an OS call failed, out of memory)"))                            \
    X(HR_EXIT_CANTCREATE, 73, HR_N("cannot create an output file"))                                                    \
    X(HR_EXIT_IOERR, 74, HR_N("cannot write the output (disk full, closed pipe)"))                                     \
    X(HR_EXIT_TEMPFAIL, 75, HR_N("busy or interrupted: another run holds the lock, or a failpoint stopped it"))        \
    X(HR_EXIT_NOPERM, 77, HR_N("needs administrator (Windows) or root (Linux) rights"))

enum hr_exit_status {
#define HR_X_EXIT(name, value, meaning) name = value,
    HR_EXIT_TABLE(HR_X_EXIT)
#undef HR_X_EXIT
};

/* The exit status for a failure with this HR_E* code (negative); HR_EXIT_OK for 0. */
int hr_exit_from_error(int code);

/* The meaning of an exit status from the table, or NULL. */
const char *hr_exit_meaning(int status);

#endif
