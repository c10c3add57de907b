/* headroom — from a read workflow (core/scan/workflow.h) to the estimate's input: each loader
 * becomes the models it makes (sizes from the file's header when it was read, else from the
 * catalog), each node that moves memory an operation in execution order, with the geometry
 * that flows to it. The reader gives lists, not links, so the flow is followed in order: a
 * sampler works on the latest latent and the diffusion models in loading order (the second
 * sampler of Wan 2.2 uses the second expert), a decode on the latest sampler's latent with
 * the latest VAE. Rule X.comfymem. */
#include "core/estimate/estimate_workflow.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

/* The reader's architecture name → ours. */
static hr_est_arch arch_of_text(const char *a)
{
    static const struct {
        const char *needle;
        hr_est_arch arch;
    } t[] = {
        { "FLUX.2", HR_ARCH_FLUX2 },
        { "FLUX", HR_ARCH_FLUX },
        { "Chroma", HR_ARCH_CHROMA },
        { "SDXL", HR_ARCH_SDXL },
        { "SD3", HR_ARCH_SD3 },
        { "SD 3", HR_ARCH_SD3 },
        { "SD2", HR_ARCH_SD2 },
        { "SD 2", HR_ARCH_SD2 },
        { "SD1", HR_ARCH_SD15 },
        { "SD 1", HR_ARCH_SD15 },
        { "Wan 2.2 5B", HR_ARCH_WAN22_5B },
        { "5B", HR_ARCH_WAN22_5B },
        { "1.3B", HR_ARCH_WAN_1_3B },
        { "Wan", HR_ARCH_WAN_14B },
        { "Hunyuan", HR_ARCH_HUNYUAN_VIDEO },
        { "LTX", HR_ARCH_LTXV_2B },
        { "Qwen", HR_ARCH_QWEN_IMAGE },
        { "HiDream", HR_ARCH_HIDREAM },
        { "Lumina", HR_ARCH_LUMINA2 },
        { "SVD", HR_ARCH_SVD },
    };
    if (!a || !a[0])
        return HR_ARCH_UNKNOWN;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (hr_str_icontains(a, t[i].needle))
            return t[i].arch;
    return HR_ARCH_UNKNOWN;
}

static int dtype_bytes(const char *name)
{
    if (hr_str_icontains(name, "F8") || hr_str_icontains(name, "E4M3") || hr_str_icontains(name, "E5M2") ||
        !strcmp(name, "I8") || !strcmp(name, "U8"))
        return 1;
    if (hr_str_icontains(name, "F16") || hr_str_icontains(name, "BF16"))
        return 2;
    if (hr_str_icontains(name, "F32"))
        return 4;
    if (hr_str_icontains(name, "F64"))
        return 8;
    return 0; /* GGUF block types */
}

/* The dtype holding most parameters. */
static int dominant_dtype(const hr_model_info *info)
{
    uint64_t best = 0;
    int d = 0;
    for (size_t i = 0; i < info->n_dtypes && i < HR_MODEL_MAX_DTYPES; i++)
        if (info->dtypes[i].params > best) {
            best = info->dtypes[i].params;
            d = dtype_bytes(info->dtypes[i].name);
        }
    return d;
}

static hr_est_kind kind_of_role(hr_wf_role r)
{
    switch (r) {
    case HR_WF_ROLE_TEXT_ENCODER: return HR_EST_TEXT_ENCODER;
    case HR_WF_ROLE_VAE: return HR_EST_VAE;
    case HR_WF_ROLE_LORA: return HR_EST_LORA;
    case HR_WF_ROLE_CONTROLNET: return HR_EST_CONTROLNET;
    case HR_WF_ROLE_UPSCALE_MODEL: return HR_EST_UPSCALER;
    case HR_WF_ROLE_CLIP_VISION: return HR_EST_CLIP_VISION;
    case HR_WF_ROLE_STYLE_MODEL:
    case HR_WF_ROLE_GLIGEN:
    case HR_WF_ROLE_MODEL_PATCH: return HR_EST_CONTROLNET;
    default: return HR_EST_DIFFUSION;
    }
}

