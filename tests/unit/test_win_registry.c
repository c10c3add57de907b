/* Windows: every PagingFiles syntax written into the real registry (Wine's, in CI), read
 * back through the backend, and the original values restored. Needs write access to
 * HKLM\...\Memory Management (administrator; Wine's token is elevated). */
#ifdef _WIN32
#include "test.h"
#include "core/model/pagingfiles.h"
#include "core/plan/plan.h"
#include "platform/win/win_probes.h"

#include <stdlib.h>

static const wchar_t KEY[] = L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management";

typedef struct saved {
    const wchar_t *name;
    bool present;
    DWORD type, len;
    BYTE data[HR_WIN_REG_MAX];
} saved;

static void save(HKEY k, saved *s)
{
    s->len = sizeof s->data;
    s->present = RegQueryValueExW(k, s->name, NULL, &s->type, s->data, &s->len) == ERROR_SUCCESS;
}

static bool restore(HKEY k, const saved *s)
{
    if (s->present)
        return RegSetValueExW(k, s->name, 0, s->type, s->data, s->len) == ERROR_SUCCESS;
    LONG e = RegDeleteValueW(k, s->name);
    return e == ERROR_SUCCESS || e == ERROR_FILE_NOT_FOUND;
}

static hr_win_raw raw;
static hr_snapshot snap;

/* Write PagingFiles, read it through the backend probe + core model. */
static void roundtrip(HKEY k, DWORD type, const void *data, DWORD len)
{
    CHECK(RegSetValueExW(k, L"PagingFiles", 0, type, data, len) == ERROR_SUCCESS);
    hr_win_raw_init(&raw);
    hr_win_probe_registry(&raw);
    CHECK(raw.paging_files.q.state == HR_WIN_OK);
    CHECK_EQ_U64(raw.paging_files.type, type);
    CHECK_EQ_U64(raw.paging_files.len, len);
    hr_win_model_snapshot(&raw, &snap);
    if (!snap.paging_config.s.ok)
        fprintf(stderr, "paging_config: %s\n", hr_words_in(&snap.paging_config.s.why, HR_LANG_EN));
    CHECK(snap.paging_config.s.ok);
}

