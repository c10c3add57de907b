/* headroom — watch --comfyui: what ComfyUI's HTTP API and websocket say, and which node the
 * memory growth belongs to (docs/watch.md).
 *
 * What a passive observer can see (ComfyUI's server.py): GET /system_stats (RAM, each
 * device's VRAM, the version); GET /queue (the running prompt: [number, prompt_id, prompt,
 * extra_data, outputs]; extra_data.client_id is the client that submitted it); GET
 * /history/<id> afterwards (status, the messages execution_start / execution_cached /
 * execution_success / execution_error with node_id and node_type / execution_interrupted).
 * The websocket /ws gives every client the `status` broadcasts (queue_remaining), but the
 * execution messages (`execution_start`, `executing`, `progress`, `executed`, ...) go only
 * to the client id in the prompt's extra_data — to everyone when the prompt has none (an API
 * script). headroom connects with its own client id and never takes another's: when a
 * browser tab owns the prompt, the node that runs is not visible, and growth is attributed
 * to the prompt (and, under `run`, to the model loads the console announces).
 *
 * Pure: text in, structures out, bounded, fuzzed (tests/fuzz/fuzz_comfy.c). */
#ifndef HR_COMFY_WATCH_H
#define HR_COMFY_WATCH_H

#include "core/base/msg.h"
#include "core/base/error.h"
#include "core/watch/watch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_COMFY_ID_MAX      72
#define HR_COMFY_CLASS_MAX   64
#define HR_COMFY_NODES_MAX   1024
#define HR_COMFY_DEVICES_MAX 4
#define HR_COMFY_BODY_MAX    ((size_t)32 << 20)

typedef struct hr_comfy_device {
    char name[128];
    char type[16];
    int64_t vram_total, vram_free; /* HR_W_UNKNOWN when not given */
} hr_comfy_device;

typedef struct hr_comfy_stats {
    char version[64]; /* comfyui_version, "" when not given */
    char os[16];
    int64_t ram_total, ram_free;
    int ndev;
    hr_comfy_device dev[HR_COMFY_DEVICES_MAX];
    /* where the server's ComfyUI lives, from system.argv: `--base-directory DIR`, else the
     * folder of an absolute argv[0] that is main.py; "" when argv does not say */
    char base_dir[1024];
} hr_comfy_stats;

int hr_comfy_parse_stats(const char *body, size_t n, hr_comfy_stats *out, hr_error *err);

/* Does a process's command line look like ComfyUI (X.localserver)? Its main.py, a
 * "comfy" launcher or package (comfy-cli, comfyui, the Desktop app's ComfyUI.exe),
 * case-insensitive. A root `check` asks a local server only when this holds. */
bool hr_comfy_cmdline_is_comfyui(const char *cmdline);
/* Is host a loopback name or address (localhost, 127.0.0.0/8, ::1)? */
bool hr_comfy_host_is_local(const char *host);

typedef struct hr_comfy_node {
    char id[24];
    char class_type[HR_COMFY_CLASS_MAX];
} hr_comfy_node;

/* GET /queue: the running prompt (the first of queue_running). */
typedef struct hr_comfy_queue {
    bool running;
    char prompt_id[HR_COMFY_ID_MAX];
    char client_id[HR_COMFY_ID_MAX]; /* "" when the prompt has none */
    int pending;                     /* queue_pending's length */
    size_t n_nodes;
    hr_comfy_node nodes[HR_COMFY_NODES_MAX];
} hr_comfy_queue;

int hr_comfy_parse_queue(const char *body, size_t n, hr_comfy_queue *out, hr_error *err);
/* The class_type of a node of that prompt, or NULL. */
const char *hr_comfy_class_of(const hr_comfy_queue *q, const char *node);

/* GET /history/<id> */
typedef struct hr_comfy_history {
    bool found;
    char status[24]; /* status_str: "success", "error", "" */
    bool completed;
    bool interrupted;
    int cached; /* nodes taken from the cache */
    char error_node[24], error_class[HR_COMFY_CLASS_MAX];
    char exception[200];
} hr_comfy_history;

int hr_comfy_parse_history(const char *body, size_t n, const char *prompt_id, hr_comfy_history *out, hr_error *err);

/* One websocket text message {"type":..., "data":{...}}. Unknown types are HR_CMSG_OTHER. */
typedef enum hr_cmsg_type {
    HR_CMSG_OTHER = 0,
    HR_CMSG_STATUS,
    HR_CMSG_EXECUTION_START,
    HR_CMSG_EXECUTING,
    HR_CMSG_EXECUTED,
    HR_CMSG_PROGRESS,
    HR_CMSG_CACHED,
    HR_CMSG_SUCCESS,
    HR_CMSG_ERROR,
    HR_CMSG_INTERRUPTED
} hr_cmsg_type;