static hr_est_format format_of(const hr_wf_model *w)
{
    if (w->gguf || hr_str_icontains(w->name, ".gguf"))
        return HR_FMT_GGUF;
    if (w->info_read && (w->info.format == HR_MODEL_FMT_TORCH_ZIP || w->info.format == HR_MODEL_FMT_PICKLE))
        return HR_FMT_PICKLE;
    static const char *pickles[] = { ".ckpt", ".pt", ".pth", ".bin", ".pkl" };
    size_t n = strlen(w->name);
    for (size_t i = 0; i < sizeof pickles / sizeof pickles[0]; i++) {
        size_t k = strlen(pickles[i]);
        if (n >= k && hr_str_icontains(w->name + n - k, pickles[i]))
            return HR_FMT_PICKLE;
    }
    return HR_FMT_SAFETENSORS;
}

static void problem_unknown(hr_est_wf_result *r, const char *name)
{
    if (r->problem_count >= HR_EST_WF_MAX_PROBLEMS)
        return;
    hr_msg_set(&r->problems[r->problem_count++], HR_N("%s: not found and not in the catalog: its size is not counted"),
               name);
}

/* A checkpoint's parts are named file/part (identifiers, as in the JSON). */
static const char *const part_names[] = { "diffusion_model", "text_encoder", "vae" };

/* The models one workflow file entry makes; idx[0..2]; returns how many. */
static int add_models(hr_est_input *in, const hr_wf_model *w, hr_est_wf_result *r, int idx[3])
{
    idx[0] = idx[1] = idx[2] = -1;
    hr_est_kind kind = kind_of_role(w->role);
    bool ckpt = w->role == HR_WF_ROLE_CHECKPOINT;
    if (w->role == HR_WF_ROLE_CONFIG)
        return 0;
    hr_est_model m;
    memset(&m, 0, sizeof m);
    hr_strlcpy(m.name, hr_path_base(w->name), sizeof m.name);
    m.kind = kind;
    m.format = format_of(w);
    m.cpu_device = strcmp(w->device, "cpu") == 0;
    m.fp8_scaled = hr_str_icontains(w->name, "scaled") || hr_str_icontains(w->name, "mixed");
    if (hr_str_icontains(w->weight_dtype, "fp8"))
        m.weight_dtype = HR_WDT_FP8;
    if (w->info_read && w->info.file_bytes > 0) {
        const hr_model_info *info = &w->info;
        m.arch = arch_of_text(info->arch);
        if (m.arch == HR_ARCH_UNKNOWN)
            m.arch = hr_est_arch_guess(w->name);
        m.file_dtype_bytes = m.format == HR_FMT_GGUF ? 0 : dominant_dtype(info);
        if (m.file_dtype_bytes == 0 && m.format != HR_FMT_GGUF)
            m.file_dtype_bytes = 2;
        m.scale = info->upscale ? info->upscale : 0;
        if (!ckpt || info->n_comps == 0) {
            m.file_bytes = info->tensor_bytes ? info->tensor_bytes : info->file_bytes;
            m.params = info->params;
            idx[0] = hr_est_add_model(in, &m);
            return idx[0] >= 0;
        }
        /* a checkpoint: one model per component the header names */
        int n = 0;
        for (size_t c = 0; c < info->n_comps && c < HR_MODEL_MAX_COMPONENTS; c++) {
            const hr_model_component *comp = &info->comps[c];
            hr_est_model part = m;
            part.checkpoint = true;
            int slot;
            if (!strcmp(comp->name, "diffusion_model"))
                part.kind = HR_EST_DIFFUSION, slot = 0;
            else if (!strcmp(comp->name, "text_encoder"))
                part.kind = HR_EST_TEXT_ENCODER, slot = 1;
            else if (!strcmp(comp->name, "vae"))
                part.kind = HR_EST_VAE, slot = 2;
            else
                continue;
            if (slot)
                snprintf(part.name, sizeof part.name, "%.100s/%s", m.name, part_names[slot]);
            part.file_bytes = comp->bytes;
            part.params = comp->params;
            if (comp->params)
                part.file_dtype_bytes = (int)((comp->bytes + comp->params / 2) / comp->params);
            if (idx[slot] < 0) {
                idx[slot] = hr_est_add_model(in, &part);
                n += idx[slot] >= 0;
            } else {
                in->model[idx[slot]].file_bytes += part.file_bytes;
                in->model[idx[slot]].params += part.params;
            }
        }
        return n;
    }
    int n = hr_est_add_from_catalog(in, w->name, kind, ckpt, idx);
    if (n > 0) {
        for (int k = 0; k < 3; k++)
            if (idx[k] >= 0) {
                in->model[idx[k]].weight_dtype = m.weight_dtype;
                in->model[idx[k]].cpu_device = m.cpu_device;
                if (kind == HR_EST_TEXT_ENCODER || kind == HR_EST_VAE || kind == HR_EST_UPSCALER ||
                    kind == HR_EST_LORA || kind == HR_EST_CLIP_VISION || kind == HR_EST_CONTROLNET)
                    in->model[idx[k]].kind = kind;
            }
        r->catalog++;
        return n;
    }
    /* neither read nor in the catalog: counted at zero, said */
    m.arch = hr_est_arch_guess(w->name);
    m.file_dtype_bytes = 2;
    idx[0] = hr_est_add_model(in, &m);
    r->unknown++;
    problem_unknown(r, m.name);
    return idx[0] >= 0;
}

