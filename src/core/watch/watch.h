/* headroom — watch: samples in, warnings out.
 *
 * The monitor behind `headroom watch` and `headroom run`. The platform fills one hr_wsample
 * per interval (cumulative counters as the OS gives them); hr_watch_tick() turns the counters
 * into rates, keeps the recent samples in a fixed ring (no allocation per sample: the monitor
 * must survive the pressure it watches), tracks the peaks, fits the recent slope and fires the
 * warning rules:
 *
 *   S2.3           RAM over half used, commit still climbing, the paging disk near 100% busy
 *   commit-85/95   commit crossed 85 % / 95 % of its limit (where the limit is enforced:
 *                  Windows, Linux vm.overcommit_memory=2; otherwise RAM + swap in use against
 *                  RAM + swap, the real ceiling of a heuristic-overcommit Linux)
 *   cgroup-near    the memory cgroup's usage within 10 % of what it may use
 *   time-to-limit  at the recent slope, the nearest limit is reached within the horizon
 *   pressure       Linux PSI: memory "full" stall avg10 at or above 10 %
 *
 * A rule fires when its condition starts and re-arms only after it stayed false for
 * rearm_ms. Pure core: no I/O, no OS headers, no allocation. */
#ifndef HR_WATCH_H
#define HR_WATCH_H

#include "core/base/buf.h"
#include "core/base/msg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_W_UNKNOWN   (-1)      /* an integer field the OS did not give */
#define HR_W_UNLIMITED INT64_MAX /* a cgroup limit of "max" */

/* One sample, as the platform reads it. Integers: bytes or counts, HR_W_UNKNOWN when not
 * known. Doubles: < 0 when not known. */
typedef struct hr_wsample {
    int64_t t_ms;    /* monotonic milliseconds (any origin; only differences count) */
    int64_t time_ms; /* wall clock, Unix milliseconds */
    int64_t ram_total, ram_used, ram_available;
    int64_t swap_total, swap_used;
    int64_t commit, commit_limit;
    bool commit_enforced;                                     /* the OS refuses allocations past commit_limit */
    int64_t cg_current, cg_max, cg_swap_current, cg_swap_max; /* max: HR_W_UNLIMITED */
    /* cumulative counters (the tick turns them into rates); HR_W_UNKNOWN when not read */
    int64_t pages_in_total, pages_out_total;
    int64_t disk_busy_ms_total; /* time the paging disk was busy (Linux diskstats io_ticks) */
    /* rates given directly by the OS (Windows PDH); < 0 = compute from the counters */
    double pages_in_ps, pages_out_ps, disk_busy_pct;
    double psi_some_avg10, psi_full_avg10;
    char disk[32];                           /* the paging disk ("" when none) */
    int64_t proc_rss, proc_swap, proc_count; /* the target process tree */
    int64_t vram_used, vram_total;           /* every GPU the driver lists, together */
    int64_t proc_vram;                       /* GPU memory of the target tree, where the driver tells */
} hr_wsample;

/* Fill with "unknown" everywhere. */
void hr_wsample_init(hr_wsample *s);

/* One process in a GPU's list of processes (NVML's running compute or graphics processes):
 * its pid and the GPU memory it uses, HR_W_UNKNOWN where the driver does not tell (under
 * Windows WDDM it never does). */
typedef struct hr_gpu_proc {
    int64_t pid;
    int64_t used;
} hr_gpu_proc;

/* The GPU memory of a process tree on one GPU: the sum of used over the listed processes
 * whose pid is in tree[0..ntree). A pid listed twice (as compute and as graphics) counts
 * once, with the larger amount. 0 when none of the tree is listed; HR_W_UNKNOWN when one of
 * it is listed without an amount. */
int64_t hr_wvram_tree(const hr_gpu_proc *procs, size_t n, const int64_t *tree, size_t ntree);

typedef enum hr_wrule {
    HR_WRULE_S23 = 0,
    HR_WRULE_COMMIT85,
    HR_WRULE_COMMIT95,
    HR_WRULE_CGROUP,
    HR_WRULE_TTL,
    HR_WRULE_PRESSURE,
    HR_WRULE_COUNT
} hr_wrule;

typedef enum hr_wlevel { HR_WLEVEL_WARN = 0, HR_WLEVEL_CRITICAL } hr_wlevel;

typedef struct hr_warning {
    hr_wrule rule;
    hr_wlevel level;
    int64_t t_ms, time_ms;
    int64_t value, limit;   /* bytes; HR_W_UNKNOWN when not applicable */
    double eta_s;           /* < 0: not climbing */
    double busy_pct;        /* S2.3: the disk's busy percent; pressure: PSI full avg10 */
    const char *limit_name; /* commit-85/95: "commit" or "RAM + swap" (static) */
    hr_msg msg;             /* the message (hr_warning_msg), formatted where it is shown */
} hr_warning;

typedef struct hr_watch_cfg {
    double horizon_s;  /* time-to-limit: warn when the limit is nearer (60) */
    double min_fill;   /* ...and at least this fraction of it is used (0.25) */
    int64_t window_ms; /* the slope's window (10000) */
    int64_t rearm_ms;  /* a rule fires again only after this long quiet (10000) */
    double climb_bps;  /* "commit keeps climbing": slope at least this (1 MiB/s) */
    double busy_pct;   /* S2.3 "disk at 100 %": at least this (90) */
    double paging_ps;  /* S2.3 without disk busy: pages in+out per second (2000) */
    double psi_full;   /* pressure rule (10) */
} hr_watch_cfg;

