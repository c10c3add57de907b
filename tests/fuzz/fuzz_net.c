/* Fuzz the HTTP response parser and the websocket frame parser on what a peer could send:
 * no crash, bodies and payloads inside the input, a frame never takes more than it was given;
 * and an answer that arrives in two reads, split at every point (at most 64 of them, spread
 * over the input), parses to what the whole input parses to, as the client parses it: the
 * first read's bytes parsed in place, then parsed again with the rest appended. */
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
    /* two reads: the first part parsed (maybe changed in place), the rest appended */
    char *w = malloc(size + 1), *two = malloc(size + 1);
    if (!w || !two) {
        free(w);
        free(two);
        free(b);
        return 0;
    }
    for (int eof = 0; eof < 2; eof++) {
        memcpy(w, data, size);
        hr_http_response rw;
        hr_error ew = {0};
        int whole = hr_http_parse(w, size, eof != 0, &rw, &ew);
        size_t step = size / 64 + 1;
        for (size_t cut = 0; cut < size; cut += step) {
            memcpy(two, data, cut);
            hr_http_response r1;
            hr_error e1 = {0};
            int first = hr_http_parse(two, cut, false, &r1, &e1);
            if (first == 1) {
                /* complete already: what the whole input says about the same prefix */
                if (whole != 1 || r1.status != rw.status || r1.body_len != rw.body_len ||
                    memcmp(r1.body, rw.body, r1.body_len) != 0)
                    abort();
                continue;
            }
            if (first < 0) {
                if (whole >= 0)
                    abort(); /* an error in the first part is an error of the whole */
                continue;
            }
            memcpy(two + cut, data + cut, size - cut);
            hr_http_response r2;
            hr_error e2 = {0};
            int second = hr_http_parse(two, size, eof != 0, &r2, &e2);
            if (second != whole)
                abort();
            if (whole == 1 && (r2.status != rw.status || r2.body_len != rw.body_len ||
                               memcmp(r2.body, rw.body, r2.body_len) != 0))
                abort();
        }
    }
    free(w);
    free(two);
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
