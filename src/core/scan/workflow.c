/* headroom — reading a ComfyUI workflow (workflow.h): build one graph from either format,
 * expanding subgraphs and dropping muted nodes; order it (Kahn, ties by the order the
 * nodes were met, so the same file always gives the same order; a cycle is an error that
 * names its nodes); then read what each node that runs loads and makes, from the widget
 * order of its class (the frontend's serialisation) or from its named inputs (API). */
#include "core/scan/workflow.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/base/json_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hr_wf_role_name(hr_wf_role r)
{
    static const char *const n[] = { "checkpoint",  "diffusion_model", "text_encoder",  "vae",
                                     "lora",        "controlnet",      "upscale_model", "clip_vision",
                                     "style_model", "gligen",          "model_patch",   "config" };
    return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "unknown";
}

/* ---- node classes: the widget order the frontend serialises, and what each one is ---- */
typedef enum cls_kind { K_LOADER = 1, K_LATENT, K_SAMPLER, K_DECODE, K_UPSCALE, K_OTHER } cls_kind;

typedef struct file_input {
    const char *input;
    hr_wf_role role;
    const char *folder;
} file_input;

typedef struct cls {
    const char *type;
    cls_kind kind;
    const char *w[12];   /* widgets in order, NULL-ended */
    file_input files[4]; /* loaders: the widgets that name files */
    bool gguf;
} cls;

