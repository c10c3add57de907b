/* The terminal-event finder: see diag_event.h. */
#include "core/diagnose/diag_event.h"

#include "core/diagnose/diag_evidence.h"
#include "core/diagnose/diag_text.h"

#include "core/base/i18n.h"

#include <stdio.h>
#include <string.h>

static const char *const m_last_exception =
    HR_N("The run ended with an exception that is not about memory (its line is the evidence): a "
         "wrong or damaged file, a mismatch between model and workflow, or a bug.");
static const char *const m_last_error =
    HR_N("The run's last failure is this error line, and nothing in it or before it says memory "
         "ran out: a setup, file or code problem.");
static const char *const m_last_kill =
    HR_N("The run's last error line says the process was killed (SIGKILL), the signal the OOM "
         "killer uses.");
static const char *const m_stack_end =
    HR_N("The log ends in a stack trace of code that crashed, with no memory failure before it: a "
         "crash in a library, an extension or a driver.");

static void copy_text(char *dst, size_t cap, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n > cap - 1) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--; /* whole UTF-8 characters */
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

void hr_diag_event_begin(hr_diag_ctx *c)
{
    memset(&c->ev, 0, sizeof c->ev);
}

void hr_diag_event_clear(hr_diag_ctx *c)
{
    c->ev.kind = HR_EV_NONE;
    c->ev.want_next = false;
}

static void set_candidate(hr_diag_ctx *c, int kind, hr_cause cause, hr_confidence conf, const char *meaning,
                          const char *text, size_t len, uint64_t line)
{
    hr_diag_event *e = &c->ev;
    /* the same line seen twice (a phrase, then the shape): the stronger reading stays */
    if (e->kind && e->line == line && e->conf >= conf)
        return;
    e->kind = kind;
    e->cause = cause;
    e->conf = conf;
    e->meaning = meaning;
    e->line = line;
    e->seq = c->seq;
    copy_text(e->text, sizeof e->text, text, len);
}

void hr_diag_event_mark(hr_diag_ctx *c, int kind, hr_cause cause, hr_confidence conf, const char *meaning,
                        const char *text, size_t len, uint64_t line, bool next)
{
    if (c->input < 0)
        return;
    set_candidate(c, kind, cause, conf, meaning, text, len, line);
    c->ev.want_next = next;
}

/* A frame of a stack trace: Python's `File "x.py", line 3, in f` (also a frame cut at its
 * start: `x.py", line 3, in f`), a native frame (`0x00007FF...`, `#3 0x...`, `frame #2:`),
 * a .NET / Java frame (`at Foo.Bar(...)`), a kernel's `[<ffffffff...>]` or ` ? func+0x`. */
static bool frame_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t r = n - i;
    const char *p = s + i;
    if (r >= 6 && memcmp(p, "File \"", 6) == 0)
        return true;
    if (r >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return true;
    if (r >= 3 && p[0] == '#' && p[1] >= '0' && p[1] <= '9')
        return true;
    if (r >= 7 && memcmp(p, "frame #", 7) == 0)
        return true;
    if (i > 0 && r >= 4 && p[0] == 'a' && p[1] == 't' && p[2] == ' ' && hr_diag_is_word((unsigned char)p[3]))
        return true;
    if (r >= 3 && p[0] == '[' && p[1] == '<')
        return true;
    /* a Python frame whose start was cut: `...loader.py", line 91, in f` */
    if (i == 0 && r >= 12) {
        const char *q = memchr(p, '"', r < 300 ? r : 300);
        if (q && (size_t)(q - p) + 8 < r && memcmp(q, "\", line ", 8) == 0)
            return true;
    }
    return false;
}

/* "ValueError: ...", "safetensors_rust.SafetensorError: ...", "    RuntimeError: ..." (a
 * traceback printed indented), "c10::Error: ...": a dotted name ending in Error, Exception,
 * Failure or Fault, then ':' or the end of the line. Returns the confidence it earns: an
 * import failing is a weak hint (ComfyUI skips a custom node that fails to import). */
static hr_confidence exception_shape(const char *s, size_t n, bool after_frames)
{
    size_t i = 0;
    while (i < n && i < 16 && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t b = i;
    while (i < n &&
           (hr_diag_is_word((unsigned char)s[i]) || s[i] == '.' || (s[i] == ':' && i + 1 < n && s[i + 1] == ':')))
        i += s[i] == ':' ? 2 : 1;
    if (i == b || (i < n && s[i] != ':'))
        return HR_CONF_NONE;
    static const char *const ends[] = { "error", "exception", "failure", "fault" };
    bool ok = false;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0] && !ok; k++) {
        size_t l = strlen(ends[k]);
        ok = i - b >= l && hr_diag_ci_find(s + i - l, l, ends[k], false);
    }
    if (!ok)
        return HR_CONF_NONE;
    if (hr_diag_ci_find(s + b, i - b, "modulenotfounderror", false) ||
        hr_diag_ci_find(s + b, i - b, "importerror", false))
        return HR_CONF_LOW;
    return after_frames ? HR_CONF_MEDIUM : HR_CONF_LOW;
}

