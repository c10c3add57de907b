/* headroom — the OS-neutral step loop of apply (core/apply/apply_run.h) and its state store,
 * run with an in-memory state file and a table of operations that can be told to fail: the
 * journal's order (the intent on disk before each change), what a failure leaves (undone,
 * uncertain, refused, not started), a failed record, both failpoints, a repair run's status.
 * The real operations run against real file systems in apply.root.* and the Windows
 * registry under Wine (test_apply_win); this pins the loop's rules once for both. Also the
 * UTC stamps the state and the backups are named with, against the C library's gmtime. */
#include "test.h"

#include "core/apply/apply_run.h"
#include "core/apply/apply_store.h"
#include "core/base/utc.h"

#include <stdlib.h>
#include <time.h>

/* ---- an in-memory state directory ---- */

static struct {
    bool exists;
    char bytes[HR_APPLY_STATE_MAX_BYTES];
    size_t len;
    int saves;
    int fail_save_at; /* the Nth save fails (1-based); 0 never */
} disk;

static int mem_read(const char *path, hr_buf *b, size_t max, hr_error *err)
{
    hr_buf_reset(b);
    if (!disk.exists)
        return hr_error_set(err, HR_ENOENT, "%s: not found", path);
    if (disk.len > max)
        return hr_error_set(err, HR_ETOOBIG, "%s: too big", path);
    return hr_buf_append(b, disk.bytes, disk.len);
}

static int mem_replace(const char *path, const void *data, size_t len, unsigned mode, hr_error *err)
{
    (void)mode;
    if (++disk.saves == disk.fail_save_at)
        return hr_error_set(err, HR_EIO, "%s: disk full", path);
    memcpy(disk.bytes, data, len);
    disk.len = len;
    disk.exists = true;
    return 0;
}

static int mem_mkdir(const char *dir, hr_error *err)
{
    (void)dir, (void)err;
    return 0;
}

static const hr_apply_store store = { "/state", '/', HR_OS_LINUX, mem_read, mem_replace, mem_mkdir };

static hr_apply_state on_disk(void)
{
    hr_apply_state s;
    hr_error e = { 0 };
    memset(&s, 0, sizeof s);
    int r = hr_apply_store_load(&store, &s, &e);
    CHECK_EQ_I64(r, 1);
    return s;
}

/* ---- operations that record what they saw ---- */

static struct {
    char log[1024];
    const char *fail_step;   /* perform of this step fails */
    const char *refuse_step; /* prepare of this step fails */
} ops_ctl;

static int t_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    (void)os, (void)plan;
    if (ops_ctl.refuse_step && strcmp(ops_ctl.refuse_step, s->name) == 0)
        return hr_error_set(err, HR_EUNSAFE, "%s: refused", s->name);
    hr_strlcpy(st->intent.path, s->path, sizeof st->intent.path);
    char ap[64];
    snprintf(ap, sizeof ap, "/area/%s", s->name);
    hr_apply_area *a = hr_apply_state_add(st, ap); /* a record the step makes */
    if (a)
        a->created = true;
    return 0;
}

static int t_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    (void)os, (void)plan;
    /* The journal's rule: the intent of this step is on disk now. */
    hr_apply_state d = on_disk();
    CHECK_STR(d.intent.step, s->name);
    CHECK_STR(d.intent.path, s->path);
    CHECK_STR(d.status, "in-progress");
    strncat(ops_ctl.log, s->name, sizeof ops_ctl.log - strlen(ops_ctl.log) - 2);
    strcat(ops_ctl.log, " ");
    if (ops_ctl.fail_step && strcmp(ops_ctl.fail_step, s->name) == 0)
        return hr_error_set(err, HR_EIO, "%s: failed", s->name);
    char ap[64];
    snprintf(ap, sizeof ap, "/area/%s", s->name);
    hr_apply_area *a = hr_apply_state_find(st, ap);
    if (a)
        a->enabled = true;
    return 0;
}

static int t_skip(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    (void)os, (void)st, (void)plan, (void)s, (void)err;
    return HR_APPLY_STEP_SKIP;
}

static const hr_apply_op table[] = {
    { HR_STEP_RECORD, NULL, NULL, false },
    { HR_STEP_CREATE_FILE, t_prepare, t_perform, false },
    { HR_STEP_SWAPON, t_prepare, t_perform, false },
    { HR_STEP_FSTAB_ADD, t_prepare, t_perform, true }, /* uncertain, like a rename */
    { HR_STEP_DELETE_OLD, t_skip, t_perform, false },
    { HR_STEP_FINISH, NULL, NULL, false },
};

