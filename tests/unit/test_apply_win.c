/* Windows apply/rollback/verify against the real registry (Wine's, in the test run):
 * the PagingFiles value is checked after every step (failpoints), value by value against
 * the S3.1 order; rollback restores the original bytes and type; the original value is put
 * back at the end whatever happens. Built for Windows only (make test-windows). */
#include "test.h"

#ifdef _WIN32
#include "core/apply/apply_plan.h"
#include "core/base/size.h"
#include "platform/platform.h"

#include <windows.h>

#include <stdlib.h>

#define KEY L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management"
#define CC  L"SYSTEM\\CurrentControlSet\\Control\\CrashControl"

typedef struct raw_value {
    bool present;
    DWORD type;
    DWORD cb;
    BYTE data[8192];
} raw_value;

/* Any value's bytes as stored, and putting them back (absent: deleted). */
/* The plan's notes in English (the JSON's language). */
static const char *notes_en(const hr_apply_plan *p)
{
    static char b[2048];
    hr_apply_notes_text(p, HR_LANG_EN, b, sizeof b);
    return b;
}

/* What verify's recovery did, in English, one line each. */
static const char *recovered_en(const hr_verify_result *r)
{
    static hr_buf b;
    hr_buf_free(&b);
    hr_buf_init(&b, 0);
    hr_recovery_log_text(&r->recovered, HR_LANG_EN, &b);
    return hr_buf_str(&b);
}

static void raw_read_at(const wchar_t *key, const wchar_t *name, raw_value *v)
{
    memset(v, 0, sizeof *v);
    v->cb = sizeof v->data;
    HKEY h;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, key, 0, KEY_QUERY_VALUE, &h) != ERROR_SUCCESS) {
        v->cb = 0;
        return;
    }
    v->present = RegQueryValueExW(h, name, NULL, &v->type, v->data, &v->cb) == ERROR_SUCCESS;
    RegCloseKey(h);
    if (!v->present)
        v->cb = 0;
}

static void raw_write_at(const wchar_t *key, const wchar_t *name, const raw_value *v)
{
    if (!v->present)
        RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, key, name);
    else
        RegSetKeyValueW(HKEY_LOCAL_MACHINE, key, name, v->type, v->data, v->cb);
}

/* The bytes exactly as stored (RegQueryValueExW: no terminator added, none dropped). */
static void raw_read(raw_value *v)
{
    memset(v, 0, sizeof *v);
    v->cb = sizeof v->data;
    HKEY h;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, KEY, 0, KEY_QUERY_VALUE, &h) != ERROR_SUCCESS)
        return;
    v->present = RegQueryValueExW(h, L"PagingFiles", NULL, &v->type, v->data, &v->cb) == ERROR_SUCCESS;
    RegCloseKey(h);
    if (!v->present)
        v->cb = 0;
}

static void raw_write(const raw_value *v)
{
    if (!v->present) {
        RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles");
        return;
    }
    RegSetKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles", v->type, v->data, v->cb);
}

static void raw_set(DWORD type, const void *data, DWORD cb)
{
    RegSetKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles", type, cb ? data : NULL, cb);
}

static bool raw_equal(const raw_value *a, const raw_value *b)
{
    return a->present == b->present && a->type == b->type && a->cb == b->cb && memcmp(a->data, b->data, a->cb) == 0;
}

/* The value as "a|b" in UTF-8, for readable checks. */
static const char *value_str(void)
{
    static char out[4096];
    raw_value v;
    raw_read(&v);
    out[0] = '\0';
    if (!v.present)
        return "(missing)";
    const wchar_t *w = (const wchar_t *)v.data;
    size_t units = v.cb / 2, i = 0;
    while (i < units && w[i]) {
        char s[1024];
        WideCharToMultiByte(CP_UTF8, 0, w + i, -1, s, sizeof s, NULL, NULL);
        if (out[0])
            strcat(out, "|");
        strcat(out, s);
        i += wcslen(w + i) + 1;
    }
    return out;
}

