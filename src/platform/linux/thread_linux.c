/* headroom — Linux: a helper thread and a lock (platform.h), on POSIX threads. */
#include "platform/platform.h"

#include <pthread.h>
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
