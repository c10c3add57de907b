/* headroom — the workflow simulation: ComfyUI's memory manager, step by step (rule X.comfymem,
 * docs/memory-model.md). hr_estimate_run() checks the input, runs the steps (estimate_steps.c)
 * three times, once at each set of the range's parameters, and once more per memory manager
 * when the version is not known, then draws the verdicts (estimate_verdicts.c). */
#include "core/estimate/estimate_steps.h"
#include "core/estimate/estimate_verdicts.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

static const hr_est_params P_MID = {
    2.5 * HR_EST_GIBD, 2.0 * HR_EST_GIBD, 0.45 * HR_EST_GIBD, 1.0, 1.0, 0.03, true, true, true
};
static const hr_est_params P_LOW = {
    1.5 * HR_EST_GIBD, 1.0 * HR_EST_GIBD, 0.30 * HR_EST_GIBD, 0.6, 0.5, 0.01, false, false, false
};
static const hr_est_params P_HIGH = {
    4.0 * HR_EST_GIBD, 4.0 * HR_EST_GIBD, 0.60 * HR_EST_GIBD, 1.25, 1.2, 0.06, true, true, true
};

/* The input's counts and references, before anything is simulated. */
static int check_input(const hr_est_input *in, hr_error *err)
{
    if (in->model_count < 0 || in->model_count > HR_EST_MAX_MODELS || in->op_count < 0 || in->op_count > HR_EST_MAX_OPS)
        return hr_error_set(err, HR_EINVAL, HR_T("estimate: %d models, %d steps: out of range"), in->model_count,
                            in->op_count);
    for (int o = 0; o < in->op_count; o++) {
        const hr_est_op *op = &in->op[o];
        if (op->model_count < 0 || op->model_count > 4)
            return hr_error_set(err, HR_EINVAL, HR_T("estimate: node %s: %d models"), op->node_id, op->model_count);
        for (int k = 0; k < op->model_count; k++)
            if (op->models[k] < 0 || op->models[k] >= in->model_count)
                return hr_error_set(err, HR_EINVAL, HR_T("estimate: node %s refers to model %d of %d"), op->node_id,
                                    op->models[k], in->model_count);
    }
    return 0;
}

/* One run of the simulator from a clean state at one set of the range's parameters; out is
 * NULL for a run of which only the peaks are kept. */
static void sim_start(hr_est_sim *s, const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a,
                      const hr_est_params *p, hr_estimate *out)
{
    memset(s, 0, sizeof *s);
    s->in = in, s->m = m, s->a = a, s->p = *p, s->out = out;
    hr_est_sim_run(s);
}

/* What the workflow is: the architecture it samples with and its frames (plan's table row). */
static void describe(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a, hr_estimate *out)
{
    uint64_t biggest = 0;
    for (int o = 0; o < in->op_count; o++) {
        const hr_est_op *op = &in->op[o];
        if (op->geom.frames > out->frames)
            out->frames = op->geom.frames;
        if (op->kind != HR_OP_SAMPLE)
            continue;
        const hr_est_model *md = op->model_count ? &in->model[op->models[0]] : NULL;
        const uint64_t size = md ? hr_est_model_bytes(md, m, a) : 0;
        const hr_est_arch arch = md && md->arch != HR_ARCH_UNKNOWN ? md->arch : op->arch;
        if (arch != HR_ARCH_UNKNOWN && (out->arch == HR_ARCH_UNKNOWN || size > biggest)) {
            out->arch = arch;
            biggest = size;
        }
    }
}

/* One tier's range: the middle run's peak and its step, and the low and high runs' peaks. */
typedef struct tier_range {
    hr_est_range *r;
    double mid, lo, hi;
    int op;
} tier_range;

/* Which ComfyUI runs is not known: the range covers every memory manager it could be
 * (X.comfymem: the regimes and the versions where they changed), so the high end is the
 * older managers' — most installs are not the newest. lo and hi are scratch runs. */
