/* headroom — Windows: run's child (platform.h). CreateProcessW with stdout and stderr on
 * pipes, inside a job object (its peak committed memory is the run's own; with --limit the
 * job's process memory limit), output polled with PeekNamedPipe. Ctrl-C reaches the child
 * through the shared console; headroom's own handler only keeps headroom alive to report. */
#include "platform/platform.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "win_probes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

struct hr_child {
    PROCESS_INFORMATION pi;
    HANDLE out_r, err_r;
    HANDLE job;
    bool ended;
    int64_t ended_ms;
    DWORD code;
    int64_t start_wall, end_wall;
    char buf[65536];
};

/* One argument quoted the way CommandLineToArgvW reads it back. */
static bool append_arg(wchar_t *cmd, size_t cap, size_t *len, const wchar_t *a)
{
    bool quote = !*a || wcspbrk(a, L" \t\"") != NULL;
    size_t need = wcslen(a) * 2 + 4;
    if (*len + need >= cap)
        return false;
    if (*len)
        cmd[(*len)++] = L' ';
    if (!quote) {
        wcscpy(cmd + *len, a);
        *len += wcslen(a);
        return true;
    }
    cmd[(*len)++] = L'"';
    for (const wchar_t *p = a;; p++) {
        size_t bs = 0;
        while (*p == L'\\') {
            p++;
            bs++;
        }
        if (!*p) {
            for (size_t i = 0; i < bs * 2; i++)
                cmd[(*len)++] = L'\\';
            break;
        }
        if (*p == L'"') {
            for (size_t i = 0; i < bs * 2 + 1; i++)
                cmd[(*len)++] = L'\\';
        } else {
            for (size_t i = 0; i < bs; i++)
                cmd[(*len)++] = L'\\';
        }
        cmd[(*len)++] = *p;
    }
    cmd[(*len)++] = L'"';
    cmd[*len] = L'\0';
    return true;
}

