/* headroom — a small HTTP/1.1 and websocket client (platform.h), written once over the
 * platform's sockets; the wire format and its checks are the core's (core/net/net.h). Every
 * read is bounded by its buffer's cap and every wait by a deadline. */
#include "platform/platform.h"

#include "core/base/i18n.h"

#include <string.h>

#define READ_CHUNK 16384

static int left_ms(int64_t deadline)
{
    int64_t l = deadline - hr_platform_mono_ms();
    return l <= 0 ? 0 : l > INT32_MAX ? INT32_MAX : (int)l;
}

/* Read into b until the answer's head (and body, unless head_only) is whole. */
static int read_answer(hr_sock *s, hr_buf *b, bool head_only, int64_t deadline, int timeout_ms, hr_http_response *out,
                       hr_error *err)
{
    for (;;) {
        size_t room = b->max ? b->max - b->len : READ_CHUNK;
        if (room == 0)
            return hr_error_set(err, HR_ETOOBIG, HR_T("%s: the answer is larger than %zu bytes"), s->peer, b->max);
        size_t want = room < READ_CHUNK ? room : READ_CHUNK;
        /* make room without a temporary: grow by appending, then shrink back */
        size_t before = b->len;
        static const char zeros[READ_CHUNK];
        if (hr_buf_append(b, zeros, want) != 0)
            return hr_error_set(err, hr_buf_error(b), HR_T("%s: the answer is larger than %zu bytes"), s->peer, b->max);
        b->len = before;
        int left = left_ms(deadline);
        int r = hr_net_recv(s, b->data + before, want, left, err);
        if (r == HR_EBUSY)
            return hr_error_set(err, HR_EBUSY, HR_T("%s: no answer within %d ms"), s->peer, timeout_ms);
        if (r < 0)
            return r;
        b->len = before + (size_t)r;
        b->data[b->len] = '\0';
        bool eof = r == 0;
        hr_error perr = { 0 };
        int p = hr_http_parse(b->data, b->len, eof, out, &perr);
        if (p < 0)
            return hr_error_set(err, p, "%s: %s", s->peer, perr.msg);
        if (p == 1 || (head_only && out->head_len > 0))
            return 0;
        if (eof)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: the connection closed early"), s->peer);
    }
}

int hr_http_do(const hr_url *u, const char *method, const char *path, const char *body, int timeout_ms, hr_buf *resp,
               hr_http_response *out, hr_error *err)
{
    int64_t deadline = hr_platform_mono_ms() + timeout_ms;
    memset(out, 0, sizeof *out);
    hr_buf_reset(resp);
    hr_buf req;
    hr_buf_init(&req, (size_t)1 << 20);
    hr_http_request(&req, method, u, path, body ? "application/json" : NULL, body);
    if (hr_buf_error(&req)) {
        hr_buf_free(&req);
        return hr_error_set(err, HR_ETOOBIG, HR_T("%s %s: the request is too large"), method, path);
    }
    hr_sock s;
    int rc = hr_net_connect(&s, u->host, u->port, timeout_ms, err);
    if (rc == 0)
        rc = hr_net_send(&s, req.data, req.len, left_ms(deadline), err);
    if (rc == 0)
        rc = read_answer(&s, resp, false, deadline, timeout_ms, out, err);
    hr_net_close(&s);
    hr_buf_free(&req);
    return rc;
}

