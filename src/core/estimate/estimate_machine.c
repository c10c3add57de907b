/* headroom — estimate: the machine a workflow is simulated on — a snapshot's or a what-if's
 * RAM, VRAM, GPU, commit limit and ComfyUI version — and the VRAM ComfyUI keeps free on it. */
#include "core/estimate/estimate_internal.h"
#include "core/model/procs.h"
#include "core/model/run_need.h"

#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/utc.h"

#include <stdio.h>
#include <string.h>

int hr_est_version_num(const hr_est_machine *m)
{
    if (!m->version_known)
        return 2700; /* the newest read (0.27.0) */
    return m->version[0] * 10000 + m->version[1] * 100 + m->version[2];
}

/* n digits at s into *v; false unless all are digits. */
static bool digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *v = *v * 10 + (s[i] - '0');
    }
    return true;
}

int hr_est_commit_parse(const char *s, hr_est_commit *out)
{
    static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    memset(out, 0, sizeof *out);
    size_t n = strlen(s);
    int y, mo, d;
    if (n < 10 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' || !digits(s + 8, 2, &d))
        return -1;
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if (y < 2023 || y > 2100 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap))
        return -1; /* ComfyUI's history starts in 2023 */
    out->date = y * 10000 + mo * 100 + d;
    if (n == 10) {
        snprintf(out->text, sizeof out->text, "%04d-%02d-%02d", y, mo, d);
        return 0;
    }
    /* the time: "YYYY-MM-DD HH:MM:SS +HHMM" or "YYYY-MM-DDTHH:MM:SS+HH:MM" / "Z" */
    int h, mi, se, oh = 0, om = 0, sign = 1;
    if ((s[10] != ' ' && s[10] != 'T') || n < 19 || !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) ||
        s[16] != ':' || !digits(s + 17, 2, &se) || h > 23 || mi > 59 || se > 60)
        return -1;
    const char *z = s + 19;
    if (s[10] == ' ' && *z == ' ')
        z++;
    if (strcmp(z, "Z") == 0) {
        /* UTC */
    } else if ((z[0] == '+' || z[0] == '-') && strlen(z) == 5 && digits(z + 1, 2, &oh) && digits(z + 3, 2, &om)) {
        sign = z[0] == '-' ? -1 : 1;
    } else if ((z[0] == '+' || z[0] == '-') && strlen(z) == 6 && digits(z + 1, 2, &oh) && z[3] == ':' &&
               digits(z + 4, 2, &om)) {
        sign = z[0] == '-' ? -1 : 1;
    } else {
        return -1;
    }
    if (oh > 14 || om > 59)
        return -1;
    int offset = sign * (oh * 3600 + om * 60);
    out->timed = true;
    out->utc = hr_utc_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se - offset;
    snprintf(out->text, sizeof out->text, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", y, mo, d, h, mi, se,
             sign < 0 ? '-' : '+', oh, om);
    return 0;
}

void hr_est_machine_init(hr_est_machine *m)
{
    memset(m, 0, sizeof *m);
    m->os = HR_OS_LINUX;
    m->vendor = HR_GPU_NVIDIA;
    m->ram_bytes = 32 * HR_GIB;
    m->vram_bytes = 12 * HR_GIB;
    m->vram_other_bytes = HR_UNKNOWN;
    m->vram_python_bytes = HR_UNKNOWN;
    m->commit_limit_bytes = HR_UNKNOWN;
    m->swap_bytes = HR_UNKNOWN;
    m->others_commit_bytes = HR_UNKNOWN;
    m->fp8_compute = HR_TRI_UNKNOWN;
    m->ram_assumed = m->vram_assumed = m->vendor_assumed = true;
}

double hr_est_vram_other(const hr_est_machine *m)
{
    double card = (double)m->vram_bytes;
    if (m->vram_other_bytes != HR_UNKNOWN)
        return (double)m->vram_other_bytes < card ? (double)m->vram_other_bytes : card;
    /* WSL2 runs on the Windows host's GPU (GPU paravirtualization), whose desktop and programs
     * hold VRAM as on Windows */
    double v = m->os == HR_OS_WINDOWS || m->wsl ? 0.5 * HR_EST_GIBD : 0.1 * HR_EST_GIBD;
    return v < card ? v : card;
}

