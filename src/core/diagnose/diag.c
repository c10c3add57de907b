#include "core/diagnose/diag.h"

#include "core/diagnose/diag_event.h"
#include "core/diagnose/diag_rules.h"
#include "core/base/i18n.h"
#include "core/base/textdec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines of a log after the last error / traceback / finding within which the launcher's
 * "Press any key" is still that error's ending rather than a silent stop. */
#define HR_DIAG_QUIET_LINES 30
/* A line this long that ends inside a phrase may have been folded by a terminal: the
 * matcher's state is carried into the next line. */
#define HR_DIAG_FOLD_MIN    60
#define HR_DIAG_HITS_MAX    32

static const struct {
    const char *id, *title, *meaning, *fix;
} causes[HR_CAUSE_COUNT] = {
    [HR_CAUSE_GPU_OOM] = { "gpu-oom", HR_N("GPU out of memory (VRAM)"),
                           HR_N("The GPU ran out of its own memory (VRAM) while loading or running a model; system "
                                "RAM and the paging file were not the limit."),
                           HR_N("Lower the VRAM need, not the paging file (changing it does nothing here, S2.1): start "
                                "ComfyUI with --lowvram (or --novram; A1111/Forge: --medvram/--lowvram), use lighter "
                                "or fp8/GGUF-quantised models, decode with the tiled VAE node, lower the resolution or "
                                "batch size. Low-VRAM modes move weights into RAM, so keep the paging file / swap at "
                                "the size `headroom plan` gives (S1.2c, S4.2).") },
    [HR_CAUSE_HOST_OOM] = { "host-oom", HR_N("System memory exhausted (RAM + paging file / swap)"),
                            HR_N("A request for system memory failed: the commit limit (RAM + paging file on Windows, "
                                 "RAM + swap on Linux) was reached."),
                            HR_N(
                                "Enlarge the paging file (Windows) or swap (Linux) to the size `headroom plan` gives — "
                                "for 16 GB RAM and SDXL/FLUX 32–64 GB, 64 GB for video workflows (S4.1, S4.2) — on a "
                                "roomy SSD (S3.3); close browsers and other large programs (S5.2).") },
    [HR_CAUSE_KILLED] = { "killed", HR_N("Killed by the operating system"),
                          HR_N("The OS ended the process without an error message of its own, which is what happens "
                               "when RAM + paging file / swap run out."),
                          HR_N("Check RAM and paging file / swap with `headroom status`, close other programs, and "
                               "set the paging file / swap to the size `headroom plan` gives (S2.1, S4.1); in a "
                               "container or a systemd slice the limit that was hit is the cgroup's memory limit — "
                               "raise it or give the run less to hold at once.") },
    [HR_CAUSE_LOW_VM] = { "low-virtual-memory", HR_N("Windows low on virtual memory"),
                          HR_N("Windows warned that the commit limit (RAM + paging file) was nearly used up: the "
                               "paging file is too small for what was running."),
                          HR_N("Enlarge the paging file to the size `headroom plan` gives (S4.1), fixed initial = "
                               "maximum on a roomy SSD (S3.2, S3.3); press Set, then OK, then reboot (S5.1); close "
                               "other programs during long queues or video workflows (S5.2).") },
    [HR_CAUSE_NOT_MEMORY] = { "not-memory", HR_N("Not a memory problem"),
                              HR_N(
                                  "The failure looks like a memory problem but is not: a crash in code, a driver reset "
                                  "or a GPU kernel error."),
                              HR_N(
                                  "Fix the driver or the code, not memory settings: update or reinstall the GPU driver, "
                                  "undo overclocks, update or remove the custom node / extension that failed, check that "
                                  "the model matches the workflow; set CUDA_LAUNCH_BLOCKING=1 to find the failing "
                                  "operation. Paging file, swap and low-VRAM flags will not help.") },
    [HR_CAUSE_UNKNOWN] = { "unknown", HR_N("No known failure found"),
                           HR_N("Nothing in the input matches a known memory failure or a known look-alike."),
                           HR_N("If the program vanished without a message, run `headroom diagnose` without "
                                "--no-system so the OS's own records are read, or save the whole console output to a "
                                "file next time (e.g. `run_nvidia_gpu.bat > comfyui.log 2>&1`).") },
};

const char *hr_cause_id(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].id : "unknown";
}

const char *hr_cause_title(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].title : causes[HR_CAUSE_UNKNOWN].title;
}

const char *hr_cause_meaning(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].meaning : causes[HR_CAUSE_UNKNOWN].meaning;
}

const char *hr_cause_fix(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].fix : causes[HR_CAUSE_UNKNOWN].fix;
}

static const char *const fix_killed_windows =
    HR_N("Check RAM and the paging file with `headroom status`, close other programs, and set the "
         "paging file to the size `headroom plan` gives (S2.1, S4.1): initial = maximum on a roomy "
         "SSD, press Set before OK, reboot (S3.2, S5.1).");
static const char *const fix_host_oom_windows =
    HR_N("Enlarge the paging file to the size `headroom plan` gives — for 16 GB RAM and SDXL/FLUX "
         "32–64 GB, 64 GB for video workflows (S4.1, S4.2) — with initial = maximum on a roomy SSD "
         "that is not the system drive (S3.2, S3.3); press Set before OK and reboot (S5.1); close "
         "browsers and other large programs (S5.2).");
static const char *const fix_host_oom_linux =
    HR_N("Add swap to the size `headroom plan` gives — for 16 GB RAM and SDXL/FLUX 32–64 GB, 64 GB "
         "for video workflows (S4.1, S4.2) — as a swap file on a roomy SSD (S3.3): `sudo headroom "
         "apply --from-plan` makes it and switches it on at once, no restart; close browsers and "
         "other large programs (S5.2).");
static const char *const fix_unknown_no_system =
    HR_N("Run `headroom diagnose` again without --no-system so the OS's own records are read, or "
         "save the whole console output to a file next time (e.g. `run_nvidia_gpu.bat > "
         "comfyui.log 2>&1`).");
static const char *const fix_unknown_windows_manual =
    HR_N("The event log could not be read here: open Event Viewer → Windows Logs → Application and "
         "look for Error events 1000 (Application Error) and 1023 (.NET Runtime) of python.exe at "
         "the time the run stopped (S2.1), or in PowerShell: Get-WinEvent -FilterHashtable "
         "@{LogName='Application'; Id=1000,1023} -MaxEvents 20 | Format-List TimeCreated,Id,Message. "
         "Next time save the whole console output (`run_nvidia_gpu.bat > comfyui.log 2>&1`).");
static const char *const fix_unknown_windows =
    HR_N("Windows recorded no crash of the run either (Application 1000 / 1023). Save the whole "
         "console output next time (`run_nvidia_gpu.bat > comfyui.log 2>&1`) and run `headroom "
         "diagnose` on it.");
static const char *const fix_unknown_linux_read =
    HR_N("The kernel log and the journal recorded no kill of the run either. Save the whole console "
         "output next time (`python main.py 2>&1 | tee comfyui.log`) and run `headroom diagnose` on "
         "it.");

const char *hr_cause_fix_os(hr_cause cause, bool windows)
{
    if (cause == HR_CAUSE_KILLED && windows)
        return fix_killed_windows;
    if (cause == HR_CAUSE_HOST_OOM)
        return windows ? fix_host_oom_windows : fix_host_oom_linux;
    return hr_cause_fix(cause);
}

const char *hr_diag_fix(const hr_diag_ctx *c, hr_cause cause)
{
    /* the advice of the OS the run died on: this machine's, or a Windows-only message's */
    bool windows = c->log_os ? c->log_os == 2
                             : c->windows || ((unsigned)cause < HR_CAUSE_COUNT && c->findings[cause].present &&
                                              hr_diag_meaning_windows(c->findings[cause].meaning));
    if (cause != HR_CAUSE_UNKNOWN)
        return hr_cause_fix_os(cause, windows);
    if (!c->system_checked)
        return fix_unknown_no_system;
    bool all_read = true;
    for (size_t i = 0; i < c->nsources; i++)
        all_read &= c->sources[i].ok;
    if (c->windows)
        return all_read && c->nsources ? fix_unknown_windows : fix_unknown_windows_manual;
    return fix_unknown_linux_read;
}

const char *hr_confidence_name(hr_confidence conf)
{
    switch (conf) {
    case HR_CONF_HIGH: return HR_N("high");
    case HR_CONF_MEDIUM: return HR_N("medium");
    case HR_CONF_LOW: return HR_N("low");
    default: return HR_N("none");
    }
}

static unsigned char lower(unsigned char ch);

/* The bytes of a tqdm bar: ASCII but letters, the i, t, s of it/s and s/it, and the UTF-8
 * bytes of the block characters ▏..█ (U+2588..U+258F: E2 96 88..8F). */
