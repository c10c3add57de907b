/* headroom — the `workflow` report in text and JSON (docs/workflow.md). */
#include "core/scan/workflow_render.h"

#include "core/base/i18n.h"
#include "core/base/wrap.h"
#include "core/base/size.h"
#include "core/scan/models_report.h"

#include <stdio.h>
#include <string.h>

size_t hr_workflow_missing(const hr_workflow *wf)
{
    size_t n = 0;
    for (size_t i = 0; i < wf->n_models; i++)
        if (wf->models[i].role != HR_WF_ROLE_CONFIG && !wf->models[i].info_read)
            n++;
    return n;
}

void hr_wf_model_failed(hr_wf_model *m, int code, const hr_error *err)
{
    hr_model_problem_of(&m->problem, &m->info, code, err);
}

void hr_wf_problem_text(const hr_wf_model *m, hr_lang lang, char out[HR_WF_PROBLEM_MAX])
{
    hr_model_problem_text(&m->problem, lang, out, HR_WF_PROBLEM_MAX);
}

static uint64_t total_bytes(const hr_workflow *wf)
{
    uint64_t t = 0;
    for (size_t i = 0; i < wf->n_models; i++)
        if (wf->models[i].info_read)
            t = hr_sat_add(t, wf->models[i].info.file_bytes);
    return t;
}

/* the loader input's own name, shown as the user sees it in ComfyUI */
static const char wd_key[] = "weight_dtype";

