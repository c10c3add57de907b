/* headroom — estimate: the verdicts drawn from a run — out of VRAM, spilled to system memory,
 * the tiled fallback, heavy paging, pinned memory, the commit limit, offloading, or fits —
 * each with its fix, and the notes beside them. */
#include "core/estimate/estimate_verdicts.h"
#include "core/model/run_need.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static hr_est_verdict *add_verdict(hr_estimate *e, hr_est_verdict_kind k, uint64_t bytes, const char *node)
{
    if (e->verdict_count >= HR_EST_MAX_VERDICTS)
        return NULL;
    hr_est_verdict *v = &e->verdict[e->verdict_count++];
    memset(v, 0, sizeof *v);
    v->kind = k;
    v->bytes = bytes;
    hr_strlcpy(v->node_id, node ? node : "", sizeof v->node_id);
    return v;
}

void hr_est_add_note(hr_estimate *e, const char *fmt, ...)
{
    if (e->note_count >= HR_EST_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&e->notes[e->note_count++], fmt, ap);
    va_end(ap);
}

void hr_est_need(const hr_estimate *e, hr_run_need *n)
{
    const uint64_t others = e->machine.others_commit_bytes;
    hr_run_need_make(n, e->commit.low, e->commit.high, others,
                     others == HR_UNKNOWN ? HR_OTHERS_ALLOWANCE : HR_OTHERS_MEASURED);
}

/* The device: a step out of VRAM (a CUDA error, or NVIDIA's spill into system memory on
 * Windows) and a VAE step ComfyUI retries tiled. */
static void vram_verdicts(const hr_est_sim *s, hr_estimate *e)
{
    const hr_est_machine *m = s->m;
    char a[32];
    if (s->oom_need > 0) {
        const char *node_of = e->step[s->oom_op].node_id;
        hr_est_verdict *v = add_verdict(e, HR_EV_GPU_OOM, hr_est_u64(s->oom_need), node_of);
        if (v) {
            hr_size_gb(hr_est_u64(s->oom_need), a, sizeof a);
            hr_msg_set(&v->text, HR_N("GPU out of memory at node %s (%s): %s more VRAM than the card has"), node_of,
                       e->step[s->oom_op].class_type, a);
            if (s->vs == HR_VS_HIGH_VRAM)
                hr_msg_set(&v->fix, HR_N("drop --highvram / --gpu-only so that ComfyUI can offload weights to RAM"));
            else
                hr_msg_set(&v->fix, HR_N("lower the batch size, resolution or length, or decode with VAEDecodeTiled"));
        }
    }
    if (s->spill_need > 0) {
        const char *node = e->step[s->spill_op].node_id;
        hr_est_verdict *v = add_verdict(e, HR_EV_SYSMEM_FALLBACK, hr_est_u64(s->spill_need), node);
        if (v) {
            hr_size_gb(hr_est_u64(s->spill_need), a, sizeof a);
            hr_msg_set(&v->text,
                       HR_N("node %s (%s) needs %s more VRAM than the card has: NVIDIA's driver spills it into shared "
                            "system memory (very slow), RAM that counts against the commit limit"),
                       node, e->step[s->spill_op].class_type, a);
            hr_msg_set(
                &v->fix,
                HR_N("lower the batch size, resolution or length; with the NVIDIA setting \"CUDA - Sysmem Fallback "
                     "Policy\" at \"Prefer No Sysmem Fallback\" the run stops with an error instead"));
        }
        if (m->nvidia_driver == 0)
            hr_est_add_note(e, HR_N("NVIDIA driver version not known: its system-memory fallback (536.40 and later, "
                                    "on by default) is assumed"));
    }
    if (s->tiled_need > 0) {
        hr_est_verdict *v =
            add_verdict(e, HR_EV_TILED_FALLBACK, hr_est_u64(s->tiled_need), e->step[s->tiled_op].node_id);
        if (v) {
            hr_size_gb(hr_est_u64(s->tiled_bytes), a, sizeof a);
            hr_msg_set(&v->text,
                       HR_N("VAE decode at node %s needs more VRAM than is free: ComfyUI retries it tiled, which needs "
                            "%s (slower)"),
                       e->step[s->tiled_op].node_id, a);
            hr_msg_set(&v->fix, HR_N("use VAEDecodeTiled (tile 512, or 256 for video)"));
        }
    }
}

