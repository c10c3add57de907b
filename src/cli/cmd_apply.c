/* headroom apply — set the paging file / swap file, in the safe order (S3.1). Dry run unless
 * --yes. docs/apply.md. */
#include "cli_util.h"
#include "commands.h"

#include "core/apply/apply_from_plan.h"
#include "core/plan/plan.h"
#include "core/base/size.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

/* Exit statuses of apply and rollback (docs/apply.md). */
enum { APPLY_EXIT_REFUSED = 69, APPLY_EXIT_STOPPED = 75, APPLY_EXIT_NOPERM = 77 };

static void apply_usage(FILE *f)
{
    fputs("usage: headroom apply [--size SIZE | --from-plan] [--range MIN:MAX] [--target DRIVE|PATH]\n"
          "                      [--priority N] [--fstab PATH] [--state-dir DIR] [--json] [--yes]\n"
          "  --size SIZE      paging file / swap file size (16G, 32768M); Windows: initial = maximum\n"
          "  --range MIN:MAX  Windows: initial and maximum size instead (S3.2)\n"
          "  --from-plan      take size and place from 'headroom plan'\n"
          "  --target         Windows: a drive (D:); Linux: a directory (the file is headroom.swap)\n"
          "                   or a new file's path. Default: the system drive / the root directory\n"
          "  --priority N     Linux swap priority (default 10)\n"
          "  --fstab PATH     Linux: the fstab to edit (default /etc/fstab)\n"
          "  --state-dir DIR  where the state file and backups live\n"
          "  --json           print the plan as JSON (schema headroom.apply-plan/1)\n"
          "  --yes            make the changes (without it: a dry run that prints them)\n"
          "exit status: 0 done or dry run; 64 usage; 65 bad input file; 69 refused as unsafe;\n"
          "             70 a step failed; 75 stopped at HR_FAILPOINT; 77 needs admin/root\n",
          f);
}

/* --from-plan: the size and place `headroom plan` recommends for this machine (its
 * defaults: the S4.1/S4.2 table, the best eligible drive), as core/apply/apply_from_plan.h
 * takes them: Windows initial and maximum (equal unless the plan chose a range) on its drive;
 * Linux the new swap file's size (recommended minus the swap kept) at the path it names. */
static int apply_from_plan(hr_apply_request *rq, char *target, size_t target_n, hr_error *err)
{
    hr_snapshot *snap = malloc(sizeof *snap);
    hr_plan *plan = malloc(sizeof *plan);
    hr_plan_inputs *in = malloc(sizeof *in);
    int r = (!snap || !plan || !in) ? hr_error_set(err, HR_ENOMEM, "out of memory") : 0;
    if (r == 0) {
        hr_probe_opts opts = {.sysroot = "/", .skip_procs = true};
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
        hr_strlcpy(target, take.target, target_n);
    }
    free(snap);
    free(plan);
    free(in);
    return r;
}

/* 1-based index of the value option at argv[*i] (see names), 0 if none, -1 if its value is
 * missing. */
static int match_value_opt(int argc, char **argv, int *i, const char **v)
{
    static const char *const names[] = {"--size", "--range", "--target", "--fstab",
                                        "--state-dir", "--priority"};
    for (int k = 0; k < 6; k++) {
        int m = hr_cli_opt(argc, argv, i, names[k], v);
        if (m != 0)
            return m < 0 ? -1 : k + 1;
    }
    return 0;
}

static int exit_for(int code)
{
    switch (code) {
    case HR_EUNSAFE: return APPLY_EXIT_REFUSED;
    case HR_EPERM: case HR_EACCES: return APPLY_EXIT_NOPERM;
    case HR_EPARSE: case HR_ETOOBIG: return HR_EXIT_INPUT;
    case HR_EINVAL: case HR_ERANGE: return HR_EXIT_USAGE;
    default: return HR_EXIT_FAILURE;
    }
}

