/* headroom — estimate: simulate a ComfyUI workflow through VRAM, RAM and commit (S1.1, S4.1).
 *
 * The input is the workflow reduced to what moves memory: the models it loads (kind,
 * architecture, size and dtype) and the operations in execution order (load, text encode,
 * sample, VAE decode/encode, upscale, LoRA), each with the geometry it works on. The machine
 * (RAM, VRAM, OS, GPU vendor, commit limit) and ComfyUI's launch flags complete it. The
 * simulation follows ComfyUI's own memory manager (docs/memory-model.md, rule X.comfymem):
 * the two regimes (legacy load-to-RAM-then-move, DynamicVRAM memory-mapped weights), the VRAM
 * budget and partial loading, eviction between models, the dtype rules, activation memory
 * per architecture, pinned memory, and Windows' commit charge for GPU allocations.
 *
 * Pure: no I/O. The same input gives the same estimate on any OS. */
#ifndef HR_ESTIMATE_H
#define HR_ESTIMATE_H

#include "core/base/error.h"
#include "core/base/i18n.h"
#include "core/base/msg.h"
#include "core/base/render.h"
#include "core/model/comfy_args.h"
#include "core/model/run_need.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_EST_MAX_MODELS     64
#define HR_EST_MAX_OPS        256
#define HR_EST_MAX_LOADS      160
#define HR_EST_MAX_VERDICTS   12
#define HR_EST_MAX_NOTES      12
#define HR_EST_NAME_MAX       128
#define HR_EST_ID_MAX         24
#define HR_EST_TYPE_MAX       64
#define HR_EST_TEXT_MAX       320 /* a note, verdict or fix as shown: cut to this many bytes */
#define HR_EST_MAX_STEP_NOTES HR_EST_MAX_OPS

typedef enum hr_est_kind {
    HR_EST_DIFFUSION = 0, /* UNet / DiT */
    HR_EST_TEXT_ENCODER,
    HR_EST_VAE,
    HR_EST_CLIP_VISION,
    HR_EST_CONTROLNET,
    HR_EST_UPSCALER,
    HR_EST_LORA
} hr_est_kind;

/* Architectures whose activation memory and latent shape differ (memory_usage_factor). */
typedef enum hr_est_arch {
    HR_ARCH_UNKNOWN = 0,
    HR_ARCH_SD15,
    HR_ARCH_SD2,
    HR_ARCH_SDXL,
    HR_ARCH_SD3,
    HR_ARCH_FLUX,
    HR_ARCH_FLUX2,
    HR_ARCH_CHROMA,
    HR_ARCH_QWEN_IMAGE,
    HR_ARCH_HIDREAM,
    HR_ARCH_LUMINA2,
    HR_ARCH_WAN_1_3B,
    HR_ARCH_WAN_14B,
    HR_ARCH_WAN22_5B,
    HR_ARCH_HUNYUAN_VIDEO,
    HR_ARCH_LTXV_2B,
    HR_ARCH_LTXV_13B,
    HR_ARCH_SVD,
    HR_ARCH_ZIMAGE, /* ComfyUI's ZImage(Lumina2): Lumina 2's shapes, its own memory_usage_factor */
    HR_ARCH_COUNT
} hr_est_arch;

typedef enum hr_est_vae_kind {
    HR_VAE_KL = 0, /* AutoencoderKL: SD1.5, SDXL, SD3, FLUX.1 (2-D) */
    HR_VAE_FLUX2,
    HR_VAE_WAN21,   /* Wan 2.1 / 2.2 14B / Qwen-Image */
    HR_VAE_WAN22,   /* Wan 2.2 TI2V-5B */
    HR_VAE_HUNYUAN, /* HunyuanVideo 1.0: causal 3-D KL */
    HR_VAE_LTXV
} hr_est_vae_kind;

typedef enum hr_est_format {
    HR_FMT_SAFETENSORS = 0, /* memory-mapped */
    HR_FMT_PICKLE,          /* .ckpt/.pt/.pth/.bin: read into private RAM */
    HR_FMT_GGUF             /* quantised, memory-mapped, stays quantised */
} hr_est_format;

