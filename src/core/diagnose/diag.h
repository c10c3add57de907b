/* headroom — diagnosis: why did a generation run die?
 *
 * Seed rule S2.1: three kinds of "out of memory" need three different fixes, and users lose
 * hours fixing the wrong one. The classifier reads console logs line by line (already
 * decoded by textdec.h) and system records (kernel log, Windows event log), recognises the
 * failure messages of PyTorch, the OS and the tools around them, and names the cause:
 *
 *   gpu-oom             the GPU's memory (VRAM) ran out
 *   host-oom            the commit limit (RAM + paging file / swap) or a RAM allocation failed
 *   killed              the OS ended the process (OOM killer, memcg, systemd-oomd, earlyoom,
 *                       a sudden stop with no error)
 *   low-virtual-memory  Windows warned that virtual memory (commit) is low
 *   not-memory          looks like memory, is not (illegal access, device assert, TDR, segfault)
 *   unknown             nothing recognised
 *
 * The first failure in the input wins; the others are kept as further findings. Memory is
 * bounded: fixed-size evidence slots per cause, nothing kept per line. Pure core: no I/O. */
#ifndef HR_DIAG_H
#define HR_DIAG_H

#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/base/phrase_match.h"
#include "core/diagnose/diag_causes.h"
#include "core/diagnose/diag_machine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_DIAG_EVIDENCE_FIRST 4 /* the first lines of a cause are kept... */
#define HR_DIAG_EVIDENCE_LAST  4 /* ...and the latest ones */
#define HR_DIAG_EVIDENCE_MAX   (HR_DIAG_EVIDENCE_FIRST + HR_DIAG_EVIDENCE_LAST)
#define HR_DIAG_TEXT_MAX       320
#define HR_DIAG_REASON_MAX     256 /* a reason (why) formatted, in either language */
#define HR_DIAG_DETAIL_MAX     200 /* a source's detail formatted, as the report showed it */
#define HR_DIAG_SOURCE_MAX     64
#define HR_DIAG_INPUTS_MAX     64
#define HR_DIAG_SOURCES_MAX    12

typedef struct hr_diag_evidence {
    int input;     /* index into inputs, -1 for a system record */
    uint64_t line; /* 1-based line in that input; 0 for a record */
    int64_t time;  /* record time, Unix seconds; 0 = not known */
    hr_confidence conf;
    char source[HR_DIAG_SOURCE_MAX]; /* system records: "/dev/kmsg", "event log System 2004"
                                        (a described source in the language it was made in) */
    hr_msg source_msg;               /* a source described in words ("event log %s %u"); not
                                        set: source is a plain name */
    hr_msg why;                      /* system records: why this one is about the run (not
                                        set: no reason); formatted by the renderer */
    hr_msg what;                     /* a record headroom describes in words (a counter, a
                                        decoded event); not set: text is the line as read */
    char tail[HR_DIAG_TEXT_MAX];     /* language-neutral text after what (a list of processes) */
    unsigned short what_cap;         /* what + tail is cut at this many bytes less one */
    char text[HR_DIAG_TEXT_MAX];     /* the line (trimmed, cut around the match), UTF-8; a
                                        described record's in the language it was made in (the
                                        renderers use hr_diag_evidence_text) */
} hr_diag_evidence;

typedef struct hr_diag_finding {
    bool present;
    hr_cause cause;
    hr_confidence conf;  /* the strongest evidence's */
    uint64_t order;      /* when its first evidence came (smaller = earlier) */
    uint64_t count;      /* lines / records that showed it */
    const char *meaning; /* one sentence (static) */
    int64_t victim_pid;  /* killed: the process the OS ended; -1 = not named */
    char victim[32];
    size_t nfirst;   /* evidence[0..nfirst) are the first ones */
    size_t nlast;    /* then up to HR_DIAG_EVIDENCE_LAST latest, a ring */
    size_t last_pos; /* next ring slot */
    hr_diag_evidence evidence[HR_DIAG_EVIDENCE_MAX];
    int last_input; /* where the last line counted came from (no double counts) */
    uint64_t last_line;
    hr_diag_evidence *last_ev; /* its evidence slot */
    bool specific;             /* some evidence was more than an unqualified "OOM" */
} hr_diag_finding;

