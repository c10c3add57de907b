/* headroom — where ComfyUI looks for a model file: its models/ folders (and their aliases),
 * the folders extra_model_paths.yaml adds, in ComfyUI's search order, and a workflow's file
 * name made into a path under them. Pure: the caller tests which candidate exists. */
#ifndef HR_SCAN_COMFY_PATHS_H
#define HR_SCAN_COMFY_PATHS_H

#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>

#define HR_COMFY_PATH_MAX  1024
#define HR_COMFY_MAX_EXTRA 256

typedef struct hr_comfy_dir {
    char key[32]; /* folder key, legacy names mapped: "diffusion_models" */
    char path[HR_COMFY_PATH_MAX];
    bool is_default;
} hr_comfy_dir;

typedef struct hr_comfy_paths {
    char base[HR_COMFY_PATH_MAX]; /* the ComfyUI folder; "" if none */
    char sep;                     /* '/' or '\\' */
    hr_comfy_dir extra[HR_COMFY_MAX_EXTRA];
    size_t n_extra;
} hr_comfy_paths;

void hr_comfy_paths_init(hr_comfy_paths *p, const char *base, char sep);

/* "unet" -> "diffusion_models", "clip" -> "text_encoders"; GGUF's "unet_gguf"/"clip_gguf"
 * to theirs; others unchanged. */
const char *hr_comfy_map_legacy(const char *key);

/* Environment lookups for $VAR, ${VAR}, %VAR% and ~ (HOME / USERPROFILE). */
typedef const char *(*hr_env_fn)(const char *name, char *out, size_t n);

/* Read an extra_model_paths.yaml (the subset ComfyUI uses: top-level sections of
 * `key: value` and `key: |` blocks; base_path, base_paths, is_default, folder keys). Anything
 * else (flow collections, anchors, tags, folded blocks, tabs, deeper nesting) is an error
 * naming the line. yaml_dir is the file's folder (relative paths are relative to it). */
int hr_comfy_yaml_parse(const char *name, const char *buf, size_t len, const char *yaml_dir, hr_env_fn env,
                        hr_comfy_paths *p, hr_error *err);

/* The folders searched for key, in ComfyUI's order: is_default extra folders first (the last
 * added first), then models/<sub> for each of the key's folders, then the other extra
 * folders. Returns how many were written (at most max). */
size_t hr_comfy_search_dirs(const hr_comfy_paths *p, const char *key, char (*out)[HR_COMFY_PATH_MAX], size_t max);

/* A workflow's file name as a relative path with sep: either separator accepted, empty and
 * "." parts dropped, ".." never above the folder (ComfyUI's relpath(join("/", name), "/")). */
void hr_comfy_rel_name(const char *name, char sep, char *out, size_t n);

/* dir + sep + rel; false when it does not fit. */
bool hr_comfy_join(const char *dir, const char *rel, char sep, char *out, size_t n);

#endif
