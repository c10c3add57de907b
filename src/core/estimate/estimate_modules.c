/* headroom — estimate: the modules a model is loaded by, and the offload cast buffer they set.
 *
 * A partially loaded model keeps some of its modules in RAM and casts each one to the GPU when
 * it runs. From 0.3.76 ComfyUI reserves VRAM for that cast ("MB buffer reserved"), and the
 * reserve follows the module sizes, not the model's: ModelPatcher.load() walks the modules by
 * offload cost, largest first, and the first that does not fit sets it: its cost times
 * NUM_STREAMS plus one (0.3.76), or its cost plus the next NUM_STREAMS modules (0.4.0, the
 * look-ahead). A module's cost is its weight, plus a LoRA patch's math, plus (0.4.0) a copy in
 * the compute dtype when it is stored in another, and a text encoder computes in fp32 from
 * 0.4.0. A text encoder's token embedding is one huge module (UMT5-XXL: 256 384 x 4096, 2 GB),
 * so it decides whether the encoder loads at all (6009 MB reserved at 0.3.76, 6089 MB at 0.4.0
 * in PR #11096's setting). docs/memory-model.md, "Offload buffer". */
#include "core/estimate/estimate_internal.h"

#include "core/base/text.h"

#include <stddef.h>
#include <string.h>

/* A class of equal linear layers: in x out parameters, count of them in the model. */
typedef struct mod_class {
    double in, out;
    int count;
} mod_class;

/* Text encoders whose modules are known, from their published configs: the token embedding
 * (vocab x d_model), and per layer the gated MLP's three d_model x d_ff linears, the query and
 * output projections (d_model x q_out) and the key and value projections (d_model x kv_out,
 * smaller where heads share them). */
typedef struct te_modules {
    const char *name_part; /* matched in the file name, case-insensitive */
    double vocab, d_model, d_ff, q_out, kv_out;
    int layers;
    const mod_class *extra; /* other modules it builds (a vision tower), or NULL */
    size_t nextra;
    /* The published file carries the language model's output head (vocab x d_model, 16 bits),
     * which ComfyUI's encoder does not build (its config says lm_head False): the weights are
     * left in the file, never loaded. The Qwen2.5-VL 7B files (fp8 9.38 GB, bf16 16.6 GB) and
     * Llama 3 8B's (16.1 GB = 8.03 B parameters, the head included) carry one; the T5 encoders
     * have none, and the FLUX.2 Mistral file none (ComfyUI logs its lm_head as missing). */
    bool unbuilt_head;
} te_modules;

/* Qwen2.5-VL's vision tower, which ComfyUI's encoder builds beside the language model (the
 * published vision config: width 1280, 32 blocks of a fused qkv and an output projection and a
 * gated MLP of width 3420, a merger of 2 x 2 patches into the language model's width 3584, a
 * 3-D patch embedding of 3 x 2 x 14 x 14): 675 M parameters, 648 MiB of the fp8 file. */
static const mod_class QWEN25_VL_VISION[] = {
    { 5120, 5120, 1 },  /* merger */
    { 5120, 3584, 1 },  /* merger out */
    { 1280, 3840, 32 }, /* qkv */
    { 1280, 3420, 96 }, /* MLP gate, up and down */
    { 1280, 1280, 32 }, /* attention output */
    { 1176, 1280, 1 },  /* patch embedding */
};

static const te_modules TE[] = {
    { "umt5", 256384, 4096, 10240, 4096, 4096, 24, NULL, 0, false }, /* UMT5-XXL (Wan) */
    { "t5xxl", 32128, 4096, 10240, 4096, 4096, 24, NULL, 0, false }, /* T5-XXL (FLUX, SD3) */
    { "qwen_2.5_vl_7b", 152064, 3584, 18944, 3584, 512, 28, QWEN25_VL_VISION,
      sizeof QWEN25_VL_VISION / sizeof QWEN25_VL_VISION[0], true },             /* Qwen2.5-VL 7B (Qwen-Image) */
    { "llava_llama3", 128256, 4096, 14336, 4096, 1024, 32, NULL, 0, true },     /* Llama 3 8B (HunyuanVideo) */
    { "mistral_3_small", 131072, 5120, 32768, 4096, 1024, 40, NULL, 0, false }, /* Mistral Small 3 (FLUX.2) */
};

