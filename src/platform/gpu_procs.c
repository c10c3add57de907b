/* headroom — the GPU memory of the watched process tree, from NVML (gpu_procs.h). */
#include "platform/gpu_procs.h"
#include "core/base/hot.h"

#include <stdlib.h>
#include <string.h>

/* The NVML ABI we use (nvml.h, stable C ABI; return codes: 0 success, 7 insufficient size). */
typedef struct nvml_memory {
    unsigned long long total, free, used;
} nvml_memory;
typedef struct nvml_proc_v1 { /* nvmlProcessInfo_v1_t, 16 bytes */
    unsigned int pid;
    unsigned long long used;
} nvml_proc_v1;
typedef struct nvml_proc_v2 { /* nvmlProcessInfo_t of the _v2 and _v3 functions, 24 bytes */
    unsigned int pid;
    unsigned long long used;
    unsigned int gpu_instance, compute_instance;
} nvml_proc_v2;
#define NVML_NOT_AVAILABLE (~0ULL) /* usedGpuMemory under WDDM */

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_handle_fn)(unsigned int, void **);
typedef int (*nvml_mem_fn)(void *, nvml_memory *);
typedef int (*nvml_procs_fn)(void *, unsigned int *, void *);

#define GPU_MAX  16
#define PROC_MAX 512

struct hr_gpu_procs {
    void *lib;
    nvml_void_fn shutdown;
    nvml_mem_fn mem;
    nvml_procs_fn lists[2]; /* compute, graphics (either may be missing) */
    size_t entry_size;      /* 24 (_v3/_v2) or 16 (v1) */
    void *dev[GPU_MAX];
    unsigned ndev;
    union { /* one device's list, as the driver writes it */
        nvml_proc_v1 v1[PROC_MAX];
        nvml_proc_v2 v2[PROC_MAX];
    } raw;
    hr_gpu_proc procs[2 * PROC_MAX];
};

/* The newest variant of a process-list function the library has, and its entry size. */
HR_START static nvml_procs_fn procs_fn(void *lib, const char *base, size_t *entry)
{
    static const char *const suffix[] = { "_v3", "_v2", "" };
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        char name[96];
        size_t bl = strlen(base), sl = strlen(suffix[i]);
        if (bl + sl + 1 > sizeof name)
            return NULL;
        memcpy(name, base, bl);
        memcpy(name + bl, suffix[i], sl + 1);
        hr_gpu_fn f = hr_gpu_lib_sym(lib, name);
        if (f) {
            *entry = suffix[i][0] ? sizeof(nvml_proc_v2) : sizeof(nvml_proc_v1);
            return (nvml_procs_fn)f;
        }
    }
    return NULL;
}

HR_START hr_gpu_procs *hr_gpu_procs_open(void)
{
    void *lib = hr_gpu_lib_open();
    if (!lib)
        return NULL;
    nvml_void_fn init = (nvml_void_fn)hr_gpu_lib_sym(lib, "nvmlInit_v2");
    nvml_void_fn shutdown = (nvml_void_fn)hr_gpu_lib_sym(lib, "nvmlShutdown");
    nvml_count_fn count = (nvml_count_fn)hr_gpu_lib_sym(lib, "nvmlDeviceGetCount_v2");
    nvml_handle_fn handle = (nvml_handle_fn)hr_gpu_lib_sym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml_mem_fn mem = (nvml_mem_fn)hr_gpu_lib_sym(lib, "nvmlDeviceGetMemoryInfo");
    if (!init || !shutdown || !count || !handle || !mem || init() != 0) {
        hr_gpu_lib_close(lib);
        return NULL;
    }
    hr_gpu_procs *g = calloc(1, sizeof *g);
    unsigned n = 0;
    if (!g || count(&n) != 0) {
        free(g);
        shutdown();
        hr_gpu_lib_close(lib);
        return NULL;
    }
    g->lib = lib;
    g->shutdown = shutdown;
    g->mem = mem;
    size_t ec = 0, eg = 0;
    g->lists[0] = procs_fn(lib, "nvmlDeviceGetComputeRunningProcesses", &ec);
    g->lists[1] = procs_fn(lib, "nvmlDeviceGetGraphicsRunningProcesses", &eg);
    if (g->lists[0] && g->lists[1] && ec != eg)
        g->lists[1] = NULL; /* one layout for both (a library that old has no graphics list) */
    g->entry_size = g->lists[0] ? ec : eg;
    for (unsigned i = 0; i < n && g->ndev < GPU_MAX; i++) {
        void *h = NULL;
        if (handle(i, &h) == 0 && h)
            g->dev[g->ndev++] = h;
    }
    return g;
}