/* UNETLoader's weight_dtype widget. */
typedef enum hr_est_wdtype { HR_WDT_DEFAULT = 0, HR_WDT_FP8 } hr_est_wdtype;

typedef struct hr_est_model {
    char name[HR_EST_NAME_MAX]; /* file name (or catalog name) */
    hr_est_kind kind;
    hr_est_arch arch;
    uint64_t file_bytes;  /* on disk; 0 = unknown */
    uint64_t params;      /* parameters; 0 = derive from file_bytes / file_dtype_bytes */
    int file_dtype_bytes; /* dominant stored dtype: 4, 2, 1 (fp8); 0 = quantised (GGUF) */
    bool fp8_scaled;      /* per-layer quantisation config: stored dtypes kept */
    hr_est_wdtype weight_dtype;
    hr_est_format format;
    bool from_catalog;    /* sizes are catalog values, not read from the file */
    bool cpu_device;      /* CLIPLoader device=cpu */
    double scale;         /* upscalers: 4.0 for a 4x model */
    double lora_coverage; /* LoRA: share of the target's weights it patches (0 = default) */
    bool checkpoint;      /* a part of a checkpoint file (CheckpointLoaderSimple): its
                                      * diffusion model may be built directly in VRAM */
} hr_est_model;

typedef enum hr_est_op_kind {
    HR_OP_LOAD = 0,      /* a loader node: models[] are created */
    HR_OP_ENCODE_TEXT,   /* models[0]: the text encoder */
    HR_OP_ENCODE_VISION, /* models[0]: CLIP vision */
    HR_OP_SAMPLE,        /* models[0]: diffusion model, models[1..]: ControlNets */
    HR_OP_VAE_DECODE,    /* models[0]: the VAE */
    HR_OP_VAE_ENCODE,
    HR_OP_UPSCALE_MODEL, /* models[0]: the upscaler */
    HR_OP_IMAGE_SCALE,   /* plain resize: a new IMAGE in RAM */
    HR_OP_LORA,          /* models[0]: the LoRA, models[1..]: the patched models */
    HR_OP_OTHER          /* no memory of its own (save, preview, conditioning ...) */
} hr_est_op_kind;

/* What an operation works on, in pixels (frames = 1 for images). */
typedef struct hr_est_geom {
    uint32_t width, height, frames, batch;
} hr_est_geom;

typedef struct hr_est_op {
    char node_id[HR_EST_ID_MAX];
    char class_type[HR_EST_TYPE_MAX];
    hr_est_op_kind kind;
    int models[4];
    int model_count;
    hr_est_geom geom;     /* SAMPLE/VAE: the latent's pixel size; UPSCALE/IMAGE_SCALE: the input image */
    hr_est_arch arch;     /* SAMPLE/VAE: the latent's architecture when no model says it */
    bool cfg;             /* SAMPLE: cond and uncond run together (cfg != 1) */
    bool tiled;           /* VAE: VAEDecodeTiled / VAEEncodeTiled */
    uint32_t tile_px;     /* tiled: tile size in pixels (512 by default) */
    uint32_t tile_frames; /* tiled: temporal size in frames (64 by default) */
    double scale;         /* UPSCALE_MODEL (0 = the model's), IMAGE_SCALE */
} hr_est_op;

typedef struct hr_est_input {
    int model_count;
    hr_est_model model[HR_EST_MAX_MODELS];
    int op_count;
    hr_est_op op[HR_EST_MAX_OPS];
} hr_est_input;

typedef enum hr_est_vendor { HR_GPU_NVIDIA = 0, HR_GPU_AMD, HR_GPU_INTEL, HR_GPU_APPLE, HR_GPU_NONE } hr_est_vendor;

/* A ComfyUI git checkout's commit time (--comfyui-date): the date as git shows it, in the
 * committer's own time zone (`git log -1 --format=%cs`, ComfyUI-Manager's "Released on"), and,
 * when given with its time and UTC offset (`--format=%ci` or `%cI`), the instant. */
