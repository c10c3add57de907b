/* headroom — the sampling loop shared by watch and run (monitor.h). */
#include "monitor.h"

#include "cli_util.h"
#include "console.h"
#include "exit_status.h"

#include "core/base/i18n.h"
#include "core/base/hot.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#ifndef HR_VERSION
#define HR_VERSION "0"
#endif

/* The JSON view's lines are a machine format (UTF-8 always); the rest is text. */
HR_HOT static void out_stdout(hr_monitor *m, const hr_buf *b)
{
    if (hr_cli_write(b, m->view == HR_MON_JSON ? HR_FORMAT_JSON : HR_FORMAT_TEXT) != 0)
        m->write_error = 1;
}

HR_HOT static void out_stderr(const hr_buf *b)
{
    hr_console_put(stderr, hr_buf_str(b), b->len, true);
}

HR_HOT void hr_monitor_record(hr_monitor *m, const hr_buf *line)
{
    hr_lock_take(m->out);
    if (m->rec && !m->write_error) {
        if (fwrite(hr_buf_str(line), 1, line->len, m->rec) != line->len || fflush(m->rec) != 0)
            m->write_error = 1;
    }
    if (m->view == HR_MON_JSON)
        out_stdout(m, line);
    hr_lock_give(m->out);
}

HR_START int hr_monitor_open(hr_monitor *m, const hr_monitor_opts *o)
{
    memset(m, 0, sizeof *m);
    hr_watch_init(&m->w, NULL);
    if (o->comfyui && !(m->out = hr_lock_new())) {
        hr_cli_error("%s: %s", o->mode, hr_strerror(HR_ENOMEM));
        return HR_EXIT_FAILURE;
    }
    m->view = o->view;
    m->journal = o->journal;
    /* grown once here, reset (never freed) for every line after */
    hr_buf_init(&m->line, (size_t)1 << 20);
    hr_buf_init(&m->rec_line, (size_t)1 << 20);
    hr_buf_init(&m->say, (size_t)1 << 16);
    char room[4096];
    memset(room, ' ', sizeof room);
    hr_buf_append(&m->line, room, sizeof room);
    hr_buf_append(&m->rec_line, room, sizeof room);
    hr_buf_reset(&m->line);
    hr_buf_reset(&m->rec_line);
    if (o->sampler.pid > 0)
        snprintf(m->target, sizeof m->target, HR_T("process %lld and its children"), (long long)o->sampler.pid);
    else if (o->sampler.name)
        snprintf(m->target, sizeof m->target, HR_T("processes matching \"%s\""), o->sampler.name);
    hr_error err = { 0 };
    int r = hr_sampler_open(&o->sampler, &m->sampler, &err);
    if (r < 0) {
        hr_cli_error("%s: %s", o->mode, err.msg[0] ? err.msg : hr_strerror(r));
        hr_buf_free(&m->line);
        hr_buf_free(&m->rec_line);
        hr_buf_free(&m->say);
        return hr_exit_from_error(r);
    }
    if (o->record) {
        m->rec = o->record_file ? o->record_file : hr_platform_output_open(o->record, &err);
        if (!m->rec) {
            hr_cli_error(HR_T("%s: cannot create the recording: %s"), o->mode, err.msg);
            hr_sampler_close(m->sampler);
            m->sampler = NULL;
            hr_buf_free(&m->line);
            hr_buf_free(&m->rec_line);
            hr_buf_free(&m->say);
            return hr_cli_output_exit(err.code);
        }
        m->rec_path = o->record;
    }
    {
        /* local time on the terminal: the offset of now (gmtime read back as local) */
        time_t now = time(NULL);
        struct tm *l = localtime(&now);
        int dst = l ? l->tm_isdst : 0;
        struct tm *g = gmtime(&now);
        if (g) {
            struct tm gt = *g;
            gt.tm_isdst = dst;
            time_t back = mktime(&gt);
            if (back != (time_t)-1)
                m->w.tz_offset_ms = (int64_t)difftime(now, back) * 1000;
        }
    }
    m->t0 = hr_platform_mono_ms();
    m->started_wall = hr_platform_wall_ms();
    hr_rec_header h = { .version = HR_VERSION,
                        .os = hr_platform_os() == HR_OS_WINDOWS ? "windows" : "linux",
                        .started_ms = m->started_wall,
                        .interval_ms = o->interval_ms,
                        .mode = o->mode,
                        .pid = o->sampler.pid > 0 ? o->sampler.pid : HR_W_UNKNOWN,
                        .name = o->sampler.name,
                        .argc = o->argc,
                        .argv = o->argv,
                        .comfyui = o->comfyui };
    hr_rec_header_line(&m->rec_line, &h);
    hr_monitor_record(m, &m->rec_line);
    hr_buf_reset(&m->rec_line);
    hr_wsample_init(&m->last);
    return 0;
}

static void step_show(hr_monitor *m, const hr_wsample *s, const hr_warning *wr, size_t nw);

HR_HOT void hr_monitor_step(hr_monitor *m)
{
    hr_wsample s;
    hr_warning wr[HR_WATCH_MAX_WARNINGS];
    hr_sampler_take(m->sampler, &s);
    size_t nw = hr_watch_tick(&m->w, &s, wr);
    m->last = s;

    /* the sample's JSON line only where it goes somewhere (a recording, --json) */
    if (m->rec || m->view == HR_MON_JSON) {
        hr_buf_reset(&m->rec_line);
        hr_rec_sample_line(&m->rec_line, m->t0, &s);
        hr_monitor_record(m, &m->rec_line);
    }
    for (size_t i = 0; i < nw; i++) {
        hr_buf_reset(&m->rec_line);
        hr_rec_warning_line(&m->rec_line, m->t0, &wr[i]);
        hr_monitor_record(m, &m->rec_line);
    }
    hr_lock_take(m->out);
    step_show(m, &s, wr, nw);
    hr_lock_give(m->out);
    /* ComfyUI after the sample and its warnings: node lines and --protect's actions follow */
    if (m->after)
        m->after(m->after_ctx, &m->w, &s, wr, nw);
}

