/* headroom — watch: the recording's lines (docs/recording.md) and the terminal's lines. */
#include "core/watch/watch.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/hot.h"

#include <stdio.h>
#include <string.h>

HR_HOT static void ji(hr_json_writer *w, const char *key, int64_t v)
{
    if (v == HR_W_UNKNOWN || v == HR_W_UNLIMITED)
        hr_json_null(w, key);
    else
        hr_json_i64(w, key, v);
}

HR_HOT static void jd(hr_json_writer *w, const char *key, double v)
{
    if (v < 0 || v != v)
        hr_json_null(w, key);
    else
        hr_json_double(w, key, (double)(int64_t)(v * 10.0 + 0.5) / 10.0);
}

HR_HOT static void begin(hr_json_writer *w, hr_buf *out, const char *type, int64_t t, int64_t time_ms)
{
    hr_json_init(w, out, false);
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "type", type);
    hr_json_i64(w, "t", t);
    hr_json_i64(w, "time", time_ms);
}

HR_HOT static void end(hr_json_writer *w)
{
    hr_json_end_object(w);
    (void)hr_json_finish(w);
}

HR_START void hr_rec_header_line(hr_buf *out, const hr_rec_header *h)
{
    hr_json_writer w;
    hr_json_init(&w, out, false);
    hr_json_begin_object(&w, NULL);
    hr_json_str(&w, "type", "header");
    hr_json_str(&w, "schema", HR_RECORDING_SCHEMA);
    hr_json_str(&w, "version", h->version);
    hr_json_str(&w, "os", h->os);
    hr_json_i64(&w, "started", h->started_ms);
    hr_json_i64(&w, "interval_ms", h->interval_ms);
    hr_json_str(&w, "mode", h->mode);
    hr_json_begin_object(&w, "target");
    ji(&w, "pid", h->pid);
    hr_json_str(&w, "name", h->name);
    hr_json_end_object(&w);
    if (h->argv) {
        hr_json_begin_array(&w, "command");
        for (int i = 0; i < h->argc; i++)
            hr_json_str(&w, NULL, h->argv[i]);
        hr_json_end_array(&w);
    } else {
        hr_json_null(&w, "command");
    }
    hr_json_str(&w, "comfyui", h->comfyui);
    end(&w);
}

HR_HOT void hr_rec_sample_line(hr_buf *out, int64_t t0, const hr_wsample *s)
{
    hr_json_writer w;
    begin(&w, out, "sample", s->t_ms - t0, s->time_ms);
    ji(&w, "ram_total", s->ram_total);
    ji(&w, "ram_used", s->ram_used);
    ji(&w, "ram_available", s->ram_available);
    ji(&w, "swap_total", s->swap_total);
    ji(&w, "swap_used", s->swap_used);
    ji(&w, "commit", s->commit);
    ji(&w, "commit_limit", s->commit_limit);
    hr_json_bool(&w, "commit_enforced", s->commit_enforced);
    ji(&w, "cgroup_current", s->cg_current);
    ji(&w, "cgroup_max", s->cg_max);
    ji(&w, "cgroup_swap_current", s->cg_swap_current);
    ji(&w, "cgroup_swap_max", s->cg_swap_max);
    jd(&w, "pages_in_ps", s->pages_in_ps);
    jd(&w, "pages_out_ps", s->pages_out_ps);
    jd(&w, "psi_some_avg10", s->psi_some_avg10);
    jd(&w, "psi_full_avg10", s->psi_full_avg10);
    jd(&w, "disk_busy_pct", s->disk_busy_pct);
    hr_json_str(&w, "disk", s->disk[0] ? s->disk : NULL);
    ji(&w, "proc_rss", s->proc_rss);
    ji(&w, "proc_swap", s->proc_swap);
    ji(&w, "proc_count", s->proc_count);
    ji(&w, "vram_used", s->vram_used);
    ji(&w, "vram_total", s->vram_total);
    ji(&w, "proc_vram", s->proc_vram);
    end(&w);
}

HR_HOT void hr_rec_warning_line(hr_buf *out, int64_t t0, const hr_warning *wr)
{
    hr_json_writer w;
    begin(&w, out, "warning", wr->t_ms - t0, wr->time_ms);
    hr_json_str(&w, "rule", hr_wrule_id(wr->rule));
    hr_json_str(&w, "level", hr_wlevel_name(wr->level));
    char message[256];
    hr_msg_format(&wr->msg, HR_LANG_EN, message, sizeof message); /* a recording is English */
    hr_json_str(&w, "message", message);
    ji(&w, "value", wr->value);
    ji(&w, "limit", wr->limit);
    jd(&w, "eta_s", wr->eta_s);
    /* What the message is made of, so that a reader can say it in another language (the HTML
     * report): the paging disk's busy percent or the memory pressure, and which
     * limit (commit-85/95: "commit" or "RAM + swap"). */
    jd(&w, "disk_busy_pct", wr->rule == HR_WRULE_S23 ? wr->busy_pct : -1.0);
    jd(&w, "psi_full_avg10", wr->rule == HR_WRULE_PRESSURE ? wr->busy_pct : -1.0);
    hr_json_str(&w, "limit_name", wr->limit_name);
    end(&w);
}

