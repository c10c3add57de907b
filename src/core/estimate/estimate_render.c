/* headroom — the estimate screen and its JSON (schema headroom.estimate/1, docs/estimate.md). */
#include "core/estimate/estimate.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/utf8.h"

#include <stdio.h>
#include <string.h>

#define RED    "\033[1;31m"
#define YELLOW "\033[1;33m"
#define GREEN  "\033[1;32m"
#define RESET  "\033[0m"

const char *hr_est_msg_text(const hr_msg *m, hr_lang lang, char *out, size_t cap)
{
    hr_msg_format(m, lang, out, cap < HR_EST_TEXT_MAX ? cap : HR_EST_TEXT_MAX);
    return out;
}

const char *hr_est_step_note_text(const hr_estimate *e, int step, hr_lang lang, char *out, size_t cap)
{
    if (cap > HR_EST_TEXT_MAX)
        cap = HR_EST_TEXT_MAX;
    if (cap == 0)
        return out;
    out[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < e->step_note_count; i++) {
        if (e->step_note[i].step != step)
            continue;
        if (used + 3 >= cap) /* no room for a separator and a word */
            break;
        if (used) {
            memcpy(out + used, "; ", 3);
            used += 2;
        }
        hr_msg_format(&e->step_note[i].msg, lang, out + used, cap - used);
        used += strlen(out + used);
    }
    return out;
}

static const char *verdict_color(hr_est_verdict_kind k)
{
    switch (k) {
    case HR_EV_GPU_OOM:
    case HR_EV_COMMIT_EXCEEDED: return RED;
    case HR_EV_FITS:
    case HR_EV_OFFLOADS: return GREEN;
    default: return YELLOW;
    }
}

static const char *verdict_label(hr_est_verdict_kind k)
{
    switch (k) {
    case HR_EV_FITS: return HR_T("FITS");
    case HR_EV_OFFLOADS: return HR_T("OFFLOADS");
    case HR_EV_TILED_FALLBACK: return HR_T("TILED");
    case HR_EV_HEAVY_PAGING: return HR_T("PAGING");
    case HR_EV_PINNED: return HR_T("PINNED");
    case HR_EV_GPU_OOM: return HR_T("GPU OOM");
    case HR_EV_COMMIT_EXCEEDED: return HR_T("CRASH");
    case HR_EV_COMMIT_TIGHT: return HR_T("AT RISK");
    case HR_EV_COMMIT_UNKNOWN: return HR_T("UNKNOWN");
    case HR_EV_SYSMEM_FALLBACK: return HR_T("SPILLS");
    }
    return "";
}

static void mb(uint64_t v, char *out, size_t n)
{
    snprintf(out, n, "%.2f", (double)v / (1024.0 * 1024.0));
}

/* A bar of width w for v against max. */
static void bar(hr_buf *out, uint64_t v, uint64_t max, int w, char c)
{
    int n = max ? (int)((double)v / (double)max * w + 0.5) : 0;
    if (n > w)
        n = w;
    for (int i = 0; i < n; i++)
        hr_buf_putc(out, c);
    for (int i = n; i < w; i++)
        hr_buf_putc(out, ' ');
}

/* A cell padded to a width in terminal columns (a Chinese character takes two, and printf's
 * %-11s counts bytes). */
static void cell(hr_buf *out, const char *s, size_t width, bool right)
{
    size_t w = hr_utf8_width(s);
    if (right)
        for (size_t i = w; i < width; i++)
            hr_buf_putc(out, ' ');
    hr_buf_puts(out, s);
    if (!right)
        for (size_t i = w; i < width; i++)
            hr_buf_putc(out, ' ');
}

static void range_line(hr_buf *out, const char *label, const hr_est_range *r, bool with_node)
{
    char a[32], b[32], c[32];
    hr_size_gb(r->value, a, sizeof a);
    hr_size_gb(r->low, b, sizeof b);
    hr_size_gb(r->high, c, sizeof c);
    hr_buf_puts(out, "  ");
    cell(out, label, 11, false);
    hr_buf_printf(out, " %8s  (%s – %s)", a, b, c);
    if (with_node && r->node_id[0])
        hr_buf_printf(out, HR_T("  at node %s %s"), r->node_id, r->class_type);
    hr_buf_putc(out, '\n');
}

