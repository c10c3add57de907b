/* headroom — what a model file is, from its tensor names and shapes: the kind (checkpoint,
 * diffusion model, text encoder, VAE, LoRA, ControlNet, CLIP vision, upscaler) and the
 * architecture, with bytes and parameters by dtype and, for a full checkpoint, by
 * component. The names and shapes are those the loaders key on; a file matching none is
 * "unknown architecture" and its sizes are still exact. */
#include "core/scan/model_scan.h"
#include "core/base/i18n.h"

#include "core/base/size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef const hr_tensor_set ts;

static const hr_tensor *get(ts *s, const char *p, const char *name)
{
    char k[512];
    if ((size_t)snprintf(k, sizeof k, "%s%s", p, name) >= sizeof k)
        return NULL;
    return hr_tensor_find(s, k);
}

static bool has(ts *s, const char *p, const char *name)
{
    return get(s, p, name) != NULL;
}

static uint64_t dim(const hr_tensor *t, unsigned i)
{
    return t && i < t->ndim ? t->shape[i] : 0;
}

/* The largest N in names p + N + rest (a layer count is this + 1); -1 if none. */
static long max_index(ts *s, const char *p)
{
    size_t k = strlen(p);
    long best = -1;
    for (size_t i = 0; i < s->n; i++) {
        const char *nm = hr_tensor_name(s, &s->v[i]);
        if (strncmp(nm, p, k) != 0)
            continue;
        char *end;
        long v = strtol(nm + k, &end, 10);
        if (end != nm + k && (*end == '.' || *end == '_') && v > best && v < 100000)
            best = v;
    }
    return best;
}

static uint64_t params_prefix(ts *s, const char *p)
{
    size_t k = strlen(p);
    uint64_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(hr_tensor_name(s, &s->v[i]), p, k) == 0)
            n = hr_sat_add(n, s->v[i].numel);
    return n;
}

/* A name shown as it is, in every language ("SDXL", "CLIP-L"). */
static void word(hr_msg *out, const char *name)
{
    hr_msg_set(out, "%s", name);
}

static void billions(uint64_t params, char *out, size_t n)
{
    double b = (double)params / 1e9;
    if (b >= 10)
        snprintf(out, n, "%.0fB", b);
    else if (b >= 0.95)
        snprintf(out, n, "%.1fB", b);
    else
        snprintf(out, n, "%.0fM", (double)params / 1e6);
}

/* ---- text encoders ---- */
#define TE_LLM_MAX 48
/* llm (may be NULL): an LLM encoder's name and size ("Gemma 12B"), the same in every language,
 * for a line that joins it with others; "" for any other encoder. */