static void bar_setup(hr_diag_ctx *c)
{
    memset(c->bar_bytes, 0, sizeof c->bar_bytes);
    /* every ASCII byte but the letters (digits, blank, punctuation: bar_redraw tests them
     * eight at a time; the decoder leaves no control byte in a segment), the i, t, s of the
     * bar phrases, and the block characters */
    for (unsigned b = 0; b < 0x80; b++)
        c->bar_bytes[b] = !((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    for (const char *p = "its"; *p; p++)
        c->bar_bytes[(unsigned char)*p] = 1;
    c->bar_bytes[0xe2] = c->bar_bytes[0x96] = 1;
    for (unsigned b = 0x88; b <= 0x8f; b++)
        c->bar_bytes[b] = 1;
    c->bar_rule[0] = c->bar_rule[1] = -1;
    bool other = false;
    for (size_t i = 0; i < hr_diag_nrules; i++) {
        const hr_diag_rule *r = &hr_diag_rules[i];
        if (strcmp(r->phrase, "it/s]") == 0 || strcmp(r->phrase, "s/it]") == 0) {
            c->bar_rule[r->phrase[0] == 's'] = (int)i;
            continue;
        }
        /* could this phrase be matched (case-insensitively) in text of bar bytes only? */
        bool spelled = true;
        for (const char *p = r->phrase; *p && spelled; p++) {
            unsigned char ch = lower((unsigned char)*p);
            spelled = c->bar_bytes[ch] || (ch >= 'a' && ch <= 'z' && c->bar_bytes[ch - 32]);
        }
        other |= spelled;
    }
    if (other || c->bar_rule[0] < 0 || c->bar_rule[1] < 0 || hr_diag_rules[c->bar_rule[0]].kind != HR_RK_BUSY ||
        hr_diag_rules[c->bar_rule[1]].kind != HR_RK_BUSY || hr_diag_rules[c->bar_rule[0]].flags != HR_RF_IN_BEFORE ||
        hr_diag_rules[c->bar_rule[1]].flags != HR_RF_IN_BEFORE)
        c->bar_rule[0] = c->bar_rule[1] = -1;
}

static void clear_state(hr_diag_ctx *c)
{
    hr_acm keep = c->acm;
    memset(c, 0, sizeof *c);
    c->acm = keep;
    for (int i = 0; i < HR_CAUSE_COUNT; i++) {
        c->findings[i].cause = (hr_cause)i;
        c->findings[i].victim_pid = -1;
        c->findings[i].last_input = -2;
    }
    c->input = -1;
    c->pid = -1;
    bar_setup(c);
}

void hr_diag_reset(hr_diag_ctx *c)
{
    clear_state(c);
}

int hr_diag_init(hr_diag_ctx *c, hr_error *err)
{
    memset(c, 0, sizeof *c);
    const char *phrases[512];
    if (hr_diag_nrules > sizeof phrases / sizeof phrases[0])
        return hr_error_set(err, HR_EINTERNAL, HR_T("diagnosis: too many phrases"));
    for (size_t i = 0; i < hr_diag_nrules; i++)
        phrases[i] = hr_diag_rules[i].phrase;
    int r = hr_acm_build(&c->acm, phrases, hr_diag_nrules, err);
    if (r < 0)
        return r;
    clear_state(c);
    return 0;
}

void hr_diag_free(hr_diag_ctx *c)
{
    hr_acm_free(&c->acm);
}

int hr_diag_begin_input(hr_diag_ctx *c, const char *name)
{
    if (c->ninputs >= HR_DIAG_INPUTS_MAX)
        return HR_ETOOBIG;
    c->input = (int)c->ninputs;
    c->inputs[c->ninputs++] = (hr_diag_input){ .name = name, .encoding = "utf-8" };
    c->carry_state = 0;
    c->have_marker = false;
    c->prev_line = 0;
    c->run_state = 0;
    c->in_traceback = false;
    hr_diag_event_begin(c);
    return 0;
}

static void silent_stop(hr_diag_ctx *c);

void hr_diag_input_text(hr_diag_ctx *c, uint64_t bad_bytes, bool not_text, int64_t mtime)
{
    if (c->input < 0)
        return;
    hr_diag_input *in = &c->inputs[c->input];
    in->bad_bytes = bad_bytes;
    in->not_text = not_text;
    in->mtime = mtime;
}

void hr_diag_end_input(hr_diag_ctx *c, const char *encoding, uint64_t bytes, uint64_t lines, uint64_t long_lines)
{
    if (c->input < 0)
        return;
    hr_diag_event_end(c);
    silent_stop(c);
    hr_diag_input *in = &c->inputs[c->input];
    in->encoding = encoding;
    in->bytes = bytes;
    in->lines = lines;
    in->long_lines = long_lines;
    c->input = -1;
    c->carry_state = 0;
}

/* ---- small text helpers ---------------------------------------------------------------- */

static bool is_word(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static unsigned char lower(unsigned char ch)
{
    return (ch >= 'A' && ch <= 'Z') ? (unsigned char)(ch + 32) : ch;
}

/* Case-insensitive search for a lower-case needle; with word set, only as a whole word. */
static bool ci_find(const char *s, size_t n, const char *needle, bool word)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++) {
        size_t j = 0;
        while (j < k && lower((unsigned char)s[i + j]) == (unsigned char)needle[j])
            j++;
        if (j < k)
            continue;
        if (!word ||
            ((i == 0 || !is_word((unsigned char)s[i - 1])) && (i + k == n || !is_word((unsigned char)s[i + k]))))
            return true;
    }
    return false;
}

/* Copy text into a fixed evidence slot: whitespace trimmed, and when too long, a window
 * around the match (byte offset at) cut at UTF-8 character boundaries. */
static void clip(char *dst, size_t cap, const char *s, size_t n, size_t at)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
        at = at ? at - 1 : 0;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    size_t room = cap - 8; /* two ellipses and the NUL */
    size_t b = 0, e = n;
    if (n > room) {
        b = at > 100 ? at - 100 : 0;
        if (b + room > n)
            b = n - room;
        while (b > 0 && ((unsigned char)s[b] & 0xc0) == 0x80)
            b--;
        e = b + room;
        while (e > b && e < n && ((unsigned char)s[e] & 0xc0) == 0x80)
            e--;
    }
    size_t o = 0;
    if (b > 0) {
        memcpy(dst, "\xe2\x80\xa6", 3);
        o = 3;
    }
    memcpy(dst + o, s + b, e - b);
    o += e - b;
    if (e < n) {
        memcpy(dst + o, "\xe2\x80\xa6", 3);
        o += 3;
    }
    dst[o] = '\0';
}

/* ---- findings ------------------------------------------------------------------------- */

typedef struct hit_place {
    int input;
    uint64_t key;  /* line number, or the record's sequence number */
    uint64_t line; /* 0 for a record */
    int64_t time;
    const char *source;
} hit_place;

/* When evidence happened, for "the first failure wins": log lines in reading order come
 * first; system records after them, among themselves by their time (the collectors read
 * source by source, not in time order), undated ones last. */
static uint64_t order_key(const hr_diag_ctx *c, const hit_place *at)
{
    const uint64_t system = (uint64_t)1 << 62, undated = (uint64_t)1 << 61;
    if (at->input >= 0)
        return c->seq;
    if (at->time > 0 && at->time < (int64_t)undated)
        return system + (uint64_t)at->time;
    return system + undated + c->seq;
}

static hr_diag_evidence *add_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning,
                                      const hit_place *at)
{
    hr_diag_finding *f = &c->findings[cause];
    uint64_t key = order_key(c, at);
    if (!f->present) {
        f->present = true;
        f->order = key;
        f->meaning = meaning ? meaning : causes[cause].meaning;
    } else if (key < f->order) {
        f->order = key;
    }
    if (conf > f->conf) {
        f->conf = conf;
        if (meaning)
            f->meaning = meaning;
    }
    if (at->input >= 0) {
        c->have_marker = true;
        c->marker_line = at->line;
        /* a failure a phrase explained ends the finder's candidate before it */
        if (c->ev.kind && at->line >= c->ev.line)
            c->ev.kind = HR_EV_NONE;
    }
    if (f->last_input == at->input && f->last_line == at->key) {
        /* The same line again (another phrase, or the overlap of a long line's windows). */
        if (f->last_ev && conf > f->last_ev->conf)
            f->last_ev->conf = conf;
        return NULL;
    }
    f->last_input = at->input;
    f->last_line = at->key;
    f->count++;
    if (at->input >= 0 && (size_t)at->input < c->ninputs)
        c->inputs[at->input].hits++;
    hr_diag_evidence *e;
    if (f->nfirst < HR_DIAG_EVIDENCE_FIRST) {
        e = &f->evidence[f->nfirst++];
    } else {
        e = &f->evidence[HR_DIAG_EVIDENCE_FIRST + f->last_pos];
        f->last_pos = (f->last_pos + 1) % HR_DIAG_EVIDENCE_LAST;
        if (f->nlast < HR_DIAG_EVIDENCE_LAST)
            f->nlast++;
    }
    memset(e, 0, sizeof *e);
    f->last_ev = e;
    e->input = at->input;
    e->line = at->line;
    e->time = at->time;
    e->conf = conf;
    if (at->source)
        snprintf(e->source, sizeof e->source, "%s", at->source);
    return e;
}

void hr_diag_line_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *meaning, uint64_t line,
                           uint64_t seq, const char *text, size_t len)
{
    if (c->input < 0 || (unsigned)cause >= HR_CAUSE_UNKNOWN)
        return;
    /* in its own place among the findings: where the line was, not where the input ended */
    uint64_t now = c->seq;
    c->seq = seq;
    hit_place at = { .input = c->input, .key = line, .line = line };
    hr_diag_evidence *e = add_evidence(c, cause, conf, meaning, &at);
    c->seq = now;
    if (e)
        clip(e->text, sizeof e->text, text, len, 0);
}

bool hr_diag_memory_seen(const hr_diag_ctx *c)
{
    static const hr_cause mem[] = { HR_CAUSE_GPU_OOM, HR_CAUSE_HOST_OOM, HR_CAUSE_KILLED, HR_CAUSE_LOW_VM };
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
        const hr_diag_finding *f = &c->findings[mem[i]];
        if (f->present && f->last_input == c->input)
            return true;
    }
    return false;
}

size_t hr_diag_evidence_list(const hr_diag_finding *f, const hr_diag_evidence *out[HR_DIAG_EVIDENCE_MAX])
{
    size_t n = 0;
    for (size_t i = 0; i < f->nfirst; i++)
        out[n++] = &f->evidence[i];
    size_t start = f->nlast < HR_DIAG_EVIDENCE_LAST ? 0 : f->last_pos;
    for (size_t i = 0; i < f->nlast; i++)
        out[n++] = &f->evidence[HR_DIAG_EVIDENCE_FIRST + (start + i) % HR_DIAG_EVIDENCE_LAST];
    return n;
}

