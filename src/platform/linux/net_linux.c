/* headroom — Linux: one TCP connection with timeouts (platform.h, watch --comfyui).
 * Non-blocking sockets waited on with poll(), so no call outlasts its timeout. */
#include "platform/platform.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
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

static void stream_hints(struct addrinfo *h, int flags)
{
    memset(h, 0, sizeof *h);
    h->ai_family = AF_UNSPEC;
    h->ai_socktype = SOCK_STREAM;
    h->ai_flags = flags;
}

int hr_net_lookup(const char *host, const char *service, bool numeric, void **res)
{
    struct addrinfo hints, *r = NULL;
    stream_hints(&hints, numeric ? AI_NUMERICHOST : 0);
    int g = getaddrinfo(host, service, &hints, &r);
    *res = g == 0 ? r : NULL;
    return g;
}

void hr_net_lookup_free(void *res)
{
    if (res)
        freeaddrinfo(res);
}

int hr_net_connect(hr_sock *s, const char *host, unsigned port, int timeout_ms, hr_error *err)
{
    s->h = -1;
    bool v6 = strchr(host, ':') != NULL;
    snprintf(s->peer, sizeof s->peer, "%s%s%s:%u", v6 ? "[" : "", host, v6 ? "]" : "", port);
    char service[16];
    snprintf(service, sizeof service, "%u", port);
    int64_t deadline = now_ms() + timeout_ms;
    void *found = NULL;
    int g = 0;
    int r0 = hr_net_resolve(host, service, deadline, &found, &g);
    if (r0 == HR_EBUSY)
        return hr_error_set(err, HR_EBUSY, HR_T("%s: the name was not resolved within %d ms"), s->peer, timeout_ms);
    if (r0 != 0) {
        if (!g)
            g = r0 == HR_EINVAL ? EAI_NONAME : r0 == HR_ENOMEM ? EAI_MEMORY : EAI_AGAIN;
        return hr_error_set(err, HR_ENOENT, HR_T("%s: the host is not known (%s)"), s->peer, gai_strerror(g));
    }
    struct addrinfo *res = found;
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
