/* GPUs: NVML (nvml.dll, loaded at run time by full path) for system-wide VRAM; DXGI for
 * every adapter with its dedicated and shared memory (integrated GPUs, S4.3). */
#define COBJMACROS
#include "win_probes.h"

#include <dxgi.h>

#include <stdio.h>
#include <string.h>

typedef struct nvml_memory {
    unsigned long long total, free, used;
} nvml_memory;
typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_handle_fn)(unsigned int, void **);
typedef int (*nvml_mem_fn)(void *, nvml_memory *);
typedef int (*nvml_name_fn)(void *, char *, unsigned int);
typedef int (*nvml_driver_fn)(char *, unsigned int);

#define NVML_SYM(mod, name) ((void (*)(void))GetProcAddress(mod, name))

HMODULE hr_win_load_nvml(void)
{
    /* Full paths only (no DLL planting): System32 (DCH drivers), then the NVSMI folder. */
    wchar_t path[MAX_PATH + 64];
    UINT n = GetSystemDirectoryW(path, MAX_PATH);
    HMODULE m = NULL;
    if (n && n < MAX_PATH) {
        wcscat(path, L"\\nvml.dll");
        m = LoadLibraryExW(path, NULL, 0);
    }
    if (!m) {
        DWORD k = GetEnvironmentVariableW(L"ProgramFiles", path, MAX_PATH);
        if (k && k < MAX_PATH) {
            wcscat(path, L"\\NVIDIA Corporation\\NVSMI\\nvml.dll");
            m = LoadLibraryExW(path, NULL, 0);
        }
    }
    return m;
}

static void probe_nvml(hr_win_raw *raw)
{
    UINT old = SetErrorMode(SEM_FAILCRITICALERRORS);
    HMODULE m = hr_win_load_nvml();
    SetErrorMode(old);
    if (!m) {
        raw->nvml.state = HR_WIN_ABSENT;
        raw->nvml.code = ERROR_MOD_NOT_FOUND;
        return;
    }
    nvml_void_fn init = (nvml_void_fn)NVML_SYM(m, "nvmlInit_v2");
    nvml_void_fn shutdown = (nvml_void_fn)NVML_SYM(m, "nvmlShutdown");
    nvml_count_fn count = (nvml_count_fn)NVML_SYM(m, "nvmlDeviceGetCount_v2");
    nvml_handle_fn handle = (nvml_handle_fn)NVML_SYM(m, "nvmlDeviceGetHandleByIndex_v2");
    nvml_mem_fn mem = (nvml_mem_fn)NVML_SYM(m, "nvmlDeviceGetMemoryInfo");
    nvml_name_fn name = (nvml_name_fn)NVML_SYM(m, "nvmlDeviceGetName");
    nvml_driver_fn driver = (nvml_driver_fn)NVML_SYM(m, "nvmlSystemGetDriverVersion");
    if (!init || !shutdown || !count || !handle || !mem || !name) {
        raw->nvml.state = HR_WIN_FAILED;
        raw->nvml.code = ERROR_PROC_NOT_FOUND;
        FreeLibrary(m);
        return;
    }
    int r = init();
    if (r != 0) {
        raw->nvml.state = HR_WIN_FAILED;
        raw->nvml.code = (uint32_t)r; /* 9 = driver not loaded */
        FreeLibrary(m);
        return;
    }
    raw->nvml.state = HR_WIN_OK;
    if (driver)
        driver(raw->nvml_driver, sizeof raw->nvml_driver);
    unsigned int n = 0;
    if (count(&n) != 0)
        n = 0;
    for (unsigned int i = 0; i < n && raw->nvml_count < HR_MAX_GPUS; i++) {
        void *dev = NULL;
        nvml_memory mi;
        if (handle(i, &dev) != 0 || mem(dev, &mi) != 0)
            continue;
        hr_win_nvml_gpu *g = &raw->nvml_gpus[raw->nvml_count++];
        char nm[96] = "";
        name(dev, nm, sizeof nm);
        snprintf(g->name, sizeof g->name, "%s", nm);
        g->total = mi.total;
        g->used = mi.used;
        g->free = mi.free;
    }
    shutdown();
    FreeLibrary(m);
}

static void probe_dxgi(hr_win_raw *raw)
{
    IDXGIFactory1 *f = NULL;
    HRESULT hr = CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&f);
    hr_win_set_hresult(&raw->dxgi, hr);
    if (FAILED(hr)) {
        /* Keep FAILED for "no display device" so the report says why, not "not implemented". */
        if (raw->dxgi.state == HR_WIN_UNSUPPORTED)
            raw->dxgi.state = HR_WIN_FAILED;
        return;
    }
    raw->dxgi.code = 0;
    IDXGIAdapter1 *a = NULL;
    for (UINT i = 0;
         raw->adapter_count < HR_WIN_MAX_ADAPTERS && IDXGIFactory1_EnumAdapters1(f, i, &a) != DXGI_ERROR_NOT_FOUND;
         i++) {
        DXGI_ADAPTER_DESC1 d;
        if (a && SUCCEEDED(IDXGIAdapter1_GetDesc1(a, &d))) {
            hr_win_adapter *x = &raw->adapters[raw->adapter_count++];
            d.Description[127] = 0;
            hr_win_utf8(d.Description, x->description, sizeof x->description);
            x->vendor_id = d.VendorId;
            x->device_id = d.DeviceId;
            x->flags = d.Flags;
            x->dedicated_video = d.DedicatedVideoMemory;
            x->dedicated_system = d.DedicatedSystemMemory;
            x->shared_system = d.SharedSystemMemory;
        }
        if (a)
            IDXGIAdapter1_Release(a);
        a = NULL;
    }
    IDXGIFactory1_Release(f);
}

void hr_win_probe_gpus(hr_win_raw *raw)
{
    probe_nvml(raw);
    probe_dxgi(raw);
}