/* Node classes by what they do to memory. */
static bool is_text_encode(const char *c)
{
    return hr_str_icontains(c, "TextEncode") || !strcmp(c, "CLIPTextEncode");
}

static bool is_i2v_latent(const char *c)
{
    return hr_str_icontains(c, "ImageToVideo") || hr_str_icontains(c, "FirstLastFrame") ||
           hr_str_icontains(c, "VaceToVideo") || hr_str_icontains(c, "ImgToVideo") ||
           !strcmp(c, "SVD_img2vid_Conditioning");
}

static hr_est_arch latent_arch(const char *c, hr_est_arch model_arch)
{
    if (hr_str_icontains(c, "LTXV"))
        return model_arch == HR_ARCH_LTXV_13B ? model_arch : HR_ARCH_LTXV_2B;
    if (hr_str_icontains(c, "Wan22"))
        return HR_ARCH_WAN22_5B;
    if (hr_str_icontains(c, "Hunyuan"))
        return model_arch == HR_ARCH_UNKNOWN ? HR_ARCH_HUNYUAN_VIDEO : model_arch;
    if (hr_str_icontains(c, "Wan"))
        return model_arch == HR_ARCH_WAN_1_3B ? model_arch : HR_ARCH_WAN_14B;
    if (hr_str_icontains(c, "SVD"))
        return HR_ARCH_SVD;
    if (hr_str_icontains(c, "Flux2"))
        return HR_ARCH_FLUX2;
    if (hr_str_icontains(c, "SD3"))
        return model_arch == HR_ARCH_UNKNOWN ? HR_ARCH_SD3 : model_arch;
    return model_arch;
}

typedef struct flow {
    int diff[16]; /* diffusion models in loading order */
    int n_diff;
    int te[4], n_te; /* the latest text encoder group */
    int vae;         /* the latest VAE */
    int upscaler;
    int clip_vision;
    int controlnet[3], n_cn;
    int samplers_seen;
    hr_est_geom latent; /* pixel geometry of the latest latent */
    hr_est_arch latent_arch;
    hr_est_geom image; /* the latest IMAGE */
    bool have_latent, have_image;
} flow;

static void set_op(hr_est_op *op, const hr_wf_node *n, hr_est_op_kind kind)
{
    memset(op, 0, sizeof *op);
    hr_strlcpy(op->node_id, n->id, sizeof op->node_id);
    hr_strlcpy(op->class_type, n->class_type, sizeof op->class_type);
    op->kind = kind;
}

static void add_model_ref(hr_est_op *op, int i)
{
    if (i >= 0 && op->model_count < 4)
        op->models[op->model_count++] = i;
}

static hr_est_arch current_arch(const hr_est_input *in, const flow *f)
{
    if (f->latent_arch != HR_ARCH_UNKNOWN)
        return f->latent_arch;
    if (f->n_diff)
        return in->model[f->diff[f->n_diff - 1]].arch;
    return HR_ARCH_UNKNOWN;
}

