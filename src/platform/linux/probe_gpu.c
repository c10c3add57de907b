/* GPUs: NVIDIA through NVML loaded at run time, AMD through amdgpu sysfs, Intel integrated
 * GPUs from the DRM class; integrated GPUs take their memory from RAM (S4.3). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "core/model/drm_fdinfo.h"
#include "core/model/procs.h"
#include "lx_read.h"
#include "platform/gpu_procs.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few NVML entry points we use (stable C ABI, nvml.h). */
typedef struct {
    unsigned long long total, free, used;
} hr_nvml_memory;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_handle_fn)(unsigned int, void **);
typedef int (*nvml_name_fn)(void *, char *, unsigned int);
typedef int (*nvml_mem_fn)(void *, hr_nvml_memory *);
typedef int (*nvml_shutdown_fn)(void);

static void *sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    return p;
}

/* Returns true when NVML answered (even with zero GPUs). */
static bool probe_nvml(hr_gpus *g)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        hr_words_set(&g->notes, HR_N("NVML: libnvidia-ml.so.1 not installed (no NVIDIA driver)"));
        return false;
    }
    nvml_init_fn init;
    nvml_count_fn count;
    nvml_handle_fn handle;
    nvml_name_fn name;
    nvml_mem_fn mem;
    nvml_shutdown_fn shutdown;
    /* dlsym returns an object pointer; POSIX guarantees it converts to a function pointer. */
    *(void **)&init = sym(lib, "nvmlInit_v2");
    *(void **)&count = sym(lib, "nvmlDeviceGetCount_v2");
    *(void **)&handle = sym(lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&name = sym(lib, "nvmlDeviceGetName");
    *(void **)&mem = sym(lib, "nvmlDeviceGetMemoryInfo");
    *(void **)&shutdown = sym(lib, "nvmlShutdown");
    if (!init || !count || !handle || !name || !mem || !shutdown) {
        hr_words_set(&g->notes, HR_N("NVML: libnvidia-ml.so.1 lacks the expected functions"));
        dlclose(lib);
        return false;
    }
    int rc = init();
    if (rc != 0) {
        hr_words_set(&g->notes, HR_N("NVML: nvmlInit failed (code %d; driver not loaded?)"), rc);
        dlclose(lib);
        return false;
    }
    unsigned int n = 0;
    if (count(&n) == 0) {
        for (unsigned int i = 0; i < n && g->count < HR_MAX_GPUS; i++) {
            void *h = NULL;
            if (handle(i, &h) != 0)
                continue;
            hr_gpu *gpu = &g->gpu[g->count++];
            memset(gpu, 0, sizeof *gpu);
            char nm[96] = "";
            if (name(h, nm, sizeof nm) != 0)
                snprintf(nm, sizeof nm, "NVIDIA GPU %u", i);
            hr_strlcpy(gpu->name, nm, sizeof gpu->name);
            hr_strlcpy(gpu->vendor, "NVIDIA", sizeof gpu->vendor);
            hr_strlcpy(gpu->source, "NVML", sizeof gpu->source);
            hr_nvml_memory m;
            if (mem(h, &m) == 0) {
                gpu->vram_total_bytes = m.total;
                gpu->vram_used_bytes = m.used;
            } else {
                gpu->vram_total_bytes = gpu->vram_used_bytes = HR_UNKNOWN;
            }
            gpu->shared_total_bytes = gpu->shared_used_bytes = HR_UNKNOWN;
            gpu->python_vram_bytes = HR_UNKNOWN;
            gpu->integrated = HR_TRI_NO;
        }
    }
    shutdown();
    dlclose(lib);
    return true;
}

