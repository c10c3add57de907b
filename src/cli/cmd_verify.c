/* headroom verify — is what is configured what is in use? (S5.1) docs/apply.md. */
#include "cli_util.h"
#include "commands.h"

#include "core/base/i18n.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FSTAB = 1, OPT_STATE_DIR, OPT_JSON };

static const hr_opt verify_opts[] = {
    { OPT_FSTAB, "--fstab", HR_ARG_FILE, NULL, HR_N("Linux: the fstab to compare (default /etc/fstab); it must exist"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_STATE_DIR, "--state-dir", HR_ARG_DIR, NULL, HR_N("where apply kept its state file"), NULL, HR_OPT_NONEMPTY },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (schema headroom.verify/1)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const verify_examples[] = {
    "headroom verify",
    "headroom verify --json",
    NULL,
};

const hr_cmd_spec hr_spec_verify = {
    .name = "verify",
    .synopsis = "[options]",
    .summary = HR_N("Is what is configured what is in use? Linux: fstab swap lines vs "
                    "/proc/swaps; Windows: PagingFiles vs the paging files in use, a change "
                    "waiting for a restart, a temporary paging file. Reports an apply or "
                    "rollback that was cut short, with the command that finishes it."),
    .groups = { verify_opts },
    .examples = verify_examples,
    .exits = HR_N("0 configured = in use; 1 a change waits for a restart; 2 they disagree; "
                  "64 usage; 65 bad input file; 66 an input file does not exist; 70 could not "
                  "read the facts"),
    .doc = "docs/apply.md",
};

int hr_cmd_verify(int argc, char **argv)
{
    hr_apply_request rq = { 0 };
    bool json = false;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_verify, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        switch (id) {
        case HR_OPT_STOP: return p.status;
        case OPT_FSTAB: rq.fstab_path = v; break;
        case OPT_STATE_DIR: rq.state_dir = v; break;
        case OPT_JSON: json = true; break;
        default: hr_cli_error("verify: %s '%s'", HR_T("unexpected argument"), v ? v : ""); return HR_EXIT_USAGE;
        }
    }
    hr_verify_result *res = calloc(1, sizeof *res);
    if (!res) {
        hr_cli_error("verify: %s", hr_strerror(HR_ENOMEM));
        return HR_EXIT_FAILURE;
    }
    hr_error err = { 0 };
    /* As root, and when no apply or rollback is running, finish or undo a step an earlier run
     * was killed in before comparing; otherwise only report it. */
    if (hr_platform_is_admin() && hr_platform_lock(&rq, false, 0, &err) < 0)
        hr_error_clear(&err);
    int r = hr_platform_verify(&rq, res, &err);
    hr_platform_unlock();
    if (r < 0) {
        hr_cli_error("verify: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(res);
        return hr_exit_from_error(r);
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, false);
    hr_verify_render(res, &rd);
    int rc = hr_cli_emit_render("verify", "report", &rd);
    hr_buf_free(&out);
    int verdict = (int)res->verdict;
    free(res);
    return rc ? rc : verdict;
}