typedef struct hr_diag_input {
    const char *name;     /* caller's string; must outlive the context */
    const char *encoding; /* static string from textdec */
    uint64_t bytes;
    uint64_t lines;
    uint64_t long_lines;
    uint64_t bad_bytes;            /* bytes that are not text (hr_diag_input_text) */
    bool not_text;                 /* binary data, not a console log */
    uint64_t hits;                 /* evidence lines found in it */
    int64_t mtime;                 /* last written, Unix seconds; 0 = not known */
    int64_t first_time, last_time; /* its own timestamps (local time made UTC); 0 = none */
} hr_diag_input;

/* A system record that was read but not blamed, and why (another process, another time). */
typedef struct hr_diag_ignored {
    char source[HR_DIAG_SOURCE_MAX]; /* a plain name, unless source_msg is set */
    hr_msg source_msg;
    int64_t time;
    char text[160];
    hr_msg why;
} hr_diag_ignored;

#define HR_DIAG_IGNORED_MAX 6

/* A memory shortage the run survived (a retry with tiles) or a notice that only mentions
 * memory: reported as a warning with the tier it concerns, never as the cause. */
typedef struct hr_diag_warning {
    hr_cause tier; /* HR_CAUSE_GPU_OOM (VRAM) or HR_CAUSE_HOST_OOM (RAM) */
    uint64_t count;
    int input;
    uint64_t line;
    char text[HR_DIAG_TEXT_MAX]; /* the first one */
    uint64_t last_key;           /* the last line counted (no double counts) */
} hr_diag_warning;

typedef struct hr_diag_source {
    char name[64]; /* an English msgid ("kernel log", "event log") or a plain name ("journal",
                      "/proc/vmstat"), translated where it is shown */
    bool ok;
    int64_t records; /* records read; -1 = not applicable */
    hr_msg detail;   /* what was read, or why not */
} hr_diag_source;

/* The terminal-event finder's kinds of candidate. */
enum hr_event_kind {
    HR_EV_NONE = 0,
    HR_EV_EXCEPTION,  /* "ValueError: ..." — a language's exception line */
    HR_EV_ERROR_LINE, /* "error: ...", "level=ERROR", an exit code without a known cause */
    HR_EV_HEADER,     /* "Fatal Python error", "Stack (most recent call first)", ... */
    HR_EV_LIMIT       /* a limit, not exhaustion (mlock): the weakest of all */
};

/* The terminal-event finder's state (diag_event.c): the last failure-shaped line of the
 * current input that no phrase explained, judged when the input ends. */
typedef struct hr_diag_event {
    int kind; /* hr_event_kind; 0 = none */
    hr_confidence conf;
    hr_cause cause;
    const char *meaning;
    uint64_t line;
    uint64_t seq; /* its place in "the first failure wins" */
    char text[HR_DIAG_TEXT_MAX];
    bool prev_shaped; /* the line before was a frame or indented code */
    bool frame_tail;  /* the last non-blank line was a stack frame */
    bool in_stack;
    uint64_t stack_line, stack_seq; /* the first frame of the stack that is open */
    char stack_text[HR_DIAG_TEXT_MAX];
    bool want_next; /* a header ("### Reason ###"): its next line says why */
} hr_diag_event;

