#include "plan_args.h"

#include "cli_util.h"
#include "estimate_cli.h"
#include "exit_status.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/watch/comfy.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_RAM = 1,
    OPT_VRAM,
    OPT_OS,
    OPT_WORKLOAD,
    OPT_COMFY_ARGS,
    OPT_PEAK_COMMIT,
    OPT_RANGE,
    OPT_JSON,
    OPT_HTML,
    OPT_WORKFLOW,
    OPT_COMFYUI,
    OPT_VERSION,
    OPT_GPU,
    OPT_PAGING,
    OPT_VRAM_USED,
    OPT_DATE
};

static const char *const os_choices[] = { "windows", "linux", NULL };
static const char *const workload_choices[] = { "sd15", "sdxl", "flux", "video", NULL };
static const char *const gpu_choices[] = { "nvidia", "amd", "intel", "apple", "none", NULL };

const hr_opt hr_plan_whatif_opts[] = {
    { OPT_RAM, "--ram", HR_ARG_SIZE, NULL, HR_N("RAM, e.g. 16G (16G = 16GB = 16GiB = 16384M: binary units)"), NULL,
      HR_OPT_SMALL_OK },
    { OPT_VRAM, "--vram", HR_ARG_SIZE, NULL, HR_N("dedicated VRAM of the GPU; 0 = integrated GPU only"), NULL,
      HR_OPT_SMALL_OK },
    { OPT_OS, "--os", HR_ARG_CHOICE, NULL, HR_N("plan for this OS (another OS than this one: a hypothetical machine)"),
      os_choices, 0 },
    { OPT_WORKLOAD, "--workload", HR_ARG_CHOICE, NULL, HR_N("what runs: SD 1.5, SDXL, FLUX or video workflows"),
      workload_choices, 0 },
    { OPT_COMFY_ARGS, "--comfy-args", HR_ARG_STRING, "\"ARGS\"",
      HR_N("ComfyUI's launch flags (--lowvram, --novram, --highvram, --reserve-vram N, ...)"), NULL, 0 },
    { OPT_PEAK_COMMIT, "--peak-commit", HR_ARG_SIZE, NULL,
      HR_N("a measured or estimated peak commit: size from it, not the table"), NULL, 0 },
    { OPT_WORKFLOW, "--workflow", HR_ARG_FILE, NULL,
      HR_N("size from this workflow's estimated peak commit (headroom estimate, S4.1)"), NULL, 0 },
    { OPT_COMFYUI, "--comfyui", HR_ARG_DIR, NULL,
      HR_N("the ComfyUI folder: its models for --workflow, and without --workflow the heaviest of its "
           "saved workflows (user/default/workflows) is the peak"),
      NULL, 0 },
    { OPT_VERSION, "--comfyui-version", HR_ARG_STRING, "X.Y.Z",
      HR_N("the ComfyUI version --workflow is estimated for; without it (and no ComfyUI to read it "
           "from) the need covers every memory manager, the older ones at the high end"),
      NULL, 0 },
    { OPT_DATE, "--comfyui-date", HR_ARG_STRING, "DATE",
      HR_N("a git checkout between releases: its commit's time (git log -1 --format=%ci) or date, for "
           "--workflow (its version names the last release)"),
      NULL, 0 },
    { OPT_GPU, "--gpu", HR_ARG_CHOICE, NULL, HR_N("the GPU's vendor --workflow is estimated for"), gpu_choices, 0 },
    { OPT_VRAM_USED, "--vram-used", HR_ARG_SIZE, NULL,
      HR_N("the VRAM other programs hold when ComfyUI loads, for --workflow (default: the card's use less "
           "what python (maybe ComfyUI) holds, when the driver says; else 0.5G on Windows and WSL, 0.1G "
           "elsewhere)"),
      NULL, HR_OPT_SMALL_OK },
    { OPT_PAGING, "--paging", HR_ARG_SIZE, NULL,
      HR_N("what-if: the paging file / swap the machine has now, e.g. 32G (0G: none); with --os or "
           "--ram it describes a hypothetical machine in full"),
      NULL, HR_OPT_SMALL_OK },
    { OPT_RANGE, "--range", HR_ARG_NONE, NULL,
      HR_N("initial = half the maximum (less disk until it is needed), not fixed"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

const hr_opt hr_plan_output_opts[] = {
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

const hr_opt hr_plan_html_opts[] = {
    { OPT_HTML, "--html", HR_ARG_FILE, NULL,
      HR_N("also write the report as one self-contained HTML page to FILE (opens offline, prints)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

/* One option of the shared tables: 0, or HR_EXIT_USAGE after the error. */
static int take(hr_plan_cli *out, const hr_optparse *p, int id, const char *v)
{
    switch (id) {
    case OPT_RAM:
        if (p->size < ((uint64_t)1 << 30))
            return hr_opt_bad_value(p, v, HR_T("less than 1 GB is not a machine that runs ComfyUI"));
        out->in.ram_bytes = p->size;
        break;
    case OPT_VRAM: out->in.vram_bytes = p->size; break;
    case OPT_PEAK_COMMIT:
        if (p->size == 0)
            return hr_opt_bad_value(p, v,
                                    HR_T("a peak commit of 0 cannot be measured: give the peak Task "
                                         "Manager or headroom status showed, e.g. 38G"));
        out->in.peak_commit_bytes = p->size;
        break;
    case OPT_OS: out->in.os = strcmp(v, "windows") == 0 ? HR_OS_WINDOWS : HR_OS_LINUX; break;
    case OPT_WORKLOAD: out->in.workload = (hr_workload)hr_workload_parse(v); break;
    case OPT_COMFY_ARGS: {
        hr_error err = { 0 };
        if (hr_comfy_args_parse(v, strlen(v), &out->in.comfy, &err) < 0) {
            hr_cli_error("%s: %s", p->spec->name, err.msg);
            return HR_EXIT_USAGE;
        }
        out->in.have_comfy_args = true;
        break;
    }
    case OPT_VERSION: {
        int rc = hr_est_cli_parse_version(p, v, out->version);
        if (rc)
            return rc;
        out->version_given = true;
        break;
    }
    case OPT_DATE: return hr_est_cli_parse_date(p, v, &out->commit);
    case OPT_GPU: {
        hr_est_vendor g;
        if (hr_est_vendor_parse(v, &g))
            out->gpu = (int)g;
        break;
    }
    case OPT_PAGING: out->in.paging_bytes = p->size; break;
    case OPT_VRAM_USED: out->vram_used = p->size, out->vram_used_given = true; break;
    case OPT_RANGE: out->in.range = true; break;
    case OPT_JSON: out->json = true; break;
    case OPT_HTML: out->html = v; break;
    case OPT_WORKFLOW: out->workflow = v; break;
    case OPT_COMFYUI: out->comfyui = v; break;
    default:
        if (!hr_source_take(&out->src, id, v))
            return HR_EXIT_USAGE; /* not an option of these tables: the spec is wrong */
    }
    return 0;
}

static int parse(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_args_extra extra, void *ctx, hr_plan_cli *out)
{
    memset(out, 0, sizeof *out);
    out->gpu = -1;
    hr_plan_inputs_init(&out->in);
    hr_source_init(&out->src);
    hr_optparse p;
    hr_optparse_init(&p, spec, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        int rc = extra && id >= 40 && id < 90 ? extra(ctx, &p, id, v) : take(out, &p, id, v);
        if (rc)
            return rc;
    }
    out->in.recorded = hr_source_recorded(&out->src);
    return HR_PLAN_ARGS_GO;
}

static int snapshot(const char *cmd, const hr_plan_cli *cli, hr_snapshot **snap)
{
    *snap = NULL;
    /* Another OS than this binary's: nothing here describes that machine. */
    if (cli->in.os >= 0 && (hr_os)cli->in.os != hr_platform_os() && !cli->src.replay)
        return HR_PLAN_ARGS_GO;
    /* --paging with --ram or --os describes a machine in full (docs/plan.md): this one's
     * programs, drives and limits are not its own. A recording stays the machine asked about. */
    if (cli->in.paging_bytes != HR_UNKNOWN && (cli->in.ram_bytes != HR_UNKNOWN || cli->in.os >= 0) &&
        !hr_source_recorded(&cli->src))
        return HR_PLAN_ARGS_GO;
    hr_snapshot *s = malloc(sizeof *s);
    if (!s) {
        hr_cli_error("%s: %s", cmd, hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    hr_error err = { 0 };
    int r = hr_source_snapshot(&cli->src, s, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        free(s);
        return hr_exit_from_error(r);
    }
    *snap = s;
    return HR_PLAN_ARGS_GO;
}

/* --workflow: the estimate's peak commit (its high end) becomes the peak the plan sizes from
 * (S4.1: the real reference is the workflow's peak commit). */
/* The estimate's settings from plan/check's what-if flags. */
static void est_cli_of(const hr_plan_cli *cli, hr_est_cli *ec)
{
    hr_est_cli_init(ec);
    ec->comfyui = cli->comfyui;
    if (cli->in.ram_bytes != HR_UNKNOWN)
        ec->ram = cli->in.ram_bytes;
    if (cli->in.vram_bytes != HR_UNKNOWN) {
        ec->vram = cli->in.vram_bytes;
        ec->vram_given = true;
    }
    ec->os = cli->in.os;
    ec->gpu = cli->gpu;
    if (cli->version_given) {
        memcpy(ec->version, cli->version, sizeof ec->version);
        ec->version_given = true;
    }
    ec->commit = cli->commit;
    if (cli->in.have_comfy_args)
        ec->args = cli->in.comfy;
    ec->vram_used = cli->vram_used;
    ec->vram_used_given = cli->vram_used_given;
}

static int estimate_one(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli, const char *workflow,
                        hr_estimate *e)
{
    hr_est_cli ec;
    est_cli_of(cli, &ec);
    hr_est_wf_result res;
    return hr_est_cli_run(cmd, &ec, workflow, snap, e, &res);
}

typedef struct saved_list {
    char (*path)[1024];
    size_t n, max;
} saved_list;

static int on_saved(const char *path, uint64_t size, int depth, void *ctx)
{
    (void)size;
    (void)depth;
    saved_list *l = ctx;
    size_t len = strlen(path);
    if (len > 5 && strcmp(path + len - 5, ".json") == 0 && l->n < l->max)
        snprintf(l->path[l->n++], sizeof l->path[0], "%s", path);
    return 0;
}

typedef struct history_ctx {
    const char *cmd;
    const hr_snapshot *snap;
    hr_est_cli ec;
    hr_estimate *e, *best;
    uint64_t claimed; /* the best one's own estimate, when X.serverneed held it */
    bool found;
} history_ctx;

static int on_prompt(void *ctx, size_t nth, const char *prompt_id, hr_workflow *wf, const hr_error *perr)
{
    (void)nth;
    history_ctx *h = ctx;
    if (!wf) {
        /* a prompt that cannot be read: said (one line), passed over */
        hr_cli_error("%s: %s", h->cmd, perr->msg);
        return 0;
    }
    hr_est_wf_result res;
    uint64_t bound = HR_UNKNOWN;
    if (hr_est_cli_run_prompt(h->cmd, &h->ec, wf, prompt_id, h->snap, h->e, &res, &bound) != 0)
        return 0;
    /* X.serverneed: a server's figure is held to what the prompt's models could use */
    uint64_t claimed = 0;
    if (bound != HR_UNKNOWN && h->e->commit.high > bound) {
        claimed = h->e->commit.high;
        h->e->commit.high = bound;
        if (h->e->commit.low > bound)
            h->e->commit.low = bound;
    }
    if (!h->found || h->e->commit.high > h->best->commit.high) {
        memcpy(h->best, h->e, sizeof *h->e);
        h->claimed = claimed;
        h->found = true;
    }
    return 0;
}

/* ComfyUI's version when it was not given: "known" is also read from the ComfyUI folder
 * (comfyui_version.py: __version__ = "0.3.60") or a running server (/system_stats), so that
 * the estimate is that version's and not the range over every memory manager. */
static void version_from_comfyui(const char *cmd, hr_plan_cli *cli)
{
    if (cli->version_given)
        return;
    if (cli->comfyui && hr_cli_comfyui_folder_version(cli->comfyui, cli->version)) {
        cli->version_given = true;
        return;
    }
    hr_url url;
    if (!hr_cli_comfyui_url(cmd, &url))
        return;
    hr_buf resp;
    hr_buf_init(&resp, 1 << 20);
    hr_http_response r;
    hr_error err = { 0 };
    if (hr_http_do(&url, "GET", "/system_stats", NULL, 2000, &resp, &r, &err) == 0 && r.status == 200) {
        hr_comfy_stats st;
        if (hr_comfy_parse_stats(r.body, r.body_len, &st, &err) == 0 && hr_cli_version_of(st.version, cli->version))
            cli->version_given = true;
    }
    hr_buf_free(&resp);
}

/* The prompts a running ComfyUI ran (GET /history, at HEADROOM_COMFYUI_URL or
 * http://127.0.0.1:8188), the body parsed once: the heaviest into best. true when at least
 * one was estimated. No server, or one that does not answer like ComfyUI: false, nothing
 * said. */
static bool from_history(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli, hr_estimate *e,
                         hr_estimate *best, uint64_t *claimed)
{
    hr_url url;
    hr_error err = { 0 };
    if (!hr_cli_comfyui_url(cmd, &url))
        return false;
    hr_buf resp;
    hr_buf_init(&resp, (size_t)HR_WF_MAX_BYTES);
    hr_http_response r;
    history_ctx h = { .cmd = cmd, .snap = snap, .e = e, .best = best };
    est_cli_of(cli, &h.ec);
    if (hr_http_do(&url, "GET", "/history?max_items=64", NULL, 3000, &resp, &r, &err) == 0 && r.status == 200)
        (void)hr_workflow_history_each("GET /history", r.body, r.body_len, 64, on_prompt, &h, &err);
    hr_buf_free(&resp);
    *claimed = h.claimed;
    return h.found;
}

static void take_estimate(hr_plan_cli *cli, const hr_estimate *e)
{
    hr_plan_inputs_take_estimate(&cli->in, e);
}

/* A workload named (or SDXL assumed) and no workflow: the workflow it stands for is estimated,
 * so that a name and a workflow are judged on one scale. */
static int from_sample(const char *cmd, const hr_snapshot *snap, hr_plan_cli *cli)
{
    hr_estimate *e = malloc(sizeof *e);
    if (!e) {
        hr_cli_error("%s: %s", cmd, hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    const hr_workload w = cli->in.workload == HR_WORKLOAD_NONE ? HR_WORKLOAD_SDXL : cli->in.workload;
    hr_est_cli ec;
    est_cli_of(cli, &ec);
    hr_est_wf_result res;
    int rc = hr_est_cli_run_sample(cmd, &ec, hr_workload_name(w), snap, e, &res);
    if (rc == 0) {
        take_estimate(cli, e);
        cli->in.implied_workload = HR_WORKLOAD_NONE; /* the name is what was said */
        hr_peak_basis_of(&cli->in.peak_basis, HR_PEAK_SAMPLE, w, e);
    }
    free(e);
    return rc == 0 || rc == HR_ENOENT ? HR_PLAN_ARGS_GO : rc;
}

static int from_workflow(const char *cmd, const hr_snapshot *snap, hr_plan_cli *cli)
{
    hr_estimate *e = malloc(sizeof *e), *best = malloc(sizeof *best);
    saved_list l = { NULL, 0, 200 };
    int rc = 0;
    bool found = false, from_server = false;
    uint64_t claimed = 0;
    if (!e || !best) {
        rc = hr_exit_from_error(HR_ENOMEM);
        hr_cli_error("%s: %s", cmd, hr_strerror(HR_ENOMEM));
        goto out;
    }
    version_from_comfyui(cmd, cli);
    if (cli->commit.date && !cli->version_given) { /* once, not for each workflow estimated */
        hr_cli_error("%s: %s", cmd, hr_tr(HR_EST_CLI_DATE_NEEDS_VERSION));
        rc = HR_EXIT_USAGE;
        goto out;
    }
    if (cli->workflow) {
        rc = estimate_one(cmd, snap, cli, cli->workflow, best);
        found = rc == 0;
    } else if ((found = from_history(cmd, snap, cli, e, best, &claimed))) {
        from_server = true;
    } else {
        /* the workflows the user saved in ComfyUI: size from the heaviest */
        static const char *const saved[] = { "user", "default", "workflows" };
        char dir[1200];
        char sep = hr_platform_dirsep();
        hr_strlcpy(dir, cli->comfyui, sizeof dir);
        for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++) {
            size_t n = strlen(dir);
            if (n + strlen(saved[k]) + 2 < sizeof dir) {
                dir[n] = sep;
                hr_strlcpy(dir + n + 1, saved[k], sizeof dir - n - 1);
            }
        }
        if (!hr_platform_is_dir(dir))
            goto out;
        l.path = calloc(l.max, sizeof *l.path);
        hr_error err = { 0 };
        if (!l.path || hr_platform_walk(dir, 2, l.max, on_saved, NULL, &l, &err) < 0)
            goto out;
        for (size_t i = 0; i < l.n; i++) {
            /* a saved file that cannot be read is said (one line) and passed over */
            if (estimate_one(cmd, snap, cli, l.path[i], e) != 0)
                continue;
            if (!found || e->commit.high > best->commit.high) {
                memcpy(best, e, sizeof *e);
                found = true;
            }
        }
    }
    if (found) {
        take_estimate(cli, best);
        hr_peak_basis_of(&cli->in.peak_basis,
                         cli->workflow ? HR_PEAK_WORKFLOW
                         : from_server ? HR_PEAK_SERVER
                                       : HR_PEAK_SAVED,
                         HR_WORKLOAD_NONE, best);
        if (claimed) {
            char a[32], c[32];
            hr_size_gb(best->commit.high, a, sizeof a);
            hr_size_gb(claimed, c, sizeof c);
            hr_cli_error(HR_T("%s: the running ComfyUI's %s would need %s by its workflow; held "
                              "to %s, what its models and this machine's RAM and VRAM can hold "
                              "(X.serverneed)"),
                         cmd, best->workflow, c, a);
        }
    }
out:
    free(l.path);
    free(e);
    free(best);
    return rc ? rc : HR_PLAN_ARGS_GO;
}

static int compute(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli, hr_plan *plan)
{
    hr_error err = { 0 };
    int r = hr_plan_compute(snap, &cli->in, plan, &err);
    if (r >= 0)
        return HR_PLAN_ARGS_GO;
    hr_cli_error("%s: %s", cmd, err.msg);
    return hr_exit_from_error(r); /* HR_EPARTIAL: a fact is missing, give it (3) */
}

int hr_plan_args_run(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_cli *cli, hr_snapshot **snap,
                     hr_plan **plan)
{
    return hr_plan_args_run_extra(spec, argc, argv, NULL, NULL, cli, snap, plan);
}

int hr_plan_args_run_extra(const hr_cmd_spec *spec, int argc, char **argv, hr_plan_args_extra extra, void *ctx,
                           hr_plan_cli *cli, hr_snapshot **snap, hr_plan **plan)
{
    *snap = NULL;
    *plan = NULL;
    int rc = parse(spec, argc, argv, extra, ctx, cli);
    if (rc == HR_PLAN_ARGS_GO)
        rc = snapshot(spec->name, cli, snap);
    /* Nothing said about the run (no --workflow, --comfyui, --workload or --peak-commit) on
     * this machine: the ComfyUI found where users keep it sizes the plan from the workflows
     * saved in it (S4.1: the workflow's peak is the reference); the workload table (docs/check.md) is the
     * fallback when none is found or none can be estimated. */
    static hr_comfy_found found;
    if (rc == HR_PLAN_ARGS_GO && *snap && !cli->in.recorded && !cli->workflow && !cli->comfyui &&
        cli->in.workload == HR_WORKLOAD_NONE && cli->in.peak_commit_bytes == HR_UNKNOWN &&
        hr_cli_find_comfyui(spec->name, &found))
        cli->comfyui = found.dir;
    if (rc == HR_PLAN_ARGS_GO && (cli->workflow || cli->comfyui)) {
        rc = from_workflow(spec->name, *snap, cli);
        if (rc != HR_PLAN_ARGS_GO) {
            free(*snap);
            *snap = NULL;
        }
    }
    if (rc == HR_PLAN_ARGS_GO && cli->in.peak_commit_bytes == HR_UNKNOWN) {
        rc = from_sample(spec->name, *snap, cli);
        if (rc != HR_PLAN_ARGS_GO) {
            free(*snap);
            *snap = NULL;
        }
    }
    if (rc != HR_PLAN_ARGS_GO)
        return rc;
    *plan = malloc(sizeof **plan);
    if (!*plan) {
        hr_cli_error("%s: %s", spec->name, hr_strerror(HR_ENOMEM));
        rc = hr_exit_from_error(HR_ENOMEM);
    } else {
        rc = compute(spec->name, *snap, cli, *plan);
    }
    if (rc != HR_PLAN_ARGS_GO) {
        free(*plan);
        free(*snap);
        *plan = NULL;
        *snap = NULL;
    }
    return rc;
}
