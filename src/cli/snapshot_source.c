#include "snapshot_source.h"

#include "core/base/buf.h"
#include "core/base/i18n.h"
#include "core/model/win_model.h"

#include <string.h>

enum { OPT_SYSROOT = 90, OPT_REPLAY, OPT_NO_GPU };

const hr_opt hr_source_opts[] = {
    { OPT_SYSROOT, "--sysroot", HR_ARG_DIR, NULL, HR_N("Linux: read /proc and /sys under DIR (recorded trees)"), NULL,
      0 },
    { OPT_REPLAY, "--replay", HR_ARG_FILE, NULL, HR_N("Windows: replay recorded Win32 answers from a JSON file"), NULL,
      0 },
    { OPT_NO_GPU, "--no-gpu", HR_ARG_NONE, NULL, HR_N("do not query GPUs"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

void hr_source_init(hr_source *src)
{
    memset(src, 0, sizeof *src);
    src->probe.sysroot = "/";
}

bool hr_source_take(hr_source *src, int id, const char *value)
{
    switch (id) {
    case OPT_SYSROOT: src->probe.sysroot = value; return true;
    case OPT_REPLAY: src->replay = value; return true;
    case OPT_NO_GPU: src->probe.skip_gpu = true; return true;
    default: return false;
    }
}

bool hr_source_recorded(const hr_source *src)
{
    return src->replay || strcmp(src->probe.sysroot, "/") != 0;
}

int hr_source_snapshot(const hr_source *src, hr_snapshot *snap, hr_error *err)
{
    if (!src->replay)
        return hr_platform_snapshot(&src->probe, snap, err);
    hr_snapshot_init(snap, HR_OS_WINDOWS);
    if (src->probe.record)
        return hr_error_set(err, HR_EINVAL, HR_T("--record and --replay: give one of them"));
    hr_buf b;
    hr_buf_init(&b, 0);
    int r = hr_platform_read_file(src->replay, &b, HR_REPLAY_MAX_BYTES, err);
    if (r == 0) {
        hr_error e = { 0 };
        r = hr_win_replay(hr_buf_str(&b), b.len, snap, &e);
        if (r < 0 && r != HR_EPARTIAL)
            hr_error_set(err, r, "%s: %s", src->replay, e.msg);
    }
    hr_buf_free(&b);
    return r;
}
