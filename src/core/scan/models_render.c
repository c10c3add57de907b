/* headroom — the `models` report: text (one line per file, a line per component, totals per
 * folder) and JSON (`files[]`, bytes everywhere). */
#include "core/scan/models_report.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_models_report_init(hr_models_report *r)
{
    memset(r, 0, sizeof *r);
}

void hr_models_report_free(hr_models_report *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

hr_models_entry *hr_models_report_add(hr_models_report *r)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        hr_models_entry *p = realloc(r->v, nc * sizeof *p);
        if (!p)
            return NULL;
        r->v = p;
        r->cap = nc;
    }
    hr_models_entry *e = &r->v[r->n++];
    memset(e, 0, sizeof *e);
    hr_model_info_init(&e->info);
    return e;
}

void hr_models_link_refused(hr_models_report *r, const char *link)
{
    if (r->walk.n_links < HR_MODELS_LINKS_MAX)
        snprintf(r->walk.links[r->walk.n_links], sizeof r->walk.links[0], "%s", link);
    r->walk.n_links++;
}

static int cmp_entry(const void *a, const void *b)
{
    const hr_models_entry *x = a, *y = b;
    int c = strcmp(x->folder, y->folder);
    return c ? c : strcmp(x->path, y->path);
}

void hr_models_report_sort(hr_models_report *r)
{
    if (r->n > 1)
        qsort(r->v, r->n, sizeof *r->v, cmp_entry);
}

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

void hr_models_folder_of(const char *path, char *out, size_t n)
{
    out[0] = '\0';
    size_t len = strlen(path);
    /* ".../models/<folder>/..." */
    for (size_t i = 0; i + 8 <= len; i++) {
        if ((i == 0 || is_sep(path[i - 1])) && strncmp(path + i, "models", 6) == 0 && is_sep(path[i + 6])) {
            const char *f = path + i + 7;
            size_t k = 0;
            while (f[k] && !is_sep(f[k]))
                k++;
            if (f[k]) { /* a folder, not the file itself */
                snprintf(out, n, "%.*s", (int)k, f);
            }
        }
    }
    if (out[0])
        return;
    size_t end = len;
    while (end > 0 && !is_sep(path[end - 1]))
        end--;
    if (end == 0)
        return;
    size_t start = end - 1;
    while (start > 0 && !is_sep(path[start - 1]))
        start--;
    snprintf(out, n, "%.*s", (int)(end - 1 - start), path + start);
}

void hr_models_entry_failed(hr_models_entry *e, int code, const hr_error *err)
{
    e->error = code;
    hr_model_problem_of(&e->error_msg, &e->info, code, err);
}

void hr_models_error_text(const hr_models_entry *e, hr_lang lang, char out[HR_ERROR_MSG_MAX])
{
    hr_model_problem_text(&e->error_msg, lang, out, HR_ERROR_MSG_MAX);
}

static void params_text(uint64_t p, char *out, size_t n)
{
    if (p >= 1000000000ull)
        snprintf(out, n, "%.2fB", (double)p / 1e9);
    else if (p >= 1000000ull)
        snprintf(out, n, "%.1fM", (double)p / 1e6);
    else
        snprintf(out, n, "%llu", (unsigned long long)p);
}

static void text_entry(const hr_models_entry *e, hr_buf *o)
{
    char sz[32], pr[32], why[HR_ERROR_MSG_MAX], arch[HR_MODEL_ARCH_MAX];
    const hr_model_info *m = &e->info;
    hr_lang lang = hr_lang_get();
    hr_size_gb(m->file_bytes, sz, sizeof sz);
    if (e->error) {
        hr_models_error_text(e, lang, why);
        hr_buf_printf(o, HR_T("  %s\n    error: %s\n"), hr_path_base(e->path), why);
        return;
    }
    hr_model_arch_text(m, lang, arch);
    hr_buf_printf(o, "  %-44s %9s  %-15s %s", hr_path_base(e->path), sz, m->kind, arch);
    if (m->lora_rank)
        hr_buf_printf(o, HR_T(", rank %u"), m->lora_rank);
    if (m->upscale)
        hr_buf_printf(o, ", %ux", m->upscale);
    hr_buf_puts(o, "\n");
    if (m->coarse) {
        hr_buf_printf(o, "    %s %s, %s\n", hr_model_format_name(m->format),
                      HR_T("(legacy: never unpickled; estimate is coarser)"),
                      m->format == HR_MODEL_FMT_TORCH_ZIP ? HR_T("tensor bytes from the zip directory")
                                                          : HR_T("file size only"));
    } else {
        params_text(m->params, pr, sizeof pr);
        hr_buf_printf(o, HR_T("    %s, %zu tensors, %s params:"), hr_model_format_name(m->format), m->tensors, pr);
        for (size_t i = 0; i < m->n_dtypes; i++) {
            hr_size_gb(m->dtypes[i].bytes, sz, sizeof sz);
            hr_buf_printf(o, " %s %s%s", m->dtypes[i].name, sz, m->dtypes[i].known ? "" : HR_T(" (unknown dtype)"));
        }
        hr_buf_puts(o, "\n");
    }
    for (size_t i = 0; i < m->n_comps; i++) {
        const hr_model_component *c = &m->comps[i];
        hr_size_gb(c->bytes, sz, sizeof sz);
        params_text(c->params, pr, sizeof pr);
        char ca[HR_MODEL_COMP_ARCH_MAX];
        hr_model_comp_arch_text(c, lang, ca);
        hr_buf_printf(o, "      %-16s %9s  %8s %s  %s\n", c->name, sz, pr, HR_T("params"), ca);
    }
    if (hr_msg_is_set(&m->note)) {
        char note[HR_MODEL_NOTE_MAX];
        hr_model_note_text(m, lang, note);
        hr_buf_printf(o, HR_T("    note: %s\n"), note);
    }
}

