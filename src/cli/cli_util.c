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
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <io.h>
#define hr_isatty _isatty
#define hr_fileno _fileno
#else
#include <unistd.h>
#define hr_isatty isatty
#define hr_fileno fileno
#endif

void hr_cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("headroom: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

HR_HOT int hr_cli_write(const hr_buf *b)
{
    int c = hr_console_write_stdout(b->data ? b->data : "", b->len);
    if (c != 0)
        return c > 0 ? 0 : -1;
    if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len)
        return -1;
    return fflush(stdout) == 0 ? 0 : -1;
}

HR_START bool hr_cli_stdout_is_tty(void)
{
    return hr_console_color();
}

bool hr_cli_stdin_is_tty(void)
{
    return hr_isatty(hr_fileno(stdin)) != 0;
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

int hr_cli_opt_value(int argc, char **argv, int *i, const char *cmd, const char *name,
                     const char *what, bool nonempty, const char **value)
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

int hr_cli_emit(const char *cmd, const char *what, int render_rc, const hr_buf *out)
{
    if (render_rc != 0) {
        hr_cli_error(HR_T("%s: cannot render the %s: %s"), cmd, what, hr_strerror(render_rc));
        return hr_exit_from_error(render_rc);
    }
    if (hr_cli_write(out) != 0) {
        hr_cli_error(HR_T("%s: cannot write to standard output"), cmd);
        return hr_exit_from_error(HR_EIO);
    }
    return 0;
}

int hr_cli_emit_render(const char *cmd, const char *what, hr_render *r)
{
    return hr_cli_emit(cmd, what, hr_render_finish(r), r->out);
}

int hr_cli_emit_file(const char *cmd, const char *what, const char *path, hr_render *r)
{
    int rc = hr_render_finish(r);
    if (rc != 0) {
        hr_cli_error(HR_T("%s: cannot render the %s: %s"), cmd, what, hr_strerror(rc));
        return hr_exit_from_error(rc);
    }
    hr_error err = {0};
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

HR_START void hr_cli_json_in_english(bool json)
{
    if (json)
        hr_lang_set(HR_LANG_EN);
}

bool hr_cli_comfyui_url(hr_url *url)
{
    char text[512];
    const char *u = hr_platform_getenv("HEADROOM_COMFYUI_URL", text, sizeof text);
    hr_error err = {0};
    return hr_url_parse(u ? u : "http://127.0.0.1:8188", url, &err) == 0;
}

bool hr_cli_find_comfyui(hr_comfy_found *f)
{
    if (hr_platform_find_comfyui(f))
        return true;
    hr_url url;
    hr_error err = {0};
    if (!hr_cli_comfyui_url(&url))
        return false;
    hr_buf resp;
    hr_buf_init(&resp, (size_t)1 << 20);
    hr_http_response r;
    hr_comfy_stats *st = malloc(sizeof *st);
    bool ok = false;
    if (st && hr_http_do(&url, "GET", "/system_stats", NULL, 1500, &resp, &r, &err) == 0 &&
        r.status == 200 && hr_comfy_parse_stats(r.body, r.body_len, st, &err) == 0 && st->base_dir[0]) {
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
