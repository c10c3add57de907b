/* The HTTP/websocket wire format: URLs, responses whole and in pieces (Content-Length,
 * chunked, until close, 101), the handshake's accept key (RFC 6455's own example), SHA-1,
 * frames both ways and the refusals. */
#include "core/net/net.h"
#include "test.h"

#include <stdlib.h>

static void test_url(void)
{
    hr_url u;
    hr_error err = { 0 };
    CHECK(hr_url_parse("http://127.0.0.1:8188", &u, &err) == 0);
    CHECK_STR(u.host, "127.0.0.1");
    CHECK_EQ_U64(u.port, 8188);
    CHECK_STR(u.path, "/");
    CHECK(hr_url_parse("ws://[::1]:8188/ws?clientId=x", &u, &err) == 0);
    CHECK_STR(u.host, "::1");
    CHECK_STR(u.path, "/ws?clientId=x");
    CHECK(hr_url_parse("localhost", &u, &err) == 0 && u.port == 80);
    CHECK(hr_url_parse("https://x", &u, &err) == HR_ENOTSUP);
    CHECK(hr_url_parse("http://x:0", &u, &err) == HR_EPARSE);
    CHECK(hr_url_parse("http://x:99999", &u, &err) == HR_EPARSE);
    CHECK(hr_url_parse("http://:80", &u, &err) == HR_EPARSE);
    CHECK(hr_url_parse("http://a b/", &u, &err) == HR_EPARSE);
}

static void test_request(void)
{
    hr_url u;
    hr_error err = { 0 };
    hr_url_parse("http://127.0.0.1:8188", &u, &err);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_http_request(&b, "POST", &u, "/free", "application/json", "{\"free_memory\":true}");
    CHECK_STR(hr_buf_str(&b), "POST /free HTTP/1.1\r\nHost: 127.0.0.1:8188\r\nUser-Agent: headroom\r\n"
                              "Accept: application/json\r\nConnection: close\r\n"
                              "Content-Type: application/json\r\nContent-Length: 20\r\n\r\n"
                              "{\"free_memory\":true}");
    hr_buf_free(&b);
}