void hr_est_machine_from_snapshot(hr_est_machine *m, const hr_snapshot *s)
{
    m->os = s->platform.os;
    m->wsl = s->platform.wsl2 == HR_TRI_YES;
    if (s->ram.total_bytes != HR_UNKNOWN)
        m->ram_bytes = s->ram.total_bytes, m->ram_assumed = false;
    if (s->commit.limit_bytes != HR_UNKNOWN) {
        m->commit_limit_bytes = s->commit.limit_bytes;
        m->commit_enforced = s->commit.enforced == HR_TRI_YES || s->platform.os == HR_OS_WINDOWS;
    }
    m->others_commit_bytes = hr_run_others_now(s, s->platform.os);
    uint64_t swap = 0;
    bool swap_known = s->paging_s.ok;
    for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++)
        if (s->paging[i].kind != HR_PAGING_ZRAM && s->paging[i].size_bytes != HR_UNKNOWN)
            swap += s->paging[i].size_bytes;
    if (swap_known)
        m->swap_bytes = swap;
    const hr_gpu *best = NULL;
    for (int i = 0; i < s->gpus.count && i < HR_MAX_GPUS; i++) {
        const hr_gpu *g = &s->gpus.gpu[i];
        if (g->integrated != HR_TRI_YES && g->vram_total_bytes != HR_UNKNOWN &&
            (!best || g->vram_total_bytes > best->vram_total_bytes))
            best = g;
    }
    if (best) {
        m->vram_bytes = best->vram_total_bytes;
        hr_strlcpy(m->gpu_name, best->name, sizeof m->gpu_name);
        unsigned maj = 0, min = 0;
        if (best->driver[0] && sscanf(best->driver, "%u.%u", &maj, &min) >= 1 && maj < 100000 && min < 100)
            m->nvidia_driver = (int)(maj * 100 + min);
        m->vram_assumed = false;
        hr_est_vendor v;
        if (hr_est_vendor_parse(best->vendor, &v))
            m->vendor = v, m->vendor_assumed = false;
        /* What the card holds now is other programs' (the desktop, a browser, a game) when no
         * ComfyUI runs. A python process may be ComfyUI, whose models are the run itself: what
         * the python processes hold is taken out when the driver gives it per process (NVML,
         * DRM fdinfo, Windows' GPU counters), else the default stands. */
        bool used =
            best->vram_used_bytes != HR_UNKNOWN && best->vram_used_bytes <= best->vram_total_bytes && s->procs.s.ok;
        if (used && !hr_procs_has_kind(&s->procs, "python")) {
            m->vram_other_bytes = best->vram_used_bytes, m->vram_other_read = true;
        } else if (used && best->python_vram_bytes != HR_UNKNOWN && best->python_vram_bytes <= best->vram_used_bytes) {
            m->vram_other_bytes = best->vram_used_bytes - best->python_vram_bytes, m->vram_other_read = true;
            m->vram_python_bytes = best->python_vram_bytes;
        }
    } else if (s->gpus.s.ok && s->gpus.count == 0) {
        m->vram_bytes = 0;
        m->vendor = HR_GPU_NONE;
        m->vram_assumed = m->vendor_assumed = false;
    } else {
        /* Only an integrated GPU: its maker is known, what ComfyUI takes for its VRAM is not
         * (the firmware's carve-out, or the RAM the driver lets it map), so the VRAM stays
         * assumed and the screen says why. */
        for (int i = 0; i < s->gpus.count && i < HR_MAX_GPUS; i++) {
            hr_est_vendor v;
            if (s->gpus.gpu[i].integrated == HR_TRI_YES && hr_est_vendor_parse(s->gpus.gpu[i].vendor, &v)) {
                m->vendor = v, m->vendor_assumed = false, m->integrated_only = true;
                hr_strlcpy(m->gpu_name, s->gpus.gpu[i].name, sizeof m->gpu_name);
                break;
            }
        }
    }
}

double hr_est_reserve_bytes(const hr_est_machine *m, const hr_comfy_args *a)
{
    if (a && a->reserve_vram_given)
        return (double)a->reserve_vram_bytes;
    if (m->os == HR_OS_WINDOWS)
        return (m->vram_bytes > 15 * HR_GIB ? 700.0 : 600.0) * HR_EST_MIBD;
    return 400.0 * HR_EST_MIBD;
}

const char *hr_est_vendor_name(hr_est_vendor v)
{
    static const char *n[] = { "nvidia", "amd", "intel", "apple", "none" };
    return (int)v >= 0 && (size_t)v < sizeof n / sizeof n[0] ? n[v] : "none";
}

bool hr_est_vendor_parse(const char *s, hr_est_vendor *out)
{
    if (!s)
        return false;
    static const struct {
        const char *name;
        hr_est_vendor v;
    } t[] = {
        { "nvidia", HR_GPU_NVIDIA }, { "amd", HR_GPU_AMD },   { "intel", HR_GPU_INTEL },
        { "apple", HR_GPU_APPLE },   { "none", HR_GPU_NONE }, { "cpu", HR_GPU_NONE },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (hr_str_ieq(s, t[i].name)) {
            *out = t[i].v;
            return true;
        }
    return false;
}