typedef struct hr_est_commit {
    int date;      /* YYYYMMDD; 0: none (a release) */
    bool timed;    /* the time and its UTC offset were given */
    int64_t utc;   /* timed: seconds since 1970-01-01 00:00 UTC */
    char text[32]; /* "2025-12-03", or "2025-12-03T23:28:44-05:00" */
} hr_est_commit;

/* Parse "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS +HHMM" (git's %ci) or "YYYY-MM-DDTHH:MM:SS+HH:MM" /
 * "...Z" (%cI): 0, or -1 when it is not one of them or not a real date and time. */
int hr_est_commit_parse(const char *s, hr_est_commit *out);

typedef struct hr_est_machine {
    hr_os os;
    bool macos; /* Apple silicon: unified memory (hr_os has no macOS) */
    bool wsl;
    bool integrated_only; /* the only GPU read is integrated: its VRAM is RAM it shares */
    hr_est_vendor vendor;
    uint64_t ram_bytes;
    uint64_t vram_bytes;          /* dedicated; 0 with no GPU */
    uint64_t vram_other_bytes;    /* VRAM other programs hold; HR_UNKNOWN = a default per OS */
    bool vram_other_read;         /* vram_other_bytes is the card's use read now (no --vram-used) */
    uint64_t vram_python_bytes;   /* read: what python processes (maybe ComfyUI) held, taken out
                                      * of the card's use; HR_UNKNOWN when none ran */
    uint64_t commit_limit_bytes;  /* HR_UNKNOWN when not known */
    bool commit_enforced;         /* Windows, Linux overcommit mode 2 */
    uint64_t swap_bytes;          /* disk paging file / swap; HR_UNKNOWN when not known */
    uint64_t others_commit_bytes; /* what other programs commit now (core/model/run_need.h);
                                      * HR_UNKNOWN: the what-if allowance */
    hr_tri fp8_compute;           /* GPU computes in fp8 (Ada/Hopper/Blackwell, RDNA4) */
    int nvidia_driver;            /* NVIDIA driver version x 100 (56094 for 560.94), 0 = not known */
    char gpu_name[64];            /* the card's name as the driver gives it ("" = not known): which
                                      * 16-bit types it computes fast (the VAE's dtype) */
    int version[3];               /* ComfyUI version; version_known false: the value is the newest's,
                                      * the low–high range covers every memory manager */
    bool version_known;
    hr_est_commit comfyui_commit; /* a git checkout between releases: its commit's date (and
                                      * time); date 0: the release itself. The changes master
                                      * made before the next release that the estimate models
                                      * are keyed by it */
    /* Defaults standing in for what was neither read nor given: said as assumed, never as a
     * fact about the machine. */
    bool ram_assumed, vram_assumed, vendor_assumed;
} hr_est_machine;

typedef enum hr_est_regime { HR_REGIME_LEGACY = 0, HR_REGIME_DYNAMIC, HR_REGIME_CPU, HR_REGIME_UNIFIED } hr_est_regime;

/* A quantity the model is unsure of: the estimate and its low–high range. */
typedef struct hr_est_range {
    uint64_t value, low, high;
    char node_id[HR_EST_ID_MAX]; /* the step that causes the peak */
    char class_type[HR_EST_TYPE_MAX];
} hr_est_range;

typedef struct hr_est_step {
    char node_id[HR_EST_ID_MAX];
    char class_type[HR_EST_TYPE_MAX];
    hr_est_op_kind kind;
    uint64_t vram_bytes;       /* the step's peak */
    uint64_t ram_bytes;        /* private (anonymous) RAM of the process */
    uint64_t pinned_bytes;     /* of which pinned (cannot be paged out) */
    uint64_t page_cache_bytes; /* file-backed model pages: reclaimable, not commit */
    uint64_t commit_bytes;
    /* its notes are in hr_estimate's step_note (hr_est_step_note_text) */
} hr_est_step;