void hr_diag_event_line(hr_diag_ctx *c, const char *text, size_t len, uint64_t line, bool understood)
{
    hr_diag_event *e = &c->ev;
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    if (i == len)
        return; /* a blank line changes nothing */
    bool frame = frame_line(text, len);
    if (understood) {
        /* a phrase explained the failure: no end of its own (a limit a notice marked stays:
         * only evidence or the run going on ends it) */
        if (e->kind && e->kind != HR_EV_LIMIT)
            e->kind = HR_EV_NONE;
        e->want_next = false;
        e->frame_tail = false;
        e->in_stack = false;
        e->prev_shaped = false;
        return;
    }
    if (frame) {
        if (!e->in_stack) {
            e->in_stack = true;
            e->stack_line = line;
            e->stack_seq = c->seq;
            copy_text(e->stack_text, sizeof e->stack_text, text, len);
        }
        e->frame_tail = true;
        e->prev_shaped = true;
        return;
    }
    e->frame_tail = false;
    e->in_stack = false;
    if (e->want_next && line > e->line) {
        /* "### Reason ###" and the like: the line under the header says what failed */
        e->want_next = false;
        e->line = line;
        e->seq = c->seq;
        copy_text(e->text, sizeof e->text, text, len);
    } else {
        hr_confidence conf = exception_shape(text, len, e->prev_shaped);
        if (conf != HR_CONF_NONE)
            set_candidate(c, HR_EV_EXCEPTION, HR_CAUSE_NOT_MEMORY, conf, m_last_exception, text, len, line);
    }
    e->prev_shaped = i > 0;
}

void hr_diag_event_end(hr_diag_ctx *c)
{
    hr_diag_event *e = &c->ev;
    bool memory = hr_diag_memory_seen(c);
    if (e->kind && !memory) {
        hr_cause cause = e->cause;
        hr_confidence conf = e->conf;
        const char *meaning = e->meaning;
        size_t n = strlen(e->text);
        if (e->kind == HR_EV_ERROR_LINE &&
            (hr_diag_ci_find(e->text, n, "killed", false) || hr_diag_ci_find(e->text, n, "sigkill", false))) {
            cause = HR_CAUSE_KILLED;
            conf = HR_CONF_MEDIUM;
            meaning = m_last_kill;
        } else if (!meaning) {
            meaning = e->kind == HR_EV_EXCEPTION ? m_last_exception : m_last_error;
        }
        e->kind = HR_EV_NONE;
        hr_diag_line_evidence(c, cause, conf, meaning, e->line, e->seq, e->text, n);
    } else if (e->frame_tail && !memory) {
        /* a stack that ends the log, under no header a phrase knew: a crash, nothing says
         * which; a weak hint */
        hr_diag_line_evidence(c, HR_CAUSE_NOT_MEMORY, HR_CONF_LOW, m_stack_end, e->stack_line, e->stack_seq,
                              e->stack_text, strlen(e->stack_text));
    }
    hr_diag_event_begin(c);
}

/* ---- what a GPU out-of-memory message says about its own request ------------------------ */

/* A size at s[i]: "4.00 GiB", "512 MiB", "0 bytes", "41943040000 bytes"; bytes, or -1. */
static double size_at(const char *s, size_t n, size_t i, size_t *end)
{
    double v = 0, scale = 0;
    size_t j = i, digits = 0;
    while (j < n && ((s[j] >= '0' && s[j] <= '9') || (s[j] == '.' && scale == 0))) {
        if (s[j] == '.') {
            scale = 1;
        } else {
            v = v * 10 + (s[j] - '0');
            if (scale > 0)
                scale *= 10;
            digits++;
        }
        j++;
    }
    if (digits == 0)
        return -1;
    if (scale > 0)
        v /= scale;
    while (j < n && s[j] == ' ')
        j++;
    static const struct {
        const char *unit;
        double mult;
    } units[] = { { "bytes", 1 },          { "tib", 1099511627776.0 },
                  { "gib", 1073741824.0 }, { "mib", 1048576.0 },
                  { "kib", 1024.0 },       { "tb", 1e12 },
                  { "gb", 1e9 },           { "mb", 1e6 },
                  { "kb", 1e3 },           { "b", 1 } };
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
        size_t l = strlen(units[k].unit);
        if (j + l <= n && hr_diag_ci_find(s + j, l, units[k].unit, false) &&
            (j + l == n || !hr_diag_is_word((unsigned char)s[j + l]))) {
            *end = j + l;
            return v * units[k].mult;
        }
    }
    return -1;
}

