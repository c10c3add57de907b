/* headroom apply — set the paging file / swap file, in the safe order (S3.1). Dry run unless
 * --yes. docs/apply.md. */
#include "cli_util.h"
#include "commands.h"
#include "console.h"

#include "core/apply/apply_from_plan.h"
#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/plan/plan.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a second apply or rollback waits for the first to finish. */
#define APPLY_LOCK_WAIT_S 30

/* How far a long step is, on stderr: one line redrawn in place on a terminal; elsewhere (a
 * log, the journal) a line per tenth, so that a 64 GB file leaves ten lines, not 65,536. */
typedef struct apply_progress {
    bool tty;
    int shown; /* the last percent (terminal) or tenth (log) written; -1: none yet */
} apply_progress;

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    apply_progress *p = ctx;
    if (total == 0)
        return;
    int pct = done >= total ? 100 : (int)((double)done * 100.0 / (double)total);
    int mark = p->tty ? pct : pct / 10;
    if (mark == p->shown)
        return;
    p->shown = mark;
    char d[32], t[32];
    hr_size_gb(done, d, sizeof d);
    hr_size_gb(total, t, sizeof t);
    char line[256];
    snprintf(line, sizeof line, "%s", p->tty ? "\r" : "");
    size_t n = strlen(line);
    snprintf(line + n, sizeof line - n, HR_T("allocating: %s of %s written (%d %%)"), d, t, pct);
    n = strlen(line);
    snprintf(line + n, sizeof line - n, "%s", p->tty && pct < 100 ? "   " : "\n");
    hr_console_put(stderr, line, strlen(line), true);
}

enum {
    OPT_SIZE = 1,
    OPT_RANGE,
    OPT_FROM_PLAN,
    OPT_TARGET,
    OPT_PRIORITY,
    OPT_FSTAB,
    OPT_STATE_DIR,
    OPT_JSON,
    OPT_YES,
    OPT_ALLOW_SHRINK
};