void hr_watch_cfg_default(hr_watch_cfg *c);

/* The largest values seen (HR_W_UNKNOWN when never known). */
typedef struct hr_wpeaks {
    int64_t ram_used, commit, swap_used, cg_current, proc_rss, proc_swap, vram_used;
    int64_t proc_vram;
    int64_t ram_swap_used; /* RAM + swap in use together */
    double disk_busy_pct, psi_full_avg10;
} hr_wpeaks;

#define HR_WATCH_RING 128

typedef struct hr_wpoint {
    int64_t t_ms;
    int64_t host_fill, cg_fill, commit;
} hr_wpoint;

typedef struct hr_watch {
    hr_watch_cfg cfg;
    hr_wpoint ring[HR_WATCH_RING];
    size_t ring_n, ring_pos;
    hr_wsample prev; /* the previous sample, rates filled */
    bool have_prev;
    hr_wpeaks peaks;
    uint64_t samples;
    uint64_t warnings;
    int64_t first_warning_t; /* t_ms of the first warning, HR_W_UNKNOWN if none */
    int64_t t0;              /* t_ms of the first sample */
    bool active[HR_WRULE_COUNT];
    int64_t quiet_since[HR_WRULE_COUNT];
    /* the latest derived values, for the panel */
    double slope_bps;       /* bytes per second of the nearest limit's fill */
    double eta_s;           /* seconds to that limit, < 0 when not climbing */
    int64_t fill, cap;      /* that limit's fill and size */
    const char *limit_name; /* "cgroup", "commit", "RAM + swap" */
    int64_t tz_offset_ms;   /* added to times shown on the terminal (local time) */
} hr_watch;

void hr_watch_init(hr_watch *w, const hr_watch_cfg *cfg);

#define HR_WATCH_MAX_WARNINGS HR_WRULE_COUNT

/* Take one sample: fills s's rates from the counters (against the previous sample), updates
 * peaks and slope, and writes the warnings that start firing now into out (at most
 * HR_WATCH_MAX_WARNINGS). Returns how many. */
size_t hr_watch_tick(hr_watch *w, hr_wsample *s, hr_warning out[HR_WATCH_MAX_WARNINGS]);
/* Whether the time to the nearest limit means anything now: the slope is real growth, at least
 * min_fill of the limit is used, and the limit is within ten horizons. An idle machine's
 * sampling noise over many free GB is not "the limit in 1356 s". The panel shows it only then;
 * the time-to-limit warning asks the same and its own shorter horizon. */
bool hr_watch_eta_meaningful(const hr_watch *w);

/* Stable ids ("S2.3", "commit-85", ...) and level names ("warn", "critical"). */
const char *hr_wrule_id(hr_wrule r);
/* The rule of a stable id; false for an id this version does not know. */
bool hr_wrule_from_id(const char *id, hr_wrule *out);
const char *hr_wlevel_name(hr_wlevel l);
/* Make the warning's message from its rule and fields (the rule that fires does; so does a
 * reader that rebuilds a recorded warning). */
void hr_warning_msg(hr_warning *wr);
/* The warning as one line in the user's language (for the terminal). */
void hr_warning_text(const hr_warning *wr, char *out, size_t n);

/* ---- the recording (docs/recording.md): one JSON line each, appended to out ---- */
#define HR_RECORDING_SCHEMA "headroom.recording/1"

typedef struct hr_rec_header {
    const char *version;
    const char *os;     /* "linux", "windows" */
    int64_t started_ms; /* Unix ms of t = 0 */
    int64_t interval_ms;
    const char *mode; /* "watch", "run" */
    int64_t pid;      /* HR_W_UNKNOWN: none */
    const char *name; /* NULL: none */
    int argc;         /* run: the child's argv */
    char *const *argv;
    const char *comfyui; /* NULL: none */
} hr_rec_header;

void hr_rec_header_line(hr_buf *out, const hr_rec_header *h);
/* t0: the monotonic ms of the header (t = t_ms - t0). */
void hr_rec_sample_line(hr_buf *out, int64_t t0, const hr_wsample *s);
void hr_rec_warning_line(hr_buf *out, int64_t t0, const hr_warning *wr);
void hr_rec_end_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_watch *w);
/* "peaks":{...} as a member of an open object. */
struct hr_json_writer;
void hr_rec_peaks(struct hr_json_writer *jw, const hr_wpeaks *p);

/* ---- the terminal ---- */
/* "HH:MM:SS" of a Unix-ms time (add the local offset first for local time). */
void hr_watch_clock(int64_t time_ms, char *out, size_t n);
/* One plain line: "19:04:05 RAM 9.1/15.6 GB  swap 0.1/8.0 GB  commit 11.2/15.8 GB ..." */
void hr_watch_line(hr_buf *out, const hr_watch *w, const hr_wsample *s);
/* The compact panel: a few lines, each ending in "\n" (the CLI redraws it in place). */
void hr_watch_panel(hr_buf *out, const hr_watch *w, const hr_wsample *s, const char *target, const char *last_warning);

#endif