bool hr_diag_has_size(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9' && (i == 0 || !hr_diag_is_word((unsigned char)s[i - 1]))) {
            size_t end;
            if (size_at(s, n, i, &end) >= 0)
                return true;
            while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
                i++;
        }
    }
    return false;
}

/* The words right after a size: is that size the free memory, or what the program holds? */
static bool followed_by(const char *s, size_t n, size_t end, const char *what)
{
    while (end < n && s[end] == ' ')
        end++;
    size_t k = strlen(what);
    return end + k <= n && hr_diag_ci_find(s + end, k, what, false);
}

bool hr_diag_gpu_room(const char *s, size_t n)
{
    /* PyTorch 1.x: "Tried to allocate 12.50 MiB (GPU 0; 10.92 GiB total capacity; 8.57 MiB
     * already allocated; 9.28 GiB free; ...)"; 2.x: "Tried to allocate 4.00 GiB. GPU 0 has
     * a total capacity of 23.99 GiB of which 15.11 GiB is free. ... Of the allocated memory
     * 0 bytes is allocated by PyTorch" */
    double want = -1, free_b = -1, held = -1;
    for (size_t i = 0; i + 17 < n && want < 0; i++)
        if (hr_diag_lower((unsigned char)s[i]) == 't' && hr_diag_ci_find(s + i, 17, "tried to allocate", false)) {
            size_t j = i + 17, end;
            while (j < n && s[j] == ' ')
                j++;
            want = size_at(s, n, j, &end);
        }
    if (want <= 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || (i > 0 && (hr_diag_is_word((unsigned char)s[i - 1]) || s[i - 1] == '.')))
            continue;
        size_t end;
        double v = size_at(s, n, i, &end);
        if (v >= 0) {
            if (free_b < 0 && (followed_by(s, n, end, "free") || followed_by(s, n, end, "is free")))
                free_b = v;
            else if (held < 0 &&
                     (followed_by(s, n, end, "is allocated by pytorch") || followed_by(s, n, end, "already allocated")))
                held = v;
            i = end - 1;
        }
    }
    /* The program held no more than this one request, and the device had room for it: not
     * VRAM filled up by the run, but a limit on one allocation (a first big tensor on an
     * empty device) or an allocator bug (a small buffer failing with gigabytes free). When
     * the program holds gigabytes, "free" is a moment after the cache was emptied, and the
     * failure is the usual one (fragmentation, the run's own tensors). */
    return free_b >= 0 && held >= 0 && held <= want && free_b >= want;
}

/* ---- a graphics driver's module, by its name ----------------------------------------------- */

bool hr_diag_driver_module(const char *name, size_t n)
{
    /* The vendors name their user-mode driver modules by family, then API, then bitness
     * (nvwgf2umx, nvoglv64, atidxx64, atio6axx, amdxc64, igd12umd64, ig9icd64 ...): the
     * family stem is the stable part, the rest changes with every API and release. Stems
     * that other software shares (NVIDIA's "nv" alone: the NVDA screen reader; CUDA's
     * toolkit libraries, which are no driver) are not families. */
    static const char
        *const stems[] = { "nvwgf2", "nvd3dum",   "nvoglv", "nvldumd", "nvgpucomp", "nvcuda", "nvumdshim",
                           "nvapi",  "nvoglshim", /* NVIDIA: D3D10-12, D3D9, OpenGL, loader,
                                                    shader compiler, CUDA driver, shim, API */
                           "atidxx", "atiumd",    "atio6",  "atig6",   "aticfx",    "atiglp", "atiadl",
                           "atiuxp", "amdxc",     "amdxx",  "amdvlk",  "amdihk",    "amdocl", "amdenc", /* AMD / ATI */
                           "igdumd", "igd10",     "igd11",  "igd12",   "igdrcl",    "igdgmm", "igdusc",
                           "igdail", "igdml",     "igc",    "igvk",    "igxel" }; /* Intel */
    if (n < 3 || n > 40)
        return false;
    for (size_t k = 0; k < sizeof stems / sizeof stems[0]; k++) {
        size_t l = strlen(stems[k]);
        if (n >= l && hr_diag_ci_find(name, l, stems[k], false))
            return true;
    }
    /* Intel's older OpenGL / D3D modules: "ig" and the generation's digit (ig4icd64,
     * ig4dev32, ig7icd64, ig75icd64, ig9icd64) */
    return n >= 5 && hr_diag_lower((unsigned char)name[0]) == 'i' && hr_diag_lower((unsigned char)name[1]) == 'g' &&
           name[2] >= '0' && name[2] <= '9';
}