int hr_est_machine_basis(const hr_estimate *e, char lines[HR_EST_MAX_BASIS][HR_EST_TEXT_MAX])
{
    const hr_est_machine *m = &e->machine;
    char a[32];
    int n = 0;
    /* a default is not a fact about the machine: say which figures stand in, and the flag */
    if (m->ram_assumed) {
        hr_size_gb(m->ram_bytes, a, sizeof a);
        snprintf(lines[n++], HR_EST_TEXT_MAX, HR_T("%s of RAM is assumed (none was read): give --ram"), a);
    }
    if (m->vram_assumed) {
        hr_size_gb(m->vram_bytes, a, sizeof a);
        snprintf(lines[n++], HR_EST_TEXT_MAX,
                 m->integrated_only ? HR_T("%s of VRAM is assumed (only an integrated GPU was read, which shares RAM): "
                                           "give --vram, what ComfyUI's log says as Total VRAM")
                                    : HR_T("%s of VRAM is assumed (no GPU was read): give --vram"),
                 a);
    }
    if (m->vendor_assumed && m->vendor != HR_GPU_NONE)
        snprintf(lines[n++], HR_EST_TEXT_MAX, HR_T("the GPU's vendor (%s) is assumed: give --gpu"),
                 hr_est_vendor_name(m->vendor));
    if (m->vram_bytes > 0) {
        /* the figure used for what the desktop and other programs hold, and where it is from */
        hr_size_gb((uint64_t)hr_est_vram_other(m), a, sizeof a);
        char py[32];
        hr_size_gb(m->vram_python_bytes, py, sizeof py);
        if (m->vram_other_read && m->vram_python_bytes != HR_UNKNOWN)
            snprintf(lines[n++], HR_EST_TEXT_MAX,
                     HR_T("%s of VRAM held by other programs (read now, less the %s python (maybe ComfyUI) holds)"), a,
                     py);
        else
            snprintf(lines[n++], HR_EST_TEXT_MAX,
                     m->vram_other_bytes == HR_UNKNOWN
                         ? HR_T("%s of VRAM held by other programs is assumed: give --vram-used")
                     : m->vram_other_read ? HR_T("%s of VRAM held by other programs (read now; no ComfyUI running)")
                                          : HR_T("%s of VRAM held by other programs (--vram-used)"),
                     a);
    }
    return n;
}