#define CK HR_WF_ROLE_CHECKPOINT
#define DM HR_WF_ROLE_DIFFUSION_MODEL
#define TE HR_WF_ROLE_TEXT_ENCODER
static const cls classes[] = {
    { "CheckpointLoaderSimple", K_LOADER, { "ckpt_name" }, { { "ckpt_name", CK, "checkpoints" } }, false },
    { "CheckpointLoader",
      K_LOADER,
      { "config_name", "ckpt_name" },
      { { "ckpt_name", CK, "checkpoints" }, { "config_name", HR_WF_ROLE_CONFIG, "configs" } },
      false },
    { "unCLIPCheckpointLoader", K_LOADER, { "ckpt_name" }, { { "ckpt_name", CK, "checkpoints" } }, false },
    { "ImageOnlyCheckpointLoader", K_LOADER, { "ckpt_name" }, { { "ckpt_name", CK, "checkpoints" } }, false },
    { "UNETLoader", K_LOADER, { "unet_name", "weight_dtype" }, { { "unet_name", DM, "diffusion_models" } }, false },
    { "CLIPLoader", K_LOADER, { "clip_name", "type", "device" }, { { "clip_name", TE, "text_encoders" } }, false },
    { "DualCLIPLoader",
      K_LOADER,
      { "clip_name1", "clip_name2", "type", "device" },
      { { "clip_name1", TE, "text_encoders" }, { "clip_name2", TE, "text_encoders" } },
      false },
    { "TripleCLIPLoader",
      K_LOADER,
      { "clip_name1", "clip_name2", "clip_name3" },
      { { "clip_name1", TE, "text_encoders" },
        { "clip_name2", TE, "text_encoders" },
        { "clip_name3", TE, "text_encoders" } },
      false },
    { "QuadrupleCLIPLoader",
      K_LOADER,
      { "clip_name1", "clip_name2", "clip_name3", "clip_name4" },
      { { "clip_name1", TE, "text_encoders" },
        { "clip_name2", TE, "text_encoders" },
        { "clip_name3", TE, "text_encoders" },
        { "clip_name4", TE, "text_encoders" } },
      false },
    { "VAELoader", K_LOADER, { "vae_name" }, { { "vae_name", HR_WF_ROLE_VAE, "vae" } }, false },
    { "LoraLoader",
      K_LOADER,
      { "lora_name", "strength_model", "strength_clip" },
      { { "lora_name", HR_WF_ROLE_LORA, "loras" } },
      false },
    { "LoraLoaderModelOnly",
      K_LOADER,
      { "lora_name", "strength_model" },
      { { "lora_name", HR_WF_ROLE_LORA, "loras" } },
      false },
    { "ControlNetLoader",
      K_LOADER,
      { "control_net_name" },
      { { "control_net_name", HR_WF_ROLE_CONTROLNET, "controlnet" } },
      false },
    { "DiffControlNetLoader",
      K_LOADER,
      { "control_net_name" },
      { { "control_net_name", HR_WF_ROLE_CONTROLNET, "controlnet" } },
      false },
    { "CLIPVisionLoader",
      K_LOADER,
      { "clip_name" },
      { { "clip_name", HR_WF_ROLE_CLIP_VISION, "clip_vision" } },
      false },
    { "StyleModelLoader",
      K_LOADER,
      { "style_model_name" },
      { { "style_model_name", HR_WF_ROLE_STYLE_MODEL, "style_models" } },
      false },
    { "GLIGENLoader", K_LOADER, { "gligen_name" }, { { "gligen_name", HR_WF_ROLE_GLIGEN, "gligen" } }, false },
    { "UpscaleModelLoader",
      K_LOADER,
      { "model_name" },
      { { "model_name", HR_WF_ROLE_UPSCALE_MODEL, "upscale_models" } },
      false },
    { "ModelPatchLoader", K_LOADER, { "name" }, { { "name", HR_WF_ROLE_MODEL_PATCH, "model_patches" } }, false },
    { "UnetLoaderGGUF", K_LOADER, { "unet_name" }, { { "unet_name", DM, "diffusion_models" } }, true },
    { "UnetLoaderGGUFAdvanced",
      K_LOADER,
      { "unet_name", "dequant_dtype", "patch_dtype", "patch_on_device" },
      { { "unet_name", DM, "diffusion_models" } },
      true },
    { "CLIPLoaderGGUF", K_LOADER, { "clip_name", "type" }, { { "clip_name", TE, "text_encoders" } }, true },
    { "DualCLIPLoaderGGUF",
      K_LOADER,
      { "clip_name1", "clip_name2", "type" },
      { { "clip_name1", TE, "text_encoders" }, { "clip_name2", TE, "text_encoders" } },
      true },
    { "TripleCLIPLoaderGGUF",
      K_LOADER,
      { "clip_name1", "clip_name2", "clip_name3" },
      { { "clip_name1", TE, "text_encoders" },
        { "clip_name2", TE, "text_encoders" },
        { "clip_name3", TE, "text_encoders" } },
      true },
    { "QuadrupleCLIPLoaderGGUF",
      K_LOADER,
      { "clip_name1", "clip_name2", "clip_name3", "clip_name4" },
      { { "clip_name1", TE, "text_encoders" },
        { "clip_name2", TE, "text_encoders" },
        { "clip_name3", TE, "text_encoders" },
        { "clip_name4", TE, "text_encoders" } },
      true },
    /* latents */
    { "EmptyLatentImage", K_LATENT, { "width", "height", "batch_size" }, { { 0 } }, false },
    { "EmptySD3LatentImage", K_LATENT, { "width", "height", "batch_size" }, { { 0 } }, false },
    { "EmptyFlux2LatentImage", K_LATENT, { "width", "height", "batch_size" }, { { 0 } }, false },
    { "EmptyHunyuanImageLatent", K_LATENT, { "width", "height", "batch_size" }, { { 0 } }, false },
    { "EmptyHunyuanLatentVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "EmptyHunyuanVideo15Latent", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "EmptyLTXVLatentVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "EmptyMochiLatentVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "EmptyCosmosLatentVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "WanImageToVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "WanFirstLastFrameToVideo", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "WanVaceToVideo", K_LATENT, { "width", "height", "length", "batch_size", "strength" }, { { 0 } }, false },
    { "Wan22ImageToVideoLatent", K_LATENT, { "width", "height", "length", "batch_size" }, { { 0 } }, false },
    { "HunyuanImageToVideo",
      K_LATENT,
      { "width", "height", "length", "batch_size", "guidance_type" },
      { { 0 } },
      false },
    { "LTXVImgToVideo", K_LATENT, { "width", "height", "length", "batch_size", "strength" }, { { 0 } }, false },
    { "SVD_img2vid_Conditioning",
      K_LATENT,
      { "width", "height", "video_frames", "motion_bucket_id", "fps", "augmentation_level" },
      { { 0 } },
      false },
    /* samplers */
    { "KSampler",
      K_SAMPLER,
      { "seed", "control_after_generate", "steps", "cfg", "sampler_name", "scheduler", "denoise" },
      { { 0 } },
      false },
    { "KSamplerAdvanced",
      K_SAMPLER,
      { "add_noise", "noise_seed", "control_after_generate", "steps", "cfg", "sampler_name", "scheduler",
        "start_at_step", "end_at_step", "return_with_leftover_noise" },
      { { 0 } },
      false },
    { "SamplerCustom", K_SAMPLER, { "add_noise", "noise_seed", "control_after_generate", "cfg" }, { { 0 } }, false },
    { "SamplerCustomAdvanced", K_SAMPLER, { NULL }, { { 0 } }, false },
    { "BasicScheduler", K_OTHER, { "scheduler", "steps", "denoise" }, { { 0 } }, false },
    { "KSamplerSelect", K_OTHER, { "sampler_name" }, { { 0 } }, false },
    /* VAE */
    { "VAEDecode", K_DECODE, { NULL }, { { 0 } }, false },
    { "VAEEncode", K_DECODE, { NULL }, { { 0 } }, false },
    { "VAEDecodeTiled", K_DECODE, { "tile_size", "overlap", "temporal_size", "temporal_overlap" }, { { 0 } }, false },
    { "VAEEncodeTiled", K_DECODE, { "tile_size", "overlap", "temporal_size", "temporal_overlap" }, { { 0 } }, false },
    { "VAEDecodeHunyuan3D", K_DECODE, { "num_chunks", "octree_resolution" }, { { 0 } }, false },
    /* upscales */
    { "ImageScale", K_UPSCALE, { "upscale_method", "width", "height", "crop" }, { { 0 } }, false },
    { "ImageScaleBy", K_UPSCALE, { "upscale_method", "scale_by" }, { { 0 } }, false },
    { "LatentUpscale", K_UPSCALE, { "upscale_method", "width", "height", "crop" }, { { 0 } }, false },
    { "LatentUpscaleBy", K_UPSCALE, { "upscale_method", "scale_by" }, { { 0 } }, false },
    { "ImageUpscaleWithModel", K_UPSCALE, { NULL }, { { 0 } }, false },
};
#undef CK
#undef DM
#undef TE

static const cls *find_class(const char *type)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strcmp(classes[i].type, type) == 0)
            return &classes[i];
    return NULL;
}

