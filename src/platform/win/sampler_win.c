/* headroom — Windows: the watch sampler (platform.h, core/watch/watch.h).
 *
 * GetPerformanceInfo (commit, its limit, physical memory), GlobalMemoryStatusEx, PDH
 * (Memory\Pages Input/sec, Pages Output/sec, Paging File(_Total)\% Usage, PhysicalDisk(_Total)
 * \% Idle Time — each counter fails alone; Wine answers few of them), the process tree from a
 * toolhelp snapshot and each member's memory counters (working set, private bytes), and a
 * job object's accounting for run's child. Everything is allocated in hr_sampler_open. */
#include "platform/platform.h"
#include "core/base/i18n.h"

#include "core/base/text.h"
#include "platform/gpu_procs.h"
#include "win_probes.h"

#include <pdh.h>
#include <pdhmsg.h>
#include <psapi.h>
#include <tlhelp32.h>

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_PROCS 8192

typedef struct proc_ent {
    DWORD pid, ppid;
    unsigned char mark;
} proc_ent;

struct hr_sampler {
    int64_t pid;
    wchar_t name[128];
    HANDLE job;
    PDH_HQUERY q;
    PDH_HCOUNTER pin, pout, pf_usage, disk_idle;
    bool pdh_primed;
    hr_gpu_procs *gpu;  /* NVML, or NULL */
    int64_t tree[1024]; /* the target tree's pids (for its GPU memory) */
    size_t ntree;
    proc_ent procs[MAX_PROCS];
};

void *hr_gpu_lib_open(void)
{
    UINT old = SetErrorMode(SEM_FAILCRITICALERRORS);
    HMODULE m = hr_win_load_nvml();
    SetErrorMode(old);
    return (void *)m;
}

hr_gpu_fn hr_gpu_lib_sym(void *lib, const char *name)
{
    return (hr_gpu_fn)(void (*)(void))GetProcAddress((HMODULE)lib, name);
}

void hr_gpu_lib_close(void *lib)
{
    FreeLibrary((HMODULE)lib);
}

static void add_counter(hr_sampler *s, const wchar_t *path, PDH_HCOUNTER *c)
{
    *c = NULL;
    if (!s->q || PdhAddEnglishCounterW(s->q, path, 0, c) != ERROR_SUCCESS)
        *c = NULL;
}

int hr_sampler_open(const hr_sampler_opts *opts, hr_sampler **out, hr_error *err)
{
    hr_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return hr_error_set(err, HR_ENOMEM, HR_T("watch: out of memory"));
    s->pid = opts->pid;
    s->job = (HANDLE)opts->job;
    if (opts->name)
        MultiByteToWideChar(CP_UTF8, 0, opts->name, -1, s->name, 128);
    s->name[127] = L'\0';
    if (PdhOpenQueryW(NULL, 0, &s->q) != ERROR_SUCCESS)
        s->q = NULL;
    add_counter(s, L"\\Memory\\Pages Input/sec", &s->pin);
    add_counter(s, L"\\Memory\\Pages Output/sec", &s->pout);
    add_counter(s, L"\\Paging File(_Total)\\% Usage", &s->pf_usage);
    add_counter(s, L"\\PhysicalDisk(_Total)\\% Idle Time", &s->disk_idle);
    if (s->q && PdhCollectQueryData(s->q) == ERROR_SUCCESS)
        s->pdh_primed = true;
    s->gpu = hr_gpu_procs_open();
    *out = s;
    return 0;
}

void hr_sampler_set_pid(hr_sampler *s, int64_t pid)
{
    s->pid = pid;
}

void hr_sampler_close(hr_sampler *s)
{
    if (!s)
        return;
    if (s->q)
        PdhCloseQuery(s->q);
    hr_gpu_procs_close(s->gpu);
    free(s);
}

static bool counter(PDH_HCOUNTER c, double *v)
{
    PDH_FMT_COUNTERVALUE fv;
    if (!c || PdhGetFormattedCounterValue(c, PDH_FMT_DOUBLE | PDH_FMT_NOCAP100, NULL, &fv) != ERROR_SUCCESS ||
        (fv.CStatus != PDH_CSTATUS_VALID_DATA && fv.CStatus != PDH_CSTATUS_NEW_DATA))
        return false;
    *v = fv.doubleValue;
    return true;
}

static bool name_matches(const hr_sampler *s, const wchar_t *exe)
{
    size_t n = wcslen(s->name);
    for (const wchar_t *p = exe; *p; p++)
        if (_wcsnicmp(p, s->name, n) == 0)
            return true;
    return false;
}