static bool te_arch(ts *s, const char *p, hr_msg *out, char llm[TE_LLM_MAX])
{
    if (llm)
        llm[0] = '\0';
    const hr_tensor *t;
    char pp[256];
    if ((t = get(s, p, "text_model.encoder.layers.0.self_attn.q_proj.weight"))) {
        uint64_t w = dim(t, 0);
        const char *k = w == 768 ? "CLIP-L" : w == 1024 ? "CLIP-H" : w == 1280 ? "CLIP-G" : w == 512 ? "CLIP-B" : NULL;
        if (k)
            word(out, k);
        else
            hr_msg_set(out, HR_N("CLIP text encoder"));
        return true;
    }
    if ((t = get(s, p, "ln_final.weight")) && has(s, p, "transformer.resblocks.0.attn.in_proj_weight")) {
        uint64_t w = dim(t, 0);
        const char *k = w == 1280 ? "CLIP-G" : w == 1024 ? "CLIP-H" : w == 768 ? "CLIP-L" : NULL;
        if (k)
            word(out, k);
        else
            hr_msg_set(out, HR_N("OpenCLIP text encoder"));
        return true;
    }
    if ((t = get(s, p, "encoder.block.0.layer.1.DenseReluDense.wi_1.weight")) ||
        (t = get(s, p, "encoder.block.0.layer.1.DenseReluDense.wi.weight"))) {
        uint64_t ff = dim(t, 0), d = dim(t, 1);
        const hr_tensor *sh = get(s, p, "shared.weight");
        bool umt5 =
            has(s, p, "encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight") || dim(sh, 0) == 256384;
        const char *size = d == 4096 ? "XXL" : d == 2048 ? "XL" : d == 1024 ? "large" : d == 768 ? "base" : "";
        (void)ff;
        hr_msg_set(out, "%s%s%s", umt5 ? "UMT5" : "T5", size[0] ? "-" : "", size);
        return true;
    }
    static const char *const llm_roots[] = { "model.", "model.language_model.", "language_model.model.", "" };
    for (size_t i = 0; i < sizeof llm_roots / sizeof llm_roots[0]; i++) {
        snprintf(pp, sizeof pp, "%s%s", p, llm_roots[i]);
        if (!(t = get(s, pp, "layers.0.self_attn.q_proj.weight")))
            continue;
        const hr_tensor *emb = get(s, pp, "embed_tokens.weight");
        const char *fam = has(s, pp, "layers.0.self_attn.q_norm.weight")            ? "Qwen3"
                          : has(s, pp, "layers.0.self_attn.q_proj.bias")            ? "Qwen2.5"
                          : has(s, pp, "layers.0.pre_feedforward_layernorm.weight") ? "Gemma"
                          : dim(emb, 0) == 128256                                   ? "Llama 3"
                          : dim(emb, 0) == 131072                                   ? "Mistral"
                                                                                    : "LLM";
        char b[16];
        billions(params_prefix(s, p), b, sizeof b);
        bool vl = has(s, p, "visual.patch_embed.proj.weight") || hr_tensor_any_prefix(s, "visual.") ||
                  hr_tensor_any_prefix(s, "vision_tower.");
        hr_msg_set(out, HR_N("%s%s %s (LLM encoder)"), fam, vl ? "-VL" : "", b);
        if (llm)
            snprintf(llm, TE_LLM_MAX, "%s%s %s", fam, vl ? "-VL" : "", b);
        return true;
    }
    return false;
}

/* ---- VAEs ---- */
static bool vae_arch(ts *s, const char *p, hr_msg *out)
{
    const hr_tensor *t;
    if ((t = get(s, p, "decoder.conv_in.weight")) && has(s, p, "decoder.up.0.block.0.conv1.weight")) {
        uint64_t ch = dim(t, 1);
        if (t->ndim == 5)
            hr_msg_set(out, HR_N("video VAE (%llu channels)"), (unsigned long long)ch);
        else if (ch == 4 || ch == 16 || ch == 32)
            hr_msg_set(out, ch == 4    ? HR_N("SD VAE (4 channels)")
                            : ch == 16 ? HR_N("16-channel VAE (FLUX.1/SD3)")
                                       : HR_N("32-channel VAE (FLUX.2)"));
        else
            word(out, "VAE");
        return true;
    }
    if ((t = get(s, p, "decoder.conv1.weight")) && t->ndim == 5 && has(s, p, "decoder.head.2.weight")) {
        word(out, dim(t, 1) == 48 ? "Wan 2.2 VAE" : "Wan 2.1 VAE");
        return true;
    }
    if ((t = get(s, p, "decoder.conv_in.conv.weight")) && t->ndim == 5) {
        if (has(s, p, "decoder.up_blocks.0.resnets.0.conv1.conv.weight"))
            word(out, "HunyuanVideo VAE");
        else
            hr_msg_set(out, HR_N("video VAE (causal 3D)"));
        return true;
    }
    if (has(s, p, "decoder.up_blocks.0.resnets.0.conv1.weight") && has(s, p, "encoder.conv_in.weight")) {
        word(out, "VAE (diffusers)");
        return true;
    }
    return false;
}

