/* headroom status — the three tiers and every paging file / swap area. */
#include "cli_util.h"
#include "commands.h"

#include "core/base/json_writer.h"
#include "core/status/status_render.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

static void status_usage(FILE *f)
{
    fputs("usage: headroom status [--json] [--sysroot DIR] [--replay FILE] [--record FILE] [--no-gpu]\n"
          "  --json          one JSON object (docs/status-json.md)\n"
          "  --sysroot DIR   Linux: read /proc and /sys under DIR (recorded trees)\n"
          "  --replay FILE   Windows: replay recorded Win32 answers from a JSON file\n"
          "  --record FILE   Windows: also save this run's Win32 answers to FILE (for --replay)\n"
          "  --no-gpu        do not query GPUs\n"
          "exit status: 0 all sources read; 3 some unknown (report still printed); 64+ errors\n",
          f);
}

int hr_cmd_status(int argc, char **argv)
{
    hr_probe_opts opts = {.sysroot = "/"};
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (hr_cli_is_help(argv[i])) {
            status_usage(stdout);
            return HR_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--no-gpu") == 0) {
            opts.skip_gpu = true;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "status", "--sysroot", "a directory", false,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            opts.sysroot = v;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "status", "--replay", "a file", false,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            opts.replay = v;
        } else if ((m = hr_cli_opt_value(argc, argv, &i, "status", "--record", "a file", false,
                                         &v)) != 0) {
            if (m < 0)
                return HR_EXIT_USAGE;
            opts.record = v;
        } else {
            hr_cli_error("status: unknown option '%s'", argv[i]);
            status_usage(stderr);
            return HR_EXIT_USAGE;
        }
    }

    hr_snapshot *snap = malloc(sizeof *snap);
    if (!snap) {
        hr_cli_error("status: out of memory");
        return HR_EXIT_FAILURE;
    }
    hr_error err = {0};
    int r = hr_platform_snapshot(&opts, snap, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        hr_cli_error("status: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(snap);
        return r == HR_EPARSE ? HR_EXIT_INPUT : r == HR_ENOENT ? HR_EXIT_NOINPUT : HR_EXIT_FAILURE;
    }

    hr_buf out;
    hr_buf_init(&out, 0);
    int w;
    if (json) {
        hr_json_writer jw;
        hr_json_init(&jw, &out, true);
        hr_status_json(snap, &jw, NULL);
        w = hr_json_finish(&jw);
    } else {
        hr_render_opts ro = {.color = hr_cli_stdout_is_tty()};
        w = hr_status_text(snap, &out, &ro);
    }
    int rc = hr_cli_emit("status", "report", w, &out);
    if (rc == 0 && hr_snapshot_partial(snap))
        rc = HR_EXIT_PARTIAL;
    hr_buf_free(&out);
    free(snap);
    return rc;
}
