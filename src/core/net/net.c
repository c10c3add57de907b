/* headroom — HTTP/1.1 and websocket wire format (net.h). */
#include "core/net/net.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

/* Protocol text (not prose: never translated). */
static const char k_request_head[] = "User-Agent: headroom\r\nAccept: application/json\r\nConnection: close\r\n";
static const char k_content_head[] = "Content-Type: %s\r\nContent-Length: %zu\r\n";
static const char k_upgrade_head[] = "User-Agent: headroom\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n";

static int bad(hr_error *err, int code, const char *what)
{
    return hr_error_set(err, code, "HTTP: %s", what);
}

int hr_url_parse(const char *text, hr_url *u, hr_error *err)
{
    memset(u, 0, sizeof *u);
    const char *p = text;
    if (hr_str_istarts(p, "http://"))
        p += 7, u->port = 80;
    else if (hr_str_istarts(p, "ws://"))
        p += 5, u->port = 80;
    else if (hr_str_istarts(p, "https://") || hr_str_istarts(p, "wss://"))
        return hr_error_set(err, HR_ENOTSUP, HR_T("%s: https is not supported (ComfyUI serves http)"), text);
    else
        u->port = 80;
    const char *hs = p, *he;
    if (*p == '[') {
        he = strchr(p, ']');
        if (!he)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: an IPv6 host without ']'"), text);
        hs = p + 1;
        p = he + 1;
    } else {
        while (*p && *p != ':' && *p != '/')
            p++;
        he = p;
    }
    size_t hl = (size_t)(he - hs);
    if (hl == 0 || hl >= sizeof u->host)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: no host"), text);
    memcpy(u->host, hs, hl);
    if (*p == ':') {
        p++;
        unsigned long port = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 6)
            port = port * 10 + (unsigned long)(*p++ - '0'), digits++;
        if (digits == 0 || port == 0 || port > 65535)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: a bad port"), text);
        u->port = (unsigned)port;
    }
    if (*p && *p != '/')
        return hr_error_set(err, HR_EPARSE, HR_T("%s: unexpected '%c' after the host"), text, *p);
    if (strlen(*p ? p : "/") >= sizeof u->path)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: the path is too long"), text);
    hr_strlcpy(u->path, *p ? p : "/", sizeof u->path);
    for (const char *c = u->host; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == '/' || *c == '@')
            return hr_error_set(err, HR_EPARSE, HR_T("%s: a bad host"), text);
    return 0;
}

static void host_header(hr_buf *out, const hr_url *u)
{
    bool v6 = strchr(u->host, ':') != NULL;
    hr_buf_printf(out, "Host: %s%s%s", v6 ? "[" : "", u->host, v6 ? "]" : "");
    if (u->port != 80)
        hr_buf_printf(out, ":%u", u->port);
    hr_buf_puts(out, "\r\n");
}

void hr_http_request(hr_buf *out, const char *method, const hr_url *u, const char *path, const char *content_type,
                     const char *body)
{
    hr_buf_printf(out, "%s %s HTTP/1.1\r\n", method, path);
    host_header(out, u);
    hr_buf_puts(out, k_request_head);
    if (body) {
        hr_buf_printf(out, k_content_head, content_type ? content_type : "application/json", strlen(body));
    }
    hr_buf_puts(out, "\r\n");
    if (body)
        hr_buf_puts(out, body);
}

static bool header_is(const char *line, size_t n, const char *name, const char **value, size_t *vlen)
{
    size_t k = strlen(name);
    if (n <= k || line[k] != ':')
        return false;
    for (size_t i = 0; i < k; i++) {
        char a = line[i], b = name[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return false;
    }
    const char *v = line + k + 1;
    const char *e = line + n;
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *value = v;
    *vlen = (size_t)(e - v);
    return true;
}

static bool ci_contains(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++) {
        size_t j = 0;
        while (j < k) {
            char a = s[i + j];
            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (a != word[j])
                break;
            j++;
        }
        if (j == k)
            return true;
    }
    return false;
}

/* Chunked data: returns 1 complete, 0 more needed, < 0 malformed. Decoded in place only when
 * write is true; a caller scans first (write false) and decodes once the body is whole, so
 * that an answer that arrives in several reads is parsed again from the same bytes. */
static int dechunk(char *b, size_t n, size_t *out_len, bool write, hr_error *err)
{
    size_t r = 0, w = 0;
    for (;;) {
        uint64_t size = 0;
        size_t digits = 0;
        while (r < n && hr_hex_digit(b[r]) >= 0) {
            if (++digits > 15)
                return bad(err, HR_EPARSE, HR_T("a chunk size too large"));
            size = size * 16 + (uint64_t)hr_hex_digit(b[r++]);
        }
        /* extensions up to the line end */
        while (r < n && b[r] != '\n') {
            if (digits == 0)
                return bad(err, HR_EPARSE, HR_T("a chunk without a size"));
            r++;
        }
        if (r >= n)
            return 0;
        if (digits == 0)
            return bad(err, HR_EPARSE, HR_T("a chunk without a size"));
        r++; /* \n */
        if (size == 0) {
            *out_len = w;
            return 1; /* trailers are ignored */
        }
        if (size > n - r)
            return 0;
        if (write)
            memmove(b + w, b + r, (size_t)size);
        w += (size_t)size;
        r += (size_t)size;
        if (r < n && b[r] == '\r')
            r++;
        if (r >= n)
            return 0;
        if (b[r] != '\n')
            return bad(err, HR_EPARSE, HR_T("a chunk not followed by CRLF"));
        r++;
    }
}