static void sample_tree(hr_sampler *s, hr_wsample *o)
{
    if (s->pid <= 0 && !s->name[0])
        return;
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE)
        return;
    PROCESSENTRY32W pe;
    pe.dwSize = sizeof pe;
    int np = 0;
    DWORD self = GetCurrentProcessId();
    for (BOOL ok = Process32FirstW(snap, &pe); ok && np < MAX_PROCS; ok = Process32NextW(snap, &pe)) {
        proc_ent *e = &s->procs[np++];
        e->pid = pe.th32ProcessID;
        e->ppid = pe.th32ParentProcessID;
        e->mark = (s->pid > 0 && (int64_t)e->pid == s->pid) ||
                  (s->pid <= 0 && e->pid != self && name_matches(s, pe.szExeFile));
    }
    CloseHandle(snap);
    for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
        changed = 0;
        for (int i = 0; i < np; i++) {
            if (s->procs[i].mark || s->procs[i].ppid == 0)
                continue;
            for (int j = 0; j < np; j++)
                if (s->procs[j].mark && s->procs[j].pid == s->procs[i].ppid) {
                    s->procs[i].mark = 1;
                    changed = 1;
                    break;
                }
        }
    }
    int64_t rss = 0, priv = 0, count = 0;
    bool have_priv = false;
    for (int i = 0; i < np; i++) {
        if (!s->procs[i].mark)
            continue;
        count++;
        if (s->ntree < sizeof s->tree / sizeof s->tree[0])
            s->tree[s->ntree] = (int64_t)s->procs[i].pid;
        s->ntree++;
        HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, s->procs[i].pid);
        if (!h)
            continue;
        PROCESS_MEMORY_COUNTERS_EX pmc;
        ZeroMemory(&pmc, sizeof pmc);
        pmc.cb = sizeof pmc;
        if (GetProcessMemoryInfo(h, (PROCESS_MEMORY_COUNTERS *)&pmc, sizeof pmc)) {
            rss += (int64_t)pmc.WorkingSetSize;
            priv += (int64_t)pmc.PrivateUsage;
            have_priv = true;
        }
        CloseHandle(h);
    }
    o->proc_count = count;
    o->proc_rss = rss;
    /* private bytes not in the working set: an estimate of what is paged out */
    o->proc_swap = have_priv ? (priv > rss ? priv - rss : 0) : HR_W_UNKNOWN;
}

void hr_sampler_take(hr_sampler *s, hr_wsample *o)
{
    hr_wsample_init(o);
    o->t_ms = hr_platform_mono_ms();
    o->time_ms = hr_platform_wall_ms();
    o->commit_enforced = true;
    PERFORMANCE_INFORMATION pi;
    ZeroMemory(&pi, sizeof pi);
    pi.cb = sizeof pi;
    if (GetPerformanceInfo(&pi, sizeof pi) && pi.PageSize) {
        int64_t ps = (int64_t)pi.PageSize;
        o->commit = (int64_t)pi.CommitTotal * ps;
        o->commit_limit = (int64_t)pi.CommitLimit * ps;
        o->ram_total = (int64_t)pi.PhysicalTotal * ps;
        o->ram_available = (int64_t)pi.PhysicalAvailable * ps;
        o->ram_used = o->ram_total - o->ram_available;
        /* the paging files' size: what the limit holds beyond RAM */
        o->swap_total = o->commit_limit > o->ram_total ? o->commit_limit - o->ram_total : 0;
    } else {
        MEMORYSTATUSEX ms;
        ZeroMemory(&ms, sizeof ms);
        ms.dwLength = sizeof ms;
        if (GlobalMemoryStatusEx(&ms)) {
            o->ram_total = (int64_t)ms.ullTotalPhys;
            o->ram_available = (int64_t)ms.ullAvailPhys;
            o->ram_used = o->ram_total - o->ram_available;
            o->commit_limit = (int64_t)ms.ullTotalPageFile;
            o->commit = (int64_t)(ms.ullTotalPageFile - ms.ullAvailPageFile);
        }
    }
    if (s->q && PdhCollectQueryData(s->q) == ERROR_SUCCESS && s->pdh_primed) {
        double v;
        if (counter(s->pin, &v))
            o->pages_in_ps = v;
        if (counter(s->pout, &v))
            o->pages_out_ps = v;
        if (counter(s->pf_usage, &v) && o->swap_total >= 0)
            o->swap_used = (int64_t)((double)o->swap_total * v / 100.0);
        if (counter(s->disk_idle, &v)) {
            double busy = 100.0 - v;
            o->disk_busy_pct = busy < 0 ? 0 : busy > 100 ? 100 : busy;
            hr_strlcpy(o->disk, "_Total", sizeof o->disk);
        }
    }
    s->pdh_primed = true;
    s->ntree = 0;
    sample_tree(s, o);
    /* a tree larger than the list held: its GPU memory is unknown rather than short */
    hr_gpu_procs_sample(s->gpu, s->tree, s->ntree <= sizeof s->tree / sizeof s->tree[0] ? s->ntree : 0, o);
}

int64_t hr_platform_mono_ms(void)
{
    return (int64_t)GetTickCount64();
}

int64_t hr_platform_wall_ms(void)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (int64_t)(t / 10000 - 11644473600000ULL);
}

static volatile int *stop_flag;
static HANDLE stop_event;

static BOOL WINAPI on_ctrl(DWORD type)
{
    if (stop_flag)
        *stop_flag = (int)type + 1;
    if (stop_event)
        SetEvent(stop_event);
    return TRUE;
}

void hr_platform_catch_stop(volatile int *flag)
{
    stop_flag = flag;
    if (!stop_event)
        stop_event = CreateEventW(NULL, TRUE, FALSE, NULL);
    SetConsoleCtrlHandler(on_ctrl, TRUE);
}

void hr_platform_sleep_ms(int64_t ms)
{
    if (ms <= 0)
        return;
    if (stop_event)
        WaitForSingleObject(stop_event, (DWORD)ms);
    else
        Sleep((DWORD)ms);
}

int hr_sampler_wait(hr_sampler *s, int64_t ms)
{
    /* Windows has no PSI: the memory resource notification (CreateMemoryResourceNotification)
     * only says "low" at a fixed threshold, so waits are plain sleeps */
    (void)s;
    hr_platform_sleep_ms(ms);
    return 0;
}

bool hr_platform_lock_memory(void)
{
    /* the working set is the OS's to trim; nothing portable to lock beyond it */
    return false;
}
