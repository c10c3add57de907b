/* headroom — Windows: one TCP connection with timeouts (platform.h, watch --comfyui).
 * Winsock, non-blocking sockets waited on with select(), so no call outlasts its timeout. */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

#include "platform/platform.h"

#include "core/base/i18n.h"

#include <stdio.h>
#include <string.h>

static bool wsa_ready(void)
{
    static int state; /* 0 not tried, 1 ready, -1 failed */
    if (state == 0) {
        WSADATA d;
        state = WSAStartup(MAKEWORD(2, 2), &d) == 0 ? 1 : -1;
    }
    return state == 1;
}

static int wsa_err(hr_sock *s, int e, hr_error *err)
{
    char text[256] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, (DWORD)e,
                             MAKELANGID(LANG_ENGLISH, SUBLANG_DEFAULT), text, sizeof text, NULL);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '.'))
        text[--n] = '\0';
    if (n == 0)
        snprintf(text, sizeof text, HR_T("Winsock error %d"), e);
    int code = e == WSAEACCES ? HR_EACCES : HR_EIO;
    return hr_error_set(err, code, "%s: %s", s->peer, text);
}

/* 1 ready, 0 timed out, -1 error (failed: the socket's error in *soerr, for connect) */
static int wait_sock(SOCKET fd, bool write, int timeout_ms)
{
    fd_set rs, ws, es;
    FD_ZERO(&rs);
    FD_ZERO(&ws);
    FD_ZERO(&es);
    if (write)
        FD_SET(fd, &ws);
    else
        FD_SET(fd, &rs);
    FD_SET(fd, &es);
    struct timeval tv = { .tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000 };
    if (timeout_ms < 0)
        tv.tv_sec = 0, tv.tv_usec = 0;
    int r = select(0, &rs, &ws, &es, &tv);
    if (r == SOCKET_ERROR)
        return -1;
    if (r == 0)
        return 0;
    return FD_ISSET(fd, &es) && !FD_ISSET(fd, &ws) && !FD_ISSET(fd, &rs) ? -1 : 1;
}

static int timed_out(hr_sock *s, int timeout_ms, hr_error *err)
{
    return hr_error_set(err, HR_EBUSY, HR_T("%s: no answer within %d ms"), s->peer, timeout_ms);
}

static void stream_hints(struct addrinfo *h, int flags)
{
    memset(h, 0, sizeof *h);
    h->ai_family = AF_UNSPEC;
    h->ai_socktype = SOCK_STREAM;
    h->ai_protocol = IPPROTO_TCP;
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
    if (!wsa_ready())
        return hr_error_set(err, HR_ENOTSUP, HR_T("%s: Winsock did not start"), s->peer);
    char service[16];
    snprintf(service, sizeof service, "%u", port);
    DWORD start = GetTickCount();
    void *found = NULL;
    int g = 0;
    int r0 = hr_net_resolve(host, service, hr_platform_mono_ms() + timeout_ms, &found, &g);
    if (r0 == HR_EBUSY)
        return hr_error_set(err, HR_EBUSY, HR_T("%s: the name was not resolved within %d ms"), s->peer, timeout_ms);
    if (r0 != 0)
        return hr_error_set(err, HR_ENOENT, HR_T("%s: the host is not known (%s)"), s->peer, "getaddrinfo");
    struct addrinfo *res = found;
    int last = WSAECONNREFUSED;
    bool timeout = false;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        SOCKET fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd == INVALID_SOCKET) {
            last = WSAGetLastError();
            continue;
        }
        u_long nb = 1;
        ioctlsocket(fd, FIONBIO, &nb);
        if (connect(fd, a->ai_addr, (int)a->ai_addrlen) == 0) {
            s->h = (intptr_t)fd;
            break;
        }
        int e = WSAGetLastError();
        if (e != WSAEWOULDBLOCK) {
            last = e;
            closesocket(fd);
            continue;
        }
        int left = timeout_ms - (int)(GetTickCount() - start);
        int r = wait_sock(fd, true, left > 0 ? left : 0);
        if (r == 0) {
            closesocket(fd);
            timeout = true;
            break;
        }
        int soerr = 0;
        int sl = sizeof soerr;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, (char *)&soerr, &sl);
        if (r < 0 || soerr != 0) {
            last = soerr ? soerr : WSAECONNREFUSED;
            closesocket(fd);
            continue;
        }
        s->h = (intptr_t)fd;
        break;
    }
    freeaddrinfo(res);
    if (s->h == -1)
        return timeout ? timed_out(s, timeout_ms, err) : wsa_err(s, last, err);
    return 0;
}

int hr_net_send(hr_sock *s, const void *p, size_t n, int timeout_ms, hr_error *err)
{
    const char *c = p;
    DWORD start = GetTickCount();
    while (n > 0) {
        int chunk = n > 65536 ? 65536 : (int)n;
        int w = send((SOCKET)s->h, c, chunk, 0);
        if (w > 0) {
            c += w;
            n -= (size_t)w;
            continue;
        }
        int e = WSAGetLastError();
        if (e != WSAEWOULDBLOCK)
            return wsa_err(s, e, err);
        int left = timeout_ms - (int)(GetTickCount() - start);
        if (left <= 0 || wait_sock((SOCKET)s->h, true, left) == 0)
            return timed_out(s, timeout_ms, err);
    }
    return 0;
}

int hr_net_recv(hr_sock *s, void *p, size_t n, int timeout_ms, hr_error *err)
{
    int want = n > 1 << 30 ? 1 << 30 : (int)n;
    for (int round = 0; round < 2; round++) {
        int r = recv((SOCKET)s->h, p, want, 0);
        if (r >= 0)
            return r;
        int e = WSAGetLastError();
        if (e != WSAEWOULDBLOCK)
            return wsa_err(s, e, err);
        if (round == 1)
            break;
        int w = wait_sock((SOCKET)s->h, false, timeout_ms);
        if (w == 0)
            return timed_out(s, timeout_ms, err);
        if (w < 0)
            return wsa_err(s, WSAGetLastError(), err);
    }
    return timed_out(s, timeout_ms, err);
}

void hr_net_close(hr_sock *s)
{
    if (s->h != -1)
        closesocket((SOCKET)s->h);
    s->h = -1;
}
