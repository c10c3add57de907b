/* headroom — the Windows backend of platform.h: probe Win32 (or load recorded answers),
 * then let the core turn the answers into the snapshot. */
#include "probe_procs.h"
#include "core/base/i18n.h"
#include "win_probes.h"

#include "core/base/json_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

hr_os hr_platform_os(void)
{
    return HR_OS_WINDOWS;
}

void hr_win_probe_all(const hr_probe_opts *opts, hr_win_raw *raw)
{
    hr_win_raw_init(raw);
    hr_win_probe_os(raw);
    hr_win_probe_memory(raw);
    hr_win_probe_pagefiles(raw);
    hr_win_probe_registry(raw);
    hr_win_probe_volumes(raw);
    hr_win_probe_compression(raw);
    if (!(opts && opts->skip_gpu))
        hr_win_probe_gpus(raw);
    hr_win_probe_power(raw);
}

int hr_platform_read_file(const char *path, hr_buf *b, size_t max, hr_error *err)
{
    hr_buf_reset(b);
    wchar_t *wpath = hr_win_wide(path); /* UTF-8 path: Chinese folder names work */
    if (!wpath)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: not a valid UTF-8 path"), path);
    FILE *f = _wfopen(wpath, L"rb");
    free(wpath);
    if (!f)
        return hr_error_set(err, HR_ENOENT, HR_T("%s: cannot open it"), path);
    char chunk[16384];
    int r = 0;
    for (;;) {
        size_t n = fread(chunk, 1, sizeof chunk, f);
        if (n == 0)
            break;
        if (b->len + n > max) {
            r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: larger than %llu bytes"), path, (unsigned long long)max);
            break;
        }
        if ((r = hr_buf_append(b, chunk, n)) != 0) {
            hr_error_set(err, r, "%s: %s", path, hr_strerror(r));
            break;
        }
    }
    if (r == 0 && ferror(f))
        r = hr_error_set(err, HR_EIO, HR_T("%s: read error"), path);
    fclose(f);
    return r;
}

/* Write the recording whole or not at all, like every file the user names. */
static int record(const char *path, const hr_win_raw *raw, hr_error *err)
{
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_json_writer w;
    hr_json_init(&w, &out, true);
    hr_win_raw_write_json(raw, &w);
    int r = hr_json_finish(&w);
    if (r)
        r = hr_error_set(err, r, HR_T("%s: cannot build the recording"), path);
    else
        r = hr_platform_output_replace(path, out.data, out.len, err);
    hr_buf_free(&out);
    return r;
}

int hr_platform_snapshot(const hr_probe_opts *opts, hr_snapshot *snap, hr_error *err)
{
    hr_win_raw *raw = malloc(sizeof *raw);
    if (!raw) {
        hr_snapshot_init(snap, HR_OS_WINDOWS);
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    }
    hr_win_probe_all(opts, raw);
    if (opts && opts->record) {
        int w = record(opts->record, raw, err);
        if (w) {
            hr_snapshot_init(snap, HR_OS_WINDOWS);
            free(raw);
            return w;
        }
    }
    int r = hr_win_model_snapshot(raw, snap);
    free(raw);
    /* check: the biggest other users (live only: recordings do not carry processes). */
    if (r >= 0 && !(opts && opts->skip_procs))
        hr_win_probe_procs(&snap->procs);
    return r;
}
