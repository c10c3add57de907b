/* headroom workflow — what a ComfyUI workflow loads (each file resolved the way ComfyUI
 * does, with its bytes and architecture), its latent geometry and its execution order. */
#include "cli_util.h"
#include "commands.h"
#include "model_read.h"

#include "core/base/i18n.h"
#include "core/scan/comfy_paths.h"
#include "core/scan/workflow_render.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_COMFYUI, OPT_EXTRA };

static const hr_opt workflow_opts[] = {
    { OPT_COMFYUI, "--comfyui", HR_ARG_DIR, NULL,
      HR_N("the ComfyUI folder whose models/ (and extra_model_paths.yaml) resolve the file names"), NULL, 0 },
    { OPT_EXTRA, "--extra-model-paths", HR_ARG_FILE, NULL,
      HR_N("also read this extra_model_paths.yaml (as ComfyUI's --extra-model-paths-config)"), NULL, 0 },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (docs/workflow.md)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const workflow_examples[] = {
    "headroom workflow my_flux.json --comfyui ~/ComfyUI",
    "headroom workflow api_export.json --json",
    NULL,
};

const hr_cmd_spec hr_spec_workflow = {
    .name = "workflow",
    .synopsis = "[options] FILE",
    .summary = HR_N("Read a ComfyUI workflow (UI or API format): every model file it loads, "
                    "resolved the way ComfyUI does, with its bytes and architecture; the latent "
                    "geometry, samplers, VAE decodes, upscales; and the order the nodes run in."),
    .groups = { workflow_opts },
    .operands = HR_N("FILE  the workflow (.json, as saved or exported for the API)"),
    .examples = workflow_examples,
    .exits = HR_N("0 every model found and read; 3 some model is missing or unreadable; 65 not a "
                  "workflow (or a cycle); 64 and up errors"),
    .doc = "docs/workflow.md",
};

static bool approx_vae(const char *name)
{
    static const char *const n[] = { "taesd", "taesdxl",      "taesd3",       "taef1",         "taef2",
                                     "taehv", "lighttaew2_2", "lighttaew2_1", "lighttaehy1_5", "taeltx_2" };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        if (strcmp(name, n[i]) == 0)
            return true;
    return false;
}

static void resolve(hr_wf_model *m, const hr_comfy_paths *cp, bool have_dirs)
{
    if (m->role == HR_WF_ROLE_CONFIG)
        return;
    if (m->role == HR_WF_ROLE_VAE && (strcmp(m->name, "pixel_space") == 0 || approx_vae(m->name))) {
        bool pixel = strcmp(m->name, "pixel_space") == 0;
        hr_msg_set(&m->problem,
                   pixel ? HR_N("no file (pixel space)") : HR_N("a small approximate VAE from models/vae_approx"));
        m->resolved = true;
        m->info_read = true; /* nothing to read: counts as found, 0 bytes */
        return;
    }
    if (!have_dirs) {
        hr_msg_set(&m->problem, HR_N("not looked for: give --comfyui DIR"));
        m->not_looked_for = true;
        return;
    }
    char rel[HR_COMFY_PATH_MAX];
    hr_comfy_rel_name(m->name, cp->sep, rel, sizeof rel);
    static char dirs[16][HR_COMFY_PATH_MAX];
    size_t nd = hr_comfy_search_dirs(cp, m->folder, dirs, 16);
    for (size_t i = 0; i < nd; i++) {
        char full[HR_COMFY_PATH_MAX];
        if (!hr_comfy_join(dirs[i], rel, cp->sep, full, sizeof full) || !hr_platform_is_file(full, NULL))
            continue;
        m->resolved = true;
        snprintf(m->path, sizeof m->path, "%s", full);
        hr_error err = { 0 };
        int r = hr_cli_read_model(full, m->folder, &m->info, &err);
        if (r == 0)
            m->info_read = true;
        else
            hr_wf_model_failed(m, r, &err);
        return;
    }
    /* the folders looked in: as many as the shown line can hold */
    char looked[HR_WF_PROBLEM_MAX];
    size_t k = 0;
    looked[0] = '\0';
    for (size_t i = 0; i < nd && k < sizeof looked; i++)
        k += (size_t)snprintf(looked + k, sizeof looked - k, "%s%s", i ? ", " : "", dirs[i]);
    hr_msg_set(&m->problem, HR_N("not found in %s (%s)"), m->folder, looked);
}

int hr_cmd_workflow(int argc, char **argv)
{
    bool json = false;
    const char *comfy = NULL, *extra = NULL, *file = NULL;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_workflow, argc, argv);
    const char *v;
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP)
            return p.status;
        if (id == OPT_JSON)
            json = true;
        else if (id == OPT_COMFYUI)
            comfy = v;
        else if (id == OPT_EXTRA)
            extra = v;
        else if (id == HR_OPT_OPERAND) {
            if (file) {
                hr_cli_error(HR_T("workflow: one workflow file at a time"));
                return HR_EXIT_USAGE;
            }
            file = v;
        }
    }
    if (!file) {
        hr_cli_error(HR_T("workflow: name the workflow file (.json)"));
        return HR_EXIT_USAGE;
    }
    hr_error err = { 0 };
    hr_buf b;
    hr_buf_init(&b, HR_WF_MAX_BYTES);
    int r = hr_platform_read_file(file, &b, HR_WF_MAX_BYTES, &err);
    hr_workflow *wf = calloc(1, sizeof *wf);
    hr_comfy_paths *cp = calloc(1, sizeof *cp);
    if (!wf || !cp)
        r = hr_error_set(&err, HR_ENOMEM, "workflow: %s", hr_strerror(HR_ENOMEM));
    if (r == 0)
        r = hr_workflow_parse(file, b.data ? b.data : "", b.len, wf, &err);
    hr_buf_free(&b);
    if (r) {
        hr_cli_error("workflow: %s", err.msg[0] ? err.msg : hr_strerror(r));
        free(wf);
        free(cp);
        return hr_exit_from_error(r);
    }
    static hr_comfy_found found;
    const char *how = NULL;
    if (!comfy && hr_cli_find_comfyui("workflow", &found)) {
        comfy = found.dir;
        how = found.how;
    }
    hr_comfy_paths_init(cp, comfy, hr_platform_dirsep());
    if (how && found.desktop_yaml[0] && !extra)
        extra = found.desktop_yaml; /* the Desktop app's extra_models_config.yaml */
    char yaml[HR_COMFY_PATH_MAX + 32];
    const char *yaml_read = NULL;
    if (comfy) {
        if (hr_comfy_join(comfy, "extra_model_paths.yaml", hr_platform_dirsep(), yaml, sizeof yaml) &&
            hr_platform_is_file(yaml, NULL)) {
            if ((r = hr_cli_read_extra_paths(yaml, cp, &err)) != 0) {
                hr_cli_error("workflow: %s", err.msg);
                hr_workflow_free(wf);
                free(wf);
                free(cp);
                return hr_exit_from_error(r);
            }
            yaml_read = yaml;
        }
    }
    if (extra) {
        if ((r = hr_cli_read_extra_paths(extra, cp, &err)) != 0) {
            hr_cli_error("workflow: %s", err.msg);
            hr_workflow_free(wf);
            free(wf);
            free(cp);
            return hr_exit_from_error(r);
        }
        yaml_read = extra;
    }
    for (size_t i = 0; i < wf->n_models; i++)
        resolve(&wf->models[i], cp, comfy || cp->n_extra);

    hr_workflow_report rep = { .wf = wf, .file = file, .comfyui = comfy, .extra_yaml = yaml_read, .found_how = how };
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
    hr_workflow_render(&rep, &rd);
    int rc = hr_cli_emit_render("workflow", "report", &rd);
    if (rc == 0 && hr_workflow_missing(wf))
        rc = HR_EXIT_PARTIAL;
    hr_buf_free(&out);
    hr_workflow_free(wf);
    free(wf);
    free(cp);
    return rc;
}