int hr_http_parse(char *buf, size_t len, bool eof, hr_http_response *o, hr_error *err)
{
    memset(o, 0, sizeof *o);
    o->content_length = -1;
    /* the head ends at the first empty line */
    size_t he = 0;
    bool found = false;
    for (size_t i = 0; i + 1 < len && i < HR_HTTP_HEAD_MAX; i++) {
        if (buf[i] == '\n' && buf[i + 1] == '\n') {
            he = i + 2;
            found = true;
            break;
        }
        if (buf[i] == '\n' && i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
            he = i + 3;
            found = true;
            break;
        }
    }
    if (!found) {
        if (len >= HR_HTTP_HEAD_MAX)
            return bad(err, HR_ETOOBIG, HR_T("headers over 16 KB"));
        if (eof)
            return bad(err, HR_EPARSE, HR_T("the connection closed inside the headers"));
        return 0;
    }
    o->head_len = he;
    const char *cur = buf, *end = buf + he, *line;
    size_t n;
    bool first = true;
    while (hr_next_line(&cur, end, &line, &n)) {
        if (n && line[n - 1] == '\r')
            n--;
        if (first) {
            first = false;
            if (n < 12 || memcmp(line, "HTTP/1.", 7) != 0 || line[8] != ' ' || line[9] < '1' || line[9] > '5' ||
                line[10] < '0' || line[10] > '9' || line[11] < '0' || line[11] > '9')
                return bad(err, HR_EPARSE, HR_T("not an HTTP/1.x status line"));
            o->status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
            continue;
        }
        if (n == 0)
            break;
        const char *v;
        size_t vl;
        if (header_is(line, n, "content-length", &v, &vl)) {
            uint64_t cl;
            if (!hr_parse_u64(v, vl, &cl) || cl > ((uint64_t)1 << 40))
                return bad(err, HR_EPARSE, HR_T("a bad Content-Length"));
            if (o->content_length >= 0 && (uint64_t)o->content_length != cl)
                return bad(err, HR_EPARSE, HR_T("two different Content-Length"));
            o->content_length = (int64_t)cl;
        } else if (header_is(line, n, "transfer-encoding", &v, &vl)) {
            if (ci_contains(v, vl, "chunked"))
                o->chunked = true;
        } else if (header_is(line, n, "upgrade", &v, &vl)) {
            o->upgrade_websocket = ci_contains(v, vl, "websocket");
        } else if (header_is(line, n, "sec-websocket-accept", &v, &vl)) {
            if (vl >= sizeof o->ws_accept)
                return bad(err, HR_EPARSE, HR_T("a bad Sec-WebSocket-Accept"));
            memcpy(o->ws_accept, v, vl);
            o->ws_accept[vl] = '\0';
        }
    }
    if (first)
        return bad(err, HR_EPARSE, HR_T("no status line"));
    char *body = buf + he;
    size_t avail = len - he;
    o->body = body;
    if (o->status == 101 || o->status == 204 || o->status == 304 || (o->status >= 100 && o->status < 200))
        return 1;
    if (o->chunked) {
        size_t out_len = 0;
        int r = dechunk(body, avail, &out_len, false, err);
        if (r == 0 && eof)
            return bad(err, HR_EPARSE, HR_T("the connection closed inside a chunked body"));
        if (r <= 0)
            return r;
        (void)dechunk(body, avail, &out_len, true, err);
        o->body_len = out_len;
        return 1;
    }
    if (o->content_length >= 0) {
        if (avail < (uint64_t)o->content_length) {
            if (eof)
                return bad(err, HR_EPARSE, HR_T("the connection closed before Content-Length bytes"));
            return 0;
        }
        o->body_len = (size_t)o->content_length;
        return 1;
    }
    if (!eof)
        return 0;
    o->body_len = avail;
    return 1;
}

