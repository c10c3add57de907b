/* headroom — the machine a ComfyUI log describes: see diag_machine.h. */
#include "core/diagnose/diag_machine.h"

#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

void hr_diag_log_machine_init(hr_diag_log_machine *m)
{
    memset(m, 0, sizeof *m);
    m->input = -1;
}

static bool starts(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s, lit, k) == 0;
}

static bool digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Where the message starts after a log file's time prefix: ComfyUI's "[2025-03-14
 * 20:41:07.118] " or the Manager's "2025-05-12T01:43:58.893107 - ". */
static size_t message_start(const char *s, size_t n)
{
    if (n > 0 && s[0] == '[') {
        for (size_t i = 1; i < n && i < 40; i++)
            if (s[i] == ']')
                return i + 1 < n && s[i + 1] == ' ' ? i + 2 : 0;
        return 0;
    }
    if (n > 0 && digit(s[0]))
        for (size_t i = 1; i + 3 <= n && i < 40; i++)
            if (memcmp(s + i, " - ", 3) == 0)
                return i + 3;
    return 0;
}

/* A count of MiB at *i (at most 9 digits), advanced past it; 0 when none. */
static uint64_t mib_at(const char *s, size_t n, size_t *i)
{
    uint64_t v = 0;
    size_t k = 0;
    while (*i < n && digit(s[*i]) && k < 9) {
        v = v * 10 + (uint64_t)(s[*i] - '0');
        (*i)++, k++;
    }
    if (*i < n && digit(s[*i]))
        return 0; /* more digits than any machine has MiB */
    return v << 20;
}

/* Printable ASCII from s into out, up to a stop string (or the end), trimmed; "" when any
 * byte is not printable: a name in the log is taken whole or not at all. */
static void copy_printable(char *out, size_t cap, const char *s, size_t n, const char *stop)
{
    size_t end = n;
    if (stop) {
        size_t k = strlen(stop);
        for (size_t i = 0; i + k <= n; i++)
            if (memcmp(s + i, stop, k) == 0) {
                end = i;
                break;
            }
    }
    while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\r'))
        end--;
    if (end == 0 || end >= cap)
        return;
    for (size_t i = 0; i < end; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return;
    memcpy(out, s, end);
    out[end] = '\0';
}

/* A token of the bytes in allowed (a version, a state), whole or not at all. */
static void copy_token(char *out, size_t cap, const char *s, size_t n, const char *allowed)
{
    size_t k = 0;
    while (k < n && s[k] && strchr(allowed, s[k]))
        k++;
    if (k == 0 || k >= cap || (k < n && s[k] != ' ' && s[k] != '\r'))
        return;
    memcpy(out, s, k);
    out[k] = '\0';
}

static void released_on(hr_diag_log_machine *m, const char *s, size_t n)
{
    static const char lit[] = "Released on '";
    const size_t k = sizeof lit - 1;
    for (size_t i = 0; i + k + 11 <= n; i++) {
        if (memcmp(s + i, lit, k) != 0)
            continue;
        const char *d = s + i + k;
        if (digit(d[0]) && digit(d[1]) && digit(d[2]) && digit(d[3]) && d[4] == '-' && digit(d[5]) && digit(d[6]) &&
            d[7] == '-' && digit(d[8]) && digit(d[9]) && d[10] == '\'') {
            memcpy(m->comfyui_date, d, 10);
            m->comfyui_date[10] = '\0';
        }
        return;
    }
}

void hr_diag_log_machine_line(hr_diag_log_machine *m, int input, uint64_t line, const char *s, size_t n)
{
    if (n < 12 || n > 400)
        return;
    const size_t at = message_start(s, n);
    s += at, n -= at;
    if (starts(s, n, "Total VRAM ")) {
        size_t i = 11;
        uint64_t vram = mib_at(s, n, &i);
        if (!vram || !starts(s + i, n - i, " MB, total RAM "))
            return;
        i += 15;
        uint64_t ram = mib_at(s, n, &i);
        if (!ram || !starts(s + i, n - i, " MB"))
            return;
        m->vram_bytes = vram;
        m->ram_bytes = ram;
        m->input = input;
        m->line = line;
    } else if (starts(s, n, "pytorch version: ")) {
        m->pytorch[0] = '\0';
        copy_token(m->pytorch, sizeof m->pytorch, s + 17, n - 17,
                   "0123456789.+abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-");
    } else if (starts(s, n, "Set vram state to: ")) {
        m->vram_state[0] = '\0';
        copy_token(m->vram_state, sizeof m->vram_state, s + 19, n - 19, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
    } else if (starts(s, n, "Device: ")) {
        m->device[0] = '\0';
        copy_printable(m->device, sizeof m->device, s + 8, n - 8, " : ");
    } else if (starts(s, n, "ComfyUI version: ")) {
        char v[sizeof m->comfyui_version] = "";
        copy_token(v, sizeof v, s + 17, n - 17, "0123456789.");
        int a, b, c, used = 0;
        if (v[0] && sscanf(v, "%d.%d.%d%n", &a, &b, &c, &used) == 3 && v[used] == '\0')
            hr_strlcpy(m->comfyui_version, v, sizeof m->comfyui_version);
    } else if ((starts(s, n, "### ComfyUI Revision: ") || starts(s, n, "** ComfyUI Revision: "))) {
        released_on(m, s, n);
    }
}

bool hr_diag_log_machine_known(const hr_diag_log_machine *m)
{
    return m->ram_bytes || m->vram_bytes || m->pytorch[0] || m->vram_state[0] || m->device[0] ||
           m->comfyui_version[0] || m->comfyui_date[0];
}

const char *hr_diag_log_machine_vendor(const hr_diag_log_machine *m)
{
    if (hr_str_icontains(m->device, "nvidia"))
        return "nvidia";
    if (hr_str_icontains(m->device, "amd") || hr_str_icontains(m->device, "radeon"))
        return "amd";
    if (hr_str_icontains(m->device, "intel") || starts(m->device, strlen(m->device), "xpu"))
        return "intel";
    return NULL;
}

void hr_diag_log_machine_flags(const hr_diag_log_machine *m, const char *os_id, char *out, size_t cap)
{
    if (!cap)
        return;
    out[0] = '\0';
    size_t len = 0;
#define ADD(...)                                                                                                       \
    do {                                                                                                               \
        int w_ = snprintf(out + len, cap - len, __VA_ARGS__);                                                          \
        if (w_ < 0 || (size_t)w_ >= cap - len) {                                                                       \
            out[0] = '\0';                                                                                             \
            return;                                                                                                    \
        }                                                                                                              \
        len += (size_t)w_;                                                                                             \
    } while (0)
    if (os_id)
        ADD("%s--os %s", len ? " " : "", os_id);
    if (m->ram_bytes)
        ADD("%s--ram %lluM", len ? " " : "", (unsigned long long)(m->ram_bytes >> 20));
    if (m->vram_bytes)
        ADD("%s--vram %lluM", len ? " " : "", (unsigned long long)(m->vram_bytes >> 20));
    const char *vendor = hr_diag_log_machine_vendor(m);
    if (vendor)
        ADD("%s--gpu %s", len ? " " : "", vendor);
    if (m->comfyui_version[0]) {
        ADD("%s--comfyui-version %s", len ? " " : "", m->comfyui_version);
        /* a date is taken only with the version it refines (estimate refuses it alone) */
        if (m->comfyui_date[0])
            ADD(" --comfyui-date %s", m->comfyui_date);
    }
#undef ADD
}