/* ---- websocket ---- */
static uint64_t next_rand(uint64_t *st)
{
    /* splitmix64: the mask and the key need to be unpredictable to a cache in the path, not
     * secret (RFC 6455 10.3) */
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int send_frame(hr_ws_client *c, int opcode, const void *p, size_t n, int timeout_ms, hr_error *err)
{
    uint64_t r = next_rand(&c->rng);
    unsigned char key[4] = { (unsigned char)r, (unsigned char)(r >> 8), (unsigned char)(r >> 16),
                             (unsigned char)(r >> 24) };
    hr_buf_reset(&c->out);
    hr_ws_frame_write(&c->out, opcode, p, n, key);
    if (hr_buf_error(&c->out))
        return hr_error_set(err, HR_ETOOBIG, HR_T("websocket: frame too large"));
    return hr_net_send(&c->s, c->out.data, c->out.len, timeout_ms, err);
}

int hr_ws_open(hr_ws_client *c, const hr_url *u, const char *path, int timeout_ms, hr_error *err)
{
    memset(c, 0, sizeof *c);
    c->s.h = -1;
    hr_buf_init(&c->in, (size_t)HR_WS_PAYLOAD_MAX + 64);
    hr_buf_init(&c->msg, (size_t)HR_WS_PAYLOAD_MAX);
    hr_buf_init(&c->out, 4096);
    c->rng = (uint64_t)hr_platform_wall_ms() * 1000003u ^ (uint64_t)hr_platform_mono_ms() ^ (uint64_t)(uintptr_t)c;
    int64_t deadline = hr_platform_mono_ms() + timeout_ms;
    unsigned char nonce[16];
    for (int i = 0; i < 2; i++) {
        uint64_t r = next_rand(&c->rng);
        memcpy(nonce + 8 * i, &r, 8);
    }
    char key[25], want[29];
    hr_ws_key(nonce, key);
    hr_ws_accept_for(key, want);
    int rc = hr_net_connect(&c->s, u->host, u->port, timeout_ms, err);
    if (rc == 0) {
        hr_ws_handshake(&c->out, u, path, key);
        rc = hr_net_send(&c->s, c->out.data, c->out.len, left_ms(deadline), err);
    }
    hr_http_response resp;
    if (rc == 0)
        rc = read_answer(&c->s, &c->in, true, deadline, timeout_ms, &resp, err);
    if (rc == 0 && (resp.status != 101 || !resp.upgrade_websocket))
        rc = hr_error_set(err, HR_EPARSE, HR_T("%s: the server did not accept a websocket (HTTP %d)"), c->s.peer,
                          resp.status);
    if (rc == 0 && strcmp(resp.ws_accept, want) != 0)
        rc = hr_error_set(err, HR_EPARSE, HR_T("%s: a wrong Sec-WebSocket-Accept"), c->s.peer);
    if (rc != 0) {
        hr_ws_close(c);
        return rc;
    }
    /* frames may have come with the head */
    size_t rest = c->in.len - resp.head_len;
    memmove(c->in.data, c->in.data + resp.head_len, rest);
    c->in.len = rest;
    c->in.data[rest] = '\0';
    c->open = true;
    return 0;
}

/* Take the whole frames in c->in; 1 when the peer closed. A flood of pings gets one pong,
 * for the last of them (RFC 6455 5.5.3 allows it), sent without waiting: a peer that pings
 * and never reads cannot hold the reader. */
static int take_frames(hr_ws_client *c, hr_ws_msg_fn fn, void *ctx, int *count, hr_error *err)
{
    size_t pos = 0;
    int closed = 0;
    char ping[125];
    int ping_len = -1;
    while (pos < c->in.len) {
        hr_ws_frame f;
        int64_t n = hr_ws_parse(c->in.data + pos, c->in.len - pos, &f, err);
        if (n < 0)
            return (int)n;
        if (n == 0)
            break;
        pos += (size_t)n;
        if (f.opcode == HR_WS_PING) {
            memcpy(ping, f.payload, (size_t)f.len);
            ping_len = (int)f.len;
        } else if (f.opcode == HR_WS_CLOSE) {
            (void)send_frame(c, HR_WS_CLOSE, f.payload, f.len >= 2 ? 2 : 0, 100, err);
            closed = 1;
            break;
        } else if (f.opcode == HR_WS_PONG) {
            /* nothing asked */
        } else if (f.opcode == HR_WS_CONT || !f.fin) {
            if (f.opcode != HR_WS_CONT) {
                hr_buf_reset(&c->msg);
                c->msg_opcode = f.opcode;
            } else if (c->msg_opcode == 0) {
                return hr_error_set(err, HR_EPARSE, HR_T("websocket: a continuation without a start"));
            }
            if (hr_buf_append(&c->msg, f.payload, (size_t)f.len) != 0)
                return hr_error_set(err, HR_ETOOBIG, HR_T("websocket: a message over %llu bytes"),
                                    (unsigned long long)HR_WS_PAYLOAD_MAX);
            if (f.fin) {
                fn(ctx, c->msg_opcode, c->msg.data ? c->msg.data : "", c->msg.len);
                (*count)++;
                c->msg_opcode = 0;
                hr_buf_reset(&c->msg);
            }
        } else {
            fn(ctx, f.opcode, f.payload, (size_t)f.len);
            (*count)++;
        }
    }
    memmove(c->in.data, c->in.data + pos, c->in.len - pos);
    c->in.len -= pos;
    if (c->in.data)
        c->in.data[c->in.len] = '\0';
    if (ping_len >= 0 && !closed && send_frame(c, HR_WS_PONG, ping, (size_t)ping_len, 0, err) != 0)
        return HR_EIO;
    return closed;
}

int hr_ws_poll(hr_ws_client *c, int timeout_ms, hr_ws_msg_fn fn, void *ctx, hr_error *err)
{
    if (!c->open)
        return hr_error_set(err, HR_EIO, HR_T("websocket: not open"));
    int count = 0;
    int t = take_frames(c, fn, ctx, &count, err); /* left over from the handshake */
    int64_t deadline = hr_platform_mono_ms() + timeout_ms;
    while (t == 0) {
        static const char zeros[READ_CHUNK];
        size_t before = c->in.len;
        if (hr_buf_append(&c->in, zeros, READ_CHUNK) != 0) {
            t = hr_error_set(err, HR_ETOOBIG, HR_T("websocket: a frame over %llu bytes"),
                             (unsigned long long)HR_WS_PAYLOAD_MAX);
            break;
        }
        c->in.len = before;
        int r = hr_net_recv(&c->s, c->in.data + before, READ_CHUNK, count ? 0 : left_ms(deadline), err);
        if (r == HR_EBUSY) {
            c->in.data[c->in.len] = '\0';
            hr_error_clear(err);
            return count;
        }
        if (r <= 0) {
            t = r == 0 ? hr_error_set(err, HR_EIO, HR_T("%s: the websocket was closed"), c->s.peer) : r;
            break;
        }
        c->in.len = before + (size_t)r;
        c->in.data[c->in.len] = '\0';
        t = take_frames(c, fn, ctx, &count, err);
        /* the budget: a peer that never stops sending (pings, text, empty continuation
         * frames) gets the rest of its turn at the next call */
        if (t == 0 && hr_platform_mono_ms() >= deadline)
            return count;
    }
    if (t == 1)
        t = hr_error_set(err, HR_EIO, HR_T("%s: the websocket was closed"), c->s.peer);
    hr_ws_close(c);
    return t;
}

void hr_ws_close(hr_ws_client *c)
{
    hr_net_close(&c->s);
    hr_buf_free(&c->in);
    hr_buf_free(&c->msg);
    hr_buf_free(&c->out);
    c->open = false;
}
