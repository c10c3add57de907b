/* headroom — where ComfyUI is, when the user did not say: the folders to try, in order, and
 * what makes a folder a ComfyUI. Pure: the platform gathers the facts (current folder, home,
 * the Desktop app's config) and tests the candidates (hr_platform_find_comfyui). */
#ifndef HR_SCAN_COMFY_FIND_H
#define HR_SCAN_COMFY_FIND_H

#include "core/scan/comfy_paths.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct hr_comfy_where {
    const char *cwd;          /* the current folder; NULL if unknown */
    const char *home;         /* HOME / USERPROFILE */
    const char *desktop_base; /* the Desktop app's basePath (its config.json), NULL if none */
    char sep;
} hr_comfy_where;

#define HR_COMFY_MAX_CANDIDATES 48

/* The folders to try, in order: the Desktop app's base path; the current folder and up to 8
 * of its parents, each as itself, D/ComfyUI and D/ComfyUI_windows_portable/ComfyUI; then in
 * the home folder ComfyUI, ComfyUI_windows_portable/ComfyUI, Documents/ComfyUI (the Desktop
 * app's default), comfy/ComfyUI (comfy-cli's default workspace). Returns how many. */
size_t hr_comfy_candidates(const hr_comfy_where *w, char (*out)[HR_COMFY_PATH_MAX], size_t max);

/* Is a folder a ComfyUI, from what it holds: a models/ folder, and main.py (an install) or
 * custom_nodes/ (the Desktop app's base path, whose code lives in the app). */
bool hr_comfy_is_install(bool has_models_dir, bool has_main_py, bool has_custom_nodes_dir);

/* The Desktop app's config.json: its "basePath" into out. false when absent or not a string;
 * an error only for a file that is not JSON (named by name). */
int hr_comfy_desktop_base(const char *name, const char *json, size_t len, char *out, size_t n, bool *found,
                          hr_error *err);

#endif
