/* headroom — the candidate ComfyUI folders and the install test (comfy_find.h). */
#include "core/scan/comfy_find.h"

#include "core/base/i18n.h"
#include "core/base/json_parse.h"

#include <stdio.h>
#include <string.h>

static void add(char (*out)[HR_COMFY_PATH_MAX], size_t *n, size_t max, const char *dir, const char *sub, char sep)
{
    if (*n >= max || !dir || !dir[0])
        return;
    char p[HR_COMFY_PATH_MAX];
    if (sub) {
        if (!hr_comfy_join(dir, sub, sep, p, sizeof p))
            return;
    } else {
        snprintf(p, sizeof p, "%s", dir);
    }
    for (size_t i = 0; i < *n; i++)
        if (strcmp(out[i], p) == 0)
            return;
    snprintf(out[(*n)++], HR_COMFY_PATH_MAX, "%s", p);
}

size_t hr_comfy_candidates(const hr_comfy_where *w, char (*out)[HR_COMFY_PATH_MAX], size_t max)
{
    size_t n = 0;
    char sep = w->sep ? w->sep : '/';
    char portable[64];
    (void)hr_comfy_join("ComfyUI_windows_portable", "ComfyUI", sep, portable, sizeof portable);
    add(out, &n, max, w->desktop_base, NULL, sep);
    if (w->cwd && w->cwd[0]) {
        char d[HR_COMFY_PATH_MAX];
        snprintf(d, sizeof d, "%s", w->cwd);
        for (int up = 0; up <= 8; up++) {
            add(out, &n, max, d, NULL, sep);
            add(out, &n, max, d, "ComfyUI", sep);
            add(out, &n, max, d, portable, sep);
            size_t k = strlen(d);
            while (k > 0 && d[k - 1] != '/' && d[k - 1] != '\\')
                k--;
            if (k == 0)
                break;
            /* keep the root's separator ("/", "C:\") */
            size_t cut = k - 1;
            if (cut == 0 || (cut == 2 && d[1] == ':'))
                cut++;
            if (cut >= strlen(d))
                break;
            d[cut] = '\0';
        }
    }
    if (w->home && w->home[0]) {
        char docs[64], cli[64];
        snprintf(docs, sizeof docs, "Documents%cComfyUI", sep);
        snprintf(cli, sizeof cli, "comfy%cComfyUI", sep);
        add(out, &n, max, w->home, "ComfyUI", sep);
        add(out, &n, max, w->home, portable, sep);
        add(out, &n, max, w->home, docs, sep);
        add(out, &n, max, w->home, cli, sep);
    }
    return n;
}

bool hr_comfy_is_install(bool has_models_dir, bool has_main_py, bool has_custom_nodes_dir)
{
    return has_models_dir && (has_main_py || has_custom_nodes_dir);
}

int hr_comfy_desktop_base(const char *name, const char *json, size_t len, char *out, size_t n, bool *found,
                          hr_error *err)
{
    *found = false;
    hr_json_limits lim = { .max_bytes = (size_t)1 << 20, .max_depth = 16, .max_values = 100000, .no_nul = true };
    hr_json_doc *doc = NULL;
    hr_error jerr = { 0 };
    int r = hr_json_parse(json, len, &lim, &doc, &jerr);
    if (r)
        return hr_error_set(err, r, HR_T("%s: %s"), name, jerr.msg);
    const char *b = hr_json_string(hr_json_get(hr_json_root(doc), "basePath"), NULL);
    if (b && b[0] && strlen(b) < n) {
        snprintf(out, n, "%s", b);
        *found = true;
    }
    hr_json_free(doc);
    return 0;
}
