/* headroom — run's verdict: why the child ended, from the hard evidence first.
 *
 * S2.1: the three "out of memory" need three fixes. Under `run` headroom knows more than a
 * log reader: how the child ended (exit code or signal), its own cgroup's oom_kill count and
 * the kernel's record naming its pid. So:
 *   killed by SIGKILL + (the cgroup's oom_kill > 0 or a kernel OOM record naming the child)
 *       → killed, high confidence: the OS ended it for memory;
 *   else the classifier's finding over the child's output (a CUDA OOM traceback: gpu-oom,
 *       MemoryError: host-oom, ...), whatever the exit status (ComfyUI survives a CUDA OOM);
 *   else a signal → signal (a plain SIGKILL from a user is not an out-of-memory kill);
 *   else exit 0 → ok, another code → exited.
 * Pure: the caller gathers the facts. */
#ifndef HR_WATCH_VERDICT_H
#define HR_WATCH_VERDICT_H

#include "core/base/buf.h"
#include "core/diagnose/diag.h"
#include "core/watch/watch.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct hr_run_end {
    bool exited;
    int code;
    int signal;
    int64_t pid;
    int64_t oom_kill; /* the child's cgroup's count; -1 without one */
    int64_t cg_peak;  /* memory.peak of the child's cgroup; -1 */
} hr_run_end;

#define HR_VERDICT_EVIDENCE 10

typedef struct hr_verdict_ev {
    char source[64];       /* English (the JSON) */
    char text[320];        /* English (the JSON) */
    char source_local[64]; /* the same in the user's language (the text) */
    char text_local[320];
} hr_verdict_ev;

typedef struct hr_run_verdict {
    const char *cause;   /* "killed", "gpu-oom", ..., "signal", "ok", "exited" */
    const char *title;   /* English, translated when shown */
    const char *meaning; /* one sentence, English */
    const char *fix;     /* English or NULL */
    hr_confidence conf;
    size_t nev;
    hr_verdict_ev ev[HR_VERDICT_EVIDENCE];
    bool kernel_record; /* the kernel's log named the child */
    bool warned_before;
    int64_t first_warning_t; /* ms since the recording's start, or HR_W_UNKNOWN */
    int64_t need_bytes;      /* the peak to size from (commit where enforced, else RAM +
                                 * swap in use), HR_W_UNKNOWN */
    char advice[480];        /* filled by the caller from plan (English, for the JSON) */
    char advice_local[480];  /* the same in the user's language (the text) */
    char node[96];           /* the ComfyUI node running at the end, "" when not known */
} hr_run_verdict;

/* log: the classifier over the child's output (finished). sys: the OS's records over the
 * run's time (finished; NULL when not read). */
void hr_run_verdict_make(const hr_diag_ctx *log, const hr_diag_ctx *sys, const hr_run_end *end, const hr_watch *w,
                         hr_run_verdict *v);

/* The recording's last line (docs/recording.md). */
void hr_rec_exit_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_run_end *end);
void hr_rec_verdict_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_run_verdict *v,
                         const hr_watch *w);
/* For people (translated): the verdict, the evidence, the peaks, the warning lead, advice. */
void hr_run_verdict_text(hr_buf *out, const hr_run_verdict *v, const hr_run_end *end, const hr_watch *w);

#endif
