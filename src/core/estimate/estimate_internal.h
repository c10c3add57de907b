/* headroom — estimate's internal pieces, shared by its files only. */
#ifndef HR_ESTIMATE_INTERNAL_H
#define HR_ESTIMATE_INTERNAL_H

#include "core/estimate/estimate.h"

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

/* The VRAM ComfyUI reserves to cast a partially loaded model's offloaded modules (0.3.76+),
 * from the model's module sizes; < 0 when they are not known. */
double hr_est_offload_buffer(const hr_est_model *m, int version, const hr_est_cast *c);

/* Parameters the model's file carries that ComfyUI does not build (a text encoder's language-
 * model head, stored in 16 bits); 0 for most files. */
double hr_est_unbuilt_params(const hr_est_model *m);

#endif