/* What a step does that its figures do not say ("decodes 2 of 4 at a time"), kept as data and
 * said in the language it is shown in. */
typedef struct hr_est_step_note {
    int step;
    hr_msg msg;
} hr_est_step_note;

/* One load_models_gpu of a model: what ComfyUI's "loaded partially/completely" or
 * "prepared for dynamic VRAM loading ... Staged" line says. */
typedef struct hr_est_load {
    char model[HR_EST_NAME_MAX];
    char node_id[HR_EST_ID_MAX];
    bool dynamic;
    bool partial;
    uint64_t usable_vram_bytes;
    uint64_t loaded_bytes;
    uint64_t offloaded_bytes;
    uint64_t buffer_bytes;
    uint64_t staged_bytes; /* DynamicVRAM: bytes staged; 0 in the legacy regime */
} hr_est_load;

typedef enum hr_est_verdict_kind {
    HR_EV_FITS = 0,
    HR_EV_OFFLOADS,
    HR_EV_TILED_FALLBACK,
    HR_EV_HEAVY_PAGING,
    HR_EV_PINNED,
    HR_EV_GPU_OOM,
    HR_EV_COMMIT_EXCEEDED,
    HR_EV_COMMIT_TIGHT,   /* the one rule's AT RISK: under what the limit must back */
    HR_EV_COMMIT_UNKNOWN, /* cannot tell: the limit is not known; bytes = the limit needed */
    HR_EV_SYSMEM_FALLBACK /* Windows, NVIDIA from driver 536: VRAM overflow spilled to system memory */
} hr_est_verdict_kind;

typedef struct hr_est_verdict {
    hr_est_verdict_kind kind;
    uint64_t bytes;
    char node_id[HR_EST_ID_MAX];
    hr_msg text; /* what happens, said where it is shown (hr_est_msg_text) */
    hr_msg fix;  /* not set: no fix */
} hr_est_verdict;

typedef struct hr_estimate {
    hr_est_regime regime;
    const char *vram_state; /* "NORMAL_VRAM", "LOW_VRAM", ... */
    bool catalog_used;
    hr_est_machine machine;
    uint64_t reserve_vram_bytes; /* EXTRA_RESERVED_VRAM */
    uint64_t pin_cap_bytes;      /* MAX_PINNED_MEMORY; 0 = no pinning */
    hr_est_range vram, ram, commit, page_cache;
    uint64_t pinned_peak_bytes;
    int step_count;
    hr_est_step step[HR_EST_MAX_OPS];
    int load_count;
    hr_est_load load[HR_EST_MAX_LOADS];
    int verdict_count;
    hr_est_verdict verdict[HR_EST_MAX_VERDICTS];
    int step_note_count;
    hr_est_step_note step_note[HR_EST_MAX_STEP_NOTES];
    int note_count;
    hr_msg notes[HR_EST_MAX_NOTES];
    char workflow[HR_EST_NAME_MAX];  /* for the report's title; set by the caller */
    char prompt_id[HR_EST_NAME_MAX]; /* the /history prompt it is of ("" = none); set by the caller */
    hr_est_arch arch;                /* the diffusion model the workflow samples with (the largest) */
    uint32_t frames;                 /* the most frames a step works on (1: images) */
    char high_version[16];           /* version unknown: the ComfyUI version whose manager gives the
                                      * high end of commit ("" = the newest, or the version is known) */
} hr_estimate;

/* Fill m with a what-if machine's defaults (NVIDIA, Linux, unknown commit limit), RAM, VRAM and
 * vendor marked assumed. */
void hr_est_machine_init(hr_est_machine *m);
/* The VRAM other programs hold when ComfyUI loads: the one given (--vram-used), else the
 * default for the OS (docs/memory-model.md: 0.5 GiB on Windows and in WSL2, the desktop and its
 * programs; 0.1 GiB elsewhere); never more than the card (0 with none). In bytes. */
double hr_est_vram_other(const hr_est_machine *m);
/* From a snapshot: RAM, VRAM of the largest dedicated GPU and its vendor, commit limit and
 * whether it is enforced, disk swap, WSL. Fields the snapshot does not know stay as they are. */
