#include "core/status/status_render.h"

void hr_status_render(const hr_snapshot *s, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT: {
        hr_render_opts o = { .color = r->color };
        int e = hr_status_text(s, r->out, &o);
        if (e)
            hr_buf_fail(r->out, e);
        break;
    }
    case HR_FORMAT_JSON: hr_status_json(s, &r->json, NULL); break;
    case HR_FORMAT_PROMETHEUS: hr_status_prom(s, r->out); break;
    case HR_FORMAT_HTML: hr_render_unsupported(r); break;
    }
}
