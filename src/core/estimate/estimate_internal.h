/* headroom — estimate's internal pieces, shared by its files only. */
#ifndef HR_ESTIMATE_INTERNAL_H
#define HR_ESTIMATE_INTERNAL_H

#include "core/estimate/estimate.h"

#include <stdint.h>

/* Inside the estimate every quantity is a double of bytes; the report holds bytes. */
#define HR_EST_GIBD (1024.0 * 1024.0 * 1024.0)
#define HR_EST_MIBD (1024.0 * 1024.0)

static inline double hr_est_max(double a, double b)
{
    return a > b ? a : b;
}

static inline double hr_est_min(double a, double b)
{
    return a < b ? a : b;
}

/* A double of bytes as the report's bytes: negative is 0, beyond uint64_t saturates. */
static inline uint64_t hr_est_u64(double v)
{
    return v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v;
}

typedef struct hr_est_arch_info {
    const char *name;
    double factor; /* memory_usage_factor */
    int channels;  /* latent channels */
    int down;      /* spatial downscale */
    int tdown;     /* temporal downscale; 0 for image models */
    hr_est_vae_kind vae;
    double lora_coverage;
} hr_est_arch_info;

const hr_est_arch_info *hr_est_arch_info_of(hr_est_arch a);
void hr_est_latent_dims(hr_est_arch a, const hr_est_geom *g, double *b, double *t, double *h, double *w);

/* How a partially loaded model's offloaded modules are cast to the GPU. */
typedef struct hr_est_cast {
    int streams;          /* NUM_STREAMS (0 without async offload) */
    double weight_bytes;  /* bytes per parameter in memory; 0 = the file's dtype */
    double compute_bytes; /* bytes per parameter of the dtype it computes in (bf16/fp16: 2) */
    bool patched;         /* a LoRA patches its weights (ComfyUI's "lowvram patches") */
} hr_est_cast;

/* How ModelPatcher.load() counts the VRAM of casting an offloaded module. Master changed it four
 * times between the 0.3.77 and 0.4.0 releases (2025-12-03 to 12-09); a release before 0.4.0 has
 * none of the changes and 0.4.0 all, a checkout between them those merged by its date. */
typedef struct hr_est_offload_rules {
    bool bare_streams;  /* PR #11069: the module's cost once plus NUM_STREAMS bare copies of it,
                         * not its cost NUM_STREAMS + 1 times */
    bool look_ahead;    /* PR #11096: plus the next NUM_STREAMS modules' own sizes instead */
    bool patch_compute; /* PR #11173: a LoRA patch in the compute dtype twice, not fp32 three times */
    bool cast_copy;     /* PR #11171: a weight stored in a smaller dtype than it computes in (fp8,
                         * a 16-bit text encoder computing in fp32) counts its copy */
    int ambiguous_pr;   /* a checkout given by its date alone, on the day this PR was merged:
                         * taken as after it (0: none) */
} hr_est_offload_rules;

/* The rules of ComfyUI `version` (HR_EST_VER) at checkout c (NULL or date 0: the release). */
hr_est_offload_rules hr_est_offload_rules_at(int version, const hr_est_commit *c);

/* The VRAM ComfyUI reserves to cast a partially loaded model's offloaded modules (0.3.76+),
 * from the model's module sizes; < 0 when they are not known. */
double hr_est_offload_buffer(const hr_est_model *m, const hr_est_offload_rules *r, const hr_est_cast *c);

/* A partial load of mem bytes into usable bytes module by module, as ModelPatcher.load() makes
 * it (0.3.76+): the bytes loaded and the reserve set by the first module that did not fit;
 * false when the model's modules are not all known. */
bool hr_est_partial_load(const hr_est_model *m, const hr_est_offload_rules *r, const hr_est_cast *c, double mem,
                         double usable, double *loaded, double *buffer);

/* Parameters the model's file carries that ComfyUI does not build (a text encoder's language-
 * model head, stored in 16 bits); 0 for most files. */
double hr_est_unbuilt_params(const hr_est_model *m);

/* A ComfyUI version as one number, major*10000 + minor*100 + patch, to compare. */
#define HR_EST_VER(a, b, c) ((a)*10000 + (b)*100 + (c))

/* estimate_machine.c: the machine's ComfyUI version as HR_EST_VER (the newest read when not
 * known), and the VRAM ComfyUI keeps free (EXTRA_RESERVED_VRAM, --reserve-vram). */
int hr_est_version_num(const hr_est_machine *m);
double hr_est_reserve_bytes(const hr_est_machine *m, const hr_comfy_args *a);

/* estimate_sizes.c: the parameters ComfyUI builds of a model (the header's count, else the
 * file's bytes over its dtype). */
double hr_est_model_params(const hr_est_model *mod);

#endif