typedef struct hr_diag_ctx {
    hr_acm acm;
    /* A tqdm bar's redraw ("45%|####5     | 9/20 [00:10<00:12,  1.1s/it]") is most of a
     * log's bytes: made only of bar_bytes and ending in a bar phrase, it can hold no other
     * phrase, and its effect is known without the matcher (hr_diag_init checks that no
     * other phrase can be spelled with these bytes; bar_rule < 0 turns this off). */
    unsigned char bar_bytes[256];
    int bar_rule[2]; /* "it/s]", "s/it]" */
    hr_diag_finding findings[HR_CAUSE_COUNT];
    uint64_t seq; /* order counter */
    /* the current input */
    int input;
    uint64_t prev_line;
    unsigned carry_state; /* matcher state carried into a folded next line */
    uint64_t carry_line;
    size_t carry_len;
    char carry_text[256];
    bool have_marker; /* an error / traceback / finding seen in this input */
    uint64_t marker_line;
    /* the run's state in the current input, for a silent stop (S2.1) */
    int run_state; /* 0 idle, 1 loading or sampling, 2 a prompt finished */
    uint64_t busy_line;
    char busy_text[200];
    /* a Python traceback in progress: its final line is the exception */
    bool in_traceback;
    uint64_t traceback_line;
    hr_diag_event ev;     /* the terminal-event finder (diag_event.c) */
    bool pagefile_blamed; /* a log's program said its page file is short */
    /* which run the system records must be about */
    int64_t pid;                      /* --pid, -1 = any process of the run */
    char pid_cgroup[192];             /* the cgroup of --pid, read while it still runs (Linux:
                                        /proc/PID/cgroup), "" = unknown: the kernel's OOM
                                        record of another process in it is the run's tree */
    int64_t tz_offset;                /* local time - UTC, seconds, for the logs' timestamps */
    int64_t window_start, window_end; /* the run's time window (Unix s); 0 = open */
    hr_msg window_why;                /* not set: no window */
    size_t nignored;
    uint64_t ignored_total;
    hr_diag_ignored ignored[HR_DIAG_IGNORED_MAX];
    hr_diag_warning warnings[2]; /* [0] VRAM, [1] RAM */
    /* inputs and system sources, for the report */
    size_t ninputs;
    hr_diag_input inputs[HR_DIAG_INPUTS_MAX];
    bool system_checked;             /* system records were looked at */
    bool windows;                    /* the advice is for Windows (no cgroup / systemd) */
    int log_os;                      /* a log's "** Platform: X": 0 not said, 1 Linux, 2 Windows */
    hr_diag_log_machine log_machine; /* what ComfyUI said at start it runs on */
    char system_reason[160];         /* why not, when not */
    int64_t since_seconds;           /* the period the system records cover */
    size_t nsources;
    hr_diag_source sources[HR_DIAG_SOURCES_MAX];
    /* results (hr_diag_finish) */
    const hr_diag_finding *order[HR_CAUSE_COUNT]; /* winner first, then by first sight */
    size_t norder;
} hr_diag_ctx;

/* Set up (builds the phrase matcher). hr_diag_free releases it. */
int hr_diag_init(hr_diag_ctx *c, hr_error *err);
void hr_diag_free(hr_diag_ctx *c);
/* Forget all input and findings, keep the matcher (diagnose another set of logs). */
void hr_diag_reset(hr_diag_ctx *c);

/* Logs: begin an input (name kept by pointer), feed its decoded segments in order, end it. */
int hr_diag_begin_input(hr_diag_ctx *c, const char *name);
void hr_diag_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags);
void hr_diag_end_input(hr_diag_ctx *c, const char *encoding, uint64_t bytes, uint64_t lines, uint64_t long_lines);
/* Before hr_diag_end_input: how much of the input was not text (textdec's count) and whether
 * it is binary data rather than a log, and when the file was last written (0 = unknown). */
void hr_diag_input_text(hr_diag_ctx *c, uint64_t bad_bytes, bool not_text, int64_t mtime);
/* After all logs, before the system records: the time window the records must fall in,
 * from the logs' own timestamps and the files' mtimes. */
void hr_diag_set_window(hr_diag_ctx *c);