static const te_modules *te_of(const hr_est_model *m)
{
    if (m->kind != HR_EST_TEXT_ENCODER)
        return NULL;
    for (size_t i = 0; i < sizeof TE / sizeof TE[0]; i++)
        if (hr_str_icontains(m->name, TE[i].name_part))
            return &TE[i];
    return NULL;
}

/* Z-Image (ComfyUI's ZImage: Lumina 2's NextDiT at width 3840, comfy/ldm/lumina/model.py and
 * model_detection.py): 30 layers plus 2 noise- and 2 context-refiner layers, each a fused qkv
 * (3840 x 3 x 3840), an output projection (3840 x 3840) and a gated feed-forward of three
 * 3840 x 10240 linears (8/3 x 3840 rounded to 256); the 32 modulated ones add adaLN (256 x
 * 4 x 3840). They hold all but a few MB of the 12.31 GB bf16 file. Largest first, as
 * ModelPatcher.load() sorts them. */
static const mod_class ZIMAGE_MODS[] = {
    { 3840, 11520, 34 },
    { 3840, 10240, 102 },
    { 3840, 3840, 34 },
    { 256, 15360, 32 },
};

/* SDXL's UNet (ComfyUI's UNetModel with SDXL's config, comfy/model_detection.py: width 320 x
 * 1, 2, 4, two ResBlocks a level, transformer depth 2 at 640 and 10 at 1280, context 2048,
 * linear proj_in/out): its weight-bearing modules by size, in parameters, largest first. The
 * decoder's first convolutions take the skip connection too (2560 and 1920 channels in); the
 * 70 transformer blocks hold a GEGLU feed-forward (d x 8d, 4d x d), six d x d projections and
 * the cross-attention's key and value from 2048. They add up to the 2.567 B parameters of the
 * published model. */
static const mod_class SDXL_MODS[] = {
    { 2560 * 9, 1280, 2 },  /* output ResBlocks 0, 1: conv1 (with the skip) */
    { 1920 * 9, 1280, 1 },  /* output ResBlock 2: conv1 */
    { 1280 * 9, 1280, 11 }, /* 1280 -> 1280 3x3 convolutions, the upsampler's included */
    { 1280, 10240, 60 },    /* feed-forward in (GEGLU), width 1280 */
    { 1920 * 9, 640, 1 },   /* output ResBlock 3: conv1 */
    { 640 * 9, 1280, 2 },   /* 640 -> 1280 and 1280 -> 640 3x3 convolutions */
    { 5120, 1280, 60 },     /* feed-forward out, width 1280 */
    { 960 * 9, 640, 1 },    /* output ResBlock 5: conv1 */
    { 640 * 9, 640, 8 },    /* 640 -> 640 3x3 convolutions, down- and upsampler included */
    { 2816, 1280, 1 },      /* the class (size and crop) embedding */
    { 640, 5120, 12 },      /* feed-forward in, width 640; two 2560 -> 1280 skips */
    { 960 * 9, 320, 1 },    /* output ResBlock 6: conv1 */
    { 2048, 1280, 120 },    /* cross-attention key and value, width 1280 */
    { 1920, 1280, 1 },      /* output ResBlock 2: skip */
    { 320 * 9, 640, 3 },    /* 320 -> 640 and 640 -> 320 3x3 convolutions */
    { 1280, 1280, 391 },    /* attention projections, proj_in/out, embeddings, feed-forward out 640 */
    { 2048, 640, 20 },      /* cross-attention key and value, width 640 */
    { 1920, 640, 1 },       /* output ResBlock 3: skip */
    { 320 * 9, 320, 8 },    /* 320 -> 320 3x3 convolutions, the downsampler included */
    { 1280, 640, 7 },       /* time embeddings of the 640 blocks; 640 -> 1280 and 1280 -> 640 skips */
    { 960, 640, 1 },        /* output ResBlock 5: skip */
    { 640, 640, 76 },       /* attention projections, proj_in/out, width 640; time embeddings */
    { 960, 320, 1 },        /* output ResBlock 6: skip */
    { 320, 640, 3 },        /* 320 -> 640 and 640 -> 320 skips */
};

