#include "snapshot_source.h"

#include "core/base/buf.h"
#include "core/model/win_model.h"

int hr_cli_snapshot(const hr_probe_opts *opts, const char *replay, hr_snapshot *snap,
                    hr_error *err)
{
    if (!replay)
        return hr_platform_snapshot(opts, snap, err);
    hr_snapshot_init(snap, HR_OS_WINDOWS);
    if (opts && opts->record)
        return hr_error_set(err, HR_EINVAL, "--record and --replay: give one of them");
    hr_buf b;
    hr_buf_init(&b, 0);
    int r = hr_platform_read_file(replay, &b, HR_REPLAY_MAX_BYTES, err);
    if (r == 0) {
        hr_error e = {0};
        r = hr_win_replay(hr_buf_str(&b), b.len, snap, &e);
        if (r < 0 && r != HR_EPARTIAL)
            hr_error_set(err, r, "%s: %s", replay, e.msg);
    }
    hr_buf_free(&b);
    return r;
}