static const char *stage_str(const hr_pfw_list *l)
{
    static char out[4096];
    out[0] = '\0';
    for (int i = 0; i < l->count; i++) {
        char e[600];
        hr_pfw_format_string(&l->e[i], e, sizeof e);
        if (i)
            strcat(out, "|");
        strcat(out, e);
    }
    return out;
}

static char pick_target(char sys)
{
    for (char d = 'D'; d <= 'Z'; d++) {
        wchar_t root[4] = { (wchar_t)d, L':', L'\\', 0 };
        if (d != sys && GetDriveTypeW(root) == DRIVE_FIXED)
            return d;
    }
    return sys;
}

int main(void)
{
    raw_value orig, start;
    raw_read(&orig);
    /* A known start: Wine's default, a custom C: file as REG_SZ. */
    static const wchar_t start_sz[] = L"C:\\pagefile.sys 27 77";
    if (RegSetKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles", REG_SZ, start_sz, sizeof start_sz) != ERROR_SUCCESS) {
        printf("SKIP: cannot write HKLM Memory Management here (not elevated)\n");
        return 0;
    }
    raw_read(&start);
    /* Crash dumps off (CrashControl, put back at the end): the small C: file is then not the
     * crash-dump file X.dump keeps, and every old file goes (the dump case is below). */
    raw_value cc_en, cc_dd;
    raw_read_at(CC, L"CrashDumpEnabled", &cc_en);
    raw_read_at(CC, L"DedicatedDumpFile", &cc_dd);
    DWORD off = 0;
    RegSetKeyValueW(HKEY_LOCAL_MACHINE, CC, L"CrashDumpEnabled", REG_DWORD, &off, sizeof off);
    RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, CC, L"DedicatedDumpFile");
    printf("elevated: %s\n", hr_platform_is_admin() ? "yes" : "no");
    CHECK(hr_platform_is_admin());

    char dir[MAX_PATH];
    char tmp[MAX_PATH];
    GetTempPathA(sizeof tmp, tmp);
    snprintf(dir, sizeof dir, "%shr-apply-test-%lu", tmp, (unsigned long)GetCurrentProcessId());
    wchar_t sysw[MAX_PATH];
    GetSystemWindowsDirectoryW(sysw, MAX_PATH);
    char sys = (char)towupper(sysw[0]);
    char target[4] = { pick_target(sys), ':', 0 };
    printf("system drive %c:, target %s\n", sys, target);

    /* Larger than the start's 77 MB maximum: apply never shrinks unless told to. */
    hr_apply_request rq = { .size_bytes = 128 * HR_MIB, .target = target, .state_dir = dir };
    hr_error err = { 0 };
    hr_apply_plan *plan = calloc(1, sizeof *plan);
    CHECK(hr_platform_apply_plan(&rq, plan, &err) == 0);
    if (err.msg[0])
        printf("plan: %s\n", err.msg);
    hr_buf log;
    hr_buf_init(&log, 0);
    hr_apply_plan_text(plan, &log);
    printf("%s", hr_buf_str(&log));
    CHECK(plan->reboot_needed);
    CHECK(plan->stage_count >= 1);

    /* Stop after every step: the value is exactly the stage's; rollback restores the start. */
    for (int i = 0; i < plan->step_count; i++) {
        hr_apply_request r2 = rq;
        r2.failpoint = plan->steps[i].name;
        hr_buf_reset(&log);
        int rc = hr_platform_apply_run(&r2, plan, &log, &err);
        CHECK_EQ_I64(rc, 1);
        const char *want = plan->steps[i].kind == HR_STEP_BACKUP_REGISTRY ? "C:\\pagefile.sys 27 77"
                           : plan->steps[i].kind == HR_STEP_FINISH
                               ? stage_str(&plan->stages[plan->stage_count - 1].value)
                               : stage_str(&plan->stages[plan->steps[i].stage].value);
        printf("after %-22s PagingFiles = %s\n", plan->steps[i].name, value_str());
        CHECK_STR(value_str(), want);
        /* Every intermediate value names at least one paging file. */
        CHECK(strlen(value_str()) > 0);
        if (plan->steps[i].kind != HR_STEP_FINISH) {
            hr_apply_plan p2;
            CHECK(hr_platform_apply_plan(&rq, &p2, &err) == HR_EUNSAFE);
            /* verify calls it an interrupted apply and names the command that undoes it. */
            hr_verify_result *vs = calloc(1, sizeof *vs);
            CHECK(hr_platform_verify(&rq, vs, &err) == 0);
            CHECK_EQ_I64(vs->verdict, HR_VERDICT_DIFFER);
            hr_buf_reset(&log);
            hr_verify_text(vs, &log);
            CHECK_CONTAINS(hr_buf_str(&log), "headroom rollback --yes");
            free(vs);
        }
        hr_buf_reset(&log);
        CHECK(hr_platform_rollback(&rq, false, &log, &err) == 1);
        raw_value now;
        raw_read(&now);
        CHECK(raw_equal(&now, &start)); /* same bytes, and REG_SZ again */
    }

    /* A kill between each registry write and its record ("NAME!" stops right there): verify
     * says an apply was interrupted, and rollback still restores the original bytes. */
    int kills = 0, recovered = 0;
    for (int i = 0; i < plan->step_count; i++) {
        if (plan->steps[i].kind != HR_STEP_WRITE_PAGING_FILES)
            continue;
        char fp[64];
        snprintf(fp, sizeof fp, "%s!", plan->steps[i].name);
        hr_apply_request r2 = rq;
        r2.failpoint = fp;
        hr_buf_reset(&log);
        CHECK_EQ_I64(hr_platform_apply_run(&r2, plan, &log, &err), 1);
        CHECK_STR(value_str(), stage_str(&plan->stages[plan->steps[i].stage].value));
        hr_verify_result *vr0 = calloc(1, sizeof *vr0);
        /* Without the lock verify only reports it, naming the step cut short. */
        CHECK(hr_platform_verify(&rq, vr0, &err) == 0);
        CHECK_EQ_I64(vr0->verdict, HR_VERDICT_DIFFER);
        hr_buf_reset(&log);
        hr_verify_text(vr0, &log);
        CHECK_CONTAINS(hr_buf_str(&log), "headroom rollback --yes");
        CHECK_CONTAINS(hr_buf_str(&log), "was cut short");
        CHECK_EQ_I64(vr0->recovered.count, 0);
        /* Holding the lock (as 'headroom verify' does as administrator), verify reads the
         * journal against the value: the write was done (the value is the stage's), the state
         * records it, and the apply is still reported as interrupted. The kill in the first of
         * several writes: the value put back as it was before it, and verify finds it was not done. */
        bool undo = plan->steps[i].stage == 0 && plan->stage_count > 1; /* before it: the start */
        if (undo)
            raw_write(&start);
        CHECK_EQ_I64(hr_platform_lock(&rq, false, 0, &err), 1);
        memset(vr0, 0, sizeof *vr0);
        CHECK(hr_platform_verify(&rq, vr0, &err) == 0);
        hr_platform_unlock();
        hr_buf_reset(&log);
        hr_verify_text(vr0, &log);
        printf("verify after a kill in %s%s:\n%s", plan->steps[i].name, undo ? " (value put back)" : "",
               hr_buf_str(&log));
        char want_rec[128];
        snprintf(want_rec, sizeof want_rec, "recovered: step '%s' was cut short; %s", plan->steps[i].name,
                 undo ? "it was not done" : "it was done");
        CHECK_CONTAINS(recovered_en(vr0), want_rec);
        CHECK_EQ_I64(vr0->verdict, HR_VERDICT_DIFFER);
        CHECK_CONTAINS(hr_buf_str(&log), "fixed");
        CHECK_CONTAINS(hr_buf_str(&log), "headroom rollback --yes");
        /* A second verify has nothing left to recover. */
        CHECK_EQ_I64(hr_platform_lock(&rq, false, 0, &err), 1);
        memset(vr0, 0, sizeof *vr0);
        CHECK(hr_platform_verify(&rq, vr0, &err) == 0);
        hr_platform_unlock();
        CHECK_EQ_I64(vr0->recovered.count, 0);
        recovered++;
        free(vr0);
        hr_buf_reset(&log);
        CHECK_EQ_I64(hr_platform_rollback(&rq, false, &log, &err), 1);
        raw_value now;
        raw_read(&now);
        CHECK(raw_equal(&now, &start));
        kills++;
    }
    /* A kill right after the backup, before its record: the journal names the step; verify
     * holding the lock closes it (nothing was written to the registry), rollback removes the
     * records and the value is the start's. */
    {
        hr_apply_request r2 = rq;
        r2.failpoint = "backup-registry!";
        hr_buf_reset(&log);
        CHECK_EQ_I64(hr_platform_apply_run(&r2, plan, &log, &err), 1);
        CHECK_CONTAINS(hr_buf_str(&log), "stopped at failpoint 'backup-registry!'");
        hr_verify_result *vb = calloc(1, sizeof *vb);
        CHECK_EQ_I64(hr_platform_lock(&rq, false, 0, &err), 1);
        CHECK(hr_platform_verify(&rq, vb, &err) == 0);
        hr_platform_unlock();
        CHECK_CONTAINS(recovered_en(vb), "recovered: step 'backup-registry' was cut short; checked");
        CHECK_EQ_I64(vb->verdict, HR_VERDICT_DIFFER); /* still an apply that did not finish */
        free(vb);
        hr_buf_reset(&log);
        CHECK_EQ_I64(hr_platform_rollback(&rq, false, &log, &err), 1);
        raw_value now;
        raw_read(&now);
        CHECK(raw_equal(&now, &start));
    }

    printf("registry kills between write and record: %d, recovered by verify: %d, inconsistent: 0 unless a "
           "CHECK failed\n",
           kills, recovered);
    CHECK(kills >= 1);

    /* The whole thing. */
    hr_buf_reset(&log);
    CHECK(hr_platform_apply_run(&rq, plan, &log, &err) == 0);
    char want_final[64];
    snprintf(want_final, sizeof want_final, "%c:\\pagefile.sys 128 128", target[0]);
    CHECK_STR(value_str(), want_final);
    raw_value after;
    raw_read(&after);
    CHECK_EQ_U64(after.type, REG_MULTI_SZ);
    hr_verify_result *vr = calloc(1, sizeof *vr);
    CHECK(hr_platform_verify(&rq, vr, &err) == 0);
    hr_buf_reset(&log);
    hr_verify_text(vr, &log);
    printf("%s", hr_buf_str(&log));
    /* Written after this boot began: it waits for the reboot (or, on the system drive with
     * nothing else open, may already match under Wine). */
    CHECK(vr->verdict == HR_VERDICT_PENDING_REBOOT || vr->verdict == HR_VERDICT_MATCH);
    free(vr);
    /* Idempotent. */
    hr_apply_plan *again = calloc(1, sizeof *again);
    CHECK(hr_platform_apply_plan(&rq, again, &err) == 0);
    CHECK(again->nothing_to_do);
    free(again);
    /* Dry-run rollback changes nothing; a foreign change blocks rollback. */
    hr_buf_reset(&log);
    CHECK(hr_platform_rollback(&rq, true, &log, &err) == 1);
    CHECK_CONTAINS(hr_buf_str(&log), "would restore PagingFiles");
    CHECK_STR(value_str(), want_final);
    static const wchar_t foreign[] = L"C:\\pagefile.sys 1 2\0";
    RegSetKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles", REG_MULTI_SZ, foreign, sizeof foreign);
    CHECK(hr_platform_rollback(&rq, false, &log, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "changed since");
    raw_write(&after);
    hr_buf_reset(&log);
    CHECK(hr_platform_rollback(&rq, false, &log, &err) == 1);
    printf("%s", hr_buf_str(&log));
    raw_value now;
    raw_read(&now);
    CHECK(raw_equal(&now, &start));

    /* Never less paging file than is configured (issue 10): 10 GiB configured, --size 1G is
     * refused naming both sizes; --allow-shrink plans it and says how much goes. */
    {
        wchar_t big[128];
        size_t bl = 0;
        const char *parts[2] = { "C:\\pagefile.sys 2048 2048", "X:\\pagefile.sys 8192 8192" };
        if (target[0] == 'C')
            parts[0] = "C:\\pagefile.sys 10240 10240", parts[1] = NULL;
        for (int k = 0; k < 2 && parts[k]; k++) {
            for (const char *c = parts[k]; *c; c++)
                big[bl++] = (wchar_t)(k == 1 && c == parts[k] ? target[0] : *c);
            big[bl++] = 0;
        }
        big[bl++] = 0;
        raw_set(REG_MULTI_SZ, big, (DWORD)(bl * sizeof(wchar_t)));
        raw_value before;
        raw_read(&before);
        hr_apply_request small = rq;
        small.size_bytes = HR_GIB;
        hr_error e2 = { 0 };
        CHECK_EQ_I64(hr_platform_apply_plan(&small, plan, &e2), HR_EUNSAFE);
        printf("shrink refused: %s\n", e2.msg);
        CHECK_CONTAINS(e2.msg, "10.0 GiB configured now");
        CHECK_CONTAINS(e2.msg, "1.00 GiB after");
        CHECK_CONTAINS(e2.msg, "remove 9.00 GiB");
        CHECK_CONTAINS(e2.msg, "--allow-shrink");
        CHECK_CONTAINS(e2.msg, "pagefile.sys 8.00 GiB");
        small.allow_shrink = true;
        CHECK_EQ_I64(hr_platform_apply_plan(&small, plan, &e2), 0);
        CHECK_CONTAINS(notes_en(plan), "removes 9.00 GiB");
        /* Growing is no shrink: 16 GiB is planned without the flag, and says nothing of it. */
        hr_apply_request grow = rq;
        grow.size_bytes = 16 * HR_GIB;
        CHECK_EQ_I64(hr_platform_apply_plan(&grow, plan, &e2), 0);
        CHECK(strstr(notes_en(plan), "--allow-shrink") == NULL);
        raw_value now2;
        raw_read(&now2);
        CHECK(raw_equal(&now2, &before)); /* a plan changes nothing */
    }

    /* Rollback restores PagingFiles byte for byte whatever its form (issue 10): padding,
     * tabs, bytes after the terminator, empty values of 0, 2 and 4 bytes, REG_SZ without a
     * terminator, and no value at all. */
    {
        static const wchar_t f_pad[] = L"C:\\pagefile.sys 16 16\0\0\0\0";
        static const wchar_t f_tab[] = L"C:\\pagefile.sys\t16\t16\0";
        static const wchar_t f_after[] = L"C:\\pagefile.sys 16 16\0\0junk";
        static const wchar_t f_two[] = L"C:\\pagefile.sys 16 16\0 \0";
        static const wchar_t f_sz_noterm[] = L"C:\\pagefile.sys 16 16";
        static const wchar_t f_empty[2] = { 0, 0 };
        static const struct {
            const char *name;
            DWORD type;
            const void *data;
            DWORD cb;
        } forms[] = {
            { "multi-sz padded with NULs", REG_MULTI_SZ, f_pad, sizeof f_pad },
            { "tabs between the sizes", REG_MULTI_SZ, f_tab, sizeof f_tab },
            { "bytes after the terminator", REG_MULTI_SZ, f_after, sizeof f_after - 2 },
            { "a blank second string", REG_MULTI_SZ, f_two, sizeof f_two },
            { "REG_SZ without its NUL", REG_SZ, f_sz_noterm, sizeof f_sz_noterm - 2 },
            { "empty, 0 bytes", REG_MULTI_SZ, f_empty, 0 },
            { "empty, 2 bytes", REG_MULTI_SZ, f_empty, 2 },
            { "empty, 4 bytes", REG_MULTI_SZ, f_empty, 4 },
            { "no value", REG_NONE, NULL, 0 },
        };
        int restored = 0, planned = 0;
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
            if (forms[i].type == REG_NONE)
                RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, KEY, L"PagingFiles");
            else
                raw_set(forms[i].type, forms[i].data, forms[i].cb);
            raw_value b4;
            raw_read(&b4);
            hr_error e3 = { 0 };
            int pr = hr_platform_apply_plan(&rq, plan, &e3);
            if (pr != 0) {
                printf("form '%s': apply refuses to start: %s\n", forms[i].name, e3.msg);
                continue;
            }
            planned++;
            hr_buf_reset(&log);
            CHECK_EQ_I64(hr_platform_apply_run(&rq, plan, &log, &e3), 0);
            raw_value mid;
            raw_read(&mid);
            CHECK(!raw_equal(&mid, &b4));
            hr_buf_reset(&log);
            CHECK_EQ_I64(hr_platform_rollback(&rq, false, &log, &e3), 1);
            raw_value aft;
            raw_read(&aft);
            bool same = raw_equal(&aft, &b4);
            printf("form '%s': %lu bytes, type %lu -> after apply + rollback %s\n", forms[i].name, (unsigned long)b4.cb,
                   (unsigned long)b4.type, same ? "the same bytes" : "CHANGED");
            CHECK(same);
            restored += same;
        }
        printf("byte-for-byte forms: %d planned, %d restored exactly\n", planned, restored);
        CHECK(planned >= 6);
    }

    /* X.dump (issue 10): plan keeps a small C: file for crash dumps; apply keeps the same entry
     * (one rule), so C: 4 GB + 8 GB on the target and --size 8G is nothing to do, not a
     * shrink; --size 12G writes once and C: stays; rollback restores the bytes. CrashControl
     * set here (and put back): dumps on (7, automatic), then off (0), then a dedicated file. */
    if (target[0] != sys) {
        DWORD on = 7;
        RegSetKeyValueW(HKEY_LOCAL_MACHINE, CC, L"CrashDumpEnabled", REG_DWORD, &on, sizeof on);
        RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, CC, L"DedicatedDumpFile");
        wchar_t two[128];
        size_t tl = 0;
        char t8[64];
        snprintf(t8, sizeof t8, "%c:\\pagefile.sys 8192 8192", target[0]);
        for (const char *c = "C:\\pagefile.sys 4096 4096"; *c; c++)
            two[tl++] = (wchar_t)*c;
        two[0] = (wchar_t)sys; /* the system drive's file first */
        two[tl++] = 0;
        for (const char *c = t8; *c; c++)
            two[tl++] = (wchar_t)*c;
        two[tl++] = 0;
        two[tl++] = 0;
        raw_set(REG_MULTI_SZ, two, (DWORD)(tl * sizeof(wchar_t)));
        raw_value dump_start;
        raw_read(&dump_start);
        char want_start[128], want_grown[128], sysfile[32];
        snprintf(sysfile, sizeof sysfile, "%c:\\pagefile.sys", sys);
        snprintf(want_start, sizeof want_start, "%s 4096 4096|%s", sysfile, t8);
        snprintf(want_grown, sizeof want_grown, "%s 4096 4096|%c:\\pagefile.sys 12288 12288", sysfile, target[0]);
        CHECK_STR(value_str(), want_start);
        hr_error e4 = { 0 };
        hr_apply_request same = rq;
        same.size_bytes = 8 * HR_GIB;
        int pr = hr_platform_apply_plan(&same, plan, &e4);
        printf("dumps on, C: 4 GB + %s 8 GB, --size 8G: %s%s\n", target,
               pr == 0 && plan->nothing_to_do ? "nothing to do" : "refused: ", pr == 0 ? "" : e4.msg);
        CHECK_EQ_I64(pr, 0);
        CHECK(plan->nothing_to_do);
        hr_apply_request grow = rq;
        grow.size_bytes = 12 * HR_GIB;
        pr = hr_platform_apply_plan(&grow, plan, &e4);
        if (pr != 0)
            printf("dumps on, --size 12G refused: %s\n", e4.msg);
        CHECK_EQ_I64(pr, 0);
        if (pr == 0) {
            hr_buf_reset(&log);
            hr_apply_plan_text(plan, &log);
            printf("%s", hr_buf_str(&log));
            CHECK_CONTAINS(notes_en(plan), "stays");
            hr_buf_reset(&log);
            CHECK_EQ_I64(hr_platform_apply_run(&grow, plan, &log, &e4), 0);
            printf("dumps on, after apply --size 12G: PagingFiles = %s\n", value_str());
            CHECK_STR(value_str(), want_grown);
            hr_buf_reset(&log);
            CHECK_EQ_I64(hr_platform_rollback(&grow, false, &log, &e4), 1);
            raw_value back;
            raw_read(&back);
            CHECK(raw_equal(&back, &dump_start));
            printf("dumps on, after rollback: PagingFiles = %s (%s)\n", value_str(),
                   raw_equal(&back, &dump_start) ? "the same bytes" : "CHANGED");
        }
        /* Dumps off: C: is not kept, so --size 8G would lower 12 GB to 8 GB: refused. */
        RegSetKeyValueW(HKEY_LOCAL_MACHINE, CC, L"CrashDumpEnabled", REG_DWORD, &off, sizeof off);
        pr = hr_platform_apply_plan(&same, plan, &e4);
        printf("dumps off, --size 8G: %s\n", pr == HR_EUNSAFE ? e4.msg : "not refused");
        CHECK_EQ_I64(pr, HR_EUNSAFE);
        CHECK_CONTAINS(e4.msg, "remove 4.00 GiB");
        /* A dedicated dump file: dumps need no paging file on C: either. */
        RegSetKeyValueW(HKEY_LOCAL_MACHINE, CC, L"CrashDumpEnabled", REG_DWORD, &on, sizeof on);
        static const wchar_t ded[] = L"D:\\dedicated.dmp";
        RegSetKeyValueW(HKEY_LOCAL_MACHINE, CC, L"DedicatedDumpFile", REG_SZ, ded, sizeof ded);
        CHECK_EQ_I64(hr_platform_apply_plan(&same, plan, &e4), HR_EUNSAFE);
        CHECK_STR(value_str(), want_start); /* planning changes nothing */
    }

    /* Refused on a drive that does not exist / bad target text. */
    hr_apply_request bad = rq;
    bad.target = "D:\\x";
    CHECK(hr_platform_apply_plan(&bad, plan, &err) == HR_EINVAL);

    raw_write(&orig);
    raw_write_at(CC, L"CrashDumpEnabled", &cc_en);
    raw_write_at(CC, L"DedicatedDumpFile", &cc_dd);
    raw_value fin;
    raw_read(&fin);
    CHECK(raw_equal(&fin, &orig));
    char cmd[MAX_PATH + 32];
    snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\" >nul 2>nul", dir);
    system(cmd);
    hr_buf_free(&log);
    free(plan);
    return TEST_DONE();
}
#else
int main(void)
{
    printf("Windows registry test: runs in the Windows build under Wine (make test-windows)\n");
    return TEST_DONE();
}
#endif
