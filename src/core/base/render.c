#include "core/base/render.h"

void hr_render_init(hr_render *r, hr_format format, hr_buf *out, bool color)
{
    r->format = format;
    r->out = out;
    r->color = color && format == HR_FORMAT_TEXT;
    hr_json_init(&r->json, out, true);
}

void hr_render_unsupported(hr_render *r)
{
    hr_buf_fail(r->out, HR_ENOTSUP);
}

int hr_render_finish(hr_render *r)
{
    if (r->format == HR_FORMAT_JSON) {
        int j = hr_json_finish(&r->json);
        if (j)
            hr_buf_fail(r->out, j);
    }
    return hr_buf_error(r->out);
}

const char *hr_format_name(hr_format f)
{
    switch (f) {
    case HR_FORMAT_TEXT: return "text";
    case HR_FORMAT_JSON: return "json";
    case HR_FORMAT_HTML: return "html";
    case HR_FORMAT_PROMETHEUS: return "prometheus";
    }
    return "unknown";
}