void hr_diag_add(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *source, int64_t time, const char *text,
                 const char *meaning)
{
    if ((unsigned)cause >= HR_CAUSE_UNKNOWN)
        return;
    c->seq++;
    hit_place at = { .input = -1, .key = c->seq, .time = time, .source = source };
    hr_diag_evidence *e = add_evidence(c, cause, conf, meaning, &at);
    if (e)
        clip(e->text, sizeof e->text, text, strlen(text), 0);
}

void hr_diag_note_source(hr_diag_ctx *c, const char *name, bool ok, int64_t records, const char *fmt, ...)
{
    if (c->nsources >= HR_DIAG_SOURCES_MAX)
        return;
    hr_diag_source *s = &c->sources[c->nsources++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->ok = ok;
    s->records = records;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->detail, sizeof s->detail, fmt, ap);
    va_end(ap);
}

/* ---- judging one hit ------------------------------------------------------------------ */

typedef struct seg_view {
    const char *text; /* this segment */
    size_t len;
    const char *prev; /* the previous line's tail, when a match may start there */
    size_t prev_len;
} seg_view;

static unsigned char byte_at(const seg_view *v, ptrdiff_t i)
{
    if (i >= 0)
        return i < (ptrdiff_t)v->len ? (unsigned char)v->text[i] : 0;
    ptrdiff_t j = (ptrdiff_t)v->prev_len + i;
    return j >= 0 ? (unsigned char)v->prev[j] : 0;
}

static bool skip_blank(const char *s, size_t n, size_t *i)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
        (*i)++;
    return *i < n;
}

/* "Killed process 1234 (python3)": victim pid and name. */
static bool parse_victim(const char *s, size_t n, size_t i, int64_t *pid, char *name, size_t cap)
{
    if (!skip_blank(s, n, &i) || s[i] < '0' || s[i] > '9')
        return false;
    int64_t v = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && v < 100000000000LL)
        v = v * 10 + (s[i++] - '0');
    *pid = v;
    name[0] = '\0';
    if (skip_blank(s, n, &i) && s[i] == '(') {
        size_t b = ++i;
        while (i < n && s[i] != ')' && i - b < cap - 1)
            i++;
        memcpy(name, s + b, i - b);
        name[i - b] = '\0';
    }
    return true;
}

/* Shell job reports: a line that is only "Killed" (or "Killed: 9"), "<pid> Killed   cmd",
 * "[1]+  Killed   cmd", "run.sh: line 3: 123 Killed  cmd". Not the word inside prose. */
/* Only blanks, then `want`, then only blanks from s[i] to the end. */
static bool rest_is(const char *s, size_t n, size_t i, const char *want)
{
    size_t k = strlen(want);
    skip_blank(s, n, &i);
    if (n - i < k || memcmp(s + i, want, k) != 0)
        return false;
    i += k;
    return !skip_blank(s, n, &i);
}

static bool shell_killed(const char *s, size_t n, size_t b, size_t e, bool english)
{
    size_t p = b;
    while (p > 0 && (s[p - 1] == ' ' || s[p - 1] == '\t'))
        p--;
    bool rest_empty = rest_is(s, n, e, "") || rest_is(s, n, e, ": 9");
    /* job reports pad the word to a column before the command */
    bool padded = n - e >= 2 && s[e] == ' ' && s[e + 1] == ' ';
    /* zsh: "zsh: killed     python main.py" */
    if (p > 0 && s[p - 1] == ':' && p < b && (padded || rest_empty))
        return true;
    /* glued to the end of a progress bar that had no newline: "... 1.16s/it]Killed" */
    if (rest_empty && p == b && b >= 4 &&
        (ci_find(s, b, "it/s]", false) || ci_find(s, b, "s/it]", false) || ci_find(s, b, "%|", false)))
        return true;
    unsigned char before = p > 0 ? (unsigned char)s[p - 1] : 0;
    /* zsh's job report is lower-case: "[1]  + 9301 killed     python main.py" */
    if (english && s[b] != 'K' && !(before >= '0' && before <= '9' && p < b && padded))
        return false; /* bash and dash print it capitalised */
    if (p == 0)
        return rest_empty || padded;
    if ((before >= '0' && before <= '9') || before == '+' || before == '-' || before == ']')
        return p < b && (rest_empty || padded);
    return false;
}

/* The number after "exit code" etc., and what it says. */
static bool exit_code_cause(const char *s, size_t n, size_t i, hr_cause *cause, hr_confidence *conf,
                            const char **meaning, int64_t *value)
{
    static const char *const m_av =
        HR_N("The process ended with 0xC0000005 (access violation) and no Python error: on Windows "
             "this is how a sudden stop looks when an allocation failed because RAM + paging file "
             "ran out.");
    static const char *const m_137 =
        HR_N("Exit status 137 / -9 means SIGKILL, the signal the OOM killer (or a container's memory "
             "limit) uses.");
    static const char *const m_commit =
        HR_N("The process ended with STATUS_COMMITMENT_LIMIT / STATUS_NO_MEMORY: Windows' commit "
             "limit (RAM + paging file) was reached.");
    static const char *const m_crash =
        HR_N("The process ended with a crash code (stack overflow, fail-fast or heap corruption): a "
             "bug in native code, not a lack of memory.");
    size_t skipped = 0;
    while (i < n && skipped < 6 && strchr(" \t:=(#", s[i])) {
        i++;
        skipped++;
    }
    if (i + 3 < n && (s[i] == 'o' || s[i] == 'i') && (s[i + 1] == 'f' || s[i + 1] == 's') && s[i + 2] == ' ')
        i += 3; /* "exit code of 137", "exit code is 137" */
    bool neg = false;
    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    uint64_t v = 0;
    size_t digits = 0;
    if (i + 2 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        for (; i < n && digits < 16; i++, digits++) {
            unsigned char ch = lower((unsigned char)s[i]);
            int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
            if (d < 0)
                break;
            v = v * 16 + (uint64_t)d;
        }
    } else {
        for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 19; i++, digits++)
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (digits == 0 || (i < n && is_word((unsigned char)s[i])))
        return false;
    int64_t x = neg ? -(int64_t)v : (int64_t)v;
    *value = x;
    /* Windows reports NTSTATUS exit codes unsigned (3221225477) or signed (-1073741819). */
    if (x < 0 && x >= -(int64_t)0x80000000LL && x != -9)
        x += 0x100000000LL;
    switch (x) {
    case 137:
    case -9:
        *cause = HR_CAUSE_KILLED;
        *conf = HR_CONF_HIGH;
        *meaning = m_137;
        return true;
    case 0xC0000005LL:
        *cause = HR_CAUSE_KILLED;
        *conf = HR_CONF_MEDIUM;
        *meaning = m_av;
        return true;
    case 0xC000012DLL:
    case 0xC0000017LL:
    case 1455:
        *cause = HR_CAUSE_HOST_OOM;
        *conf = HR_CONF_HIGH;
        *meaning = m_commit;
        return true;
    case 0xC00000FDLL:
    case 0xC0000409LL:
    case 0xC0000374LL:
        *cause = HR_CAUSE_NOT_MEMORY;
        *conf = HR_CONF_MEDIUM;
        *meaning = m_crash;
        return true;
    default: return false;
    }
}

/* Words that say which memory an unqualified "out of memory" is about. */
static hr_cause generic_oom_cause(const char *s, size_t n, hr_confidence *conf)
{
    static const char *const gpu[] = { "cuda",     "gpu", "vram",   "hip",    "rocm",   "mps", "xpu",
                                       "directml", "dml", "vulkan", "device", "nvidia", "显存" };
    static const char *const host[] = { "ram", "cpu", "host", "swap", "paging", "commit", "system memory", "内存" };
    for (size_t i = 0; i < sizeof gpu / sizeof gpu[0]; i++)
        if (ci_find(s, n, gpu[i], (unsigned char)gpu[i][0] < 0x80)) {
            *conf = HR_CONF_MEDIUM;
            return HR_CAUSE_GPU_OOM;
        }
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        if (ci_find(s, n, host[i], (unsigned char)host[i][0] < 0x80)) {
            *conf = HR_CONF_MEDIUM;
            return HR_CAUSE_HOST_OOM;
        }
    *conf = HR_CONF_LOW;
    return HR_CAUSE_HOST_OOM;
}

static const char *const m_press_key =
    HR_N("The console ended with the launcher's \"Press any key to continue\" and no error before "
         "it: the process stopped without a word, which is how Windows ends it when RAM + paging "
         "file run out (S2.1).");
static const char *const m_victim_memcg =
    HR_N("The kernel's OOM killer ended the process because its memory cgroup (container, "
         "systemd slice) reached its memory limit.");
static const char *const m_silent =
    HR_N("The log stops in the middle of loading or sampling with no error and no traceback: that "
         "is almost always the OS killing the process when RAM + paging file / swap run out (S2.1). "
         "Medium confidence from the log alone; high when the OS's own records agree.");
static const char *const m_assert_alloc =
    HR_N("An assertion on the pointer an allocation returned failed (the buffer is null): a request "
         "for system RAM failed because RAM + paging file / swap ran out.");

/* The condition of "GGML_ASSERT: file:line: COND" (after the phrase's end e): a buffer's
 * pointer alone, or compared with NULL. */