void hr_est_machine_from_snapshot(hr_est_machine *m, const hr_snapshot *s);

/* Run the simulation. Fails with HR_EINVAL on an input that refers to a model it does not
 * have. out is large (keep it off small stacks). */
int hr_estimate_run(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a, hr_estimate *out,
                    hr_error *err);

/* The one sizing rule's parts for the estimated run (core/model/run_need.h): its commit range
 * and what other programs commit, measured or, on a what-if machine, the stated allowance. */
void hr_est_need(const hr_estimate *e, hr_run_need *n);

/* The in-memory size of a model under the machine and flags (dtype rules, §2.7). */
uint64_t hr_est_model_bytes(const hr_est_model *mod, const hr_est_machine *m, const hr_comfy_args *a);

/* The bytes per weight ComfyUI holds a VAE of this architecture in (vae_dtype()): the flag
 * first, fp32 on the CPU, else the first of the VAE's working dtypes the card computes fast
 * (bf16 from NVIDIA Ampere and AMD RDNA3; fp16 where the VAE lists it and the card has fast
 * fp16), else fp32. A card whose name is not known is taken as fast. */
int hr_est_vae_dtype_bytes(hr_est_arch vae_arch, const hr_est_machine *m, const hr_comfy_args *a);

/* The most a prompt a server says it ran can need (X.serverneed): the models it names,
 * each whole at its in-memory size (hr_est_model_bytes), plus the working memory one run
 * can hold on the machine: its RAM and VRAM. A server's prompt is estimated like any
 * workflow; its figure is then held to this, so that a server that lies (a latent of
 * 16384 x 16384 x 4096, a model that is not there) cannot size a swap file or a verdict.
 * HR_UNKNOWN when the machine's RAM is not known. */
uint64_t hr_est_server_bound(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a);

/* The worst verdict: 0 fits (offloading included), 1 at risk (heavy paging, pinned, tiled
 * fallback), 2 will fail (GPU out of memory, commit limit exceeded), 3 cannot tell (the
 * commit limit is not known; a will-fail still wins). */
int hr_estimate_severity(const hr_estimate *e);

/* The text screen and the JSON (schema headroom.estimate/1), and the HTML page. */
void hr_estimate_render(const hr_estimate *e, hr_render *r);
/* One self-contained page (base/html.h): verdict, peaks against the machine, memory after
 * each step as an SVG chart, the verdicts with their fixes, the model loads, the notes. */
void hr_estimate_html(const hr_estimate *e, hr_buf *out);

/* What the estimate says, in a language: text/HTML in the user's (hr_lang_get()), JSON in
 * English. Each fills out (NUL-terminated, at most HR_EST_TEXT_MAX bytes as the report
 * shows it, cut on a whole character) and returns out. A step's notes are joined by "; ". */
const char *hr_est_msg_text(const hr_msg *m, hr_lang lang, char *out, size_t cap);
const char *hr_est_step_note_text(const hr_estimate *e, int step, hr_lang lang, char *out, size_t cap);

/* Names. */
const char *hr_est_arch_name(hr_est_arch a);
const char *hr_est_kind_name(hr_est_kind k);
const char *hr_est_regime_name(hr_est_regime r);
const char *hr_est_verdict_name(hr_est_verdict_kind k);
const char *hr_est_vendor_name(hr_est_vendor v);

/* What the machine's figures rest on that was not read: RAM, VRAM or the vendor assumed, and
 * the VRAM other programs hold (given, read or assumed), each a line in the user's language
 * with the flag that gives it. The count written; text and HTML say the same lines. */
#define HR_EST_MAX_BASIS 4
int hr_est_machine_basis(const hr_estimate *e, char lines[HR_EST_MAX_BASIS][HR_EST_TEXT_MAX]);
bool hr_est_vendor_parse(const char *s, hr_est_vendor *out);

/* ---- Catalog of common models (catalog values: sizes as published, not read from files) ---- */

