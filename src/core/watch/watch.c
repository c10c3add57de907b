/* headroom — watch: the tick (rates, ring, peaks, slope, rules). See watch.h. */
#include "core/watch/watch.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/hot.h"

#include <stdio.h>
#include <string.h>

HR_HOT void hr_wsample_init(hr_wsample *s)
{
    memset(s, 0, sizeof *s);
    int64_t *ints[] = { &s->ram_total,       &s->ram_used,           &s->ram_available,
                        &s->swap_total,      &s->swap_used,          &s->commit,
                        &s->commit_limit,    &s->cg_current,         &s->cg_max,
                        &s->cg_swap_current, &s->cg_swap_max,        &s->pages_in_total,
                        &s->pages_out_total, &s->disk_busy_ms_total, &s->proc_rss,
                        &s->proc_swap,       &s->proc_count,         &s->vram_used,
                        &s->vram_total,      &s->proc_vram };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        *ints[i] = HR_W_UNKNOWN;
    s->pages_in_ps = s->pages_out_ps = s->disk_busy_pct = -1.0;
    s->psi_some_avg10 = s->psi_full_avg10 = -1.0;
}

HR_HOT int64_t hr_wvram_tree(const hr_gpu_proc *procs, size_t n, const int64_t *tree, size_t ntree)
{
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        bool member = false;
        for (size_t k = 0; k < ntree && !member; k++)
            member = tree[k] == procs[i].pid;
        if (!member)
            continue;
        /* listed before: counted there, with the larger of the two amounts */
        size_t j = 0;
        while (j < i && procs[j].pid != procs[i].pid)
            j++;
        if (j < i)
            continue;
        int64_t most = HR_W_UNKNOWN;
        for (size_t k = i; k < n; k++)
            if (procs[k].pid == procs[i].pid && procs[k].used >= 0 && procs[k].used > most)
                most = procs[k].used;
        if (most == HR_W_UNKNOWN)
            return HR_W_UNKNOWN; /* listed, but without an amount */
        if (sum > INT64_MAX - most)
            return HR_W_UNKNOWN;
        sum += most;
    }
    return sum;
}

HR_START void hr_watch_cfg_default(hr_watch_cfg *c)
{
    c->horizon_s = 60.0;
    c->min_fill = 0.25;
    c->window_ms = 10000;
    c->rearm_ms = 10000;
    c->climb_bps = 1024.0 * 1024.0;
    c->busy_pct = 90.0;
    c->paging_ps = 2000.0;
    c->psi_full = 10.0;
}

HR_START static void peaks_init(hr_wpeaks *p)
{
    p->ram_used = p->commit = p->swap_used = p->cg_current = HR_W_UNKNOWN;
    p->proc_rss = p->proc_swap = p->vram_used = p->ram_swap_used = HR_W_UNKNOWN;
    p->proc_vram = HR_W_UNKNOWN;
    p->disk_busy_pct = p->psi_full_avg10 = -1.0;
}

HR_START void hr_watch_init(hr_watch *w, const hr_watch_cfg *cfg)
{
    memset(w, 0, sizeof *w);
    if (cfg)
        w->cfg = *cfg;
    else
        hr_watch_cfg_default(&w->cfg);
    peaks_init(&w->peaks);
    w->first_warning_t = HR_W_UNKNOWN;
    w->eta_s = -1.0;
    w->fill = w->cap = HR_W_UNKNOWN;
    w->limit_name = NULL;
    for (int i = 0; i < HR_WRULE_COUNT; i++)
        w->quiet_since[i] = -1;
}

HR_HOT const char *hr_wrule_id(hr_wrule r)
{
    static const char *const ids[HR_WRULE_COUNT] = { "S2.3",        "commit-85",     "commit-95",
                                                     "cgroup-near", "time-to-limit", "pressure" };
    return (unsigned)r < HR_WRULE_COUNT ? ids[r] : "?";
}

bool hr_wrule_from_id(const char *id, hr_wrule *out)
{
    for (int r = 0; r < HR_WRULE_COUNT; r++)
        if (id && strcmp(id, hr_wrule_id((hr_wrule)r)) == 0) {
            *out = (hr_wrule)r;
            return true;
        }
    return false;
}

HR_HOT const char *hr_wlevel_name(hr_wlevel l)
{
    return l == HR_WLEVEL_CRITICAL ? "critical" : "warn";
}

HR_HOT static void maxi(int64_t *peak, int64_t v)
{
    if (v != HR_W_UNKNOWN && (*peak == HR_W_UNKNOWN || v > *peak))
        *peak = v;
}

HR_HOT static void maxd(double *peak, double v)
{
    if (v >= 0 && v > *peak)
        *peak = v;
}

HR_HOT static bool known(int64_t v)
{
    return v != HR_W_UNKNOWN;
}

