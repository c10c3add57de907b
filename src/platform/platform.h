/* headroom — the platform interface.
 *
 * One header, implemented once per OS (src/platform/linux/, src/platform/win/). Backends
 * read the OS and fill plain core structs; all judgement lives in the core. Each probe fails
 * alone: a missing source marks its section unknown with a reason and the others go on. */
#ifndef HR_PLATFORM_H
#define HR_PLATFORM_H

#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/diagnose/diag.h"
#include "core/model/snapshot.h"

#include <stdint.h>
#include <stdio.h>

#define HR_NET_PEER_MAX 300

typedef struct hr_probe_opts {
    /* Linux: root of the /proc and /sys tree to read ("/" = this machine). Tests replay
     * recorded trees through it. Ignored on Windows. (A recording of Win32 answers is not
     * probed but read: the CLI hands it to the core, core/model/win_model.h hr_win_replay.) */
    const char *sysroot;
    /* Windows: also write the raw Win32 answers of this run as such a JSON file (a
     * recording for a bug report or a test fixture). Refused elsewhere (HR_ENOTSUP). */
    const char *record;
    bool skip_gpu;   /* don't load NVML / query GPUs */
    bool skip_procs; /* don't list processes */
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
int hr_platform_oom_evidence(const hr_probe_opts *opts, int64_t since_seconds, hr_diag_ctx *ctx, hr_error *err);

/* Read a whole file (a recording, a log) into b, at most max bytes (larger: HR_ETOOBIG).
 * path is UTF-8 on every OS. Errors name the file: HR_ENOENT when it does not exist. */
int hr_platform_read_file(const char *path, hr_buf *b, size_t max, hr_error *err);

/* The OS this binary was built for. */
hr_os hr_platform_os(void);

/* The user's language for messages, as a locale name ("zh_CN.UTF-8", "zh-CN", "en-US"):
 * Linux — LANGUAGE (its first entry), LC_ALL, LC_MESSAGES, LANG, the first one set (the
 * order gettext uses); Windows — the user's display language. false when none is known. */
bool hr_platform_ui_language(char *out, size_t n);

/* ---- the console the CLI writes to (src/cli/console.h says what each is for) ----
 * Windows: console windows, code pages and the CRT's text mode; Linux: mostly nothing. */

/* Windows: replace *argv with UTF-8 copies of the wide command line (kept until exit), note
 * the code page redirected text is written in (hr_platform_console_write), and when stdout or
 * stderr is a console window set its output code page to UTF-8 (for bytes written there as
 * they are: the output run passes on) until exit, when the user's is put back, and turn on its ANSI escape
 * processing. Elsewhere nothing. */
void hr_platform_console_start(int *argc, char ***argv);
/* Windows: the console window was made for this process alone and its input is a console
 * (Explorer started it: a double-click). Elsewhere false. */
bool hr_platform_console_alone(void);
/* Write UTF-8 s to f (stdout or stderr) so that it reads right where it goes. A console
 * window: as UTF-16, right whatever the code page. Windows, f a file or a pipe, and text (words
 * for people; JSON, Prometheus text and HTML pass false and stay UTF-8): in the code page
 * cmd's `type` and PowerShell decode a program's output with, the console's output code page
 * as it was when headroom started, else the OEM code page (936 on Chinese Windows); a
 * character that code page lacks becomes its ASCII stand-in (hr_utf8_ascii_fallback) or '?'.
 * Returns 1 when written, 0 when f takes the UTF-8 bytes through stdio (that code page is
 * UTF-8, not text, or not Windows), -1 on a failed write. */
int hr_platform_console_write(FILE *f, const char *s, size_t n, bool text);
/* Windows: one key from the console's input, after dropping what was typed before: true for
 * Enter, y or Y; false for another key or no console. Elsewhere false. */
bool hr_platform_console_ask_yes(void);
/* Windows: wait for any key in the console. Elsewhere return at once. */
void hr_platform_console_wait_key(void);
/* Is stdout a terminal that shows ANSI colour (Windows: a console with escape processing)? */
bool hr_platform_stdout_color(void);
/* Is f a terminal? */
bool hr_platform_is_tty(FILE *f);
/* Is f (stdout or stderr) the stream systemd's JOURNAL_STREAM names ("dev:inode")? Always
 * false on Windows. */
bool hr_platform_journal_stream(FILE *f);
/* Windows: f passes bytes as they are (no "\n" to "\r\n", no ^Z end). Elsewhere nothing. */
void hr_platform_binary_mode(FILE *f);
/* fopen() for a UTF-8 path (Windows: through _wfopen; a name that is not UTF-8 goes to fopen
 * as it is). */
FILE *hr_platform_fopen(const char *path, const char *mode);
/* The last change of the open file f, Unix seconds; 0 when not known. */
int64_t hr_platform_file_mtime(FILE *f);
/* Windows: the user's temporary folder, UTF-8, ending in a separator. false elsewhere, or
 * when it cannot be told. */
bool hr_platform_temp_dir(char *out, size_t n);
/* Windows: open path (UTF-8) with its default program (a page in the browser); true when it
 * opened. Elsewhere false. */
bool hr_platform_open_default(const char *path);

/* ---- apply / rollback / verify (docs/apply.md) ----
 * The facts are gathered and the steps run here; the decisions are the core's
 * (core/apply/apply_plan.h, core/apply/apply_verify.h). */
#include "core/apply/apply_plan.h"
#include "core/apply/apply_verify.h"
#include "core/base/buf.h"

typedef struct hr_apply_request {
    uint64_t size_bytes;      /* Linux: the swap file; Windows: initial = maximum */
    uint64_t range_min_bytes; /* Windows --range MIN:MAX (0 = not given) */
    uint64_t range_max_bytes;
    const char *target;       /* Linux: directory or file path; Windows: "D:" or "D:\" */
    int priority;             /* Linux swap priority */
    const char *fstab_path;   /* Linux; NULL = /etc/fstab */
    const char *state_dir;    /* NULL = /var/lib/headroom or %ProgramData%\headroom */
    const char *failpoint;    /* stop after the step of this name (tests) */
    const char *registry_key; /* Windows: Memory Management key under HKLM; NULL = real */
    bool allow_shrink;        /* --allow-shrink: the total paging / swap may go down */
    bool from_plan;           /* --from-plan: Linux size_bytes is what the plan adds (see
                                   * hr_apply_linux_grow_own) */
    /* Told how far a long step is (Linux: zeros written where the file system has no
     * fallocate, tens of GB at disk speed): done of total bytes, at most once per MiB and
     * once more at the end. NULL: nobody asks. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
} hr_apply_request;

/* One apply or rollback at a time per state directory: Linux takes an advisory lock (flock)
 * on the state directory (made 0700 when create), Windows a named mutex. Waits up to wait_s
 * seconds, then HR_EBUSY saying who holds it. 1: held; 0: no state directory (create false:
 * nothing recorded, nothing to lock). While it is held, apply, rollback and verify first
 * finish or undo a step an earlier run was killed in (the journal in the state file). */
int hr_platform_lock(const hr_apply_request *rq, bool create, int wait_s, hr_error *err);
void hr_platform_unlock(void);

/* Gather the facts and build the plan (a refusal is HR_EUNSAFE with the reason). */
int hr_platform_apply_plan(const hr_apply_request *rq, hr_apply_plan *plan, hr_error *err);
/* Run the plan's steps in order, recording each in the state file first-to-last. Appends
 * one line per completed step to log. Returns 0 when done, 1 when stopped at rq->failpoint,
 * a negative code when a step failed (the system is left consistent; log says how far). */
int hr_platform_apply_run(const hr_apply_request *rq, const hr_apply_plan *plan, hr_buf *log, hr_error *err);
/* Undo what the state file says headroom changed. dry_run: only describe it in log.
 * 1: something was undone (or would be); 0: there was nothing to undo. */
int hr_platform_rollback(const hr_apply_request *rq, bool dry_run, hr_buf *log, hr_error *err);
/* Configured vs in use. */
int hr_platform_verify(const hr_apply_request *rq, hr_verify_result *res, hr_error *err);
/* Root (Linux) / an elevated administrator token (Windows). */
bool hr_platform_is_admin(void);
/* Replace a file's contents atomically: temporary file in the same directory, fsync,
 * rename over, fsync of the directory. Keeps the old file's mode (new files: `mode`). */
int hr_platform_atomic_replace(const char *path, const void *data, size_t len, unsigned mode, hr_error *err);
/* ---- files written where the user says (--log, --record, --html, -o, --textfile) ----
 * The one home of their safety, for every command (docs/run.md). The last part of the path
 * is never followed if it is a link (Windows: a reparse point); a file that is there must be
 * a regular file of the user running headroom (no other owner's file, Linux: one link only);
 * as root (an administrator), a folder another user could write in (its owner is not root,
 * or others may write it without the sticky bit) is refused, since its owner can plant a
 * link there at any time. Errors name the path and what is wrong. */
/* A whole document (HTML, a report, metrics): written to a temporary file with a unique name
 * in the same folder (".NAME.XXXXXX"), flushed to disk, renamed over path; the mode of the
 * file it replaces is kept (a new one gets mode 0644, less the umask). Two writers at once
 * never collide; a reader sees the old file or the new one, whole. */
int hr_platform_output_replace(const char *path, const void *data, size_t len, hr_error *err);
/* A stream (a live log, a recording), written as it goes: created with mode 0644 (less the
 * umask) or emptied if it is there, opened for writing only. NULL with err set. */
FILE *hr_platform_output_open(const char *path, hr_error *err);
/* ---- stress (docs/stress.md) ----
 * Commit rq->commit_bytes in steps of step_bytes (touching every page with rq->touch),
 * calling step(ctx, i, res) after each step, until done or the first failure; then release
 * everything. Linux: a child process allocates (an OOM kill ends it, not us), in a new memory
 * cgroup of rq->cgroup_bytes when asked (root; removed afterwards). Windows: VirtualAlloc
 * MEM_COMMIT in this process, in a job object with that commit limit when asked. Returns 0
 * with res->outcome saying how it ended; a negative code when the test could not start
 * (HR_EPERM: --cgroup needs root; HR_ENOTSUP). */
#include "core/stress/stress.h"
typedef void (*hr_stress_step_fn)(void *ctx, int i, const hr_stress_result *res);
int hr_platform_stress(const hr_stress_req *rq, uint64_t step_bytes, hr_stress_step_fn step, void *ctx,
                       hr_stress_result *res, hr_error *err);

/* The default state directory of this OS. */
const char *hr_platform_state_dir(void);

/* ---- watch / run (docs/watch.md, docs/run.md) ----
 * The sampler reads one hr_wsample per call; the judgement is the core's
 * (core/watch/watch.h). Everything it needs is allocated by hr_sampler_open: a sample
 * allocates nothing, so the monitor keeps its cadence when memory runs out. */
#include "core/watch/watch.h"

typedef struct hr_sampler hr_sampler;

typedef struct hr_sampler_opts {
    int64_t pid;            /* the process tree to follow (its root); -1 none */
    const char *name;       /* ...or every process whose name or command line contains this */
    const char *cgroup_dir; /* Linux: the memory cgroup to read (run's child); NULL: the
                             * target's (the pid's, else headroom's own) and its ancestors' */
    void *job;              /* Windows: the job object of run's child (HANDLE); NULL none */
} hr_sampler_opts;

int hr_sampler_open(const hr_sampler_opts *opts, hr_sampler **out, hr_error *err);
/* One sample: every field the OS answers, the others unknown (HR_W_UNKNOWN / < 0). */
void hr_sampler_take(hr_sampler *s, hr_wsample *out);
/* Follow another process tree from now on (run: the child, once started). */
void hr_sampler_set_pid(hr_sampler *s, int64_t pid);
/* Wait up to ms for the next sample, or less: Linux arms a PSI trigger on
 * /proc/pressure/memory at the first wait (where the kernel accepts one) and returns 1 as
 * soon as memory stalls pass 10 % of its window; 0 when the time is up, a stop signal came
 * (hr_platform_catch_stop) or there is no trigger (a plain sleep: Windows, old kernels). */
int hr_sampler_wait(hr_sampler *s, int64_t ms);
void hr_sampler_close(hr_sampler *s);

/* Clocks: monotonic milliseconds (any origin) and Unix milliseconds. */
int64_t hr_platform_mono_ms(void);
int64_t hr_platform_wall_ms(void);
/* Ctrl-C / termination: from now on they set *flag (to the signal number, or 1) instead of
 * ending headroom. hr_platform_sleep_ms returns early when it is set. */
void hr_platform_catch_stop(volatile int *flag);
void hr_platform_sleep_ms(int64_t ms);
/* ---- run: a child with pipes, in its own memory cgroup (Linux) or job object (Windows) ---- */
typedef struct hr_child hr_child;

typedef struct hr_child_opts {
    char *const *argv;    /* the command; argv[0] looked up in PATH */
    bool own_cgroup;      /* Linux: a memory cgroup of its own (best effort); Windows: a job */
    uint64_t limit_bytes; /* 0: none; else memory limit of that cgroup / job, no swap */
} hr_child_opts;

typedef struct hr_child_exit {
    bool exited; /* normal exit: code; else killed by signal */
    int code;
    int signal;       /* Linux; 0 on Windows */
    int64_t oom_kill; /* the child's cgroup's oom_kill count, -1 without a cgroup */
    int64_t peak;     /* memory.peak / max_usage_in_bytes / the job's peak; -1 */
    int64_t start_wall_ms, end_wall_ms;
} hr_child_exit;

/* Start the child; its stdout and stderr come back through pipes. cgroup_note gets why the
 * child has no cgroup of its own (or "" when it has). */
int hr_child_start(const hr_child_opts *o, hr_child **out, char *cgroup_note, size_t note_n, hr_error *err);
int64_t hr_child_pid(const hr_child *c);
/* The child's cgroup directory (for the sampler), or NULL; Windows: the job (a HANDLE). */
const char *hr_child_cgroup(const hr_child *c);
void *hr_child_job(const hr_child *c);
/* Wait up to timeout_ms for output and pass every chunk, as read, to out(ctx, 1|2, ...).
 * Forwards a termination headroom received (see hr_child_forward). Returns 1 when the child
 * has ended and its output is drained, 2 when memory pressure appeared first (wake: the
 * sampler's PSI trigger, as hr_sampler_wait arms it; Linux; NULL or Windows: never), 0 on
 * timeout, < 0 on error. */
typedef void (*hr_child_out_fn)(void *ctx, int stream, const char *data, size_t n);
int hr_child_pump(hr_child *c, int64_t timeout_ms, hr_sampler *wake, hr_child_out_fn out, void *ctx);
/* Catch Ctrl-C and termination for the child: a signal the terminal sent to the whole group
 * reaches the child by itself; one sent to headroom alone is passed on. */
void hr_child_catch_signals(hr_child *c);
/* How it ended (after hr_child_pump returned 1). */
void hr_child_result(hr_child *c, hr_child_exit *e);
/* Close pipes, remove the cgroup (the child's processes are gone). */
void hr_child_close(hr_child *c);
/* Write bytes unchanged to headroom's stdout (1) or stderr (2): all of them, or false. */
bool hr_platform_write_stream(int stream, const void *data, size_t n);

/* Which process listens on TCP port `port` of this machine's loopback (127.0.0.0/8, ::1,
 * or every address): its command line (arguments joined by spaces, one line, up to n
 * bytes) and its pid. 1: found; 0: nothing listens there, or no process holds the socket;
 * HR_ENOTSUP where the OS is not asked (Windows); another negative code when it cannot be
 * read. Linux: the socket's inode in /proc/net/tcp and tcp6, then the process whose
 * /proc/PID/fd holds it. */
int hr_platform_local_listener(unsigned port, char *cmdline, size_t n, long long *pid);

/* ---- a helper thread and a lock (watch --comfyui: the network off the sampling path) ---- */
typedef struct hr_thread hr_thread;
typedef struct hr_lock hr_lock;
/* Start fn(arg) on a thread of its own (NULL when it cannot be started). */
hr_thread *hr_thread_start(void (*fn)(void *), void *arg);
/* Wait up to timeout_ms for it to end: true when it ended (then t is freed); false when it
 * still runs (it is left to end with the process, t not freed). */
bool hr_thread_join(hr_thread *t, int timeout_ms);
hr_lock *hr_lock_new(void);
void hr_lock_take(hr_lock *l);
void hr_lock_give(hr_lock *l);
void hr_lock_free(hr_lock *l);
/* Start fn(arg) on a thread nobody waits for: it ends on its own and leaves nothing behind
 * (false when it cannot be started). No signal is delivered to it (Linux). */
bool hr_thread_detached(void (*fn)(void *), void *arg);
/* One thread telling another that something is done: set once, waited for until a deadline
 * on hr_platform_mono_ms's clock (true when it was set). */
typedef struct hr_event hr_event;
hr_event *hr_event_new(void);
void hr_event_set(hr_event *e);
bool hr_event_wait(hr_event *e, int64_t deadline_ms);
void hr_event_free(hr_event *e);

/* Lock the monitor's pages in RAM where allowed (best effort; false when refused). */
bool hr_platform_lock_memory(void);

/* ---- network: one TCP connection (watch --comfyui; docs/watch.md) ----
 * Plain sockets, no TLS. Every call has a timeout, so a server that hangs never stalls the
 * monitor's cadence. Errors name the host and port ("127.0.0.1:8188: connection refused").
 * Linux: BSD sockets; Windows: Winsock (ws2_32). */
typedef struct hr_sock {
    intptr_t h;                 /* -1: not connected */
    char peer[HR_NET_PEER_MAX]; /* "host:port", for messages */
} hr_sock;

/* Connect to host:port (a name or an address, IPv4 or IPv6) within timeout_ms. */
int hr_net_connect(hr_sock *s, const char *host, unsigned port, int timeout_ms, hr_error *err);

/* A host name resolved by a deadline (hr_platform_mono_ms's clock), written once in
 * platform/net_resolve.c: getaddrinfo() has no timeout of its own, so a name is looked up on
 * a thread of its own that is given up on at the deadline (it ends when its lookup does); an
 * address is answered at once. 0 and *res (the OS's address list, hr_net_lookup_free gives
 * it back); HR_EBUSY: no answer by the deadline; HR_ENOENT: the name is not known, the OS's
 * code in *code; HR_EINVAL, HR_ENOMEM, HR_EINTERNAL: no lookup was made (a name too long, no
 * memory, no thread; *code 0). */
int hr_net_resolve(const char *host, const char *service, int64_t deadline_ms, void **res, int *code);
/* The OS's part (platform/<os>/net_*.c): getaddrinfo() for a TCP stream, numeric: the host
 * must be an address (no resolver is asked). 0 and *res, else the OS's code (not 0). */
int hr_net_lookup(const char *host, const char *service, bool numeric, void **res);
void hr_net_lookup_free(void *res);
/* Send all n bytes within timeout_ms (HR_EBUSY: timed out). */
int hr_net_send(hr_sock *s, const void *p, size_t n, int timeout_ms, hr_error *err);
/* Read what is there, waiting up to timeout_ms for the first byte: > 0 bytes read, 0 the
 * peer closed, HR_EBUSY nothing came in time, another negative code on an error. */
int hr_net_recv(hr_sock *s, void *p, size_t n, int timeout_ms, hr_error *err);
void hr_net_close(hr_sock *s);

/* A small HTTP/1.1 and websocket client over those sockets (platform/net_client.c; the wire
 * format is core/net/net.h). */
#include "core/net/net.h"

/* One request, one answer, one connection (Connection: close). body NULL: none; else sent
 * as application/json. The answer goes into resp (reset first; its max bounds it) and
 * *out points into it. Everything within timeout_ms. */
int hr_http_do(const hr_url *u, const char *method, const char *path, const char *body, int timeout_ms, hr_buf *resp,
               hr_http_response *out, hr_error *err);

typedef struct hr_ws_client {
    hr_sock s;
    hr_buf in;  /* bytes read, not yet taken as frames */
    hr_buf msg; /* a fragmented message being put together */
    int msg_opcode;
    hr_buf out; /* frames written (pong, close) */
    uint64_t rng;
    bool open;
} hr_ws_client;

/* Open a websocket to u's host and path (with its query), within timeout_ms: the handshake
 * and the server's Sec-WebSocket-Accept checked. */
int hr_ws_open(hr_ws_client *c, const hr_url *u, const char *path, int timeout_ms, hr_error *err);
/* Wait up to timeout_ms for data, then hand every whole message to fn (opcode HR_WS_TEXT or
 * HR_WS_BINARY). Answers pings, and a close with a close. Returns the messages handed over
 * (>= 0), or a negative code when the connection is gone (c is closed then). */
typedef void (*hr_ws_msg_fn)(void *ctx, int opcode, const char *data, size_t n);
int hr_ws_poll(hr_ws_client *c, int timeout_ms, hr_ws_msg_fn fn, void *ctx, hr_error *err);
void hr_ws_close(hr_ws_client *c);
/* ---- model files and folders (headroom models / workflow) ----
 * One bounded way to read the start of a file, and one to list a folder tree. */

/* How many bytes of the file's start a reader needs in total, given what it has so far
 * (head[0..have), have == 0 on the first call) and the file's size. A value <= have means
 * "enough". Readers of headers (core/scan/) answer this from what they already parsed. */
typedef size_t (*hr_head_need_fn)(const unsigned char *head, size_t have, uint64_t file_size, void *ctx);

/* The size of a regular file and its first bytes, into b (reset first): opened without
 * blocking (a FIFO or device is refused as "not a regular file", never waited on), read
 * in the sizes need() asks for, at most max bytes in all (more: HR_ETOOBIG naming the
 * file), then closed: open, fstat, one read per need, close. need NULL reads
 * min(size, max). path is UTF-8 on every OS; errors name it, in err in the user's language
 * and in why (may be NULL) as a message worded where it is shown (a report's JSON is
 * English). *file_size may be NULL. */
int hr_platform_read_head(const char *path, size_t max, hr_head_need_fn need, void *ctx, hr_buf *b, uint64_t *file_size,
                          hr_error *err, hr_msg *why);

/* A regular file opened to be read as a stream (headroom diagnose's logs), under the same
 * rules: a device (/dev/zero), a FIFO or a folder is refused as "not a regular file" before
 * the first read (HR_EINVAL), never waited on. NULL with err naming the file. */
FILE *hr_platform_read_open(const char *path, hr_error *err);

/* The last n bytes of a regular file (zip central directories), at most max; same rules. */
int hr_platform_read_tail(const char *path, size_t n, hr_buf *b, uint64_t *file_size, hr_error *err, hr_msg *why);

/* Is path a regular file (following links)? Its size in *size (may be NULL). */
bool hr_platform_is_file(const char *path, uint64_t *size);
/* Is path a directory (following links)? */
bool hr_platform_is_dir(const char *path);

/* One entry of a walk: its UTF-8 path (root joined with the names under it, '/' on Linux,
 * '\\' on Windows), its size, and its depth (0 = directly in root). Return 0 to go on,
 * 1 to stop the walk early (no error). The size is HR_WALK_SIZE_UNKNOWN where the
 * directory listing itself does not carry it (Linux: a file listed as regular is not
 * stat()ed, so a scan costs open, fstat, reads, close per file). */
#define HR_WALK_SIZE_UNKNOWN UINT64_MAX
typedef int (*hr_walk_fn)(const char *path, uint64_t size, int depth, void *ctx);

/* What a walk tells besides its files (hr_walk_note_fn; path is UTF-8 as in hr_walk_fn):
 *  - HR_WALK_LINK_UP: a link to a folder was not followed because it leads to the file
 *    system's root (a drive's root) or to a folder the walk is inside of: following it would
 *    walk the whole disk. path is the link; the walk goes on.
 *  - HR_WALK_STOPPED_FILES / HR_WALK_STOPPED_ENTRIES: a limit ended the walk (more than
 *    max_files files; a folder of more entries than a listing holds). path is the folder being
 *    listed; the walk then returns HR_ETOOBIG and the files handed over so far stand. */
typedef enum hr_walk_note {
    HR_WALK_LINK_UP = 1,
    HR_WALK_STOPPED_FILES,
    HR_WALK_STOPPED_ENTRIES,
} hr_walk_note;
typedef void (*hr_walk_note_fn)(hr_walk_note what, const char *path, void *ctx);

/* Every regular file under root, depth-first, names sorted within a folder, at most
 * max_depth folders deep and max_files files (more: HR_ETOOBIG, the files seen so far
 * were already handed over). Links are followed, but a folder is entered once only (no
 * loops), and never a link up to the root or to a folder above (note, may be NULL, hears of
 * each). Hidden entries (a leading '.') are skipped. Unreadable sub-folders are skipped
 * silently; an unreadable root is an error naming it. */
int hr_platform_walk(const char *root, int max_depth, size_t max_files, hr_walk_fn fn, hr_walk_note_fn note, void *ctx,
                     hr_error *err);

/* A variable of the environment (UTF-8), or NULL. Windows reads the wide one. */
const char *hr_platform_getenv(const char *name, char *out, size_t n);
/* The directory separator of this OS. */
char hr_platform_dirsep(void);
/* The current directory, UTF-8; false if unknown. */
bool hr_platform_cwd(char *out, size_t n);

/* ---- ComfyUI, found without being told (headroom models / workflow) ----
 * The candidates and the install test are the core's (core/scan/comfy_find.h); this looks. */
#include "core/scan/comfy_find.h"

typedef struct hr_comfy_found {
    char dir[HR_COMFY_PATH_MAX];          /* the ComfyUI folder (models/ inside) */
    const char *how;                      /* "desktop app", "current folder", "home folder" */
    char desktop_yaml[HR_COMFY_PATH_MAX]; /* the Desktop app's extra_models_config.yaml, "" */
} hr_comfy_found;

/* The first candidate that is a ComfyUI: the Desktop app's base path (its config.json:
 * Windows %APPDATA%\\ComfyUI, Linux $XDG_CONFIG_HOME or ~/.config/ComfyUI), the current folder
 * and its parents, the home folder's usual places. false when none is. */
bool hr_platform_find_comfyui(hr_comfy_found *f);
/* The OS's part of that search: the Desktop app's settings folder, and the home folder. */
bool hr_platform_comfy_desktop_dir(char *dir, size_t n);
bool hr_platform_home_dir(char *dir, size_t n);

#endif
