/* watch --protect's policy (core/watch/protect.h) on sample series run through watch's own
 * tick: nothing on a quiet machine, /free once when the limit is imminent (named by the
 * warning that made it so), /interrupt once when the fill still climbs after the free had
 * time to settle, nothing more while near, and a fresh /free after the limit receded. */
#include "core/base/size.h"
#include "core/watch/protect.h"
#include "core/watch/watch.h"
#include "test.h"

#define GB ((int64_t)HR_GIB)
#define MB ((int64_t)HR_MIB)

typedef struct series {
    hr_watch w;
    hr_protect p;
    int64_t interval_ms;
    int64_t t_ms;
    int frees, interrupts;
    int64_t free_t, interrupt_t;
    const char *free_reason, *interrupt_reason;
} series;

static void series_init(series *x, int64_t interval_ms)
{
    memset(x, 0, sizeof *x);
    hr_watch_init(&x->w, NULL);
    hr_protect_init(&x->p);
    x->interval_ms = interval_ms;
}

/* One sample of a Windows machine whose commit limit is enforced (48 GB): watch ticks, then
 * the policy steps on what the tick left, as the link does. */
static hr_protect_act sample(series *x, int64_t commit)
{
    hr_wsample s;
    hr_wsample_init(&s);
    s.t_ms = x->t_ms;
    s.time_ms = 1764702000000 + x->t_ms;
    s.ram_total = 32 * GB;
    s.ram_used = 20 * GB;
    s.commit = commit;
    s.commit_limit = 48 * GB;
    s.commit_enforced = true;
    hr_warning wr[HR_WATCH_MAX_WARNINGS];
    size_t nw = hr_watch_tick(&x->w, &s, wr);
    hr_protect_in in = { .t_ms = s.t_ms,
                         .active = x->w.active,
                         .wr = wr,
                         .nw = nw,
                         .fill = x->w.fill,
                         .slope_bps = x->w.slope_bps,
                         .climb_bps = x->w.cfg.climb_bps,
                         .interval_ms = x->interval_ms };
    hr_protect_decision d = hr_protect_step(&x->p, &in);
    if (d.act == HR_PROTECT_FREE) {
        if (x->frees++ == 0) {
            x->free_t = s.t_ms;
            x->free_reason = d.reason;
        }
    } else if (d.act == HR_PROTECT_INTERRUPT) {
        if (x->interrupts++ == 0) {
            x->interrupt_t = s.t_ms;
            x->interrupt_reason = d.reason;
        }
    } else {
        CHECK(d.reason == NULL);
    }
    x->t_ms += x->interval_ms;
    return d.act;
}

/* A quiet machine at 60 % of its commit limit: never an action. */
static void test_quiet(void)
{
    series x;
    series_init(&x, 1000);
    for (int i = 0; i < 60; i++)
        sample(&x, 29 * GB + (i % 3) * MB);
    CHECK_EQ_I64(x.frees, 0);
    CHECK_EQ_I64(x.interrupts, 0);
    CHECK_EQ_I64(x.p.stage, 0);
}

/* Commit climbs 200 MB/s through 95 %: /free at the sample that crosses it (commit-95, the
 * warning that fired with it), and as the climb goes on, /interrupt two seconds later (the
 * settle time at a 1 s interval), each once however long it stays near. */
static void test_climb_free_then_interrupt(void)
{
    series x;
    series_init(&x, 1000);
    int64_t commit = 40 * GB;
    int64_t cross_t = -1;
    for (int i = 0; i < 40; i++) {
        if (cross_t < 0 && commit * 100 >= 48 * GB * 95)
            cross_t = x.t_ms;
        sample(&x, commit);
        commit += 200 * MB;
        if (commit > 48 * GB - 64 * MB)
            commit = 48 * GB - 64 * MB;
    }
    CHECK_EQ_I64(x.frees, 1);
    CHECK_EQ_I64(x.interrupts, 1);
    CHECK(x.free_reason != NULL);
    /* time-to-limit may fire first at this slope: the reason is whichever made it near */
    CHECK(x.free_reason && (strcmp(x.free_reason, "commit-95") == 0 || strcmp(x.free_reason, "time-to-limit") == 0));
    CHECK(cross_t >= 0 && x.free_t <= cross_t);
    CHECK_STR(x.interrupt_reason, "still-climbing");
    CHECK_EQ_I64(x.interrupt_t - x.free_t, 2000);
    CHECK_EQ_I64(x.p.stage, 2);
}

/* Commit jumps to 97 % and stays flat: the free is asked, and as the fill no longer climbs
 * the prompt is left to run. */
static void test_free_then_flat(void)
{
    series x;
    series_init(&x, 1000);
    for (int i = 0; i < 5; i++)
        sample(&x, 30 * GB);
    for (int i = 0; i < 30; i++)
        sample(&x, 48 * GB * 97 / 100);
    CHECK_EQ_I64(x.frees, 1);
    CHECK_STR(x.free_reason, "commit-95");
    CHECK_EQ_I64(x.interrupts, 0);
    CHECK_EQ_I64(x.p.stage, 1);
    /* a creep of half a MiB a second, past the free's fill but under watch's climb rate (1
     * MiB/s): still no interrupt */
    int64_t commit = 48 * GB * 97 / 100;
    for (int i = 0; i < 20; i++) {
        commit += 512 * 1024;
        sample(&x, commit);
    }
    CHECK(x.w.fill > x.p.fill_at_free);
    CHECK(x.w.slope_bps > 0 && x.w.slope_bps < x.w.cfg.climb_bps);
    CHECK_EQ_I64(x.interrupts, 0);
}

