/* headroom — which reader a model file needs, from its first 8 bytes, and how much of it. */
#include "core/scan/model_scan.h"
#include "core/base/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *hr_model_format_name(hr_model_format f)
{
    switch (f) {
    case HR_MODEL_FMT_SAFETENSORS: return "safetensors";
    case HR_MODEL_FMT_GGUF: return "gguf";
    case HR_MODEL_FMT_TORCH_ZIP: return "torch-zip";
    case HR_MODEL_FMT_PICKLE: return "pickle";
    default: return "unknown";
    }
}

void hr_model_info_init(hr_model_info *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->kind, sizeof m->kind, "unknown");
    hr_msg a;
    hr_msg_set(&a, HR_N("unknown architecture"));
    hr_model_set_arch(m, &a);
}

void hr_model_set_arch(hr_model_info *m, const hr_msg *a)
{
    m->arch_msg = *a;
    hr_msg_format(a, HR_LANG_EN, m->arch, sizeof m->arch);
}

void hr_model_arch_text(const hr_model_info *m, hr_lang lang, char out[HR_MODEL_ARCH_MAX])
{
    hr_msg_format(&m->arch_msg, lang, out, HR_MODEL_ARCH_MAX);
}

void hr_model_comp_arch_text(const hr_model_component *c, hr_lang lang, char out[HR_MODEL_COMP_ARCH_MAX])
{
    hr_msg_format(&c->arch, lang, out, HR_MODEL_COMP_ARCH_MAX);
}

void hr_model_note_text(const hr_model_info *m, hr_lang lang, char out[HR_MODEL_NOTE_MAX])
{
    hr_msg_format(&m->note, lang, out, HR_MODEL_NOTE_MAX);
}

int hr_model_fail(hr_model_info *m, hr_error *err, int code, const char *fmt, ...)
{
    hr_msg local, *why = m ? &m->problem : &local;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(why, fmt, ap);
    va_end(ap);
    char text[HR_ERROR_MSG_MAX];
    hr_msg_format(why, hr_lang_get(), text, sizeof text);
    return hr_error_set(err, code, "%s", text);
}

void hr_model_problem_text(const hr_msg *why, hr_lang lang, char *out, size_t cap)
{
    hr_msg_format(why, lang, out, cap);
    for (char *p = out; cap && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int hr_model_failed(const hr_model_info *m, hr_error *err, int code)
{
    char text[HR_ERROR_MSG_MAX];
    hr_msg_format(&m->problem, hr_lang_get(), text, sizeof text);
    return hr_error_set(err, code, "%s", text);
}

static bool is_gguf(const unsigned char *h, size_t n)
{
    return n >= 4 && memcmp(h, "GGUF", 4) == 0;
}

static bool is_zip(const unsigned char *h, size_t n)
{
    return n >= 4 && h[0] == 'P' && h[1] == 'K' && h[2] == 3 && h[3] == 4;
}

static bool is_pickle(const unsigned char *h, size_t n)
{
    return n >= 2 && h[0] == 0x80 && h[1] >= 2 && h[1] <= 5;
}

bool hr_model_wants_tail(const unsigned char *head, size_t have)
{
    return is_zip(head, have);
}

size_t hr_model_head_need(const unsigned char *head, size_t have, uint64_t file_size, void *ctx)
{
    (void)ctx;
    if (have < 8)
        return have == 0 ? 8 : have; /* a file shorter than 8 bytes: the parser says so */
    if (is_gguf(head, have)) {
        if (have == 8)
            return (size_t)(file_size < ((uint64_t)1 << 20) ? file_size : ((uint64_t)1 << 20));
        hr_model_info m;
        size_t need = 0;
        hr_model_info_init(&m);
        if (hr_gguf_parse("", head, have, file_size, NULL, &m, &need, NULL) != 0)
            return have;
        return need;
    }
    if (is_zip(head, have) || is_pickle(head, have))
        return have;
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | head[i];
    if (hlen > HR_ST_MAX_HEADER || hlen > file_size - 8)
        return have; /* a lying length: the parser reports it, nothing more is read */
    return (size_t)(8 + hlen);
}

int hr_model_parse_head(const char *name, const unsigned char *head, size_t have, uint64_t file_size, hr_model_info *m,
                        hr_tensor_set *tensors, hr_error *err)
{
    m->file_bytes = file_size;
    if (is_gguf(head, have)) {
        size_t need = 0;
        int r = hr_gguf_parse(name, head, have, file_size, tensors, m, &need, err);
        if (r == 0 && need > have)
            return hr_model_fail(m, err, HR_EPARSE, HR_N("%s: GGUF header not read whole"), name);
        return r;
    }
    if (is_zip(head, have)) {
        m->format = HR_MODEL_FMT_TORCH_ZIP;
        m->coarse = true;
        return 0; /* the directory is at the end: hr_model_parse_tail */
    }
    if (is_pickle(head, have)) {
        m->format = HR_MODEL_FMT_PICKLE;
        m->coarse = true;
        m->tensor_bytes = file_size;
        hr_msg_set(&m->note, HR_N("a bare pickle stream: size only, never unpickled"));
        return 0;
    }
    return hr_safetensors_parse(name, head, have, file_size, tensors, m, err);
}

int hr_model_parse_tail(const char *name, const unsigned char *tail, size_t have, uint64_t file_size, hr_model_info *m,
                        size_t *need, hr_error *err)
{
    return hr_zip_parse_tail(name, tail, have, file_size, m, need, err);
}

void hr_model_problem_of(hr_msg *out, const hr_model_info *info, int code, const hr_error *err)
{
    if (hr_msg_is_set(&info->problem))
        *out = info->problem;
    else if (err && err->msg[0])
        hr_msg_set(out, "%s", err->msg); /* words made elsewhere, as they were written */
    else {
        hr_msg_set(out, "%s", hr_error_msgid(code));
        hr_msg_translate_arg(out, 0);
    }
}