/* Private RAM beyond what RAM keeps for the run (heavy paging), and pins no paging file can
 * take. */
static void ram_verdicts(const hr_est_machine *m, hr_estimate *e)
{
    char a[32], b[32];
    double ram = (double)m->ram_bytes;
    double os_reserve = (m->os == HR_OS_WINDOWS ? 2.5 : 1.5) * HR_EST_GIBD;
    double peak_ram = (double)e->ram.value;
    if (peak_ram > ram - os_reserve) {
        double page = peak_ram - (ram - os_reserve);
        hr_est_verdict *v = add_verdict(e, HR_EV_HEAVY_PAGING, hr_est_u64(page), e->ram.node_id);
        if (v) {
            hr_size_gb(hr_est_u64(page), a, sizeof a);
            hr_size_gb(e->ram.value, b, sizeof b);
            hr_msg_set(
                &v->text,
                HR_N("heavy paging: the run holds %s of private RAM at node %s, about %s more than RAM can keep"), b,
                e->ram.node_id, a);
            hr_msg_set(&v->fix,
                       HR_N("use fp8 or GGUF weights, close other programs, and keep the paging file on an SSD"));
        }
    }
    if ((double)e->pinned_peak_bytes > ram - os_reserve - 2 * HR_EST_GIBD && e->pinned_peak_bytes > 0) {
        hr_est_verdict *v = add_verdict(e, HR_EV_PINNED, e->pinned_peak_bytes, e->ram.node_id);
        if (v) {
            hr_size_gb(e->pinned_peak_bytes, a, sizeof a);
            hr_msg_set(&v->text,
                       HR_N("%s of pinned memory: pinned pages cannot be paged out, a paging file cannot rescue them"),
                       a);
            hr_msg_set(&v->fix, HR_N("start ComfyUI with --disable-pinned-memory, or add RAM"));
        }
    }
}

/* The fix of a commit limit too low: a paging file (Windows) or swap of at least size. */
static void paging_fix(hr_est_verdict *v, const hr_est_machine *m, const char *size)
{
    hr_msg_set(&v->fix,
               m->os == HR_OS_WINDOWS ? HR_N("a paging file of at least %s (headroom plan --workflow FILE)")
                                      : HR_N("swap of at least %s (headroom plan --workflow FILE)"),
               size);
}

/* The commit limit by the one rule of core/model/run_need.h, as check judges it: the limit where
 * it is enforced (Windows, Linux overcommit mode 2), else on Linux RAM + disk swap, where the
 * OOM killer acts; below the low end and the others the run dies, under what must be backed it
 * is at risk. The fix is the paging file or swap plan sizes from the same rule. Not known (a
 * what-if machine, an unread source): no FITS can be said. */
