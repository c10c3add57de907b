/* headroom — the GPU memory of the watched process tree, from NVML (NVIDIA's management
 * library, loaded at run time: libnvidia-ml.so.1 / nvml.dll; never linked). Used by both
 * OSes' samplers; each OS loads the library (hr_gpu_lib_*, in its sampler).
 *
 * Opened once with the sampler: the library, nvmlInit, the device handles. A sample asks each
 * device for its memory and its running compute and graphics processes, into fixed arrays
 * (no allocation of ours per sample). Absent library, no driver, no device: no GPU figures,
 * silently (the sample's VRAM fields stay unknown). */
#ifndef HR_PLATFORM_GPU_PROCS_H
#define HR_PLATFORM_GPU_PROCS_H

#include "core/watch/watch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hr_gpu_procs hr_gpu_procs;

/* NULL when there is no NVML to ask. */
hr_gpu_procs *hr_gpu_procs_open(void);
/* Fill o->vram_used and o->vram_total (every device together) and, when tree is not empty,
 * o->proc_vram (the tree's pids, hr_wvram_tree over each device's lists). */
void hr_gpu_procs_sample(hr_gpu_procs *g, const int64_t *tree, size_t ntree, hr_wsample *o);
void hr_gpu_procs_close(hr_gpu_procs *g);
/* The devices NVML lists, in its order. */
unsigned hr_gpu_procs_count(const hr_gpu_procs *g);
/* The VRAM the processes pids hold on device dev (compute and graphics lists); HR_W_UNKNOWN
 * when the driver gives no per-process figure (WDDM) or lists more than are held. */
int64_t hr_gpu_procs_pids_vram(hr_gpu_procs *g, unsigned dev, const int64_t *pids, size_t npids);

/* ---- per OS (sampler_linux.c, sampler_win.c) ---- */
typedef void (*hr_gpu_fn)(void);
/* The NVML library, or NULL when it is not installed. */
void *hr_gpu_lib_open(void);
hr_gpu_fn hr_gpu_lib_sym(void *lib, const char *name);
void hr_gpu_lib_close(void *lib);

#endif