static void test_response(void)
{
    char r1[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-type: text/plain\r\n\r\nhello";
    hr_http_response r;
    hr_error err = { 0 };
    /* every prefix is "more", the whole is complete */
    for (size_t n = 0; n < sizeof r1 - 1; n++)
        CHECK(hr_http_parse(r1, n, false, &r, &err) == 0);
    CHECK(hr_http_parse(r1, sizeof r1 - 1, false, &r, &err) == 1);
    CHECK_EQ_I64(r.status, 200);
    CHECK(r.body_len == 5 && memcmp(r.body, "hello", 5) == 0);

    char r2[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n";
    CHECK(hr_http_parse(r2, sizeof r2 - 1, false, &r, &err) == 1);
    CHECK(r.chunked && r.body_len == 11 && memcmp(r.body, "hello world", 11) == 0);
    /* the same answer in two reads, as the client gets it: the first read's parse must not
     * change the bytes the second parses again */
    {
        const char *whole =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n";
        size_t n = strlen(whole);
        for (size_t cut = 1; cut < n; cut++) {
            char two[160];
            memcpy(two, whole, cut);
            two[cut] = '\0';
            int first = hr_http_parse(two, cut, false, &r, &err);
            CHECK(first >= 0);
            if (first == 1) { /* "0\r\n" came: the trailers are not waited for */
                CHECK(r.body_len == 11 && memcmp(r.body, "hello world", 11) == 0);
                continue;
            }
            memcpy(two + cut, whole + cut, n - cut + 1);
            CHECK(hr_http_parse(two, n, false, &r, &err) == 1);
            CHECK(r.body_len == 11 && memcmp(r.body, "hello world", 11) == 0);
        }
    }
    char r2b[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel";
    CHECK(hr_http_parse(r2b, sizeof r2b - 1, false, &r, &err) == 0);
    CHECK(hr_http_parse(r2b, sizeof r2b - 1, true, &r, &err) == HR_EPARSE);

    char r3[] = "HTTP/1.0 500 Internal Server Error\r\n\r\noops";
    CHECK(hr_http_parse(r3, sizeof r3 - 1, false, &r, &err) == 0);
    CHECK(hr_http_parse(r3, sizeof r3 - 1, true, &r, &err) == 1);
    CHECK(r.status == 500 && r.body_len == 4);

    char r4[] = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n\x81\x02hi";
    CHECK(hr_http_parse(r4, sizeof r4 - 1, false, &r, &err) == 1);
    CHECK(r.status == 101 && r.upgrade_websocket);
    CHECK_STR(r.ws_accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    CHECK(r.head_len == sizeof r4 - 1 - 4);

    char bad1[] = "SSH-2.0-OpenSSH\r\n\r\n";
    CHECK(hr_http_parse(bad1, sizeof bad1 - 1, false, &r, &err) == HR_EPARSE);
    char bad2[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!";
    CHECK(hr_http_parse(bad2, sizeof bad2 - 1, false, &r, &err) == HR_EPARSE);
    char bad3[] = "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n";
    CHECK(hr_http_parse(bad3, sizeof bad3 - 1, false, &r, &err) == HR_EPARSE);
    char *big = malloc(HR_HTTP_HEAD_MAX + 10);
    memcpy(big, "HTTP/1.1 200 OK\r\n", 17);
    memset(big + 17, 'a', HR_HTTP_HEAD_MAX - 7);
    CHECK(hr_http_parse(big, HR_HTTP_HEAD_MAX + 10, false, &r, &err) == HR_ETOOBIG);
    free(big);
}

static void test_handshake(void)
{
    unsigned char d[20];
    hr_sha1("abc", 3, d);
    static const unsigned char abc[20] = { 0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
                                           0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d };
    CHECK(memcmp(d, abc, 20) == 0);
    char a[29];
    hr_ws_accept_for("dGhlIHNhbXBsZSBub25jZQ==", a); /* RFC 6455 section 1.3 */
    CHECK_STR(a, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    unsigned char nonce[16] = "the sample nonce";
    char key[25];
    hr_ws_key(nonce, key);
    CHECK_STR(key, "dGhlIHNhbXBsZSBub25jZQ==");
}

static void test_frames(void)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    const unsigned char k[4] = { 0x37, 0xfa, 0x21, 0x3d };
    hr_ws_frame_write(&b, HR_WS_TEXT, "Hello", 5, k);
    /* RFC 6455 5.7: a masked "Hello" */
    static const unsigned char want[] = { 0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58 };
    CHECK(b.len == sizeof want && memcmp(b.data, want, sizeof want) == 0);
    hr_ws_frame f;
    hr_error err = { 0 };
    /* RFC 6455 5.1: the same masked frame from a server is a protocol error */
    CHECK(hr_ws_parse(b.data, b.len, &f, &err) == HR_EPARSE);
    CHECK(strstr(err.msg, "masked") != NULL);
    /* unmasked, RFC 6455 5.7's "Hello" from a server */
    static const unsigned char hello[] = { 0x81, 0x05, 'H', 'e', 'l', 'l', 'o' };
    hr_buf_reset(&b);
    hr_buf_append(&b, hello, sizeof hello);
    CHECK(hr_ws_parse(b.data, b.len, &f, &err) == (int64_t)sizeof hello);
    CHECK(!f.masked && f.fin && f.opcode == HR_WS_TEXT && f.len == 5 && memcmp(f.payload, "Hello", 5) == 0);
    /* a 300-byte server frame (16-bit length), partial then whole */
    hr_buf_reset(&b);
    unsigned char h[4] = { 0x82, 126, 0x01, 0x2c };
    hr_buf_append(&b, h, 4);
    for (int i = 0; i < 300; i++)
        hr_buf_putc(&b, (char)i);
    CHECK(hr_ws_parse(b.data, 100, &f, &err) == 0);
    CHECK(hr_ws_parse(b.data, b.len, &f, &err) == 304);
    CHECK(f.opcode == HR_WS_BINARY && f.len == 300 && !f.masked);
    char ping_big[] = { (char)0x89, 126, 0x00, (char)0x80 };
    CHECK(hr_ws_parse(ping_big, sizeof ping_big, &f, &err) == HR_EPARSE);
    char rsv[] = { (char)0xC1, 0x00 };
    CHECK(hr_ws_parse(rsv, sizeof rsv, &f, &err) == HR_EPARSE);
    char op[] = { (char)0x83, 0x00 };
    CHECK(hr_ws_parse(op, sizeof op, &f, &err) == HR_EPARSE);
    char huge[10] = { (char)0x82, 127, 0, 0, 0, 1, 0, 0, 0, 0 };
    CHECK(hr_ws_parse(huge, sizeof huge, &f, &err) == HR_ETOOBIG);
    hr_buf_free(&b);
}

int main(void)
{
    test_url();
    test_request();
    test_response();
    test_handshake();
    test_frames();
    return TEST_DONE();
}