static void text(const hr_models_report *r, hr_buf *o)
{
    uint64_t total = 0;
    for (size_t i = 0; i < r->n; i++)
        total += r->v[i].info.file_bytes;
    char sz[32];
    hr_size_gb(total, sz, sizeof sz);
    if (r->root[0]) {
        hr_buf_printf(o, "%s %s", HR_T("ComfyUI:"), r->root);
        if (r->found_how[0])
            hr_buf_printf(o, HR_T(" (found: %s)"), r->found_how);
        hr_buf_puts(o, "\n");
    }
    hr_buf_printf(o, HR_T("%zu model files, %s"), r->n, sz);
    if (r->errors)
        hr_buf_printf(o, HR_T(" (%zu could not be read)"), r->errors);
    hr_buf_puts(o, "\n");
    for (size_t i = 0; i < r->n;) {
        size_t j = i;
        uint64_t ft = 0;
        while (j < r->n && strcmp(r->v[j].folder, r->v[i].folder) == 0)
            ft += r->v[j++].info.file_bytes;
        hr_size_gb(ft, sz, sizeof sz);
        if (j - i == 1)
            hr_buf_printf(o, HR_T("\n%s/  (1 file, %s)\n"), r->v[i].folder[0] ? r->v[i].folder : ".", sz);
        else
            hr_buf_printf(o, HR_T("\n%s/  (%zu files, %s)\n"), r->v[i].folder[0] ? r->v[i].folder : ".", j - i, sz);
        for (; i < j; i++)
            text_entry(&r->v[i], o);
    }
    char shown[1024];
    if (r->walk.n_links)
        hr_buf_puts(o, "\n");
    for (size_t i = 0; i < r->walk.n_links && i < HR_MODELS_LINKS_MAX; i++)
        hr_buf_printf(o,
                      HR_T("not followed: %s: a link to the disk's root or to a folder above "
                           "it (the whole disk would be walked)\n"),
                      hr_text_shown(r->walk.links[i], shown, sizeof shown));
    if (r->walk.n_links > HR_MODELS_LINKS_MAX)
        hr_buf_printf(o, HR_T("not followed: %zu more such links\n"), r->walk.n_links - HR_MODELS_LINKS_MAX);
    if (r->walk.stop_reason) {
        hr_text_shown(r->walk.stopped_in, shown, sizeof shown);
        hr_buf_puts(o, "\n");
        if (strcmp(r->walk.stop_reason, "files") == 0)
            hr_buf_printf(o,
                          HR_T("stopped: more than %llu files; the walk ended in %s, and the "
                               "files above are those found before it\n"),
                          (unsigned long long)r->walk.file_limit, shown);
        else
            hr_buf_printf(o,
                          HR_T("stopped: %s holds more entries than one folder may; the walk "
                               "ended there, and the files above are those found before it\n"),
                          shown);
    }
}

