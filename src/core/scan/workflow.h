/* headroom — a ComfyUI workflow, read: what it loads, the latent geometry, the samplers, the
 * VAE decodes, the upscales, and the order the nodes run in (docs/workflow.md).
 *
 * Both formats: the UI ("workflow") format — nodes, links as arrays (schema 0.4) or objects
 * (schema 1), widgets_values as a list (mapped by each node class's widget order) or an
 * object, subgraphs (definitions.subgraphs, instances expanded, their inner nodes named
 * "outer:inner"), muted (mode 2) and bypassed (mode 4) nodes skipped, reroutes passed
 * through; and the API format ({id: {class_type, inputs}}, or a POST /prompt body with it
 * under "prompt", or a GET /queue body: its running prompt).
 *
 * This header is the stable interface `estimate` builds on: fields are added, never renamed.
 * Pure: parsing is over a buffer; resolving file names to paths is comfy_paths.h's, reading
 * the files the CLI's. */
#ifndef HR_SCAN_WORKFLOW_H
#define HR_SCAN_WORKFLOW_H

#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/scan/model_scan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_WORKFLOW_SCHEMA "headroom.workflow/1"
#define HR_WF_MAX_BYTES    ((size_t)64 << 20) /* a workflow file */
#define HR_WF_MAX_NODES    20000
#define HR_WF_MAX_MODELS   128
#define HR_WF_MAX_ITEMS    64 /* latents, samplers, decodes, upscales each */
#define HR_WF_ID_MAX       48

typedef enum hr_wf_format { HR_WF_FORMAT_UI = 1, HR_WF_FORMAT_API = 2 } hr_wf_format;

/* What a loader's file is to the run. */
typedef enum hr_wf_role {
    HR_WF_ROLE_CHECKPOINT = 0, /* UNet/DiT + text encoder + VAE in one file */
    HR_WF_ROLE_DIFFUSION_MODEL,
    HR_WF_ROLE_TEXT_ENCODER,
    HR_WF_ROLE_VAE,
    HR_WF_ROLE_LORA,
    HR_WF_ROLE_CONTROLNET,
    HR_WF_ROLE_UPSCALE_MODEL,
    HR_WF_ROLE_CLIP_VISION,
    HR_WF_ROLE_STYLE_MODEL,
    HR_WF_ROLE_GLIGEN,
    HR_WF_ROLE_MODEL_PATCH,
    HR_WF_ROLE_CONFIG /* CheckpointLoader's .yaml: not a model */
} hr_wf_role;

const char *hr_wf_role_name(hr_wf_role r); /* "checkpoint", "diffusion_model", ... */

#define HR_WF_PROBLEM_MAX 256 /* a model's problem as shown, at most */

/* One file a loader node names. */
typedef struct hr_wf_model {
    char node_id[HR_WF_ID_MAX]; /* "4"; inside a subgraph instance "12:5" */
    char class_type[64];        /* "UNETLoader" */
    char input[24];             /* the widget naming it: "ckpt_name", "clip_name2" */
    hr_wf_role role;
    char folder[24];       /* ComfyUI folder key: "checkpoints", "diffusion_models",
                                    "text_encoders", "vae", "loras", "controlnet",
                                    "upscale_models", "clip_vision", "style_models", ... */
    char name[512];        /* as the workflow says ("SDXL\\juggernaut.safetensors") */
    bool gguf;             /* a GGUF loader (ComfyUI-GGUF) */
    char weight_dtype[24]; /* UNETLoader: "default", "fp8_e4m3fn", ...; "" if none */
    char clip_type[32];    /* CLIPLoader & co: "flux", "sdxl", "wan", ...; "" if none */
    char device[16];       /* CLIP loaders: "default" or "cpu"; "" if none */
    int clip_count;        /* text encoder loaders: 1..4 files in the one loader */
    double strength_model; /* LoRA; 1 when not a LoRA */
    double strength_clip;  /* LoraLoader; 0 for LoraLoaderModelOnly */
    /* Filled by resolution (the CLI), not by the parser: */
    bool resolved;       /* found on disk */
    bool not_looked_for; /* no models folder was given or found: not missing, not looked for */
    char path[1024];     /* the resolved path; "" when missing */
    hr_model_info info;  /* its header, when read */
    bool info_read;
    hr_msg problem; /* why not resolved/read ("not found in models/loras, ..."); unset: none */
} hr_wf_model;

/* A latent made by a node: image (frames = 1) or video. */
typedef struct hr_wf_latent {
    char node_id[HR_WF_ID_MAX];
    char class_type[64];
    uint64_t width, height, batch;
    uint64_t frames; /* video "length"/"video_frames"; 1 for images */
    bool video;
} hr_wf_latent;