/* Nodes the frontend keeps to itself: never sent to the server. */
static bool frontend_only(const char *type)
{
    return strcmp(type, "Reroute") == 0 || strcmp(type, "PrimitiveNode") == 0 || strcmp(type, "Note") == 0 ||
           strcmp(type, "MarkdownNote") == 0;
}

/* ---- the graph ---- */
typedef struct gnode {
    char id[HR_WF_ID_MAX];
    const char *type;
    const hr_json_value *widgets; /* UI: widgets_values */
    const hr_json_value *inputs;  /* API: inputs */
    bool real;                    /* runs on the server (not virtual, muted or bypassed) */
    size_t indeg;
} gnode;

typedef struct edge {
    size_t from, to;
} edge;

typedef struct graph {
    const char *name;
    gnode *n;
    size_t nn, capn;
    edge *e;
    size_t ne, cape;
    const hr_json_value *subgraphs; /* definitions.subgraphs */
    hr_workflow *wf;
    hr_error *err;
    size_t *ord_idx; /* graph node of each wf->order entry */
} graph;

static int add_node(graph *g, const char *id, const char *type, bool real, size_t *out)
{
    if (g->nn >= HR_WF_MAX_NODES)
        return hr_error_set(g->err, HR_ETOOBIG, HR_T("%s: more than %d nodes"), g->name, HR_WF_MAX_NODES);
    if (g->nn == g->capn) {
        size_t nc = g->capn ? g->capn * 2 : 64;
        gnode *p = realloc(g->n, nc * sizeof *p);
        if (!p)
            return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
        g->n = p;
        g->capn = nc;
    }
    gnode *x = &g->n[g->nn];
    memset(x, 0, sizeof *x);
    snprintf(x->id, sizeof x->id, "%s", id);
    x->type = type;
    x->real = real;
    *out = g->nn++;
    return 0;
}

static int add_edge(graph *g, size_t from, size_t to)
{
    if (g->ne >= (size_t)HR_WF_MAX_NODES * 64)
        return hr_error_set(g->err, HR_ETOOBIG, HR_T("%s: too many links"), g->name);
    if (g->ne == g->cape) {
        size_t nc = g->cape ? g->cape * 2 : 128;
        edge *p = realloc(g->e, nc * sizeof *p);
        if (!p)
            return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
        g->e = p;
        g->cape = nc;
    }
    g->e[g->ne].from = from;
    g->e[g->ne].to = to;
    g->ne++;
    return 0;
}

/* A node id as text: numbers as written, strings as they are. */
static bool id_text(const hr_json_value *v, char *out, size_t n)
{
    const char *s = hr_json_is(v, HR_JSON_STRING) ? hr_json_string(v, NULL) : hr_json_number_text(v);
    if (!s || !s[0] || strlen(s) >= n)
        return false;
    snprintf(out, n, "%s", s);
    return true;
}

/* ---- UI format (and subgraphs) ---- */
typedef struct local {
    char id[24];
    size_t in, out; /* graph nodes links go into / come out of (the same for plain nodes) */
    bool skip;      /* muted: links to and from it are dropped */
} local;

static int cmp_local(const void *a, const void *b)
{
    return strcmp(((const local *)a)->id, ((const local *)b)->id);
}

static int cmp_local_key(const void *key, const void *b)
{
    return strcmp((const char *)key, ((const local *)b)->id);
}

static const hr_json_value *find_subgraph(graph *g, const char *type)
{
    for (const hr_json_value *s = hr_json_first(g->subgraphs); s; s = hr_json_next(s)) {
        const char *id = hr_json_string(hr_json_get(s, "id"), NULL);
        if (id && strcmp(id, type) == 0)
            return s;
    }
    return NULL;
}

static int add_ui_graph(graph *g, const hr_json_value *nodes, const hr_json_value *links, const char *prefix,
                        size_t in_proxy, size_t out_proxy, int depth);

static int link_ends(const hr_json_value *l, char *from, char *to, size_t n)
{
    if (hr_json_is(l, HR_JSON_ARRAY)) { /* [id, origin_id, origin_slot, target_id, target_slot, type] */
        if (hr_json_count(l) < 5)
            return -1;
        return id_text(hr_json_at(l, 1), from, n) && id_text(hr_json_at(l, 3), to, n) ? 0 : -1;
    }
    if (hr_json_is(l, HR_JSON_OBJECT))
        return id_text(hr_json_get(l, "origin_id"), from, n) && id_text(hr_json_get(l, "target_id"), to, n) ? 0 : -1;
    return -1;
}