HR_START void hr_rec_peaks(struct hr_json_writer *w, const hr_wpeaks *p)
{
    hr_json_begin_object(w, "peaks");
    ji(w, "ram_used", p->ram_used);
    ji(w, "commit", p->commit);
    ji(w, "swap_used", p->swap_used);
    ji(w, "ram_swap_used", p->ram_swap_used);
    ji(w, "cgroup_current", p->cg_current);
    ji(w, "proc_rss", p->proc_rss);
    ji(w, "proc_swap", p->proc_swap);
    ji(w, "vram_used", p->vram_used);
    ji(w, "proc_vram", p->proc_vram);
    jd(w, "disk_busy_pct", p->disk_busy_pct);
    jd(w, "psi_full_avg10", p->psi_full_avg10);
    hr_json_end_object(w);
}

HR_START void hr_rec_end_line(hr_buf *out, int64_t t0, int64_t t_ms, int64_t time_ms, const hr_watch *wt)
{
    hr_json_writer w;
    begin(&w, out, "end", t_ms - t0, time_ms);
    hr_json_u64(&w, "samples", wt->samples);
    hr_json_u64(&w, "warnings", wt->warnings);
    ji(&w, "first_warning_t", wt->first_warning_t == HR_W_UNKNOWN ? HR_W_UNKNOWN : wt->first_warning_t - t0);
    hr_rec_peaks(&w, &wt->peaks);
    end(&w);
}

/* ---- the terminal ---- */