int hr_child_start(const hr_child_opts *o, hr_child **out, char *note, size_t note_n, hr_error *err)
{
    note[0] = '\0';
    hr_child *c = calloc(1, sizeof *c);
    size_t cap = 32768;
    wchar_t *cmd = calloc(cap, sizeof *cmd);
    if (!c || !cmd) {
        free(c);
        free(cmd);
        return hr_error_set(err, HR_ENOMEM, HR_T("run: out of memory"));
    }
    size_t len = 0;
    for (int i = 0; o->argv[i]; i++) {
        wchar_t *w = hr_win_wide(o->argv[i]);
        bool ok = w && append_arg(cmd, cap, &len, w);
        free(w);
        if (!ok) {
            free(c);
            free(cmd);
            return hr_error_set(err, HR_ETOOBIG, HR_T("run: the command line is too long"));
        }
    }
    SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
    HANDLE out_w, err_w;
    if (!CreatePipe(&c->out_r, &out_w, &sa, 1 << 16) || !CreatePipe(&c->err_r, &err_w, &sa, 1 << 16)) {
        free(c);
        free(cmd);
        return hr_error_set(err, HR_EIO, HR_T("run: CreatePipe failed (%lu)"), GetLastError());
    }
    SetHandleInformation(c->out_r, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(c->err_r, HANDLE_FLAG_INHERIT, 0);
    if (o->own_cgroup || o->limit_bytes) {
        c->job = CreateJobObjectW(NULL, NULL);
        if (c->job) {
            JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
            ZeroMemory(&li, sizeof li);
            li.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            if (o->limit_bytes) {
                li.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
                li.JobMemoryLimit = (SIZE_T)o->limit_bytes;
            }
            if (!SetInformationJobObject(c->job, JobObjectExtendedLimitInformation, &li, sizeof li))
                snprintf(note, note_n, HR_T("the job's limits were refused (%lu)"), GetLastError());
        } else {
            snprintf(note, note_n, HR_T("no job object (%lu)"), GetLastError());
        }
    }
    if (!GetEnvironmentVariableW(L"PYTHONUNBUFFERED", NULL, 0))
        SetEnvironmentVariableW(L"PYTHONUNBUFFERED", L"1");
    /* Python writes to a pipe in the ANSI code page (GBK on a Chinese system), and we pass
     * its bytes on to a console we switched to UTF-8: ask for UTF-8 on its standard streams
     * only (not PYTHONUTF8, which would change how ComfyUI opens its files). A value the user
     * set stays. docs.python.org/3/using/cmdline.html#envvar-PYTHONIOENCODING */
    if (!GetEnvironmentVariableW(L"PYTHONIOENCODING", NULL, 0))
        SetEnvironmentVariableW(L"PYTHONIOENCODING", L"utf-8");
    STARTUPINFOW si;
    ZeroMemory(&si, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = out_w;
    si.hStdError = err_w;
    c->start_wall = hr_platform_wall_ms();
    BOOL ok = CreateProcessW(NULL, cmd, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL, NULL, &si, &c->pi);
    DWORD e = GetLastError();
    CloseHandle(out_w);
    CloseHandle(err_w);
    free(cmd);
    if (!ok) {
        CloseHandle(c->out_r);
        CloseHandle(c->err_r);
        if (c->job)
            CloseHandle(c->job);
        free(c);
        return hr_error_set(err, e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? HR_ENOENT : HR_EIO,
                            HR_T("run: %s: cannot start it (error %lu)"), o->argv[0], e);
    }
    if (c->job && !AssignProcessToJobObject(c->job, c->pi.hProcess)) {
        snprintf(note, note_n, HR_T("not in a job object (%lu)"), GetLastError());
        CloseHandle(c->job);
        c->job = NULL;
    }
    ResumeThread(c->pi.hThread);
    *out = c;
    return 0;
}

int64_t hr_child_pid(const hr_child *c)
{
    return (int64_t)c->pi.dwProcessId;
}

const char *hr_child_cgroup(const hr_child *c)
{
    (void)c;
    return NULL;
}

void *hr_child_job(const hr_child *c)
{
    return c->job;
}

static BOOL WINAPI keep_alive(DWORD type)
{
    /* the console delivers Ctrl-C / Ctrl-Break to the child as well: headroom stays to report */
    return type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT;
}

void hr_child_catch_signals(hr_child *c)
{
    (void)c;
    SetConsoleCtrlHandler(keep_alive, TRUE);
}

static bool drain(hr_child *c, HANDLE *h, int stream, hr_child_out_fn out, void *ctx)
{
    bool any = false;
    while (*h) {
        DWORD avail = 0;
        if (!PeekNamedPipe(*h, NULL, 0, NULL, &avail, NULL)) {
            CloseHandle(*h);
            *h = NULL;
            break;
        }
        if (!avail)
            break;
        DWORD got = 0;
        if (!ReadFile(*h, c->buf, avail < sizeof c->buf ? avail : (DWORD)sizeof c->buf, &got, NULL) || got == 0) {
            CloseHandle(*h);
            *h = NULL;
            break;
        }
        out(ctx, stream, c->buf, got);
        any = true;
    }
    return any;
}

int hr_child_pump(hr_child *c, int64_t timeout_ms, hr_sampler *wake, hr_child_out_fn out, void *ctx)
{
    (void)wake; /* no memory-pressure trigger on Windows: the interval alone */
    int64_t until = hr_platform_mono_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        bool any = drain(c, &c->out_r, 1, out, ctx);
        any |= drain(c, &c->err_r, 2, out, ctx);
        if (!c->ended && WaitForSingleObject(c->pi.hProcess, 0) == WAIT_OBJECT_0) {
            c->ended = true;
            c->ended_ms = hr_platform_mono_ms();
            c->end_wall = hr_platform_wall_ms();
            GetExitCodeProcess(c->pi.hProcess, &c->code);
        }
        if (c->ended) {
            if ((!c->out_r && !c->err_r) || hr_platform_mono_ms() - c->ended_ms > 500)
                return 1;
        }
        if (any)
            continue;
        int64_t now = hr_platform_mono_ms();
        if (now >= until)
            return 0;
        Sleep(now + 10 < until ? 10 : (DWORD)(until - now));
    }
}

void hr_child_result(hr_child *c, hr_child_exit *e)
{
    memset(e, 0, sizeof *e);
    if (!c->ended) {
        WaitForSingleObject(c->pi.hProcess, INFINITE);
        GetExitCodeProcess(c->pi.hProcess, &c->code);
        c->ended = true;
        c->end_wall = hr_platform_wall_ms();
    }
    e->exited = true;
    e->code = (int)c->code;
    e->oom_kill = -1;
    e->peak = -1;
    e->start_wall_ms = c->start_wall;
    e->end_wall_ms = c->end_wall;
    if (c->job) {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION li;
        if (QueryInformationJobObject(c->job, JobObjectExtendedLimitInformation, &li, sizeof li, NULL))
            e->peak = (int64_t)li.PeakJobMemoryUsed;
    }
}

void hr_child_close(hr_child *c)
{
    if (!c)
        return;
    if (c->out_r)
        CloseHandle(c->out_r);
    if (c->err_r)
        CloseHandle(c->err_r);
    CloseHandle(c->pi.hProcess);
    CloseHandle(c->pi.hThread);
    if (c->job)
        CloseHandle(c->job);
    free(c);
}

bool hr_platform_write_stream(int stream, const void *data, size_t n)
{
    HANDLE h = GetStdHandle(stream == 2 ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE);
    const char *p = data;
    while (n) {
        DWORD w = 0;
        if (!WriteFile(h, p, n > 0x40000000 ? 0x40000000 : (DWORD)n, &w, NULL) || w == 0)
            return false;
        p += w;
        n -= w;
    }
    return true;
}