/* System records: one kernel / journal / event record, classified with the same phrases as
 * log lines; source names where it came from, time is Unix seconds or 0. */
void hr_diag_feed_record(hr_diag_ctx *c, const char *source, int64_t time, const char *text, size_t len);
/* The same for a record whose source is described in words ("event log %s %u"). */
void hr_diag_feed_record_msg(hr_diag_ctx *c, const hr_msg *source, int64_t time, const char *text, size_t len);
/* Evidence that needs no phrase matching (a counter, a decoded event), described in words:
 * what (an English template and its values, shown in the report's language), then tail,
 * language-neutral text ("" for none); the whole is cut at cap - 1 bytes (cap at most
 * HR_DIAG_TEXT_MAX: the length such a line always had) and clipped as a line is. meaning may
 * be NULL. */
void hr_diag_add_msg(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const hr_msg *source, int64_t time,
                     const hr_msg *what, const char *tail, size_t cap, const char *meaning);
/* Record which system source was read (or why not), for the report: name and fmt are English
 * msgids (HR_N) or plain text, kept as a message and shown in the report's language. Returns
 * the detail (to mark a %s argument that is a msgid too), NULL when there was no room. */
HR_PRINTF(5, 6)
hr_msg *hr_diag_note_source(hr_diag_ctx *c, const char *name, bool ok, int64_t records, const char *fmt, ...);

/* Does a system record's subject (a process name, a pid, a cgroup or unit) belong to the
 * run? 1 yes, 0 maybe (a terminal's scope the run may have been in), -1 another program. */
int hr_diag_subject_is_run(const hr_diag_ctx *c, const char *name, int64_t pid);

/* Decide: order the findings, winner first. Call once after all input. */
void hr_diag_finish(hr_diag_ctx *c);
/* The winning cause (HR_CAUSE_UNKNOWN when nothing was found) and its confidence. */
hr_cause hr_diag_cause(const hr_diag_ctx *c);
hr_confidence hr_diag_confidence(const hr_diag_ctx *c);

/* A finding's evidence in order: the first ones, then the latest (at most
 * HR_DIAG_EVIDENCE_MAX); returns how many. */
size_t hr_diag_evidence_list(const hr_diag_finding *f, const hr_diag_evidence *out[HR_DIAG_EVIDENCE_MAX]);

/* An evidence's source and text as a report in lang shows them: a described one formatted
 * into out (HR_DIAG_SOURCE_MAX, HR_DIAG_TEXT_MAX bytes), a plain one as it was read. */
const char *hr_diag_evidence_source(const hr_diag_evidence *e, hr_lang lang, char out[HR_DIAG_SOURCE_MAX]);
const char *hr_diag_evidence_text(const hr_diag_evidence *e, hr_lang lang, char out[HR_DIAG_TEXT_MAX]);
/* A set-aside record's source the same way. */
const char *hr_diag_ignored_source(const hr_diag_ignored *g, hr_lang lang, char out[HR_DIAG_SOURCE_MAX]);

/* The fix for this report: per OS (no cgroup or systemd advice on Windows), and for unknown,
 * what to read next (the event log by hand when it could not be read, --no-system left out). */
const char *hr_diag_fix(const hr_diag_ctx *c, hr_cause cause);

/* A Windows event, values rendered to UTF-8 strings in template order (see winevent.c). */
typedef struct hr_winevent {
    const char *channel;  /* "Application", "System" */
    const char *provider; /* "Application Error", ... */
    unsigned id;
    int64_t time; /* Unix seconds, 0 = not known */
    size_t nvalues;
    const char *const *values;
} hr_winevent;

/* Classify one event: 1000/1001 crashes of python.exe and friends, .NET 1023/1026, 2004
 * Resource-Exhaustion-Detector (low virtual memory, with its top consumers), Application
 * Popup 26. Returns true when it became evidence. */
bool hr_diag_feed_winevent(hr_diag_ctx *c, const hr_winevent *ev);

#endif
