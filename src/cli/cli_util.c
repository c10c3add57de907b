#include "cli_util.h"
#include "commands.h"
#include "console.h"
#include "exit_status.h"

#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/watch/comfy.h"
#include "platform/platform.h"
#include "core/base/hot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hr_cli_error(const char *fmt, ...)
{
    /* an error may quote what a file or a server said: one line, nothing that steers the
     * terminal */
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    hr_text_one_line(text);
    char line[2100];
    snprintf(line, sizeof line, "headroom: %s\n", text);
    hr_console_put(stderr, line, strlen(line), true);
}

int hr_cli_put_page(FILE *f, hr_buf *b, bool text)
{
    int e = hr_buf_error(b);
    if (e != 0)
        hr_cli_error("%s", hr_strerror(e));
    else
        hr_console_put(f, hr_buf_str(b), b->len, text);
    hr_buf_free(b);
    return e ? hr_exit_from_error(e) : 0;
}

void hr_cli_print(const char *fmt, ...)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    va_list ap;
    va_start(ap, fmt);
    hr_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    hr_cli_write(&b, HR_FORMAT_TEXT);
    hr_buf_free(&b);
}

HR_HOT int hr_cli_write(const hr_buf *b, hr_format format)
{
    return hr_console_put(stdout, b->data ? b->data : "", b->len, format == HR_FORMAT_TEXT);
}

HR_START bool hr_cli_stdout_is_tty(void)
{
    return hr_console_color();
}

bool hr_cli_stdin_is_tty(void)
{
    return hr_platform_is_tty(stdin);
}

int hr_cli_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        if (value)
            *value = a + n + 1;
        return value ? 1 : -1;
    }
    if (a[n] != '\0')
        return 0;
    if (!value)
        return 1;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

int hr_cli_opt_value(int argc, char **argv, int *i, const char *cmd, const char *name, const char *what, bool nonempty,
                     const char **value)
{
    int m = hr_cli_opt(argc, argv, i, name, value);
    if (m < 0 || (m > 0 && nonempty && !**value)) {
        hr_cli_error(HR_T("%s: %s needs %s"), cmd, name, what);
        return -1;
    }
    return m;
}

bool hr_cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int hr_cli_emit(const char *cmd, const char *what, int render_rc, const hr_buf *out, hr_format format)
{
    if (render_rc != 0) {
        hr_cli_error(HR_T("%s: cannot render the %s: %s"), cmd, what, hr_strerror(render_rc));
        return hr_exit_from_error(render_rc);
    }
    if (hr_cli_write(out, format) != 0) {
        hr_cli_error(HR_T("%s: cannot write to standard output"), cmd);
        return hr_exit_from_error(HR_EIO);
    }
    return 0;
}

int hr_cli_emit_render(const char *cmd, const char *what, hr_render *r)
{
    return hr_cli_emit(cmd, what, hr_render_finish(r), r->out, r->format);
}

int hr_cli_emit_file(const char *cmd, const char *what, const char *path, hr_render *r)
{
    int rc = hr_render_finish(r);
    if (rc != 0) {
        hr_cli_error(HR_T("%s: cannot render the %s: %s"), cmd, what, hr_strerror(rc));
        return hr_exit_from_error(rc);
    }
    hr_error err = { 0 };
    rc = hr_platform_output_replace(path, r->out->data ? r->out->data : "", r->out->len, &err);
    if (rc < 0) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(rc));
        return hr_cli_output_exit(rc);
    }
    return 0;
}

int hr_cli_output_exit(int code)
{
    if (code == HR_EUNSAFE || code == HR_EIO || code == HR_ENOMEM)
        return hr_exit_from_error(code);
    return HR_EXIT_CANTCREATE;
}

HR_START void hr_cli_choose_language(void)
{
    char name[64];
    hr_lang lang;
    if (hr_platform_ui_language(name, sizeof name) && hr_lang_from_name(name, &lang))
        hr_lang_set(lang);
}

bool hr_cli_comfyui_url(const char *cmd, hr_url *url)
{
    char text[512];
    const char *u = hr_platform_getenv("HEADROOM_COMFYUI_URL", text, sizeof text);
    hr_error err = { 0 };
    if (hr_url_parse(u ? u : "http://127.0.0.1:8188", url, &err) != 0)
        return false;
    /* X.localserver: root asks a server on this machine only when ComfyUI holds its port
     * (any local user can listen on 127.0.0.1:8188); another host is the user's choice */
    if (!hr_platform_is_admin() || !hr_comfy_host_is_local(url->host))
        return true;
    char cmdline[512];
    long long pid = -1;
    int r = hr_platform_local_listener(url->port, cmdline, sizeof cmdline, &pid);
    if (r == HR_ENOTSUP || (r == 1 && hr_comfy_cmdline_is_comfyui(cmdline)))
        return true;
    if (r == 1)
        hr_cli_error(HR_T("%s: not asking the server on port %u: running as root, and the "
                          "process listening there (PID %lld: %.120s) does not look like ComfyUI "
                          "(X.localserver)"),
                     cmd, url->port, pid, cmdline);
    else if (r < 0)
        hr_cli_error(HR_T("%s: not asking the server on port %u: running as root, and which "
                          "process listens there cannot be told (X.localserver)"),
                     cmd, url->port);
    return false;
}

bool hr_cli_find_comfyui(const char *cmd, hr_comfy_found *f)
{
    if (hr_platform_find_comfyui(f))
        return true;
    hr_url url;
    hr_error err = { 0 };
    if (!hr_cli_comfyui_url(cmd, &url))
        return false;
    hr_buf resp;
    hr_buf_init(&resp, (size_t)1 << 20);
    hr_http_response r;
    hr_comfy_stats *st = malloc(sizeof *st);
    bool ok = false;
    if (st && hr_http_do(&url, "GET", "/system_stats", NULL, 1500, &resp, &r, &err) == 0 && r.status == 200 &&
        hr_comfy_parse_stats(r.body, r.body_len, st, &err) == 0 && st->base_dir[0]) {
        char models[HR_COMFY_PATH_MAX + 16];
        if (hr_comfy_join(st->base_dir, "models", hr_platform_dirsep(), models, sizeof models) &&
            hr_platform_is_dir(models)) {
            memset(f, 0, sizeof *f);
            hr_strlcpy(f->dir, st->base_dir, sizeof f->dir);
            f->how = "running server";
            ok = true;
        }
    }
    free(st);
    hr_buf_free(&resp);
    return ok;
}

bool hr_cli_version_of(const char *v, int out[3])
{
    int a = 0, b = 0, c = 0;
    if (!v || sscanf(v[0] == 'v' ? v + 1 : v, "%d.%d.%d", &a, &b, &c) < 2 || a < 0 || b < 0 || c < 0)
        return false;
    out[0] = a, out[1] = b, out[2] = c;
    return true;
}

bool hr_cli_comfyui_folder_version(const char *dir, int out[3])
{
    char path[1200];
    if (snprintf(path, sizeof path, "%s%ccomfyui_version.py", dir, hr_platform_dirsep()) >= (int)sizeof path)
        return false;
    hr_buf b;
    hr_buf_init(&b, 4096);
    hr_error err = { 0 };
    bool ok = false;
    if (hr_platform_read_file(path, &b, 4096, &err) == 0) {
        const char *t = strstr(hr_buf_str(&b), "__version__");
        const char *q = t ? strchr(t, '"') : NULL;
        if (!q && t)
            q = strchr(t, '\'');
        ok = q && hr_cli_version_of(q + 1, out);
    }
    hr_buf_free(&b);
    return ok;
}