int hr_cmd_apply(int argc, char **argv)
{
    hr_apply_request rq = {.priority = HR_APPLY_DEFAULT_PRIORITY};
    bool yes = false, json = false, from_plan = false;
    const char *size_s = NULL, *range_s = NULL;
    char plan_target[HR_SNAP_PATH_MAX] = "";
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        if (hr_cli_is_help(argv[i])) {
            apply_usage(stdout);
            return HR_EXIT_OK;
        } else if (strcmp(argv[i], "--yes") == 0) {
            yes = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--from-plan") == 0) {
            from_plan = true;
        } else if ((m = match_value_opt(argc, argv, &i, &v)) != 0) {
            if (m < 0 || !v || !*v) {
                hr_cli_error("apply: %s needs a value", argv[i]);
                return HR_EXIT_USAGE;
            }
            switch (m) {
            case 1: size_s = v; break;
            case 2: range_s = v; break;
            case 3: rq.target = v; break;
            case 4: rq.fstab_path = v; break;
            case 5: rq.state_dir = v; break;
            default: {
                char *end;
                long p = strtol(v, &end, 10);
                if (*end || p < 0 || p > 32767) {
                    hr_cli_error("apply: --priority '%s': a number from 0 to 32767", v);
                    return HR_EXIT_USAGE;
                }
                rq.priority = (int)p;
            }
            }
        } else {
            hr_cli_error("apply: unknown option '%s'", argv[i]);
            apply_usage(stderr);
            return HR_EXIT_USAGE;
        }
    }
    hr_error err = {0};
    if (from_plan && size_s) {
        hr_cli_error("apply: give --size or --from-plan, not both");
        return HR_EXIT_USAGE;
    }
    if (from_plan) {
        int r = apply_from_plan(&rq, plan_target, sizeof plan_target, &err);
        if (r < 0) {
            hr_cli_error("apply: %s", err.msg);
            return HR_EXIT_USAGE;
        }
        if (!rq.target && plan_target[0])
            rq.target = plan_target;
    }
    if (size_s && hr_size_parse(size_s, &rq.size_bytes, &err) < 0) {
        hr_cli_error("apply: --size: %s", err.msg);
        return HR_EXIT_USAGE;
    }
    if (size_s)
        hr_opt_size_note("apply", "--size", size_s, rq.size_bytes);
    if (range_s) {
        char a[64];
        const char *colon = strchr(range_s, ':');
        if (!colon || (size_t)(colon - range_s) >= sizeof a) {
            hr_cli_error("apply: --range '%s': expected MIN:MAX, e.g. 32G:64G", range_s);
            return HR_EXIT_USAGE;
        }
        memcpy(a, range_s, (size_t)(colon - range_s));
        a[colon - range_s] = '\0';
        if (hr_size_parse(a, &rq.range_min_bytes, &err) < 0 ||
            hr_size_parse(colon + 1, &rq.range_max_bytes, &err) < 0) {
            hr_cli_error("apply: --range: %s", err.msg);
            return HR_EXIT_USAGE;
        }
        if (rq.range_min_bytes == 0 || rq.range_max_bytes < rq.range_min_bytes) {
            hr_cli_error("apply: --range '%s': need 0 < MIN <= MAX", range_s);
            return HR_EXIT_USAGE;
        }
        if (hr_platform_os() == HR_OS_LINUX) {
            hr_cli_error("apply: --range is for Windows paging files; a Linux swap file has one size");
            return HR_EXIT_USAGE;
        }
    }
    if (from_plan && range_s) {
        hr_cli_error("apply: --from-plan chooses the sizes; leave out --range");
        return HR_EXIT_USAGE;
    }
    if (!rq.size_bytes && !rq.range_max_bytes) {
        hr_cli_error("apply: give --size SIZE (or --range MIN:MAX on Windows, or --from-plan)");
        return HR_EXIT_USAGE;
    }
    rq.failpoint = getenv("HR_FAILPOINT");

    hr_apply_plan *plan = calloc(1, sizeof *plan);
    if (!plan) {
        hr_cli_error("apply: out of memory");
        return HR_EXIT_FAILURE;
    }
    int r = hr_platform_apply_plan(&rq, plan, &err);
    if (r < 0) {
        hr_cli_error("apply: %s%s", r == HR_EUNSAFE ? "refused: " : "",
                     err.msg[0] ? err.msg : hr_strerror(r));
        free(plan);
        return exit_for(r);
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    if (json)
        hr_apply_plan_json(plan, &out);
    else {
        if (!plan->nothing_to_do)
            hr_buf_puts(&out, yes ? "Applying, in this order:\n" : "Dry run: these changes would be "
                        "made, in this order (add --yes to make them):\n");
        hr_apply_plan_text(plan, &out);
    }
    hr_cli_write(&out);
    hr_buf_reset(&out);
    if (!yes || plan->nothing_to_do) {
        hr_buf_free(&out);
        free(plan);
        return HR_EXIT_OK;
    }
    if (!hr_platform_is_admin()) {
        hr_cli_error("apply: changing the %s needs %s", hr_platform_os() == HR_OS_WINDOWS
                         ? "paging file" : "swap configuration",
                     hr_platform_os() == HR_OS_WINDOWS
                         ? "an elevated prompt: right-click the terminal, 'Run as administrator'"
                         : "root: run it with sudo");
        hr_buf_free(&out);
        free(plan);
        return APPLY_EXIT_NOPERM;
    }
    r = hr_platform_apply_run(&rq, plan, &out, &err);
    hr_cli_write(&out);
    hr_buf_free(&out);
    free(plan);
    if (r == 1)
        return APPLY_EXIT_STOPPED;
    if (r < 0) {
        hr_cli_error("apply: %s", err.msg[0] ? err.msg : hr_strerror(r));
        hr_cli_error("apply: the steps marked done are in place and recorded; 'headroom rollback "
                     "--yes' undoes them");
        return exit_for(r);
    }
    fputs(hr_platform_os() == HR_OS_WINDOWS
              ? "Done. Reboot now, then run 'headroom verify'.\n"
              : "Done. 'headroom verify' compares fstab with what is in use.\n", stdout);
    return HR_EXIT_OK;
}