HR_HOT static void step_show(hr_monitor *m, const hr_wsample *s, const hr_warning *wr, size_t nw)
{
    hr_buf *b = &m->line;
    hr_buf_reset(b);
    for (size_t i = 0; i < nw; i++) {
        char text[300];
        hr_warning_text(&wr[i], text, sizeof text);
        hr_watch_clock(wr[i].time_ms + m->w.tz_offset_ms, m->last_warning, sizeof m->last_warning);
        size_t k = strlen(m->last_warning);
        snprintf(m->last_warning + k, sizeof m->last_warning - k, " %s: %s",
                 wr[i].level == HR_WLEVEL_CRITICAL ? HR_T("CRITICAL") : HR_T("WARNING"), text);
        if (m->view == HR_MON_QUIET && m->journal) {
            /* one line per event at its syslog priority (LOG_CRIT, LOG_WARNING), so that
             * `journalctl -p warning` finds it; the journal stamps the time itself */
            hr_buf_printf(b, "<%d>%s: %s\n", wr[i].level == HR_WLEVEL_CRITICAL ? 2 : 4,
                          wr[i].level == HR_WLEVEL_CRITICAL ? HR_T("CRITICAL") : HR_T("WARNING"), text);
        } else if (m->view == HR_MON_QUIET) {
            hr_buf_printf(b, "headroom: %s\n", m->last_warning);
        } else if (m->view != HR_MON_JSON) {
            if (m->view == HR_MON_PANEL && m->panel_lines) {
                /* over the panel: the warning scrolls up and stays, the panel follows */
                hr_buf_printf(b, "\x1b[%dA\r", m->panel_lines);
                m->panel_lines = 0;
            }
            hr_buf_printf(b, "%s\x1b[K\n", m->last_warning);
        }
    }
    if (m->view == HR_MON_QUIET) {
        if (b->len)
            out_stderr(b);
        return;
    }
    if (m->view == HR_MON_LINES) {
        /* plain lines carry no escape sequences */
        char *p;
        while ((p = strstr(b->data ? b->data : "", "\x1b[K")) != NULL) {
            memmove(p, p + 3, strlen(p + 3) + 1);
            b->len -= 3;
        }
        hr_watch_line(b, &m->w, s);
        out_stdout(m, b);
    } else if (m->view == HR_MON_PANEL) {
        if (m->panel_lines)
            hr_buf_printf(b, "\x1b[%dA\r", m->panel_lines);
        size_t before = b->len;
        hr_watch_panel(b, &m->w, s, m->target, m->last_warning);
        int lines = 0;
        for (size_t i = before; i < b->len; i++)
            lines += b->data[i] == '\n';
        m->panel_lines = lines;
        out_stdout(m, b);
    }
}

HR_HOT void hr_monitor_say(hr_monitor *m, bool to_stderr, const char *text)
{
    if (m->view == HR_MON_JSON && !to_stderr)
        return;
    char clock[16];
    hr_watch_clock(hr_platform_wall_ms() + m->w.tz_offset_ms, clock, sizeof clock);
    hr_lock_take(m->out);
    hr_buf *b = &m->say;
    hr_buf_reset(b);
    if ((m->view == HR_MON_QUIET || to_stderr) && m->journal) {
        hr_buf_printf(b, "<5>%s\n", text); /* LOG_NOTICE: an event, not a warning */
        out_stderr(b);
        hr_lock_give(m->out);
        return;
    }
    if (m->view == HR_MON_QUIET || to_stderr) {
        hr_buf_printf(b, "headroom: %s %s\n", clock, text);
        out_stderr(b);
        hr_lock_give(m->out);
        return;
    }
    if (m->view == HR_MON_PANEL && m->panel_lines) {
        hr_buf_printf(b, "\x1b[%dA\r", m->panel_lines);
        m->panel_lines = 0;
    }
    hr_buf_printf(b, "%s %s%s\n", clock, text, m->view == HR_MON_PANEL ? "\x1b[K" : "");
    out_stdout(m, b);
    hr_lock_give(m->out);
}

HR_START int hr_monitor_close(hr_monitor *m, bool end_line)
{
    if (end_line) {
        hr_buf_reset(&m->rec_line);
        hr_rec_end_line(&m->rec_line, m->t0, hr_platform_mono_ms(), hr_platform_wall_ms(), &m->w);
        hr_monitor_record(m, &m->rec_line);
    }
    int rc = 0;
    hr_lock_take(m->out);
    if (m->rec) {
        if (fclose(m->rec) != 0)
            m->write_error = 1;
        m->rec = NULL;
    }
    hr_lock_give(m->out);
    if (m->write_error) {
        hr_cli_error(HR_T("%s: the output could not be written"), m->rec_path ? m->rec_path : "stdout");
        rc = HR_EXIT_IOERR;
    }
    hr_sampler_close(m->sampler);
    m->sampler = NULL;
    hr_buf_free(&m->line);
    hr_buf_free(&m->rec_line);
    hr_buf_free(&m->say);
    hr_lock_free(m->out);
    m->out = NULL;
    return rc;
}