static int add_ui_graph(graph *g, const hr_json_value *nodes, const hr_json_value *links, const char *prefix,
                        size_t in_proxy, size_t out_proxy, int depth)
{
    if (depth > 8)
        return hr_error_set(g->err, HR_EPARSE,
                            HR_T("%s: subgraphs nested more than 8 deep (or one "
                                 "contains itself)"),
                            g->name);
    if (!hr_json_is(nodes, HR_JSON_ARRAY))
        return hr_error_set(g->err, HR_EPARSE, HR_T("%s: \"nodes\" is not an array"), g->name);
    size_t cnt = hr_json_count(nodes);
    local *loc = calloc(cnt ? cnt : 1, sizeof *loc);
    if (!loc)
        return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
    int r = 0;
    size_t k = 0;
    for (const hr_json_value *nd = hr_json_first(nodes); nd && r == 0; nd = hr_json_next(nd), k++) {
        char lid[24], gid[HR_WF_ID_MAX];
        const char *type = hr_json_string(hr_json_get(nd, "type"), NULL);
        if (!hr_json_is(nd, HR_JSON_OBJECT) || !id_text(hr_json_get(nd, "id"), lid, sizeof lid) || !type) {
            unsigned line, col;
            hr_json_position(nd, &line, &col);
            r = hr_error_set(g->err, HR_EPARSE,
                             HR_T("%s: line %u: a node without an \"id\" and a "
                                  "\"type\""),
                             g->name, line);
            break;
        }
        g->wf->n_nodes++;
        if ((size_t)snprintf(gid, sizeof gid, "%s%s", prefix, lid) >= sizeof gid) {
            r = hr_error_set(g->err, HR_ETOOBIG, HR_T("%s: node ids nested too deep"), g->name);
            break;
        }
        uint64_t mode = 0;
        (void)hr_json_as_u64(hr_json_get(nd, "mode"), &mode);
        snprintf(loc[k].id, sizeof loc[k].id, "%s", lid);
        if (mode == 2) {
            g->wf->n_muted++;
            loc[k].skip = true;
            continue;
        }
        const hr_json_value *sub = find_subgraph(g, type);
        if (mode == 4 || frontend_only(type)) {
            if (mode == 4)
                g->wf->n_bypassed++;
            else
                g->wf->n_frontend++;
            if ((r = add_node(g, gid, type, false, &loc[k].in)) == 0)
                loc[k].out = loc[k].in;
            continue;
        }
        if (sub) {
            char gin[HR_WF_ID_MAX], sp[HR_WF_ID_MAX];
            snprintf(gin, sizeof gin, "%s>", gid);
            snprintf(sp, sizeof sp, "%s:", gid);
            g->wf->n_subgraphs++;
            if ((r = add_node(g, gin, type, false, &loc[k].in)) != 0 ||
                (r = add_node(g, gid, type, false, &loc[k].out)) != 0)
                break;
            r = add_ui_graph(g, hr_json_get(sub, "nodes"), hr_json_get(sub, "links"), sp, loc[k].in, loc[k].out,
                             depth + 1);
            if (r == 0)
                r = add_edge(g, loc[k].in, loc[k].out);
            continue;
        }
        size_t idx;
        if ((r = add_node(g, gid, type, true, &idx)) != 0)
            break;
        g->n[idx].widgets = hr_json_get(nd, "widgets_values");
        loc[k].in = loc[k].out = idx;
    }
    if (r == 0)
        qsort(loc, k, sizeof *loc, cmp_local);
    cnt = k;
    for (const hr_json_value *l = hr_json_first(links); l && r == 0; l = hr_json_next(l)) {
        char from[24], to[24];
        if (link_ends(l, from, to, sizeof from) != 0) {
            unsigned line, col;
            hr_json_position(l, &line, &col);
            r = hr_error_set(g->err, HR_EPARSE, HR_T("%s: line %u: a link without its two ends"), g->name, line);
            break;
        }
        size_t a = SIZE_MAX, b = SIZE_MAX;
        bool skip = false, known_a = false, known_b = false;
        const local *la = bsearch(from, loc, cnt, sizeof *loc, cmp_local_key);
        const local *lb = bsearch(to, loc, cnt, sizeof *loc, cmp_local_key);
        if (strcmp(from, "-10") == 0 && in_proxy != SIZE_MAX) {
            a = in_proxy;
            known_a = true;
        }
        if (strcmp(to, "-20") == 0 && out_proxy != SIZE_MAX) {
            b = out_proxy;
            known_b = true;
        }
        if (!known_a && la) {
            known_a = true;
            skip |= la->skip;
            a = la->out;
        }
        if (!known_b && lb) {
            known_b = true;
            skip |= lb->skip;
            b = lb->in;
        }
        if (!known_a || !known_b) {
            r = hr_error_set(g->err, HR_EPARSE,
                             HR_T("%s: a link from node %s to node %s: node %s is "
                                  "not in the workflow"),
                             g->name, from, to, known_a ? to : from);
            break;
        }
        if (!skip && a != b)
            r = add_edge(g, a, b);
    }
    free(loc);
    return r;
}

/* ---- API format ---- */
static bool is_link(const hr_json_value *v)
{
    return hr_json_is(v, HR_JSON_ARRAY) && hr_json_count(v) == 2 &&
           (hr_json_is(hr_json_at(v, 0), HR_JSON_STRING) || hr_json_is(hr_json_at(v, 0), HR_JSON_NUMBER)) &&
           hr_json_is(hr_json_at(v, 1), HR_JSON_NUMBER);
}