static bool assert_on_pointer(const char *s, size_t n, size_t e)
{
    size_t b = e;
    for (size_t i = e; i + 1 < n; i++)
        if (s[i] == ':' && s[i + 1] == ' ')
            b = i + 2;
    while (n > b && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    static const char *const names[] = { "data", "buf", "buffer", "ptr", "mem", "addr" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (n - b == strlen(names[k]) && memcmp(s + b, names[k], n - b) == 0)
            return true;
    return ci_find(s + b, n - b, "!= null", false);
}

static const char *const m_gpu_room =
    HR_N("The GPU's own message shows enough free memory for this request while the program held "
         "no more than it asked for: a per-allocation limit or an allocator problem, not VRAM "
         "filled up by the run. Smaller pieces (tiled VAE, a lower resolution) or another "
         "allocator setting help; a bigger paging file does not.");
static const char *const m_exception =
    HR_N("The run failed with a Python exception that is not about memory (its last line is the "
         "evidence): a wrong or damaged model file, a device or dtype mismatch, a missing module.");

static bool is_alnum(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Word boundaries: a phrase that starts (ends) with an ASCII letter or digit must not continue
 * a longer word, except where its rule allows it; "0x" before a hex code is a boundary. */
static bool at_boundaries(const hr_diag_rule *r, const seg_view *v, ptrdiff_t b, size_t e)
{
    size_t k = strlen(r->phrase);
    unsigned char first = (unsigned char)r->phrase[0], last = (unsigned char)r->phrase[k - 1];
    /* a phrase that starts a line starts a word; only one carried in from a folded line
     * looks at the line before */
    unsigned char before = b == 0 ? 0 : byte_at(v, b - 1);
    unsigned char after = e < v->len ? (unsigned char)v->text[e] : 0;
    if (r->flags & HR_RF_WORD_BEFORE) {
        if (is_word(before))
            return false;
    } else if (is_alnum(first) && !(r->flags & HR_RF_IN_BEFORE) && is_alnum(before)) {
        bool hex = (before == 'x' || before == 'X') && byte_at(v, b - 2) == '0';
        if (!hex)
            return false;
    }
    if (r->flags & HR_RF_WORD_AFTER) {
        if (is_word(after))
            return false;
    } else if (is_alnum(last) && !(r->flags & HR_RF_IN_AFTER) && is_alnum(after)) {
        return false;
    }
    return true;
}

/* ---- is a system record about the run? -------------------------------------------------- */

static bool contains_ci(const char *s, const char *needle)
{
    return ci_find(s, strlen(s), needle, false);
}

int hr_diag_subject_is_run(const hr_diag_ctx *c, const char *name, int64_t pid)
{
    static const char *const run[] = { "python", "pt_main_thread", "comfy",   "main.py",    "invoke",   "webui",
                                       "forge",  "fooocus",        "kohya",   "accelerate", "torchrun", "stability",
                                       "swarm",  "a1111",          "pinokio", "launch" };
    static const char *const maybe[] = { "terminal", "konsole",    "vte-spawn", "tmux",    "screen", "ssh",
                                         "session-", "alacritty",  "kitty",     "wezterm", "xterm",  "tilix",
                                         "docker",   "containerd", "podman",    "libpod",  "foot",   "tty" };
    if (c->pid >= 0 && pid >= 0)
        return pid == c->pid ? 1 : -1;
    if (!name || !name[0])
        return 0;
    for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
        if (contains_ci(name, run[i]))
            return c->pid >= 0 ? 0 : 1; /* with --pid, a name alone is not enough */
    for (size_t i = 0; i < sizeof maybe / sizeof maybe[0]; i++)
        if (contains_ci(name, maybe[i]))
            return 0;
    return -1;
}

/* What a kill record names: a process (pid, name) or a unit / cgroup (name, pid -1).
 * Returns false for records that name no subject (context lines of the same event). */
static bool record_subject(const char *s, size_t n, const hr_diag_rule *r, size_t b, size_t e, char *name, size_t cap,
                           int64_t *pid, char *memcg, size_t mcap)
{
    name[0] = '\0';
    memcg[0] = '\0';
    *pid = -1;
    const char *p = r->phrase;
    if (strcmp(p, "killed process") == 0 || strcmp(p, "oom_reaper: reaped process") == 0)
        return parse_victim(s, n, e, pid, name, cap);
    if (strcmp(p, "oom-kill:constraint") == 0) {
        /* ...,task=python3,pid=48213,uid=1000 */
        for (size_t i = e; i + 5 < n; i++) {
            if (memcmp(s + i, "task=", 5) == 0 && (i == 0 || s[i - 1] == ',')) {
                size_t j = i + 5, k = 0;
                while (j < n && s[j] != ',' && k + 1 < cap)
                    name[k++] = s[j++];
                name[k] = '\0';
            } else if (i + 11 < n && memcmp(s + i, "task_memcg=", 11) == 0 && s[i - 1] == ',') {
                /* the cgroup the victim was in: --pid's own one means its process tree */
                size_t j = i + 11, k = 0;
                while (j < n && s[j] != ',' && k + 1 < mcap)
                    memcg[k++] = s[j++];
                memcg[k] = '\0';
            } else if (memcmp(s + i, "pid=", 4) == 0 && s[i - 1] == ',') {
                int64_t v = 0;
                size_t j = i + 4;
                while (j < n && s[j] >= '0' && s[j] <= '9' && v < 100000000000LL)
                    v = v * 10 + (s[j++] - '0');
                *pid = v;
            }
        }
        return name[0] || *pid >= 0;
    }
    if (strncmp(p, "sending sig", 11) == 0) {
        /* earlyoom: sending SIGTERM to process 1234 uid 1000 "python3": badness ... */
        size_t i = e;
        if (!parse_victim(s, n, i, pid, name, cap))
            return false;
        const char *q = memchr(s + e, '"', n - e);
        if (q) {
            const char *q2 = memchr(q + 1, '"', n - (size_t)(q + 1 - s));
            size_t k = q2 ? (size_t)(q2 - q - 1) : 0;
            if (k >= cap)
                k = cap - 1;
            memcpy(name, q + 1, k);
            name[k] = '\0';
        }
        return true;
    }
    if (strncmp(p, "due to ", 7) == 0) {
        /* systemd-oomd: Killed /user.slice/.../app-firefox-1234.scope due to memory ... */
        size_t i = b;
        while (i > 0 && s[i - 1] == ' ')
            i--;
        size_t end = i;
        while (i > 0 && s[i - 1] != ' ')
            i--;
        size_t k = end - i < cap - 1 ? end - i : cap - 1;
        memcpy(name, s + i, k);
        name[k] = '\0';
        return k > 0;
    }
    if (strcmp(p, "killed by the oom killer") == 0 || strcmp(p, "result 'oom-kill'") == 0 ||
        strcmp(p, "systemd-oomd killed") == 0) {
        /* systemd[1]: comfyui.service: Failed with result 'oom-kill'. — the unit between the
         * last two ": " before the phrase */
        size_t last = 0, prev = 0;
        bool have_last = false;
        for (size_t i = 0; i + 1 < b; i++) {
            if (s[i] == ':' && s[i + 1] == ' ') {
                prev = have_last ? last + 2 : 0;
                last = i;
                have_last = true;
            }
        }
        if (!have_last)
            return false;
        size_t k = last - prev < cap - 1 ? last - prev : cap - 1;
        memcpy(name, s + prev, k);
        name[k] = '\0';
        return k > 0;
    }
    return false;
}

/* Phrases of a kill event that name no victim: for a system record, the victim line decides. */
static bool context_only(const hr_diag_rule *r)
{
    static const char *const ctx[] = { "invoked oom-killer", "out of memory and no killable processes",
                                       "low memory! at or below", "escalating to sigkill" };
    for (size_t i = 0; i < sizeof ctx / sizeof ctx[0]; i++)
        if (strcmp(r->phrase, ctx[i]) == 0)
            return true;
    return false;
}

/* A reason twice: in English (the JSON keeps it) and in the display language (the text
 * report shows it). */
HR_PRINTF(5, 6)
static void reason_both(char *en, size_t en_n, char *shown, size_t shown_n, const char *msgid, ...)
{
    va_list ap;
    va_start(ap, msgid);
    vsnprintf(en, en_n, hr_tr_lang(HR_LANG_EN, msgid), ap);
    va_end(ap);
    va_start(ap, msgid);
    vsnprintf(shown, shown_n, hr_tr(msgid), ap);
    va_end(ap);
}

static void add_ignored(hr_diag_ctx *c, const hit_place *at, const char *text, size_t len, const char *why,
                        const char *why_shown)
{
    c->ignored_total++;
    /* one line per distinct reason and text is enough */
    for (size_t i = 0; i < c->nignored; i++)
        if (strcmp(c->ignored[i].why, why) == 0)
            return;
    if (c->nignored >= HR_DIAG_IGNORED_MAX)
        return;
    hr_diag_ignored *g = &c->ignored[c->nignored++];
    snprintf(g->source, sizeof g->source, "%s", at->source ? at->source : "");
    g->time = at->time;
    clip(g->text, sizeof g->text, text, len, 0);
    snprintf(g->why, sizeof g->why, "%s", why);
    snprintf(g->why_shown, sizeof g->why_shown, "%s", strcmp(why, why_shown) ? why_shown : "");
}

/* Is the record within the run's time window? Writes the reason when not. */
static bool in_run_window(const hr_diag_ctx *c, int64_t t, char *why, size_t n, char *shown, size_t shown_n)
{
    if (t <= 0)
        return true;
    if (c->window_end > 0 && t > c->window_end) {
        reason_both(why, n, shown, shown_n, HR_N("after the run's log was last written"));
        return false;
    }
    if (c->window_start > 0 && t < c->window_start) {
        reason_both(why, n, shown, shown_n, HR_N("before the run's log begins"));
        return false;
    }
    return true;
}

/* ---- warnings and the run's state --------------------------------------------------------- */

/* A tqdm bar at its end: "100%|". */
static bool bar_finished(const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '%', (size_t)(end - p))) != NULL) {
        if (hr_bar_full_at((const unsigned char *)s, n, (size_t)(p - s)))
            return true;
        p++;
    }
    return false;
}

