#include "core/diagnose/diag.h"

#include "core/diagnose/diag_bars.h"
#include "core/diagnose/diag_event.h"
#include "core/diagnose/diag_evidence.h"
#include "core/diagnose/diag_text.h"
#include "core/diagnose/diag_time.h"
#include "core/diagnose/diag_rules.h"
#include "core/base/i18n.h"
#include "core/base/textdec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines of a log after the last error / traceback / finding within which the launcher's
 * "Press any key" is still that error's ending rather than a silent stop. */
#define HR_DIAG_QUIET_LINES 30
#define HR_DIAG_HITS_MAX    32

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
    hr_diag_log_machine_init(&c->log_machine);
    hr_diag_bar_setup(c);
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
        (hr_diag_ci_find(s, b, "it/s]", false) || hr_diag_ci_find(s, b, "s/it]", false) ||
         hr_diag_ci_find(s, b, "%|", false)))
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
            unsigned char ch = hr_diag_lower((unsigned char)s[i]);
            int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
            if (d < 0)
                break;
            v = v * 16 + (uint64_t)d;
        }
    } else {
        for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 19; i++, digits++)
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (digits == 0 || (i < n && hr_diag_is_word((unsigned char)s[i])))
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
        if (hr_diag_ci_find(s, n, gpu[i], (unsigned char)gpu[i][0] < 0x80)) {
            *conf = HR_CONF_MEDIUM;
            return HR_CAUSE_GPU_OOM;
        }
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        if (hr_diag_ci_find(s, n, host[i], (unsigned char)host[i][0] < 0x80)) {
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
    return hr_diag_ci_find(s + b, n - b, "!= null", false);
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
        if (hr_diag_is_word(before))
            return false;
    } else if (is_alnum(first) && !(r->flags & HR_RF_IN_BEFORE) && is_alnum(before)) {
        bool hex = (before == 'x' || before == 'X') && byte_at(v, b - 2) == '0';
        if (!hex)
            return false;
    }
    if (r->flags & HR_RF_WORD_AFTER) {
        if (hr_diag_is_word(after))
            return false;
    } else if (is_alnum(last) && !(r->flags & HR_RF_IN_AFTER) && is_alnum(after)) {
        return false;
    }
    return true;
}

/* ---- is a system record about the run? -------------------------------------------------- */

