/* headroom — ComfyUI's model folders and extra_model_paths.yaml (comfy_paths.h). */
#include "core/scan/comfy_paths.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

void hr_comfy_paths_init(hr_comfy_paths *p, const char *base, char sep)
{
    memset(p, 0, sizeof *p);
    snprintf(p->base, sizeof p->base, "%s", base ? base : "");
    p->sep = sep;
}

const char *hr_comfy_map_legacy(const char *key)
{
    if (strcmp(key, "unet") == 0 || strcmp(key, "unet_gguf") == 0)
        return "diffusion_models";
    if (strcmp(key, "clip") == 0 || strcmp(key, "clip_gguf") == 0)
        return "text_encoders";
    return key;
}

/* The folders under models/ of each key (folder_paths.py). */
static const struct {
    const char *key;
    const char *sub[2];
} folders[] = {
    { "checkpoints", { "checkpoints" } },
    { "configs", { "configs" } },
    { "loras", { "loras" } },
    { "vae", { "vae" } },
    { "text_encoders", { "text_encoders", "clip" } },
    { "diffusion_models", { "unet", "diffusion_models" } },
    { "clip_vision", { "clip_vision" } },
    { "style_models", { "style_models" } },
    { "embeddings", { "embeddings" } },
    { "diffusers", { "diffusers" } },
    { "vae_approx", { "vae_approx" } },
    { "controlnet", { "controlnet", "t2i_adapter" } },
    { "gligen", { "gligen" } },
    { "upscale_models", { "upscale_models" } },
    { "latent_upscale_models", { "latent_upscale_models" } },
    { "hypernetworks", { "hypernetworks" } },
    { "photomaker", { "photomaker" } },
    { "classifiers", { "classifiers" } },
    { "model_patches", { "model_patches" } },
    { "audio_encoders", { "audio_encoders" } },
};

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