static int card_index(const char *name)
{
    /* "card0" but not "card0-DP-1" */
    if (strncmp(name, "card", 4) != 0 || !name[4])
        return -1;
    for (const char *p = name + 4; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    return atoi(name + 4);
}

static void probe_drm(const char *sysroot, hr_gpus *g, bool have_nvml, char pci[][16])
{
    char dir[4096];
    hr_lx_path(sysroot, "/sys/class/drm", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return;
    int cards[HR_MAX_GPUS], nc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nc < HR_MAX_GPUS) {
        int k = card_index(e->d_name);
        if (k >= 0)
            cards[nc++] = k;
    }
    closedir(d);
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && cards[j] < cards[j - 1]; j--) {
            int t = cards[j];
            cards[j] = cards[j - 1];
            cards[j - 1] = t;
        }
    for (int i = 0; i < nc && g->count < HR_MAX_GPUS; i++) {
        char p[512], vendor[32] = "", devid[32] = "", real[4096];
        snprintf(p, sizeof p, "/sys/class/drm/card%d/device/vendor", cards[i]);
        if (!hr_lx_read_str(sysroot, p, vendor, sizeof vendor))
            continue;
        snprintf(p, sizeof p, "/sys/class/drm/card%d/device/device", cards[i]);
        hr_lx_read_str(sysroot, p, devid, sizeof devid);
        bool amd = strcmp(vendor, "0x1002") == 0, intel = strcmp(vendor, "0x8086") == 0,
             nvidia = strcmp(vendor, "0x10de") == 0;
        if (nvidia && have_nvml)
            continue; /* NVML already reported it, with better figures */
        hr_gpu *gpu = &g->gpu[g->count];
        memset(gpu, 0, sizeof *gpu);
        gpu->vram_total_bytes = gpu->vram_used_bytes = HR_UNKNOWN;
        gpu->shared_total_bytes = gpu->shared_used_bytes = HR_UNKNOWN;
        gpu->python_vram_bytes = HR_UNKNOWN;
        gpu->integrated = HR_TRI_UNKNOWN;
        const char *vname = amd ? "AMD" : intel ? "Intel" : nvidia ? "NVIDIA" : vendor;
        hr_strlcpy(gpu->vendor, vname, sizeof gpu->vendor);
        char product[96] = "";
        snprintf(p, sizeof p, "/sys/class/drm/card%d/device/product_name", cards[i]);
        if (hr_lx_read_str(sysroot, p, product, sizeof product) && product[0])
            hr_strlcpy(gpu->name, product, sizeof gpu->name);
        else
            snprintf(gpu->name, sizeof gpu->name, "%s GPU %s:%s", vname, vendor + 2, devid[0] ? devid + 2 : "?");
        unsigned long long v;
        if (amd) {
            hr_strlcpy(gpu->source, "amdgpu sysfs", sizeof gpu->source);
            snprintf(p, sizeof p, "/sys/class/drm/card%d/device", cards[i]);
            if (hr_lx_resolve(sysroot, p, real, sizeof real)) {
                const char *slash = strrchr(real, '/');
                hr_strlcpy(pci[g->count], slash ? slash + 1 : real, 16);
            }
            const struct {
                const char *file;
                uint64_t *out;
            } mem[] = { { "mem_info_vram_total", &gpu->vram_total_bytes },
                        { "mem_info_vram_used", &gpu->vram_used_bytes },
                        { "mem_info_gtt_total", &gpu->shared_total_bytes },
                        { "mem_info_gtt_used", &gpu->shared_used_bytes } };
            for (size_t k = 0; k < sizeof mem / sizeof mem[0]; k++) {
                snprintf(p, sizeof p, "/sys/class/drm/card%d/device/%s", cards[i], mem[k].file);
                if (hr_lx_read_u64(sysroot, p, &v))
                    *mem[k].out = v;
            }
            /* APUs get a small BIOS carve-out as "VRAM" and live on system RAM through GTT:
             * a carve-out of 2 GiB or less marks one (a hint; discrete cards have more). */
            if (gpu->vram_total_bytes != HR_UNKNOWN)
                gpu->integrated = gpu->vram_total_bytes <= ((uint64_t)2 << 30) ? HR_TRI_YES : HR_TRI_NO;
        } else if (intel) {
            hr_strlcpy(gpu->source, "i915/xe sysfs", sizeof gpu->source);
            /* Intel's integrated GPU is always PCI device 00:02.0. */
            snprintf(p, sizeof p, "/sys/class/drm/card%d/device", cards[i]);
            if (hr_lx_resolve(sysroot, p, real, sizeof real))
                gpu->integrated = strstr(real, ":00:02.0") ? HR_TRI_YES : HR_TRI_NO;
        } else {
            hr_strlcpy(gpu->source, "drm sysfs", sizeof gpu->source);
            if (nvidia)
                gpu->integrated = HR_TRI_NO;
        }
        g->count++;
    }
}

/* NVIDIA: the python processes' VRAM from NVML's per-process lists, for the GPUs NVML listed
 * (g->gpu[0 .. nvml_end), in NVML's order). */
static void nvml_python_vram(hr_gpus *g, int nvml_end, const int64_t *py, size_t npy)
{
    if (npy == 0) { /* none runs: nothing to ask (opening NVML again costs its init) */
        for (int i = 0; i < nvml_end; i++)
            g->gpu[i].python_vram_bytes = 0;
        return;
    }
    hr_gpu_procs *gp = hr_gpu_procs_open();
    if (gp && hr_gpu_procs_count(gp) == (unsigned)nvml_end)
        for (int i = 0; i < nvml_end; i++) {
            int64_t v = hr_gpu_procs_pids_vram(gp, (unsigned)i, py, npy);
            g->gpu[i].python_vram_bytes = v >= 0 ? (uint64_t)v : HR_UNKNOWN;
        }
    hr_gpu_procs_close(gp);
}

