/* Fuzz the HTTP response parser and the websocket frame parser on what a peer could send:
 * no crash, bodies and payloads inside the input, a frame never takes more than it was given. */
#include "core/net/net.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *b = malloc(size + 1);
    if (!b)
        return 0;
    for (int eof = 0; eof < 2; eof++) {
        memcpy(b, data, size);
        hr_http_response r;
        hr_error err = {0};
        int rc = hr_http_parse(b, size, eof != 0, &r, &err);
        if (rc == 1) {
            if (r.head_len > size || !r.body || r.body < b || r.body + r.body_len > b + size)
                abort();
        } else if (rc < 0 && !err.msg[0]) {
            abort();
        }
    }
    /* the same bytes as a stream of websocket frames */
    memcpy(b, data, size);
    size_t pos = 0;
    while (pos < size) {
        hr_ws_frame f;
        hr_error err = {0};
        int64_t n = hr_ws_parse(b + pos, size - pos, &f, &err);
        if (n <= 0)
            break;
        if ((uint64_t)n > size - pos || f.len > (uint64_t)n || f.payload < b + pos ||
            f.payload + f.len > b + pos + (size_t)n)
            abort();
        pos += (size_t)n;
    }
    /* and as a URL */
    char text[512];
    size_t k = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, k);
    text[k] = '\0';
    hr_url u;
    hr_error err = {0};
    if (hr_url_parse(text, &u, &err) == 0 && (u.port == 0 || u.port > 65535 || u.path[0] != '/'))
        abort();
    free(b);
    return 0;
}