static void add_warning(hr_diag_ctx *c, hr_cause tier, const seg_view *v, size_t at_byte, const hit_place *at)
{
    hr_diag_warning *w = &c->warnings[tier == HR_CAUSE_GPU_OOM ? 0 : 1];
    if (w->count && w->last_key == c->seq)
        return;
    w->last_key = c->seq;
    if (w->count++ == 0) {
        w->tier = tier;
        w->input = at->input;
        w->line = at->line;
        clip(w->text, sizeof w->text, v->text, v->len, at_byte);
    }
}

/* text[0..k) into dst, k >= 16: sixteen bytes at a time, the last sixteen overlapping (a
 * memcpy of a length not known at compile time was inlined as a slow "rep movs"; fixed-size
 * copies become single moves). Up to 64 bytes (a bar's redraw: every one comes here) the
 * first and last sixteen and the two next to them, with no loop; a longer text's middle in
 * a loop. Always inlined: hr_diag_feed's hinted path makes no call. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
copy_by16(char *dst, const char *text, size_t k)
{
    unsigned char w[16];
    memcpy(w, text, 16);
    memcpy(dst, w, 16);
    memcpy(w, text + k - 16, 16);
    memcpy(dst + k - 16, w, 16);
    if (k > 32) {
        memcpy(w, text + 16, 16);
        memcpy(dst + 16, w, 16);
        memcpy(w, text + k - 32, 16);
        memcpy(dst + k - 32, w, 16);
        for (size_t i = 32; i + 32 < k; i += 16) {
            memcpy(w, text + i, 16);
            memcpy(dst + i, w, 16);
        }
    }
}

/* A busy phrase (a model loading, a bar's redraw) seen in the line. Every redraw of a
 * progress bar comes here: keep it cheap. */
static void busy_state(hr_diag_ctx *c, const char *text, size_t len, uint64_t line, bool finished)
{
    /* the run went on: an error before this was not its end */
    c->ev.kind = HR_EV_NONE;
    c->ev.frame_tail = false;
    if (finished) {
        c->run_state = 0; /* a bar that reached its end: that step finished */
        return;
    }
    c->run_state = 1;
    c->busy_line = line;
    size_t k = len < sizeof c->busy_text - 1 ? len : sizeof c->busy_text - 1;
    while (k > 0 && k < len && ((unsigned char)text[k] & 0xc0) == 0x80)
        k--; /* whole UTF-8 characters */
    if (k >= 16) {
        copy_by16(c->busy_text, text, k);
    } else if (k >= 8) {
        uint64_t w0, w1;
        memcpy(&w0, text, 8);
        memcpy(&w1, text + k - 8, 8);
        memcpy(c->busy_text, &w0, 8);
        memcpy(c->busy_text + k - 8, &w1, 8);
    } else {
        for (size_t i = 0; i < k; i++)
            c->busy_text[i] = text[i];
    }
    c->busy_text[k] = '\0';
}

static void busy(hr_diag_ctx *c, const seg_view *v, const hit_place *at)
{
    if (at->input >= 0)
        busy_state(c, v->text, v->len, at->line, bar_finished(v->text, v->len));
}

/* Judge one hit; returns true when the hit was understood (evidence, a marker, a warning, a
 * record set aside): the generic phrases of the same line are then not looked at. */
static bool judge(hr_diag_ctx *c, const hr_diag_rule *r, const seg_view *v, ptrdiff_t b, size_t e, const hit_place *at)
{
    if (!at_boundaries(r, v, b, e))
        return false;
    hr_cause cause = (hr_cause)r->cause;
    hr_confidence conf = (hr_confidence)r->conf;
    const char *meaning = r->meaning;
    size_t mb = b < 0 ? 0 : (size_t)b;
    int64_t pid = -1;
    char victim[32] = "";
    char why[96] = "";
    char why_shown[128] = "";
    switch (r->kind) {
    case HR_RK_MARKER:
        if (at->input >= 0) {
            c->have_marker = true;
            c->marker_line = at->line;
        }
        return true;
    case HR_RK_TRACEBACK:
        if (at->input >= 0) {
            c->have_marker = true;
            c->marker_line = at->line;
            c->in_traceback = true;
            c->traceback_line = at->line;
        }
        return true;
    case HR_RK_BUSY:
        if (b >= 0)
            busy(c, v, at);
        return false;
    case HR_RK_DONE:
        if (at->input >= 0) {
            c->run_state = 2;
            hr_diag_event_clear(c); /* a prompt finished: what came before was no end */
        }
        return false;
    case HR_RK_WARNING: add_warning(c, cause, v, mb, at); return true;
    case HR_RK_NOTICE:
        /* mlock's "Cannot allocate memory" is a limit on locked pages: at most a weak
         * not-memory ending, forgotten when the run goes on */
        if (r->meaning && at->input >= 0 && b >= 0 && c->ev.kind != HR_EV_LIMIT)
            hr_diag_event_mark(c, HR_EV_LIMIT, HR_CAUSE_NOT_MEMORY, HR_CONF_LOW, r->meaning, v->text, v->len, at->line,
                               false);
        return true;
    case HR_RK_EVENT:
        if (at->input < 0 || b < 0)
            return true;
        c->have_marker = true;
        c->marker_line = at->line;
        /* a bare "Aborted" ends a line (a shell's or abort()'s report), not prose */
        if (strcmp(r->phrase, "aborted") == 0 && !rest_is(v->text, v->len, e, ""))
            return true;
        hr_diag_event_mark(c, conf >= HR_CONF_MEDIUM ? HR_EV_HEADER : HR_EV_ERROR_LINE, cause, conf, meaning, v->text,
                           v->len, at->line, (r->flags & HR_RF_NEXT) != 0);
        return true;
    case HR_RK_PAGEFILE:
        if (!hr_diag_pagefile_blame(v->text, v->len))
            return false;
        if (at->input >= 0)
            c->pagefile_blamed = true;
        break;
    case HR_RK_MODULE: {
        /* the module's name runs back from ".dll" to a path separator, a field's ':' or '=',
         * a space, a quote */
        if (b < 0)
            return false;
        size_t s0 = mb;
        while (s0 > 0 && (is_alnum((unsigned char)v->text[s0 - 1]) || v->text[s0 - 1] == '_' || v->text[s0 - 1] == '-'))
            s0--;
        if (!hr_diag_driver_module(v->text + s0, mb - s0))
            return false;
        break;
    }
    case HR_RK_PLAIN:
        /* OpenCV names its CPU allocation failure after a function 'OutOfMemoryError' */
        if (cause == HR_CAUSE_GPU_OOM && ci_find(v->text, v->len, "-4:insufficient memory", false))
            return false;
        if (cause == HR_CAUSE_GPU_OOM && at->input >= 0) {
            /* TensorFlow / XLA: "... The caller indicates that this is not a failure" */
            if (ci_find(v->text, v->len, "not a failure", false)) {
                add_warning(c, cause, v, mb, at);
                return true;
            }
            /* the message's own figures: far more free than asked for is no exhaustion */
            if (hr_diag_gpu_room(v->text, v->len)) {
                cause = HR_CAUSE_NOT_MEMORY;
                conf = HR_CONF_MEDIUM;
                meaning = m_gpu_room;
            }
        }
        /* a bare std::bad_alloc / MemoryError cannot say what ran out, or whether */
        if (cause == HR_CAUSE_HOST_OOM && at->input >= 0 &&
            (strcmp(r->phrase, "bad_alloc") == 0 || strcmp(r->phrase, "memoryerror") == 0) &&
            !hr_diag_has_size(v->text, v->len))
            conf = HR_CONF_LOW;
        /* ggml asserts the pointer an allocation returned ("GGML_ASSERT: ...:453: data",
         * "... buf != NULL"): that assertion failing is the allocation failing */
        if (cause == HR_CAUSE_NOT_MEMORY && strcmp(r->phrase, "ggml_assert") == 0 &&
            assert_on_pointer(v->text, v->len, e)) {
            cause = HR_CAUSE_HOST_OOM;
            conf = HR_CONF_MEDIUM;
            meaning = m_assert_alloc;
        }
        /* an abort, an assertion, a crash after an allocation failed is its consequence */
        if (cause == HR_CAUSE_NOT_MEMORY && (r->flags & HR_RF_GENERIC) && at->input >= 0 && hr_diag_memory_seen(c))
            return true;
        break;
    case HR_RK_KILLED_PROCESS:
        if (b < 0 || !parse_victim(v->text, v->len, e, &pid, victim, sizeof victim))
            return false;
        if (ci_find(v->text, v->len, "memory cgroup out of memory", false) || ci_find(v->text, v->len, "memcg", false))
            meaning = m_victim_memcg;
        break;
    case HR_RK_SHELL_KILLED:
        if (b < 0 || !shell_killed(v->text, v->len, mb, e, (unsigned char)r->phrase[0] < 0x80))
            return false;
        break;
    case HR_RK_EXIT_CODE: {
        int64_t code = 0;
        if (!exit_code_cause(v->text, v->len, e, &cause, &conf, &meaning, &code)) {
            /* another non-zero status ends the run too: a weak candidate, never over an
             * error line the log already showed */
            if (code != 0 && at->input >= 0 && b >= 0 && !c->ev.kind)
                hr_diag_event_mark(c, HR_EV_ERROR_LINE, HR_CAUSE_NOT_MEMORY, HR_CONF_LOW, NULL, v->text, v->len,
                                   at->line, false);
            return false;
        }
        break;
    }
    case HR_RK_PRESS_ANY_KEY:
        if (at->input < 0)
            return false;
        if (c->have_marker && at->line - c->marker_line <= HR_DIAG_QUIET_LINES)
            return false;
        meaning = m_press_key;
        break;
    case HR_RK_GENERIC_OOM:
        cause = generic_oom_cause(v->text, v->len, &conf);
        if (r->conf == HR_CONF_NONE && conf < HR_CONF_MEDIUM)
            return false; /* a bare "OOM" says nothing without the memory it is about */
        if ((unsigned char)r->phrase[0] >= 0x80 && conf < HR_CONF_MEDIUM)
            conf = HR_CONF_MEDIUM; /* 内存 is RAM: 显存 is VRAM */
        break;
    default: break;
    }
    /* A system record must be about the run: its process, its time. */
    if (at->input < 0 && b >= 0) {
        char reason[120], reason_shown[160];
        if (!in_run_window(c, at->time, reason, sizeof reason, reason_shown, sizeof reason_shown)) {
            add_ignored(c, at, v->text, v->len, reason, reason_shown);
            return true;
        }
        if (cause == HR_CAUSE_KILLED) {
            if (context_only(r))
                return true;
            char subject[64];
            int64_t spid = -1;
            char memcg[192];
            if (record_subject(v->text, v->len, r, mb, e, subject, sizeof subject, &spid, memcg, sizeof memcg)) {
                int rel = hr_diag_subject_is_run(c, subject, spid);
                if (rel < 0 && c->pid >= 0 && spid >= 0 && memcg[0] && c->pid_cgroup[0] && strcmp(memcg, "/") != 0 &&
                    strcmp(memcg, c->pid_cgroup) == 0) {
                    /* Not --pid itself, but the kernel put it in --pid's cgroup: a child of
                     * the run (the launcher's python) or another process of its scope. */
                    const char *leaf = strrchr(memcg, '/');
                    conf = conf > HR_CONF_MEDIUM ? HR_CONF_MEDIUM : conf;
                    /* JSON keeps the English; the text shows the current language */
                    snprintf(why, sizeof why, hr_tr_lang(HR_LANG_EN, HR_N("pid %lld is in --pid %lld's cgroup %.40s")),
                             (long long)spid, (long long)c->pid, leaf && leaf[1] ? leaf + 1 : memcg);
                    snprintf(why_shown, sizeof why_shown, HR_T("pid %lld is in --pid %lld's cgroup %.40s"),
                             (long long)spid, (long long)c->pid, leaf && leaf[1] ? leaf + 1 : memcg);
                    rel = 2;
                } else if (rel < 0) {
                    if (c->pid >= 0 && spid >= 0)
                        reason_both(reason, sizeof reason, reason_shown, sizeof reason_shown,
                                    HR_N("pid %lld is not --pid %lld"), (long long)spid, (long long)c->pid);
                    else
                        reason_both(reason, sizeof reason, reason_shown, sizeof reason_shown,
                                    HR_N("%.60s is not the run's process"), subject);
                    add_ignored(c, at, v->text, v->len, reason, reason_shown);
                    return true;
                }
                if (rel == 2) {
                    /* why: said above */
                } else if (rel == 0) {
                    conf = conf > HR_CONF_MEDIUM ? HR_CONF_MEDIUM : conf;
                    reason_both(why, sizeof why, why_shown, sizeof why_shown, HR_N("%.60s may hold the run"), subject);
                } else if (spid >= 0 && c->pid >= 0) {
                    reason_both(why, sizeof why, why_shown, sizeof why_shown, HR_N("pid %lld is --pid"),
                                (long long)spid);
                } else {
                    reason_both(why, sizeof why, why_shown, sizeof why_shown, HR_N("%.60s is the run's process"),
                                subject);
                }
            }
        }
        if (!why[0] && at->time > 0 && (c->window_start > 0 || c->window_end > 0))
            reason_both(why, sizeof why, why_shown, sizeof why_shown, HR_N("in the run's time window"));
    }
    hr_diag_evidence *ev = add_evidence(c, cause, conf, meaning, at);
    hr_diag_finding *f = &c->findings[cause];
    f->specific |= r->kind != HR_RK_GENERIC_OOM;
    if (pid >= 0) {
        /* The victim line says most: who, and whether a cgroup's limit or the whole
         * machine ran out. */
        f->victim_pid = pid;
        snprintf(f->victim, sizeof f->victim, "%s", victim);
        f->meaning = meaning;
    }
    if (!ev)
        return true;
    snprintf(ev->why, sizeof ev->why, "%s", why);
    if (strcmp(why_shown, why) != 0)
        snprintf(ev->why_shown, sizeof ev->why_shown, "%s", why_shown);
    if (b < 0) {
        /* Folded line: show the end of the previous line joined to this one. */
        char joined[HR_DIAG_TEXT_MAX * 2];
        size_t pl = v->prev_len < HR_DIAG_TEXT_MAX ? v->prev_len : HR_DIAG_TEXT_MAX;
        size_t tl = v->len < HR_DIAG_TEXT_MAX ? v->len : HR_DIAG_TEXT_MAX;
        memcpy(joined, v->prev + v->prev_len - pl, pl);
        memcpy(joined + pl, v->text, tl);
        clip(ev->text, sizeof ev->text, joined, pl + tl, (size_t)((ptrdiff_t)pl + b));
    } else {
        clip(ev->text, sizeof ev->text, v->text, v->len, mb);
    }
    return true;
}