/* The diffusion models whose modules are known: every block linear (mods), or only the one
 * linear layer every block repeats that holds the most parameters (in x out, from the published
 * config; 0 x 0 where mods lists them all). */
typedef struct dm_modules {
    hr_est_arch arch;
    const char *not_part; /* a smaller model of the same class (other widths), or NULL */
    double in, out;
    const mod_class *mods;
    size_t nmods;
} dm_modules;

/* FLUX.2 dev: width 6144, MLP ratio 3 with a gated MLP; a single-stream block's fused input
 * projection (linear1) gives q, k, v and the two MLP halves: 6144 x (3 x 6144 + 2 x 18432),
 * 324 MiB of parameters. */
static const dm_modules DM[] = {
    { HR_ARCH_FLUX2, "klein", 6144, 55296, NULL, 0 },
    { HR_ARCH_SDXL, "refiner", 0, 0, SDXL_MODS, sizeof SDXL_MODS / sizeof SDXL_MODS[0] },
    { HR_ARCH_ZIMAGE, NULL, 0, 0, ZIMAGE_MODS, sizeof ZIMAGE_MODS / sizeof ZIMAGE_MODS[0] },
};

/* The model's largest module, in parameters: from its table where it has one. */
static double dm_largest(const dm_modules *d)
{
    double n = d->in * d->out;
    for (size_t i = 0; i < d->nmods; i++)
        if (d->mods[i].in * d->mods[i].out > n)
            n = d->mods[i].in * d->mods[i].out;
    return n;
}

static const dm_modules *dm_of(const hr_est_model *m)
{
    if (m->kind != HR_EST_DIFFUSION)
        return NULL;
    for (size_t i = 0; i < sizeof DM / sizeof DM[0]; i++)
        if (m->arch == DM[i].arch && (DM[i].not_part == NULL || !hr_str_icontains(m->name, DM[i].not_part)))
            return &DM[i];
    return NULL;
}

/* Each change to the offload accounting: its PR, when it was merged (the commit's date as git
 * shows it, in the committer's time zone, and the instant in UTC) and the release that first
 * shipped it (the history of comfy/model_patcher.py and comfy/sd.py). Two merges share a day
 * twice, so a date alone cannot tell them apart. */
static const struct offload_change {
    int pr, date;
    int64_t utc;
    int release;
} CHANGES[] = {
    { 11069, 20251203, 1764746925, HR_EST_VER(0, 4, 0) }, /* 519c9411, 2025-12-03 02:28:45 -0500 */
    { 11096, 20251203, 1764822524, HR_EST_VER(0, 4, 0) }, /* 6be85c79, 2025-12-03 23:28:44 -0500 */
    { 11173, 20251208, 1765225086, HR_EST_VER(0, 4, 0) }, /* 60ee5747, 2025-12-08 15:18:06 -0500 */
    { 11171, 20251208, 1765254091, HR_EST_VER(0, 4, 0) }, /* e136b6db, 2025-12-08 23:21:31 -0500 */
};

/* Whether ComfyUI `version` at checkout c has change k: its release has it, or the checkout is
 * from after the merge (a date alone counts its whole day: *ambiguous when the merge is on it). */
static bool has_change(int version, const hr_est_commit *c, size_t k, int *ambiguous)
{
    const struct offload_change *x = &CHANGES[k];
    if (version >= x->release)
        return true;
    if (!c || c->date == 0)
        return false;
    if (c->timed)
        return c->utc >= x->utc;
    if (c->date == x->date && *ambiguous == 0)
        *ambiguous = x->pr;
    return c->date >= x->date;
}

hr_est_offload_rules hr_est_offload_rules_at(int version, const hr_est_commit *c)
{
    hr_est_offload_rules r;
    memset(&r, 0, sizeof r);
    bool *has[] = { &r.bare_streams, &r.look_ahead, &r.patch_compute, &r.cast_copy };
    for (size_t k = 0; k < sizeof CHANGES / sizeof CHANGES[0]; k++)
        *has[k] = has_change(version, c, k, &r.ambiguous_pr);
    return r;
}