/* One device's processes (compute, then graphics) into g->procs; how many. */
HR_HOT static size_t device_procs(hr_gpu_procs *g, void *dev)
{
    size_t np = 0;
    for (int l = 0; l < 2; l++) {
        if (!g->lists[l])
            continue;
        unsigned cnt = PROC_MAX;
        /* 7 (insufficient size): more processes than we hold; the first PROC_MAX are not
         * given then, so the tree's figure is unknown rather than short */
        if (g->lists[l](dev, &cnt, &g->raw) != 0)
            return (size_t)-1;
        if (cnt > PROC_MAX)
            return (size_t)-1;
        for (unsigned k = 0; k < cnt; k++) {
            unsigned pid;
            unsigned long long used;
            if (g->entry_size == sizeof(nvml_proc_v2)) {
                pid = g->raw.v2[k].pid;
                used = g->raw.v2[k].used;
            } else {
                pid = g->raw.v1[k].pid;
                used = g->raw.v1[k].used;
            }
            g->procs[np].pid = (int64_t)pid;
            g->procs[np].used =
                used == NVML_NOT_AVAILABLE || used > (unsigned long long)INT64_MAX ? HR_W_UNKNOWN : (int64_t)used;
            np++;
        }
    }
    return np;
}

/* What the processes tree hold on one device; HR_W_UNKNOWN when its lists cannot be read. */
HR_HOT static int64_t device_tree_vram(hr_gpu_procs *g, void *dev, const int64_t *tree, size_t ntree)
{
    size_t np = device_procs(g, dev);
    return np == (size_t)-1 ? HR_W_UNKNOWN : hr_wvram_tree(g->procs, np, tree, ntree);
}

HR_HOT void hr_gpu_procs_sample(hr_gpu_procs *g, const int64_t *tree, size_t ntree, hr_wsample *o)
{
    if (!g || g->ndev == 0)
        return;
    int64_t used = 0, total = 0, tree_vram = ntree && (g->lists[0] || g->lists[1]) ? 0 : HR_W_UNKNOWN;
    bool mem_known = true;
    for (unsigned d = 0; d < g->ndev; d++) {
        nvml_memory m;
        if (g->mem(g->dev[d], &m) == 0 && m.total <= (unsigned long long)INT64_MAX / GPU_MAX) {
            used += (int64_t)m.used;
            total += (int64_t)m.total;
        } else {
            mem_known = false;
        }
        if (tree_vram == HR_W_UNKNOWN)
            continue;
        int64_t v = device_tree_vram(g, g->dev[d], tree, ntree);
        tree_vram = v == HR_W_UNKNOWN ? HR_W_UNKNOWN : tree_vram + v;
    }
    if (mem_known) {
        o->vram_used = used;
        o->vram_total = total;
    }
    o->proc_vram = tree_vram;
}

HR_START unsigned hr_gpu_procs_count(const hr_gpu_procs *g)
{
    return g ? g->ndev : 0;
}

HR_START int64_t hr_gpu_procs_pids_vram(hr_gpu_procs *g, unsigned dev, const int64_t *pids, size_t npids)
{
    if (!g || dev >= g->ndev || !(g->lists[0] || g->lists[1]))
        return HR_W_UNKNOWN;
    return device_tree_vram(g, g->dev[dev], pids, npids);
}

HR_START void hr_gpu_procs_close(hr_gpu_procs *g)
{
    if (!g)
        return;
    g->shutdown();
    hr_gpu_lib_close(g->lib);
    free(g);
}
