/* headroom — a host name resolved by a deadline (platform.h, hr_net_resolve), written once
 * over the platform's threads; the lookup itself is the OS's (hr_net_lookup). */
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

/* The caller and the resolver each hold a reference; the last one frees. A resolver given
 * up on ends when its lookup does, and frees what it found. */
typedef struct resolve_job {
    hr_lock *lock;
    hr_event *done;
    int refs;
    int code;
    void *res;
    char host[256];
    char service[16];
} resolve_job;

static void job_put(resolve_job *j)
{
    hr_lock_take(j->lock);
    bool last = --j->refs == 0;
    hr_lock_give(j->lock);
    if (!last)
        return;
    if (j->res)
        hr_net_lookup_free(j->res);
    hr_event_free(j->done);
    hr_lock_free(j->lock);
    free(j);
}

static void resolve_run(void *p)
{
    resolve_job *j = p;
    void *res = NULL;
    int code = hr_net_lookup(j->host, j->service, false, &res);
    hr_lock_take(j->lock);
    j->code = code;
    j->res = res;
    hr_lock_give(j->lock);
    hr_event_set(j->done);
    job_put(j);
}

int hr_net_resolve(const char *host, const char *service, int64_t deadline_ms, void **res, int *code)
{
    *res = NULL;
    *code = 0;
    /* an address needs no resolver: answered at once, on this thread */
    if (hr_net_lookup(host, service, true, res) == 0 && *res)
        return 0;
    *res = NULL;
    if (strlen(host) >= sizeof((resolve_job *)0)->host || strlen(service) >= sizeof((resolve_job *)0)->service)
        return HR_EINVAL;
    resolve_job *j = calloc(1, sizeof *j);
    if (!j)
        return HR_ENOMEM;
    j->lock = hr_lock_new();
    j->done = hr_event_new();
    if (!j->lock || !j->done) {
        hr_event_free(j->done);
        hr_lock_free(j->lock);
        free(j);
        return HR_ENOMEM;
    }
    j->refs = 2;
    memcpy(j->host, host, strlen(host) + 1);
    memcpy(j->service, service, strlen(service) + 1);
    if (!hr_thread_detached(resolve_run, j)) {
        j->refs = 1;
        job_put(j);
        return HR_EINTERNAL;
    }
    int rc = HR_EBUSY;
    if (hr_event_wait(j->done, deadline_ms)) {
        hr_lock_take(j->lock);
        rc = j->code == 0 && j->res ? 0 : HR_ENOENT;
        *code = j->code;
        *res = j->res;
        j->res = NULL; /* the caller's now */
        hr_lock_give(j->lock);
    }
    job_put(j);
    return rc;
}
