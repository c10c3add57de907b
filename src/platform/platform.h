/* headroom — the platform interface.
 *
 * One header, implemented once per OS (src/platform/linux/, src/platform/win/). Backends
 * read the OS and fill plain core structs; all judgement lives in the core. Each probe fails
 * alone: a missing source marks its section unknown with a reason and the others go on. */
#ifndef HR_PLATFORM_H
#define HR_PLATFORM_H

#include "../core/error.h"
#include "../core/snapshot.h"

typedef struct hr_probe_opts {
    /* Linux: root of the /proc and /sys tree to read ("/" = this machine). Tests replay
     * recorded trees through it. Ignored on Windows. */
    const char *sysroot;
    /* Windows: a JSON file of recorded Win32 answers to replay instead of calling Win32
     * (tests, bug reports). NULL = the live machine. */
    const char *replay;
    /* Windows: also write the raw Win32 answers of this run as such a JSON file (a
     * recording for a bug report or a test fixture). Refused elsewhere (HR_ENOTSUP). */
    const char *record;
    bool skip_gpu;       /* don't load NVML / query GPUs */
    bool skip_procs;     /* don't list processes */
} hr_probe_opts;

/* Fill *snap. Returns 0 when every probe answered, HR_EPARTIAL when some section is
 * unknown (the snapshot is still usable), another negative code on a hard failure. */
int hr_platform_snapshot(const hr_probe_opts *opts, hr_snapshot *snap, hr_error *err);

/* The OS this binary was built for. */
hr_os hr_platform_os(void);

#endif