static void text(const hr_estimate *e, hr_buf *out, bool color)
{
    const hr_est_machine *m = &e->machine;
    const hr_lang lang = hr_lang_get(); /* the user's */
    char a[32], b[32], c[32], d[32], say[HR_EST_TEXT_MAX], fix[HR_EST_TEXT_MAX];
    hr_size_gb(m->ram_bytes, a, sizeof a);
    hr_size_gb(m->vram_bytes, b, sizeof b);
    hr_buf_printf(out, HR_T("headroom estimate — %s\n\n"), e->workflow[0] ? e->workflow : "workflow");
    hr_buf_printf(out, HR_T("  machine   %s RAM, %s VRAM (%s), %s%s\n"), a, b, hr_est_vendor_name(m->vendor),
                  m->macos                 ? "macOS"
                  : m->os == HR_OS_WINDOWS ? "Windows"
                                           : "Linux",
                  m->wsl ? " (WSL)" : "");
    char basis[HR_EST_MAX_BASIS][HR_EST_TEXT_MAX];
    int nb = hr_est_machine_basis(e, basis);
    for (int i = 0; i < nb; i++)
        hr_buf_printf(out, "            %s\n", basis[i]);
    if (m->version_known && m->comfyui_commit.date) {
        hr_buf_printf(out, HR_T("  ComfyUI   %d.%d.%d (a checkout of %s), %s regime, %s\n"), m->version[0],
                      m->version[1], m->version[2], m->comfyui_commit.text, hr_est_regime_name(e->regime),
                      e->vram_state);
    } else if (m->version_known)
        hr_buf_printf(out, HR_T("  ComfyUI   %d.%d.%d, %s regime, %s\n"), m->version[0], m->version[1], m->version[2],
                      hr_est_regime_name(e->regime), e->vram_state);
    else
        hr_buf_printf(out, HR_T("  ComfyUI   newest assumed, %s regime, %s\n"), hr_est_regime_name(e->regime),
                      e->vram_state);
    hr_size_gb(e->reserve_vram_bytes, a, sizeof a);
    hr_size_gb(e->pin_cap_bytes, b, sizeof b);
    hr_buf_printf(out, HR_T("  reserve   %s of VRAM; pinned memory cap %s\n\n"), a, e->pin_cap_bytes ? b : "-");

    hr_buf_puts(out, "  ");
    cell(out, HR_T("node"), 6, false);
    hr_buf_putc(out, ' ');
    cell(out, HR_T("type"), 26, false);
    hr_buf_putc(out, ' ');
    cell(out, HR_T("VRAM"), 9, true);
    hr_buf_putc(out, ' ');
    cell(out, HR_T("RAM"), 9, true);
    hr_buf_putc(out, ' ');
    cell(out, HR_T("commit"), 9, true);
    hr_buf_printf(out, "  %s\n", HR_T("note"));
    for (int i = 0; i < e->step_count; i++) {
        const hr_est_step *s = &e->step[i];
        if (s->kind == HR_OP_LORA) /* the loader's row above already shows it */
            continue;
        hr_size_gb(s->vram_bytes, a, sizeof a);
        hr_size_gb(s->ram_bytes, b, sizeof b);
        hr_size_gb(s->commit_bytes, c, sizeof c);
        hr_buf_printf(out, "  %-6s %-26.26s %9s %9s %9s  %s\n", s->node_id, s->class_type, a, b, c,
                      hr_est_step_note_text(e, i, lang, say, sizeof say));
    }
    hr_buf_printf(out, "\n%s\n", HR_T("Peaks (estimate, low – high)"));
    range_line(out, HR_T("VRAM"), &e->vram, true);
    range_line(out, HR_T("RAM"), &e->ram, true);
    range_line(out, HR_T("commit"), &e->commit, true);
    range_line(out, HR_T("page cache"), &e->page_cache, false);
    if (e->pinned_peak_bytes) {
        hr_size_gb(e->pinned_peak_bytes, a, sizeof a);
        hr_buf_puts(out, "  ");
        cell(out, HR_T("pinned"), 11, false);
        hr_buf_printf(out, HR_T(" %8s  (cannot be paged out)\n"), a);
    }

    if (e->load_count) {
        hr_buf_printf(out, "\n%s\n", HR_T("Model loads (as ComfyUI logs them)"));
        for (int i = 0; i < e->load_count; i++) {
            const hr_est_load *l = &e->load[i];
            mb(l->usable_vram_bytes, a, sizeof a);
            mb(l->loaded_bytes, b, sizeof b);
            mb(l->offloaded_bytes, c, sizeof c);
            mb(l->buffer_bytes, d, sizeof d);
            if (l->dynamic)
                hr_buf_printf(
                    out,
                    "  %-6s %s: prepared for dynamic VRAM loading. %.0fMB Staged; %s MB in VRAM, %s MB offloaded\n",
                    l->node_id, l->model, (double)l->staged_bytes / (1024.0 * 1024.0), b, c);
            else if (l->partial)
                hr_buf_printf(
                    out,
                    "  %-6s %s: loaded partially; %s MB usable, %s MB loaded, %s MB offloaded, %s MB buffer reserved\n",
                    l->node_id, l->model, a, b, c, d);
            else
                hr_buf_printf(out, "  %-6s %s: loaded completely; %s MB usable, %s MB loaded\n", l->node_id, l->model,
                              a, b);
        }
    }

    /* time line: VRAM (#) and RAM (=) per step against the machine */
    uint64_t vmax = m->vram_bytes, rmax = m->ram_bytes;
    for (int i = 0; i < e->step_count; i++) {
        if (e->step[i].vram_bytes > vmax)
            vmax = e->step[i].vram_bytes;
        if (e->step[i].ram_bytes > rmax)
            rmax = e->step[i].ram_bytes;
    }
    hr_size_gb(vmax, a, sizeof a);
    hr_size_gb(rmax, b, sizeof b);
    /* nodes that move no memory (guidance, an empty latent, saving) are left out of the bars */
    hr_buf_printf(out, HR_T("\nTime line, the steps that move memory (VRAM # of %s, RAM = of %s)\n"), a, b);
    for (int i = 0; i < e->step_count; i++) {
        const hr_est_step *s = &e->step[i];
        if (s->kind == HR_OP_OTHER)
            continue;
        hr_buf_printf(out, "  %-6s |", s->node_id);
        bar(out, s->vram_bytes, vmax, 24, '#');
        hr_buf_puts(out, "| |");
        bar(out, s->ram_bytes, rmax, 24, '=');
        hr_buf_puts(out, "|\n");
    }

    hr_buf_printf(out, "\n%s\n", HR_T("Verdict"));
    for (int i = 0; i < e->verdict_count; i++) {
        const hr_est_verdict *v = &e->verdict[i];
        hr_est_msg_text(&v->text, lang, say, sizeof say);
        if (color)
            hr_buf_printf(out, "  %s%-9s%s %s\n", verdict_color(v->kind), verdict_label(v->kind), RESET, say);
        else
            hr_buf_printf(out, "  %-9s %s\n", verdict_label(v->kind), say);
        if (hr_est_msg_text(&v->fix, lang, fix, sizeof fix)[0])
            hr_buf_printf(out, HR_T("            fix: %s\n"), fix);
    }
    if (e->note_count) {
        hr_buf_putc(out, '\n');
        for (int i = 0; i < e->note_count; i++)
            hr_buf_printf(out, HR_T("  note: %s\n"), hr_est_msg_text(&e->notes[i], lang, say, sizeof say));
    }
    hr_buf_printf(
        out, "\n%s\n",
        HR_T(
            "Rule X.comfymem (docs/memory-model.md): an estimate of ComfyUI's own memory manager, not a measurement."));
}