/* The host's limit: commit where the OS enforces it, else RAM + swap in use. */
HR_HOT static bool host_fill(const hr_wsample *s, int64_t *fill, int64_t *cap, const char **name)
{
    if (s->commit_enforced && known(s->commit) && known(s->commit_limit) && s->commit_limit > 0) {
        *fill = s->commit;
        *cap = s->commit_limit;
        *name = "commit";
        return true;
    }
    if (known(s->ram_used) && known(s->ram_total) && s->ram_total > 0) {
        int64_t su = known(s->swap_used) ? s->swap_used : 0;
        int64_t st = known(s->swap_total) ? s->swap_total : 0;
        *fill = s->ram_used + su;
        *cap = s->ram_total + st;
        *name = "RAM + swap";
        return true;
    }
    return false;
}

/* The cgroup's limit: memory.max plus the swap it may use (none when swap.max is 0, unknown,
 * or the machine has no swap — the conservative reading). */
HR_HOT static bool cg_fill(const hr_wsample *s, int64_t *fill, int64_t *cap)
{
    if (!known(s->cg_current) || !known(s->cg_max) || s->cg_max == HR_W_UNLIMITED || s->cg_max <= 0)
        return false;
    int64_t swap_room = 0;
    int64_t swap_total = known(s->swap_total) ? s->swap_total : 0;
    if (known(s->cg_swap_max))
        swap_room =
            s->cg_swap_max == HR_W_UNLIMITED ? swap_total : (s->cg_swap_max < swap_total ? s->cg_swap_max : swap_total);
    *fill = s->cg_current + (known(s->cg_swap_current) ? s->cg_swap_current : 0);
    *cap = s->cg_max + swap_room;
    return true;
}

/* Least-squares slope (bytes per second) of one series over the window; false when fewer
 * than 3 points. which: 0 host, 1 cgroup, 2 commit. */
HR_HOT static bool slope(const hr_watch *w, int which, double *out)
{
    if (w->ring_n < 3)
        return false;
    size_t last = (w->ring_pos + HR_WATCH_RING - 1) % HR_WATCH_RING;
    int64_t tl = w->ring[last].t_ms;
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t k = 0; k < w->ring_n; k++) {
        const hr_wpoint *p = &w->ring[(last + HR_WATCH_RING - k) % HR_WATCH_RING];
        if (tl - p->t_ms > w->cfg.window_ms)
            break;
        int64_t y = which == 0 ? p->host_fill : which == 1 ? p->cg_fill : p->commit;
        if (!known(y))
            continue;
        double x = (double)(p->t_ms - tl) / 1000.0;
        n += 1;
        sx += x;
        sy += (double)y;
        sxx += x * x;
        sxy += x * (double)y;
    }
    double den = n * sxx - sx * sx;
    if (n < 3 || den <= 0)
        return false;
    *out = (n * sxy - sx * sy) / den;
    return true;
}

HR_HOT static void rates(const hr_wsample *prev, hr_wsample *s)
{
    int64_t dt = s->t_ms - prev->t_ms;
    if (dt <= 0)
        return;
    if (s->pages_in_ps < 0 && known(s->pages_in_total) && known(prev->pages_in_total) &&
        s->pages_in_total >= prev->pages_in_total)
        s->pages_in_ps = (double)(s->pages_in_total - prev->pages_in_total) * 1000.0 / (double)dt;
    if (s->pages_out_ps < 0 && known(s->pages_out_total) && known(prev->pages_out_total) &&
        s->pages_out_total >= prev->pages_out_total)
        s->pages_out_ps = (double)(s->pages_out_total - prev->pages_out_total) * 1000.0 / (double)dt;
    if (s->disk_busy_pct < 0 && known(s->disk_busy_ms_total) && known(prev->disk_busy_ms_total) &&
        s->disk_busy_ms_total >= prev->disk_busy_ms_total && strcmp(s->disk, prev->disk) == 0) {
        double pct = (double)(s->disk_busy_ms_total - prev->disk_busy_ms_total) * 100.0 / (double)dt;
        s->disk_busy_pct = pct > 100.0 ? 100.0 : pct;
    }
}

HR_HOT bool hr_watch_eta_meaningful(const hr_watch *w)
{
    return w->limit_name && w->eta_s >= 0 && w->eta_s <= 10.0 * w->cfg.horizon_s && w->cap > 0 &&
           w->fill != HR_W_UNKNOWN && (double)w->fill >= w->cfg.min_fill * (double)w->cap;
}

