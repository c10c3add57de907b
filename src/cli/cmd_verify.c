/* headroom verify — is what is configured what is in use? (S5.1) docs/apply.md. */
#include "cli_util.h"
#include "commands.h"

#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

static void verify_usage(FILE *f)
{
    fputs("usage: headroom verify [--fstab PATH] [--state-dir DIR] [--json]\n"
          "  Linux: fstab swap lines vs /proc/swaps (paths, priorities) and the commit limit.\n"
          "  Windows: PagingFiles vs the paging files in use, a change waiting for a reboot,\n"
          "  an old file still in use.\n"
          "exit status: 0 configured = in use; 1 a change waits for a reboot; 2 they disagree;\n"
          "             64 usage; 65 bad input file; 70 could not read the facts\n",
          f);
}

int hr_cmd_verify(int argc, char **argv)
{
    hr_apply_request rq = {0};
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (hr_cli_is_help(argv[i])) {
            verify_usage(stdout);
            return HR_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "verify", "--fstab", "a path", true,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            rq.fstab_path = v;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "verify", "--state-dir", "a directory", true,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            rq.state_dir = v;
        } else {
            hr_cli_error("verify: unknown option '%s'", argv[i]);
            verify_usage(stderr);
            return HR_EXIT_USAGE;
        }
    }
    hr_verify_result *res = calloc(1, sizeof *res);
    if (!res) {
        hr_cli_error("verify: out of memory");
        return HR_EXIT_FAILURE;
    }
    hr_error err = {0};
    int r = hr_platform_verify(&rq, res, &err);
    if (r < 0) {
        hr_cli_error("verify: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(res);
        return r == HR_EPARSE || r == HR_ETOOBIG ? HR_EXIT_INPUT : HR_EXIT_FAILURE;
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    if (json)
        hr_verify_json(res, &out);
    else
        hr_verify_text(res, &out);
    hr_cli_write(&out);
    hr_buf_free(&out);
    int verdict = (int)res->verdict;
    free(res);
    return verdict;
}