/* One process's DRM clients' VRAM on each amdgpu card (pci[i], "" for others), each client
 * counted once however many fds it is open through; false when its fdinfo cannot be read
 * (another user's process) or it has more clients than are held. */
static bool fdinfo_vram(const char *sysroot, int64_t pid, char pci[][16], int ncards, uint64_t *vram)
{
    char rel[64], dir[4096];
    snprintf(rel, sizeof rel, "/proc/%lld/fdinfo", (long long)pid);
    hr_lx_path(sysroot, rel, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct {
        int card;
        uint64_t id;
    } seen[64];
    int nseen = 0;
    bool ok = true;
    hr_buf b;
    hr_buf_init(&b, 16384);
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char p[96];
        snprintf(p, sizeof p, "%s/%.24s", rel, e->d_name);
        hr_error err = { 0 };
        if (hr_lx_read(sysroot, p, &b, 16384, &err) != 0)
            continue; /* closed while read */
        hr_drm_fdinfo f;
        hr_drm_fdinfo_parse(hr_buf_str(&b), b.len, &f);
        if (!f.drm || strcmp(f.driver, "amdgpu") != 0 || f.vram_bytes == HR_UNKNOWN)
            continue;
        int card = -1;
        for (int k = 0; k < ncards && card < 0; k++)
            if (pci[k][0] && (strcmp(pci[k], f.pdev) == 0 || !f.pdev[0]))
                card = k;
        if (card < 0)
            continue;
        bool dup = false;
        for (int k = 0; k < nseen && !dup; k++)
            dup = f.client_known && seen[k].card == card && seen[k].id == f.client_id;
        if (dup)
            continue;
        if (nseen == (int)(sizeof seen / sizeof seen[0])) {
            ok = false;
            break;
        }
        seen[nseen].card = card;
        seen[nseen++].id = f.client_known ? f.client_id : UINT64_MAX;
        vram[card] = vram[card] > HR_UNKNOWN - 1 - f.vram_bytes ? HR_UNKNOWN - 1 : vram[card] + f.vram_bytes;
    }
    hr_buf_free(&b);
    closedir(d);
    return ok;
}

/* AMD: the python processes' VRAM from their DRM clients' fdinfo, for the amdgpu cards
 * probe_drm added (g->gpu[first ..], PCI addresses in pci[]). */
static void drm_python_vram(const char *sysroot, hr_gpus *g, int first, char pci[][16], const int64_t *py, int npy)
{
    uint64_t vram[HR_MAX_GPUS] = { 0 };
    for (int i = 0; i < npy; i++)
        if (!fdinfo_vram(sysroot, py[i], pci, g->count, vram))
            return; /* one python not read: its VRAM could be any of the card's */
    for (int k = first; k < g->count && k < HR_MAX_GPUS; k++)
        if (pci[k][0])
            g->gpu[k].python_vram_bytes = vram[k];
}

void hr_lx_probe_gpus(const char *sysroot, bool skip, hr_snapshot *s)
{
    hr_gpus *g = &s->gpus;
    if (skip) {
        hr_section_ok(&g->s, HR_N("skipped (--no-gpu)"));
        hr_words_set(&g->notes, HR_N("GPU probing skipped"));
        return;
    }
    hr_section_ok(&g->s, "NVML, /sys/class/drm");
    /* NVML describes this machine's driver: only meaningful on the live system. */
    bool nvml = false;
    if (hr_lx_live(sysroot))
        nvml = probe_nvml(g);
    else
        hr_words_set(&g->notes, HR_N("NVML not queried for a recorded tree"));
    int first_drm = g->count;
    char pci[HR_MAX_GPUS][16];
    memset(pci, 0, sizeof pci);
    probe_drm(sysroot, g, nvml, pci);
    /* the python processes (maybe ComfyUI) the process probe found, and what they hold */
    const hr_procs *procs = &s->procs;
    if (!procs->s.ok || procs->python_pid_count < 0)
        return;
    if (nvml)
        nvml_python_vram(g, first_drm, procs->python_pid, (size_t)procs->python_pid_count);
    drm_python_vram(sysroot, g, first_drm, pci, procs->python_pid, procs->python_pid_count);
}