HR_HOT static void gb(int64_t v, char *out, size_t n)
{
    if (v == HR_W_UNKNOWN) {
        snprintf(out, n, "?");
        return;
    }
    if (v == HR_W_UNLIMITED) {
        snprintf(out, n, "max");
        return;
    }
    /* one decimal in GB, the way Task Manager shows memory */
    int64_t tenths = (v * 10 + (int64_t)HR_GIB / 2) / (int64_t)HR_GIB;
    if (tenths < 0 || n < 24) {
        snprintf(out, n, "%lld.%lld", (long long)(tenths / 10), (long long)(tenths % 10));
        return;
    }
    /* digits by hand: this runs for every figure of every sample */
    char tmp[24], *p = tmp + sizeof tmp;
    *--p = '\0';
    *--p = (char)('0' + tenths % 10);
    *--p = '.';
    int64_t whole = tenths / 10;
    do {
        *--p = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    memcpy(out, p, (size_t)(tmp + sizeof tmp - p));
}

HR_HOT void hr_watch_clock(int64_t time_ms, char *out, size_t n)
{
    int64_t s = time_ms / 1000;
    int64_t day = s % 86400;
    if (day < 0)
        day += 86400;
    if (n < 9) {
        snprintf(out, n, "%02d:%02d:%02d", (int)(day / 3600), (int)(day / 60 % 60), (int)(day % 60));
        return;
    }
    int f[3] = { (int)(day / 3600), (int)(day / 60 % 60), (int)(day % 60) };
    for (int i = 0; i < 3; i++) {
        out[i * 3] = (char)('0' + f[i] / 10);
        out[i * 3 + 1] = (char)('0' + f[i] % 10);
        out[i * 3 + 2] = i < 2 ? ':' : '\0';
    }
}

HR_HOT static void pair(hr_buf *out, const char *label, int64_t used, int64_t total)
{
    char u[24], t[24];
    gb(used, u, sizeof u);
    gb(total, t, sizeof t);
    hr_buf_printf(out, "  %s %s/%s GB", label, u, t);
}

HR_HOT static void eta_part(hr_buf *out, const hr_watch *w)
{
    if (hr_watch_eta_meaningful(w))
        hr_buf_printf(out, HR_T("  limit (%s) in %.0f s"), HR_T(w->limit_name), w->eta_s);
}

HR_HOT void hr_watch_line(hr_buf *out, const hr_watch *w, const hr_wsample *s)
{
    char clk[16];
    hr_watch_clock(s->time_ms + w->tz_offset_ms, clk, sizeof clk);
    hr_buf_puts(out, clk);
    pair(out, HR_T("RAM"), s->ram_used, s->ram_total);
    pair(out, HR_T("swap"), s->swap_used, s->swap_total);
    pair(out, HR_T("commit"), s->commit, s->commit_limit);
    if (s->cg_current != HR_W_UNKNOWN)
        pair(out, HR_T("cgroup"), s->cg_current, s->cg_max);
    if (s->vram_total != HR_W_UNKNOWN)
        pair(out, HR_T("VRAM"), s->vram_used, s->vram_total);
    if (s->pages_in_ps >= 0 || s->pages_out_ps >= 0)
        hr_buf_printf(out, HR_T("  paging in/out %.0f/%.0f pages/s"), s->pages_in_ps < 0 ? 0 : s->pages_in_ps,
                      s->pages_out_ps < 0 ? 0 : s->pages_out_ps);
    if (s->disk_busy_pct >= 0)
        hr_buf_printf(out, HR_T("  disk %s %.0f%% busy"), s->disk, s->disk_busy_pct);
    if (s->psi_full_avg10 >= 0)
        hr_buf_printf(out, HR_T("  PSI full %.1f%%"), s->psi_full_avg10);
    if (s->proc_rss != HR_W_UNKNOWN) {
        char r[24];
        gb(s->proc_rss, r, sizeof r);
        hr_buf_printf(out, HR_T("  target %s GB in %lld processes"), r,
                      (long long)(s->proc_count < 0 ? 0 : s->proc_count));
        if (s->proc_vram != HR_W_UNKNOWN) {
            gb(s->proc_vram, r, sizeof r);
            hr_buf_printf(out, HR_T(", %s GB VRAM"), r);
        }
    }
    eta_part(out, w);
    hr_buf_putc(out, '\n');
}

HR_HOT static void bar(hr_buf *out, int64_t used, int64_t total)
{
    int fill = 0;
    if (used >= 0 && total > 0 && total != HR_W_UNLIMITED) {
        fill = (int)((used * 20 + total / 2) / total);
        if (fill > 20)
            fill = 20;
    }
    hr_buf_putc(out, '[');
    for (int i = 0; i < 20; i++)
        hr_buf_putc(out, i < fill ? '#' : '.');
    hr_buf_putc(out, ']');
}

HR_HOT static void panel_row(hr_buf *out, const char *label, int64_t used, int64_t total)
{
    char u[24], t[24];
    gb(used, u, sizeof u);
    gb(total, t, sizeof t);
    hr_buf_printf(out, "%-8s ", label);
    bar(out, used, total);
    hr_buf_printf(out, " %6s / %-6s GB", u, t);
    if (used >= 0 && total > 0 && total != HR_W_UNLIMITED)
        hr_buf_printf(out, "  %3lld%%", (long long)(used * 100 / total));
    hr_buf_puts(out, "\x1b[K\n");
}

HR_HOT void hr_watch_panel(hr_buf *out, const hr_watch *w, const hr_wsample *s, const char *target,
                           const char *last_warning)
{
    char clk[16];
    hr_watch_clock(s->time_ms + w->tz_offset_ms, clk, sizeof clk);
    hr_buf_printf(out, HR_T("headroom watch  %s  %s  (Ctrl-C to stop)"), clk, target ? target : "");
    hr_buf_puts(out, "\x1b[K\n");
    panel_row(out, HR_T("RAM"), s->ram_used, s->ram_total);
    panel_row(out, HR_T("swap"), s->swap_used, s->swap_total);
    panel_row(out, HR_T("commit"), s->commit, s->commit_limit);
    if (s->cg_current != HR_W_UNKNOWN)
        panel_row(out, HR_T("cgroup"), s->cg_current, s->cg_max);
    if (s->vram_total != HR_W_UNKNOWN)
        panel_row(out, HR_T("VRAM"), s->vram_used, s->vram_total);
    hr_buf_printf(out, HR_T("paging   in %.0f  out %.0f pages/s"), s->pages_in_ps < 0 ? 0 : s->pages_in_ps,
                  s->pages_out_ps < 0 ? 0 : s->pages_out_ps);
    if (s->disk_busy_pct >= 0)
        hr_buf_printf(out, HR_T("   disk %s %.0f%% busy"), s->disk, s->disk_busy_pct);
    if (s->psi_full_avg10 >= 0)
        hr_buf_printf(out, HR_T("   PSI some %.1f%% full %.1f%%"), s->psi_some_avg10, s->psi_full_avg10);
    hr_buf_puts(out, "\x1b[K\n");
    if (s->proc_rss != HR_W_UNKNOWN) {
        char r[24], sw[24];
        gb(s->proc_rss, r, sizeof r);
        gb(s->proc_swap, sw, sizeof sw);
        hr_buf_printf(out, HR_T("target   %s GB resident, %s GB swapped, %lld processes"), r, sw,
                      (long long)(s->proc_count < 0 ? 0 : s->proc_count));
        if (s->proc_vram != HR_W_UNKNOWN) {
            gb(s->proc_vram, r, sizeof r);
            hr_buf_printf(out, HR_T(", %s GB VRAM"), r);
        }
        hr_buf_puts(out, "\x1b[K\n");
    }
    if (w->limit_name) {
        char f[24], c[24];
        gb(w->fill, f, sizeof f);
        gb(w->cap, c, sizeof c);
        hr_buf_printf(out, HR_T("limit    %s %s/%s GB, %+.0f MB/s"), HR_T(w->limit_name), f, c,
                      w->slope_bps / (1024.0 * 1024.0));
        eta_part(out, w);
        hr_buf_puts(out, "\x1b[K\n");
    }
    hr_buf_printf(out, "%s\x1b[K\n", last_warning && last_warning[0] ? last_warning : "");
}
