/* headroom stress — commit (and touch) memory step by step up to SIZE, like Sysinternals
 * Testlimit, showing commit against its limit as it goes; stops at the first failure and
 * says where; refuses past a safety margin unless --force; always releases everything
 * (docs/stress.md). */
#include "cli_util.h"
#include "commands.h"

#include "core/base/i18n.h"
#include "core/stress/stress.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_COMMIT = 1, OPT_TOUCH, OPT_STEP, OPT_FORCE, OPT_CGROUP, OPT_JSON };

static const hr_opt stress_opts[] = {
    { OPT_COMMIT, "--commit", HR_ARG_SIZE, NULL, HR_N("commit this much in all (required), e.g. 8G"), NULL,
      HR_OPT_SMALL_OK },
    { OPT_TOUCH, "--touch", HR_ARG_NONE, NULL,
      HR_N("write every page, so the memory is really used (RAM, then the paging file / swap)"), NULL, 0 },
    { OPT_STEP, "--step", HR_ARG_SIZE, NULL,
      HR_N("commit this much per step (default: a 32nd of the "
           "total, at least 16M)"),
      NULL, HR_OPT_SMALL_OK },
    { OPT_FORCE, "--force", HR_ARG_NONE, NULL, HR_N("go past the safety margin, on to the first failure"), NULL, 0 },
    { OPT_CGROUP, "--cgroup", HR_ARG_SIZE, NULL,
      HR_N("rehearse a smaller machine: run inside a memory cgroup of SIZE (Linux, root; implies "
           "--touch) or a job with that commit limit (Windows)"),
      NULL, HR_OPT_SMALL_OK },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object at the end (docs/stress.md)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const stress_examples[] = {
    "headroom stress --commit 8G",
    "headroom stress --commit 40G --touch --step 1G",
    "sudo headroom stress --commit 6G --cgroup 4G",
    NULL,
};

const hr_cmd_spec hr_spec_stress = {
    .name = "stress",
    .synopsis = "--commit SIZE [--touch] [--step SIZE] [--force] [--cgroup SIZE] [--json]",
    .summary = HR_N("Commit (and touch) memory step by step up to SIZE, showing commit against its "
                    "limit, and stop at the first failure: proof that a new paging file or swap "
                    "really raises the ceiling. Everything is released at the end."),
    .groups = { stress_opts },
    .examples = stress_examples,
    .exits = HR_N("0 SIZE reached; 2 stopped before SIZE (an allocation failed or the process was "
                  "killed); 69 refused past the safety margin, or a job cannot hold the --cgroup limit "
                  "(Windows); 77 --cgroup needs root; 64 and up errors"),
    .doc = "docs/stress.md",
};

typedef struct live {
    hr_stress_report *rep;
    bool text;
} live;

static void on_step(void *ctx, int i, const hr_stress_result *res)
{
    live *l = ctx;
    if (!l->text)
        return;
    l->rep->res = res;
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_stress_text_step(l->rep, i, &b);
    hr_cli_write(&b, HR_FORMAT_TEXT);
    hr_buf_free(&b);
}

int hr_cmd_stress(int argc, char **argv)
{
    hr_stress_req rq;
    memset(&rq, 0, sizeof rq);
    bool json = false;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_stress, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        switch (id) {
        case HR_OPT_STOP: return p.status;
        case OPT_COMMIT:
            if (p.size < ((uint64_t)1 << 20))
                return hr_opt_bad_value(&p, v, HR_T("at least 1M"));
            rq.commit_bytes = p.size;
            break;
        case OPT_TOUCH: rq.touch = true; break;
        case OPT_STEP:
            if (p.size < ((uint64_t)1 << 20))
                return hr_opt_bad_value(&p, v, HR_T("at least 1M"));
            rq.step_bytes = p.size;
            break;
        case OPT_FORCE: rq.force = true; break;
        case OPT_CGROUP:
            if (p.size < ((uint64_t)16 << 20))
                return hr_opt_bad_value(&p, v, HR_T("at least 16M"));
            rq.cgroup_bytes = p.size;
            break;
        case OPT_JSON: json = true; break;
        case HR_OPT_OPERAND: hr_cli_error("stress: %s '%s'", HR_T("takes no operand"), v); return HR_EXIT_USAGE;
        default: break;
        }
    }
    if (!rq.commit_bytes) {
        hr_cli_error("stress: %s", HR_T("--commit SIZE is required (e.g. --commit 8G)"));
        return HR_EXIT_USAGE;
    }
    if (rq.cgroup_bytes && hr_platform_os() == HR_OS_LINUX)
        rq.touch = true; /* a cgroup limits memory in use, not commit */

    hr_snapshot *snap = malloc(sizeof *snap);
    hr_stress_result *res = malloc(sizeof *res);
    if (!snap || !res) {
        free(snap);
        free(res);
        hr_cli_error("stress: %s", hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    hr_probe_opts po = { .sysroot = "/", .skip_gpu = true, .skip_procs = true };
    hr_error err = { 0 };
    /* the gate reads the snapshot's numbers only, never its words: no English probe needed */
    int r = hr_platform_snapshot(&po, snap, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        hr_cli_error("stress: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(snap);
        free(res);
        return hr_exit_from_error(r);
    }
    rq.cgroup_version = snap->cgroup.memory_version;
    snprintf(rq.cgroup_dir, sizeof rq.cgroup_dir, "%s", snap->cgroup.dir);
    snprintf(rq.cgroup_path, sizeof rq.cgroup_path, "%s", snap->cgroup.path);
    hr_stress_gate gate;
    hr_stress_gate_compute(snap, &rq, &gate);
    hr_stress_report rep = { .req = &rq, .gate = &gate, .res = NULL, .os = snap->platform.os };
    free(snap);

    int rc = HR_EXIT_OK;
    if (!json) {
        hr_buf b;
        hr_buf_init(&b, 0);
        hr_stress_text_head(&rep, &b);
        if (hr_cli_write(&b, HR_FORMAT_TEXT) != 0)
            rc = hr_exit_from_error(HR_EIO);
        hr_buf_free(&b);
    }
    if (!gate.allowed) {
        if (json) {
            hr_buf out;
            hr_buf_init(&out, 0);
            hr_render rd;
            hr_render_init(&rd, HR_FORMAT_JSON, &out, false);
            hr_stress_render(&rep, &rd);
            hr_cli_emit_render("stress", "report", &rd);
            hr_buf_free(&out);
        }
        free(res);
        return hr_exit_from_error(HR_EUNSAFE);
    }
    live l = { .rep = &rep, .text = !json };
    r = hr_platform_stress(&rq, gate.step_bytes, on_step, &l, res, &err);
    if (r < 0) {
        hr_cli_error("stress: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(res);
        return hr_exit_from_error(r);
    }
    rep.res = res;
    hr_buf out;
    hr_buf_init(&out, 0);
    if (json) {
        hr_render rd;
        hr_render_init(&rd, HR_FORMAT_JSON, &out, false);
        hr_stress_render(&rep, &rd);
        rc = hr_cli_emit_render("stress", "report", &rd);
    } else {
        hr_stress_text_end(&rep, &out);
        rc = hr_cli_emit("stress", "report", hr_buf_error(&out), &out, HR_FORMAT_TEXT);
    }
    hr_buf_free(&out);
    if (rc == 0) {
        if (res->outcome == HR_STRESS_ALLOC_FAILED || res->outcome == HR_STRESS_KILLED)
            rc = HR_EXIT_VERDICT_2;
        else if (res->outcome == HR_STRESS_ERROR)
            rc = HR_EXIT_FAILURE;
    }
    free(res);
    return rc;
}