static void commit_verdicts(const hr_est_machine *m, hr_estimate *e)
{
    char a[32], b[32], c[32];
    const uint64_t ram = m->ram_bytes;
    const bool enforced = m->commit_limit_bytes != HR_UNKNOWN && m->commit_enforced;
    const bool oom_killer = !enforced && m->swap_bytes != HR_UNKNOWN && m->os != HR_OS_WINDOWS;
    hr_run_need n;
    hr_est_need(e, &n);
    /* RAM's part of the limit: what is left of it without the paging files / swap */
    uint64_t ram_part = ram;
    if (enforced && m->swap_bytes != HR_UNKNOWN && m->commit_limit_bytes > m->swap_bytes)
        ram_part = m->commit_limit_bytes - m->swap_bytes;
    hr_size_gb(hr_run_paging_bytes(&n, ram_part), c, sizeof c);
    if (!enforced && !oom_killer) {
        hr_est_verdict *v = add_verdict(e, HR_EV_COMMIT_UNKNOWN, e->commit.high, e->commit.node_id);
        if (v) {
            hr_size_gb(e->commit.high, a, sizeof a);
            hr_msg_set(&v->text,
                       HR_N("cannot tell: the commit limit is not known; the run needs a limit (RAM + paging file) "
                            "of at least %s"),
                       a);
            if (hr_run_paging_bytes(&n, ram_part) == 0)
                hr_msg_set(&v->fix, HR_N("RAM alone holds it if other programs leave room: check the machine itself "
                                         "(headroom check --workflow FILE)"));
            else
                paging_fix(v, m, c);
        }
        return;
    }
    const uint64_t cap = enforced ? m->commit_limit_bytes : hr_sat_add(ram, m->swap_bytes);
    hr_size_gb(cap, b, sizeof b);
    const hr_need_verdict rv = hr_run_judge(&n, cap);
    const bool fails = rv == HR_NEED_WILL_FAIL;
    if (!fails && rv != HR_NEED_AT_RISK)
        return;
    hr_est_verdict *v = fails ? add_verdict(e, HR_EV_COMMIT_EXCEEDED, n.fail_below - cap, e->commit.node_id)
                              : add_verdict(e, HR_EV_COMMIT_TIGHT, n.must_back - cap, e->commit.node_id);
    if (!v)
        return;
    if (fails) {
        hr_size_gb(n.fail_below, a, sizeof a);
        hr_msg_set(&v->text,
                   enforced ? HR_N("commit limit exceeded at node %s: even the low end needs %s with the other "
                                   "programs, the limit is %s: ComfyUI crashes")
                            : HR_N("RAM and swap run out at node %s: even the low end needs %s with the other "
                                   "programs, RAM + swap is %s: the OOM killer ends ComfyUI"),
                   e->commit.node_id, a, b);
    } else {
        hr_size_gb(n.must_back, a, sizeof a);
        hr_msg_set(&v->text,
                   enforced ? HR_N("the commit limit is %s, under the %s it must back (the high end, the other "
                                   "programs and a 25 %% margin): the run can crash")
                            : HR_N("RAM + swap is %s, under the %s the machine must back (the high end, the other "
                                   "programs and a 25 %% margin): the OOM killer may end the run"),
                   b, a);
    }
    paging_fix(v, m, c);
}

/* The largest partial load, and the fix that keeps more of its model in VRAM. */
static void offload_verdict(const hr_est_sim *s, hr_estimate *e)
{
    char a[32];
    double off_max = 0;
    int off_i = -1;
    for (int l = 0; l < e->load_count; l++)
        if ((double)e->load[l].offloaded_bytes > off_max) {
            off_max = (double)e->load[l].offloaded_bytes;
            off_i = l;
        }
    if (off_i >= 0 && off_max > 0) {
        hr_est_verdict *v = add_verdict(e, HR_EV_OFFLOADS, hr_est_u64(off_max), e->load[off_i].node_id);
        if (v) {
            hr_size_gb(hr_est_u64(off_max), a, sizeof a);
            hr_msg_set(&v->text, HR_N("offloads %s of %s to RAM (it works, more slowly)"), a, e->load[off_i].model);
            /* a model already at one byte a weight or less: fp8 is no fix, a smaller quant is */
            bool small = false;
            for (int k = 0; k < s->in->model_count; k++) {
                const hr_est_model *md = &s->in->model[k];
                if (strcmp(md->name, e->load[off_i].model) == 0)
                    small = md->weight_dtype == HR_WDT_FP8 || md->format == HR_FMT_GGUF || md->file_dtype_bytes == 1 ||
                            md->fp8_scaled;
            }
            hr_msg_set(
                &v->fix,
                small ? HR_N("a smaller GGUF quantisation (Q5_K, Q4_K) keeps more of the model in VRAM")
                      : HR_N("fp8 weights (weight_dtype fp8_e4m3fn) or a GGUF file keep more of the model in VRAM"));
        }
    }
}

void hr_est_verdicts(const hr_est_sim *s, hr_estimate *e)
{
    vram_verdicts(s, e);
    ram_verdicts(s->m, e);
    commit_verdicts(s->m, e);
    offload_verdict(s, e);
    /* offloading alone is no failure: the run fits */
    bool bad = false;
    for (int i = 0; i < e->verdict_count; i++)
        if (e->verdict[i].kind != HR_EV_OFFLOADS)
            bad = true;
    if (!bad) {
        hr_est_verdict *v = add_verdict(e, HR_EV_FITS, 0, "");
        if (v) {
            hr_msg_set(&v->text, HR_N("fits: the run completes within VRAM, RAM and the commit limit"));
        }
    }
}