HR_HOT void hr_warning_msg(hr_warning *wr)
{
    char v[32] = "?", l[32] = "?";
    if (wr->value != HR_W_UNKNOWN)
        hr_size_gb((uint64_t)wr->value, v, sizeof v);
    if (wr->limit != HR_W_UNKNOWN)
        hr_size_gb((uint64_t)wr->limit, l, sizeof l);
    hr_msg *m = &wr->msg;
    switch (wr->rule) {
    case HR_WRULE_S23:
        hr_msg_set(m,
                   HR_N("[S2.3] RAM over half used, commit still climbing, the paging "
                        "disk %.0f%% busy: the system is paging hard and a crash is "
                        "only a matter of time"),
                   wr->busy_pct);
        break;
    case HR_WRULE_COMMIT85:
    case HR_WRULE_COMMIT95:
        hr_msg_set(m, HR_N("%s in use %s of %s: past %d%% of the limit"),
                   wr->limit_name && strcmp(wr->limit_name, "commit") == 0 ? HR_N("commit") : HR_N("RAM + swap"), v, l,
                   wr->rule == HR_WRULE_COMMIT95 ? 95 : 85);
        hr_msg_translate_arg(m, 0); /* the limit's name */
        break;
    case HR_WRULE_CGROUP:
        hr_msg_set(m,
                   HR_N("the memory cgroup uses %s of its %s: the kernel will kill "
                        "inside it at the limit"),
                   v, l);
        break;
    case HR_WRULE_TTL:
        hr_msg_set(m,
                   HR_N("at the recent rate the limit (%s) is reached in %.0f s "
                        "(now %s)"),
                   l, wr->eta_s, v);
        break;
    case HR_WRULE_PRESSURE:
        hr_msg_set(m,
                   HR_N("memory pressure: tasks stalled on memory %.0f%% of the last "
                        "10 s"),
                   wr->busy_pct);
        break;
    default: hr_msg_set(m, "?");
    }
}

HR_HOT void hr_warning_text(const hr_warning *wr, char *out, size_t n)
{
    hr_msg_format(&wr->msg, hr_lang_get(), out, n);
}

/* One rule's condition for this sample; fires on its rising edge. */
HR_HOT static size_t rule(hr_watch *w, hr_wrule r, bool cond, const hr_warning *proto, hr_warning *out, size_t k)
{
    int64_t t = proto->t_ms;
    if (!cond) {
        if (w->active[r]) {
            if (w->quiet_since[r] < 0)
                w->quiet_since[r] = t;
            else if (t - w->quiet_since[r] >= w->cfg.rearm_ms)
                w->active[r] = false;
        }
        return k;
    }
    w->quiet_since[r] = -1;
    if (w->active[r])
        return k;
    w->active[r] = true;
    hr_warning *o = &out[k];
    *o = *proto;
    o->rule = r;
    hr_warning_msg(o);
    w->warnings++;
    if (w->first_warning_t == HR_W_UNKNOWN)
        w->first_warning_t = t;
    return k + 1;
}