/* ---- diffusion models ---- */
static bool diffusion_arch(ts *s, const char *p, hr_msg *out)
{
    const hr_tensor *t;
    char b[16];
    if (has(s, p, "input_blocks.0.0.weight")) {
        const hr_tensor *k = hr_tensor_find_suffix(s, p, "attn2.to_k.weight");
        const hr_tensor *adm = get(s, p, "label_emb.0.0.weight");
        uint64_t ctx = dim(k, 1);
        if (hr_tensor_any_contains(s, "time_stack"))
            hr_msg_set(out, HR_N("SVD (video UNet)"));
        else if (adm && dim(adm, 1) == 2560)
            word(out, "SDXL refiner");
        else if (ctx == 2048 || adm)
            word(out, "SDXL");
        else if (ctx == 1024)
            word(out, "SD2.x");
        else if (ctx == 768)
            word(out, "SD1.x");
        else
            hr_msg_set(out, HR_N("UNet (unknown architecture)"));
        return true;
    }
    if (has(s, p, "down_blocks.0.resnets.0.conv1.weight") && has(s, p, "conv_in.weight") &&
        !has(s, p, "encoder.conv_in.weight")) {
        hr_msg_set(out, has(s, p, "add_embedding.linear_1.weight") ? HR_N("SDXL (diffusers UNet)")
                                                                   : HR_N("UNet (diffusers)"));
        return true;
    }
    if (has(s, p, "joint_blocks.0.x_block.attn.qkv.weight")) {
        char pj[256];
        snprintf(pj, sizeof pj, "%sjoint_blocks.", p);
        long depth = max_index(s, pj) + 1;
        bool attn2 = has(s, p, "joint_blocks.0.x_block.attn2.qkv.weight");
        word(out, depth >= 38 ? "SD3.5 Large" : attn2 ? "SD3.5 Medium" : "SD3 Medium");
        return true;
    }
    if (has(s, p, "double_blocks.0.img_attn.qkv.weight") && has(s, p, "single_blocks.0.linear1.weight")) {
        t = get(s, p, "img_in.weight");
        if (has(s, p, "distilled_guidance_layer.in_proj.weight"))
            word(out, "Chroma");
        else if (hr_tensor_any_contains(s, "double_stream_modulation_img"))
            word(out, "FLUX.2");
        else if (dim(t, 1) == 384)
            word(out, "FLUX.1 Fill");
        else if (has(s, p, "guidance_in.in_layer.weight"))
            word(out, "FLUX.1 dev");
        else
            word(out, "FLUX.1 schnell");
        return true;
    }
    if (has(s, p, "double_blocks.0.img_attn_qkv.weight")) {
        word(out, "HunyuanVideo");
        return true;
    }
    if ((t = get(s, p, "patch_embedding.weight")) && has(s, p, "blocks.0.self_attn.q.weight")) {
        uint64_t d = dim(t, 0), in = dim(t, 1);
        bool img = has(s, p, "img_emb.proj.0.weight");
        billions(params_prefix(s, p), b, sizeof b);
        const char *mode = in == 48 ? "ti2v" : in == 36 ? "i2v" : in == 16 ? "t2v" : "";
        hr_msg_set(out, "Wan %s %s%s%s",
                   in == 48 ? "2.2"
                   : img    ? "2.1"
                            : "2.x",
                   d == 1536   ? "1.3B"
                   : d == 5120 ? "14B"
                   : d == 3072 ? "5B"
                               : b,
                   mode[0] ? " " : "", mode);
        return true;
    }
    if (has(s, p, "patchify_proj.weight") && has(s, p, "adaln_single.emb.timestep_embedder.linear_1.weight")) {
        billions(params_prefix(s, p), b, sizeof b);
        hr_msg_set(out, "LTX-Video %s", b);
        return true;
    }
    if (has(s, p, "x_embedder.proj.weight") || has(s, p, "pos_embed.proj.weight")) {
        hr_msg_set(out, HR_N("DiT (unknown architecture)"));
        return true;
    }
    return false;
}