static void run(HKEY k)
{
    static const wchar_t automatic[] = L"?:\\pagefile.sys\0";
    roundtrip(k, REG_MULTI_SZ, automatic, sizeof automatic);
    CHECK(snap.paging_config.automatic == HR_TRI_YES);
    CHECK_EQ_I64(snap.paging_config.count, 1);
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_AUTOMATIC);

    static const wchar_t sysman[] = L"C:\\pagefile.sys 0 0\0";
    roundtrip(k, REG_MULTI_SZ, sysman, sizeof sysman);
    CHECK(snap.paging_config.automatic == HR_TRI_NO);
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_SYSTEM_MANAGED);

    static const wchar_t custom[] = L"D:\\pagefile.sys 16384 32768\0";
    roundtrip(k, REG_MULTI_SZ, custom, sizeof custom);
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_CUSTOM);
    CHECK_EQ_U64(snap.paging_config.entries[0].initial_bytes, 16384ull << 20);
    CHECK_EQ_U64(snap.paging_config.entries[0].maximum_bytes, 32768ull << 20);

    static const wchar_t two[] = L"C:\\pagefile.sys 0 0\0D:\\\x865a\x62df\x5185\x5b58\\pagefile.sys 65536 65536\0";
    roundtrip(k, REG_MULTI_SZ, two, sizeof two);
    CHECK_EQ_I64(snap.paging_config.count, 2);
    CHECK_STR(snap.paging_config.entries[1].path, "D:\\\xe8\x99\x9a\xe6\x8b\x9f\xe5\x86\x85\xe5\xad\x98\\pagefile.sys");

    /* "No paging file": the empty list in each form tools write. */
    static const wchar_t empty[2] = { 0, 0 };
    for (DWORD len = 0; len <= 4; len += 2) {
        roundtrip(k, REG_MULTI_SZ, empty, len);
        CHECK(snap.paging_config.present);
        CHECK_EQ_I64(snap.paging_config.count, 0);
    }

    /* REG_SZ, as Wine's own prefix has it. */
    static const wchar_t wine[] = L"C:\\pagefile.sys 27 77";
    roundtrip(k, REG_SZ, wine, sizeof wine);
    CHECK_EQ_I64(snap.paging_config.count, 1);
    CHECK_EQ_U64(snap.paging_config.entries[0].maximum_bytes, 77ull << 20);

    /* No value at all. */
    CHECK(RegDeleteValueW(k, L"PagingFiles") == ERROR_SUCCESS);
    hr_win_raw_init(&raw);
    hr_win_probe_registry(&raw);
    CHECK(raw.paging_files.q.state == HR_WIN_ABSENT);
    hr_win_model_snapshot(&raw, &snap);
    CHECK(!snap.paging_config.present && snap.paging_config.s.ok);

    /* ExistingPageFiles and TempPageFile, end to end through hr_platform_snapshot. */
    static const wchar_t existing[] = L"\\??\\C:\\pagefile.sys\0\\??\\E:\\pagefile.sys\0";
    DWORD one = 1;
    CHECK(RegSetValueExW(k, L"PagingFiles", 0, REG_MULTI_SZ, (const BYTE *)custom, sizeof custom) == ERROR_SUCCESS);
    CHECK(RegSetValueExW(k, L"ExistingPageFiles", 0, REG_MULTI_SZ, (const BYTE *)existing, sizeof existing) ==
          ERROR_SUCCESS);
    CHECK(RegSetValueExW(k, L"TempPageFile", 0, REG_DWORD, (const BYTE *)&one, sizeof one) == ERROR_SUCCESS);
    hr_probe_opts opts = { .skip_gpu = true };
    hr_error err = { 0 };
    int r = hr_platform_snapshot(&opts, &snap, &err);
    CHECK(r == 0 || r == HR_EPARTIAL);
    CHECK_EQ_I64(snap.paging_config.count, 1);
    CHECK_STR(snap.paging_config.entries[0].path, "D:\\pagefile.sys");
    CHECK_EQ_I64(snap.paging_config.existing_count, 2);
    CHECK_STR(snap.paging_config.existing[1], "E:\\pagefile.sys");
    CHECK(snap.paging_config.temp_page_file == HR_TRI_YES);
}

/* CrashControl (X.dump): the values the test writes reach the snapshot through the live
 * probe, and the plan follows them: dumps off leave no crash-dump file kept and no warning. */
static const wchar_t CC_KEY[] = L"SYSTEM\\CurrentControlSet\\Control\\CrashControl";

static bool has_warning(const hr_plan *p, const char *id)
{
    for (int i = 0; i < p->warning_count; i++)
        if (strcmp(p->warnings[i].id, id) == 0)
            return true;
    return false;
}