static void text(const hr_workflow_report *r, hr_buf *o)
{
    const hr_workflow *wf = r->wf;
    char sz[32];
    hr_buf_printf(o, HR_T("Workflow: %s (%s)\n"), r->file,
                  wf->format == HR_WF_FORMAT_UI ? HR_T("UI format") : HR_T("API format"));
    hr_buf_printf(o, HR_T("%zu nodes run; %zu muted, %zu bypassed, %zu frontend-only; %zu subgraphs"), wf->n_order,
                  wf->n_muted, wf->n_bypassed, wf->n_frontend, wf->n_subgraphs);
    hr_buf_puts(o, "\n");
    if (r->comfyui) {
        hr_buf_printf(o, "%s %s%s%s", HR_T("ComfyUI:"), r->comfyui, r->extra_yaml ? " + " : "",
                      r->extra_yaml ? r->extra_yaml : "");
        if (r->found_how)
            hr_buf_printf(o, HR_T(" (found: %s)"), r->found_how);
        hr_buf_puts(o, "\n");
    }
    hr_size_gb(total_bytes(wf), sz, sizeof sz);
    hr_buf_printf(o, "\n");
    hr_buf_printf(o, HR_T("Models (%zu, %s found on disk):"), wf->n_models, sz);
    hr_buf_puts(o, "\n");
    for (size_t i = 0; i < wf->n_models; i++) {
        const hr_wf_model *m = &wf->models[i];
        hr_buf_printf(o, "  %-15s %s", hr_wf_role_name(m->role), m->name);
        if (m->info_read) {
            char arch[HR_MODEL_ARCH_MAX];
            hr_model_arch_text(&m->info, hr_lang_get(), arch);
            hr_size_gb(m->info.file_bytes, sz, sizeof sz);
            hr_buf_printf(o, "  %s  %s", sz, arch);
        }
        if (m->weight_dtype[0] && strcmp(m->weight_dtype, "default") != 0)
            hr_buf_printf(o, "  %s=%s", wd_key, m->weight_dtype);
        if (m->clip_type[0])
            hr_buf_printf(o, "  type=%s", m->clip_type);
        if (m->device[0] && strcmp(m->device, "default") != 0)
            hr_buf_printf(o, "  device=%s", m->device);
        if (m->role == HR_WF_ROLE_LORA) {
            hr_buf_printf(o, "  %s %g", HR_T("strength"), m->strength_model);
            if (strcmp(m->class_type, "LoraLoader") == 0)
                hr_buf_printf(o, "/%g", m->strength_clip);
        }
        hr_buf_printf(o, "  [%s %s]\n", m->node_id, m->class_type);
        if (m->path[0])
            hr_buf_printf(o, "      %s\n", m->path);
        if (hr_msg_is_set(&m->problem)) {
            char why[HR_WF_PROBLEM_MAX];
            hr_wf_problem_text(m, hr_lang_get(), why);
            const char *label = m->info_read || m->not_looked_for ? HR_T("note:") : HR_T("MISSING:");
            hr_buf_printf(o, "      %s%s%s\n", label, hr_label_gap(label), why);
        }
    }
    if (wf->n_latents) {
        hr_buf_printf(o, "\n%s\n", HR_T("Latent geometry:"));
        for (size_t i = 0; i < wf->n_latents; i++) {
            const hr_wf_latent *l = &wf->latents[i];
            hr_buf_printf(o, HR_T("  %llux%llu, batch %llu"), (unsigned long long)l->width,
                          (unsigned long long)l->height, (unsigned long long)l->batch);
            if (l->video)
                hr_buf_printf(o, HR_T(", %llu frames"), (unsigned long long)l->frames);
            hr_buf_printf(o, "  [%s %s]\n", l->node_id, l->class_type);
        }
    }
    if (wf->n_samplers) {
        hr_buf_printf(o, "\n%s\n", HR_T("Samplers:"));
        for (size_t i = 0; i < wf->n_samplers; i++) {
            const hr_wf_sampler *s = &wf->samplers[i];
            hr_buf_puts(o, " ");
            if (s->steps)
                hr_buf_printf(o, " %llu %s", (unsigned long long)s->steps, HR_T("steps"));
            if (s->cfg > 0)
                hr_buf_printf(o, " cfg %g", s->cfg);
            if (s->sampler_name[0])
                hr_buf_printf(o, " %s", s->sampler_name);
            if (s->scheduler[0])
                hr_buf_printf(o, "/%s", s->scheduler);
            if (s->denoise != 1)
                hr_buf_printf(o, " denoise %g", s->denoise);
            hr_buf_printf(o, "  [%s %s]\n", s->node_id, s->class_type);
        }
    }
    if (wf->n_decodes) {
        hr_buf_printf(o, "\n%s\n", HR_T("VAE:"));
        for (size_t i = 0; i < wf->n_decodes; i++) {
            const hr_wf_decode *d = &wf->decodes[i];
            if (d->tiled)
                hr_buf_printf(o,
                              d->encode ? HR_T("  encode tiled, tile %llu, overlap %llu")
                                        : HR_T("  decode tiled, tile %llu, overlap %llu"),
                              (unsigned long long)d->tile_size, (unsigned long long)d->overlap);
            else
                hr_buf_printf(o, "  %s %s", d->encode ? HR_T("encode") : HR_T("decode"), HR_T("not tiled"));
            hr_buf_printf(o, "  [%s %s]\n", d->node_id, d->class_type);
        }
    }
    if (wf->n_upscales) {
        hr_buf_printf(o, "\n%s\n", HR_T("Upscales:"));
        for (size_t i = 0; i < wf->n_upscales; i++) {
            const hr_wf_upscale *u = &wf->upscales[i];
            if (u->with_model)
                hr_buf_printf(o, "  %s", HR_T("by the upscale model"));
            else if (u->factor > 0)
                hr_buf_printf(o, "  x%g", u->factor);
            else
                hr_buf_printf(o, "  %s %llux%llu", HR_T("to"), (unsigned long long)u->width,
                              (unsigned long long)u->height);
            hr_buf_printf(o, "%s  [%s %s]\n", u->latent ? HR_T(" (latent)") : "", u->node_id, u->class_type);
        }
    }
    hr_buf_printf(o, "\n%s\n ", HR_T("Execution order:"));
    size_t col = 1;
    for (size_t i = 0; i < wf->n_order; i++) {
        size_t w = strlen(wf->order[i].id) + strlen(wf->order[i].class_type) + 4;
        if (col + w > 100) {
            hr_buf_puts(o, "\n ");
            col = 1;
        }
        hr_buf_printf(o, " %s %s%s", wf->order[i].id, wf->order[i].class_type, i + 1 < wf->n_order ? " >" : "");
        col += w;
    }
    hr_buf_puts(o, "\n");
}