/* ---- LoRA, ControlNet, CLIP vision, upscalers ---- */
static bool lora(ts *s, hr_model_info *m)
{
    unsigned rank = 0;
    bool any = false, te = false;
    for (size_t i = 0; i < s->n; i++) {
        const char *nm = hr_tensor_name(s, &s->v[i]);
        if (strstr(nm, "lora_down.weight") || strstr(nm, "lora_A.weight") || strstr(nm, "lora.down.weight") ||
            strstr(nm, "lora_A.default.weight")) {
            any = true;
            if (s->v[i].ndim >= 2 && s->v[i].shape[0] > rank && s->v[i].shape[0] < 1000000)
                rank = (unsigned)s->v[i].shape[0];
            if (strncmp(nm, "lora_te", 7) == 0 || strncmp(nm, "text_encoder", 12) == 0 || strncmp(nm, "te.", 3) == 0)
                te = true;
        }
    }
    if (!any && !hr_tensor_any_contains(s, ".lora_up.") && !hr_tensor_any_contains(s, "lokr_w1") &&
        !hr_tensor_any_contains(s, "hada_w1_a"))
        return false;
    m->lora_rank = rank;
    snprintf(m->kind, sizeof m->kind, "lora");
    const char *a = "unknown architecture";
    if (hr_tensor_any_contains(s, "double_blocks") || hr_tensor_any_contains(s, "single_transformer_blocks"))
        a = "FLUX";
    else if (hr_tensor_any_prefix(s, "lora_te2_") ||
             hr_tensor_any_contains(s, "input_blocks_4_1_transformer_blocks_1") ||
             hr_tensor_any_contains(s, "add_embedding"))
        a = "SDXL";
    else if (hr_tensor_any_contains(s, "input_blocks") || hr_tensor_any_contains(s, "down_blocks"))
        a = "SD1.x/SD2.x";
    else if (hr_tensor_any_contains(s, "joint_blocks"))
        a = "SD3";
    else if (hr_tensor_any_contains(s, "self_attn") && hr_tensor_any_contains(s, "cross_attn") &&
             hr_tensor_any_contains(s, "blocks"))
        a = "Wan";
    hr_msg am;
    if (te) {
        hr_msg_set(&am, "%s%s", a, HR_N(" (model + text encoder)"));
        hr_msg_translate_arg(&am, 1);
    } else {
        word(&am, a);
    }
    hr_model_set_arch(m, &am);
    return true;
}

static bool controlnet(ts *s, hr_model_info *m)
{
    const char *p = NULL;
    if (has(s, "control_model.", "input_hint_block.0.weight"))
        p = "control_model.";
    else if (has(s, "", "input_hint_block.0.weight"))
        p = "";
    bool diffusers = has(s, "", "controlnet_cond_embedding.conv_in.weight");
    bool dit = has(s, "", "controlnet_x_embedder.weight") || hr_tensor_any_prefix(s, "controlnet_blocks.");
    if (!p && !diffusers && !dit && !hr_tensor_any_prefix(s, "lora_controlnet"))
        return false;
    snprintf(m->kind, sizeof m->kind, "controlnet");
    const hr_tensor *k = hr_tensor_find_suffix(s, p ? p : "", "attn2.to_k.weight");
    uint64_t ctx = dim(k, 1);
    bool uni = has(s, "", "task_embedding") || hr_tensor_any_contains(s, "controlnet_mode_embedder") ||
               hr_tensor_any_prefix(s, "transformer_layes.");
    const char *a = dit ? (hr_tensor_any_contains(s, "single_transformer_blocks") ||
                                   hr_tensor_any_contains(s, "transformer_blocks.0.attn.add_q_proj")
                               ? "FLUX"
                           : hr_tensor_any_contains(s, "joint_blocks") ? "SD3"
                                                                       : "DiT")
                    : hr_tensor_any_prefix(s, "lora_controlnet") ? "SDXL Control-LoRA"
                    : ctx == 2048                                ? "SDXL"
                    : ctx == 1024                                ? "SD2.x"
                    : ctx == 768                                 ? "SD1.x"
                                                                 : "unknown architecture";
    hr_msg am;
    hr_msg_set(&am, "%s%s", a, uni ? " (union)" : "");
    hr_model_set_arch(m, &am);
    return true;
}

