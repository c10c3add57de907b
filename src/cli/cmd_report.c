/* headroom report — a watch/run recording as one self-contained HTML page (docs/report.md). */
#include "cli_util.h"
#include "commands.h"

#include "core/base/i18n.h"
#include "core/report/report.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>

#define REPORT_CHUNK ((size_t)64 << 10)

enum { OPT_OUTPUT = 1 };

static const hr_opt report_opts[] = {
    { OPT_OUTPUT, "--output", HR_ARG_FILE, NULL,
      HR_N("where to write the HTML page (default: report.html); -o is the same"), NULL, 0 },
    { OPT_OUTPUT, "-o", HR_ARG_FILE, NULL, HR_N("the same as --output"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const report_examples[] = {
    "headroom report run.jsonl -o report.html",
    "headroom --lang zh report watch.jsonl -o 报告.html",
    NULL,
};

const hr_cmd_spec hr_spec_report = {
    .name = "report",
    .synopsis = "RECORDING [-o FILE]",
    .summary = HR_N("Turn a watch/run recording (docs/recording.md) into one HTML page: the verdict, "
                    "the peaks, the three tiers and commit against its limit over time with ComfyUI's "
                    "nodes and the warnings marked, and the plan. It opens offline and prints."),
    .groups = { report_opts },
    .operands = HR_N("RECORDING  the JSON-lines file of watch --record or run --record"),
    .examples = report_examples,
    .exits = HR_N("0 the page is written; 65 the recording is malformed; 66 it does not exist; "
                  "73/74 the page cannot be written"),
    .doc = "docs/report.md",
};

int hr_cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = "report.html";
    bool named = false; /* -o given: the user chose that file, replacing it is what they asked */
    char free_name[32];
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_report, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        if (id == OPT_OUTPUT) {
            out = v;
            named = true;
        } else if (id == HR_OPT_OPERAND) {
            if (in) {
                hr_cli_error(HR_T("report: one recording at a time ('%s' and '%s')"), in, v);
                return HR_EXIT_USAGE;
            }
            in = v;
        }
    }
    if (!in) {
        hr_cli_error(HR_T("report: give the recording to read (headroom report RECORDING -o FILE)"));
        return HR_EXIT_USAGE;
    }
    if (!named && (hr_platform_is_file(out, NULL) || hr_platform_is_dir(out))) {
        /* The default name is not the user's choice: an earlier page there is kept and this
         * one goes to the first free report-N.html. */
        int n = 1;
        for (; n < 1000; n++) {
            snprintf(free_name, sizeof free_name, "report-%d.html", n);
            if (!hr_platform_is_file(free_name, NULL) && !hr_platform_is_dir(free_name))
                break;
        }
        if (n == 1000) {
            hr_cli_error(HR_T("report: report.html and report-1.html to report-999.html exist: "
                              "name the page with -o FILE"));
            return HR_EXIT_CANTCREATE;
        }
        hr_cli_print(HR_T("report: %s exists and is kept (-o FILE replaces a file you name)\n"), out);
        out = free_name;
    }
    /* read in slices: a recording of any length costs the reader and one line, not its size */
    hr_error err = { 0 };
    FILE *f = hr_platform_read_open(in, &err);
    if (!f) {
        hr_cli_error("report: %s", err.msg[0] ? err.msg : hr_strerror(err.code));
        return hr_exit_from_error(err.code ? err.code : HR_EIO);
    }
    hr_recording *rec = malloc(sizeof *rec);
    hr_rec_reader *reader = malloc(sizeof *reader);
    char *chunk = malloc(REPORT_CHUNK);
    if (!rec || !reader || !chunk) {
        fclose(f);
        free(rec);
        free(reader);
        free(chunk);
        hr_cli_error("report: %s", hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    hr_rec_init(rec);
    hr_rec_reader_init(reader, rec);
    int r = 0;
    for (size_t k; r == 0 && (k = fread(chunk, 1, REPORT_CHUNK, f)) > 0;)
        r = hr_rec_feed(reader, chunk, k, &err);
    bool failed = r == 0 && ferror(f);
    fclose(f);
    free(chunk);
    if (failed) {
        free(rec);
        free(reader);
        hr_cli_error(HR_T("report: %s: cannot be read to its end"), in);
        return hr_exit_from_error(HR_EIO);
    }
    if (r == 0)
        r = hr_rec_finish(reader, &err);
    free(reader);
    int rc = 0;
    if (r < 0) {
        hr_cli_error("report: %s: %s", in, err.msg);
        rc = hr_exit_from_error(r);
    } else {
        hr_buf page;
        hr_buf_init(&page, 0);
        hr_render rd;
        hr_render_init(&rd, HR_FORMAT_HTML, &page, false);
        hr_report_render(rec, in, &rd);
        rc = hr_cli_emit_file("report", "report", out, &rd);
        hr_buf_free(&page);
        if (rc == 0) {
            hr_cli_print(HR_T("report: %s written (%llu samples, %llu warnings%s)\n"), out,
                         (unsigned long long)rec->samples_seen, (unsigned long long)rec->warnings_seen,
                         rec->truncated ? HR_T("; the recording was cut short") : "");
        }
    }
    free(rec);
    return rc;
}
