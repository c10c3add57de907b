/* GPUs: NVML (nvml.dll, loaded at run time by full path) for system-wide VRAM; DXGI for
 * every adapter with its dedicated and shared memory (integrated GPUs, S4.3); PDH's GPU memory
 * counters for the VRAM in use on each adapter and per process. */
#define COBJMACROS
#include "win_probes.h"

#include <dxgi.h>
#include <pdh.h>
#include <pdhmsg.h>
#include <tlhelp32.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

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
            x->luid_high = (uint32_t)d.AdapterLuid.HighPart;
            x->luid_low = d.AdapterLuid.LowPart;
        }
        if (a)
            IDXGIAdapter1_Release(a);
        a = NULL;
    }
    IDXGIFactory1_Release(f);
}

/* A counter's instances and values (PDH_FMT_LARGE), malloc'd; NULL when it has none or failed. */
static PDH_FMT_COUNTERVALUE_ITEM_W *counter_items(PDH_HCOUNTER c, DWORD *count, PDH_STATUS *st)
{
    DWORD size = 0;
    *count = 0;
    *st = PdhGetFormattedCounterArrayW(c, PDH_FMT_LARGE, &size, count, NULL);
    if (*st != (PDH_STATUS)PDH_MORE_DATA || size == 0)
        return NULL;
    PDH_FMT_COUNTERVALUE_ITEM_W *items = malloc(size);
    if (!items)
        return NULL;
    *st = PdhGetFormattedCounterArrayW(c, PDH_FMT_LARGE, &size, count, items);
    if (*st != ERROR_SUCCESS) {
        free(items);
        *count = 0;
        return NULL;
    }
    return items;
}

static bool item_value(const PDH_FMT_COUNTERVALUE_ITEM_W *it, uint64_t *v)
{
    if ((it->FmtValue.CStatus != PDH_CSTATUS_VALID_DATA && it->FmtValue.CStatus != PDH_CSTATUS_NEW_DATA) ||
        it->FmtValue.largeValue < 0 || !it->szName)
        return false;
    *v = (uint64_t)it->FmtValue.largeValue;
    return true;
}

/* The executable name of each running process (Toolhelp32), to name the counter's pids. */
typedef struct proc_name {
    DWORD pid;
    char name[64];
} proc_name;

static proc_name *process_names(int *n)
{
    *n = 0;
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE)
        return NULL;
    int cap = 8192;
    proc_name *v = malloc(sizeof *v * (size_t)cap);
    PROCESSENTRY32W pe;
    pe.dwSize = sizeof pe;
    if (v && Process32FirstW(snap, &pe))
        do {
            if (*n == cap)
                break;
            v[*n].pid = pe.th32ProcessID;
            pe.szExeFile[MAX_PATH - 1] = L'\0';
            hr_win_utf8(pe.szExeFile, v[*n].name, sizeof v[*n].name);
            (*n)++;
        } while (Process32NextW(snap, &pe));
    CloseHandle(snap);
    return v;
}

/* PDH's GPU memory: "\GPU Adapter Memory(luid_0x<high>_0x<low>_phys_<n>)\Dedicated Usage" and
 * "\GPU Process Memory(pid_<pid>_luid_..._phys_<n>)\Dedicated Usage" (Windows 10 1709 and
 * later; Wine has neither object, and the call records why). */
static void probe_gpu_memory(hr_win_raw *raw)
{
    PDH_HQUERY q = NULL;
    PDH_HCOUNTER ca = NULL, cp = NULL;
    PDH_STATUS st = PdhOpenQueryW(NULL, 0, &q);
    if (st == ERROR_SUCCESS)
        st = PdhAddEnglishCounterW(q, L"\\GPU Adapter Memory(*)\\Dedicated Usage", 0, &ca);
    if (st == ERROR_SUCCESS &&
        PdhAddEnglishCounterW(q, L"\\GPU Process Memory(*)\\Dedicated Usage", 0, &cp) != ERROR_SUCCESS)
        cp = NULL;
    if (st == ERROR_SUCCESS)
        st = PdhCollectQueryData(q);
    DWORD na = 0, np = 0;
    PDH_FMT_COUNTERVALUE_ITEM_W *a = st == ERROR_SUCCESS ? counter_items(ca, &na, &st) : NULL;
    if (!a) {
        raw->gpu_pdh.state = HR_WIN_FAILED;
        raw->gpu_pdh.code = (uint32_t)st;
        if (q)
            PdhCloseQuery(q);
        return;
    }
    raw->gpu_pdh.state = HR_WIN_OK;
    raw->gpu_pdh.code = 0;
    for (DWORD i = 0; i < na; i++) {
        unsigned hi = 0, lo = 0, phys = 0;
        uint64_t v;
        if (!item_value(&a[i], &v) || swscanf(a[i].szName, L"luid_0x%8x_0x%8x_phys_%u", &hi, &lo, &phys) != 3)
            continue;
        int k = 0;
        while (k < raw->gpu_use_count && (raw->gpu_use[k].luid_high != hi || raw->gpu_use[k].luid_low != lo))
            k++;
        if (k == raw->gpu_use_count) {
            if (k == HR_WIN_MAX_ADAPTERS)
                continue;
            raw->gpu_use_count++;
            raw->gpu_use[k].luid_high = hi;
            raw->gpu_use[k].luid_low = lo;
        }
        raw->gpu_use[k].dedicated_used += v;
    }
    free(a);
    PDH_STATUS pst = 0;
    PDH_FMT_COUNTERVALUE_ITEM_W *p = cp ? counter_items(cp, &np, &pst) : NULL;
    int nn = 0;
    proc_name *names = p ? process_names(&nn) : NULL;
    raw->gpu_procs_listed = p && names;
    for (DWORD i = 0; p && names && i < np; i++) {
        unsigned pid = 0, hi = 0, lo = 0, phys = 0;
        uint64_t v;
        if (!item_value(&p[i], &v) ||
            swscanf(p[i].szName, L"pid_%u_luid_0x%8x_0x%8x_phys_%u", &pid, &hi, &lo, &phys) != 4)
            continue;
        int k = 0;
        while (k < raw->gpu_proc_count &&
               (raw->gpu_procs[k].pid != pid || raw->gpu_procs[k].luid_high != hi || raw->gpu_procs[k].luid_low != lo))
            k++;
        if (k == raw->gpu_proc_count) {
            if (k == HR_WIN_MAX_GPU_PROCS) {
                raw->gpu_procs_listed = 0; /* more than held: a python among the rest is not seen */
                continue;
            }
            hr_win_gpu_proc *x = &raw->gpu_procs[raw->gpu_proc_count++];
            x->pid = pid;
            x->luid_high = hi;
            x->luid_low = lo;
            for (int j = 0; j < nn; j++)
                if (names[j].pid == pid)
                    hr_strlcpy(x->name, names[j].name, sizeof x->name);
        }
        raw->gpu_procs[k].dedicated_used += v;
    }
    free(names);
    free(p);
    PdhCloseQuery(q);
}

void hr_win_probe_gpus(hr_win_raw *raw)
{
    probe_nvml(raw);
    probe_dxgi(raw);
    probe_gpu_memory(raw);
}
