/* headroom — the simulator's state (internal to core/estimate): one ComfyUI process as the
 * estimate runs it, the models in it, and the parameters the range is unsure of. The parts
 * that move it: the regime and its memory view (estimate_regime.c), the model manager's loads
 * and evictions (estimate_loads.c), the steps (estimate_steps.c), the verdicts drawn from it
 * (estimate_verdicts.c). Every quantity is a double of bytes. The readers below are static
 * inline: they run inside the loads' loops, many times a step. */
#ifndef HR_ESTIMATE_SIM_H
#define HR_ESTIMATE_SIM_H

#include "core/estimate/estimate_internal.h"

#include <stdbool.h>

/* The parameters the model is unsure of: one set per end of the range. */
typedef struct hr_est_params {
    double baseline_ram;     /* Python + torch + CUDA libraries, private */
    double win_commit_extra; /* Windows: commit the DLLs and the CUDA runtime charge beyond RSS */
    double cuda_ctx;         /* VRAM the CUDA context takes before any tensor */
    double act_scale;        /* real activations against ComfyUI's estimate */
    double lora_scale;       /* LoRA coverage against the architecture's typical one */
    double buffer_frac;      /* offload cast buffer, share of the model */
    bool wddm_commit;        /* Windows: VRAM in use is charged to commit too */
    bool cow_view_commit;    /* Windows, legacy: a safetensors file's copy-on-write view is charged */
    bool ambiguous_on;       /* a default that changed between two releases, at the version
                               * string both sides carry: taken as on */
} hr_est_params;

/* ComfyUI's VRAMState (comfy/model_management.py). */
typedef enum hr_est_vram_state {
    HR_VS_DISABLED,
    HR_VS_NO_VRAM,
    HR_VS_LOW_VRAM,
    HR_VS_NORMAL_VRAM,
    HR_VS_HIGH_VRAM,
    HR_VS_SHARED
} hr_est_vram_state;

/* One model in the process. */
typedef struct hr_est_msim {
    bool alive;
    bool loaded;     /* in ComfyUI's current_loaded_models */
    double mem;      /* in-memory bytes (dtype rules) */
    double resident; /* in VRAM */
    double pinned;
    double lora_cov; /* share of its weights patched by LoRAs (legacy backups) */
    int last_use;
    int first_use;
    bool touched;  /* its file pages were read */
    bool cpu_only; /* runs on the CPU (TE with --lowvram in legacy, device=cpu) */
} hr_est_msim;

/* The process, through one run of the workflow. */
typedef struct hr_est_sim {
    const hr_est_input *in;
    const hr_est_machine *m;
    const hr_comfy_args *a;
    hr_est_params p;
    hr_estimate *out; /* NULL for a range run: only the peaks are kept */
    hr_est_regime regime;
    hr_est_vram_state vs;
    double reserve; /* EXTRA_RESERVED_VRAM */
    double ratio;   /* MIN_WEIGHT_MEMORY_RATIO */
    double pin_cap; /* MAX_PINNED_MEMORY (0: none) */
    double vram_total;
    double vram_other;
    int cache;                    /* effective hr_comfy_cache */
    double lv_floor;              /* the least lowvram budget: 64 MiB before 0.3.25, 128 MiB, none from 0.3.66 */
    bool async_buffer;            /* 0.3.76+: offload cast buffer reserved */
    int version;                  /* major*10000 + minor*100 + patch */
    hr_est_offload_rules offload; /* how load() counts an offloaded module's cast (version, date) */
    hr_est_msim ms[HR_EST_MAX_MODELS];
    double outputs;               /* cached LATENT / IMAGE tensors in RAM */
    double outputs_vram;          /* --gpu-only: they sit in VRAM */
    double transient_ram;         /* this step only */
    double transient_commit;      /* this step only: commit charged without RAM behind it */
    double act_vram;              /* this step only */
    double buffer_vram;           /* this step only */
    double inst_ram, inst_commit; /* this step only: the most at an instant inside it */
    bool nested_legacy;           /* a GGUF model loading by the legacy rules inside DynamicVRAM */
    double peak_vram, peak_ram, peak_commit, peak_cache, peak_pinned;
    int peak_vram_op, peak_ram_op, peak_commit_op;
    /* verdict facts */
    double oom_need; /* the most VRAM some step could not do without */
    int oom_op;
    double tiled_need;
    int tiled_op;
    double tiled_bytes;   /* the tiled path's working memory */
    bool sysmem_fallback; /* Windows, NVIDIA 536+: VRAM overflow goes to shared system memory */
    double spill_need;    /* the most VRAM spilled so */
    int spill_op;
    int step_note_op;
} hr_est_sim;

/* The weights in VRAM, of every model alive. */
static inline double hr_est_sum_resident(const hr_est_sim *s)
{
    double v = 0;
    for (int i = 0; i < s->in->model_count; i++)
        if (s->ms[i].alive)
            v += s->ms[i].resident;
    return v;
}

static inline double hr_est_vram_free(const hr_est_sim *s)
{
    return s->vram_total - s->p.cuda_ctx - s->vram_other - hr_est_sum_resident(s) - s->outputs_vram;
}

/* Model i's file pages were read: the page cache holds them. */
static inline void hr_est_touch(hr_est_sim *s, int i)
{
    s->ms[i].touched = true;
}

#endif