static const hr_opt apply_opts[] = {
    { OPT_SIZE, "--size", HR_ARG_SIZE, NULL,
      HR_N("paging file / swap file size (16G, 32768M); Windows: initial = maximum"), NULL, 0 },
    { OPT_RANGE, "--range", HR_ARG_STRING, "MIN:MAX",
      HR_N("Windows: initial and maximum size instead (S3.2), e.g. 32G:64G"), NULL, HR_OPT_NONEMPTY },
    { OPT_FROM_PLAN, "--from-plan", HR_ARG_NONE, NULL, HR_N("take size and place from 'headroom plan'"), NULL, 0 },
    { OPT_TARGET, "--target", HR_ARG_STRING, "DRIVE|PATH",
      HR_N("Windows: a drive (D:); Linux: a directory (the file is headroom.swap) or a new "
           "file's path. Default: the system drive / the root directory"),
      NULL, HR_OPT_NONEMPTY },
    { OPT_PRIORITY, "--priority", HR_ARG_NUMBER, NULL, HR_N("Linux swap priority, 0 to 32767 (default 10)"), NULL, 0 },
    { OPT_FSTAB, "--fstab", HR_ARG_FILE, NULL, HR_N("Linux: the fstab to edit (default /etc/fstab)"), NULL,
      HR_OPT_NONEMPTY },
    { OPT_STATE_DIR, "--state-dir", HR_ARG_DIR, NULL,
      HR_N("where the state file and backups live (its parent must exist)"), NULL, HR_OPT_NONEMPTY },
    { OPT_ALLOW_SHRINK, "--allow-shrink", HR_ARG_NONE, NULL,
      HR_N("allow less paging file / swap in total than is configured now (says how much goes)"), NULL, 0 },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("print the plan as JSON (schema headroom.apply-plan/1)"), NULL, 0 },
    { OPT_YES, "--yes", HR_ARG_NONE, NULL, HR_N("make the changes (without it: a dry run that prints them)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const apply_examples[] = {
    "headroom apply --from-plan",
    "headroom apply --size 16G --target /data --yes",
    "headroom apply --range 32G:64G --target D: --yes",
    NULL,
};

const hr_cmd_spec hr_spec_apply = {
    .name = "apply",
    .synopsis = "[--size SIZE | --range MIN:MAX | --from-plan] [options]",
    .summary = HR_N("Set the paging file / swap file in the safe order (S3.1): the new one is "
                    "in place before anything old goes. A dry run unless --yes; every step is "
                    "recorded first, so that 'headroom rollback' undoes exactly what was done."),
    .groups = { apply_opts },
    .examples = apply_examples,
    .exits = HR_N("0 done or dry run; 64 usage; 65 bad input file; 66 a target or state "
                  "directory does not exist; 69 refused as unsafe; 70 a step failed; 75 another "
                  "run holds the lock, or stopped at HR_FAILPOINT; 77 needs admin/root"),
    .doc = "docs/apply.md",
};

/* --from-plan: the size and place `headroom plan` recommends for this machine (its
 * defaults: the S4.1/S4.2 table, the best eligible drive), as core/apply/apply_from_plan.h
 * takes them: Windows initial and maximum (equal unless the plan chose a range) on its drive;
 * Linux the new swap file's size (recommended minus the swap kept) at the path it names. */
static int apply_from_plan(hr_apply_request *rq, char *target, size_t target_n, hr_error *err)
{
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_plan *plan = malloc(sizeof *plan);
    hr_plan_inputs *in = malloc(sizeof *in);
    int r = (!snap || !plan || !in) ? hr_error_set(err, HR_ENOMEM, HR_T("out of memory")) : 0;
    if (r == 0) {
        hr_probe_opts opts = { .sysroot = "/", .skip_procs = true };
        r = hr_platform_snapshot(&opts, snap, err);
        if (r == HR_EPARTIAL)
            r = 0;
    }
    if (r == 0) {
        hr_plan_inputs_init(in);
        r = hr_plan_compute(snap, in, plan, err);
    }
    hr_apply_take take;
    if (r == 0)
        r = hr_apply_take_plan(plan, hr_platform_os(), &take, err);
    if (r == 0) {
        rq->size_bytes = take.size_bytes;
        rq->range_min_bytes = take.range_min_bytes;
        rq->range_max_bytes = take.range_max_bytes;
        rq->from_plan = true;
        hr_strlcpy(target, take.target, target_n);
    }
    free(snap);
    free(plan);
    free(in);
    return r;
}

static int parse_range(const hr_optparse *p, const char *v, hr_apply_request *rq)
{
    char a[64];
    hr_error err = { 0 };
    const char *colon = strchr(v, ':');
    if (!colon || (size_t)(colon - v) >= sizeof a)
        return hr_opt_bad_value(p, v, HR_T("expected MIN:MAX, e.g. 32G:64G"));
    memcpy(a, v, (size_t)(colon - v));
    a[colon - v] = '\0';
    if (hr_size_parse(a, &rq->range_min_bytes, &err) < 0 || hr_size_parse(colon + 1, &rq->range_max_bytes, &err) < 0)
        return hr_opt_bad_value(p, v, err.msg);
    if (rq->range_min_bytes == 0 || rq->range_max_bytes < rq->range_min_bytes)
        return hr_opt_bad_value(p, v, HR_T("need 0 < MIN <= MAX"));
    if (hr_platform_os() == HR_OS_LINUX)
        return hr_opt_bad_value(p, v,
                                HR_T("--range is for Windows paging files; a Linux swap "
                                     "file has one size"));
    return 0;
}

/* What a run that stopped half way leaves, and the command that undoes it. */
static void say_what_is_left(const hr_buf *log, int r)
{
    /* A done step's line, as the platform wrote it: in the language of the moment (what it
     * starts with, up to the step's name) or in English. */
    char mark[64];
    snprintf(mark, sizeof mark, HR_T("done: [%s] %s\n"), "\x01", "");
    char *cut = strchr(mark, '\x01');
    if (cut)
        *cut = '\0';
    const char *l = hr_buf_str(log);
    bool any_done = log->len && ((mark[0] && strstr(l, mark)) || strstr(l, "done: [") != NULL);
    if (!any_done)
        hr_cli_error("apply: %s", HR_T("nothing was changed"));
    else if (r == HR_EBUSY)
        hr_cli_error("apply: %s", HR_T("the steps marked done are in place"));
    else
        hr_cli_error("apply: %s", HR_T("the steps marked done above are in place and each was "
                                       "recorded before it started; 'headroom rollback --yes' "
                                       "undoes them (once the state directory can be written)"));
}

int hr_cmd_apply(int argc, char **argv)
{
    hr_apply_request rq = { .priority = HR_APPLY_DEFAULT_PRIORITY };
    bool yes = false, json = false, from_plan = false, have_size = false, have_range = false;
    char plan_target[HR_SNAP_PATH_MAX] = "";
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_apply, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        int rc = 0;
        switch (id) {
        case HR_OPT_STOP: return p.status;
        case OPT_SIZE:
            rq.size_bytes = p.size;
            have_size = true;
            break;
        case OPT_RANGE:
            rc = parse_range(&p, v, &rq);
            have_range = true;
            break;
        case OPT_FROM_PLAN: from_plan = true; break;
        case OPT_TARGET: rq.target = v; break;
        case OPT_PRIORITY:
            if (p.number > 32767)
                rc = hr_opt_bad_value(&p, v, HR_T("a number from 0 to 32767"));
            rq.priority = (int)p.number;
            break;
        case OPT_FSTAB: rq.fstab_path = v; break;
        case OPT_STATE_DIR: rq.state_dir = v; break;
        case OPT_ALLOW_SHRINK: rq.allow_shrink = true; break;
        case OPT_JSON: json = true; break;
        case OPT_YES: yes = true; break;
        default: hr_cli_error("apply: %s '%s'", HR_T("unexpected argument"), v ? v : ""); return HR_EXIT_USAGE;
        }
        if (rc)
            return rc;
    }
    hr_error err = { 0 };
    if (from_plan && (have_size || have_range)) {
        hr_cli_error("apply: %s", HR_T("--from-plan chooses the sizes; leave out --size and --range"));
        return HR_EXIT_USAGE;
    }
    if (from_plan) {
        int r = apply_from_plan(&rq, plan_target, sizeof plan_target, &err);
        if (r < 0) {
            hr_cli_error("apply: %s", err.msg);
            return hr_exit_from_error(r);
        }
        if (!rq.target && plan_target[0])
            rq.target = plan_target;
    }
    if (!rq.size_bytes && !rq.range_max_bytes) {
        hr_cli_error("apply: %s", HR_T("give --size SIZE (or --range MIN:MAX on Windows, or "
                                       "--from-plan)"));
        return HR_EXIT_USAGE;
    }
    rq.failpoint = getenv("HR_FAILPOINT");

    if (yes && !hr_platform_is_admin()) {
        hr_cli_error("apply: %s", hr_platform_os() == HR_OS_WINDOWS
                                      ? HR_T("changing the paging file needs an elevated prompt: right-click "
                                             "the terminal, 'Run as administrator'")
                                      : HR_T("changing the swap configuration needs root: run it with sudo"));
        return HR_EXIT_NOPERM;
    }
    /* One apply or rollback at a time: the lock covers reading the facts too, so that two
     * runs never plan from the same state. */
    if (yes) {
        int lr = hr_platform_lock(&rq, true, APPLY_LOCK_WAIT_S, &err);
        if (lr < 0) {
            hr_cli_error("apply: %s", err.msg);
            hr_cli_error("apply: %s", HR_T("nothing was changed"));
            return hr_exit_from_error(lr);
        }
    }

    hr_apply_plan *plan = calloc(1, sizeof *plan);
    if (!plan) {
        hr_platform_unlock();
        hr_cli_error("apply: %s", hr_strerror(HR_ENOMEM));
        return HR_EXIT_FAILURE;
    }
    int r = hr_platform_apply_plan(&rq, plan, &err);
    if (r < 0) {
        hr_platform_unlock();
        if (r == HR_EUNSAFE)
            hr_cli_error("apply: %s: %s", HR_T("refused"), err.msg[0] ? err.msg : hr_strerror(r));
        else
            hr_cli_error("apply: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(plan);
        return hr_exit_from_error(r);
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, false);
    if (!json && !plan->nothing_to_do)
        hr_buf_printf(&out, "%s\n",
                      yes ? HR_T("Applying, in this order:")
                          : HR_T("Dry run: these changes would be made, in "
                                 "this order (add --yes to make them):"));
    hr_apply_plan_render(plan, &rd);
    int erc = hr_cli_emit_render("apply", "plan", &rd);
    hr_buf_reset(&out);
    if (erc != 0 || !yes || plan->nothing_to_do) {
        /* A plan that could not be shown is not carried out. */
        hr_platform_unlock();
        hr_buf_free(&out);
        free(plan);
        return erc;
    }
    apply_progress progress = { hr_platform_is_tty(stderr), -1 };
    rq.progress = show_progress;
    rq.progress_ctx = &progress;
    r = hr_platform_apply_run(&rq, plan, &out, &err);
    if (progress.tty && progress.shown >= 0 && progress.shown < 100)
        hr_console_put(stderr, "\n", 1, true); /* a step that stopped part way ends its line before the error */
    hr_platform_unlock();
    hr_cli_write(&out, HR_FORMAT_TEXT);
    free(plan);
    if (r == 1) {
        hr_buf_free(&out);
        return HR_EXIT_TEMPFAIL;
    }
    if (r < 0) {
        hr_cli_error("apply: %s", err.msg[0] ? err.msg : hr_strerror(r));
        say_what_is_left(&out, r);
        hr_buf_free(&out);
        return hr_exit_from_error(r);
    }
    hr_buf_free(&out);
    hr_cli_print("%s\n", hr_platform_os() == HR_OS_WINDOWS
                             ? HR_T("Done. Reboot now, then run 'headroom verify'.")
                             : HR_T("Done. 'headroom verify' compares fstab with what is in use."));
    return HR_EXIT_OK;
}