static int add_api_graph(graph *g, const hr_json_value *root)
{
    int r = 0;
    for (const hr_json_value *nd = hr_json_first(root); nd && r == 0; nd = hr_json_next(nd)) {
        const char *type = hr_json_string(hr_json_get(nd, "class_type"), NULL);
        if (!type) {
            r = hr_error_set(g->err, HR_EPARSE, HR_T("%s: node \"%.40s\" has no \"class_type\""), g->name,
                             hr_json_key(nd));
            break;
        }
        if (strlen(hr_json_key(nd)) >= HR_WF_ID_MAX) {
            r = hr_error_set(g->err, HR_EPARSE, HR_T("%s: node id \"%.40s...\" is too long"), g->name, hr_json_key(nd));
            break;
        }
        size_t idx;
        g->wf->n_nodes++;
        if ((r = add_node(g, hr_json_key(nd), type, true, &idx)) == 0)
            g->n[idx].inputs = hr_json_get(nd, "inputs");
    }
    for (size_t i = 0; i < g->nn && r == 0; i++) {
        for (const hr_json_value *in = hr_json_first(g->n[i].inputs); in && r == 0; in = hr_json_next(in)) {
            if (!is_link(in))
                continue;
            char from[HR_WF_ID_MAX];
            if (!id_text(hr_json_at(in, 0), from, sizeof from))
                continue;
            size_t a = SIZE_MAX;
            for (size_t j = 0; j < g->nn; j++)
                if (strcmp(g->n[j].id, from) == 0)
                    a = j;
            if (a == SIZE_MAX) {
                r = hr_error_set(g->err, HR_EPARSE,
                                 HR_T("%s: node %s input \"%.40s\" links to node %s, "
                                      "which is not in the workflow"),
                                 g->name, g->n[i].id, hr_json_key(in), from);
                break;
            }
            r = add_edge(g, a, i);
        }
    }
    return r;
}

/* ---- order ---- */
/* A binary min-heap of node indices: Kahn always takes the earliest ready node, so the same
 * file always gives the same order. */
static void heap_push(size_t *h, size_t *n, size_t v)
{
    size_t i = (*n)++;
    h[i] = v;
    while (i > 0 && h[(i - 1) / 2] > h[i]) {
        size_t p = (i - 1) / 2, t = h[p];
        h[p] = h[i];
        h[i] = t;
        i = p;
    }
}

static size_t heap_pop(size_t *h, size_t *n)
{
    size_t top = h[0];
    h[0] = h[--(*n)];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < *n && h[l] < h[m])
            m = l;
        if (r < *n && h[r] < h[m])
            m = r;
        if (m == i)
            break;
        size_t t = h[m];
        h[m] = h[i];
        h[i] = t;
        i = m;
    }
    return top;
}

static int order(graph *g)
{
    size_t *q = malloc((g->nn ? g->nn : 1) * sizeof *q);
    size_t *first = calloc(g->nn + 1, sizeof *first); /* edges by source (counting sort) */
    size_t *adj = malloc((g->ne ? g->ne : 1) * sizeof *adj);
    if (!q || !first || !adj) {
        free(q);
        free(first);
        free(adj);
        return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
    }
    for (size_t i = 0; i < g->ne; i++) {
        first[g->e[i].from + 1]++;
        g->n[g->e[i].to].indeg++;
    }
    for (size_t i = 0; i < g->nn; i++)
        first[i + 1] += first[i];
    size_t *fill = calloc(g->nn + 1, sizeof *fill);
    if (!fill) {
        free(q);
        free(first);
        free(adj);
        return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
    }
    for (size_t i = 0; i < g->ne; i++) {
        size_t s = g->e[i].from;
        adj[first[s] + fill[s]++] = g->e[i].to;
    }
    free(fill);
    /* Kahn, always taking the earliest ready node: a stable order */
    size_t done = 0, nreal = 0;
    bool *ready = calloc(g->nn + 1, sizeof *ready);
    g->wf->order = malloc((g->nn ? g->nn : 1) * sizeof *g->wf->order);
    g->ord_idx = malloc((g->nn ? g->nn : 1) * sizeof *g->ord_idx);
    if (!ready || !g->wf->order || !g->ord_idx) {
        free(q);
        free(first);
        free(adj);
        free(ready);
        return hr_error_set(g->err, HR_ENOMEM, HR_T("%s: %s"), g->name, hr_strerror(HR_ENOMEM));
    }
    size_t qn = 0;
    for (size_t i = 0; i < g->nn; i++)
        if (g->n[i].indeg == 0)
            heap_push(q, &qn, i);
    while (qn) {
        size_t v = heap_pop(q, &qn);
        done++;
        if (g->n[v].real) {
            g->ord_idx[nreal] = v;
            hr_wf_node *o = &g->wf->order[nreal++];
            snprintf(o->id, sizeof o->id, "%s", g->n[v].id);
            snprintf(o->class_type, sizeof o->class_type, "%s", g->n[v].type);
        }
        for (size_t j = first[v]; j < first[v + 1]; j++)
            if (--g->n[adj[j]].indeg == 0)
                heap_push(q, &qn, adj[j]);
    }
    g->wf->n_order = nreal;
    int r = 0;
    if (done < g->nn) {
        char ids[200] = "";
        size_t k = 0, shown = 0;
        for (size_t i = 0; i < g->nn; i++)
            if (g->n[i].indeg > 0 && g->n[i].real && shown < 8) {
                k += (size_t)snprintf(ids + k, k < sizeof ids ? sizeof ids - k : 0, "%s%s", shown ? ", " : "",
                                      g->n[i].id);
                if (k >= sizeof ids)
                    k = sizeof ids - 1;
                shown++;
            }
        r = hr_error_set(g->err, HR_EPARSE,
                         HR_T("%s: the links form a cycle through nodes %s: "
                              "ComfyUI cannot run it"),
                         g->name, shown ? ids : HR_T("(frontend nodes)"));
    }
    free(q);
    free(first);
    free(adj);
    free(ready);
    return r;
}