static void make_plan(hr_apply_plan *p)
{
    memset(p, 0, sizeof *p);
    p->os = HR_OS_LINUX;
    static const struct {
        hr_step_kind k;
        const char *name, *path;
    } steps[] = {
        { HR_STEP_RECORD, "record", "" },
        { HR_STEP_CREATE_FILE, "create-file", "/swap" },
        { HR_STEP_SWAPON, "swapon", "/swap" },
        { HR_STEP_FSTAB_ADD, "fstab-add", "/etc/fstab" },
        { HR_STEP_DELETE_OLD, "delete-old", "/old" },
        { HR_STEP_FINISH, "finish", "" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        p->steps[i].kind = steps[i].k;
        hr_strlcpy(p->steps[i].name, steps[i].name, sizeof p->steps[i].name);
        hr_strlcpy(p->steps[i].path, steps[i].path, sizeof p->steps[i].path);
        hr_msg_set(&p->steps[i].msg, "do %s", steps[i].name);
    }
    p->step_count = (int)(sizeof steps / sizeof steps[0]);
}

static void reset(void)
{
    memset(&disk, 0, sizeof disk);
    memset(&ops_ctl, 0, sizeof ops_ctl);
}

static int run(const hr_apply_plan *p, const char *failpoint, hr_buf *log, hr_error *err)
{
    const hr_apply_ops ops = { &store, NULL, table, sizeof table / sizeof table[0] };
    hr_buf_reset(log);
    memset(err, 0, sizeof *err);
    return hr_apply_run(&ops, p, failpoint, 1700000000, log, err);
}

int main(void)
{
    hr_apply_plan *p = malloc(sizeof *p);
    make_plan(p);
    hr_buf log;
    hr_buf_init(&log, 0);
    hr_error err = { 0 };

    /* Every step, in order; the state ends applied with nothing open. */
    reset();
    CHECK_EQ_I64(run(p, NULL, &log, &err), 0);
    CHECK_STR(ops_ctl.log, "create-file swapon fstab-add "); /* delete-old skipped */
    hr_apply_state d = on_disk();
    CHECK_STR(d.status, "applied");
    CHECK_STR(d.last_step, "finish");
    CHECK_STR(d.intent.step, "");
    CHECK_STR(d.started, "2023-11-14T22:13:20Z");
    CHECK_EQ_I64(d.area_count, 3);
    CHECK(d.areas[0].enabled && d.areas[1].enabled);
    CHECK_CONTAINS(hr_buf_str(&log), "done: [delete-old] do delete-old\ndone: [finish] do finish\n");
    /* 6 steps, of which one skipped: an intent and a record for 5, a record for 1. */
    CHECK_EQ_I64(disk.saves, 11);

    /* A failure that undid itself: the state as before the step, the intent closed. */
    reset();
    ops_ctl.fail_step = "swapon";
    CHECK_EQ_I64(run(p, NULL, &log, &err), HR_EIO);
    d = on_disk();
    CHECK_STR(d.intent.step, "");
    CHECK_STR(d.last_step, "create-file");
    CHECK_STR(d.status, "in-progress");
    CHECK_EQ_I64(d.area_count, 1); /* swapon's own record is gone with it */
    CHECK_CONTAINS(hr_buf_str(&log), "FAILED: [swapon] do swapon\n");

    /* An uncertain failure: the intent stays on disk for recovery to judge. */
    reset();
    ops_ctl.fail_step = "fstab-add";
    CHECK_EQ_I64(run(p, NULL, &log, &err), HR_EIO);
    d = on_disk();
    CHECK_STR(d.intent.step, "fstab-add");
    CHECK_STR(d.intent.path, "/etc/fstab");
    CHECK_STR(d.last_step, "swapon");

    /* A refusal before the change: nothing of the step is recorded; the change never ran. */
    reset();
    ops_ctl.refuse_step = "swapon";
    CHECK_EQ_I64(run(p, NULL, &log, &err), HR_EUNSAFE);
    CHECK_STR(ops_ctl.log, "create-file ");
    d = on_disk();
    CHECK_STR(d.intent.step, "");
    CHECK_EQ_I64(d.area_count, 1);

    /* The intent cannot be written: the step is not started, and says so. */
    reset();
    disk.fail_save_at = 3; /* record's intent, record's record, create-file's intent */
    CHECK_EQ_I64(run(p, NULL, &log, &err), HR_EIO);
    CHECK_STR(ops_ctl.log, "");
    CHECK_CONTAINS(hr_buf_str(&log), "FAILED: [create-file] not started");
    CHECK_STR(on_disk().last_step, "record");

    /* The step is done but its record cannot be written: reported, never called recorded. */
    reset();
    disk.fail_save_at = 4;
    CHECK_EQ_I64(run(p, NULL, &log, &err), HR_EIO);
    CHECK_CONTAINS(hr_buf_str(&log), "done: [create-file] do create-file\n"
                                     "FAILED: recording step [create-file] as done in the state file\n");
    d = on_disk();
    CHECK_STR(d.intent.step, "create-file"); /* the next run's recovery finishes it */

    /* Failpoints: "NAME" after the record, "NAME!" after the change and before its record. */
    reset();
    CHECK_EQ_I64(run(p, "swapon", &log, &err), 1);
    d = on_disk();
    CHECK_STR(d.last_step, "swapon");
    CHECK_STR(d.intent.step, "");
    CHECK_CONTAINS(hr_buf_str(&log), "stopped at failpoint 'swapon'");
    reset();
    CHECK_EQ_I64(run(p, "swapon!", &log, &err), 1);
    d = on_disk();
    CHECK_STR(d.last_step, "create-file");
    CHECK_STR(d.intent.step, "swapon");
    CHECK(!strstr(hr_buf_str(&log), "done: [swapon]"));

    /* A repair run on an applied state whose first change is refused: the state file still
     * says applied (nothing was changed), and keeps its first start. */
    reset();
    CHECK_EQ_I64(run(p, NULL, &log, &err), 0);
    ops_ctl.refuse_step = "create-file";
    const hr_apply_ops ops = { &store, NULL, table, sizeof table / sizeof table[0] };
    CHECK_EQ_I64(hr_apply_run(&ops, p, NULL, 1800000000, &log, &err), HR_EUNSAFE);
    d = on_disk();
    CHECK_STR(d.status, "applied");
    CHECK_STR(d.started, "2023-11-14T22:13:20Z");

    /* A state file of the other OS is refused, naming the file. */
    hr_apply_store win = store;
    win.os = HR_OS_WINDOWS;
    hr_apply_state s2;
    CHECK_EQ_I64(hr_apply_store_load(&win, &s2, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/state/apply-state.json: a Linux state file");
    /* No state file: 0, and no error left behind. */
    reset();
    memset(&err, 0, sizeof err);
    CHECK_EQ_I64(hr_apply_store_load(&store, &s2, &err), 0);
    CHECK_STR(err.msg, "");
    /* A state directory too long for a path: an error, never a truncated name. */
    char longdir[HR_APPLY_STORE_PATH_MAX];
    memset(longdir, 'd', sizeof longdir - 1);
    longdir[sizeof longdir - 1] = '\0';
    hr_apply_store lst = store;
    lst.dir = longdir;
    CHECK_EQ_I64(hr_apply_store_save(&lst, &d, &err), HR_ERANGE);
    CHECK(!disk.exists);

    /* UTC stamps against gmtime, over the whole range the state file can hold. */
    char a[HR_UTC_STAMP_MAX], b[64];
    hr_utc_stamp(0, false, a);
    CHECK_STR(a, "1970-01-01T00:00:00Z");
    hr_utc_stamp(951782400, true, a); /* a leap day */
    CHECK_STR(a, "20000229T000000Z");
    hr_utc_stamp(-5, false, a);
    CHECK_STR(a, "1970-01-01T00:00:00Z");
    hr_utc_stamp(INT64_MAX, false, a);
    CHECK_STR(a, "9999-12-31T23:59:59Z");
    int mismatches = 0;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        time_t t = (time_t)(x % 253402300800ULL);
        if (i < 2000)
            t = (time_t)(i * 86399LL * 365 / 7); /* dense near the epoch, across leap years */
        struct tm *g = gmtime(&t);
        if (!g)
            continue;
        strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", g);
        hr_utc_stamp((int64_t)t, false, a);
        if (strcmp(a, b) != 0 && mismatches++ < 5)
            fprintf(stderr, "utc %lld: %s != %s\n", (long long)t, a, b);
    }
    CHECK_EQ_I64(mismatches, 0);

    hr_buf_free(&log);
    free(p);
    return TEST_DONE();
}
