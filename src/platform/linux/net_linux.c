/* headroom — Linux: one TCP connection with timeouts (platform.h, watch --comfyui).
 * Non-blocking sockets waited on with poll(), so no call outlasts its timeout. */
#include "platform/platform.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int sys_err(hr_sock *s, int e, hr_error *err)
{
    int code = e == ECONNREFUSED || e == EHOSTUNREACH || e == ENETUNREACH || e == ECONNRESET || e == EPIPE
                   ? HR_EIO
                   : hr_error_from_errno(e);
    return hr_error_set(err, code, "%s: %s", s->peer, strerror(e));
}

static bool would_block(int e)
{
#if EAGAIN == EWOULDBLOCK
    return e == EAGAIN;
#else
    return e == EAGAIN || e == EWOULDBLOCK;
#endif
}

static int wait_fd(int fd, short ev, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = ev };
    for (;;) {
        int r = poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms);
        if (r < 0 && errno == EINTR)
            continue;
        return r;
    }
}

/* A name resolved on a thread of its own, so that a DNS server that never answers holds
 * nobody past the connection's deadline: getaddrinfo() has no timeout, and the resolver's
 * own (resolv.conf: timeout x attempts) can be a minute. The caller and the resolver each
 * hold a reference; the last one frees. A resolver given up on ends when its lookup does. */
typedef struct resolve_job {
    pthread_mutex_t m;
    pthread_cond_t done_cv;
    int refs;
    bool done;
    int rc;
    struct addrinfo *res;
    char host[256];
    char service[16];
} resolve_job;

static void job_put(resolve_job *j)
{
    pthread_mutex_lock(&j->m);
    bool last = --j->refs == 0;
    pthread_mutex_unlock(&j->m);
    if (!last)
        return;
    if (j->res)
        freeaddrinfo(j->res);
    pthread_cond_destroy(&j->done_cv);
    pthread_mutex_destroy(&j->m);
    free(j);
}

static void stream_hints(struct addrinfo *h, int flags)
{
    memset(h, 0, sizeof *h);
    h->ai_family = AF_UNSPEC;
    h->ai_socktype = SOCK_STREAM;
    h->ai_flags = flags;
}

static void *resolve_run(void *p)
{
    resolve_job *j = p;
    struct addrinfo hints, *res = NULL;
    stream_hints(&hints, 0);
    int rc = getaddrinfo(j->host, j->service, &hints, &res);
    pthread_mutex_lock(&j->m);
    j->rc = rc;
    j->res = res;
    j->done = true;
    pthread_cond_signal(&j->done_cv);
    pthread_mutex_unlock(&j->m);
    job_put(j);
    return NULL;
}

/* 0 and *res; 1 when the name is not known (getaddrinfo's code in *gai); HR_EBUSY when no
 * answer came by the deadline. */
static int resolve(const char *host, const char *service, int64_t deadline, struct addrinfo **res, int *gai)
{
    *res = NULL;
    *gai = 0;
    /* an address needs no resolver: answered at once, on this thread */
    struct addrinfo hints;
    stream_hints(&hints, AI_NUMERICHOST);
    int g = getaddrinfo(host, service, &hints, res);
    if (g == 0)
        return 0;
    if (strlen(host) >= sizeof((resolve_job *)0)->host) {
        *gai = EAI_NONAME;
        return 1;
    }
    resolve_job *j = calloc(1, sizeof *j);
    if (!j) {
        *gai = EAI_MEMORY;
        return 1;
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->done_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&j->m, NULL);
    j->refs = 2;
    snprintf(j->host, sizeof j->host, "%s", host);
    snprintf(j->service, sizeof j->service, "%s", service);
    pthread_attr_t ta;
    pthread_attr_init(&ta);
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    /* signals are the sampling thread's business, never the resolver's */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int c = pthread_create(&t, &ta, resolve_run, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&ta);
    if (c != 0) {
        j->refs = 1;
        job_put(j);
        *gai = EAI_AGAIN;
        return 1;
    }
    int rc = HR_EBUSY;
    struct timespec until = { .tv_sec = (time_t)(deadline / 1000), .tv_nsec = (long)(deadline % 1000) * 1000000L };
    pthread_mutex_lock(&j->m);
    while (!j->done && pthread_cond_timedwait(&j->done_cv, &j->m, &until) == 0)
        ;
    if (j->done) {
        rc = j->rc == 0 && j->res ? 0 : 1;
        *gai = j->rc;
        *res = j->res;
        j->res = NULL; /* the caller's now */
    }
    pthread_mutex_unlock(&j->m);
    job_put(j);
    return rc;
}