bool hr_diag_module_in_crash_report(const char *s, size_t n, size_t dll_end)
{
    /* a frame: the address follows the module's name */
    size_t i = dll_end;
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && (s[i] == '!' || s[i] == '+' ||
                  (s[i] == '(' && i + 2 < n && s[i + 1] == '0' && hr_diag_lower((unsigned char)s[i + 2]) == 'x')))
        return true;
    /* a field: the report's word for the module on the same line (ASCII folded; Cyrillic
     * written in both cases) */
    static const char *const field[] = { "modul", "sig[", "módulo", "модул", "Модул", "モジュール", "模块", "模組" };
    for (size_t k = 0; k < sizeof field / sizeof field[0]; k++)
        if (hr_diag_ci_find(s, n, field[k], false))
            return true;
    return false;
}

/* ---- a program blaming the page file ------------------------------------------------------ */

/* Two of the words need their context: "below" blames only below a requirement ("below
 * recommended", not "usage below 10 %"), "increase" only as advice ("increase it",
 * "consider increasing"), not as a report ("increased", "an increase of 0.2 GB"). */
static bool shortage_in_context(const char *s, size_t n, size_t at, const char *w)
{
    size_t e = at + strlen(w);
    if (strcmp(w, "below") == 0) {
        size_t end = e + 24 < n ? e + 24 : n;
        static const char *const need[] = { "recommend", "requir", "minimum", "need" };
        for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
            if (hr_diag_ci_find(s + e, end - e, need[k], false))
                return true;
        return false;
    }
    if (strcmp(w, "increase") == 0) {
        if (e < n && (hr_diag_lower((unsigned char)s[e]) == 'd' || hr_diag_lower((unsigned char)s[e]) == 's'))
            return false;
        while (e < n && s[e] == ' ')
            e++;
        return !(e + 2 <= n && (hr_diag_ci_find(s + e, 2, "of", false) || hr_diag_ci_find(s + e, 2, "in", false)) &&
                 (e + 2 == n || !hr_diag_is_word((unsigned char)s[e + 2])));
    }
    return true;
}

bool hr_diag_pagefile_blame(const char *s, size_t n)
{
    /* the words of shortage, of a fix that enlarges it, of it being off; ASCII ones at the
     * start of a word ("below", not "elbow") */
    static const char *const ascii[] = { "too small",     "too low",     "below",    "undersized", "insufficient",
                                         "not enough",    "increase",    "enlarge",  "disabled",   "is off",
                                         "zu klein",      "zu gering",   "erhöh",    "vergrößer",  "deaktiviert",
                                         "trop petit",    "insuffisant", "augmente", "demasiado",  "aumentar",
                                         "troppo piccol", "aumentare" };
    static const char *const other[] = { "слишком мал", "увеличь",    "недостаточ", "过小", "太小",
                                         "不足",        "增加",       "增大",       "调大", "扩充",
                                         "小さすぎ",    "足りません", "増や" };
    for (size_t k = 0; k < sizeof ascii / sizeof ascii[0]; k++) {
        size_t l = strlen(ascii[k]);
        for (size_t i = 0; i + l <= n; i++)
            if ((i == 0 || !hr_diag_is_word((unsigned char)s[i - 1])) && hr_diag_ci_find(s + i, l, ascii[k], false) &&
                shortage_in_context(s, n, i, ascii[k]))
                return true;
    }
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
        if (hr_diag_ci_find(s, n, other[k], false))
            return true;
    return false;
}

/* A Python exception's final line: "ValueError: ...", "safetensors_rust.SafetensorError: ...",
 * "torch.OutOfMemoryError" — a dotted name ending in Error / Exception / Exit / Warning at the
 * start of the line, then ':' or the end. Returns the confidence it gets, NONE if it is not
 * one. KeyboardInterrupt and SystemExit are the user's stop, not a failure. */
hr_confidence hr_diag_exception_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (hr_diag_is_word((unsigned char)s[i]) || s[i] == '.'))
        i++;
    if (i == 0 || (i < n && s[i] != ':'))
        return HR_CONF_NONE;
    static const char *const ends[] = { "error", "exception", "failure", "panicexception" };
    bool ok = false;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0] && !ok; k++) {
        size_t l = strlen(ends[k]);
        ok = i >= l && hr_diag_ci_find(s + i - l, l, ends[k], false);
    }
    if (!ok)
        return HR_CONF_NONE;
    /* an import failing at start-up is often a custom node ComfyUI skips: a weak hint */
    if (hr_diag_ci_find(s, i, "modulenotfounderror", false) || hr_diag_ci_find(s, i, "importerror", false))
        return HR_CONF_LOW;
    return HR_CONF_MEDIUM;
}