static void json(const hr_workflow_report *r, hr_json_writer *w)
{
    const hr_workflow *wf = r->wf;
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_WORKFLOW_SCHEMA);
    hr_json_str(w, "file", r->file);
    hr_json_str(w, "format", wf->format == HR_WF_FORMAT_UI ? "ui" : "api");
    hr_json_str(w, "comfyui", r->comfyui);
    hr_json_str(w, "extra_model_paths", r->extra_yaml);
    hr_json_str(w, "comfyui_found", r->found_how);
    hr_json_begin_object(w, "nodes");
    hr_json_u64(w, "total", wf->n_nodes);
    hr_json_u64(w, "run", wf->n_order);
    hr_json_u64(w, "muted", wf->n_muted);
    hr_json_u64(w, "bypassed", wf->n_bypassed);
    hr_json_u64(w, "frontend_only", wf->n_frontend);
    hr_json_u64(w, "subgraphs", wf->n_subgraphs);
    hr_json_end_object(w);
    hr_json_u64(w, "model_bytes", total_bytes(wf));
    hr_json_u64(w, "missing", hr_workflow_missing(wf));
    hr_json_begin_array(w, "models");
    for (size_t i = 0; i < wf->n_models; i++) {
        const hr_wf_model *m = &wf->models[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node_id", m->node_id);
        hr_json_str(w, "class_type", m->class_type);
        hr_json_str(w, "input", m->input);
        hr_json_str(w, "role", hr_wf_role_name(m->role));
        hr_json_str(w, "folder", m->folder);
        hr_json_str(w, "name", m->name);
        hr_json_bool(w, "gguf", m->gguf);
        hr_json_str(w, "weight_dtype", m->weight_dtype[0] ? m->weight_dtype : NULL);
        hr_json_str(w, "clip_type", m->clip_type[0] ? m->clip_type : NULL);
        hr_json_str(w, "device", m->device[0] ? m->device : NULL);
        if (m->role == HR_WF_ROLE_TEXT_ENCODER)
            hr_json_u64(w, "clip_count", (uint64_t)m->clip_count);
        if (m->role == HR_WF_ROLE_LORA) {
            hr_json_double(w, "strength_model", m->strength_model);
            hr_json_double(w, "strength_clip", m->strength_clip);
        }
        hr_json_bool(w, "resolved", m->resolved);
        hr_json_str(w, "path", m->path[0] ? m->path : NULL);
        char why[HR_WF_PROBLEM_MAX]; /* English: JSON speaks it whatever the user's language */
        hr_wf_problem_text(m, HR_LANG_EN, why);
        hr_json_str(w, "problem", why[0] ? why : NULL);
        if (m->info_read) {
            hr_json_begin_object(w, "file");
            hr_model_info_json(&m->info, w);
            hr_json_end_object(w);
        } else {
            hr_json_null(w, "file");
        }
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "latents");
    for (size_t i = 0; i < wf->n_latents; i++) {
        const hr_wf_latent *l = &wf->latents[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node_id", l->node_id);
        hr_json_str(w, "class_type", l->class_type);
        hr_json_u64(w, "width", l->width);
        hr_json_u64(w, "height", l->height);
        hr_json_u64(w, "batch", l->batch);
        hr_json_u64(w, "frames", l->frames);
        hr_json_bool(w, "video", l->video);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "samplers");
    for (size_t i = 0; i < wf->n_samplers; i++) {
        const hr_wf_sampler *s = &wf->samplers[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node_id", s->node_id);
        hr_json_str(w, "class_type", s->class_type);
        hr_json_u64(w, "steps", s->steps);
        hr_json_double(w, "cfg", s->cfg);
        hr_json_str(w, "sampler_name", s->sampler_name[0] ? s->sampler_name : NULL);
        hr_json_str(w, "scheduler", s->scheduler[0] ? s->scheduler : NULL);
        hr_json_double(w, "denoise", s->denoise);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "vae");
    for (size_t i = 0; i < wf->n_decodes; i++) {
        const hr_wf_decode *d = &wf->decodes[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node_id", d->node_id);
        hr_json_str(w, "class_type", d->class_type);
        hr_json_bool(w, "encode", d->encode);
        hr_json_bool(w, "tiled", d->tiled);
        if (d->tiled) {
            hr_json_u64(w, "tile_size", d->tile_size);
            hr_json_u64(w, "overlap", d->overlap);
            hr_json_u64(w, "temporal_size", d->temporal_size);
            hr_json_u64(w, "temporal_overlap", d->temporal_overlap);
        }
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "upscales");
    for (size_t i = 0; i < wf->n_upscales; i++) {
        const hr_wf_upscale *u = &wf->upscales[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node_id", u->node_id);
        hr_json_str(w, "class_type", u->class_type);
        hr_json_bool(w, "with_model", u->with_model);
        hr_json_bool(w, "latent", u->latent);
        hr_json_double(w, "factor", u->factor);
        hr_json_u64(w, "width", u->width);
        hr_json_u64(w, "height", u->height);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_begin_array(w, "order");
    for (size_t i = 0; i < wf->n_order; i++) {
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "id", wf->order[i].id);
        hr_json_str(w, "class_type", wf->order[i].class_type);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);
}

void hr_workflow_render(const hr_workflow_report *r, hr_render *rd)
{
    switch (rd->format) {
    case HR_FORMAT_TEXT: text(r, rd->out); break;
    case HR_FORMAT_JSON: json(r, &rd->json); break;
    default: hr_render_unsupported(rd); break;
    }
}
