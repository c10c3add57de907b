/* headroom status — the three tiers and every paging file / swap area. */
#include "cli_util.h"
#include "commands.h"
#include "snapshot_source.h"

#include "core/base/i18n.h"
#include "core/status/status_render.h"
#include "platform/platform.h"

#include <stdlib.h>

enum { OPT_JSON = 1, OPT_RECORD };

static const hr_opt status_opts[] = {
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (docs/status-json.md)"), NULL, 0 },
    { OPT_RECORD, "--record", HR_ARG_FILE, NULL,
      HR_N("Windows: also save this run's Win32 answers to FILE (for --replay)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const status_examples[] = {
    "headroom status",
    "headroom status --json",
    "headroom status --sysroot tests/fixtures/linux/btrfs-swapfile",
    NULL,
};

const hr_cmd_spec hr_spec_status = {
    .name = "status",
    .synopsis = "[options]",
    .summary = HR_N("Show the three memory tiers (VRAM, RAM, paging file / swap), the commit "
                    "limit, and every paging file / swap area with the facts to judge it."),
    .groups = { status_opts, hr_source_opts },
    .examples = status_examples,
    .exits = HR_N("0 every source read; 3 some source unknown (the report is still printed); "
                  "64 and up errors"),
    .doc = "docs/status.md",
};

int hr_cmd_status(int argc, char **argv)
{
    hr_source src;
    hr_source_init(&src);
    bool json = false;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_status, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        if (id == OPT_JSON)
            json = true;
        else if (id == OPT_RECORD)
            src.probe.record = v;
        else
            hr_source_take(&src, id, v);
    }

    hr_snapshot *snap = malloc(sizeof *snap);
    if (!snap) {
        hr_cli_error("status: %s", hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    hr_error err = { 0 };
    int r = hr_source_snapshot(&src, snap, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        hr_cli_error("status: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(snap);
        return hr_exit_from_error(r);
    }

    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
    hr_status st;
    hr_status_compute(snap, &st);
    hr_status_render(&st, &rd);
    int rc = hr_cli_emit_render("status", "report", &rd);
    if (rc == 0 && st.partial)
        rc = HR_EXIT_PARTIAL;
    hr_buf_free(&out);
    free(snap);
    return rc;
}
