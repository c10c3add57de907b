/* headroom — a small HTTP/1.1 and RFC 6455 websocket client's wire format, for watching
 * ComfyUI (`watch --comfyui URL`): URLs, requests, responses, websocket frames and the
 * handshake key. Pure: bytes in, structures out; the sockets are the platform's. Everything
 * read from the peer is bounded and fuzzed (tests/fuzz/fuzz_net.c): a hostile or broken
 * server gives an error, never a crash or an unbounded allocation. */
#ifndef HR_NET_H
#define HR_NET_H

#include "core/base/buf.h"
#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_NET_HOST_MAX   256
#define HR_NET_PATH_MAX   1024
#define HR_HTTP_HEAD_MAX  16384 /* status line + headers */
#define HR_WS_PAYLOAD_MAX ((uint64_t)16 << 20)

/* "http://host[:port][/path]" (also "ws://"; an IPv6 host in brackets). Default port 80. */
typedef struct hr_url {
    char host[HR_NET_HOST_MAX];
    unsigned port;
    char path[HR_NET_PATH_MAX]; /* "/" when none */
} hr_url;

int hr_url_parse(const char *text, hr_url *out, hr_error *err);

/* A request with Host, Content-Length and Connection: close (body NULL: none). */
void hr_http_request(hr_buf *out, const char *method, const hr_url *u, const char *path, const char *content_type,
                     const char *body);

typedef struct hr_http_response {
    int status; /* 200 */
    bool chunked;
    int64_t content_length; /* -1: not given */
    bool upgrade_websocket; /* Upgrade: websocket */
    char ws_accept[64];     /* Sec-WebSocket-Accept */
    size_t head_len;        /* bytes of the status line and headers, CRLFCRLF included */
    const char *body;       /* into the caller's buffer (chunked: decoded in place) */
    size_t body_len;
} hr_http_response;

/* Parse a response held whole or in part in buf[0..len). The body is complete when the
 * Content-Length is there, the last chunk came, or (neither given) eof is true. Returns 1
 * when complete, 0 when more bytes are needed, a negative code on malformed input
 * (HR_EPARSE, HR_ETOOBIG) with err saying what. A 101 answer is complete after its head.
 * Chunked bodies are decoded in place once they are whole (buf is changed only on 1), so an
 * answer that arrives in several reads is parsed again from its own bytes. */
int hr_http_parse(char *buf, size_t len, bool eof, hr_http_response *out, hr_error *err);

/* ---- websocket (RFC 6455) ---- */
enum { HR_WS_CONT = 0x0, HR_WS_TEXT = 0x1, HR_WS_BINARY = 0x2, HR_WS_CLOSE = 0x8, HR_WS_PING = 0x9, HR_WS_PONG = 0xA };

typedef struct hr_ws_frame {
    bool fin;
    int opcode;
    bool masked;   /* never true on success: a server does not mask */
    char *payload; /* into the caller's buffer */
    uint64_t len;
} hr_ws_frame;

/* One frame from the server in buf[0..len): returns the bytes it took (> 0), 0 when more
 * are needed, or a negative code (reserved bits, unknown opcode, a control frame over 125
 * bytes or split, a payload over HR_WS_PAYLOAD_MAX, a masked frame: RFC 6455 5.1, only a
 * client masks). */
int64_t hr_ws_parse(char *buf, size_t len, hr_ws_frame *f, hr_error *err);

/* A client frame (always masked with key; RFC 6455 5.3). */
void hr_ws_frame_write(hr_buf *out, int opcode, const void *payload, size_t n, const unsigned char key[4]);

/* The handshake: a request for path with the 16-byte nonce's base64 key, and the accept value
 * the server must answer (base64 of SHA-1 of key + the RFC's GUID). */
void hr_ws_key(const unsigned char nonce[16], char out[25]);
void hr_ws_accept_for(const char *key, char out[29]);
void hr_ws_handshake(hr_buf *out, const hr_url *u, const char *path, const char *key);

/* SHA-1 and base64, for the handshake. */
void hr_sha1(const void *data, size_t n, unsigned char out[20]);
void hr_base64(const unsigned char *in, size_t n, char *out, size_t outn);

#endif
