#include "model_read.h"

#include "core/base/text.h"
#include "platform/platform.h"

#include <stdio.h>
#include <string.h>

static const char *env_get(const char *name, char *out, size_t n)
{
    return hr_platform_getenv(name, out, n);
}

static void dir_of(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    size_t k = strlen(out);
    while (k > 0 && out[k - 1] != '/' && out[k - 1] != '\\')
        k--;
    if (k == 0)
        snprintf(out, n, ".");
    else
        out[k > 1 ? k - 1 : k] = '\0';
}

int hr_cli_read_extra_paths(const char *path, hr_comfy_paths *cp, hr_error *err)
{
    hr_buf b;
    hr_buf_init(&b, (size_t)1 << 20);
    int r = hr_platform_read_file(path, &b, (size_t)1 << 20, err);
    if (r == 0) {
        char dir[HR_COMFY_PATH_MAX];
        dir_of(path, dir, sizeof dir);
        r = hr_comfy_yaml_parse(path, b.data ? b.data : "", b.len, dir, env_get, cp, err);
    }
    hr_buf_free(&b);
    return r;
}

bool hr_cli_is_model_name(const char *path)
{
    static const char *const ext[] = {
        ".safetensors", ".sft", ".gguf", ".ckpt", ".pt", ".pt2", ".bin", ".pth", ".pkl"
    };
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && hr_str_ieq(path + n - k, ext[i]))
            return true;
    }
    return false;
}

int hr_cli_read_model(const char *path, const char *folder_hint, hr_model_info *m, hr_error *err)
{
    hr_buf head;
    hr_buf_init(&head, HR_GGUF_MAX_HEADER + 8);
    uint64_t size = 0;
    hr_model_info_init(m);
    size_t cap = (size_t)HR_ST_MAX_HEADER + 8;
    if (cap < HR_GGUF_MAX_HEADER)
        cap = HR_GGUF_MAX_HEADER;
    /* a read's failure is kept in m->problem as a message, worded where it is shown */
    int r = hr_platform_read_head(path, cap, hr_model_head_need, NULL, &head, &size, err, &m->problem);
    m->file_bytes = size;
    hr_tensor_set ts;
    hr_tensor_set_init(&ts);
    if (r == 0)
        r = hr_model_parse_head(path, (const unsigned char *)head.data, head.len, size, m, &ts, err);
    if (r == 0 && hr_model_wants_tail((const unsigned char *)head.data, head.len)) {
        size_t want = HR_ZIP_FIRST_TAIL;
        for (int tries = 0; r == 0 && tries < 2; tries++) {
            size_t need = 0;
            r = hr_platform_read_tail(path, want, &head, &size, err, &m->problem);
            if (r == 0)
                r = hr_model_parse_tail(path, (const unsigned char *)head.data, head.len, size, m, &need, err);
            if (r || need <= head.len)
                break;
            want = need + HR_ZIP_FIRST_TAIL;
        }
    }
    if (r == 0)
        hr_model_classify(&ts, hr_path_base(path), folder_hint, m);
    hr_tensor_set_free(&ts);
    hr_buf_free(&head);
    return r;
}
