/* headroom — the plan as human text and as JSON (schema headroom.plan/1, docs/plan.md). The
 * plan's lines are data: text shows them in the user's language, JSON in English, whatever
 * language the process is set to. */
#include "core/plan/plan.h"

#include "core/base/i18n.h"

#include "core/base/size.h"

#include <string.h>

static const char *os_name(hr_os os)
{
    return os == HR_OS_WINDOWS ? "windows" : "linux";
}

static void put_lines(hr_buf *out, const char *title, const hr_plan_line *l, int n, const char *mark)
{
    if (n <= 0)
        return;
    hr_buf_printf(out, "\n%s\n", title);
    char t[HR_PLAN_TEXT_MAX];
    for (int i = 0; i < n; i++)
        hr_buf_printf(out, "  %s[%s] %s\n", mark, l[i].rule, hr_plan_line_text(&l[i], hr_lang_get(), t, sizeof t));
}

int hr_plan_text(const hr_plan *p, hr_buf *out)
{
    const hr_plan_facts *f = &p->facts;
    const hr_plan_recommended *r = &p->recommended;
    char a[32], b[32], t[HR_PLAN_TEXT_MAX];
    const hr_lang lang = hr_lang_get();
    const bool win = f->os == HR_OS_WINDOWS;
    const char *thing = win ? HR_T("paging file") : f->wsl2 ? HR_T("WSL 2 swap") : HR_T("swap");

    hr_buf_printf(out, HR_T("headroom plan — %s for %s%s\n"), thing, win ? "Windows" : "Linux",
                  f->hypothetical ? HR_T(" (a hypothetical machine: facts from the flags)")
                  : f->recorded   ? HR_T(" (a recorded machine)")
                                  : "");
    hr_buf_puts(out, HR_T("\nFacts\n"));
    hr_size_gb(f->ram_bytes, a, sizeof a);
    hr_buf_printf(out, HR_T("  RAM        %s (%s)\n"), a, hr_tr(f->ram_source));
    if (f->vram_bytes == HR_UNKNOWN)
        if (f->estimate_vram_bytes != HR_UNKNOWN) {
            char ev[32];
            hr_size_gb(f->estimate_vram_bytes, ev, sizeof ev);
            hr_buf_printf(out, HR_T("  VRAM       unknown (give --vram SIZE): the estimate assumes %s\n"), ev);
        } else {
            hr_buf_puts(out, HR_T("  VRAM       unknown (give --vram SIZE)\n"));
        }
    else if (f->vram_bytes == 0)
        hr_buf_printf(out, HR_T("  VRAM       none dedicated: integrated GPU (%s)\n"), hr_tr(f->vram_source));
    else {
        hr_size_gb(f->vram_bytes, a, sizeof a);
        hr_buf_printf(out, HR_T("  VRAM       %s (%s)"), a, hr_tr(f->vram_source));
        if (f->effective_vram_bytes != f->vram_bytes) {
            hr_size_gb(f->effective_vram_bytes, b, sizeof b);
            hr_buf_printf(out, HR_T(", %s usable after --reserve-vram"), b);
        }
        hr_buf_putc(out, '\n');
    }
    hr_buf_printf(out, HR_T("  workload   %s%s\n"), hr_workload_label(f->workload),
                  f->workload == HR_WORKLOAD_NONE ? HR_T(" (give --workload sd15|sdxl|flux|video)")
                  : f->workload_implied           ? HR_T(" (what the workflow implies)")
                                                  : "");
    char flags[128];
    hr_comfy_args_describe(&f->comfy, flags, sizeof flags);
    if (flags[0])
        hr_buf_printf(out, HR_T("  launcher   %s\n"), flags);
    if (f->disk_paging_bytes != HR_UNKNOWN) {
        hr_size_gb(f->disk_paging_bytes, a, sizeof a);
        hr_buf_printf(out, HR_T("  now        %s of %s on disk\n"), a, win ? HR_T("paging file") : HR_T("swap"));
    }
    if (!f->volumes_known && !f->wsl2)
        hr_buf_printf(out, HR_T("  drives     not known%s: the plan says which kind to choose\n"),
                      f->hypothetical ? HR_T(" (a hypothetical machine)") : "");

    hr_buf_puts(out, HR_T("\nRecommendation\n"));
    hr_size_gb(r->maximum_bytes, a, sizeof a);
    if (r->fixed)
        hr_buf_printf(out, HR_T("  %s fixed (initial = maximum = %llu MB)"), a,
                      (unsigned long long)(r->maximum_bytes / HR_MIB));
    else {
        hr_size_gb(r->initial_bytes, b, sizeof b);
        hr_buf_printf(out, HR_T("  %s to %s (initial %llu MB, maximum %llu MB)"), b, a,
                      (unsigned long long)(r->initial_bytes / HR_MIB), (unsigned long long)(r->maximum_bytes / HR_MIB));
    }
    if (r->target_known)
        hr_buf_printf(out, HR_T(" on %s (%s)\n"), r->target, r->target_path);
    else
        hr_buf_printf(out, HR_T(" on %s\n"), hr_plan_advice_text(r, lang, t, sizeof t));
    if (!win && !f->wsl2 && r->add_bytes != r->maximum_bytes) {
        hr_size_gb(r->add_bytes, b, sizeof b);
        hr_buf_printf(out, HR_T("  the swap kept counts: add %s\n"), b);
    }
    if (r->estimate_bytes != HR_UNKNOWN) {
        /* The one rule (core/model/run_need.h): which of the two set the size. */
        char m[32];
        hr_size_gb(r->need.must_back, m, sizeof m);
        hr_size_gb(r->estimate_bytes, b, sizeof b);
        hr_size_gb(r->table_bytes, a, sizeof a);
        if (r->set_by_table)
            hr_buf_printf(out, HR_T("  basis: the table for %s, %s — above the %s the need asks for (must back %s)\n"),
                          hr_workload_label(f->workload), a, b, m);
        else
            hr_buf_printf(out, HR_T("  basis: the need, %s (must back %s) — above the table's %s for %s\n"), b, m, a,
                          hr_workload_label(f->workload));
    } else {
        hr_buf_puts(out, HR_T("  basis: the seed's table (give --peak-commit SIZE to size from a measured peak)\n"));
    }
    for (int i = 0; i < r->reason_count; i++)
        hr_buf_printf(out, "    [%s] %s\n", r->reasons[i].rule, hr_plan_line_text(&r->reasons[i], lang, t, sizeof t));

    if (p->candidate_count > 0) {
        hr_buf_puts(out, HR_T("\nWhere (best first)\n"));
        for (int i = 0; i < p->candidate_count; i++) {
            const hr_plan_candidate *c = &p->candidates[i];
            if (c->rank)
                hr_buf_printf(out, "  %d. %s", c->rank, c->target);
            else
                hr_buf_printf(out, "  -  %s", c->target);
            hr_buf_printf(out, "  %s%s%s%s\n", c->fs_type[0] ? c->fs_type : "?",
                          c->ssd == HR_TRI_YES  ? ", SSD"
                          : c->ssd == HR_TRI_NO ? ", HDD"
                                                : "",
                          c->is_system ? HR_T(", system") : "", c->eligible ? "" : HR_T(" — not eligible"));
            for (int j = 0; j < c->reason_count; j++)
                hr_buf_printf(out, "       [%s] %s\n", c->reasons[j].rule,
                              hr_plan_line_text(&c->reasons[j], lang, t, sizeof t));
        }
    }
    put_lines(out, HR_T("Remove (only after the new one is in place)"), p->removals, p->removal_count, "");
    put_lines(out, HR_T("Warnings"), p->warnings, p->warning_count, "! ");

    hr_buf_printf(out, HR_T("\nSteps (headroom plan changes nothing: do these yourself%s)\n"),
                  win ? HR_T(", as administrator") : "");
    for (int i = 0; i < p->step_count; i++) {
        const hr_plan_step *s = &p->steps[i];
        hr_buf_printf(out, "  %d. [%s] %s\n", i + 1, s->rule, hr_plan_step_text(s, lang, t, sizeof t));
        if (s->command[0]) {
            const char *c = s->command;
            while (*c) {
                const char *nl = strchr(c, '\n');
                size_t n = nl ? (size_t)(nl - c) : strlen(c);
                hr_buf_printf(out, "       %s%.*s\n", win ? "> " : "$ ", (int)n, c);
                c += n + (nl ? 1 : 0);
            }
        }
    }
    return hr_buf_error(out);
}