/* What ModelPatcher.load() counts for casting one offloaded module of n parameters: the
 * module, and a lowvram patch (LoRA) adds the VRAM of computing the patched weight: in fp32
 * three times, from PR #11173 in the compute dtype twice; from PR #11171 an unpatched weight
 * stored in another dtype than the one it computes in adds its copy. */
static double module_cost(double n, const hr_est_offload_rules *r, const hr_est_cast *c, double wbytes)
{
    double module = n * wbytes;
    double cb = c->compute_bytes > 0 ? c->compute_bytes : 2;
    if (c->patched)
        return module + (r->patch_compute ? n * cb * 2 : n * 4 * 3);
    return module + (r->cast_copy && wbytes < cb ? n * cb : 0);
}

/* The reserve of a run of equal modules of n parameters (a transformer's blocks repeat the
 * largest one), as ModelPatcher.load() counts it for the first that does not fit: the cost
 * times the streams plus one; from PR #11069 the cost once plus NUM_STREAMS bare modules (the
 * look-ahead of PR #11096 gives the same here: the next modules are the same size). */
static double run_buffer(double n, const hr_est_offload_rules *r, const hr_est_cast *c, double wbytes)
{
    double cost = module_cost(n, r, c, wbytes);
    if (!r->bare_streams && !r->look_ahead)
        return cost * (c->streams + 1);
    return cost + n * wbytes * c->streams;
}

static double weight_bytes(const hr_est_model *m, const hr_est_cast *c)
{
    if (c->weight_bytes > 0)
        return c->weight_bytes;
    return m->file_dtype_bytes > 0 ? m->file_dtype_bytes : 2;
}

/* The Wan 2.1 VAE (Wan 2.1, Wan 2.2 14B, Qwen-Image; comfy/ldm/wan/vae.py): base width 96 with
 * multipliers 1, 2, 4, 4, so its largest module is a 384 -> 384 causal 3-D convolution of
 * 3 x 3 x 3, repeated by the decoder's residual blocks. 0 for a VAE not known. */
static double vae_largest(const hr_est_model *m)
{
    if (m->kind != HR_EST_VAE || hr_est_arch_info_of(m->arch)->vae != HR_VAE_WAN21)
        return 0;
    return 384.0 * 384.0 * 27.0;
}

/* A class of equal modules as a load walks them: n parameters of bytes each, count of them. */
typedef struct walk_class {
    double n, bytes;
    int count;
} walk_class;

/* A text encoder computes in fp32 from PR #11171 (0.4.0): CLIP.__init__ sets its patcher's
 * compute dtype to float32 (to match the encoders' hard-coded upcast), so every offloaded module
 * of it is counted with an fp32 copy. Before, the encoder had none and nothing was added. */
static double te_compute_bytes(const hr_est_offload_rules *r, const hr_est_cast *c)
{
    return r->cast_copy ? 4 : c->compute_bytes;
}

/* The model's module classes, largest offload cost first as ModelPatcher.load() sorts them (the
 * modules it does not list, norms and biases, are what is left of mem); 0 when not known. */
static size_t classes_of(const hr_est_model *m, const hr_est_offload_rules *r, hr_est_cast *c, walk_class *k,
                         size_t cap)
{
    size_t nk = 0;
    const dm_modules *d = dm_of(m);
    const te_modules *t = d == NULL ? te_of(m) : NULL;
    if (d != NULL && d->mods != NULL) {
        double wb = weight_bytes(m, c);
        if (d->nmods > cap)
            return 0; /* a table longer than the walk holds: never cut it silently */
        for (size_t i = 0; i < d->nmods; i++)
            k[nk++] = (walk_class){ d->mods[i].in * d->mods[i].out, wb, d->mods[i].count };
    } else if (t != NULL) {
        if (4 + t->nextra > cap)
            return 0;
        c->compute_bytes = te_compute_bytes(r, c);
        /* fp8 files keep the embedding in 16 bits (it is not a linear layer); the projections
         * are stored in the file's dtype. */
        double fb = m->file_dtype_bytes > 0 ? m->file_dtype_bytes : 2;
        double eb = fb < 2 ? 2 : fb;
        k[nk++] = (walk_class){ t->vocab * t->d_model, eb, 1 };
        k[nk++] = (walk_class){ t->d_model * t->d_ff, fb, 3 * t->layers };
        k[nk++] = (walk_class){ t->d_model * t->q_out, fb, 2 * t->layers };
        k[nk++] = (walk_class){ t->d_model * t->kv_out, fb, 2 * t->layers };
        for (size_t i = 0; i < t->nextra; i++)
            k[nk++] = (walk_class){ t->extra[i].in * t->extra[i].out, fb, t->extra[i].count };
    } else {
        return 0;
    }
    for (size_t i = 1; i < nk; i++) /* largest cost first, as load() sorts (insertion: few classes) */
        for (size_t j = i;
             j > 0 && module_cost(k[j].n, r, c, k[j].bytes) > module_cost(k[j - 1].n, r, c, k[j - 1].bytes); j--) {
            walk_class tmp = k[j];
            k[j] = k[j - 1];
            k[j - 1] = tmp;
        }
    return nk;
}