/* ---- widget values ---- */
static const hr_json_value *widget(const gnode *n, const cls *c, const char *name)
{
    if (n->inputs) {
        const hr_json_value *v = hr_json_get(n->inputs, name);
        return is_link(v) ? NULL : v;
    }
    if (hr_json_is(n->widgets, HR_JSON_OBJECT))
        return hr_json_get(n->widgets, name);
    if (!c)
        return NULL;
    for (size_t i = 0; i < 12 && c->w[i]; i++)
        if (strcmp(c->w[i], name) == 0)
            return hr_json_at(n->widgets, i);
    return NULL;
}

static void w_str(const gnode *n, const cls *c, const char *name, char *out, size_t sz)
{
    const char *s = hr_json_string(widget(n, c, name), NULL);
    snprintf(out, sz, "%s", s ? s : "");
}

static uint64_t w_u64(const gnode *n, const cls *c, const char *name, uint64_t dflt)
{
    const hr_json_value *v = widget(n, c, name);
    uint64_t x;
    double d;
    if (hr_json_as_u64(v, &x) == 0)
        return x;
    if (hr_json_as_double(v, &d) == 0 && d >= 0 && d < 1e15)
        return (uint64_t)d;
    return dflt;
}

static double w_double(const gnode *n, const cls *c, const char *name, double dflt)
{
    double d;
    return hr_json_as_double(widget(n, c, name), &d) == 0 && isfinite(d) ? d : dflt;
}

static int read_node(graph *g, const gnode *n)
{
    hr_workflow *wf = g->wf;
    const cls *c = find_class(n->type);
    if (!c)
        return 0;
    switch (c->kind) {
    case K_LOADER: {
        int count = 0;
        for (size_t i = 0; i < 4 && c->files[i].input; i++)
            if (c->files[i].role == HR_WF_ROLE_TEXT_ENCODER)
                count++;
        for (size_t i = 0; i < 4 && c->files[i].input; i++) {
            char name[512];
            w_str(n, c, c->files[i].input, name, sizeof name);
            if (!name[0])
                continue;
            if (wf->n_models >= HR_WF_MAX_MODELS)
                return hr_error_set(g->err, HR_ETOOBIG, HR_T("%s: more than %d model files"), g->name,
                                    HR_WF_MAX_MODELS);
            hr_wf_model *m = &wf->models[wf->n_models++];
            memset(m, 0, sizeof *m);
            hr_model_info_init(&m->info);
            snprintf(m->node_id, sizeof m->node_id, "%s", n->id);
            snprintf(m->class_type, sizeof m->class_type, "%s", n->type);
            snprintf(m->input, sizeof m->input, "%s", c->files[i].input);
            m->role = c->files[i].role;
            snprintf(m->folder, sizeof m->folder, "%s", c->files[i].folder);
            snprintf(m->name, sizeof m->name, "%s", name);
            m->gguf = c->gguf;
            m->clip_count = count;
            w_str(n, c, "weight_dtype", m->weight_dtype, sizeof m->weight_dtype);
            w_str(n, c, "type", m->clip_type, sizeof m->clip_type);
            w_str(n, c, "device", m->device, sizeof m->device);
            m->strength_model = m->role == HR_WF_ROLE_LORA ? w_double(n, c, "strength_model", 1) : 1;
            m->strength_clip = strcmp(n->type, "LoraLoader") == 0 ? w_double(n, c, "strength_clip", 1) : 0;
        }
        return 0;
    }
    case K_LATENT: {
        if (wf->n_latents >= HR_WF_MAX_ITEMS)
            return 0;
        hr_wf_latent *l = &wf->latents[wf->n_latents++];
        memset(l, 0, sizeof *l);
        snprintf(l->node_id, sizeof l->node_id, "%s", n->id);
        snprintf(l->class_type, sizeof l->class_type, "%s", n->type);
        l->width = w_u64(n, c, "width", 0);
        l->height = w_u64(n, c, "height", 0);
        l->batch = w_u64(n, c, "batch_size", 1);
        bool svd = strcmp(n->type, "SVD_img2vid_Conditioning") == 0;
        l->video = svd || widget(n, c, "length") != NULL || (c->w[2] && strcmp(c->w[2], "length") == 0);
        l->frames = svd ? w_u64(n, c, "video_frames", 1) : l->video ? w_u64(n, c, "length", 1) : 1;
        if (svd)
            l->batch = l->frames; /* SVD batches its frames */
        return 0;
    }
    case K_SAMPLER: {
        if (wf->n_samplers >= HR_WF_MAX_ITEMS)
            return 0;
        hr_wf_sampler *s = &wf->samplers[wf->n_samplers++];
        memset(s, 0, sizeof *s);
        snprintf(s->node_id, sizeof s->node_id, "%s", n->id);
        snprintf(s->class_type, sizeof s->class_type, "%s", n->type);
        s->steps = w_u64(n, c, "steps", 0);
        s->cfg = w_double(n, c, "cfg", 0);
        w_str(n, c, "sampler_name", s->sampler_name, sizeof s->sampler_name);
        w_str(n, c, "scheduler", s->scheduler, sizeof s->scheduler);
        s->denoise = w_double(n, c, "denoise", 1);
        return 0;
    }
    case K_DECODE: {
        if (wf->n_decodes >= HR_WF_MAX_ITEMS)
            return 0;
        hr_wf_decode *d = &wf->decodes[wf->n_decodes++];
        memset(d, 0, sizeof *d);
        snprintf(d->node_id, sizeof d->node_id, "%s", n->id);
        snprintf(d->class_type, sizeof d->class_type, "%s", n->type);
        d->tiled = strstr(n->type, "Tiled") != NULL;
        d->encode = strstr(n->type, "Encode") != NULL;
        if (d->tiled) {
            d->tile_size = w_u64(n, c, "tile_size", 512);
            d->overlap = w_u64(n, c, "overlap", 64);
            d->temporal_size = w_u64(n, c, "temporal_size", 64);
            d->temporal_overlap = w_u64(n, c, "temporal_overlap", 8);
        }
        return 0;
    }
    case K_UPSCALE: {
        if (wf->n_upscales >= HR_WF_MAX_ITEMS)
            return 0;
        hr_wf_upscale *u = &wf->upscales[wf->n_upscales++];
        memset(u, 0, sizeof *u);
        snprintf(u->node_id, sizeof u->node_id, "%s", n->id);
        snprintf(u->class_type, sizeof u->class_type, "%s", n->type);
        u->with_model = strcmp(n->type, "ImageUpscaleWithModel") == 0;
        u->latent = strncmp(n->type, "Latent", 6) == 0;
        u->factor = w_double(n, c, "scale_by", 0);
        u->width = w_u64(n, c, "width", 0);
        u->height = w_u64(n, c, "height", 0);
        return 0;
    }
    case K_OTHER:
    default: return 0;
    }
}

