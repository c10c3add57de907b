#include "core/base/prom.h"

#include <stdio.h>
#include <string.h>

void hr_prom_init(hr_prom *p, hr_buf *out)
{
    p->out = out;
    p->family[0] = '\0';
}

void hr_prom_escape(hr_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            hr_buf_puts(out, "\\\\");
        else if (*s == '"')
            hr_buf_puts(out, "\\\"");
        else if (*s == '\n')
            hr_buf_puts(out, "\\n");
        else
            hr_buf_putc(out, *s);
    }
}

/* HELP text escapes only backslash and newline. */
static void help_escape(hr_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            hr_buf_puts(out, "\\\\");
        else if (*s == '\n')
            hr_buf_puts(out, "\\n");
        else
            hr_buf_putc(out, *s);
    }
}

void hr_prom_sample(hr_prom *p, const char *name, const char *type, const char *help, const char *const *labels,
                    const char *value)
{
    if (strcmp(p->family, name) != 0) {
        hr_buf_printf(p->out, "# HELP %s ", name);
        help_escape(p->out, help);
        hr_buf_printf(p->out, "\n# TYPE %s %s\n", name, type);
        snprintf(p->family, sizeof p->family, "%s", name);
    }
    hr_buf_puts(p->out, name);
    if (labels && labels[0]) {
        hr_buf_putc(p->out, '{');
        for (int i = 0; labels[i] && labels[i + 1]; i += 2) {
            hr_buf_printf(p->out, "%s%s=\"", i ? "," : "", labels[i]);
            hr_prom_escape(p->out, labels[i + 1]);
            hr_buf_putc(p->out, '"');
        }
        hr_buf_putc(p->out, '}');
    }
    hr_buf_printf(p->out, " %s\n", value);
}

void hr_prom_u64(hr_prom *p, const char *name, const char *type, const char *help, const char *const *labels,
                 uint64_t value)
{
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)value);
    hr_prom_sample(p, name, type, help, labels, v);
}
