/* headroom — the sampling loop shared by `watch` and `run`: sample, tick the core's rules,
 * show the panel or the lines, write the recording. One hr_monitor per command; every buffer
 * is allocated in hr_monitor_open, so a step allocates nothing. */
#ifndef HR_CLI_MONITOR_H
#define HR_CLI_MONITOR_H

#include "core/base/buf.h"
#include "core/watch/watch.h"
#include "platform/platform.h"

#include <stdio.h>

typedef enum hr_mon_view {
    HR_MON_PANEL = 0, /* a live panel redrawn in place (a terminal) */
    HR_MON_LINES,     /* one timestamped line per sample (a pipe, a file) */
    HR_MON_JSON,      /* the recording's lines on stdout */
    HR_MON_QUIET      /* warnings only, on stderr (run: the child owns stdout; a service) */
} hr_mon_view;

/* Called after each step with watch's state, the sample and the warnings that fired with it
 * (watch --comfyui's link: its node lines and --protect's actions follow the sample). The
 * monitor knows only this callback, not what is behind it. */
typedef void (*hr_monitor_after_fn)(void *ctx, const hr_watch *w, const hr_wsample *s, const hr_warning *wr, size_t nw);

typedef struct hr_monitor {
    hr_watch w;
    hr_sampler *sampler;
    hr_mon_view view;
    FILE *rec; /* --record, or NULL */
    const char *rec_path;
    hr_buf line; /* reused for every line */
    hr_buf rec_line;
    hr_buf say;      /* hr_monitor_say's line */
    int panel_lines; /* lines of the panel on screen (to redraw over) */
    char target[160];
    char last_warning[300];
    int64_t t0; /* the header's monotonic ms */
    int64_t started_wall;
    hr_wsample last;
    int write_error;
    bool journal;              /* stderr is the journal: lines carry a syslog priority */
    hr_monitor_after_fn after; /* --comfyui's link, or NULL: handed each sample */
    void *after_ctx;
    hr_lock *out; /* the terminal and the recording: the link's thread writes too */
} hr_monitor;

typedef struct hr_monitor_opts {
    hr_sampler_opts sampler;
    hr_mon_view view;
    const char *record;
    FILE *record_file; /* record opened already (run: before its child starts), or NULL */
    const char *mode;  /* "watch", "run" */
    int64_t interval_ms;
    int argc; /* run: the child's argv */
    char *const *argv;
    const char *comfyui;
    bool journal; /* stderr goes to the systemd journal (hr_console_journal) */
} hr_monitor_opts;

/* Open the sampler and the recording (writes its header). Errors are printed; returns an
 * exit status (0 = ready). */
int hr_monitor_open(hr_monitor *m, const hr_monitor_opts *o);
/* One sample: tick, show, record. */
void hr_monitor_step(hr_monitor *m);
/* Append a line to the recording (the caller built it; ends in "\n"). */
void hr_monitor_record(hr_monitor *m, const hr_buf *line);
/* A timestamped line for the user, as the view shows them (stdout; run: stderr; --json:
 * nothing unless to_stderr). */
void hr_monitor_say(hr_monitor *m, bool to_stderr, const char *text);
/* watch: the end line; closes everything. Returns 0, or 74 when the recording could not be
 * written. */
int hr_monitor_close(hr_monitor *m, bool end_line);

#endif
