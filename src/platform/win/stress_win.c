/* headroom stress on Windows: VirtualAlloc(MEM_COMMIT) step by step in this process (commit
 * is always enforced: the failure is a clean ERROR_COMMITMENT_LIMIT, never a kill), optionally
 * inside a job object whose per-process commit limit rehearses a smaller machine; every
 * block is released with VirtualFree before returning. (docs/stress.md) */
#include "platform/platform.h"
#include "core/base/i18n.h"
#include "core/base/size.h"

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

/* The process's private commit, what a job's per-process memory limit counts. A process
 * always has some: 0 means the OS did not say (Wine), so unknown. */
static uint64_t process_commit(void)
{
    PROCESS_MEMORY_COUNTERS_EX pmc;
    ZeroMemory(&pmc, sizeof pmc);
    if (!GetProcessMemoryInfo(GetCurrentProcess(), (PROCESS_MEMORY_COUNTERS *)&pmc, sizeof pmc))
        return HR_UNKNOWN;
    uint64_t v = pmc.PrivateUsage ? pmc.PrivateUsage : pmc.PagefileUsage;
    return v ? v : HR_UNKNOWN;
}

/* Put this process in a new job whose per-process commit limit is `bytes`, and read the
 * limit back: a job that does not hold this process, or does not hold that limit, would
 * make the rehearsal a lie. Wine accepts the limit, then reports none (and enforces none).
 * NULL on failure, with the error set. */
static HANDLE job_with_limit(uint64_t bytes, hr_error *err)
{
    HANDLE job = CreateJobObjectW(NULL, NULL);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
    ZeroMemory(&li, sizeof li);
    li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_PROCESS_MEMORY;
    li.ProcessMemoryLimit = (SIZE_T)bytes;
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION got;
    ZeroMemory(&got, sizeof got);
    BOOL in = FALSE;
    if (!job || !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &li, sizeof li) ||
        !AssignProcessToJobObject(job, GetCurrentProcess()) ||
        !QueryInformationJobObject(job, JobObjectExtendedLimitInformation, &got, sizeof got, NULL) ||
        !IsProcessInJob(GetCurrentProcess(), job, &in)) {
        DWORD e = GetLastError();
        if (job)
            CloseHandle(job);
        hr_error_set(err, HR_ENOTSUP, HR_T("--cgroup: cannot limit this process with a job object (error %lu)"),
                     (unsigned long)e);
        return NULL;
    }
    uint64_t held =
        (got.BasicLimitInformation.LimitFlags & JOB_OBJECT_LIMIT_PROCESS_MEMORY) ? (uint64_t)got.ProcessMemoryLimit : 0;
    if (!in || held != bytes) {
        CloseHandle(job);
        char want[32], have[32];
        hr_size_format(bytes, want, sizeof want);
        if (held)
            hr_size_format(held, have, sizeof have);
        else
            snprintf(have, sizeof have, "%s", HR_T("none"));
        hr_error_set(err, HR_ENOTSUP,
                     HR_T("--cgroup: the job object was given a commit limit of %s but reports %s: this "
                          "system does not support job memory limits (Wine does not), so a smaller "
                          "machine cannot be rehearsed here; nothing was allocated"),
                     want, in ? have : HR_T("this process not in it"));
        return NULL;
    }
    return job;
}

static void error_text(DWORD e, char *out, size_t n)
{
    wchar_t w[256];
    DWORD len = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, e,
                               MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), w, 256, NULL);
    while (len > 0 && (w[len - 1] == L'\r' || w[len - 1] == L'\n' || w[len - 1] == L' ' || w[len - 1] == L'.'))
        w[--len] = 0;
    char msg[200] = "";
    if (len)
        WideCharToMultiByte(CP_UTF8, 0, w, -1, msg, (int)sizeof msg, NULL, NULL);
    snprintf(out, n, HR_T("VirtualAlloc: error %lu%s%s"), (unsigned long)e, msg[0] ? " " : "", msg);
}

int hr_platform_stress(const hr_stress_req *rq, uint64_t step_bytes, hr_stress_step_fn step, void *ctx,
                       hr_stress_result *res, hr_error *err)
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
        job = job_with_limit(rq->cgroup_bytes, err);
        if (!job)
            return err->code ? err->code : HR_ENOTSUP;
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
        void *p =
            n <= (uint64_t)(SIZE_T)-1 ? VirtualAlloc(NULL, (SIZE_T)n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE) : NULL;
        if (!p) {
            res->outcome = HR_STRESS_ALLOC_FAILED;
            res->failed_step_bytes = n;
            error_text(GetLastError(), res->failure, sizeof res->failure);
            break;
        }
        blocks[nb++] = p;
        if (job && done + n > rq->cgroup_bytes) {
            /* Windows refuses commit past a job's per-process limit, and this process's
             * commit is more than what the test committed: an allocation that takes the test
             * alone past the limit succeeded, so the limit is not enforced, though the job
             * reported it. Stop: going on would not rehearse anything. */
            char lim[32], at[32];
            hr_size_format(rq->cgroup_bytes, lim, sizeof lim);
            hr_size_format(done + n, at, sizeof at);
            res->outcome = HR_STRESS_ERROR;
            snprintf(res->failure, sizeof res->failure,
                     HR_T("the job's commit limit of %s is not enforced on this system: %s was committed "
                          "without a failure"),
                     lim, at);
            break;
        }
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