typedef struct hr_est_catalog_entry {
    const char *file; /* the usual file name, matched case-insensitively */
    hr_est_kind kind;
    hr_est_arch arch;
    uint64_t file_bytes;
    uint64_t params; /* 0 = file_bytes / dtype */
    int dtype_bytes; /* 4, 2, 1; 0 = GGUF */
    bool fp8_scaled;
    double scale; /* upscalers */
    /* Checkpoints with several parts: the text encoder's and VAE's sizes (bytes as stored). */
    uint64_t te_bytes;
    int te_dtype_bytes;
    uint64_t vae_bytes;
    bool checkpoint; /* a CheckpointLoader file: diffusion + te_bytes + vae_bytes */
} hr_est_catalog_entry;

/* Look a file name up (base name, case-insensitive, any folder prefix ignored); NULL if not
 * in the catalog. checkpoint: prefer a checkpoint entry (CheckpointLoaderSimple) or a single
 * model (UNETLoader), for names both use (flux1-dev-fp8.safetensors). */
const hr_est_catalog_entry *hr_est_catalog_find(const char *file, bool checkpoint);
/* Every entry, for tests and docs. */
int hr_est_catalog_count(void);
const hr_est_catalog_entry *hr_est_catalog_at(int i);
/* Best guess of an architecture from a file name ("wan2.2_i2v_high_noise_14B" → WAN_14B). */
hr_est_arch hr_est_arch_guess(const char *file);

/* The workflow a named workload stands for (plan/check --workload, "sd15" "sdxl" "flux"
 * "video"): API-format JSON text and, in *label, what it is; NULL for another name. */
const char *hr_est_sample_workflow(const char *workload, const char **label);

/* Building an input. Each returns the new index, or -1 when the input is full. */
int hr_est_add_model(hr_est_input *in, const hr_est_model *m);
int hr_est_add_op(hr_est_input *in, const hr_est_op *op);
/* The models a loader makes from a catalog file: a checkpoint gives its diffusion model, text
 * encoder and VAE (idx[0..2], -1 for a part it lacks); another file one model of `kind`.
 * Returns how many were added, 0 when the file is not in the catalog (or the input is full). */
int hr_est_add_from_catalog(hr_est_input *in, const char *file, hr_est_kind kind, bool checkpoint, int idx[3]);

/* Architecture facts used by the simulation (exposed for tests). */
double hr_est_arch_usage_factor(hr_est_arch a);
/* memory_usage_factor as ComfyUI `version` (major*10000 + minor*100 + patch) sets it. */
double hr_est_arch_usage_factor_at(hr_est_arch a, int version);
/* Sampling memory of one forward pass, ComfyUI's memory_required() (bytes), for a latent of
 * the given pixel geometry; batch_mult 2 for cond+uncond. The newest factors with PyTorch
 * attention; _at for a version, and flash false when ComfyUI runs split or sub-quadratic
 * attention (hr_est_attention_flash). */
uint64_t hr_est_sampling_bytes(hr_est_arch a, const hr_est_geom *g, int batch_mult);
uint64_t hr_est_sampling_bytes_at(hr_est_arch a, const hr_est_geom *g, int batch_mult, int version, bool flash);
/* Whether ComfyUI runs PyTorch (or xformers) attention on this machine, which sets the branch
 * of memory_required(). */
bool hr_est_attention_flash(const hr_est_machine *m, const hr_comfy_args *a);
/* The LATENT tensor ComfyUI keeps in RAM (fp32), the whole batch. */
double hr_est_latent_bytes(hr_est_arch a, const hr_est_geom *g);
/* VAE decode / encode working memory of one sample (memory_used_decode/encode), dtype bytes d;
 * a batch runs as many at a time as free VRAM holds (op_vae). */
uint64_t hr_est_vae_decode_bytes(hr_est_arch a, const hr_est_geom *g, int d, bool amd);
uint64_t hr_est_vae_encode_bytes(hr_est_arch a, const hr_est_geom *g, int d, bool amd);

#endif