typedef struct hr_wf_sampler {
    char node_id[HR_WF_ID_MAX];
    char class_type[64]; /* KSampler, KSamplerAdvanced, SamplerCustom(Advanced), ... */
    uint64_t steps;      /* 0 when not on this node (BasicScheduler carries them) */
    double cfg;          /* 0 when not on this node */
    char sampler_name[32];
    char scheduler[32];
    double denoise; /* 1 when not given */
} hr_wf_sampler;

typedef struct hr_wf_decode {
    char node_id[HR_WF_ID_MAX];
    char class_type[64]; /* VAEDecode, VAEDecodeTiled, VAEEncode, VAEEncodeTiled, ... */
    bool tiled;
    bool encode; /* an encode (image → latent) rather than a decode */
    uint64_t tile_size, overlap, temporal_size, temporal_overlap; /* tiled only */
} hr_wf_decode;

typedef struct hr_wf_upscale {
    char node_id[HR_WF_ID_MAX];
    char class_type[64];    /* ImageUpscaleWithModel, ImageScaleBy, LatentUpscaleBy, ... */
    bool with_model;        /* ImageUpscaleWithModel: the factor is the model's */
    bool latent;            /* in latent space */
    double factor;          /* scale_by; 0 when given as a size or by the model */
    uint64_t width, height; /* ImageScale / LatentUpscale; 0 otherwise */
} hr_wf_upscale;

/* One node that runs, in execution order. */
typedef struct hr_wf_node {
    char id[HR_WF_ID_MAX];
    char class_type[64];
} hr_wf_node;

typedef struct hr_workflow {
    hr_wf_format format;
    hr_wf_node *order; /* every node that runs, dependencies first */
    size_t n_order;
    size_t n_nodes;                         /* nodes in the file (subgraph inner nodes included) */
    size_t n_muted, n_bypassed, n_frontend; /* skipped: mode 2, mode 4, Reroute/Note/... */
    size_t n_subgraphs;                     /* subgraph instances expanded */
    hr_wf_model models[HR_WF_MAX_MODELS];
    size_t n_models;
    hr_wf_latent latents[HR_WF_MAX_ITEMS];
    size_t n_latents;
    hr_wf_sampler samplers[HR_WF_MAX_ITEMS];
    size_t n_samplers;
    hr_wf_decode decodes[HR_WF_MAX_ITEMS];
    size_t n_decodes;
    hr_wf_upscale upscales[HR_WF_MAX_ITEMS];
    size_t n_upscales;
} hr_workflow;

/* Parse buf[0..len) (a .json workflow). On success wf owns its memory (hr_workflow_free).
 * Errors name the file (name) and what is wrong: not JSON, neither format, a node without
 * a class, a link to a node that does not exist, a cycle ("a cycle through nodes 5, 7"). */
int hr_workflow_parse(const char *name, const char *buf, size_t len, hr_workflow *wf, hr_error *err);

/* The nth prompt (0 = the first listed) of ComfyUI's GET /history body, {prompt_id:
 * {"prompt": [number, prompt_id, prompt, extra_data, outputs], "outputs", "status"}}, read
 * as an API workflow; its prompt id into prompt_id (id_n bytes, may be NULL). HR_ENOENT
 * when there are not that many prompts, or the body is not a JSON object at all (not
 * ComfyUI answering); other errors (a prompt that is not a graph) as hr_workflow_parse. */
int hr_workflow_parse_history(const char *name, const char *buf, size_t len, size_t nth, char *prompt_id, size_t id_n,
                              hr_workflow *wf, hr_error *err);
/* Each prompt of a GET /history body, the body parsed once: fn gets the index, the prompt
 * id (one line, hr_text_one_line) and either the workflow (fn may take its contents; what
 * is left is freed after fn returns) or the
 * error that prompt gave (wf NULL). At most max prompts; a non-zero return from fn stops
 * and is returned. HR_ENOENT when the body is not a JSON object (not ComfyUI answering). */
typedef int (*hr_wf_history_fn)(void *ctx, size_t nth, const char *prompt_id, hr_workflow *wf, const hr_error *err);
int hr_workflow_history_each(const char *name, const char *buf, size_t len, size_t max, hr_wf_history_fn fn, void *ctx,
                             hr_error *err);
void hr_workflow_free(hr_workflow *wf);

/* A model file found but not read: the reader's message when it left one, else err's text
 * as it is. */
void hr_wf_model_failed(hr_wf_model *m, int code, const hr_error *err);
/* Its problem in lang ("" for none), cut as shown. */
void hr_wf_problem_text(const hr_wf_model *m, hr_lang lang, char out[HR_WF_PROBLEM_MAX]);

#endif
