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