int64_t hr_ws_parse(char *buf, size_t len, hr_ws_frame *f, hr_error *err)
{
    memset(f, 0, sizeof *f);
    if (len < 2)
        return 0;
    unsigned char b0 = (unsigned char)buf[0], b1 = (unsigned char)buf[1];
    if (b0 & 0x70)
        return hr_error_set(err, HR_EPARSE, HR_T("websocket: reserved bits set"));
    f->fin = (b0 & 0x80) != 0;
    f->opcode = b0 & 0x0F;
    f->masked = (b1 & 0x80) != 0;
    /* RFC 6455 5.1: a client closes the connection on a masked frame from the server */
    if (f->masked)
        return hr_error_set(err, HR_EPARSE, HR_T("websocket: a masked frame from the server"));
    switch (f->opcode) {
    case HR_WS_CONT:
    case HR_WS_TEXT:
    case HR_WS_BINARY:
    case HR_WS_CLOSE:
    case HR_WS_PING:
    case HR_WS_PONG: break;
    default: return hr_error_set(err, HR_EPARSE, HR_T("websocket: unknown opcode %d"), f->opcode);
    }
    uint64_t plen = b1 & 0x7F;
    size_t pos = 2;
    if (plen == 126) {
        if (len < 4)
            return 0;
        plen = ((uint64_t)(unsigned char)buf[2] << 8) | (unsigned char)buf[3];
        pos = 4;
    } else if (plen == 127) {
        if (len < 10)
            return 0;
        plen = 0;
        for (int i = 0; i < 8; i++)
            plen = (plen << 8) | (unsigned char)buf[2 + i];
        pos = 10;
    }
    if (f->opcode >= HR_WS_CLOSE && (plen > 125 || !f->fin))
        return hr_error_set(err, HR_EPARSE, HR_T("websocket: a control frame over 125 bytes or split"));
    if (plen > HR_WS_PAYLOAD_MAX)
        return hr_error_set(err, HR_ETOOBIG, HR_T("websocket: a frame of %llu bytes"), (unsigned long long)plen);
    if (len - pos < plen)
        return 0;
    f->payload = buf + pos;
    f->len = plen;
    return (int64_t)(pos + plen);
}

void hr_ws_frame_write(hr_buf *out, int opcode, const void *payload, size_t n, const unsigned char key[4])
{
    unsigned char h[14];
    size_t hl = 0;
    h[hl++] = (unsigned char)(0x80 | (opcode & 0x0F));
    if (n < 126) {
        h[hl++] = (unsigned char)(0x80 | n);
    } else if (n <= 0xFFFF) {
        h[hl++] = 0x80 | 126;
        h[hl++] = (unsigned char)(n >> 8);
        h[hl++] = (unsigned char)n;
    } else {
        h[hl++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            h[hl++] = (unsigned char)((uint64_t)n >> (i * 8));
    }
    memcpy(h + hl, key, 4);
    hl += 4;
    hr_buf_append(out, h, hl);
    const unsigned char *p = payload;
    unsigned char chunk[256];
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k < sizeof chunk && i < n; k++, i++)
            chunk[k] = (unsigned char)(p[i] ^ key[i & 3]);
        hr_buf_append(out, chunk, k);
    }
}

/* ---- SHA-1 (FIPS 180-4), for the handshake only ---- */
static uint32_t rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char *b)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[i * 4] << 24 | (uint32_t)b[i * 4 + 1] << 16 | (uint32_t)b[i * 4 + 2] << 8 | b[i * 4 + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20)
            f = (bb & c) | (~bb & d), k = 0x5A827999;
        else if (i < 40)
            f = bb ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60)
            f = (bb & c) | (bb & d) | (c & d), k = 0x8F1BBCDC;
        else
            f = bb ^ c ^ d, k = 0xCA62C1D6;
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = t;
    }
    h[0] += a, h[1] += bb, h[2] += c, h[3] += d, h[4] += e;
}

void hr_sha1(const void *data, size_t n, unsigned char out[20])
{
    uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
    const unsigned char *p = data;
    size_t full = n / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        sha1_block(h, p + i);
    unsigned char last[128];
    size_t rest = n - full;
    memset(last, 0, sizeof last);
    memcpy(last, p + full, rest);
    last[rest] = 0x80;
    size_t total = rest + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++)
        last[total - 1 - i] = (unsigned char)(bits >> (i * 8));
    sha1_block(h, last);
    if (total == 128)
        sha1_block(h, last + 64);
    for (int i = 0; i < 5; i++) {
        out[i * 4] = (unsigned char)(h[i] >> 24);
        out[i * 4 + 1] = (unsigned char)(h[i] >> 16);
        out[i * 4 + 2] = (unsigned char)(h[i] >> 8);
        out[i * 4 + 3] = (unsigned char)h[i];
    }
}

void hr_base64(const unsigned char *in, size_t n, char *out, size_t outn)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 < outn; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = tab[(v >> 18) & 63];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    if (outn)
        out[o < outn ? o : outn - 1] = '\0';
}

void hr_ws_key(const unsigned char nonce[16], char out[25])
{
    hr_base64(nonce, 16, out, 25);
}

void hr_ws_accept_for(const char *key, char out[29])
{
    char cat[128];
    snprintf(cat, sizeof cat, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    unsigned char d[20];
    hr_sha1(cat, strlen(cat), d);
    hr_base64(d, 20, out, 29);
}

void hr_ws_handshake(hr_buf *out, const hr_url *u, const char *path, const char *key)
{
    hr_buf_printf(out, "GET %s HTTP/1.1\r\n", path);
    host_header(out, u);
    hr_buf_printf(out, k_upgrade_head, key);
}