void hr_workflow_free(hr_workflow *wf)
{
    free(wf->order);
    wf->order = NULL;
    wf->n_order = 0;
}

/* Every string a workflow carries came from whoever wrote the file or the server that sent
 * it: one line each, nothing that steers a terminal, before anything prints it. */
static void one_line(hr_workflow *wf)
{
    for (size_t i = 0; i < wf->n_order; i++) {
        hr_text_one_line(wf->order[i].id);
        hr_text_one_line(wf->order[i].class_type);
    }
    for (size_t i = 0; i < wf->n_models; i++) {
        hr_wf_model *m = &wf->models[i];
        hr_text_one_line(m->node_id);
        hr_text_one_line(m->class_type);
        hr_text_one_line(m->input);
        hr_text_one_line(m->folder);
        hr_text_one_line(m->name);
        hr_text_one_line(m->weight_dtype);
        hr_text_one_line(m->clip_type);
        hr_text_one_line(m->device);
    }
    for (size_t i = 0; i < wf->n_latents; i++) {
        hr_text_one_line(wf->latents[i].node_id);
        hr_text_one_line(wf->latents[i].class_type);
    }
    for (size_t i = 0; i < wf->n_samplers; i++) {
        hr_text_one_line(wf->samplers[i].node_id);
        hr_text_one_line(wf->samplers[i].class_type);
        hr_text_one_line(wf->samplers[i].sampler_name);
        hr_text_one_line(wf->samplers[i].scheduler);
    }
    for (size_t i = 0; i < wf->n_decodes; i++) {
        hr_text_one_line(wf->decodes[i].node_id);
        hr_text_one_line(wf->decodes[i].class_type);
    }
    for (size_t i = 0; i < wf->n_upscales; i++) {
        hr_text_one_line(wf->upscales[i].node_id);
        hr_text_one_line(wf->upscales[i].class_type);
    }
}

/* The graph under api (an API-format prompt), or the UI graph of root; then the order and
 * the nodes that run. */
static int read_graph(graph *g, const hr_json_value *api, const hr_json_value *ui_root)
{
    int r;
    if (api) {
        g->wf->format = HR_WF_FORMAT_API;
        r = add_api_graph(g, api);
    } else {
        g->wf->format = HR_WF_FORMAT_UI;
        g->subgraphs = hr_json_get(hr_json_get(ui_root, "definitions"), "subgraphs");
        r = add_ui_graph(g, hr_json_get(ui_root, "nodes"), hr_json_get(ui_root, "links"), "", SIZE_MAX, SIZE_MAX, 0);
    }
    if (r == 0)
        r = order(g);
    /* read the nodes that run, in the order they run */
    for (size_t i = 0; r == 0 && i < g->wf->n_order; i++)
        r = read_node(g, &g->n[g->ord_idx[i]]);
    free(g->ord_idx);
    free(g->n);
    free(g->e);
    if (r)
        hr_workflow_free(g->wf);
    else
        one_line(g->wf);
    return r;
}

static int parse_doc(const char *name, const char *buf, size_t len, bool history, hr_json_doc **doc, hr_error *err)
{
    hr_json_limits lim = {
        .max_bytes = HR_WF_MAX_BYTES, .max_depth = 64, .max_values = (size_t)4 << 20, .no_nul = true
    };
    hr_error jerr = { 0 };
    int r = hr_json_parse(buf, len, &lim, doc, &jerr);
    if (r) /* a /history body that is not JSON: not ComfyUI answering, no prompt in it */
        return hr_error_set(err, history ? HR_ENOENT : r, HR_T("%s: not a workflow: %s"), name, jerr.msg);
    const hr_json_value *root = hr_json_root(*doc);
    if (!hr_json_is(root, HR_JSON_OBJECT)) {
        r = hr_error_set(err, history ? HR_ENOENT : HR_EPARSE,
                         HR_T("%s: not a workflow: the file is a JSON %s, not an object"), name,
                         hr_json_type_name(hr_json_type_of(root)));
        hr_json_free(*doc);
        *doc = NULL;
    }
    return r;
}

