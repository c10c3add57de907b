/* headroom — where a command's snapshot comes from: this machine (the platform layer probes
 * it), a recorded /proc + /sys tree (--sysroot, probed the same way), or recorded Win32
 * answers (--replay FILE: read here, turned into a snapshot by the core, on any OS). The
 * options that choose it are one table every command that reads a machine lists. */
#ifndef HR_CLI_SNAPSHOT_SOURCE_H
#define HR_CLI_SNAPSHOT_SOURCE_H

#include "options.h"

#include "core/base/error.h"
#include "core/model/snapshot.h"
#include "platform/platform.h"

#include <stdbool.h>

/* The largest recording --replay reads. */
#define HR_REPLAY_MAX_BYTES ((size_t)4 << 20)

/* --sysroot DIR, --replay FILE, --no-gpu (option ids 90 to 99 are theirs). */
extern const hr_opt hr_source_opts[];

typedef struct hr_source {
    hr_probe_opts probe; /* sysroot "/" unless --sysroot */
    const char *replay;  /* --replay FILE, or NULL */
} hr_source;

void hr_source_init(hr_source *src);
/* Take option id of hr_source_opts; false when it is not one of them. */
bool hr_source_take(hr_source *src, int id, const char *value);
/* A recording (--sysroot or --replay), not this machine? */
bool hr_source_recorded(const hr_source *src);

/* Fill *snap from the recording at src->replay when given, else by probing. Returns 0,
 * HR_EPARTIAL (some section unknown; the snapshot is usable) or another negative code with
 * err naming the file or probe. */
int hr_source_snapshot(const hr_source *src, hr_snapshot *snap, hr_error *err);

#endif