static bool is_abs(const char *s)
{
    return is_sep(s[0]) || (((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z') && s[1] == ':');
}

bool hr_comfy_join(const char *dir, const char *rel, char sep, char *out, size_t n)
{
    size_t k = strlen(dir);
    bool need = k && !is_sep(dir[k - 1]);
    int w = snprintf(out, n, "%s%s%s", dir, need ? (sep == '\\' ? "\\" : "/") : "", rel);
    return w >= 0 && (size_t)w < n;
}

void hr_comfy_rel_name(const char *name, char sep, char *out, size_t n)
{
    size_t parts[64], np = 0, k = 0;
    out[0] = '\0';
    if (n == 0)
        return;
    const char *p = name;
    while (*p) {
        while (is_sep(*p))
            p++;
        const char *s = p;
        while (*p && !is_sep(*p))
            p++;
        size_t len = (size_t)(p - s);
        if (len == 0 || (len == 1 && s[0] == '.'))
            continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (np) {
                k = parts[--np];
                out[k] = '\0';
            }
            continue;
        }
        if (np >= 64 || k + len + 2 > n)
            break;
        parts[np++] = k;
        if (k)
            out[k++] = sep;
        memcpy(out + k, s, len);
        k += len;
        out[k] = '\0';
    }
}

size_t hr_comfy_search_dirs(const hr_comfy_paths *p, const char *key, char (*out)[HR_COMFY_PATH_MAX], size_t max)
{
    key = hr_comfy_map_legacy(key);
    size_t n = 0;
    /* is_default folders: each was inserted at the front, so the last one comes first */
    for (size_t i = p->n_extra; i-- > 0 && n < max;)
        if (p->extra[i].is_default && strcmp(p->extra[i].key, key) == 0)
            snprintf(out[n++], HR_COMFY_PATH_MAX, "%s", p->extra[i].path);
    if (p->base[0]) {
        const char *const *sub = NULL;
        const char *one[2] = { key, NULL };
        for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++)
            if (strcmp(folders[i].key, key) == 0)
                sub = folders[i].sub;
        if (!sub)
            sub = one; /* a custom node's key: models/<key> */
        for (size_t i = 0; i < 2 && sub[i] && n < max; i++) {
            char models[HR_COMFY_PATH_MAX];
            if (hr_comfy_join(p->base, "models", p->sep, models, sizeof models) &&
                hr_comfy_join(models, sub[i], p->sep, out[n], HR_COMFY_PATH_MAX))
                n++;
        }
    }
    for (size_t i = 0; i < p->n_extra && n < max; i++)
        if (!p->extra[i].is_default && strcmp(p->extra[i].key, key) == 0)
            snprintf(out[n++], HR_COMFY_PATH_MAX, "%s", p->extra[i].path);
    return n;
}

/* ---- extra_model_paths.yaml ---- */

/* $VAR, ${VAR}, %VAR% and a leading ~ expanded; unknown variables stay as written. */
static void expand(const char *in, hr_env_fn env, char *out, size_t n)
{
    size_t k = 0;
    char v[HR_COMFY_PATH_MAX];
    if (in[0] == '~' && (in[1] == '\0' || is_sep(in[1])) && env &&
        (env("HOME", v, sizeof v) || env("USERPROFILE", v, sizeof v))) {
        k = (size_t)snprintf(out, n, "%s", v);
        in++;
    }
    for (; *in && k + 1 < n; in++) {
        const char *name = NULL;
        size_t nl = 0;
        const char *next = in;
        if (in[0] == '$' && in[1] == '{') {
            const char *e = strchr(in + 2, '}');
            if (e) {
                name = in + 2;
                nl = (size_t)(e - name);
                next = e;
            }
        } else if (in[0] == '$') {
            const char *e = in + 1;
            while ((*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9') || *e == '_')
                e++;
            if (e > in + 1) {
                name = in + 1;
                nl = (size_t)(e - name);
                next = e - 1;
            }
        } else if (in[0] == '%') {
            const char *e = strchr(in + 1, '%');
            if (e && e > in + 1) {
                name = in + 1;
                nl = (size_t)(e - name);
                next = e;
            }
        }
        char nm[128];
        if (name && nl < sizeof nm && env) {
            memcpy(nm, name, nl);
            nm[nl] = '\0';
            if (env(nm, v, sizeof v)) {
                k += (size_t)snprintf(out + k, n - k, "%s", v);
                if (k >= n)
                    k = n - 1;
                in = next;
                continue;
            }
        }
        out[k++] = *in;
    }
    out[k < n ? k : n - 1] = '\0';
}

/* normpath: separators unified, "." and empty parts dropped, ".." applied */
static void normpath(const char *in, char sep, char *out, size_t n)
{
    char tmp[HR_COMFY_PATH_MAX];
    size_t lead = 0;
    char prefix[8] = "";
    if (((in[0] | 0x20) >= 'a' && (in[0] | 0x20) <= 'z') && in[1] == ':') {
        snprintf(prefix, sizeof prefix, "%c:%c", in[0], is_sep(in[2]) ? sep : '\0');
        lead = is_sep(in[2]) ? 3 : 2;
    } else if (is_sep(in[0])) {
        snprintf(prefix, sizeof prefix, "%c", sep);
        lead = 1;
    }
    hr_comfy_rel_name(in + lead, sep, tmp, sizeof tmp);
    snprintf(out, n, "%s%s", prefix, tmp);
}

static void unquote(char *s)
{
    size_t k = strlen(s);
    if (k >= 2 && ((s[0] == '"' && s[k - 1] == '"') || (s[0] == '\'' && s[k - 1] == '\''))) {
        memmove(s, s + 1, k - 2);
        s[k - 2] = '\0';
    }
}

typedef struct section {
    char bases[8][HR_COMFY_PATH_MAX];
    size_t nbases;
    bool is_default;
    size_t first_extra; /* entries of this section start here */
} section;

static int add_dirs(const char *name, unsigned line, const char *key, const char *value, const char *yaml_dir,
                    hr_env_fn env, section *sec, hr_comfy_paths *p, hr_error *err)
{
    const char *v = value;
    while (*v) {
        const char *e = strchr(v, '\n');
        size_t len = e ? (size_t)(e - v) : strlen(v);
        char one[HR_COMFY_PATH_MAX], x[HR_COMFY_PATH_MAX], full[HR_COMFY_PATH_MAX];
        if (len >= sizeof one)
            return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: a path longer than %d bytes"), name, line,
                                HR_COMFY_PATH_MAX);
        memcpy(one, v, len);
        one[len] = '\0';
        v += len + (e ? 1 : 0);
        hr_trim(one);
        if (!one[0])
            continue;
        expand(one, env, x, sizeof x);
        size_t nb = sec->nbases ? sec->nbases : 1;
        for (size_t b = 0; b < nb; b++) {
            const char *base = sec->nbases ? sec->bases[b] : yaml_dir;
            char j[HR_COMFY_PATH_MAX];
            if (is_abs(x))
                snprintf(j, sizeof j, "%s", x);
            else if (!hr_comfy_join(base, x, p->sep, j, sizeof j))
                return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: path too long"), name, line);
            normpath(j, p->sep, full, sizeof full);
            if (p->n_extra >= HR_COMFY_MAX_EXTRA)
                return hr_error_set(err, HR_ETOOBIG, HR_T("%s: more than %d folders"), name, HR_COMFY_MAX_EXTRA);
            hr_comfy_dir *d = &p->extra[p->n_extra++];
            snprintf(d->key, sizeof d->key, "%s", hr_comfy_map_legacy(key));
            snprintf(d->path, sizeof d->path, "%s", full);
            d->is_default = sec->is_default;
        }
    }
    return 0;
}

static bool yaml_bool(const char *s, bool *out)
{
    static const char *const t[] = { "true", "yes", "on" }, *const f[] = { "false", "no", "off" };
    for (size_t i = 0; i < 3; i++) {
        if (hr_str_ieq(s, t[i])) {
            *out = true;
            return true;
        }
        if (hr_str_ieq(s, f[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* strip a comment: " #" outside quotes */
static void strip_comment(char *s)
{
    char q = 0;
    for (char *c = s; *c; c++) {
        if (q) {
            if (*c == q)
                q = 0;
        } else if (*c == '"' || *c == '\'') {
            q = *c;
        } else if (*c == '#' && (c == s || c[-1] == ' ')) {
            *c = '\0';
            break;
        }
    }
}

int hr_comfy_yaml_parse(const char *name, const char *buf, size_t len, const char *yaml_dir, hr_env_fn env,
                        hr_comfy_paths *p, hr_error *err)
{
    if (len > ((size_t)1 << 20))
        return hr_error_set(err, HR_ETOOBIG, HR_T("%s: larger than 1 MiB"), name);
    const char *cur = buf, *end = buf + len;
    const char *line;
    size_t n;
    unsigned ln = 0;
    section sec;
    bool in_section = false;
    /* a block scalar being read: its key, its first line, its indent */
    char block_key[32] = "";
    char block[8192];
    size_t block_len = 0;
    size_t block_indent = 0, key_indent = 0;
    unsigned block_line = 0;
    bool in_block = false;
    size_t sec_indent = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        cur += 3;
    int r = 0;
    for (;;) {
        bool more = hr_next_line(&cur, end, &line, &n);
        char l[HR_COMFY_PATH_MAX + 64];
        if (more) {
            ln++;
            if (n >= sizeof l)
                return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u is too long"), name, ln);
            memcpy(l, line, n);
            l[n] = '\0';
            if (n && l[n - 1] == '\r')
                l[--n] = '\0';
            for (size_t i = 0; i < n; i++)
                if ((unsigned char)l[i] < 0x20 && l[i] != '\t')
                    return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: a control character"), name, ln);
        }
        size_t ind = 0;
        if (more)
            while (l[ind] == ' ')
                ind++;
        bool blank = more && (l[ind] == '\0' || l[ind] == '#');
        if (in_block) {
            if (more && (blank || ind > key_indent)) {
                if (!blank || l[ind] == '\0') {
                    if (block_indent == 0 && !blank)
                        block_indent = ind;
                    if (!blank && ind < block_indent)
                        return hr_error_set(err, HR_EPARSE,
                                            HR_T("%s: line %u: less indented than the "
                                                 "block it is in"),
                                            name, ln);
                    const char *t = blank ? "" : l + block_indent;
                    size_t tl = strlen(t);
                    if (block_len + tl + 2 > sizeof block)
                        return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: block too long"), name, ln);
                    memcpy(block + block_len, t, tl);
                    block_len += tl;
                    block[block_len++] = '\n';
                    block[block_len] = '\0';
                } else if (l[ind] == '#' && block_indent && ind >= block_indent) {
                    /* a '#' line inside a block scalar is text: ComfyUI keeps it in the path */
                    const char *t = l + block_indent;
                    size_t tl = strlen(t);
                    if (block_len + tl + 2 > sizeof block)
                        return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: block too long"), name, ln);
                    memcpy(block + block_len, t, tl);
                    block_len += tl;
                    block[block_len++] = '\n';
                    block[block_len] = '\0';
                }
                continue;
            }
            in_block = false;
            if ((r = add_dirs(name, block_line, block_key, block, yaml_dir, env, &sec, p, err)) != 0)
                return r;
        }
        if (!more)
            break;
        if (blank)
            continue;
        if (strchr(l, '\t') && (size_t)(strchr(l, '\t') - l) <= ind)
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: line %u: a tab in the indentation (YAML "
                                     "allows spaces only)"),
                                name, ln);
        if (strcmp(l, "---") == 0 || strcmp(l, "...") == 0)
            continue;
        strip_comment(l);
        char *colon = NULL;
        {
            char q = 0;
            for (char *c = l + ind; *c; c++) {
                if (q) {
                    if (*c == q)
                        q = 0;
                    continue;
                }
                if (*c == '"' || *c == '\'') {
                    q = *c;
                    continue;
                }
                if (*c == ':' && (c[1] == '\0' || c[1] == ' ')) {
                    colon = c;
                    break;
                }
            }
        }
        if (!colon || l[ind] == '-' || l[ind] == '[' || l[ind] == '{' || l[ind] == '&' || l[ind] == '*' ||
            l[ind] == '!' || l[ind] == '?')
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: line %u: not a \"key: value\" line (ComfyUI "
                                     "reads sections of folder keys and paths)"),
                                name, ln);
        *colon = '\0';
        char key[64], val[HR_COMFY_PATH_MAX];
        snprintf(key, sizeof key, "%s", l + ind);
        hr_trim(key);
        unquote(key);
        snprintf(val, sizeof val, "%s", colon + 1);
        hr_trim(val);
        if (ind == 0) {
            if (val[0])
                return hr_error_set(err, HR_EPARSE,
                                    HR_T("%s: line %u: \"%s\" at the top level must "
                                         "start a section (its folders indented below it)"),
                                    name, ln, key);
            memset(&sec, 0, sizeof sec);
            sec.first_extra = p->n_extra;
            in_section = true;
            sec_indent = 0;
            continue;
        }
        if (!in_section)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: indented before any section"), name, ln);
        if (sec_indent == 0)
            sec_indent = ind;
        else if (ind != sec_indent)
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: line %u: indented differently from the "
                                     "section's other keys (deeper nesting is not read by ComfyUI)"),
                                name, ln);
        if (val[0] == '[' || val[0] == '{' || val[0] == '&' || val[0] == '*' || val[0] == '!' || val[0] == '>')
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: line %u: \"%s\": ComfyUI reads a path or a "
                                     "\"|\" block of paths here"),
                                name, ln, key);
        unquote(val);
        bool is_block = strcmp(val, "|") == 0 || strcmp(val, "|-") == 0 || strcmp(val, "|+") == 0;
        if (strcmp(key, "is_default") == 0) {
            if (!yaml_bool(val, &sec.is_default))
                return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: is_default must be true or false"), name, ln);
            /* is_default applies to the whole section, wherever it is written */
            for (size_t i = sec.first_extra; i < p->n_extra; i++)
                p->extra[i].is_default = sec.is_default;
            continue;
        }
        if (strcmp(key, "base_path") == 0 || strcmp(key, "base_paths") == 0) {
            if (is_block)
                return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: %s as a block is not read"), name, ln, key);
            char x[HR_COMFY_PATH_MAX], j[HR_COMFY_PATH_MAX];
            expand(val, env, x, sizeof x);
            if (!x[0])
                continue;
            if (sec.nbases >= 8)
                return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: too many base paths"), name, ln);
            if (is_abs(x))
                snprintf(j, sizeof j, "%s", x);
            else if (!hr_comfy_join(yaml_dir, x, p->sep, j, sizeof j))
                return hr_error_set(err, HR_ETOOBIG, HR_T("%s: line %u: path too long"), name, ln);
            normpath(j, p->sep, sec.bases[sec.nbases++], HR_COMFY_PATH_MAX);
            continue;
        }
        if (is_block) {
            in_block = true;
            snprintf(block_key, sizeof block_key, "%s", key);
            block[0] = '\0';
            block_len = 0;
            block_indent = 0;
            key_indent = ind;
            block_line = ln;
            continue;
        }
        if ((r = add_dirs(name, ln, key, val, yaml_dir, env, &sec, p, err)) != 0)
            return r;
    }
    return 0;
}
