/* headroom — find ComfyUI without being told (platform.h hr_platform_find_comfyui). One search
 * for both OSes over platform.h; each OS says where its Desktop app keeps its settings and
 * where home is (comfy_dirs_<os>.c). */
#include "platform/platform.h"

#include <stdio.h>
#include <string.h>

static bool desktop(char *base, size_t bn, char *yaml, size_t yn)
{
    char cfg[HR_COMFY_PATH_MAX], dir[HR_COMFY_PATH_MAX];
    const char sep = hr_platform_dirsep();
    if (!hr_platform_comfy_desktop_dir(dir, sizeof dir))
        return false;
    if (!hr_comfy_join(dir, "config.json", sep, cfg, sizeof cfg))
        return false;
    hr_buf b;
    hr_buf_init(&b, (size_t)1 << 20);
    hr_error err = { 0 };
    bool found = false;
    if (hr_platform_read_file(cfg, &b, (size_t)1 << 20, &err) == 0)
        (void)hr_comfy_desktop_base(cfg, b.data ? b.data : "", b.len, base, bn, &found, &err);
    hr_buf_free(&b);
    if (found && hr_comfy_join(dir, "extra_models_config.yaml", sep, yaml, yn) && !hr_platform_is_file(yaml, NULL))
        yaml[0] = '\0';
    return found;
}

static bool is_install(const char *d)
{
    char a[HR_COMFY_PATH_MAX], b[HR_COMFY_PATH_MAX], c[HR_COMFY_PATH_MAX];
    const char sep = hr_platform_dirsep();
    if (!hr_comfy_join(d, "models", sep, a, sizeof a) || !hr_comfy_join(d, "main.py", sep, b, sizeof b) ||
        !hr_comfy_join(d, "custom_nodes", sep, c, sizeof c))
        return false;
    return hr_comfy_is_install(hr_platform_is_dir(a), hr_platform_is_file(b, NULL), hr_platform_is_dir(c));
}

bool hr_platform_find_comfyui(hr_comfy_found *f)
{
    memset(f, 0, sizeof *f);
    char cwd[HR_COMFY_PATH_MAX], home[HR_COMFY_PATH_MAX], base[HR_COMFY_PATH_MAX] = "";
    hr_comfy_where w = { .sep = hr_platform_dirsep() };
    if (hr_platform_cwd(cwd, sizeof cwd))
        w.cwd = cwd;
    if (hr_platform_home_dir(home, sizeof home))
        w.home = home;
    if (desktop(base, sizeof base, f->desktop_yaml, sizeof f->desktop_yaml))
        w.desktop_base = base;
    static char cand[HR_COMFY_MAX_CANDIDATES][HR_COMFY_PATH_MAX];
    /* in order: the Desktop app's base path, the current folder and its parents, home */
    hr_comfy_where one[3] = { { .desktop_base = w.desktop_base, .sep = w.sep },
                              { .cwd = w.cwd, .sep = w.sep },
                              { .home = w.home, .sep = w.sep } };
    static const char *const how[3] = { "desktop app", "current folder", "home folder" };
    for (int k = 0; k < 3; k++) {
        size_t n = hr_comfy_candidates(&one[k], cand, HR_COMFY_MAX_CANDIDATES);
        for (size_t i = 0; i < n; i++) {
            if (!is_install(cand[i]))
                continue;
            snprintf(f->dir, sizeof f->dir, "%s", cand[i]);
            f->how = how[k];
            if (k != 0)
                f->desktop_yaml[0] = '\0';
            return true;
        }
    }
    f->desktop_yaml[0] = '\0';
    return false;
}