static void cover_versions(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a, hr_estimate *out,
                           tier_range *t, size_t nt, hr_est_sim *lo, hr_est_sim *hi)
{
    static const int older[][3] = { { 0, 3, 60 }, { 0, 3, 70 }, { 0, 3, 77 }, { 0, 12, 0 },
                                    { 0, 16, 0 }, { 0, 19, 0 }, { 0, 23, 0 } };
    static hr_est_machine mv;
    mv = *m;
    mv.version_known = true;
    memset(&mv.comfyui_commit, 0, sizeof mv.comfyui_commit); /* the versions' own releases */
    uint64_t top = out->commit.high;
    for (size_t v = 0; v < sizeof older / sizeof older[0]; v++) {
        memcpy(mv.version, older[v], sizeof mv.version);
        for (int k = 0; k < 2; k++) {
            hr_est_sim *sv = k ? hi : lo;
            sim_start(sv, in, &mv, a, k ? &P_HIGH : &P_LOW, NULL);
            const double got[] = { sv->peak_vram, sv->peak_ram, sv->peak_commit, sv->peak_cache };
            for (size_t q = 0; q < nt; q++) {
                t[q].r->low = t[q].r->low < hr_est_u64(got[q]) ? t[q].r->low : hr_est_u64(got[q]);
                t[q].r->high = t[q].r->high > hr_est_u64(got[q]) ? t[q].r->high : hr_est_u64(got[q]);
            }
        }
        if (out->commit.high > top) {
            top = out->commit.high;
            snprintf(out->high_version, sizeof out->high_version, "%d.%d.%d", older[v][0], older[v][1], older[v][2]);
        }
    }
    if (out->high_version[0])
        hr_est_add_note(out,
                        HR_N("ComfyUI version not known: the range covers every memory manager it could run; the "
                             "high end is %s's (give --comfyui-version)"),
                        out->high_version);
    else
        hr_est_add_note(out, HR_N("ComfyUI version not known: the range covers every memory manager it could run "
                                  "(give --comfyui-version)"));
}

int hr_estimate_run(const hr_est_input *in, const hr_est_machine *m, const hr_comfy_args *a, hr_estimate *out,
                    hr_error *err)
{
    static const hr_comfy_args none;
    if (!a)
        a = &none;
    int r = check_input(in, err);
    if (r < 0)
        return r;
    memset(out, 0, sizeof *out);
    out->machine = *m;
    describe(in, m, a, out);

    static hr_est_sim s_mid, s_lo, s_hi; /* large; the core is single-threaded */
    sim_start(&s_mid, in, m, a, &P_MID, out);
    sim_start(&s_lo, in, m, a, &P_LOW, NULL);
    sim_start(&s_hi, in, m, a, &P_HIGH, NULL);

    static const char *vs_names[] = { "DISABLED", "NO_VRAM", "LOW_VRAM", "NORMAL_VRAM", "HIGH_VRAM", "SHARED" };
    out->regime = s_mid.regime;
    out->vram_state = vs_names[s_mid.vs];
    out->reserve_vram_bytes = hr_est_u64(s_mid.reserve);
    out->pin_cap_bytes = hr_est_u64(s_mid.pin_cap);
    out->pinned_peak_bytes = hr_est_u64(s_mid.peak_pinned);
    for (int i = 0; i < in->model_count; i++)
        if (in->model[i].from_catalog)
            out->catalog_used = true;

    tier_range t[] = {
        { &out->vram, s_mid.peak_vram, s_lo.peak_vram, s_hi.peak_vram, s_mid.peak_vram_op },
        { &out->ram, s_mid.peak_ram, s_lo.peak_ram, s_hi.peak_ram, s_mid.peak_ram_op },
        { &out->commit, s_mid.peak_commit, s_lo.peak_commit, s_hi.peak_commit, s_mid.peak_commit_op },
        { &out->page_cache, s_mid.peak_cache, s_lo.peak_cache, s_hi.peak_cache, -1 },
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        t[k].r->value = hr_est_u64(t[k].mid);
        t[k].r->low = hr_est_u64(hr_est_min(t[k].mid, hr_est_min(t[k].lo, t[k].hi)));
        t[k].r->high = hr_est_u64(hr_est_max(t[k].mid, hr_est_max(t[k].lo, t[k].hi)));
        if (t[k].op >= 0 && t[k].op < out->step_count) {
            hr_strlcpy(t[k].r->node_id, out->step[t[k].op].node_id, sizeof t[k].r->node_id);
            hr_strlcpy(t[k].r->class_type, out->step[t[k].op].class_type, sizeof t[k].r->class_type);
        }
    }
    if (!m->version_known)
        cover_versions(in, m, a, out, t, sizeof t / sizeof t[0], &s_lo, &s_hi);
    if (m->version_known && hr_est_version_num(m) == HR_EST_VER(0, 3, 68) && m->vendor == HR_GPU_NVIDIA &&
        !a->fast_pinned_memory && !a->disable_pinned_memory)
        hr_est_add_note(out, HR_N("ComfyUI 0.3.68: pinned memory is on by default only in checkouts after PR #10656, "
                                  "which still say 0.3.68; the low end leaves pins out, the middle and high count "
                                  "them (--disable-pinned-memory or --fast pinned_memory settles it)"));
    if (m->version_known && m->comfyui_commit.date) {
        int v = hr_est_version_num(m);
        if (v < HR_EST_VER(0, 3, 76) || v >= HR_EST_VER(0, 4, 0))
            hr_est_add_note(out,
                            HR_N("the checkout's date changes nothing at ComfyUI %d.%d.%d: only the offload "
                                 "accounting master changed between 0.3.76 and 0.4.0 is keyed by date"),
                            m->version[0], m->version[1], m->version[2]);
        else if (s_mid.offload.ambiguous_pr)
            hr_est_add_note(out,
                            HR_N("ComfyUI PR #%d was merged on %s, so a checkout of that day may be from before "
                                 "it; the estimate takes it as after (give the commit's time: git log -1 "
                                 "--format=%%ci)"),
                            s_mid.offload.ambiguous_pr, m->comfyui_commit.text);
    }
    if (out->catalog_used)
        hr_est_add_note(out, HR_N("some model sizes are catalog values, not read from the files"));
    if (s_mid.regime == HR_REGIME_DYNAMIC)
        hr_est_add_note(
            out,
            HR_N("DynamicVRAM: weights are memory-mapped; RAM holds pinned copies, the files stay in the page cache"));
    if (m->os == HR_OS_WINDOWS)
        hr_est_add_note(
            out,
            HR_N("Windows: VRAM in use is counted against the commit limit too (WDDM); the low end leaves it out"));
    hr_est_verdicts(&s_mid, out);
    return 0;
}