static bool clip_vision(ts *s, hr_model_info *m)
{
    const char *roots[] = { "vision_model.", "visual.", "model.vision_model." };
    for (size_t i = 0; i < 3; i++) {
        char k[128];
        snprintf(k, sizeof k, "%sencoder.layers.0.self_attn.q_proj.weight", roots[i]);
        const hr_tensor *t = hr_tensor_find(s, k);
        if (!t)
            continue;
        uint64_t w = dim(t, 0);
        snprintf(m->kind, sizeof m->kind, "clip_vision");
        const char *vit = w == 1024   ? "CLIP ViT-L"
                          : w == 1280 ? "CLIP ViT-H"
                          : w == 1664 ? "CLIP ViT-bigG"
                          : w == 1152 ? "SigLIP"
                                      : NULL;
        hr_msg am;
        if (vit)
            word(&am, vit);
        else
            hr_msg_set(&am, HR_N("vision encoder"));
        hr_model_set_arch(m, &am);
        return true;
    }
    return false;
}

static bool upscaler(ts *s, hr_model_info *m)
{
    unsigned scale = 0;
    const char *a = NULL;
    const hr_tensor *t;
    if ((t = get(s, "", "conv_first.weight")) &&
        (has(s, "", "body.0.rdb1.conv1.weight") || has(s, "", "RRDB_trunk.0.RDB1.conv1.weight"))) {
        a = "ESRGAN (RRDB)";
        uint64_t in = dim(t, 1);
        scale = in == 12 ? 2 : in == 48 ? 1 : has(s, "", "conv_up2.weight") ? 4 : has(s, "", "conv_up1.weight") ? 2 : 1;
    } else if (has(s, "", "model.0.weight") && has(s, "", "model.1.sub.0.RDB1.conv1.0.weight")) {
        a = "ESRGAN (RRDB)";
        long mx = max_index(s, "model.");
        long ups = mx >= 4 ? (mx - 4) / 3 : 0;
        scale = 1u << (ups > 4 ? 4 : ups);
    } else if (has(s, "", "body.0.weight") && has(s, "", "body.1.weight") && !has(s, "", "conv_first.weight")) {
        long mx = max_index(s, "body.");
        char k[64];
        snprintf(k, sizeof k, "body.%ld.weight", mx);
        t = hr_tensor_find(s, k);
        uint64_t out = dim(t, 0);
        if (t && t->ndim == 4 && out % 3 == 0) {
            a = "Real-ESRGAN compact (SRVGG)";
            uint64_t q = out / 3;
            scale = q == 1 ? 1 : q == 4 ? 2 : q == 9 ? 3 : q == 16 ? 4 : q == 64 ? 8 : 0;
        }
    }
    if (!a)
        return false;
    snprintf(m->kind, sizeof m->kind, "upscale_model");
    m->upscale = scale;
    hr_msg am;
    word(&am, a);
    hr_model_set_arch(m, &am);
    return true;
}

/* ---- checkpoints: components by key prefix ---- */
typedef struct comp_rule {
    const char *prefix;
    const char *comp;
} comp_rule;

static const comp_rule comp_rules[] = {
    { "model.diffusion_model.", "diffusion_model" },
    { "model.model.", "diffusion_model" },
    { "net.", "diffusion_model" },
    { "cond_stage_model.", "text_encoder" },
    { "conditioner.embedders.", "text_encoder" },
    { "text_encoders.", "text_encoder" },
    { "first_stage_model.", "vae" },
    { "vae.", "vae" },
};