/* The free worked: the fill falls below where it was and climbs again slower than before,
 * still under it: no interrupt (the prompt is not growing past what was freed). */
static void test_free_fill_below(void)
{
    series x;
    series_init(&x, 1000);
    sample(&x, 30 * GB);
    sample(&x, 48 * GB * 97 / 100);
    CHECK_EQ_I64(x.frees, 1);
    int64_t at_free = x.p.fill_at_free;
    CHECK(at_free > 0);
    /* down by 1.5 GB (still over 95 %), then climbing 20 MB/s, ending below the free's fill */
    int64_t commit = 48 * GB * 97 / 100 - 1536 * MB / 4;
    for (int i = 0; i < 15; i++) {
        sample(&x, commit);
        commit += 20 * MB;
    }
    CHECK(x.w.fill < at_free);
    CHECK_EQ_I64(x.interrupts, 0);
}

/* The settle time is two intervals, at least 2 s: at a 5 s interval the climb after the free
 * is judged 10 s later, not sooner. */
static void test_settle_slow_interval(void)
{
    series x;
    series_init(&x, 5000);
    int64_t commit = 44 * GB;
    for (int i = 0; i < 12; i++) {
        sample(&x, commit);
        commit += 300 * MB;
        if (commit > 48 * GB - 16 * MB)
            commit = 48 * GB - 16 * MB;
    }
    CHECK_EQ_I64(x.frees, 1);
    CHECK_EQ_I64(x.interrupts, 1);
    CHECK_EQ_I64(x.interrupt_t - x.free_t, 10000);
}

/* ...and at a 750 ms interval, at least 2 s (the third sample after the free), not two
 * intervals. */
static void test_settle_fast_interval(void)
{
    series x;
    series_init(&x, 750);
    int64_t commit = 44 * GB;
    for (int i = 0; i < 60; i++) {
        sample(&x, commit);
        commit += 150 * MB;
        if (commit > 48 * GB - 16 * MB)
            commit = 48 * GB - 16 * MB;
    }
    CHECK_EQ_I64(x.frees, 1);
    CHECK_EQ_I64(x.interrupts, 1);
    CHECK_EQ_I64(x.interrupt_t - x.free_t, 2250);
}

/* Near, then well under the limit for a while, then near again: a second /free, since the
 * policy starts over once nothing says the limit is imminent. */
static void test_recede_and_return(void)
{
    series x;
    series_init(&x, 1000);
    sample(&x, 30 * GB);
    sample(&x, 48 * GB * 97 / 100);
    CHECK_EQ_I64(x.frees, 1);
    for (int i = 0; i < 30; i++)
        sample(&x, 30 * GB);
    CHECK_EQ_I64(x.p.stage, 0);
    sample(&x, 48 * GB * 97 / 100);
    CHECK_EQ_I64(x.frees, 2);
}

/* The link comes up while the limit is already near (its warning fired before): the reason
 * is the rule that is active, in the order commit-95, cgroup-near, time-to-limit. */
static void test_reason_from_active(void)
{
    bool active[HR_WRULE_COUNT] = { 0 };
    hr_protect p;
    hr_protect_in in = { .t_ms = 1000, .active = active, .interval_ms = 1000 };

    hr_protect_init(&p);
    active[HR_WRULE_TTL] = true;
    active[HR_WRULE_CGROUP] = true;
    hr_protect_decision d = hr_protect_step(&p, &in);
    CHECK(d.act == HR_PROTECT_FREE);
    CHECK_STR(d.reason, "cgroup-near");

    hr_protect_init(&p);
    active[HR_WRULE_COMMIT95] = true;
    d = hr_protect_step(&p, &in);
    CHECK_STR(d.reason, "commit-95");

    hr_protect_init(&p);
    memset(active, 0, sizeof active);
    active[HR_WRULE_TTL] = true;
    d = hr_protect_step(&p, &in);
    CHECK_STR(d.reason, "time-to-limit");

    /* commit-85 and the others are warnings, not "the limit is imminent" */
    hr_protect_init(&p);
    memset(active, 0, sizeof active);
    active[HR_WRULE_COMMIT85] = true;
    active[HR_WRULE_S23] = true;
    active[HR_WRULE_PRESSURE] = true;
    d = hr_protect_step(&p, &in);
    CHECK(d.act == HR_PROTECT_NONE);
}

int main(void)
{
    test_quiet();
    test_climb_free_then_interrupt();
    test_free_then_flat();
    test_free_fill_below();
    test_settle_slow_interval();
    test_settle_fast_interval();
    test_recede_and_return();
    test_reason_from_active();
    return TEST_DONE();
}
