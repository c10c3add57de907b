#include "core/diagnose/diag.h"

#include "core/diagnose/diag_rules.h"
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
#define HR_DIAG_FOLD_MIN 60
#define HR_DIAG_HITS_MAX 32

static const struct {
    const char *id, *title, *meaning, *fix;
} causes[HR_CAUSE_COUNT] = {
    [HR_CAUSE_GPU_OOM] = {
        "gpu-oom", "GPU out of memory (VRAM)",
        "The GPU ran out of its own memory (VRAM) while loading or running a model; system "
        "RAM and the paging file were not the limit.",
        "Lower the VRAM need, not the paging file (changing it does nothing here, S2.1): start "
        "ComfyUI with --lowvram (or --novram; A1111/Forge: --medvram/--lowvram), use lighter "
        "or fp8/GGUF-quantised models, decode with the tiled VAE node, lower the resolution or "
        "batch size. Low-VRAM modes move weights into RAM, so keep the paging file / swap at "
        "the size `headroom plan` gives (S1.2c, S4.2)."},
    [HR_CAUSE_HOST_OOM] = {
        "host-oom", "System memory exhausted (RAM + paging file / swap)",
        "A request for system memory failed: the commit limit (RAM + paging file on Windows, "
        "RAM + swap on Linux) was reached.",
        "Enlarge the paging file (Windows) or swap (Linux) to the size `headroom plan` gives — "
        "for 16 GB RAM and SDXL/FLUX 32–64 GB, 64 GB for video workflows (S4.1, S4.2) — with "
        "initial = maximum on a roomy SSD that is not the system drive (S3.2, S3.3); press Set "
        "before OK and reboot (S5.1); close browsers and other large programs (S5.2)."},
    [HR_CAUSE_KILLED] = {
        "killed", "Killed by the operating system",
        "The OS ended the process without an error message of its own, which is what happens "
        "when RAM + paging file / swap run out.",
        "Check RAM and paging file / swap with `headroom status`, close other programs, and "
        "set the paging file / swap to the size `headroom plan` gives (S2.1, S4.1); in a "
        "container or a systemd slice the limit that was hit is the cgroup's memory limit — "
        "raise it or give the run less to hold at once."},
    [HR_CAUSE_LOW_VM] = {
        "low-virtual-memory", "Windows low on virtual memory",
        "Windows warned that the commit limit (RAM + paging file) was nearly used up: the "
        "paging file is too small for what was running.",
        "Enlarge the paging file to the size `headroom plan` gives (S4.1), fixed initial = "
        "maximum on a roomy SSD (S3.2, S3.3); press Set, then OK, then reboot (S5.1); close "
        "other programs during long queues or video workflows (S5.2)."},
    [HR_CAUSE_NOT_MEMORY] = {
        "not-memory", "Not a memory problem",
        "The failure looks like a memory problem but is not: a crash in code, a driver reset "
        "or a GPU kernel error.",
        "Fix the driver or the code, not memory settings: update or reinstall the GPU driver, "
        "undo overclocks, update or remove the custom node / extension that failed, check that "
        "the model matches the workflow; set CUDA_LAUNCH_BLOCKING=1 to find the failing "
        "operation. Paging file, swap and low-VRAM flags will not help."},
    [HR_CAUSE_UNKNOWN] = {
        "unknown", "No known failure found",
        "Nothing in the input matches a known memory failure or a known look-alike.",
        "If the program vanished without a message, run `headroom diagnose` without "
        "--no-system so the OS's own records are read, or save the whole console output to a "
        "file next time (e.g. `run_nvidia_gpu.bat > comfyui.log 2>&1`)."},
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

const char *hr_confidence_name(hr_confidence conf)
{
    switch (conf) {
    case HR_CONF_HIGH: return "high";
    case HR_CONF_MEDIUM: return "medium";
    case HR_CONF_LOW: return "low";
    default: return "none";
    }
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
        return hr_error_set(err, HR_EINTERNAL, "diagnosis: too many phrases");
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
    c->inputs[c->ninputs++] = (hr_diag_input){.name = name, .encoding = "utf-8"};
    c->carry_state = 0;
    c->have_marker = false;
    c->prev_line = 0;
    return 0;
}

void hr_diag_end_input(hr_diag_ctx *c, const char *encoding, uint64_t bytes, uint64_t lines,
                       uint64_t long_lines)
{
    if (c->input < 0)
        return;
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
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
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
        if (!word || ((i == 0 || !is_word((unsigned char)s[i - 1])) &&
                      (i + k == n || !is_word((unsigned char)s[i + k]))))
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
    size_t room = cap - 8;   /* two ellipses and the NUL */
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
    uint64_t key;           /* line number, or the record's sequence number */
    uint64_t line;          /* 0 for a record */
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

static hr_diag_evidence *add_evidence(hr_diag_ctx *c, hr_cause cause, hr_confidence conf,
                                      const char *meaning, const hit_place *at)
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

size_t hr_diag_evidence_list(const hr_diag_finding *f,
                             const hr_diag_evidence *out[HR_DIAG_EVIDENCE_MAX])
{
    size_t n = 0;
    for (size_t i = 0; i < f->nfirst; i++)
        out[n++] = &f->evidence[i];
    size_t start = f->nlast < HR_DIAG_EVIDENCE_LAST ? 0 : f->last_pos;
    for (size_t i = 0; i < f->nlast; i++)
        out[n++] = &f->evidence[HR_DIAG_EVIDENCE_FIRST + (start + i) % HR_DIAG_EVIDENCE_LAST];
    return n;
}

void hr_diag_add(hr_diag_ctx *c, hr_cause cause, hr_confidence conf, const char *source,
                 int64_t time, const char *text, const char *meaning)
{
    if ((unsigned)cause >= HR_CAUSE_UNKNOWN)
        return;
    c->seq++;
    hit_place at = {.input = -1, .key = c->seq, .time = time, .source = source};
    hr_diag_evidence *e = add_evidence(c, cause, conf, meaning, &at);
    if (e)
        clip(e->text, sizeof e->text, text, strlen(text), 0);
}

void hr_diag_note_source(hr_diag_ctx *c, const char *name, bool ok, int64_t records,
                         const char *fmt, ...)
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
    const char *text;       /* this segment */
    size_t len;
    const char *prev;       /* the previous line's tail, when a match may start there */
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
    if (english && s[b] != 'K')
        return false;   /* bash and dash print it capitalised */
    if (p == 0)
        return rest_empty || padded;
    unsigned char before = (unsigned char)s[p - 1];
    if ((before >= '0' && before <= '9') || before == '+' || before == '-' || before == ']')
        return p < b && (rest_empty || padded);
    return false;
}

/* The number after "exit code" etc., and what it says. */
static bool exit_code_cause(const char *s, size_t n, size_t i, hr_cause *cause,
                            hr_confidence *conf, const char **meaning)
{
    static const char m_av[] =
        "The process ended with 0xC0000005 (access violation) and no Python error: on Windows "
        "this is how a sudden stop looks when an allocation failed because RAM + paging file "
        "ran out.";
    static const char m_137[] =
        "Exit status 137 / -9 means SIGKILL, the signal the OOM killer (or a container's memory "
        "limit) uses.";
    static const char m_commit[] =
        "The process ended with STATUS_COMMITMENT_LIMIT / STATUS_NO_MEMORY: Windows' commit "
        "limit (RAM + paging file) was reached.";
    static const char m_crash[] =
        "The process ended with a crash code (stack overflow, fail-fast or heap corruption): a "
        "bug in native code, not a lack of memory.";
    size_t skipped = 0;
    while (i < n && skipped < 6 && strchr(" \t:=(#", s[i])) {
        i++;
        skipped++;
    }
    if (i + 3 < n && (s[i] == 'o' || s[i] == 'i') && (s[i + 1] == 'f' || s[i + 1] == 's') &&
        s[i + 2] == ' ')
        i += 3;   /* "exit code of 137", "exit code is 137" */
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
    /* Windows reports NTSTATUS exit codes unsigned (3221225477) or signed (-1073741819). */
    if (x < 0 && x >= -(int64_t)0x80000000LL && x != -9)
        x += 0x100000000LL;
    switch (x) {
    case 137: case -9:
        *cause = HR_CAUSE_KILLED; *conf = HR_CONF_HIGH; *meaning = m_137; return true;
    case 0xC0000005LL:
        *cause = HR_CAUSE_KILLED; *conf = HR_CONF_MEDIUM; *meaning = m_av; return true;
    case 0xC000012DLL: case 0xC0000017LL: case 1455:
        *cause = HR_CAUSE_HOST_OOM; *conf = HR_CONF_HIGH; *meaning = m_commit; return true;
    case 0xC00000FDLL: case 0xC0000409LL: case 0xC0000374LL:
        *cause = HR_CAUSE_NOT_MEMORY; *conf = HR_CONF_MEDIUM; *meaning = m_crash; return true;
    default:
        return false;
    }
}

/* Words that say which memory an unqualified "out of memory" is about. */
static hr_cause generic_oom_cause(const char *s, size_t n, hr_confidence *conf)
{
    static const char *const gpu[] = {"cuda", "gpu", "vram", "hip", "rocm", "mps", "xpu",
                                      "directml", "dml", "vulkan", "device", "nvidia", "显存"};
    static const char *const host[] = {"ram", "cpu", "host", "swap", "paging", "commit",
                                       "system memory", "内存"};
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

static const char m_press_key[] =
    "The console ended with the launcher's \"Press any key to continue\" and no error before "
    "it: the process stopped without a word, which is how Windows ends it when RAM + paging "
    "file run out (S2.1).";
static const char m_victim_memcg[] =
    "The kernel's OOM killer ended the process because its memory cgroup (container, "
    "systemd slice) reached its memory limit.";

/* Judge one hit; returns true when it became evidence or a marker. */
static bool judge(hr_diag_ctx *c, const hr_diag_rule *r, const seg_view *v, ptrdiff_t b,
                  size_t e, const hit_place *at)
{
    if ((r->flags & HR_RF_WORD_BEFORE) && is_word(byte_at(v, b - 1)))
        return false;
    if ((r->flags & HR_RF_WORD_AFTER) && e < v->len && is_word((unsigned char)v->text[e]))
        return false;
    hr_cause cause = (hr_cause)r->cause;
    hr_confidence conf = (hr_confidence)r->conf;
    const char *meaning = r->meaning;
    size_t mb = b < 0 ? 0 : (size_t)b;
    int64_t pid = -1;
    char victim[32] = "";
    switch (r->kind) {
    case HR_RK_MARKER:
        if (at->input >= 0) {
            c->have_marker = true;
            c->marker_line = at->line;
        }
        return true;
    case HR_RK_KILLED_PROCESS:
        if (b < 0 || !parse_victim(v->text, v->len, e, &pid, victim, sizeof victim))
            return false;
        if (ci_find(v->text, v->len, "memory cgroup out of memory", false) ||
            ci_find(v->text, v->len, "memcg", false))
            meaning = m_victim_memcg;
        break;
    case HR_RK_SHELL_KILLED:
        if (b < 0 || !shell_killed(v->text, v->len, mb, e, (unsigned char)r->phrase[0] < 0x80))
            return false;
        break;
    case HR_RK_EXIT_CODE:
        if (!exit_code_cause(v->text, v->len, e, &cause, &conf, &meaning))
            return false;
        break;
    case HR_RK_PRESS_ANY_KEY:
        if (at->input < 0)
            return false;
        if (c->have_marker && at->line - c->marker_line <= HR_DIAG_QUIET_LINES)
            return false;
        meaning = m_press_key;
        break;
    case HR_RK_GENERIC_OOM:
        cause = generic_oom_cause(v->text, v->len, &conf);
        if ((unsigned char)r->phrase[0] >= 0x80 && conf < HR_CONF_MEDIUM)
            conf = HR_CONF_MEDIUM;   /* 内存 is RAM: 显存 is VRAM */
        break;
    default:
        break;
    }
    hr_diag_evidence *ev = add_evidence(c, cause, conf, meaning, at);
    hr_diag_finding *f = &c->findings[cause];
    if (pid >= 0) {
        /* The victim line says most: who, and whether a cgroup's limit or the whole
         * machine ran out. */
        f->victim_pid = pid;
        snprintf(f->victim, sizeof f->victim, "%s", victim);
        f->meaning = meaning;
    }
    if (!ev)
        return true;
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

static void classify(hr_diag_ctx *c, const seg_view *v, unsigned *state, const hit_place *at,
                     const hit_place *prev_at)
{
    hr_acm_hit hits[HR_DIAG_HITS_MAX];
    size_t n = hr_acm_scan(&c->acm, state, v->text, v->len, hits, HR_DIAG_HITS_MAX);
    if (n == 0)
        return;
    if (n > HR_DIAG_HITS_MAX)
        n = HR_DIAG_HITS_MAX;
    bool specific = false;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            const hr_diag_rule *r = &hr_diag_rules[hits[i].phrase];
            bool generic = (r->flags & HR_RF_GENERIC) != 0;
            if (generic != (pass == 1))
                continue;
            if (generic && specific)
                continue;
            ptrdiff_t b = (ptrdiff_t)hits[i].end - (ptrdiff_t)strlen(r->phrase);
            const hit_place *where = b < 0 ? prev_at : at;
            if (b < 0 && !prev_at)
                continue;
            if (judge(c, r, v, b, hits[i].end, where) && r->kind != HR_RK_MARKER)
                specific = true;
        }
    }
}

void hr_diag_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    c->seq++;
    unsigned state = 0;
    seg_view v = {.text = text, .len = len};
    hit_place at = {.input = c->input, .key = lineno, .line = lineno};
    hit_place prev_at = {.input = c->input, .key = c->carry_line, .line = c->carry_line};
    bool joined = false;
    /* Windows of a long line are never joined to the line before. */
    if (c->carry_state && lineno == c->carry_line + 1 && !(flags & HR_SEG_CUT)) {
        state = c->carry_state;
        v.prev = c->carry_text;
        v.prev_len = c->carry_len;
        joined = true;
    }
    classify(c, &v, &state, &at, joined ? &prev_at : NULL);
    /* Carry the matcher into the next line when this one may have been folded: long, ended
     * by a real newline (not a progress bar's \r), and in the middle of a phrase. */
    c->carry_state = 0;
    if (!(flags & (HR_SEG_CR | HR_SEG_CUT)) && len >= HR_DIAG_FOLD_MIN && state != 0) {
        size_t k = len < sizeof c->carry_text ? len : sizeof c->carry_text;
        memcpy(c->carry_text, text + len - k, k);
        c->carry_len = k;
        c->carry_state = state;
        c->carry_line = lineno;
    }
    c->prev_line = lineno;
}

void hr_diag_feed_record(hr_diag_ctx *c, const char *source, int64_t time, const char *text,
                         size_t len)
{
    c->seq++;
    unsigned state = 0;
    seg_view v = {.text = text, .len = len};
    hit_place at = {.input = -1, .key = c->seq, .time = time, .source = source};
    classify(c, &v, &state, &at, NULL);
}

/* ---- the verdict ---------------------------------------------------------------------- */

void hr_diag_finish(hr_diag_ctx *c)
{
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
