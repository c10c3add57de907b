/* headroom — Linux: a helper thread and a lock (platform.h), on POSIX threads. */
#include "platform/platform.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

struct hr_thread {
    pthread_t id;
    pthread_mutex_t m;
    void (*fn)(void *);
    void *arg;
    int done;
};

struct hr_lock {
    pthread_mutex_t m;
};

static void *run(void *p)
{
    hr_thread *t = p;
    t->fn(t->arg);
    pthread_mutex_lock(&t->m);
    t->done = 1;
    pthread_mutex_unlock(&t->m);
    return NULL;
}

hr_thread *hr_thread_start(void (*fn)(void *), void *arg)
{
    hr_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->fn = fn;
    t->arg = arg;
    pthread_mutex_init(&t->m, NULL);
    if (pthread_create(&t->id, NULL, run, t) != 0) {
        pthread_mutex_destroy(&t->m);
        free(t);
        return NULL;
    }
    return t;
}

bool hr_thread_join(hr_thread *t, int timeout_ms)
{
    for (int waited = 0;; waited += 5) {
        pthread_mutex_lock(&t->m);
        int done = t->done;
        pthread_mutex_unlock(&t->m);
        if (done)
            break;
        if (waited >= timeout_ms) {
            pthread_detach(t->id); /* it ends with the process */
            return false;
        }
        struct timespec ts = { 0, 5 * 1000000L };
        nanosleep(&ts, NULL);
    }
    pthread_join(t->id, NULL);
    pthread_mutex_destroy(&t->m);
    free(t);
    return true;
}

hr_lock *hr_lock_new(void)
{
    hr_lock *l = malloc(sizeof *l);
    if (l)
        pthread_mutex_init(&l->m, NULL);
    return l;
}

void hr_lock_take(hr_lock *l)
{
    if (l)
        pthread_mutex_lock(&l->m);
}

void hr_lock_give(hr_lock *l)
{
    if (l)
        pthread_mutex_unlock(&l->m);
}

void hr_lock_free(hr_lock *l)
{
    if (l) {
        pthread_mutex_destroy(&l->m);
        free(l);
    }
}

typedef struct detached {
    void (*fn)(void *);
    void *arg;
} detached;

static void *run_detached(void *p)
{
    detached d = *(detached *)p;
    free(p);
    d.fn(d.arg);
    return NULL;
}

bool hr_thread_detached(void (*fn)(void *), void *arg)
{
    detached *d = malloc(sizeof *d);
    if (!d)
        return false;
    d->fn = fn;
    d->arg = arg;
    pthread_attr_t ta;
    if (pthread_attr_init(&ta) != 0) {
        free(d);
        return false;
    }
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    /* signals are the sampling thread's business: the new thread starts with all blocked */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int c = pthread_create(&t, &ta, run_detached, d);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&ta);
    if (c != 0)
        free(d);
    return c == 0;
}

struct hr_event {
    pthread_mutex_t m;
    pthread_cond_t cv; /* on CLOCK_MONOTONIC, hr_platform_mono_ms's clock */
    bool set;
};

hr_event *hr_event_new(void)
{
    hr_event *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&e->m, NULL);
    return e;
}

void hr_event_set(hr_event *e)
{
    pthread_mutex_lock(&e->m);
    e->set = true;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->m);
}

bool hr_event_wait(hr_event *e, int64_t deadline_ms)
{
    struct timespec until = { .tv_sec = (time_t)(deadline_ms / 1000),
                              .tv_nsec = (long)(deadline_ms % 1000) * 1000000L };
    pthread_mutex_lock(&e->m);
    while (!e->set && pthread_cond_timedwait(&e->cv, &e->m, &until) == 0)
        ;
    bool set = e->set;
    pthread_mutex_unlock(&e->m);
    return set;
}

void hr_event_free(hr_event *e)
{
    if (!e)
        return;
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->m);
    free(e);
}
