/* headroom — Windows: a helper thread and a lock (platform.h), on CreateThread and a
 * critical section. */
#include "platform/platform.h"

#include <stdlib.h>
#include <windows.h>

struct hr_thread {
    HANDLE h;
    void (*fn)(void *);
    void *arg;
};

struct hr_lock {
    CRITICAL_SECTION cs;
};

static DWORD WINAPI run(LPVOID p)
{
    hr_thread *t = p;
    t->fn(t->arg);
    return 0;
}

hr_thread *hr_thread_start(void (*fn)(void *), void *arg)
{
    hr_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->fn = fn;
    t->arg = arg;
    t->h = CreateThread(NULL, 0, run, t, 0, NULL);
    if (!t->h) {
        free(t);
        return NULL;
    }
    return t;
}

bool hr_thread_join(hr_thread *t, int timeout_ms)
{
    if (WaitForSingleObject(t->h, (DWORD)(timeout_ms < 0 ? 0 : timeout_ms)) != WAIT_OBJECT_0)
        return false; /* it ends with the process */
    CloseHandle(t->h);
    free(t);
    return true;
}

hr_lock *hr_lock_new(void)
{
    hr_lock *l = malloc(sizeof *l);
    if (l)
        InitializeCriticalSection(&l->cs);
    return l;
}

void hr_lock_take(hr_lock *l)
{
    if (l)
        EnterCriticalSection(&l->cs);
}

void hr_lock_give(hr_lock *l)
{
    if (l)
        LeaveCriticalSection(&l->cs);
}

void hr_lock_free(hr_lock *l)
{
    if (l) {
        DeleteCriticalSection(&l->cs);
        free(l);
    }
}

typedef struct detached {
    void (*fn)(void *);
    void *arg;
} detached;

static DWORD WINAPI run_detached(LPVOID p)
{
    detached d = *(detached *)p;
    free(p);
    d.fn(d.arg);
    return 0;
}

bool hr_thread_detached(void (*fn)(void *), void *arg)
{
    detached *d = malloc(sizeof *d);
    if (!d)
        return false;
    d->fn = fn;
    d->arg = arg;
    HANDLE h = CreateThread(NULL, 0, run_detached, d, 0, NULL);
    if (!h) {
        free(d);
        return false;
    }
    CloseHandle(h); /* the thread runs on; its object goes when it ends */
    return true;
}

struct hr_event {
    HANDLE h; /* manual-reset */
};

hr_event *hr_event_new(void)
{
    hr_event *e = malloc(sizeof *e);
    if (!e)
        return NULL;
    e->h = CreateEventA(NULL, TRUE, FALSE, NULL);
    if (!e->h) {
        free(e);
        return NULL;
    }
    return e;
}

void hr_event_set(hr_event *e)
{
    SetEvent(e->h);
}

bool hr_event_wait(hr_event *e, int64_t deadline_ms)
{
    int64_t left = deadline_ms - hr_platform_mono_ms();
    DWORD ms = left <= 0 ? 0 : left >= INFINITE ? INFINITE - 1 : (DWORD)left;
    return WaitForSingleObject(e->h, ms) == WAIT_OBJECT_0;
}

void hr_event_free(hr_event *e)
{
    if (!e)
        return;
    CloseHandle(e->h);
    free(e);
}
