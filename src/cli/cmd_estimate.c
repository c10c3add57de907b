/* headroom estimate — what a workflow will need in VRAM, RAM and commit on this machine or a
 * what-if one, step by step (core/estimate, docs/estimate.md). */
#include "cli_util.h"
#include "commands.h"
#include "estimate_cli.h"
#include "model_read.h"
#include "snapshot_source.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/estimate/estimate_workflow.h"
#include "core/scan/comfy_paths.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_COMFYUI = 40,
    OPT_RAM,
    OPT_VRAM,
    OPT_OS,
    OPT_GPU,
    OPT_COMFY_ARGS,
    OPT_VERSION,
    OPT_JSON,
    OPT_VRAM_USED = 50,
    OPT_DATE = 51,
    OPT_HTML = 99
};

static const char *const est_os_choices[] = { "windows", "linux", "macos", "wsl", NULL };
static const char *const est_gpu_choices[] = { "nvidia", "amd", "intel", "apple", "none", NULL };

const hr_opt hr_estimate_opts[] = {
    { OPT_COMFYUI, "--comfyui", HR_ARG_DIR, NULL,
      HR_N("the ComfyUI folder: read the models the workflow names from its models/ folder"), NULL, 0 },
    { OPT_RAM, "--ram", HR_ARG_SIZE, NULL, HR_N("what-if: RAM, e.g. 32G"), NULL, HR_OPT_SMALL_OK },
    { OPT_VRAM, "--vram", HR_ARG_SIZE, NULL, HR_N("what-if: dedicated VRAM, e.g. 8G"), NULL, HR_OPT_SMALL_OK },
    { OPT_VRAM_USED, "--vram-used", HR_ARG_SIZE, NULL,
      HR_N("what-if: VRAM other programs hold when ComfyUI loads (default: the card's use less what python "
           "(maybe ComfyUI) holds, when the driver says; else 0.5G on Windows and WSL, 0.1G elsewhere)"),
      NULL, HR_OPT_SMALL_OK },
    { OPT_OS, "--os", HR_ARG_CHOICE, NULL,
      HR_N("what-if: the OS ComfyUI runs on (wsl: Linux in WSL2, on a Windows host's GPU)"), est_os_choices, 0 },
    { OPT_GPU, "--gpu", HR_ARG_CHOICE, NULL, HR_N("what-if: the GPU's vendor"), est_gpu_choices, 0 },
    { OPT_COMFY_ARGS, "--comfy-args", HR_ARG_STRING, "\"ARGS\"",
      HR_N("ComfyUI's launch flags (--lowvram, --highvram, --reserve-vram N, --cache-none, ...)"), NULL, 0 },
    { OPT_VERSION, "--comfyui-version", HR_ARG_STRING, "X.Y.Z",
      HR_N("the ComfyUI version (the memory manager changed at 0.3.69, 0.16, 0.19, 0.23)"), NULL, 0 },
    { OPT_DATE, "--comfyui-date", HR_ARG_STRING, "DATE",
      HR_N("a git checkout between releases: its commit's date, or better its time (git log -1 --format=%ci; "
           "the Manager logs the date as 'Released on'); its version names the last release"),
      NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const hr_opt estimate_out_opts[] = {
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (docs/estimate.md)"), NULL, 0 },
    { OPT_HTML, "--html", HR_ARG_FILE, NULL,
      HR_N("also write the estimate as one self-contained HTML page to FILE (docs/report.md)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const estimate_examples[] = {
    "headroom estimate flux_dev.json --comfyui ~/ComfyUI",
    "headroom estimate wan22_i2v.json --ram 32G --vram 12G --os windows --gpu nvidia",
    "headroom estimate flux_dev.json --vram 8G --comfy-args \"--lowvram\" --comfyui-version 0.3.60 --json",
    NULL,
};

const hr_cmd_spec hr_spec_estimate = {
    .name = "estimate",
    .synopsis = "[options] WORKFLOW",
    .summary = HR_N("Simulate a ComfyUI workflow through VRAM, RAM and commit as ComfyUI's memory "
                    "manager would run it: a step table, the peak of each tier and the node causing "
                    "it, a low-high range, and a verdict with its fix."),
    .groups = { hr_estimate_opts, estimate_out_opts, hr_source_opts },
    .operands = HR_N("WORKFLOW  a workflow .json (UI or API format)"),
    .examples = estimate_examples,
    .exits = HR_N("0 fits (offloading included); 1 at risk (heavy paging, pinned memory, a tiled "
                  "retry); 2 will fail (GPU out of memory, commit limit exceeded); 3 cannot tell (the "
                  "commit limit is not known); 64 and up errors"),
    .doc = "docs/estimate.md",
};

void hr_est_cli_init(hr_est_cli *c)
{
    memset(c, 0, sizeof *c);
    c->os = -1;
    c->gpu = -1;
}

int hr_est_cli_take(hr_est_cli *c, const hr_optparse *p, int id, const char *v)
{
    switch (id) {
    case OPT_COMFYUI: c->comfyui = v; break;
    case OPT_RAM:
        if (p->size < ((uint64_t)1 << 30))
            return hr_opt_bad_value(p, v, HR_T("less than 1 GB is not a machine that runs ComfyUI"));
        c->ram = p->size;
        break;
    case OPT_VRAM: c->vram = p->size, c->vram_given = true; break;
    case OPT_VRAM_USED: c->vram_used = p->size, c->vram_used_given = true; break;
    case OPT_OS: c->os = !strcmp(v, "windows") ? 1 : !strcmp(v, "macos") ? 2 : !strcmp(v, "wsl") ? 3 : 0; break;
    case OPT_GPU: {
        hr_est_vendor g;
        if (hr_est_vendor_parse(v, &g))
            c->gpu = (int)g;
        break;
    }
    case OPT_COMFY_ARGS: {
        hr_error err = { 0 };
        if (hr_comfy_args_parse(v, strlen(v), &c->args, &err) < 0) {
            hr_cli_error("%s: %s", p->spec->name, err.msg);
            return HR_EXIT_USAGE;
        }
        break;
    }
    case OPT_VERSION: {
        int rc = hr_est_cli_parse_version(p, v, c->version);
        if (rc)
            return rc;
        c->version_given = true;
        break;
    }
    case OPT_DATE: return hr_est_cli_parse_date(p, v, &c->commit);
    default: return -1;
    }
    return 0;
}

int hr_est_cli_parse_version(const hr_optparse *p, const char *v, int out[3])
{
    int a = 0, b = 0, d = 0;
    char tail = 0;
    const char *s = v[0] == 'v' ? v + 1 : v;
    int n = sscanf(s, "%d.%d.%d%c", &a, &b, &d, &tail);
    if (n < 2 || n > 3 || a < 0 || b < 0 || d < 0 || a > 99 || b > 999 || d > 999)
        return hr_opt_bad_value(p, v, HR_T("a version such as 0.3.60 or 0.16.1"));
    out[0] = a, out[1] = b, out[2] = n == 3 ? d : 0;
    return 0;
}

int hr_est_cli_parse_date(const hr_optparse *p, const char *v, hr_est_commit *out)
{
    if (hr_est_commit_parse(v, out) != 0)
        return hr_opt_bad_value(p, v,
                                HR_T("a commit date such as 2025-12-04, or its time as git gives it (git log -1 "
                                     "--format=%ci: 2025-12-03 23:28:44 -0500)"));
    return 0;
}

/* The machine: the snapshot's (when it describes this machine), then the what-ifs. */
static void machine_of(const hr_est_cli *c, const hr_snapshot *snap, hr_est_machine *m)
{
    hr_est_machine_init(m);
    if (snap)
        hr_est_machine_from_snapshot(m, snap);
    else
        m->os = hr_platform_os();
    if (c->os >= 0) {
        m->os = c->os == 1 ? HR_OS_WINDOWS : HR_OS_LINUX;
        m->macos = c->os == 2;
        if (c->os == 3)
            m->wsl = true; /* --os linux keeps what the snapshot says (a WSL machine stays one) */
        else if (c->os != 0)
            m->wsl = false;
        if (m->macos && c->gpu < 0)
            m->vendor = HR_GPU_APPLE;
    }
    if (c->ram) {
        /* a what-if machine: this machine's commit limit, swap and other programs are not its
         * own (the one rule then counts the stated allowance for them) */
        m->ram_bytes = c->ram;
        m->ram_assumed = false;
        m->commit_limit_bytes = HR_UNKNOWN;
        m->commit_enforced = false;
        m->swap_bytes = HR_UNKNOWN;
        m->others_commit_bytes = HR_UNKNOWN;
    }
    if (c->vram_given) {
        m->vram_bytes = c->vram;
        m->vram_assumed = false;
        if (c->vram > 0 && m->vendor == HR_GPU_NONE)
            m->vendor = HR_GPU_NVIDIA, m->vendor_assumed = true; /* named by its memory: the common one */
        if (c->vram == 0)
            m->vendor = HR_GPU_NONE, m->vendor_assumed = false;
    }
    if (c->gpu >= 0) {
        m->vendor = (hr_est_vendor)c->gpu;
        m->vendor_assumed = false;
        if (c->gpu == HR_GPU_NONE)
            m->vram_bytes = 0, m->vram_assumed = false;
    }
    if (c->version_given) {
        memcpy(m->version, c->version, sizeof m->version);
        m->version_known = true;
    }
    m->comfyui_commit = c->commit;
    if (c->ram || c->vram_given || c->gpu >= 0) {
        /* a what-if card: what this machine's card holds now is not its own */
        m->vram_other_bytes = HR_UNKNOWN;
        m->vram_other_read = false;
        m->vram_python_bytes = HR_UNKNOWN;
    }
    if (c->vram_used_given)
        m->vram_other_bytes = c->vram_used, m->vram_other_read = false, m->vram_python_bytes = HR_UNKNOWN;
}

/* The file a workflow names, looked up the way ComfyUI does (core/scan/comfy_paths.h: the
 * folder key's folders in ComfyUI's order), and its header read. */
static bool resolve(const hr_comfy_paths *cp, hr_wf_model *w)
{
    char dirs[8][HR_COMFY_PATH_MAX];
    size_t nd = hr_comfy_search_dirs(cp, w->folder, dirs, 8);
    char rel[512];
    hr_comfy_rel_name(w->name, cp->sep, rel, sizeof rel);
    for (size_t d = 0; d < nd; d++) {
        char path[HR_COMFY_PATH_MAX];
        uint64_t size = 0;
        if (!hr_comfy_join(dirs[d], rel, cp->sep, path, sizeof path) || !hr_platform_is_file(path, &size))
            continue;
        snprintf(w->path, sizeof w->path, "%s", path);
        w->resolved = true;
        hr_error err = { 0 };
        int r = hr_cli_read_model(path, w->folder, &w->info, &err);
        if (r == 0)
            w->info_read = true;
        else
            hr_wf_model_failed(w, r, &err);
        return true;
    }
    return false;
}

static int run_parsed(const char *cmd, const hr_est_cli *c, hr_workflow *wf, hr_est_input *in, const char *label,
                      const hr_snapshot *snap, hr_estimate *out, hr_est_wf_result *res, uint64_t *bound);

int hr_est_cli_run(const char *cmd, const hr_est_cli *c, const char *workflow, const hr_snapshot *snap,
                   hr_estimate *out, hr_est_wf_result *res)
{
    hr_buf buf;
    hr_buf_init(&buf, HR_WF_MAX_BYTES + 1);
    hr_error err = { 0 };
    int r = hr_platform_read_file(workflow, &buf, HR_WF_MAX_BYTES, &err);
    if (r < 0) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        hr_buf_free(&buf);
        return hr_exit_from_error(r);
    }
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_est_input *in = calloc(1, sizeof *in);
    if (!wf || !in) {
        free(wf);
        free(in);
        hr_buf_free(&buf);
        hr_cli_error("%s: %s", cmd, hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    r = hr_workflow_parse(workflow, hr_buf_str(&buf), buf.len, wf, &err);
    hr_buf_free(&buf);
    if (r < 0) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        free(wf);
        free(in);
        return hr_exit_from_error(r);
    }
    const char *b = workflow;
    for (const char *q = workflow; *q; q++)
        if (*q == '/' || *q == '\\')
            b = q + 1;
    r = run_parsed(cmd, c, wf, in, b, snap, out, res, NULL);
    free(wf);
    return r;
}

int hr_est_cli_run_prompt(const char *cmd, const hr_est_cli *c, hr_workflow *wf, const char *prompt_id,
                          const hr_snapshot *snap, hr_estimate *out, hr_est_wf_result *res, uint64_t *bound)
{
    hr_est_input *in = calloc(1, sizeof *in);
    if (!in) {
        hr_workflow_free(wf);
        hr_cli_error("%s: %s", cmd, hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    /* the title in the user's language; the id itself kept, for a need basis worded where it
     * is shown (hr_peak_basis_text: JSON in English) */
    hr_msg m;
    hr_msg_set(&m, HR_N("prompt %.40s"), prompt_id);
    char label[96];
    hr_msg_format(&m, hr_lang_get(), label, sizeof label);
    int r = run_parsed(cmd, c, wf, in, label, snap, out, res, bound);
    if (r == 0)
        hr_strlcpy(out->prompt_id, prompt_id, sizeof out->prompt_id);
    return r;
}

int hr_est_cli_run_sample(const char *cmd, const hr_est_cli *c, const char *workload, const hr_snapshot *snap,
                          hr_estimate *out, hr_est_wf_result *res)
{
    const char *label = NULL;
    const char *text = hr_est_sample_workflow(workload, &label);
    if (!text)
        return HR_ENOENT;
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_est_input *in = calloc(1, sizeof *in);
    hr_error err = { 0 };
    int r = wf && in ? hr_workflow_parse(label, text, strlen(text), wf, &err)
                     : hr_error_set(&err, HR_ENOMEM, "%s", hr_strerror(HR_ENOMEM));
    if (r < 0) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        free(wf);
        free(in);
        return hr_exit_from_error(r);
    }
    /* the catalog's models, not the ones a ComfyUI folder has */
    hr_est_cli cc = *c;
    cc.comfyui = NULL;
    r = run_parsed(cmd, &cc, wf, in, hr_tr(label), snap, out, res, NULL);
    free(wf);
    return r;
}

/* Estimate a parsed workflow (wf's contents and in are taken and freed; wf itself stays the
 * caller's), labelled label; bound (may be NULL): X.serverneed for this prompt. */
static int run_parsed(const char *cmd, const hr_est_cli *c, hr_workflow *wf, hr_est_input *in, const char *label,
                      const hr_snapshot *snap, hr_estimate *out, hr_est_wf_result *res, uint64_t *bound)
{
    hr_error err = { 0 };
    int r = 0;
    if (c->comfyui) {
        hr_comfy_paths *cp = malloc(sizeof *cp);
        if (cp) {
            hr_comfy_paths_init(cp, c->comfyui, hr_platform_dirsep());
            /* its extra_model_paths.yaml, as ComfyUI reads it; one that ComfyUI would refuse
             * is said (one line, naming the line) and the models/ folder still answers */
            char yaml[HR_COMFY_PATH_MAX + 32];
            if (hr_comfy_join(c->comfyui, "extra_model_paths.yaml", hr_platform_dirsep(), yaml, sizeof yaml) &&
                hr_platform_is_file(yaml, NULL)) {
                hr_error yerr = { 0 };
                if (hr_cli_read_extra_paths(yaml, cp, &yerr) != 0) {
                    hr_cli_error("%s: %s", cmd, yerr.msg);
                    hr_comfy_paths_init(cp, c->comfyui, hr_platform_dirsep());
                }
            }
            for (size_t i = 0; i < wf->n_models; i++)
                resolve(cp, &wf->models[i]);
            free(cp);
        }
    }
    r = hr_est_from_workflow(wf, in, res, &err);
    hr_workflow_free(wf);
    if (r == 0) {
        hr_est_machine m;
        machine_of(c, snap, &m);
        if (c->commit.date && !m.version_known) {
            r = hr_error_set(&err, HR_EINVAL, "%s", hr_tr(HR_EST_CLI_DATE_NEEDS_VERSION));
        } else if (c->vram_used_given && m.vram_bytes == 0) {
            r = hr_error_set(
                &err, HR_EINVAL, "%s",
                HR_T(
                    "--vram-used needs a GPU with its own VRAM, and this machine has none (--vram gives a what-if card)"));
        } else if (c->vram_used_given && c->vram_used > m.vram_bytes) {
            char used[32], card[32];
            hr_size_gb(c->vram_used, used, sizeof used);
            hr_size_gb(m.vram_bytes, card, sizeof card);
            if (strcmp(used, card) == 0) { /* the same when rounded: say them to the MiB */
                snprintf(used, sizeof used, "%llu MiB", (unsigned long long)(c->vram_used >> 20));
                snprintf(card, sizeof card, "%llu MiB", (unsigned long long)(m.vram_bytes >> 20));
            }
            r = hr_error_set(&err, HR_EINVAL, HR_T("--vram-used %s is more than the GPU's %s of VRAM"), used, card);
        } else {
            r = hr_estimate_run(in, &m, &c->args, out, &err);
        }
        if (bound)
            *bound = hr_est_server_bound(in, &m, &c->args);
    }
    free(in);
    if (r < 0) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        return hr_exit_from_error(r);
    }
    snprintf(out->workflow, sizeof out->workflow, "%s", label);
    return 0;
}

int hr_cmd_estimate(int argc, char **argv)
{
    hr_est_cli c;
    hr_est_cli_init(&c);
    hr_source src;
    hr_source_init(&src);
    bool json = false;
    const char *html = NULL;
    const char *workflow = NULL;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_estimate, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        if (id == HR_OPT_OPERAND) {
            if (workflow) {
                hr_cli_error(HR_T("estimate: one workflow at a time (%s and %s)"), workflow, v);
                return HR_EXIT_USAGE;
            }
            workflow = v;
        } else if (id == OPT_JSON) {
            json = true;
        } else if (id == OPT_HTML) {
            html = v;
        } else if (id >= 40 && id < 90) {
            int rc = hr_est_cli_take(&c, &p, id, v);
            if (rc > 0)
                return rc;
        } else {
            hr_source_take(&src, id, v);
        }
    }
    if (!workflow) {
        hr_cli_error("%s", HR_T("estimate: name the workflow .json to estimate"));
        return HR_EXIT_USAGE;
    }
    /* the models from the files when ComfyUI is found where users keep it (models issue) */
    static hr_comfy_found found;
    if (!c.comfyui && !hr_source_recorded(&src) && hr_cli_find_comfyui("estimate", &found))
        c.comfyui = found.dir;
    /* its version, as plan and check read it: the estimate is that version's, not the range */
    if (c.comfyui && !c.version_given && hr_cli_comfyui_folder_version(c.comfyui, c.version))
        c.version_given = true;
    /* the live machine, unless the what-ifs describe another OS */
    hr_snapshot *snap = NULL;
    hr_os want = c.os == 3 ? HR_OS_LINUX : (hr_os)c.os; /* WSL is Linux: this machine, when it is */
    bool other_os = c.os == 2 || (c.os >= 0 && want != hr_platform_os() && !src.replay);
    if (!other_os) {
        snap = malloc(sizeof *snap);
        if (!snap) {
            hr_cli_error("estimate: %s", hr_strerror(HR_ENOMEM));
            return hr_exit_from_error(HR_ENOMEM);
        }
        hr_error err = { 0 };
        int r = hr_source_snapshot(&src, snap, &err);
        if (r < 0 && r != HR_EPARTIAL) {
            hr_cli_error("estimate: %s", err.msg[0] ? err.msg : hr_strerror(r));
            free(snap);
            return hr_exit_from_error(r);
        }
    }
    hr_estimate *e = malloc(sizeof *e);
    hr_est_wf_result res;
    if (!e) {
        free(snap);
        hr_cli_error("estimate: %s", hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    int rc = hr_est_cli_run("estimate", &c, workflow, snap, e, &res);
    free(snap);
    if (rc) {
        free(e);
        return rc;
    }
    for (int i = 0; i < res.problem_count; i++) {
        char problem[256];
        hr_msg_format(&res.problems[i], hr_lang_get(), problem, sizeof problem);
        hr_cli_error("estimate: %s", problem);
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
    hr_estimate_render(e, &rd);
    rc = hr_cli_emit_render("estimate", "report", &rd);
    if (rc == 0 && html) {
        hr_buf page;
        hr_buf_init(&page, 0);
        hr_render hd;
        hr_render_init(&hd, HR_FORMAT_HTML, &page, false);
        hr_estimate_render(e, &hd);
        rc = hr_cli_emit_file("estimate", "report", html, &hd);
        hr_buf_free(&page);
    }
    if (rc == 0) {
        int sev = hr_estimate_severity(e);
        rc = sev == 3 ? HR_EXIT_PARTIAL : sev == 2 ? HR_EXIT_VERDICT_2 : sev == 1 ? HR_EXIT_VERDICT_1 : HR_EXIT_OK;
    }
    hr_buf_free(&out);
    free(e);
    return rc;
}
