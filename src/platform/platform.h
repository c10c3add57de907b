/* headroom — the platform interface.
 *
 * One header, implemented once per OS (src/platform/linux/, src/platform/win/). Backends
 * read the OS and fill plain core structs; all judgement lives in the core. Each probe fails
 * alone: a missing source marks its section unknown with a reason and the others go on. */
#ifndef HR_PLATFORM_H
#define HR_PLATFORM_H

#include "../core/diag.h"
#include "../core/error.h"
#include "../core/snapshot.h"

typedef struct hr_probe_opts {
    /* Linux: root of the /proc and /sys tree to read ("/" = this machine). Tests replay
     * recorded trees through it. Ignored on Windows. */
    const char *sysroot;
    /* Windows: a JSON file of recorded Win32 answers to replay instead of calling Win32
     * (tests, bug reports). NULL = the live machine. */
    const char *replay;
    bool skip_gpu;       /* don't load NVML / query GPUs */
    bool skip_procs;     /* don't list processes */
} hr_probe_opts;

/* Fill *snap. Returns 0 when every probe answered, HR_EPARTIAL when some section is
 * unknown (the snapshot is still usable), another negative code on a hard failure. */
int hr_platform_snapshot(const hr_probe_opts *opts, hr_snapshot *snap, hr_error *err);

/* The OS's own records of memory failures in the last since_seconds, fed into the diagnosis
 * (headroom diagnose): Linux — the kernel log (/dev/kmsg, else dmesg, else journalctl -k)
 * for OOM-killer and memcg lines, the journal for systemd-oomd / earlyoom, /proc/vmstat
 * oom_kill and this cgroup's memory.events / memory.oom_control; Windows — the event log
 * (Application 1000/1001/1026, System 2004 and 26). Each source fails alone and is noted in
 * ctx->sources with what was read or why not. Returns 0, or HR_EPARTIAL when some source
 * could not be read. With opts->sysroot other than "/", Linux reads recorded files under it
 * (dev/kmsg as one record per line) and runs no programs. */
int hr_platform_oom_evidence(const hr_probe_opts *opts, int64_t since_seconds,
                             hr_diag_ctx *ctx, hr_error *err);

/* The OS this binary was built for. */
hr_os hr_platform_os(void);

#endif