static void json_range(hr_json_writer *w, const char *key, const hr_est_range *r)
{
    hr_json_begin_object(w, key);
    hr_json_u64(w, "bytes", r->value);
    hr_json_u64(w, "low", r->low);
    hr_json_u64(w, "high", r->high);
    if (r->node_id[0]) {
        hr_json_str(w, "node", r->node_id);
        hr_json_str(w, "class_type", r->class_type);
    }
    hr_json_end_object(w);
}

/* JSON is English whatever language the user reads: its text is said in HR_LANG_EN. */
static void json(const hr_estimate *e, hr_json_writer *w)
{
    const hr_est_machine *m = &e->machine;
    char say[HR_EST_TEXT_MAX];
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", "headroom.estimate/1");
    hr_json_str(w, "workflow", e->workflow);
    hr_json_str(w, "regime", hr_est_regime_name(e->regime));
    hr_json_str(w, "vram_state", e->vram_state);
    hr_json_bool(w, "catalog_used", e->catalog_used);
    hr_json_begin_object(w, "machine");
    hr_json_str(w, "os", m->macos ? "macos" : m->os == HR_OS_WINDOWS ? "windows" : "linux");
    hr_json_bool(w, "wsl", m->wsl);
    hr_json_str(w, "gpu", hr_est_vendor_name(m->vendor));
    hr_json_bool(w, "ram_assumed", m->ram_assumed);
    hr_json_bool(w, "vram_assumed", m->vram_assumed);
    hr_json_bool(w, "gpu_assumed", m->vendor_assumed);
    hr_json_u64(w, "ram_bytes", m->ram_bytes);
    hr_json_u64(w, "vram_bytes", m->vram_bytes);
    hr_json_size(w, "commit_limit_bytes", m->commit_limit_bytes);
    hr_json_u64(w, "vram_other_bytes", (uint64_t)hr_est_vram_other(m));
    hr_json_bool(w, "vram_other_assumed", m->vram_other_bytes == HR_UNKNOWN);
    hr_json_size(w, "vram_python_bytes", m->vram_python_bytes);
    hr_json_str(w, "vram_other_basis",
                m->vram_other_bytes == HR_UNKNOWN ? "assumed"
                : m->vram_other_read              ? "read"
                                                  : "given");
    if (m->version_known) {
        char v[32];
        snprintf(v, sizeof v, "%d.%d.%d", m->version[0], m->version[1], m->version[2]);
        hr_json_str(w, "comfyui_version", v);
    } else {
        hr_json_null(w, "comfyui_version");
    }
    if (m->version_known && m->comfyui_commit.date) {
        hr_json_str(w, "comfyui_date", m->comfyui_commit.text);
    } else {
        hr_json_null(w, "comfyui_date");
    }
    hr_json_u64(w, "reserve_vram_bytes", e->reserve_vram_bytes);
    hr_json_u64(w, "pinned_cap_bytes", e->pin_cap_bytes);
    hr_json_end_object(w);

    hr_json_begin_object(w, "peak");
    hr_json_u64(w, "vram_bytes", e->vram.value);
    hr_json_u64(w, "ram_bytes", e->ram.value);
    hr_json_u64(w, "commit_bytes", e->commit.value);
    hr_json_u64(w, "page_cache_bytes", e->page_cache.value);
    hr_json_u64(w, "pinned_bytes", e->pinned_peak_bytes);
    json_range(w, "vram", &e->vram);
    json_range(w, "ram", &e->ram);
    json_range(w, "commit", &e->commit);
    json_range(w, "page_cache", &e->page_cache);
    hr_json_end_object(w);

    /* The one sizing rule's parts, as plan's "need": a crash of the whole machine is held
     * against the run's commit plus what other programs commit (docs/accuracy.md). */
    hr_run_need n;
    hr_est_need(e, &n);
    hr_json_begin_object(w, "need");
    hr_run_need_json_members(&n, w);
    hr_json_end_object(w);

    hr_json_begin_array(w, "steps");
    for (int i = 0; i < e->step_count; i++) {
        const hr_est_step *s = &e->step[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "node", s->node_id);
        hr_json_str(w, "class_type", s->class_type);
        hr_json_u64(w, "vram_bytes", s->vram_bytes);
        hr_json_u64(w, "ram_bytes", s->ram_bytes);
        hr_json_u64(w, "pinned_bytes", s->pinned_bytes);
        hr_json_u64(w, "page_cache_bytes", s->page_cache_bytes);
        hr_json_u64(w, "commit_bytes", s->commit_bytes);
        hr_json_str(w, "note", hr_est_step_note_text(e, i, HR_LANG_EN, say, sizeof say));
        hr_json_end_object(w);
    }
    hr_json_end_array(w);

    hr_json_begin_array(w, "loads");
    for (int i = 0; i < e->load_count; i++) {
        const hr_est_load *l = &e->load[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "model", l->model);
        hr_json_str(w, "node", l->node_id);
        hr_json_bool(w, "partial", l->partial);
        hr_json_u64(w, "usable_vram_bytes", l->usable_vram_bytes);
        hr_json_u64(w, "loaded_bytes", l->loaded_bytes);
        hr_json_u64(w, "offloaded_bytes", l->offloaded_bytes);
        hr_json_u64(w, "buffer_bytes", l->buffer_bytes);
        if (l->dynamic)
            hr_json_u64(w, "staged_bytes", l->staged_bytes);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);

    hr_json_begin_array(w, "verdicts");
    for (int i = 0; i < e->verdict_count; i++) {
        const hr_est_verdict *v = &e->verdict[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "verdict", hr_est_verdict_name(v->kind));
        hr_json_u64(w, "bytes", v->bytes);
        hr_json_str(w, "node", v->node_id);
        hr_json_str(w, "text", hr_est_msg_text(&v->text, HR_LANG_EN, say, sizeof say));
        hr_json_str(w, "fix", hr_est_msg_text(&v->fix, HR_LANG_EN, say, sizeof say));
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_u64(w, "severity", (uint64_t)hr_estimate_severity(e));
    hr_json_begin_array(w, "notes");
    for (int i = 0; i < e->note_count; i++)
        hr_json_str(w, NULL, hr_est_msg_text(&e->notes[i], HR_LANG_EN, say, sizeof say));
    hr_json_end_array(w);
    hr_json_end_object(w);
}

void hr_estimate_render(const hr_estimate *e, hr_render *r)
{
    if (r->format == HR_FORMAT_TEXT)
        text(e, r->out, r->color);
    else if (r->format == HR_FORMAT_JSON)
        json(e, &r->json);
    else if (r->format == HR_FORMAT_HTML)
        hr_estimate_html(e, r->out);
    else
        hr_render_unsupported(r);
}
