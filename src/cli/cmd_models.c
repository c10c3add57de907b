/* headroom models — what each model file is and its exact bytes, from headers only. */
#include "cli_util.h"
#include "commands.h"
#include "model_read.h"

#include "core/base/i18n.h"
#include "core/scan/models_report.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_COMFYUI };

static const hr_opt models_opts[] = {
    { OPT_COMFYUI, "--comfyui", HR_ARG_DIR, NULL, HR_N("the ComfyUI folder: scan its models/ folder"), NULL, 0 },
    { OPT_JSON, "--json", HR_ARG_NONE, NULL, HR_N("one JSON object (docs/models.md)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

static const char *const models_examples[] = {
    "headroom models --comfyui ~/ComfyUI",
    "headroom models models/checkpoints/sd_xl_base_1.0.safetensors --json",
    NULL,
};

const hr_cmd_spec hr_spec_models = {
    .name = "models",
    .synopsis = "[options] [PATH...]",
    .summary = HR_N("List model files with what they are (kind, architecture), their parameters "
                    "and exact bytes by dtype, read from the headers only (never the weights, "
                    "never unpickled)."),
    .groups = { models_opts },
    .operands = HR_N("PATH  a model file or a folder to scan (with its sub-folders)"),
    .examples = models_examples,
    .exits = HR_N("0 every file read; 3 some file could not be read, or the walk stopped at its "
                  "limit (what was found is listed); 64 and up errors"),
    .doc = "docs/models.md",
};

#define HR_MODELS_MAX_FILES ((size_t)100000)
#define HR_MODELS_MAX_DEPTH 8

static void scan_one(hr_models_report *rep, const char *path)
{
    hr_models_entry *e = hr_models_report_add(rep);
    if (!e)
        return;
    snprintf(e->path, sizeof e->path, "%s", path);
    hr_models_folder_of(path, e->folder, sizeof e->folder);
    hr_error err = { 0 };
    int r = hr_cli_read_model(path, e->folder, &e->info, &err);
    if (r) {
        hr_models_entry_failed(e, r, &err);
        rep->errors++;
    }
}

static int on_file(const char *path, uint64_t size, int depth, void *ctx)
{
    (void)size;
    (void)depth;
    if (hr_cli_is_model_name(path))
        scan_one(ctx, path);
    return 0;
}

static void on_note(hr_walk_note what, const char *path, void *ctx)
{
    hr_models_report *rep = ctx;
    if (what == HR_WALK_LINK_UP) {
        hr_models_link_refused(rep, path);
        return;
    }
    snprintf(rep->walk.stopped_in, sizeof rep->walk.stopped_in, "%s", path);
    rep->walk.stop_reason = what == HR_WALK_STOPPED_FILES ? "files" : "entries";
}

int hr_cmd_models(int argc, char **argv)
{
    bool json = false;
    const char *comfy = NULL;
    hr_optparse p;
    hr_optparse_init(&p, &hr_spec_models, argc, argv);
    const char *v;
    const char **paths = calloc((size_t)argc + 1 + 64, sizeof *paths);
    size_t np = 0;
    if (!paths) {
        hr_cli_error("models: %s", hr_strerror(HR_ENOMEM));
        return hr_exit_from_error(HR_ENOMEM);
    }
    for (int id; (id = hr_optparse_next(&p, &v)) != HR_OPT_END;) {
        if (id == HR_OPT_STOP) {
            free(paths);
            return p.status;
        }
        if (id == OPT_JSON)
            json = true;
        else if (id == OPT_COMFYUI)
            comfy = v;
        else if (id == HR_OPT_OPERAND)
            paths[np++] = v;
    }
    hr_models_report rep;
    hr_models_report_init(&rep);
    rep.walk.file_limit = HR_MODELS_MAX_FILES;
    int rc = 0;
    char models_dir[1100];
    static hr_comfy_found found;
    bool found_here = true; /* named with --comfyui: no Desktop app config applies */
    found.desktop_yaml[0] = '\0';
    if (!comfy && np == 0 && hr_cli_find_comfyui("models", &found)) {
        found_here = false;
        comfy = found.dir;
        snprintf(rep.found_how, sizeof rep.found_how, "%s", found.how);
    }
    if (comfy) {
        snprintf(rep.root, sizeof rep.root, "%s", comfy);
        snprintf(models_dir, sizeof models_dir, "%s%cmodels", comfy, hr_platform_dirsep());
        if (!hr_platform_is_dir(models_dir)) {
            hr_cli_error(HR_T("models: %s: no models folder here: is this a ComfyUI folder?"), comfy);
            free(paths);
            return HR_EXIT_NOINPUT;
        }
        paths[np++] = models_dir;
        /* the folders its extra_model_paths.yaml adds (and the Desktop app's), each once */
        static hr_comfy_paths cp;
        hr_comfy_paths_init(&cp, comfy, hr_platform_dirsep());
        char yaml[1100];
        hr_error yerr = { 0 };
        int yr = 0;
        if (hr_comfy_join(comfy, "extra_model_paths.yaml", hr_platform_dirsep(), yaml, sizeof yaml) &&
            hr_platform_is_file(yaml, NULL))
            yr = hr_cli_read_extra_paths(yaml, &cp, &yerr);
        if (yr == 0 && !found_here && found.desktop_yaml[0])
            yr = hr_cli_read_extra_paths(found.desktop_yaml, &cp, &yerr);
        if (yr) {
            hr_cli_error("models: %s", yerr.msg);
            free(paths);
            return hr_exit_from_error(yr);
        }
        for (size_t i = 0; i < cp.n_extra && np < (size_t)argc + 64; i++) {
            bool dup = false;
            for (size_t j = 0; j < i; j++)
                dup |= strcmp(cp.extra[j].path, cp.extra[i].path) == 0;
            if (!dup && hr_platform_is_dir(cp.extra[i].path))
                paths[np++] = cp.extra[i].path;
        }
    }
    if (np == 0) {
        hr_cli_error(HR_T("models: no ComfyUI found here or in the usual places: name a model "
                          "file or folder, or the ComfyUI folder with --comfyui DIR"));
        free(paths);
        return HR_EXIT_USAGE;
    }
    for (size_t i = 0; i < np && rc == 0 && !rep.walk.stop_reason; i++) {
        hr_error err = { 0 };
        if (hr_platform_is_dir(paths[i])) {
            int r = hr_platform_walk(paths[i], HR_MODELS_MAX_DEPTH, HR_MODELS_MAX_FILES, on_file, on_note, &rep, &err);
            /* a limit ends the walk, not the report: what was found is listed, with where
             * it stopped */
            if (r && !(r == HR_ETOOBIG && rep.walk.stop_reason)) {
                hr_cli_error("models: %s", err.msg[0] ? err.msg : hr_strerror(r));
                rc = hr_exit_from_error(r);
            }
        } else {
            /* a FIFO or device is refused by the reader, without blocking on it */
            scan_one(&rep, paths[i]);
            if (rep.n && rep.v[rep.n - 1].error == HR_ENOENT) {
                char why[HR_ERROR_MSG_MAX];
                hr_models_error_text(&rep.v[rep.n - 1], hr_lang_get(), why);
                hr_cli_error("models: %s", why);
                rc = HR_EXIT_NOINPUT;
            }
        }
    }
    free(paths);
    if (rc) {
        hr_models_report_free(&rep);
        return rc;
    }
    hr_models_report_sort(&rep);
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render rd;
    hr_render_init(&rd, json ? HR_FORMAT_JSON : HR_FORMAT_TEXT, &out, hr_cli_stdout_is_tty());
    hr_models_render(&rep, &rd);
    rc = hr_cli_emit_render("models", "report", &rd);
    if (rc == 0 && (rep.errors || rep.walk.stop_reason))
        rc = HR_EXIT_PARTIAL;
    hr_buf_free(&out);
    hr_models_report_free(&rep);
    return rc;
}
