/* headroom — where a command's snapshot comes from: this machine (the platform layer probes
 * it), a recorded /proc + /sys tree (--sysroot, probed the same way), or recorded Win32
 * answers (--replay FILE: read here, turned into a snapshot by the core, on any OS). */
#ifndef HR_CLI_SNAPSHOT_SOURCE_H
#define HR_CLI_SNAPSHOT_SOURCE_H

#include "core/base/error.h"
#include "core/model/snapshot.h"
#include "platform/platform.h"

/* The largest recording --replay reads. */
#define HR_REPLAY_MAX_BYTES ((size_t)4 << 20)

/* Fill *snap from the recording at replay (when not NULL), else by probing with opts.
 * Returns 0, HR_EPARTIAL (some section unknown; the snapshot is usable) or another negative
 * code with err naming the file or probe. */
int hr_cli_snapshot(const hr_probe_opts *opts, const char *replay, hr_snapshot *snap,
                    hr_error *err);

#endif