static bool contains_ci(const char *s, const char *needle)
{
    return hr_diag_ci_find(s, strlen(s), needle, false);
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

static void busy(hr_diag_ctx *c, const seg_view *v, const hr_diag_hit *at)
{
    if (at->input >= 0)
        hr_diag_busy_state(c, v->text, v->len, at->line, hr_diag_bar_finished(v->text, v->len));
}

/* Judge one hit; returns true when the hit was understood (evidence, a marker, a warning, a
 * record set aside): the generic phrases of the same line are then not looked at. */
static bool judge(hr_diag_ctx *c, const hr_diag_rule *r, const seg_view *v, ptrdiff_t b, size_t e,
                  const hr_diag_hit *at)
{
    if (!at_boundaries(r, v, b, e))
        return false;
    hr_cause cause = (hr_cause)r->cause;
    hr_confidence conf = (hr_confidence)r->conf;
    const char *meaning = r->meaning;
    size_t mb = b < 0 ? 0 : (size_t)b;
    int64_t pid = -1;
    char victim[32] = "";
    hr_msg why; /* a system record's: why it is about the run (only its fmt cleared: hot path) */
    why.fmt = NULL;
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
    case HR_RK_WARNING: hr_diag_add_warning(c, cause, v->text, v->len, mb, at); return true;
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
        if (!hr_diag_driver_module(v->text + s0, mb - s0) || !hr_diag_module_in_crash_report(v->text, v->len, mb + 4))
            return false;
        break;
    }
    case HR_RK_PLAIN:
        /* OpenCV names its CPU allocation failure after a function 'OutOfMemoryError' */
        if (cause == HR_CAUSE_GPU_OOM && hr_diag_ci_find(v->text, v->len, "-4:insufficient memory", false))
            return false;
        if (cause == HR_CAUSE_GPU_OOM && at->input >= 0) {
            /* TensorFlow / XLA: "... The caller indicates that this is not a failure" */
            if (hr_diag_ci_find(v->text, v->len, "not a failure", false)) {
                hr_diag_add_warning(c, cause, v->text, v->len, mb, at);
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
        if (hr_diag_ci_find(v->text, v->len, "memory cgroup out of memory", false) ||
            hr_diag_ci_find(v->text, v->len, "memcg", false))
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
        hr_msg reason;
        if (!hr_diag_in_run_window(c, at->time, &reason)) {
            hr_diag_add_ignored(c, at, v->text, v->len, &reason);
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
                    hr_msg_set(&why, HR_N("pid %lld is in --pid %lld's cgroup %.40s"), (long long)spid,
                               (long long)c->pid, leaf && leaf[1] ? leaf + 1 : memcg);
                    rel = 2;
                } else if (rel < 0) {
                    if (c->pid >= 0 && spid >= 0)
                        hr_msg_set(&reason, HR_N("pid %lld is not --pid %lld"), (long long)spid, (long long)c->pid);
                    else
                        hr_msg_set(&reason, HR_N("%.60s is not the run's process"), subject);
                    hr_diag_add_ignored(c, at, v->text, v->len, &reason);
                    return true;
                }
                if (rel == 2) {
                    /* why: said above */
                } else if (rel == 0) {
                    conf = conf > HR_CONF_MEDIUM ? HR_CONF_MEDIUM : conf;
                    hr_msg_set(&why, HR_N("%.60s may hold the run"), subject);
                } else if (spid >= 0 && c->pid >= 0) {
                    hr_msg_set(&why, HR_N("pid %lld is --pid"), (long long)spid);
                } else {
                    hr_msg_set(&why, HR_N("%.60s is the run's process"), subject);
                }
            }
        }
        if (!hr_msg_is_set(&why) && at->time > 0 && (c->window_start > 0 || c->window_end > 0))
            hr_msg_set(&why, HR_N("in the run's time window"));
    }
    hr_diag_evidence *ev = hr_diag_add_evidence(c, cause, conf, meaning, at);
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
    if (hr_msg_is_set(&why))
        ev->why = why;
    if (b < 0) {
        /* Folded line: show the end of the previous line joined to this one. */
        char joined[HR_DIAG_TEXT_MAX * 2];
        size_t pl = v->prev_len < HR_DIAG_TEXT_MAX ? v->prev_len : HR_DIAG_TEXT_MAX;
        size_t tl = v->len < HR_DIAG_TEXT_MAX ? v->len : HR_DIAG_TEXT_MAX;
        memcpy(joined, v->prev + v->prev_len - pl, pl);
        memcpy(joined + pl, v->text, tl);
        hr_diag_clip(ev->text, sizeof ev->text, joined, pl + tl, (size_t)((ptrdiff_t)pl + b));
    } else {
        hr_diag_clip(ev->text, sizeof ev->text, v->text, v->len, mb);
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
static bool classify(hr_diag_ctx *c, const seg_view *v, unsigned *state, bool end, const hr_diag_hit *at,
                     const hr_diag_hit *prev_at)
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
            const hr_diag_hit *where = b < 0 ? prev_at : at;
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

/* hr_diag_feed for every segment but the bars hr_diag_bar_feed takes (not inlined: its frame is
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
    hr_diag_hit at = { .input = c->input, .key = lineno, .line = lineno };
    hr_diag_hit prev_at = { .input = c->input, .key = c->carry_line, .line = c->carry_line };
    bool joined = false;
    /* Windows of a long line are never joined to the line before. */
    if (c->carry_state && lineno == c->carry_line + 1 && !(flags & HR_SEG_CUT)) {
        state = c->carry_state;
        v.prev = c->carry_text;
        v.prev_len = c->carry_len;
        joined = true;
    }
    if (!(flags & HR_SEG_CUT)) {
        hr_diag_note_time(c, text, len);
        hr_diag_note_platform(c, text, len);
        if (c->input >= 0)
            hr_diag_log_machine_line(&c->log_machine, c->input, lineno, text, len);
    }
    bool tb_open = c->in_traceback && lineno != c->traceback_line;
    /* the end state is wanted only where the line may go on in the next (see below) */
    bool may_fold = !(flags & (HR_SEG_CR | HR_SEG_CUT)) && len >= HR_DIAG_FOLD_MIN;
    bool understood = false;
    bool finished = false;
    if (!not_bar && !joined && !(flags & HR_SEG_CUT) && hr_diag_bar_redraw(c, text, len, flags, &finished)) {
        /* what the matcher and the judge would find: a bar phrase at the end (and maybe
         * more of them), each a busy line, nothing else */
        if (at.input >= 0)
            hr_diag_busy_state(c, text, len, lineno, finished);
        if (may_fold)
            state = hr_acm_end_state(&c->acm, text, len);
    } else {
        understood = classify(c, &v, &state, may_fold, &at, joined ? &prev_at : NULL);
    }
    /* The end of a traceback: the first line that is not indented is the exception. */
    if (tb_open && c->in_traceback && len > 0 && text[0] != ' ' && !(flags & HR_SEG_CUT) &&
        !hr_diag_ci_find(text, len < 40 ? len : 40, "during handling of the above", false) &&
        !hr_diag_ci_find(text, len < 40 ? len : 40, "the above exception was", false) &&
        !hr_diag_ci_find(text, len < 12 ? len : 12, "traceback", false)) {
        c->in_traceback = false;
        hr_confidence conf = hr_diag_exception_line(text, len);
        if (!understood && conf != HR_CONF_NONE) {
            c->seq++;
            hr_diag_evidence *ev = hr_diag_add_evidence(c, HR_CAUSE_NOT_MEMORY, conf, m_exception, &at);
            if (ev)
                hr_diag_clip(ev->text, sizeof ev->text, text, len, 0);
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
    if (hr_diag_bar_feed(c, text, len, lineno, flags, &not_bar))
        return;
    feed_line(c, text, len, lineno, flags, not_bar);
}

void hr_diag_feed(hr_diag_ctx *c, const char *text, size_t len, uint64_t lineno, unsigned flags)
{
    /* The decoder's bar hint first: most segments of a log, in the fewest steps. hr_diag_bar_feed's
     * tests, then hr_diag_bar_seen's work with hr_diag_busy_state's copy inline for the hint's sizes (16 to
     * 63 bytes: four moves). No call on this path (so no frame): a redraw that may begin
     * with a time, and all else, go the whole way. */
    _Static_assert(sizeof c->busy_text > 64, "the hinted path copies up to 64 bytes");
    if ((flags & (HR_SEG_BAR | HR_SEG_JUNK | HR_SEG_CUT)) == HR_SEG_BAR && c->bar_rule[0] >= 0 && len >= 16 &&
        len < 64 && ((flags & HR_SEG_CR) || len < HR_DIAG_FOLD_MIN) &&
        !(c->carry_state && lineno == c->carry_line + 1) &&
        !(c->in_traceback && lineno != c->traceback_line && text[0] != ' ') &&
        !(text[0] == '[' || text[0] == '*' || (text[0] >= '0' && text[0] <= '9'))) {
        c->seq++;
        c->ev.kind = HR_EV_NONE; /* hr_diag_busy_state: the run went on */
        c->ev.frame_tail = false;
        if (c->input >= 0) {
            if (flags & HR_SEG_BAR_FULL) {
                c->run_state = 0; /* hr_diag_busy_state: that step finished */
            } else {
                c->run_state = 1;
                c->busy_line = lineno;
                hr_diag_copy_by16(c->busy_text, text, len);
                c->busy_text[len] = '\0';
            }
        }
        c->carry_state = 0;
        c->prev_line = lineno;
        return;
    }
    feed_other(c, text, len, lineno, flags);
}

static void feed_record(hr_diag_ctx *c, const char *source, const hr_msg *source_msg, int64_t time, const char *text,
                        size_t len)
{
    c->seq++;
    unsigned state = 0;
    seg_view v = { .text = text, .len = len };
    hr_diag_hit at = { .input = -1, .key = c->seq, .time = time, .source = source, .source_msg = source_msg };
    classify(c, &v, &state, false, &at, NULL);
}

void hr_diag_feed_record(hr_diag_ctx *c, const char *source, int64_t time, const char *text, size_t len)
{
    feed_record(c, source, NULL, time, text, len);
}

void hr_diag_feed_record_msg(hr_diag_ctx *c, const hr_msg *source, int64_t time, const char *text, size_t len)
{
    feed_record(c, NULL, source, time, text, len);
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
    hr_diag_hit at = { .input = c->input, .key = c->busy_line, .line = c->busy_line };
    hr_diag_evidence *ev = hr_diag_add_evidence(c, HR_CAUSE_KILLED, HR_CONF_MEDIUM, m_silent, &at);
    if (ev)
        snprintf(ev->text, sizeof ev->text, "%s", c->busy_text);
    c->run_state = 0;
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