bool hr_est_partial_load(const hr_est_model *m, const hr_est_offload_rules *r, const hr_est_cast *c, double mem,
                         double usable, double *loaded, double *buffer)
{
    if (m->format == HR_FMT_GGUF || c->streams < 0)
        return false;
    hr_est_cast cc = *c;
    walk_class k[32];
    size_t nk = classes_of(m, r, &cc, k, sizeof k / sizeof k[0]);
    if (nk == 0)
        return false;
    double done = 0, buf = 0, listed = 0;
    for (size_t a = 0; a < nk; a++) {
        double size = k[a].n * k[a].bytes;
        for (int j = 0; j < k[a].count; j++) {
            double pot;
            if (!r->look_ahead) { /* the module's own run: no look-ahead yet */
                pot = run_buffer(k[a].n, r, &cc, k[a].bytes);
            } else { /* the next NUM_STREAMS modules in the sorted list, maybe of smaller classes */
                pot = module_cost(k[a].n, r, &cc, k[a].bytes);
                size_t aa = a;
                int jj = j;
                for (int s = 0; s < cc.streams; s++) {
                    if (++jj >= k[aa].count) {
                        jj = 0;
                        if (++aa >= nk)
                            break;
                    }
                    pot += k[aa].n * k[aa].bytes;
                }
            }
            pot = pot > buf ? pot : buf;
            /* ModelPatcher.load(): a module loads while it and the reserve fit, else it is
             * offloaded and its reserve kept; smaller modules after it may still fit. */
            if (done + size + pot < usable)
                done += size;
            else
                buf = pot;
            listed += size;
        }
    }
    /* norms, embeddings, biases: small enough to fill what is left */
    double rest = mem - listed;
    double room = usable - done - buf;
    if (rest > 0 && room > 0)
        done += rest < room ? rest : room;
    *loaded = done;
    *buffer = buf;
    return true;
}

double hr_est_offload_buffer(const hr_est_model *m, const hr_est_offload_rules *r, const hr_est_cast *c)
{
    int streams = c->streams;
    if (streams < 0)
        return -1;
    double fbytes = m->file_dtype_bytes > 0 ? m->file_dtype_bytes : 2;
    const dm_modules *d = dm_of(m);
    if (d != NULL && m->format != HR_FMT_GGUF)
        return run_buffer(dm_largest(d), r, c, weight_bytes(m, c));
    double v = vae_largest(m);
    if (v > 0)
        return run_buffer(v, r, c, weight_bytes(m, c));
    const te_modules *t = te_of(m);
    if (t == NULL)
        return -1;
    /* a GGUF encoder (no walk): its largest module, the embedding, kept in 16 bits */
    double ebytes = fbytes < 2 ? 2 : fbytes;
    double embedding = t->vocab * t->d_model * ebytes;
    double block = t->d_model * t->d_model * fbytes;
    if (!r->look_ahead)
        return embedding * (streams + 1);
    return block * (streams + 1);
}

double hr_est_unbuilt_params(const hr_est_model *m)
{
    const te_modules *t = te_of(m);
    if (t == NULL || !t->unbuilt_head || m->format == HR_FMT_GGUF)
        return 0;
    return t->vocab * t->d_model;
}