static bool state_kind(const hr_diag_rule *r)
{
    return r->kind == HR_RK_MARKER || r->kind == HR_RK_TRACEBACK || r->kind == HR_RK_BUSY || r->kind == HR_RK_DONE ||
           r->kind == HR_RK_EVENT;
}

/* Returns true when a phrase other than a marker was understood on this line. *state: the
 * matcher's state carried in (0: none); with end, the state after the line is left there. */
static bool classify(hr_diag_ctx *c, const seg_view *v, unsigned *state, bool end, const hit_place *at,
                     const hit_place *prev_at)
{
    hr_acm_hit hits[HR_DIAG_HITS_MAX];
    size_t n;
    if (*state) {
        n = hr_acm_scan(&c->acm, state, v->text, v->len, hits, HR_DIAG_HITS_MAX);
    } else {
        /* the common case: nothing carried in, and mostly no end state wanted */
        n = hr_acm_find(&c->acm, v->text, v->len, hits, HR_DIAG_HITS_MAX);
        if (end)
            *state = hr_acm_end_state(&c->acm, v->text, v->len);
    }
    if (n == 0)
        return false;
    if (n > HR_DIAG_HITS_MAX)
        n = HR_DIAG_HITS_MAX;
    bool specific = false, notice = false;
    /* pass 0: notices (a line that only mentions memory: nothing else on it counts but the
     * markers); 1: specific phrases; 2: the program blaming the page file, 3: generic memory
     * phrases, when nothing specific matched; 4: other generic ones (a crash, an
     * assertion), when no memory phrase did */
    for (int pass = 0; pass < 5; pass++) {
        for (size_t i = 0; i < n; i++) {
            const hr_diag_rule *r = &hr_diag_rules[hits[i].phrase];
            bool is_notice = r->kind == HR_RK_NOTICE;
            bool generic = (r->flags & HR_RF_GENERIC) != 0;
            int want = is_notice                      ? 0
                       : !generic                     ? 1
                       : r->kind == HR_RK_PAGEFILE    ? 2
                       : r->kind == HR_RK_GENERIC_OOM ? 3
                                                      : 4;
            if (want != pass)
                continue;
            if (notice && !state_kind(r))
                continue;
            if (generic && specific)
                continue;
            ptrdiff_t b = (ptrdiff_t)hits[i].end - (ptrdiff_t)c->acm.len[hits[i].phrase];
            const hit_place *where = b < 0 ? prev_at : at;
            if (b < 0 && !prev_at)
                continue;
            if (judge(c, r, v, b, hits[i].end, where) && !state_kind(r)) {
                specific = true;
                notice |= is_notice;
            }
        }
    }
    return specific;
}

/* A Python exception's final line: "ValueError: ...", "safetensors_rust.SafetensorError: ...",
 * "torch.OutOfMemoryError" — a dotted name ending in Error / Exception / Exit / Warning at the
 * start of the line, then ':' or the end. Returns the confidence it gets, NONE if it is not
 * one. KeyboardInterrupt and SystemExit are the user's stop, not a failure. */
static hr_confidence exception_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (is_word((unsigned char)s[i]) || s[i] == '.'))
        i++;
    if (i == 0 || (i < n && s[i] != ':'))
        return HR_CONF_NONE;
    static const char *const ends[] = { "error", "exception", "failure", "panicexception" };
    bool ok = false;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0] && !ok; k++) {
        size_t l = strlen(ends[k]);
        ok = i >= l && ci_find(s + i - l, l, ends[k], false);
    }
    if (!ok)
        return HR_CONF_NONE;
    /* an import failing at start-up is often a custom node ComfyUI skips: a weak hint */
    if (ci_find(s, i, "modulenotfounderror", false) || ci_find(s, i, "importerror", false))
        return HR_CONF_LOW;
    return HR_CONF_MEDIUM;
}

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* "2025-03-14 20:41:07" (or with a T) at s: local time → Unix seconds, 0 if not a time. */
static int64_t parse_stamp(const hr_diag_ctx *c, const char *s, size_t n)
{
    if (n < 19 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2) ||
        (s[10] != ' ' && s[10] != 'T') || !digits(s + 11, 2) || s[13] != ':' || !digits(s + 14, 2) || s[16] != ':' ||
        !digits(s + 17, 2))
        return 0;
    int64_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    unsigned mo = (unsigned)((s[5] - '0') * 10 + (s[6] - '0'));
    unsigned d = (unsigned)((s[8] - '0') * 10 + (s[9] - '0'));
    int64_t h = (s[11] - '0') * 10 + (s[12] - '0');
    int64_t mi = (s[14] - '0') * 10 + (s[15] - '0');
    int64_t se = (s[17] - '0') * 10 + (s[18] - '0');
    if (y < 2000 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return 0;
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - c->tz_offset;
}

/* The log's own clock: a time at the start of a line ("[2025-03-14 20:41:07.118] ...",
 * "2025-03-14 20:41:07,118 - INFO") or ComfyUI's "** ComfyUI startup time: ...". */