int hr_net_connect(hr_sock *s, const char *host, unsigned port, int timeout_ms, hr_error *err)
{
    s->h = -1;
    bool v6 = strchr(host, ':') != NULL;
    snprintf(s->peer, sizeof s->peer, "%s%s%s:%u", v6 ? "[" : "", host, v6 ? "]" : "", port);
    char service[16];
    snprintf(service, sizeof service, "%u", port);
    int64_t deadline = now_ms() + timeout_ms;
    struct addrinfo *res = NULL;
    int g = 0;
    int r0 = resolve(host, service, deadline, &res, &g);
    if (r0 == HR_EBUSY)
        return hr_error_set(err, HR_EBUSY, HR_T("%s: the name was not resolved within %d ms"), s->peer, timeout_ms);
    if (r0 != 0 || !res) {
        if (res)
            freeaddrinfo(res);
        return hr_error_set(err, HR_ENOENT, HR_T("%s: the host is not known (%s)"), s->peer, gai_strerror(g));
    }
    int last = ECONNREFUSED;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            last = errno;
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            s->h = fd;
            break;
        }
        if (errno != EINPROGRESS) {
            last = errno;
            close(fd);
            continue;
        }
        int64_t left = deadline - now_ms();
        int r = wait_fd(fd, POLLOUT, (int)(left > 0 ? left : 0));
        if (r == 0) {
            close(fd);
            last = ETIMEDOUT;
            break;
        }
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr != 0) {
            last = r < 0 ? errno : soerr ? soerr : EIO;
            close(fd);
            continue;
        }
        s->h = fd;
        break;
    }
    freeaddrinfo(res);
    if (s->h < 0) {
        if (last == ETIMEDOUT)
            return hr_error_set(err, HR_EBUSY, HR_T("%s: no answer within %d ms"), s->peer, timeout_ms);
        return sys_err(s, last, err);
    }
    return 0;
}

int hr_net_send(hr_sock *s, const void *p, size_t n, int timeout_ms, hr_error *err)
{
    const char *c = p;
    int64_t deadline = now_ms() + timeout_ms;
    while (n > 0) {
        ssize_t w = send((int)s->h, c, n, MSG_NOSIGNAL);
        if (w > 0) {
            c += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && !would_block(errno))
            return sys_err(s, errno, err);
        int64_t left = deadline - now_ms();
        if (left <= 0 || wait_fd((int)s->h, POLLOUT, (int)left) == 0)
            return hr_error_set(err, HR_EBUSY, HR_T("%s: no answer within %d ms"), s->peer, timeout_ms);
    }
    return 0;
}

int hr_net_recv(hr_sock *s, void *p, size_t n, int timeout_ms, hr_error *err)
{
    if (n > INT32_MAX)
        n = INT32_MAX;
    for (;;) {
        ssize_t r = recv((int)s->h, p, n, 0);
        if (r >= 0)
            return (int)r;
        if (errno == EINTR)
            continue;
        if (!would_block(errno))
            return sys_err(s, errno, err);
        int w = wait_fd((int)s->h, POLLIN, timeout_ms);
        if (w == 0)
            return hr_error_set(err, HR_EBUSY, HR_T("%s: no answer within %d ms"), s->peer, timeout_ms);
        if (w < 0)
            return sys_err(s, errno, err);
        timeout_ms = 0; /* readable now: read once more, never wait twice */
    }
}

void hr_net_close(hr_sock *s)
{
    if (s->h >= 0)
        close((int)s->h);
    s->h = -1;
}