static hr_model_component *comp_get(hr_model_info *m, const char *name)
{
    for (size_t i = 0; i < m->n_comps; i++)
        if (strcmp(m->comps[i].name, name) == 0)
            return &m->comps[i];
    if (m->n_comps >= HR_MODEL_MAX_COMPONENTS)
        return NULL;
    hr_model_component *c = &m->comps[m->n_comps++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    return c;
}

/* A checkpoint's text encoders, "CLIP-L + CLIP-G": each named once, and each name that is a
 * message of its own ("CLIP text encoder") translated where the whole is shown; an LLM's name
 * is kept as it reads and its words " (LLM encoder)" translated, so no part stays English in
 * another language. */
#define TE_JOIN_MAX 5
typedef struct te_join {
    char en[64]; /* the names so far, in English, as the field held them */
    const char *part[TE_JOIN_MAX];
    bool tr[TE_JOIN_MAX];
    const char *suffix[TE_JOIN_MAX]; /* a msgid after the part, or "" */
    char copy[TE_JOIN_MAX][48];
    size_t n;
    hr_msg first;
} te_join;

static void te_join_add(te_join *j, const hr_msg *one, const char *llm)
{
    char en[48];
    hr_msg_format(one, HR_LANG_EN, en, sizeof en);
    if (strstr(j->en, en) || j->n == TE_JOIN_MAX)
        return;
    size_t k = strlen(j->en);
    snprintf(j->en + k, sizeof j->en - k, "%s%s", k ? " + " : "", en);
    /* a name without values is its msgid; an LLM is its name and its words; any other name
     * with values (T5-XXL) reads the same in every language */
    j->tr[j->n] = one->nargs == 0;
    j->suffix[j->n] = llm[0] ? HR_N(" (LLM encoder)") : "";
    snprintf(j->copy[j->n], sizeof j->copy[0], "%s", j->tr[j->n] ? one->fmt : llm[0] ? llm : en);
    j->part[j->n] = j->copy[j->n];
    if (j->n == 0)
        j->first = *one;
    j->n++;
}

static void te_join_msg(const te_join *j, hr_msg *out)
{
    const char *const *p = j->part, *const *x = j->suffix;
    switch (j->n) {
    case 0: return;
    case 1: *out = j->first; return; /* alone, a name keeps its own message */
    case 2: hr_msg_set(out, "%s%s + %s%s", p[0], x[0], p[1], x[1]); break;
    case 3: hr_msg_set(out, "%s%s + %s%s + %s%s", p[0], x[0], p[1], x[1], p[2], x[2]); break;
    case 4: hr_msg_set(out, "%s%s + %s%s + %s%s + %s%s", p[0], x[0], p[1], x[1], p[2], x[2], p[3], x[3]); break;
    default:
        hr_msg_set(out, "%s%s + %s%s + %s%s + %s%s + %s%s", p[0], x[0], p[1], x[1], p[2], x[2], p[3], x[3], p[4], x[4]);
        break;
    }
    for (size_t i = 0; i < j->n; i++) {
        if (j->tr[i])
            hr_msg_translate_arg(out, (int)(2 * i));
        if (x[i][0])
            hr_msg_translate_arg(out, (int)(2 * i + 1));
    }
}

static bool checkpoint(ts *s, hr_model_info *m)
{
    int groups = 0;
    bool seen[3] = { false, false, false };
    for (size_t r = 0; r < sizeof comp_rules / sizeof comp_rules[0]; r++) {
        if (!hr_tensor_any_prefix(s, comp_rules[r].prefix))
            continue;
        int g = comp_rules[r].comp[0] == 'd' ? 0 : comp_rules[r].comp[0] == 't' ? 1 : 2;
        if (!seen[g])
            groups++;
        seen[g] = true;
    }
    if (groups < 2 && !(seen[0] && !has(s, "", "input_blocks.0.0.weight")))
        return false;
    if (groups < 2) {
        /* a diffusion model saved with the checkpoint prefix, nothing else */
        hr_msg a;
        if (!diffusion_arch(s, "model.diffusion_model.", &a))
            return false;
        snprintf(m->kind, sizeof m->kind, "diffusion_model");
        hr_model_set_arch(m, &a);
        return true;
    }
    snprintf(m->kind, sizeof m->kind, "checkpoint");
    for (size_t i = 0; i < s->n; i++) {
        const char *nm = hr_tensor_name(s, &s->v[i]);
        const char *c = "other";
        for (size_t r = 0; r < sizeof comp_rules / sizeof comp_rules[0]; r++)
            if (strncmp(nm, comp_rules[r].prefix, strlen(comp_rules[r].prefix)) == 0) {
                c = comp_rules[r].comp;
                break;
            }
        hr_model_component *cp = comp_get(m, c);
        if (cp) {
            cp->bytes += s->v[i].bytes;
            cp->params = hr_sat_add(cp->params, s->v[i].numel);
        }
    }
    hr_msg a = { 0 };
    static const char *const dprefix[] = { "model.diffusion_model.", "model.model.", "net." };
    for (size_t i = 0; i < 3 && !hr_msg_is_set(&a); i++)
        if (!diffusion_arch(s, dprefix[i], &a))
            a.fmt = NULL;
    hr_model_component *d = comp_get(m, "diffusion_model");
    if (d && hr_msg_is_set(&a))
        d->arch = a;
    te_join tj;
    memset(&tj, 0, sizeof tj);
    hr_msg one;
    char llm[TE_LLM_MAX];
    static const char *const tprefix[] = {
        "cond_stage_model.transformer.",
        "cond_stage_model.model.",
        "cond_stage_model.",
        "conditioner.embedders.0.transformer.",
        "conditioner.embedders.0.model.",
        "conditioner.embedders.1.model.",
        "text_encoders.clip_l.transformer.",
        "text_encoders.clip_g.transformer.",
        "text_encoders.t5xxl.transformer.",
        "text_encoders.gemma3_12b.transformer.",
    };
    for (size_t i = 0; i < sizeof tprefix / sizeof tprefix[0]; i++)
        if (te_arch(s, tprefix[i], &one, llm))
            te_join_add(&tj, &one, llm);
    hr_model_component *tc = comp_get(m, "text_encoder");
    if (tc && tj.n)
        te_join_msg(&tj, &tc->arch);
    static const char *const vprefix[] = { "first_stage_model.", "vae." };
    for (size_t i = 0; i < 2; i++)
        if (vae_arch(s, vprefix[i], &one)) {
            hr_model_component *vc = comp_get(m, "vae");
            if (vc)
                vc->arch = one;
            break;
        }
    /* drop empty components made by comp_get lookups */
    size_t w = 0;
    for (size_t i = 0; i < m->n_comps; i++)
        if (m->comps[i].bytes || m->comps[i].params)
            m->comps[w++] = m->comps[i];
    m->n_comps = w;
    if (!hr_msg_is_set(&a))
        hr_msg_set(&a, HR_N("unknown architecture"));
    hr_model_set_arch(m, &a);
    return true;
}

static void gguf_kind(ts *s, hr_model_info *m)
{
    /* llama.cpp-style names (blk.N.*) are language models: text encoders in ComfyUI */
    if (hr_tensor_any_prefix(s, "blk.") || hr_tensor_any_prefix(s, "enc.blk.")) {
        snprintf(m->kind, sizeof m->kind, "text_encoder");
        const char *a = m->gguf_arch;
        hr_msg am;
        if (strcmp(a, "t5encoder") == 0 || strcmp(a, "t5") == 0) {
            hr_msg_set(&am, "T5%s", hr_tensor_any_prefix(s, "enc.blk.23.") ? "-XXL" : "");
            hr_model_set_arch(m, &am);
        } else if (a[0]) {
            hr_msg_set(&am, HR_N("%s (LLM encoder)"), a);
            hr_model_set_arch(m, &am);
        }
    }
}

static void dtype_totals(ts *s, hr_model_info *m)
{
    for (size_t i = 0; i < s->n; i++) {
        const hr_tensor *t = &s->v[i];
        hr_dtype_total *d = NULL;
        for (size_t j = 0; j < m->n_dtypes; j++)
            if (strcmp(m->dtypes[j].name, t->dtype) == 0)
                d = &m->dtypes[j];
        if (!d) {
            size_t j = m->n_dtypes < HR_MODEL_MAX_DTYPES ? m->n_dtypes++ : HR_MODEL_MAX_DTYPES - 1;
            d = &m->dtypes[j];
            if (j == HR_MODEL_MAX_DTYPES - 1 && d->name[0]) {
                snprintf(d->name, sizeof d->name, "other");
                d->known = false;
            } else {
                memset(d, 0, sizeof *d);
                memcpy(d->name, t->dtype, sizeof d->name);
                d->known = t->dtype_known;
            }
        }
        d->bytes += t->bytes;
        d->params = hr_sat_add(d->params, t->numel);
        d->tensors++;
    }
    /* largest first: the dtype the loader calls the model's */
    for (size_t i = 1; i < m->n_dtypes; i++)
        for (size_t j = i; j > 0 && m->dtypes[j].bytes > m->dtypes[j - 1].bytes; j--) {
            hr_dtype_total x = m->dtypes[j];
            m->dtypes[j] = m->dtypes[j - 1];
            m->dtypes[j - 1] = x;
        }
}

static bool name_has(const char *name, const char *part)
{
    if (!name)
        return false;
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (part[i] && p[i] && (p[i] | 0x20) == (part[i] | 0x20))
            i++;
        if (!part[i])
            return true;
    }
    return false;
}