static void note_time(hr_diag_ctx *c, const char *s, size_t n)
{
    if (c->input < 0 || n < 19)
        return;
    size_t i = s[0] == '[' ? 1 : 0;
    int64_t t = 0;
    if (s[i] >= '0' && s[i] <= '9')
        t = parse_stamp(c, s + i, n - i);
    else if (s[0] == '*' && n > 40 && ci_find(s, 30, "startup time: ", false)) {
        /* the segment is not NUL-terminated (it may lie in the read buffer): bounded */
        const char *p = NULL;
        for (size_t k = 0; k + 6 <= n && !p; k++)
            if (memcmp(s + k, "time: ", 6) == 0)
                p = s + k;
        if (p && (size_t)(p - s) + 6 < n)
            t = parse_stamp(c, p + 6, n - (size_t)(p - s) - 6);
    }
    if (t <= 0)
        return;
    hr_diag_input *in = &c->inputs[c->input];
    if (!in->first_time || t < in->first_time)
        in->first_time = t;
    if (t > in->last_time)
        in->last_time = t;
}

/* ComfyUI's "** Platform: Windows" / "** Platform: Linux": the OS the log was written on,
 * whose advice the fix gives wherever the log is read. */
static void note_platform(hr_diag_ctx *c, const char *s, size_t n)
{
    if (n < 14 || s[0] != '*' || !ci_find(s, n < 16 ? n : 16, "platform: ", false))
        return;
    if (ci_find(s, n, "windows", true))
        c->log_os = 2;
    else if (ci_find(s, n, "linux", true))
        c->log_os = 1;
}

/* The first byte (in memory order) of a word whose bytes' top bits m marks. */
static unsigned first_byte(uint64_t m)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (unsigned)__builtin_ctzll(m) >> 3;
#else
    unsigned char b[8];
    memcpy(b, &m, 8);
    unsigned k = 0;
    while (k < 7 && !(b[k] & 0x80))
        k++;
    return k;
#endif
}

/* "100%|" with its '%' at p[k] (bar_finished). */
static bool finished_at(const unsigned char *p, size_t n, size_t k)
{
    return hr_bar_full_at(p, n, k);
}

/* Sixteen bytes as one value, where the compiler offers vectors (GCC, Clang): bar_redraw
 * tests a redraw with them; elsewhere eight at a time in an integer. */
#if defined(__GNUC__) && (defined(__SSE2__) || defined(__ARM_NEON))
#define HR_BAR_VEC 1
typedef unsigned char hr_u8x16 __attribute__((vector_size(16)));
#else
#define HR_BAR_VEC 0
#endif

/* The bytes of x (eight of a segment) that bar_redraw's eight-at-a-time test does not pass
 * have their top bits set in the result (with other bits): the ASCII letters (l is x's low
 * seven bits in lower case: at least 0x61 and below 0x7b there) and the bytes >= 0x80,
 * exactly per byte (no carry crosses a byte). *pct: at least the '%' bytes (u is 0 there;
 * a byte after one may be marked too, finished_at looks again). */
static uint64_t bar_word(uint64_t x, uint64_t *pct)
{
    const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
    uint64_t l = (x & ones * 0x7f) | ones * 0x20, u = x ^ ones * '%';
    *pct = (u - ones) & ~u & tops;
    return ((l + ones * (0x80 - 'a')) & ~(l + ones * (0x80 - 'z' - 1))) | x;
}

/* A "100%|" at one of the '%' that pct marks in the word at p[i]. */
static bool bar_pct(const unsigned char *p, size_t n, size_t i, uint64_t pct)
{
    bool fin = false;
    for (; pct; pct &= pct - 1)
        fin |= finished_at(p, n, i + first_byte(pct));
    return fin;
}

#if HR_BAR_VEC
typedef signed char hr_s8x16 __attribute__((vector_size(16)));
/* bar_pct for sixteen bytes at p[i]: at is 0xff where a byte is '%', else 0. */
static inline bool bar_pct16(const unsigned char *p, size_t n, size_t i, hr_u8x16 at)
{
    bool fin = false;
#if defined(__SSE2__)
    /* one bit a byte, in a register at once (SSE2's pmovmskb) */
    typedef char hr_c8x16 __attribute__((vector_size(16)));
    unsigned m = (unsigned)__builtin_ia32_pmovmskb128((hr_c8x16)at);
    for (; m; m &= m - 1)
        fin |= finished_at(p, n, i + (size_t)__builtin_ctz(m));
#else
    const uint64_t tops = 0x8080808080808080u;
    uint64_t q[2];
    memcpy(q, &at, 16);
    if (q[0] | q[1]) {
        fin |= bar_pct(p, n, i, q[0] & tops);
        fin |= bar_pct(p, n, i + 8, q[1] & tops);
    }
#endif
    return fin;
}
#endif

/* A segment that is a progress bar only: bar bytes, ending in "it/s]" or "s/it]" (whose
 * boundaries always hold: any byte may come before, none after). *finished: it holds "100%|"
 * (bar_finished). The decoder's hint HR_SEG_BAR says so already (its bars, no letter in the
 * body, are some of these); else eight bytes at a time: an ASCII byte other than a letter is
 * a bar byte (see bar_setup); only when another byte is seen is the whole looked up in the
 * table. */
static bool bar_redraw(const hr_diag_ctx *c, const char *text, size_t len, unsigned flags, bool *finished)
{
    if (c->bar_rule[0] < 0)
        return false;
    if (flags & HR_SEG_BAR) {
        *finished = (flags & HR_SEG_BAR_FULL) != 0;
        return true;
    }
    if (len < 5 || text[len - 1] != ']' || !hr_bar_tail(text, len))
        return false;
    const unsigned char *p = (const unsigned char *)text;
    size_t body = len - 5; /* the bar phrase: bar bytes, no '%' */
    bool fin = false;
    uint64_t other = 0, pct = 0;
#if HR_BAR_VEC
    if (body >= 16) {
        /* the same test sixteen bytes at a time, where the compiler has vectors: the chunks
         * at 0, 16, ... and the last sixteen bytes (overlapping) */
        hr_u8x16 acc = { 0 };
        for (size_t i = 0;; i += 16) {
            bool last = i + 16 >= body;
            if (last)
                i = body - 16;
            hr_u8x16 x;
            memcpy(&x, p + i, 16);
            /* an ASCII letter: x | 0x20 in 'a'..'z', moved to -128..-103 as a signed byte
             * (one compare); a byte >= 0x80 has its top bit set in x itself (what the
             * compare says of it does not matter) */
            hr_s8x16 l = (hr_s8x16)((x | 0x20) + (unsigned char)(0x80 - 'a'));
            acc |= (hr_u8x16)(l < -128 + 26) | x;
            fin |= bar_pct16(p, len, i, (hr_u8x16)(x == '%'));
            if (last)
                break;
        }
#if defined(__SSE2__)
        typedef char hr_c8x16 __attribute__((vector_size(16)));
        other = __builtin_ia32_pmovmskb128((hr_c8x16)acc) != 0 ? 0x80u : 0; /* any top bit */
#else
        uint64_t o[2];
        memcpy(o, &acc, 16);
        other = (o[0] | o[1]) & 0x8080808080808080u;
#endif
    } else
#endif
        if (body >= 8) {
        /* the words at 0, 8, 16, ... and the last eight bytes (overlapping: looking at a
         * byte twice changes nothing) */
        size_t i = 0;
        uint64_t x;
        for (; i + 8 <= body; i += 8) {
            memcpy(&x, p + i, 8);
            other |= bar_word(x, &pct);
            if (pct)
                fin |= bar_pct(p, len, i, pct);
        }
        if (i < body) {
            i = body - 8;
            memcpy(&x, p + i, 8);
            other |= bar_word(x, &pct);
            if (pct)
                fin |= bar_pct(p, len, i, pct);
        }
    } else {
        for (size_t i = 0; i < body; i++) {
            other |= (uint64_t)!c->bar_bytes[p[i]] << 7;
            fin |= finished_at(p, len, i);
        }
    }
    if (other & 0x8080808080808080u) {
        unsigned ok = 1;
        for (size_t i = 0; i < body; i++)
            ok &= c->bar_bytes[p[i]];
        if (!ok)
            return false;
    }
    *finished = fin;
    return true;
}

/* What a bar's redraw does, found by bar_feed or the decoder's hint. */
static inline void bar_seen(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, bool finished)
{
    c->seq++;
    if (text[0] == '[' || text[0] == '*' || (text[0] >= '0' && text[0] <= '9'))
        note_time(c, text, len); /* else it finds no time */
    if (c->input >= 0)
        busy_state(c, text, len, lineno, finished);
    c->carry_state = 0;
    c->prev_line = lineno;
}

/* hr_diag_feed for a bar's redraw in the common case (ended by \r or short, not joined to a
 * line before, no traceback to end): the same effect as the whole path below, in less.
 * *not_bar: bar_redraw was asked and said no (the path below need not ask again). */
static bool bar_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags, bool *not_bar)
{
    bool finished = false;
    if ((flags & (HR_SEG_JUNK | HR_SEG_CUT)) || (!(flags & HR_SEG_CR) && len >= HR_DIAG_FOLD_MIN) ||
        (c->carry_state && lineno == c->carry_line + 1) ||
        (c->in_traceback && lineno != c->traceback_line && text[0] != ' '))
        return false;
    if (!bar_redraw(c, text, len, flags, &finished)) {
        *not_bar = true;
        return false;
    }
    bar_seen(c, text, len, lineno, finished);
    return true;
}