typedef struct hr_comfy_msg {
    hr_cmsg_type type;
    char type_name[32];
    char sid[HR_COMFY_ID_MAX]; /* status: our own client id, when given */
    int queue_remaining;       /* status; -1 when not given */
    char prompt_id[HR_COMFY_ID_MAX];
    char node[24]; /* "" with node_null for executing: null */
    bool node_null;
    char node_type[HR_COMFY_CLASS_MAX]; /* execution_error / interrupted */
    char exception[200];
} hr_comfy_msg;

int hr_comfy_parse_msg(const char *text, size_t n, hr_comfy_msg *out, hr_error *err);

/* ---- attribution: which node (or prompt, or model load) memory grew under ---- */
typedef enum hr_cev_kind {
    HR_CEV_PROMPT_START = 0,
    HR_CEV_PROMPT_END,
    HR_CEV_NODE_START,
    HR_CEV_NODE_END,
    HR_CEV_MODEL_LOAD,
    HR_CEV_LIKELY /* the estimate's likely node of a prompt another client owns */
} hr_cev_kind;

/* One span being measured: from its start sample to now. */
typedef struct hr_cspan {
    bool active;
    int64_t t_start;
    int64_t ram_start, commit_start, rss_start;
    int64_t ram_peak, commit_peak, rss_peak;
} hr_cspan;

typedef struct hr_comfy_event {
    hr_cev_kind kind;
    const char *source; /* "queue", "history", "websocket", "console" */
    char prompt_id[HR_COMFY_ID_MAX];
    char node[24];
    char class_type[HR_COMFY_CLASS_MAX];
    char text[200];  /* console / model load: the line; prompt end: how */
    hr_msg said;     /* headroom's own words for text (how a prompt ended, the estimate's note), kept as data:
                  * the recording and JSON word them in English, the screen in the user's language */
    bool has_growth; /* end events */
    int64_t ram_growth, commit_growth, rss_growth; /* HR_W_UNKNOWN when not known */
    int64_t ram_peak, rss_peak;
    int64_t duration_ms;
} hr_comfy_event;

typedef struct hr_comfy_track {
    char prompt_id[HR_COMFY_ID_MAX];
    hr_cspan prompt;
    char node[24];
    char class_type[HR_COMFY_CLASS_MAX];
    const char *node_source;
    hr_cspan nodespan;
    char load_text[200];
    /* the node running when the load was requested: the load is its, even when the
     * "loaded" line is read after the next node started (the link reads the console and
     * the websocket on two threads) */
    char load_node[24], load_class[HR_COMFY_CLASS_MAX];
    hr_cspan load;
    /* the node that grew most so far, for the end */
    hr_comfy_event heaviest;
    bool have_heaviest;
} hr_comfy_track;

void hr_comfy_track_init(hr_comfy_track *t);
/* Every sample: the open spans' peaks. */
void hr_comfy_track_sample(hr_comfy_track *t, const hr_wsample *s);
/* Each returns how many events it wrote to ev (at most 2: the end of what ran, the start of
 * what runs now). s is the freshest sample. */
int hr_comfy_prompt_start(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *source,
                          hr_comfy_event ev[2]);
/* how: "success", "error", "interrupted", "" */
int hr_comfy_prompt_end(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *source,
                        const char *how, hr_comfy_event ev[2]);
int hr_comfy_node_start(hr_comfy_track *t, const hr_wsample *s, const char *prompt_id, const char *node,
                        const char *class_type, const char *source, hr_comfy_event ev[2]);
int hr_comfy_node_end(hr_comfy_track *t, const hr_wsample *s, const char *source, hr_comfy_event ev[2]);
/* Console: "Requested to load X" opens a model-load span, "loaded completely/partially"
 * closes it (one event with the growth). */
int hr_comfy_console(hr_comfy_track *t, const hr_wsample *s, const char *line, size_t n, hr_comfy_event ev[2]);

/* "node 12 VAEDecode: +9.2 GB RAM, peak 14.5 GB" (translated), for end events. */
/* e's text in lang: its words (said) when it has them, else the line as read. */
void hr_comfy_event_words(const hr_comfy_event *e, hr_lang lang, char *out, size_t n);
void hr_comfy_event_text(const hr_comfy_event *e, char *out, size_t n);
/* The recording's node line (docs/recording.md). */
void hr_rec_node_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_comfy_event *e);

#endif