static void crash_control(void)
{
    HKEY c;
    DWORD disp = 0;
    LONG e = RegCreateKeyExW(HKEY_LOCAL_MACHINE, CC_KEY, 0, NULL, 0, KEY_QUERY_VALUE | KEY_SET_VALUE, NULL, &c, &disp);
    CHECK(e == ERROR_SUCCESS);
    if (e != ERROR_SUCCESS)
        return;
    static saved cs[2] = { { .name = L"CrashDumpEnabled" }, { .name = L"DedicatedDumpFile" } };
    for (int i = 0; i < 2; i++)
        save(c, &cs[i]);
    hr_probe_opts opts = { .skip_gpu = true };
    hr_error err = { 0 };
    static const struct {
        DWORD v;
        const wchar_t *dedicated;
        hr_tri want;
    } cases[] = {
        { 0, NULL, HR_TRI_NO }, { 2, NULL, HR_TRI_YES }, { 7, NULL, HR_TRI_YES }, { 7, L"D:\\dump.dmp", HR_TRI_NO }
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(RegSetValueExW(c, L"CrashDumpEnabled", 0, REG_DWORD, (const BYTE *)&cases[i].v, sizeof cases[i].v) ==
              ERROR_SUCCESS);
        if (cases[i].dedicated)
            CHECK(RegSetValueExW(c, L"DedicatedDumpFile", 0, REG_SZ, (const BYTE *)cases[i].dedicated,
                                 (DWORD)((wcslen(cases[i].dedicated) + 1) * sizeof(wchar_t))) == ERROR_SUCCESS);
        else
            RegDeleteValueW(c, L"DedicatedDumpFile");
        int r = hr_platform_snapshot(&opts, &snap, &err);
        CHECK(r == 0 || r == HR_EPARTIAL);
        printf("CrashDumpEnabled = %lu%s -> dump needs a paging file on the system drive: %s\n",
               (unsigned long)cases[i].v, cases[i].dedicated ? " + DedicatedDumpFile" : "",
               snap.paging_config.dump_needs_system_paging == HR_TRI_YES  ? "yes"
               : snap.paging_config.dump_needs_system_paging == HR_TRI_NO ? "no"
                                                                          : "unknown");
        CHECK(snap.paging_config.dump_needs_system_paging == cases[i].want);
        CHECK_EQ_I64(snap.paging_config.crash_dump_enabled, cases[i].v);
        if (cases[i].dedicated)
            CHECK_STR(snap.paging_config.dedicated_dump_file, "D:\\dump.dmp");
        hr_plan_inputs in;
        hr_plan_inputs_init(&in);
        in.workload = HR_WORKLOAD_SDXL;
        hr_plan *p = calloc(1, sizeof *p);
        CHECK(hr_plan_compute(&snap, &in, p, &err) == 0);
        if (cases[i].want == HR_TRI_NO) {
            CHECK(!has_warning(p, "no-crash-dump"));
            CHECK_STR(p->dump_file, "");
        }
        free(p);
    }
    for (int i = 0; i < 2; i++)
        CHECK(restore(c, &cs[i]));
    RegCloseKey(c);
    if (disp == REG_CREATED_NEW_KEY) /* the test made the key: it goes again */
        RegDeleteKeyW(HKEY_LOCAL_MACHINE, CC_KEY);
}

int main(void)
{
    HKEY k;
    LONG e = RegOpenKeyExW(HKEY_LOCAL_MACHINE, KEY, 0, KEY_QUERY_VALUE | KEY_SET_VALUE, &k);
    if (e != ERROR_SUCCESS) {
        printf("SKIP: cannot open Memory Management for writing (error %ld): run as administrator\n", (long)e);
        return 77;
    }
    static saved s[3] = { { .name = L"PagingFiles" }, { .name = L"ExistingPageFiles" }, { .name = L"TempPageFile" } };
    for (int i = 0; i < 3; i++)
        save(k, &s[i]);
    run(k);
    crash_control();
    bool ok = true;
    for (int i = 0; i < 3; i++)
        ok = restore(k, &s[i]) && ok;
    CHECK(ok);
    /* And the restore really put the old value back. */
    BYTE back[HR_WIN_REG_MAX];
    DWORD type = 0, len = sizeof back;
    e = RegQueryValueExW(k, L"PagingFiles", NULL, &type, back, &len);
    if (s[0].present)
        CHECK(e == ERROR_SUCCESS && type == s[0].type && len == s[0].len && memcmp(back, s[0].data, len) == 0);
    else
        CHECK(e == ERROR_FILE_NOT_FOUND);
    RegCloseKey(k);
    return TEST_DONE();
}

#else
#include <stdio.h>

int main(void)
{
    printf("SKIP: Windows registry test (runs in the Windows build, under Wine in CI)\n");
    return 77;
}
#endif