/* JSON is English: lines are formatted in HR_LANG_EN, never in the process's language. */
static void json_lines(hr_json_writer *w, const char *key, const hr_plan_line *l, int n)
{
    char t[HR_PLAN_TEXT_MAX];
    hr_json_begin_array(w, key);
    for (int i = 0; i < n; i++) {
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "id", l[i].id);
        hr_json_str(w, "rule", l[i].rule);
        hr_json_str(w, "text", hr_plan_line_text(&l[i], HR_LANG_EN, t, sizeof t));
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
}

void hr_plan_json(const hr_plan *p, hr_json_writer *w, const char *key)
{
    const hr_plan_facts *f = &p->facts;
    const hr_plan_recommended *r = &p->recommended;
    hr_json_begin_object(w, key);
    hr_json_str(w, "schema", HR_PLAN_SCHEMA);
    hr_json_str(w, "os", os_name(f->os));
    hr_json_bool(w, "hypothetical", f->hypothetical);
    hr_json_bool(w, "recorded", f->recorded);

    hr_json_begin_object(w, "facts");
    hr_json_size(w, "ram_bytes", f->ram_bytes);
    hr_json_str(w, "ram_source", f->ram_source);
    hr_json_size(w, "vram_bytes", f->vram_bytes);
    hr_json_str(w, "vram_source", f->vram_source);
    if (f->vram_bytes == HR_UNKNOWN)
        hr_json_str(w, "vram_reason", "no GPU memory could be read; give --vram");
    hr_json_size(w, "effective_vram_bytes", f->effective_vram_bytes);
    hr_json_bool(w, "integrated_gpu", f->integrated_gpu);
    hr_json_str(w, "workload", hr_workload_name(f->workload));
    hr_json_bool(w, "workload_implied", f->workload_implied);
    hr_json_begin_object(w, "comfy_args");
    hr_json_bool(w, "lowvram", f->comfy.lowvram);
    hr_json_bool(w, "novram", f->comfy.novram);
    hr_json_bool(w, "highvram", f->comfy.highvram);
    hr_json_bool(w, "gpu_only", f->comfy.gpu_only);
    hr_json_bool(w, "cpu", f->comfy.cpu);
    hr_json_bool(w, "disable_smart_memory", f->comfy.disable_smart_memory);
    if (f->comfy.reserve_vram_given)
        hr_json_u64(w, "reserve_vram_bytes", f->comfy.reserve_vram_bytes);
    else
        hr_json_null(w, "reserve_vram_bytes");
    hr_json_end_object(w);
    hr_json_bool(w, "lean_on_ram", f->lean_on_ram);
    hr_json_u64(w, "table_row_gb", (uint64_t)f->row);
    hr_json_size(w, "disk_paging_bytes", f->disk_paging_bytes);
    hr_json_bool(w, "volumes_known", f->volumes_known);
    hr_json_bool(w, "wsl2", f->wsl2);
    hr_json_bool(w, "in_container", f->in_container);
    hr_json_bool(w, "cgroup_limited", f->cgroup_limited);
    hr_json_end_object(w);

    hr_json_begin_object(w, "recommended");
    hr_json_u64(w, "initial_bytes", r->initial_bytes);
    hr_json_u64(w, "maximum_bytes", r->maximum_bytes);
    hr_json_u64(w, "initial_mb", r->initial_bytes / HR_MIB);
    hr_json_u64(w, "maximum_mb", r->maximum_bytes / HR_MIB);
    hr_json_bool(w, "fixed", r->fixed);
    hr_json_str(w, "basis", r->basis == HR_BASIS_PEAK ? "peak-commit" : "table");
    hr_json_u64(w, "table_bytes", r->table_bytes);
    hr_json_size(w, "peak_commit_bytes", r->peak_bytes);
    hr_json_size(w, "peak_sized_bytes", r->peak_sized_bytes);
    hr_json_u64(w, "peak_margin_percent", HR_PLAN_PEAK_MARGIN_PERCENT);
    hr_json_str(w, "set_by", r->set_by_table ? "table" : "estimate");
    hr_json_size(w, "estimate_bytes", r->estimate_bytes);
    hr_plan_need_json(p, w, "need");
    hr_json_bool(w, "upgrade_ram_first", r->upgrade_ram_first);
    if (r->target_known) {
        hr_json_str(w, "target", r->target);
        hr_json_str(w, "target_path", r->target_path);
    } else {
        hr_json_null(w, "target");
        hr_json_null(w, "target_path");
        char t[HR_PLAN_TEXT_MAX];
        hr_json_str(w, "target_reason", hr_plan_advice_text(r, HR_LANG_EN, t, sizeof t));
    }
    if (f->os == HR_OS_LINUX)
        hr_json_u64(w, "add_bytes", r->add_bytes);
    json_lines(w, "reasons", r->reasons, r->reason_count);
    hr_json_end_object(w);

    hr_json_begin_array(w, "candidates");
    for (int i = 0; i < p->candidate_count; i++) {
        const hr_plan_candidate *c = &p->candidates[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "target", c->target);
        hr_json_str(w, "path", c->path);
        hr_json_str(w, "fs_type", c->fs_type[0] ? c->fs_type : NULL);
        hr_json_u64(w, "rank", (uint64_t)c->rank);
        hr_json_bool(w, "eligible", c->eligible);
        hr_json_bool(w, "fits_fixed", c->fits_fixed);
        hr_json_bool(w, "fits_range", c->fits_range);
        hr_json_tri(w, "ssd", c->ssd);
        hr_json_bool(w, "is_system", c->is_system);
        hr_json_size(w, "free_bytes", c->free_bytes);
        hr_json_size(w, "total_bytes", c->total_bytes);
        hr_json_u64(w, "reserve_bytes", c->reserve_bytes);
        hr_json_u64(w, "existing_bytes", c->existing_bytes);
        json_lines(w, "reasons", c->reasons, c->reason_count);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    json_lines(w, "removals", p->removals, p->removal_count);
    json_lines(w, "warnings", p->warnings, p->warning_count);
    hr_json_begin_array(w, "steps");
    char t[HR_PLAN_TEXT_MAX];
    for (int i = 0; i < p->step_count; i++) {
        const hr_plan_step *s = &p->steps[i];
        hr_json_begin_object(w, NULL);
        hr_json_str(w, "id", s->id);
        hr_json_str(w, "rule", s->rule);
        hr_json_str(w, "text", hr_plan_step_text(s, HR_LANG_EN, t, sizeof t));
        hr_json_str(w, "command", s->command[0] ? s->command : NULL);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_bool(w, "nothing_to_change", p->nothing_to_change);
    hr_json_end_object(w);
}

void hr_plan_render(const hr_plan *p, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT:
        hr_plan_text(p, r->out); /* a failed write stays in the buffer (sticky) */
        break;
    case HR_FORMAT_JSON: hr_plan_json(p, &r->json, NULL); break;
    case HR_FORMAT_HTML:
    case HR_FORMAT_PROMETHEUS: hr_render_unsupported(r); break;
    }
}

void hr_plan_need_json(const hr_plan *p, hr_json_writer *w, const char *key)
{
    hr_json_begin_object(w, key);
    hr_plan_need_members(p, w);
    hr_json_end_object(w);
}

void hr_plan_need_members(const hr_plan *p, hr_json_writer *w)
{
    hr_run_need_json_members(&p->recommended.need, w);
    hr_plan_need_version_members(p, w);
}

void hr_plan_need_version_members(const hr_plan *p, hr_json_writer *w)
{
    hr_json_bool(w, "comfyui_version_known", p->facts.version_known);
    if (p->facts.high_version[0])
        hr_json_str(w, "high_end_comfyui_version", p->facts.high_version);
    else
        hr_json_null(w, "high_end_comfyui_version");
}