int hr_est_from_workflow(const hr_workflow *wf, hr_est_input *in, hr_est_wf_result *r, hr_error *err)
{
    memset(in, 0, sizeof *in);
    memset(r, 0, sizeof *r);
    flow f;
    memset(&f, 0, sizeof f);
    f.vae = f.upscaler = f.clip_vision = -1;

    for (size_t o = 0; o < wf->n_order; o++) {
        const hr_wf_node *n = &wf->order[o];
        hr_est_op op;
        set_op(&op, n, HR_OP_OTHER);
        bool done = false;

        /* a loader: the models it names */
        bool loader = false;
        hr_est_op lora_op;
        bool is_lora = false;
        for (size_t k = 0; k < wf->n_models; k++) {
            const hr_wf_model *w = &wf->models[k];
            if (strcmp(w->node_id, n->id) != 0)
                continue;
            if (!loader) {
                set_op(&op, n, HR_OP_LOAD);
                loader = true;
                if (w->role == HR_WF_ROLE_TEXT_ENCODER)
                    f.n_te = 0;
            }
            int idx[3];
            int got = add_models(in, w, r, idx);
            if (got <= 0)
                continue;
            for (int s = 0; s < 3; s++)
                add_model_ref(&op, idx[s]);
            switch (w->role) {
            case HR_WF_ROLE_CHECKPOINT:
                if (idx[0] >= 0 && f.n_diff < 16)
                    f.diff[f.n_diff++] = idx[0];
                if (idx[1] >= 0) {
                    f.n_te = 0;
                    f.te[f.n_te++] = idx[1];
                }
                if (idx[2] >= 0)
                    f.vae = idx[2];
                break;
            case HR_WF_ROLE_DIFFUSION_MODEL:
                if (f.n_diff < 16)
                    f.diff[f.n_diff++] = idx[0];
                break;
            case HR_WF_ROLE_TEXT_ENCODER:
                if (f.n_te < 4)
                    f.te[f.n_te++] = idx[0];
                break;
            case HR_WF_ROLE_VAE: f.vae = idx[0]; break;
            case HR_WF_ROLE_UPSCALE_MODEL: f.upscaler = idx[0]; break;
            case HR_WF_ROLE_CLIP_VISION: f.clip_vision = idx[0]; break;
            case HR_WF_ROLE_CONTROLNET:
                if (f.n_cn < 3)
                    f.controlnet[f.n_cn++] = idx[0];
                break;
            case HR_WF_ROLE_LORA:
                set_op(&lora_op, n, HR_OP_LORA);
                add_model_ref(&lora_op, idx[0]);
                if (f.n_diff && w->strength_model != 0)
                    add_model_ref(&lora_op, f.diff[f.n_diff - 1]);
                if (f.n_te && w->strength_clip != 0)
                    add_model_ref(&lora_op, f.te[0]);
                is_lora = true;
                break;
            default: break;
            }
        }
        if (loader) {
            if (op.model_count && hr_est_add_op(in, &op) < 0)
                goto full;
            if (is_lora && lora_op.model_count >= 2 && hr_est_add_op(in, &lora_op) < 0)
                goto full;
            if (!op.model_count && hr_est_add_op(in, &op) < 0)
                goto full;
            continue;
        }

        /* a latent source */
        for (size_t k = 0; k < wf->n_latents && !done; k++) {
            const hr_wf_latent *l = &wf->latents[k];
            if (strcmp(l->node_id, n->id) != 0)
                continue;
            f.latent.width = (uint32_t)(l->width ? l->width : 512);
            f.latent.height = (uint32_t)(l->height ? l->height : 512);
            f.latent.frames = (uint32_t)(l->frames ? l->frames : 1);
            f.latent.batch = (uint32_t)(l->batch ? l->batch : 1);
            f.have_latent = true;
            f.latent_arch =
                latent_arch(l->class_type, f.n_diff ? in->model[f.diff[f.n_diff - 1]].arch : HR_ARCH_UNKNOWN);
            if (is_i2v_latent(l->class_type) && f.vae >= 0) {
                set_op(&op, n, HR_OP_VAE_ENCODE);
                add_model_ref(&op, f.vae);
                op.geom = f.latent;
                op.arch = f.latent_arch;
            }
            done = true;
        }
        /* a sampler */
        for (size_t k = 0; k < wf->n_samplers && !done; k++) {
            const hr_wf_sampler *s = &wf->samplers[k];
            if (strcmp(s->node_id, n->id) != 0)
                continue;
            set_op(&op, n, HR_OP_SAMPLE);
            if (f.n_diff) {
                int which = f.samplers_seen < f.n_diff ? f.samplers_seen : f.n_diff - 1;
                add_model_ref(&op, f.diff[which]);
            }
            for (int c = 0; c < f.n_cn; c++)
                add_model_ref(&op, f.controlnet[c]);
            f.samplers_seen++;
            op.geom = f.have_latent ? f.latent : (hr_est_geom){ 1024, 1024, 1, 1 };
            op.arch = current_arch(in, &f);
            op.cfg = !(s->cfg > 0.99 && s->cfg < 1.01);
            done = true;
        }
        /* a VAE decode or encode */
        for (size_t k = 0; k < wf->n_decodes && !done; k++) {
            const hr_wf_decode *d = &wf->decodes[k];
            if (strcmp(d->node_id, n->id) != 0)
                continue;
            set_op(&op, n, d->encode ? HR_OP_VAE_ENCODE : HR_OP_VAE_DECODE);
            add_model_ref(&op, f.vae);
            op.geom = d->encode && f.have_image ? f.image
                      : f.have_latent           ? f.latent
                                                : (hr_est_geom){ 1024, 1024, 1, 1 };
            op.arch = current_arch(in, &f);
            op.tiled = d->tiled;
            op.tile_px = (uint32_t)d->tile_size;
            op.tile_frames = (uint32_t)d->temporal_size;
            if (!d->encode) {
                f.image = op.geom;
                f.have_image = true;
            }
            done = true;
        }
        /* an upscale */
        for (size_t k = 0; k < wf->n_upscales && !done; k++) {
            const hr_wf_upscale *u = &wf->upscales[k];
            if (strcmp(u->node_id, n->id) != 0)
                continue;
            hr_est_geom *g = u->latent ? &f.latent : &f.image;
            double factor = u->factor;
            if (u->with_model) {
                set_op(&op, n, HR_OP_UPSCALE_MODEL);
                add_model_ref(&op, f.upscaler);
                op.geom = *g;
                if (f.upscaler >= 0)
                    factor = in->model[f.upscaler].scale > 0 ? in->model[f.upscaler].scale : 4;
                else
                    factor = 4;
            } else if (!u->latent) {
                set_op(&op, n, HR_OP_IMAGE_SCALE);
                op.geom = *g;
            }
            if (factor <= 0 && u->width && g->width)
                factor = (double)u->width / g->width;
            if (factor > 0) {
                op.scale = factor;
                g->width = (uint32_t)(g->width * factor);
                g->height = (uint32_t)(g->height * factor);
            } else if (u->width && u->height) {
                g->width = (uint32_t)u->width;
                g->height = (uint32_t)u->height;
            }
            done = true;
        }
        /* text and vision encoders */
        if (!done && is_text_encode(n->class_type)) {
            set_op(&op, n, HR_OP_ENCODE_TEXT);
            for (int t = 0; t < f.n_te; t++)
                add_model_ref(&op, f.te[t]);
            if (!op.model_count)
                op.kind = HR_OP_OTHER;
        } else if (!done && !strcmp(n->class_type, "CLIPVisionEncode") && f.clip_vision >= 0) {
            set_op(&op, n, HR_OP_ENCODE_VISION);
            add_model_ref(&op, f.clip_vision);
        }
        if ((op.kind == HR_OP_VAE_DECODE || op.kind == HR_OP_VAE_ENCODE) && !op.model_count)
            op.kind = HR_OP_OTHER;
        if (op.kind == HR_OP_SAMPLE && !op.model_count)
            op.kind = HR_OP_OTHER;
        if (hr_est_add_op(in, &op) < 0)
            goto full;
    }
    return 0;
full:
    return hr_error_set(err, HR_ETOOBIG, HR_T("estimate: the workflow has more than %d steps or %d models"),
                        HR_EST_MAX_OPS, HR_EST_MAX_MODELS);
}