HR_HOT size_t hr_watch_tick(hr_watch *w, hr_wsample *s, hr_warning out[HR_WATCH_MAX_WARNINGS])
{
    if (w->have_prev)
        rates(&w->prev, s);
    if (w->samples == 0)
        w->t0 = s->t_ms;
    w->samples++;

    hr_wpeaks *p = &w->peaks;
    maxi(&p->ram_used, s->ram_used);
    maxi(&p->commit, s->commit);
    maxi(&p->swap_used, s->swap_used);
    maxi(&p->cg_current, s->cg_current);
    maxi(&p->proc_rss, s->proc_rss);
    maxi(&p->proc_swap, s->proc_swap);
    maxi(&p->vram_used, s->vram_used);
    maxi(&p->proc_vram, s->proc_vram);
    if (known(s->ram_used))
        maxi(&p->ram_swap_used, s->ram_used + (known(s->swap_used) ? s->swap_used : 0));
    maxd(&p->disk_busy_pct, s->disk_busy_pct);
    maxd(&p->psi_full_avg10, s->psi_full_avg10);

    int64_t hf = HR_W_UNKNOWN, hc = HR_W_UNKNOWN, cf = HR_W_UNKNOWN, cc = HR_W_UNKNOWN;
    const char *hname = NULL;
    bool have_h = host_fill(s, &hf, &hc, &hname);
    bool have_c = cg_fill(s, &cf, &cc);
    hr_wpoint *pt = &w->ring[w->ring_pos];
    pt->t_ms = s->t_ms;
    pt->host_fill = have_h ? hf : HR_W_UNKNOWN;
    pt->cg_fill = have_c ? cf : HR_W_UNKNOWN;
    pt->commit = s->commit;
    w->ring_pos = (w->ring_pos + 1) % HR_WATCH_RING;
    if (w->ring_n < HR_WATCH_RING)
        w->ring_n++;

    /* the nearest limit: the one reached first at the recent slopes, else the fuller one */
    double hs = 0, cs = 0, hs_eta = -1, cs_eta = -1;
    if (have_h && slope(w, 0, &hs) && hs > 0)
        hs_eta = (double)(hc - hf) / hs;
    if (have_c && slope(w, 1, &cs) && cs > 0)
        cs_eta = (double)(cc - cf) / cs;
    if (hs_eta < 0 && hf >= hc && have_h)
        hs_eta = hs > 0 ? 0 : -1;
    if (cs_eta < 0 && cf >= cc && have_c)
        cs_eta = cs > 0 ? 0 : -1;
    bool pick_c;
    if (have_c && have_h) {
        if (cs_eta >= 0 && (hs_eta < 0 || cs_eta <= hs_eta))
            pick_c = true;
        else if (hs_eta >= 0)
            pick_c = false;
        else
            pick_c = (double)cf / (double)cc >= (double)hf / (double)hc;
    } else {
        pick_c = have_c;
    }
    if (pick_c) {
        w->fill = cf, w->cap = cc, w->slope_bps = cs, w->eta_s = cs_eta;
        w->limit_name = "cgroup";
    } else if (have_h) {
        w->fill = hf, w->cap = hc, w->slope_bps = hs, w->eta_s = hs_eta;
        w->limit_name = hname;
    } else {
        w->fill = w->cap = HR_W_UNKNOWN, w->slope_bps = 0, w->eta_s = -1;
        w->limit_name = NULL;
    }

    hr_warning proto;
    memset(&proto, 0, sizeof proto);
    proto.t_ms = s->t_ms;
    proto.time_ms = s->time_ms;
    proto.value = proto.limit = HR_W_UNKNOWN;
    proto.eta_s = w->eta_s;
    proto.busy_pct = -1;
    size_t k = 0;

    /* [S2.3] RAM over half used, commit still climbing, the paging disk at 100 % */
    {
        double cslope = 0;
        bool climbing = (known(s->commit) && slope(w, 2, &cslope) && cslope >= w->cfg.climb_bps) ||
                        (!known(s->commit) && have_h && hs >= w->cfg.climb_bps);
        bool half = known(s->ram_used) && known(s->ram_total) && s->ram_total > 0 && s->ram_used * 2 > s->ram_total;
        double pg = (s->pages_in_ps > 0 ? s->pages_in_ps : 0) + (s->pages_out_ps > 0 ? s->pages_out_ps : 0);
        bool busy = s->disk_busy_pct >= w->cfg.busy_pct || (s->disk_busy_pct < 0 && pg >= w->cfg.paging_ps);
        hr_warning q = proto;
        q.level = HR_WLEVEL_CRITICAL;
        q.value = s->commit;
        q.limit = s->commit_limit;
        q.busy_pct = s->disk_busy_pct >= 0 ? s->disk_busy_pct : 100.0;
        k = rule(w, HR_WRULE_S23, half && climbing && busy, &q, out, k);
    }
    /* commit (or RAM + swap) at 95 % and 85 % of the limit */
    {
        hr_warning q = proto;
        q.value = hf;
        q.limit = hc;
        q.limit_name = hname;
        bool c95 = have_h && (double)hf >= 0.95 * (double)hc;
        bool c85 = have_h && (double)hf >= 0.85 * (double)hc;
        q.level = HR_WLEVEL_CRITICAL;
        k = rule(w, HR_WRULE_COMMIT95, c95, &q, out, k);
        if (c95)
            w->active[HR_WRULE_COMMIT85] = true; /* passed it already: no second, milder line */
        q.level = HR_WLEVEL_WARN;
        k = rule(w, HR_WRULE_COMMIT85, c85, &q, out, k);
    }
    /* the cgroup near its limit */
    {
        hr_warning q = proto;
        q.level = HR_WLEVEL_CRITICAL;
        q.value = cf;
        q.limit = cc;
        q.eta_s = cs_eta;
        k = rule(w, HR_WRULE_CGROUP, have_c && (double)cf >= 0.9 * (double)cc, &q, out, k);
    }
    /* time to the nearest limit */
    {
        hr_warning q = proto;
        q.value = w->fill;
        q.limit = w->cap;
        q.level = w->eta_s >= 0 && w->eta_s < 10.0 ? HR_WLEVEL_CRITICAL : HR_WLEVEL_WARN;
        bool cond = hr_watch_eta_meaningful(w) && w->eta_s <= w->cfg.horizon_s;
        k = rule(w, HR_WRULE_TTL, cond, &q, out, k);
    }
    /* PSI */
    {
        hr_warning q = proto;
        q.level = HR_WLEVEL_WARN;
        q.busy_pct = s->psi_full_avg10;
        k = rule(w, HR_WRULE_PRESSURE, s->psi_full_avg10 >= w->cfg.psi_full, &q, out, k);
    }

    w->prev = *s;
    w->have_prev = true;
    return k;
}