/* hr_diag_feed for every segment but the bars bar_feed takes (not inlined: its frame is
 * large, and the bars, most of a log's segments, need none of it). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
feed_line(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags, bool not_bar)
{
    c->seq++;
    if (flags & HR_SEG_JUNK) {
        /* binary data: no phrase in it is evidence, and nothing carries over it */
        c->carry_state = 0;
        c->prev_line = lineno;
        return;
    }
    unsigned state = 0;
    seg_view v = { .text = text, .len = len };
    hit_place at = { .input = c->input, .key = lineno, .line = lineno };
    hit_place prev_at = { .input = c->input, .key = c->carry_line, .line = c->carry_line };
    bool joined = false;
    /* Windows of a long line are never joined to the line before. */
    if (c->carry_state && lineno == c->carry_line + 1 && !(flags & HR_SEG_CUT)) {
        state = c->carry_state;
        v.prev = c->carry_text;
        v.prev_len = c->carry_len;
        joined = true;
    }
    if (!(flags & HR_SEG_CUT)) {
        note_time(c, text, len);
        note_platform(c, text, len);
    }
    bool tb_open = c->in_traceback && lineno != c->traceback_line;
    /* the end state is wanted only where the line may go on in the next (see below) */
    bool may_fold = !(flags & (HR_SEG_CR | HR_SEG_CUT)) && len >= HR_DIAG_FOLD_MIN;
    bool understood = false;
    bool finished = false;
    if (!not_bar && !joined && !(flags & HR_SEG_CUT) && bar_redraw(c, text, len, flags, &finished)) {
        /* what the matcher and the judge would find: a bar phrase at the end (and maybe
         * more of them), each a busy line, nothing else */
        if (at.input >= 0)
            busy_state(c, text, len, lineno, finished);
        if (may_fold)
            state = hr_acm_end_state(&c->acm, text, len);
    } else {
        understood = classify(c, &v, &state, may_fold, &at, joined ? &prev_at : NULL);
    }
    /* The end of a traceback: the first line that is not indented is the exception. */
    if (tb_open && c->in_traceback && len > 0 && text[0] != ' ' && !(flags & HR_SEG_CUT) &&
        !ci_find(text, len < 40 ? len : 40, "during handling of the above", false) &&
        !ci_find(text, len < 40 ? len : 40, "the above exception was", false) &&
        !ci_find(text, len < 12 ? len : 12, "traceback", false)) {
        c->in_traceback = false;
        hr_confidence conf = exception_line(text, len);
        if (!understood && conf != HR_CONF_NONE) {
            c->seq++;
            hr_diag_evidence *ev = add_evidence(c, HR_CAUSE_NOT_MEMORY, conf, m_exception, &at);
            if (ev)
                clip(ev->text, sizeof ev->text, text, len, 0);
            understood = true;
        }
    }
    if (at.input >= 0 && !(flags & HR_SEG_CUT))
        hr_diag_event_line(c, text, len, lineno, understood);
    /* Carry the matcher into the next line when this one may have been folded: long, ended
     * by a real newline (not a progress bar's \r), and in the middle of a phrase. */
    c->carry_state = 0;
    if (may_fold && state != 0) {
        size_t k = len < sizeof c->carry_text ? len : sizeof c->carry_text;
        memcpy(c->carry_text, text + len - k, k);
        c->carry_len = k;
        c->carry_state = state;
        c->carry_line = lineno;
    }
    c->prev_line = lineno;
}

/* hr_diag_feed for every segment but the hinted bars hr_diag_feed itself takes. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
feed_other(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    bool not_bar = false;
    if (bar_feed(c, text, len, lineno, flags, &not_bar))
        return;
    feed_line(c, text, len, lineno, flags, not_bar);
}

void hr_diag_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    /* The decoder's bar hint first: most segments of a log, in the fewest steps. bar_feed's
     * tests, then bar_seen's work with busy_state's copy inline for the hint's sizes (16 to
     * 63 bytes: four moves). No call on this path (so no frame): a redraw that may begin
     * with a time, and all else, go the whole way. */
    _Static_assert(sizeof c->busy_text > 64, "the hinted path copies up to 64 bytes");
    if ((flags & (HR_SEG_BAR | HR_SEG_JUNK | HR_SEG_CUT)) == HR_SEG_BAR && c->bar_rule[0] >= 0 && len >= 16 &&
        len < 64 && ((flags & HR_SEG_CR) || len < HR_DIAG_FOLD_MIN) &&
        !(c->carry_state && lineno == c->carry_line + 1) &&
        !(c->in_traceback && lineno != c->traceback_line && text[0] != ' ') &&
        !(text[0] == '[' || text[0] == '*' || (text[0] >= '0' && text[0] <= '9'))) {
        c->seq++;
        c->ev.kind = HR_EV_NONE; /* busy_state: the run went on */
        c->ev.frame_tail = false;
        if (c->input >= 0) {
            if (flags & HR_SEG_BAR_FULL) {
                c->run_state = 0; /* busy_state: that step finished */
            } else {
                c->run_state = 1;
                c->busy_line = lineno;
                copy_by16(c->busy_text, text, len);
                c->busy_text[len] = '\0';
            }
        }
        c->carry_state = 0;
        c->prev_line = lineno;
        return;
    }
    feed_other(c, text, len, lineno, flags);
}

void hr_diag_feed_record(hr_diag_ctx *c, const char *source, int64_t time, const char *text, size_t len)
{
    c->seq++;
    unsigned state = 0;
    seg_view v = { .text = text, .len = len };
    hit_place at = { .input = -1, .key = c->seq, .time = time, .source = source };
    classify(c, &v, &state, false, &at, NULL);
}

/* At the end of an input: a run that was loading or sampling when the log stopped, with no
 * error after it, was ended from outside (S2.1). */
static void silent_stop(hr_diag_ctx *c)
{
    if (c->run_state != 1)
        return;
    if (c->have_marker && c->marker_line >= c->busy_line)
        return;
    c->seq++;
    hit_place at = { .input = c->input, .key = c->busy_line, .line = c->busy_line };
    hr_diag_evidence *ev = add_evidence(c, HR_CAUSE_KILLED, HR_CONF_MEDIUM, m_silent, &at);
    if (ev)
        snprintf(ev->text, sizeof ev->text, "%s", c->busy_text);
    c->run_state = 0;
}

void hr_diag_set_window(hr_diag_ctx *c)
{
    int64_t start = 0, end = 0;
    const char *start_from = NULL, *end_from = NULL;
    bool mtime_end = false;
    for (size_t i = 0; i < c->ninputs; i++) {
        const hr_diag_input *in = &c->inputs[i];
        if (in->first_time && (!start || in->first_time < start)) {
            start = in->first_time;
            start_from = in->name;
        }
        int64_t e = in->mtime > in->last_time ? in->mtime : in->last_time;
        if (e && e > end) {
            end = e;
            end_from = in->name;
            mtime_end = in->mtime >= in->last_time;
        }
    }
    /* the kill comes after the last line written; a minute of slack before the start for
     * clocks that disagree, ten minutes after the end for a run that was quiet */
    c->window_start = start ? start - 60 : 0;
    c->window_end = end ? end + 600 : 0;
    c->window_why[0] = c->window_why_shown[0] = '\0';
    char *en = c->window_why, *sh = c->window_why_shown;
    size_t en_n = sizeof c->window_why, sh_n = sizeof c->window_why_shown;
    /* whole sentences, each translated as one */
    if (start && end && mtime_end)
        reason_both(en, en_n, sh, sh_n, HR_N("from the first time in %.50s to 10 min after %.50s was last written"),
                    start_from, end_from);
    else if (start && end)
        reason_both(en, en_n, sh, sh_n, HR_N("from the first time in %.50s to 10 min after %.50s ends"), start_from,
                    end_from);
    else if (end && mtime_end)
        reason_both(en, en_n, sh, sh_n, HR_N("up to 10 min after %.50s was last written"), end_from);
    else if (end)
        reason_both(en, en_n, sh, sh_n, HR_N("up to 10 min after %.50s ends"), end_from);
}

/* ---- the verdict ---------------------------------------------------------------------- */

void hr_diag_finish(hr_diag_ctx *c)
{
    /* A program that says its page file is short has explained its own unqualified "out
     * of memory" (a GPU that will not initialise, a buffer not created): that OOM is the
     * symptom, and only a hint of its tier. */
    if (c->pagefile_blamed)
        for (int i = HR_CAUSE_GPU_OOM; i <= HR_CAUSE_HOST_OOM; i++)
            if (c->findings[i].present && !c->findings[i].specific && c->findings[i].conf > HR_CONF_LOW)
                c->findings[i].conf = HR_CONF_LOW;
    const hr_diag_finding *winner = NULL;
    for (int pass = 0; pass < 2 && !winner; pass++) {
        for (int i = 0; i < HR_CAUSE_UNKNOWN; i++) {
            const hr_diag_finding *f = &c->findings[i];
            if (!f->present || (pass == 0 && f->conf < HR_CONF_MEDIUM))
                continue;
            if (!winner || f->order < winner->order)
                winner = f;
        }
    }
    c->norder = 0;
    if (!winner)
        return;
    c->order[c->norder++] = winner;
    /* The rest by first sight. */
    for (;;) {
        const hr_diag_finding *next = NULL;
        for (int i = 0; i < HR_CAUSE_UNKNOWN; i++) {
            const hr_diag_finding *f = &c->findings[i];
            bool taken = false;
            for (size_t k = 0; k < c->norder; k++)
                taken |= c->order[k] == f;
            if (f->present && !taken && (!next || f->order < next->order))
                next = f;
        }
        if (!next)
            break;
        c->order[c->norder++] = next;
    }
}

hr_cause hr_diag_cause(const hr_diag_ctx *c)
{
    return c->norder ? c->order[0]->cause : HR_CAUSE_UNKNOWN;
}

hr_confidence hr_diag_confidence(const hr_diag_ctx *c)
{
    return c->norder ? c->order[0]->conf : HR_CONF_NONE;
}
