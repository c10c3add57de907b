/* headroom — watch --comfyui / --protect: the monitor's link to a running ComfyUI
 * (docs/watch.md). Reads /system_stats once it answers, listens on its own websocket client
 * id (never another client's), polls /queue while something runs and /history/<id> when a
 * prompt ends, and hands what it learns to the core's attribution (core/watch/comfy.h); the
 * node lines go to the terminal and the recording. With --protect, when the limit is
 * imminent it asks ComfyUI to free memory (POST /free) and, when the fill still climbs,
 * interrupts the prompt (POST /interrupt). An unreachable ComfyUI is one line on stderr;
 * sampling goes on and the link tries again every 10 s.
 * The link runs on a helper thread of its own: the sampling loop hands it each sample and
 * its warnings (and, under run, the child's lines) through a mailbox and never waits for
 * the network, so a server that floods, stalls or never answers cannot stall sampling,
 * warnings or signals (docs/watch.md). */
#ifndef HR_CLI_COMFY_LINK_H
#define HR_CLI_COMFY_LINK_H

#include "monitor.h"

#include "core/watch/comfy.h"
#include "core/watch/protect.h"
#include "platform/platform.h"

#define HR_LINK_CONSOLE_MAX 16

/* What the sampling loop hands the link, under the mailbox's lock. */
typedef struct hr_link_mailbox {
    bool stop;
    bool fresh; /* a sample came since the link last looked */
    hr_wsample s;
    hr_warning wr[HR_WATCH_MAX_WARNINGS];
    size_t nw;
    bool active[HR_WRULE_COUNT];
    int64_t fill;
    double slope_bps, climb_bps;
    int nconsole;
    char console[HR_LINK_CONSOLE_MAX][256];
} hr_link_mailbox;

typedef struct hr_comfy_link {
    hr_monitor *m;
    hr_thread *thread;
    hr_lock *lock; /* the mailbox's */
    hr_link_mailbox mb;
    bool stopped, abandoned; /* abandoned: the thread did not end in time (left to exit) */
    bool mute;               /* abandoned: it writes nothing more (under lock) */
    hr_buf rec;              /* the link's recording lines */
    /* the watch state --protect reads, as of the last sample */
    bool w_active[HR_WRULE_COUNT];
    int64_t w_fill;
    double w_slope_bps, w_climb_bps;
    hr_url url;
    char url_text[HR_NET_HOST_MAX + 64];
    const char *mode; /* "watch", "run" */
    bool protect;
    bool up; /* /system_stats answered */
    bool reported_down;
    int64_t next_try;
    /* run: the server the command starts. Said once when the wait starts and once when it
     * ends: up, or not up within wait_ms (then sampling goes on without it). */
    bool waiting;
    bool ever_up;
    int64_t wait_start, wait_ms, up_after_ms;
    char last_error[200];
    hr_ws_client ws;
    bool ws_up;
    char sid[HR_COMFY_ID_MAX];
    int queue_remaining; /* from the status broadcasts; -1 unknown */
    bool queue_dirty;
    int64_t last_queue_poll;
    int64_t interval_ms;
    hr_buf resp;
    hr_comfy_queue *queue;            /* the running prompt as /queue told it */
    char owner_told[HR_COMFY_ID_MAX]; /* the prompt whose ownership was said */
    hr_comfy_track track;
    /* what /system_stats said, for the estimate of a prompt headroom does not own */
    int64_t ram_total, vram_total;
    char version[64];
    /* the estimate's profile of the running prompt when another client owns it: the node
     * whose step adds the most RAM (the likely one when memory climbs), and the VRAM peak */
    char likely_prompt[HR_COMFY_ID_MAX];
    char likely_node[24], likely_class[HR_COMFY_CLASS_MAX];
    int64_t likely_ram;
    char vram_node[24], vram_class[HR_COMFY_CLASS_MAX];
    int64_t vram_peak;
    bool likely_said; /* the climb was pinned on it once for this prompt */
    hr_wsample now;   /* the freshest sample */
    uint64_t ws_messages, ws_binary, ws_unknown;
    /* --protect */
    hr_protect policy; /* the core's policy's state */
    bool free_ok;      /* POST /free answered 2xx */
    bool told_big;     /* an answer over the link's cap was said */
} hr_comfy_link;

/* The URL as given, or "http://" + it when it is only a port, or host:port. */
void hr_comfy_url_text(const char *given, char *out, size_t n);
/* Parse the URL (an error is printed; returns an exit status, 0 = ready). Nothing is
 * connected yet: the first sample does that. */
int hr_comfy_link_open(hr_comfy_link *c, hr_monitor *m, const char *url, bool protect, const char *mode,
                       int64_t interval_ms);
/* run: the command is that ComfyUI; say that headroom waits for it to answer, for up to
 * wait_ms (then it says it did not come up and goes on without it). */
void hr_comfy_link_await(hr_comfy_link *c, int64_t wait_ms);
/* run, when the command ended: if the server never answered, say so (address, how long
 * headroom waited) and return true. */
bool hr_comfy_link_never_up(hr_comfy_link *c);
/* Hand the link each of the monitor's samples (its hr_monitor_after_fn): the sample, the
 * warnings that fired with it and watch's state go to the link's thread (started at the
 * first sample), which never makes the sampling loop wait for the network. */
void hr_comfy_link_attach(hr_comfy_link *c, hr_monitor *m);
/* run: one line of the child's output (no line end), handed over likewise. */
void hr_comfy_link_console(hr_comfy_link *c, const char *line, size_t n);
/* End the link's thread: waits at most a moment; a thread held by the network is left to
 * end with the process. */
void hr_comfy_link_stop(hr_comfy_link *c);
void hr_comfy_link_close(hr_comfy_link *c);

#endif