void hr_model_info_json(const hr_model_info *m, hr_json_writer *w)
{
    /* JSON speaks English whatever the user's language */
    char arch[HR_MODEL_ARCH_MAX], note[HR_MODEL_NOTE_MAX];
    hr_model_arch_text(m, HR_LANG_EN, arch);
    hr_model_note_text(m, HR_LANG_EN, note);
    hr_json_u64(w, "bytes", m->file_bytes);
    hr_json_u64(w, "tensor_bytes", m->tensor_bytes);
    if (m->coarse)
        hr_json_null(w, "params");
    else
        hr_json_u64(w, "params", m->params);
    hr_json_u64(w, "tensors", m->tensors);
    hr_json_str(w, "format", hr_model_format_name(m->format));
    hr_json_bool(w, "coarse", m->coarse);
    hr_json_str(w, "kind", m->kind);
    hr_json_str(w, "architecture", arch);
    hr_json_begin_object(w, "dtypes");
    for (size_t i = 0; i < m->n_dtypes; i++)
        hr_json_u64(w, m->dtypes[i].name, m->dtypes[i].bytes);
    hr_json_end_object(w);
    hr_json_begin_array(w, "unknown_dtypes");
    for (size_t i = 0; i < m->n_dtypes; i++)
        if (!m->dtypes[i].known)
            hr_json_str(w, NULL, m->dtypes[i].name);
    hr_json_end_array(w);
    hr_json_begin_array(w, "components");
    for (size_t i = 0; i < m->n_comps; i++) {
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "name", m->comps[i].name);
        char ca[HR_MODEL_COMP_ARCH_MAX];
        hr_model_comp_arch_text(&m->comps[i], HR_LANG_EN, ca);
        hr_json_str(w, "architecture", ca[0] ? ca : NULL);
        hr_json_u64(w, "bytes", m->comps[i].bytes);
        hr_json_u64(w, "params", m->comps[i].params);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    if (m->lora_rank)
        hr_json_u64(w, "lora_rank", m->lora_rank);
    if (m->upscale)
        hr_json_u64(w, "upscale", m->upscale);
    if (m->format == HR_MODEL_FMT_GGUF) {
        hr_json_u64(w, "gguf_version", m->gguf_version);
        hr_json_str(w, "gguf_architecture", m->gguf_arch[0] ? m->gguf_arch : NULL);
    }
    hr_json_u64(w, "metadata_keys", m->metadata_keys);
    hr_json_str(w, "note", note[0] ? note : NULL);
}

static void json(const hr_models_report *r, hr_json_writer *w)
{
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_MODELS_SCHEMA);
    hr_json_str(w, "comfyui", r->root[0] ? r->root : NULL);
    hr_json_str(w, "comfyui_found", r->found_how[0] ? r->found_how : NULL);
    uint64_t total = 0;
    for (size_t i = 0; i < r->n; i++)
        total += r->v[i].info.file_bytes;
    hr_json_u64(w, "total_bytes", total);
    hr_json_begin_array(w, "files");
    for (size_t i = 0; i < r->n; i++) {
        const hr_models_entry *e = &r->v[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "path", e->path);
        hr_json_str(w, "folder", e->folder);
        if (e->error) {
            hr_json_u64(w, "bytes", e->info.file_bytes);
            char why[HR_ERROR_MSG_MAX];
            hr_models_error_text(e, HR_LANG_EN, why);
            hr_json_str(w, "error", why);
        } else {
            hr_model_info_json(&e->info, w);
        }
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "folders");
    for (size_t i = 0; i < r->n;) {
        size_t j = i;
        uint64_t ft = 0;
        while (j < r->n && strcmp(r->v[j].folder, r->v[i].folder) == 0)
            ft += r->v[j++].info.file_bytes;
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "folder", r->v[i].folder);
        hr_json_u64(w, "files", j - i);
        hr_json_u64(w, "bytes", ft);
        hr_json_end_object(w);
        i = j;
    }
    hr_json_end_array(w);
    hr_json_begin_object(w, "walk");
    hr_json_bool(w, "complete", r->walk.stop_reason == NULL);
    hr_json_str(w, "stopped_in", r->walk.stop_reason ? r->walk.stopped_in : NULL);
    hr_json_str(w, "stop_reason", r->walk.stop_reason);
    hr_json_u64(w, "file_limit", r->walk.file_limit);
    hr_json_u64(w, "links_not_followed_count", r->walk.n_links);
    hr_json_begin_array(w, "links_not_followed");
    for (size_t i = 0; i < r->walk.n_links && i < HR_MODELS_LINKS_MAX; i++)
        hr_json_str(w, NULL, r->walk.links[i]);
    hr_json_end_array(w);
    hr_json_end_object(w);
    hr_json_end_object(w);
}

void hr_models_render(const hr_models_report *r, hr_render *rd)
{
    switch (rd->format) {
    case HR_FORMAT_TEXT: text(r, rd->out); break;
    case HR_FORMAT_JSON: json(r, &rd->json); break;
    default: hr_render_unsupported(rd); break;
    }
}
