#include "core/status/status_render.h"

void hr_status_render(const hr_status *st, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT: {
        hr_render_opts o = { .color = r->color };
        int e = hr_status_report_text(st, r->out, &o);
        if (e)
            hr_buf_fail(r->out, e);
        break;
    }
    case HR_FORMAT_JSON: hr_status_report_json(st, &r->json, NULL); break;
    case HR_FORMAT_PROMETHEUS: hr_status_report_prom(st, r->out); break;
    case HR_FORMAT_HTML: hr_render_unsupported(r); break;
    }
}

int hr_status_text(const hr_snapshot *s, hr_buf *out, const hr_render_opts *o)
{
    hr_status st;
    hr_status_compute(s, &st);
    return hr_status_report_text(&st, out, o);
}

void hr_status_json(const hr_snapshot *s, hr_json_writer *w, const char *key)
{
    hr_status st;
    hr_status_compute(s, &st);
    hr_status_report_json(&st, w, key);
}

void hr_status_prom(const hr_snapshot *s, hr_buf *out)
{
    hr_status st;
    hr_status_compute(s, &st);
    hr_status_report_prom(&st, out);
}
