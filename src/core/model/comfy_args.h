/* headroom — ComfyUI launch flags that change where memory goes.
 *
 * Users paste their launcher's command line ("--lowvram --reserve-vram 1.5 --listen"); the
 * rules engine only needs the few flags that move weights between VRAM and RAM (seed S1.2c,
 * S4.2: low-VRAM switches make a run lean harder on RAM and the paging file). Every other
 * token is counted and ignored, so a full launcher line can be pasted as it is. */
#ifndef HR_COMFY_ARGS_H
#define HR_COMFY_ARGS_H

#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_COMFY_ARGS_MAX_TEXT 4096 /* longer input is refused (HR_ETOOBIG) */

typedef enum hr_comfy_cache {
    HR_CACHE_DEFAULT = 0, /* classic before 0.23, RAM-pressure from 0.23 */
    HR_CACHE_CLASSIC,
    HR_CACHE_LRU,
    HR_CACHE_NONE,
    HR_CACHE_RAM
} hr_comfy_cache;

typedef struct hr_comfy_args {
    bool lowvram;                /* --lowvram */
    bool novram;                 /* --novram: every weight streamed from RAM */
    bool highvram;               /* --highvram: models stay in VRAM */
    bool gpu_only;               /* --gpu-only: everything in VRAM */
    bool cpu;                    /* --cpu: everything in RAM, fp32 */
    bool disable_smart_memory;   /* --disable-smart-memory: models unloaded to RAM after each prompt */
    uint64_t reserve_vram_bytes; /* --reserve-vram GB in bytes; 0 when not given */
    bool reserve_vram_given;
    /* Flags the workflow estimate reads (core/estimate, docs/memory-model.md). */
    bool disable_pinned_memory; /* --disable-pinned-memory */
    bool disable_dynamic_vram;  /* --disable-dynamic-vram */
    bool enable_dynamic_vram;   /* --enable-dynamic-vram, or --fast dynamic_vram (0.12-0.15) */
    bool disable_mmap;          /* --disable-mmap: safetensors copied to private RAM */
    bool high_ram;              /* --high-ram */
    bool cpu_vae;               /* --cpu-vae */
    bool fp16_intermediates;    /* --fp16-intermediates */
    bool fast_disk;             /* --fast-disk */
    /* Attention: --use-pytorch-cross-attention, or --use-split-cross-attention /
     * --use-quad-cross-attention, which keep ComfyUI off PyTorch attention and so on the larger
     * memory_required() (comfy/model_base.py) */
    bool pytorch_attention;
    bool split_attention;
    bool fast_pinned_memory;      /* --fast pinned_memory, or --fast with no list (0.3.68) */
    hr_comfy_cache cache;         /* --cache-classic / --cache-lru / --cache-none / --cache-ram */
    int unet_dtype_bytes;         /* --fp8_e4m3fn-unet 1, --fp16-unet 2, --fp32-unet 4; 0 = not given */
    int te_dtype_bytes;           /* --fp8_e4m3fn-text-enc ... */
    int vae_dtype_bytes;          /* --fp16-vae / --bf16-vae 2, --fp32-vae 4 */
    uint64_t vram_headroom_bytes; /* --vram-headroom GB */
    bool vram_headroom_given;
    /* --async-offload [N] sets NUM_STREAMS (2 when N is left out), --disable-async-offload 0;
     * the offload cast buffer counts the streams (0.3.76+). */
    bool async_offload_given;
    int async_offload_streams;
    bool disable_async_offload;
    int flags_seen;  /* tokens starting with "--" */
    int flags_known; /* of those, the ones above */
} hr_comfy_args;

/* Parse n bytes of a launcher command line (no NUL needed). Tokens are split on ASCII
 * white space; single and double quotes group. "--flag=value" and "--flag value" both work.
 * Fails with HR_EPARSE naming the flag when --reserve-vram has no number or a bad one, or
 * the quotes do not close; HR_ETOOBIG past HR_COMFY_ARGS_MAX_TEXT. */
int hr_comfy_args_parse(const char *text, size_t n, hr_comfy_args *out, hr_error *err);

/* The run keeps weights in RAM that would otherwise sit in VRAM (S4.2, S1.2c). */
bool hr_comfy_args_lean_on_ram(const hr_comfy_args *a);

/* "--lowvram --disable-smart-memory": the flags that matter, in a fixed order; "" if none. */
void hr_comfy_args_describe(const hr_comfy_args *a, char *out, size_t n);

#endif
