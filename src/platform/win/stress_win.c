/* headroom stress on Windows: VirtualAlloc(MEM_COMMIT) step by step in this process (commit
 * is always enforced: the failure is a clean ERROR_COMMITMENT_LIMIT, never a kill), optionally
 * inside a job object whose per-process commit limit rehearses a smaller machine; every
 * block is released with VirtualFree before returning. (docs/stress.md) */
#include "platform/platform.h"
#include "core/base/i18n.h"

#include <windows.h>
#include <psapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void commit_now(uint64_t *charge, uint64_t *limit)
{
    PERFORMANCE_INFORMATION pi;
    ZeroMemory(&pi, sizeof pi);
    pi.cb = sizeof pi;
    *charge = *limit = HR_UNKNOWN;
    if (GetPerformanceInfo(&pi, sizeof pi)) {
        *charge = (uint64_t)pi.CommitTotal * pi.PageSize;
        *limit = (uint64_t)pi.CommitLimit * pi.PageSize;
    }
}

static uint64_t process_commit(void)
{
    PROCESS_MEMORY_COUNTERS_EX pmc;
    ZeroMemory(&pmc, sizeof pmc);
    if (GetProcessMemoryInfo(GetCurrentProcess(), (PROCESS_MEMORY_COUNTERS *)&pmc, sizeof pmc))
        return pmc.PrivateUsage;
    return HR_UNKNOWN;
}

static void error_text(DWORD e, char *out, size_t n)
{
    wchar_t w[256];
    DWORD len = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, e,
                               MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), w, 256, NULL);
    while (len > 0 && (w[len - 1] == L'\r' || w[len - 1] == L'\n' || w[len - 1] == L' ' ||
                       w[len - 1] == L'.'))
        w[--len] = 0;
    char msg[200] = "";
    if (len)
        WideCharToMultiByte(CP_UTF8, 0, w, -1, msg, (int)sizeof msg, NULL, NULL);
    snprintf(out, n, HR_T("VirtualAlloc: error %lu%s%s"), (unsigned long)e, msg[0] ? " " : "", msg);
}

int hr_platform_stress(const hr_stress_req *rq, uint64_t step_bytes, hr_stress_step_fn step,
                       void *ctx, hr_stress_result *res, hr_error *err)
{
    memset(res, 0, sizeof *res);
    res->outcome = HR_STRESS_ERROR;
    res->released = true;
    if (step_bytes == 0 || rq->commit_bytes == 0)
        return hr_error_set(err, HR_EINVAL, HR_T("stress: nothing to commit"));
    HANDLE job = NULL;
    if (rq->cgroup_bytes) {
        /* A job's per-process commit limit: VirtualAlloc fails past it, as past a smaller
         * machine's commit limit. This process stays in the job until it exits. */
        job = CreateJobObjectW(NULL, NULL);
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
        ZeroMemory(&li, sizeof li);
        li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_PROCESS_MEMORY;
        li.ProcessMemoryLimit = (SIZE_T)rq->cgroup_bytes;
        if (!job || !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof li) ||
            !AssignProcessToJobObject(job, GetCurrentProcess())) {
            DWORD e = GetLastError();
            if (job)
                CloseHandle(job);
            return hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: cannot limit this process with a job object (error %lu)"),
                                (unsigned long)e);
        }
        snprintf(res->cgroup_where, sizeof res->cgroup_where, HR_T("a job object (per-process commit limit)"));
    }
    size_t maxblocks = HR_STRESS_MAX_STEPS + 1;
    void **blocks = calloc(maxblocks, sizeof *blocks);
    if (!blocks) {
        if (job)
            CloseHandle(job);
        return hr_error_set(err, HR_ENOMEM, HR_T("stress: out of memory"));
    }
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    uint64_t page = si.dwPageSize ? si.dwPageSize : 4096;
    uint64_t done = 0;
    size_t nb = 0;
    res->outcome = HR_STRESS_REACHED;
    while (done < rq->commit_bytes && nb < maxblocks) {
        uint64_t n = rq->commit_bytes - done < step_bytes ? rq->commit_bytes - done : step_bytes;
        void *p = n <= (uint64_t)(SIZE_T)-1 ? VirtualAlloc(NULL, (SIZE_T)n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE)
                                            : NULL;
        if (!p) {
            res->outcome = HR_STRESS_ALLOC_FAILED;
            res->failed_step_bytes = n;
            error_text(GetLastError(), res->failure, sizeof res->failure);
            break;
        }
        blocks[nb++] = p;
        if (rq->touch)
            for (uint64_t o = 0; o < n; o += page)
                ((volatile char *)p)[o] = 1;
        done += n;
        res->reached_bytes = done;
        if (res->step_count < HR_STRESS_MAX_STEPS) {
            hr_stress_step *s = &res->steps[res->step_count];
            s->committed_bytes = done;
            commit_now(&s->charge_bytes, &s->limit_bytes);
            s->cgroup_bytes = job ? process_commit() : HR_UNKNOWN;
            res->step_count++;
            if (step)
                step(ctx, res->step_count - 1, res);
        }
    }
    for (size_t i = 0; i < nb; i++)
        if (!VirtualFree(blocks[i], 0, MEM_RELEASE))
            res->released = false;
    free(blocks);
    if (job)
        CloseHandle(job);
    return 0;
}