static void from_folder(const char *file_name, const char *folder, hr_model_info *m)
{
    static const struct {
        const char *folder, *kind;
    } f[] = {
        { "checkpoints", "checkpoint" },
        { "diffusion_models", "diffusion_model" },
        { "unet", "diffusion_model" },
        { "text_encoders", "text_encoder" },
        { "clip", "text_encoder" },
        { "vae", "vae" },
        { "loras", "lora" },
        { "controlnet", "controlnet" },
        { "t2i_adapter", "controlnet" },
        { "clip_vision", "clip_vision" },
        { "upscale_models", "upscale_model" },
        { "style_models", "style_model" },
    };
    for (size_t i = 0; folder && i < sizeof f / sizeof f[0]; i++)
        if (strcmp(folder, f[i].folder) == 0)
            snprintf(m->kind, sizeof m->kind, "%s", f[i].kind);
    if (strcmp(m->kind, "upscale_model") == 0 && file_name) {
        /* "4x-UltraSharp.pth", "RealESRGAN_x2plus.pth": the factor in the name */
        for (const char *p = file_name; *p; p++) {
            if (p[0] >= '1' && p[0] <= '8' && (p[1] == 'x' || p[1] == 'X') &&
                (p == file_name || !(p[-1] >= '0' && p[-1] <= '9')))
                m->upscale = (unsigned)(p[0] - '0');
            else if ((p[0] == 'x' || p[0] == 'X') && p[1] >= '1' && p[1] <= '8' && (p[2] < '0' || p[2] > '9') &&
                     p > file_name && !(p[-1] >= 'a' && p[-1] <= 'z'))
                m->upscale = (unsigned)(p[1] - '0');
        }
        if (name_has(file_name, "esrgan") || name_has(file_name, "ultrasharp") || name_has(file_name, "siax") ||
            name_has(file_name, "animesharp")) {
            hr_msg am;
            hr_msg_set(&am, HR_N("ESRGAN (by name)"));
            hr_model_set_arch(m, &am);
        }
    }
}

void hr_model_classify(const hr_tensor_set *s, const char *file_name, const char *folder_hint, hr_model_info *m)
{
    dtype_totals(s, m);
    hr_msg a;
    if (s->n == 0) {
        from_folder(file_name, folder_hint, m);
        return;
    }
    if (lora(s, m) || controlnet(s, m) || clip_vision(s, m) || upscaler(s, m) || checkpoint(s, m))
        return;
    if (diffusion_arch(s, "", &a)) {
        snprintf(m->kind, sizeof m->kind, "diffusion_model");
        hr_model_set_arch(m, &a);
        return;
    }
    static const char *const te_roots[] = { "", "transformer.", "model." };
    for (size_t i = 0; i < 3; i++)
        if (te_arch(s, te_roots[i], &a, NULL)) {
            snprintf(m->kind, sizeof m->kind, "text_encoder");
            hr_model_set_arch(m, &a);
            return;
        }
    if (vae_arch(s, "", &a)) {
        snprintf(m->kind, sizeof m->kind, "vae");
        hr_model_set_arch(m, &a);
        return;
    }
    gguf_kind(s, m);
    if (strcmp(m->kind, "unknown") == 0)
        from_folder(file_name, folder_hint, m);
}