/* One entry of a GET /history object: {"prompt": [number, id, prompt, extra, outputs], ...} */
static int history_entry(const char *name, const hr_json_value *e, char *id_out, size_t id_n, hr_workflow *wf,
                         hr_error *err)
{
    memset(wf, 0, sizeof *wf);
    if (id_out && id_n) {
        snprintf(id_out, id_n, "%s", hr_json_key(e));
        hr_text_one_line(id_out);
    }
    char key[72];
    snprintf(key, sizeof key, "%.64s", hr_json_key(e));
    hr_text_one_line(key);
    const hr_json_value *api = hr_json_at(hr_json_get(e, "prompt"), 2);
    if (!hr_json_is(api, HR_JSON_OBJECT) || hr_json_count(api) == 0)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: history entry \"%.64s\" has no prompt"), name, key);
    for (const hr_json_value *v = hr_json_first(api); v; v = hr_json_next(v))
        if (!hr_json_is(v, HR_JSON_OBJECT) || !hr_json_get(v, "class_type")) {
            char node[40];
            snprintf(node, sizeof node, "%.32s", hr_json_key(v));
            hr_text_one_line(node);
            return hr_error_set(err, HR_EPARSE,
                                HR_T("%s: history entry \"%.64s\": node \"%.32s\" "
                                     "has no \"class_type\""),
                                name, key, node);
        }
    graph g = { .name = name, .wf = wf, .err = err };
    return read_graph(&g, api, NULL);
}

static int parse_file(const char *name, const char *buf, size_t len, hr_workflow *wf, hr_error *err)
{
    memset(wf, 0, sizeof *wf);
    hr_json_doc *doc = NULL;
    int r = parse_doc(name, buf, len, false, &doc, err);
    if (r)
        return r;
    const hr_json_value *root = hr_json_root(doc);
    graph g = { .name = name, .wf = wf, .err = err };
    if (hr_json_get(root, "nodes")) {
        r = read_graph(&g, NULL, root);
    } else {
        const hr_json_value *api = root;
        if (hr_json_is(hr_json_get(root, "prompt"), HR_JSON_OBJECT) &&
            !hr_json_get(hr_json_get(root, "prompt"), "class_type"))
            api = hr_json_get(root, "prompt");
        /* ComfyUI's GET /queue: the running prompt, [number, id, prompt, extra, outputs] */
        const hr_json_value *running = hr_json_get(root, "queue_running");
        if (hr_json_is(running, HR_JSON_ARRAY) && hr_json_is(hr_json_at(hr_json_at(running, 0), 2), HR_JSON_OBJECT))
            api = hr_json_at(hr_json_at(running, 0), 2);
        bool any = false, all = true;
        for (const hr_json_value *v = hr_json_first(api); v; v = hr_json_next(v)) {
            any = true;
            if (!hr_json_is(v, HR_JSON_OBJECT) || !hr_json_get(v, "class_type"))
                all = false;
        }
        if (!any || !all)
            r = hr_error_set(err, HR_EPARSE,
                             HR_T("%s: not a ComfyUI workflow: neither the UI format "
                                  "(\"nodes\", \"links\") nor the API format ({id: {\"class_type\", "
                                  "\"inputs\"}})"),
                             name);
        else
            r = read_graph(&g, api, NULL);
    }
    hr_json_free(doc);
    return r;
}

int hr_workflow_parse(const char *name, const char *buf, size_t len, hr_workflow *wf, hr_error *err)
{
    return parse_file(name, buf, len, wf, err);
}

int hr_workflow_parse_history(const char *name, const char *buf, size_t len, size_t nth, char *prompt_id, size_t id_n,
                              hr_workflow *wf, hr_error *err)
{
    memset(wf, 0, sizeof *wf);
    if (nth == SIZE_MAX)
        return hr_error_set(err, HR_EINVAL, "%s: %s", name, hr_strerror(HR_EINVAL));
    hr_json_doc *doc = NULL;
    int r = parse_doc(name, buf, len, true, &doc, err);
    if (r)
        return r;
    const hr_json_value *e = hr_json_first(hr_json_root(doc));
    for (size_t i = 0; e && i < nth; i++)
        e = hr_json_next(e);
    if (!e)
        r = hr_error_set(err, HR_ENOENT, HR_T("%s: no prompt %zu in the history"), name, nth + 1);
    else
        r = history_entry(name, e, prompt_id, id_n, wf, err);
    hr_json_free(doc);
    return r;
}

int hr_workflow_history_each(const char *name, const char *buf, size_t len, size_t max, hr_wf_history_fn fn, void *ctx,
                             hr_error *err)
{
    hr_json_doc *doc = NULL;
    int r = parse_doc(name, buf, len, true, &doc, err);
    if (r)
        return r;
    hr_workflow *wf = malloc(sizeof *wf);
    if (!wf) {
        hr_json_free(doc);
        return hr_error_set(err, HR_ENOMEM, "%s: %s", name, hr_strerror(HR_ENOMEM));
    }
    size_t i = 0;
    for (const hr_json_value *e = hr_json_first(hr_json_root(doc)); e && i < max && r == 0; e = hr_json_next(e), i++) {
        char id[HR_WF_ID_MAX * 4];
        hr_error eerr = { 0 };
        int er = history_entry(name, e, id, sizeof id, wf, &eerr);
        r = fn(ctx, i, id, er == 0 ? wf : NULL, er == 0 ? NULL : &eerr);
        if (er == 0)
            hr_workflow_free(wf);
    }
    free(wf);
    hr_json_free(doc);
    return r;
}