int hr_estimate_severity(const hr_estimate *e)
{
    int sev = 0;
    bool unknown = false;
    for (int i = 0; i < e->verdict_count; i++) {
        switch (e->verdict[i].kind) {
        case HR_EV_GPU_OOM:
        case HR_EV_COMMIT_EXCEEDED: sev = 2; break;
        case HR_EV_HEAVY_PAGING:
        case HR_EV_PINNED:
        case HR_EV_COMMIT_TIGHT:
        case HR_EV_TILED_FALLBACK:
        case HR_EV_SYSMEM_FALLBACK:
            if (sev < 1)
                sev = 1;
            break;
        case HR_EV_COMMIT_UNKNOWN: unknown = true; break;
        default: break;
        }
    }
    return sev < 2 && unknown ? 3 : sev;
}

const char *hr_est_kind_name(hr_est_kind k)
{
    static const char *n[] = {
        "diffusion_model", "text_encoder", "vae", "clip_vision", "controlnet", "upscaler", "lora"
    };
    return (int)k >= 0 && (size_t)k < sizeof n / sizeof n[0] ? n[k] : "model";
}

const char *hr_est_regime_name(hr_est_regime r)
{
    static const char *n[] = { "legacy", "dynamic_vram", "cpu", "unified" };
    return (int)r >= 0 && (size_t)r < sizeof n / sizeof n[0] ? n[r] : "legacy";
}

const char *hr_est_verdict_name(hr_est_verdict_kind k)
{
    static const char *n[] = { "fits",    "offloads",        "tiled_fallback", "heavy_paging",   "pinned_memory",
                               "gpu_oom", "commit_exceeded", "commit_tight",   "commit_unknown", "sysmem_fallback" };
    return (int)k >= 0 && (size_t)k < sizeof n / sizeof n[0] ? n[k] : "fits";
}
