/* Recorded Windows answers -> snapshot: the four reference machines, the loader's errors,
 * and a write/load round trip. Runs on Linux and under Wine alike (OS-free code). */
#include "test.h"

#include "core/base/json_writer.h"
#include "core/model/pagingfiles.h"
#include "core/model/win_model.h"

#include <stdlib.h>

static char *slurp(const char *name, size_t *len)
{
    const char *src = getenv("HR_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/windows/%s", src ? src : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    static char buf[1 << 20];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static hr_snapshot snap;
static hr_win_raw raw;

static int replay(const char *name)
{
    size_t len = 0;
    char *buf = slurp(name, &len);
    CHECK(buf != NULL);
    if (!buf)
        return -1;
    hr_error err = { 0 };
    int r = hr_win_raw_load_json(buf, len, &raw, &err);
    if (r)
        fprintf(stderr, "%s: %s\n", name, err.msg);
    CHECK_EQ_I64(r, 0);
    return hr_win_model_snapshot(&raw, &snap);
}

static bool has_note(const char *rule, const char *text)
{
    char said[400];
    for (int i = 0; i < snap.note_count; i++) {
        hr_msg_format(&snap.notes[i].msg, HR_LANG_EN, said, sizeof said);
        if (strcmp(snap.notes[i].rule, rule) == 0 && strstr(said, text))
            return true;
    }
    fprintf(stderr, "no note %s \"%s\"; notes:\n", rule, text);
    for (int i = 0; i < snap.note_count; i++) {
        hr_msg_format(&snap.notes[i].msg, HR_LANG_EN, said, sizeof said);
        fprintf(stderr, "  %s %s\n", snap.notes[i].rule, said);
    }
    return false;
}

static void test_laptop(void)
{
    int r = replay("laptop-16g-auto-full-c.json");
    CHECK_EQ_I64(r, 0);
    CHECK(snap.platform.os == HR_OS_WINDOWS);
    CHECK_STR(hr_words_in(&snap.platform.os_name, HR_LANG_EN), "Windows 11 10.0.22631");
    CHECK_STR(snap.platform.system_volume, "C:\\");
    CHECK_EQ_U64(snap.platform.page_size, 4096);
    CHECK_EQ_U64(snap.ram.total_bytes, 4152120ull * 4096);
    CHECK_EQ_U64(snap.ram.used_bytes, (4152120ull - 1022000) * 4096);
    CHECK_EQ_U64(snap.ram.compressed_bytes, 641728512);
    CHECK(snap.commit.s.ok);
    CHECK_STR(hr_words_in(&snap.commit.s.source, HR_LANG_EN), "GetPerformanceInfo");
    CHECK_EQ_U64(snap.commit.charge_bytes, 4412000ull * 4096);
    CHECK_EQ_U64(snap.commit.limit_bytes, (4152120ull + 655360 - 1800) * 4096);
    CHECK_EQ_U64(snap.commit.peak_bytes, 4751000ull * 4096);
    CHECK(snap.commit.enforced == HR_TRI_YES);
    CHECK(snap.commit.overcommit_mode == HR_OVERCOMMIT_NONE);
    /* In use. */
    CHECK(snap.paging_s.ok);
    CHECK_EQ_I64(snap.paging_count, 1);
    CHECK_STR(snap.paging[0].path, "C:\\pagefile.sys");
    CHECK(snap.paging[0].kind == HR_PAGING_PAGEFILE);
    CHECK_EQ_U64(snap.paging[0].size_bytes, 655360ull * 4096);
    CHECK_EQ_U64(snap.paging[0].used_bytes, 201000ull * 4096);
    CHECK_EQ_U64(snap.paging[0].peak_bytes, 402000ull * 4096);
    CHECK(snap.paging[0].has_device);
    CHECK_STR(snap.paging[0].device.bus, "NVMe");
    /* Configured. */
    CHECK(snap.paging_config.s.ok);
    CHECK(snap.paging_config.present);
    CHECK(snap.paging_config.automatic == HR_TRI_YES);
    CHECK_EQ_I64(snap.paging_config.count, 1);
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_AUTOMATIC);
    CHECK(snap.paging_config.temp_page_file == HR_TRI_NO);
    CHECK_EQ_I64(snap.paging_config.existing_count, 1);
    CHECK_STR(snap.paging_config.existing[0], "C:\\pagefile.sys");
    /* Drive. */
    CHECK_EQ_I64(snap.volume_count, 1);
    const hr_volume *c = &snap.volumes[0];
    CHECK_STR(c->dev.mount_point, "C:\\");
    CHECK(c->is_system && c->holds_paging);
    CHECK(c->can_hold_swap == HR_TRI_YES);
    CHECK(c->dev.rotational == HR_TRI_NO);
    CHECK(c->dev.usb == HR_TRI_NO);
    CHECK(c->dev.encrypted == HR_TRI_YES);
    CHECK_STR(c->dev.encryption, "BitLocker");
    CHECK_STR(c->dev.fs_type, "NTFS");
    /* Compression, GPUs, power. */
    CHECK(snap.compression.windows_compression == HR_TRI_YES);
    CHECK(snap.gpus.s.ok);
    CHECK_EQ_I64(snap.gpus.count, 2); /* NVML 4060 (+DXGI shared) and the Intel iGPU */
    CHECK_STR(snap.gpus.gpu[0].source, "NVML");
    CHECK_EQ_U64(snap.gpus.gpu[0].vram_total_bytes, 8585740288ull);
    CHECK_EQ_U64(snap.gpus.gpu[0].shared_total_bytes, 8503701504ull);
    CHECK_STR(snap.gpus.gpu[1].vendor, "Intel");
    CHECK(snap.gpus.gpu[1].integrated == HR_TRI_YES);
    CHECK(snap.power.on_battery == HR_TRI_YES);
    CHECK(snap.power.has_battery == HR_TRI_YES);
    CHECK_EQ_U64(snap.power.battery_percent, 78);
    CHECK(snap.power.power_saver == HR_TRI_NO);
    /* Flags. */
    CHECK(has_note("S1.2", "C: is nearly full (6.20 GiB free of 237 GiB)"));
    CHECK_EQ_I64(snap.note_count, 1);
    CHECK(!hr_snapshot_partial(&snap));
}

static void test_desktop(void)
{
    CHECK_EQ_I64(replay("desktop-64g-fixed-d.json"), 0);
    CHECK_STR(hr_words_in(&snap.platform.os_name, HR_LANG_EN), "Windows 10 10.0.19045");
    CHECK_EQ_I64(snap.paging_count, 1);
    CHECK_STR(snap.paging[0].path, "D:\\pagefile.sys");
    CHECK_EQ_U64(snap.paging[0].size_bytes, 64ull << 30);
    CHECK(snap.paging_config.automatic == HR_TRI_NO);
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_CUSTOM);
    CHECK_EQ_U64(snap.paging_config.entries[0].initial_bytes, 64ull << 30);
    CHECK_EQ_U64(snap.paging_config.entries[0].maximum_bytes, 64ull << 30);
    CHECK_EQ_I64(snap.volume_count, 3);
    CHECK(!snap.volumes[0].holds_paging);
    CHECK(snap.volumes[1].holds_paging);
    CHECK_STR(snap.volumes[1].dev.bus, "SATA");
    CHECK(snap.volumes[2].dev.rotational == HR_TRI_YES);
    CHECK(snap.volumes[0].dev.encrypted == HR_TRI_NO);
    /* Store query denied, process list answered. */
    CHECK(snap.compression.s.ok);
    CHECK_EQ_U64(snap.compression.windows_store_bytes, 188ull << 20);
    CHECK_EQ_I64(snap.gpus.count, 1);
    CHECK_EQ_U64(snap.gpus.gpu[0].shared_total_bytes, 17122668544ull);
    CHECK(snap.power.has_battery == HR_TRI_NO);
    CHECK_EQ_U64(snap.power.battery_percent, HR_UNKNOWN);
    CHECK(snap.power.on_battery == HR_TRI_NO);
    CHECK_EQ_I64(snap.note_count, 0); /* nothing to flag there */
    /* The same machine before the restart that moves the file from C: to D:. */
    raw.enum_files[0].name[4] = 'C';
    hr_win_model_snapshot(&raw, &snap);
    CHECK(has_note("S5.1", "D:\\pagefile.sys is configured but not in use"));
    CHECK(has_note("S5.1", "C:\\pagefile.sys is in use but no longer configured"));
}

static void test_no_pagefile(void)
{
    CHECK_EQ_I64(replay("no-pagefile.json"), 0);
    CHECK(snap.paging_s.ok);
    CHECK_EQ_I64(snap.paging_count, 0);
    CHECK(snap.paging_config.present);
    CHECK_EQ_I64(snap.paging_config.count, 0);
    CHECK(snap.paging_config.automatic == HR_TRI_NO);
    CHECK(snap.commit.limit_bytes < snap.ram.total_bytes);
    CHECK(snap.gpus.s.ok);
    CHECK_EQ_I64(snap.gpus.count, 1);
    CHECK_STR(snap.gpus.gpu[0].vendor, "AMD");
    CHECK_STR(snap.gpus.gpu[0].source, "DXGI");
    CHECK(snap.gpus.gpu[0].integrated == HR_TRI_NO);
    CHECK_EQ_U64(snap.gpus.gpu[0].vram_used_bytes, HR_UNKNOWN);
    CHECK_CONTAINS(hr_words_in(&snap.gpus.notes, HR_LANG_EN), "NVML (nvml.dll): not present");
    /* The same with 0- and 4-byte empties and with no value at all. */
    static const char *const hexes[] = { "", "00000000" };
    for (int i = 0; i < 2; i++) {
        raw.paging_files.len = (size_t)i * 4;
        memset(raw.paging_files.data, 0, 4);
        (void)hexes[i];
        hr_win_model_snapshot(&raw, &snap);
        CHECK(snap.paging_config.present && snap.paging_config.count == 0 && snap.paging_config.s.ok);
    }
    raw.paging_files.q.state = HR_WIN_ABSENT;
    hr_win_model_snapshot(&raw, &snap);
    CHECK(!snap.paging_config.present && snap.paging_config.count == 0 && snap.paging_config.s.ok);
}

static void test_usb(void)
{
    CHECK_EQ_I64(replay("usb-pagefile.json"), 0);
    CHECK(snap.paging_s.ok);
    CHECK_STR(hr_words_in(&snap.paging_s.source, HR_LANG_EN), "NtQuerySystemInformation(SystemPageFileInformationEx)");
    CHECK_EQ_I64(snap.paging_count, 2);
    CHECK_STR(snap.paging[1].path, "E:\\pagefile.sys");
    CHECK_EQ_U64(snap.paging[1].size_bytes, 16ull << 30);
    CHECK(snap.paging[1].device.usb == HR_TRI_YES);
    CHECK_STR(snap.paging[1].device.bus, "USB");
    CHECK(snap.paging_config.entries[0].mode == HR_PAGING_MODE_SYSTEM_MANAGED);
    CHECK(snap.paging_config.entries[1].mode == HR_PAGING_MODE_CUSTOM);
    CHECK(snap.paging_config.temp_page_file == HR_TRI_NO);
    CHECK(snap.volumes[1].dev.encrypted == HR_TRI_UNKNOWN);
    CHECK_CONTAINS(hr_words_in(&snap.volumes[1].dev.why, HR_LANG_EN), "BitLocker status needs administrator rights");
    CHECK(snap.power.on_battery == HR_TRI_NO);
    CHECK_EQ_U64(snap.power.battery_percent, 64);
}

/* What Wine answers: stubs and unknowns, each with its reason. */
static void test_wine_like(void)
{
    hr_win_raw_init(&raw);
    raw.os.state = HR_WIN_OK;
    raw.os_major = 6;
    raw.os_minor = 1;
    raw.os_build = 7601;
    raw.perf.state = HR_WIN_OK;
    raw.commit_total_pages = 98076;
    raw.commit_limit_pages = 6170914;
    raw.commit_peak_pages = 0;
    raw.physical_total_pages = 6170912;
    raw.physical_available_pages = 5000000;
    raw.page_size = 4096;
    raw.mem.state = HR_WIN_OK;
    raw.total_phys = 6170912ull * 4096;
    raw.avail_phys = 5000000ull * 4096;
    raw.total_page_file = 6170914ull * 4096;
    raw.avail_page_file = (6170914ull - 98076) * 4096;
    raw.enum_pf.state = HR_WIN_UNSUPPORTED;
    raw.nt_pf.state = HR_WIN_UNSUPPORTED;
    raw.nt_pf.code = 0xC0000003u;
    raw.paging_files.q.state = HR_WIN_OK;
    raw.paging_files.type = HR_REG_SZ;
    const char *v = "C\0:\0\\\0p\0a\0g\0e\0f\0i\0l\0e\0.\0s\0y\0s\0 \0"
                    "2\0"
                    "7\0 \0"
                    "7\0"
                    "7\0\0";
    raw.paging_files.len = 44;
    memcpy(raw.paging_files.data, v, 44);
    raw.existing_page_files.q.state = HR_WIN_ABSENT;
    raw.temp_page_file.q.state = HR_WIN_ABSENT;
    raw.nvml.state = HR_WIN_ABSENT;
    raw.nvml.code = 126;
    raw.dxgi.state = HR_WIN_FAILED;
    raw.dxgi.code = 0x887A0004u;
    raw.procs.state = HR_WIN_OK;
    raw.store.state = HR_WIN_UNSUPPORTED;
    raw.store.code = 0xC0000003u;
    raw.power.state = HR_WIN_OK;
    raw.ac_line = 1;
    raw.battery_flag = 128;
    raw.battery_percent = 255;
    raw.scheme.state = HR_WIN_UNSUPPORTED;
    raw.scheme.code = 120;
    int r = hr_win_model_snapshot(&raw, &snap);
    CHECK_EQ_I64(r, HR_EPARTIAL);
    CHECK_STR(hr_words_in(&snap.platform.os_name, HR_LANG_EN), "Windows 6.1.7601");
    CHECK_EQ_U64(snap.commit.limit_bytes, raw.total_page_file);
    CHECK_EQ_U64(snap.commit.peak_bytes, HR_UNKNOWN);
    CHECK_CONTAINS(hr_words_in(&snap.commit.s.why, HR_LANG_EN), "CommitPeak 0");
    CHECK(!snap.paging_s.ok);
    CHECK_CONTAINS(hr_words_in(&snap.paging_s.why, HR_LANG_EN), "EnumPageFilesW is not implemented on this system");
    CHECK_CONTAINS(hr_words_in(&snap.paging_s.why, HR_LANG_EN), "information class not implemented (0xC0000003)");
    CHECK(snap.paging_config.s.ok);
    CHECK_EQ_I64(snap.paging_config.count, 1);
    CHECK_EQ_U64(snap.paging_config.entries[0].initial_bytes, 27ull << 20);
    CHECK_EQ_U64(snap.paging_config.entries[0].maximum_bytes, 77ull << 20);
    CHECK(!snap.gpus.s.ok);
    CHECK_CONTAINS(hr_words_in(&snap.gpus.s.why, HR_LANG_EN), "NVML (nvml.dll): not present");
    CHECK_CONTAINS(hr_words_in(&snap.gpus.s.why, HR_LANG_EN),
                   "DXGI failed: unsupported (no display device) (0x887A0004)");
    CHECK(snap.compression.windows_compression == HR_TRI_NO);
    CHECK(snap.power.has_battery == HR_TRI_NO);
}

static void test_loader_errors(void)
{
    hr_error err = { 0 };
    static const struct {
        const char *doc, *msg;
    } cases[] = {
        { "[]", "(document): expected an object" },
        { "{}", "schema: expected \"headroom.win-raw/1\"" },
        { "{\"schema\":\"headroom.win-raw/1\",\"performance_info\":{\"state\":\"ok\",\"commit_total\":-1}}",
          "line 1, column 80: performance_info.commit_total: expected a non-negative integer" },
        { "{\"schema\":\"headroom.win-raw/1\",\"os\":{\"state\":\"maybe\"}}", "os.state: unknown state" },
        { "{\"schema\":\"headroom.win-raw/1\",\"os\":{}}", "os.state: expected \"state\"" },
        { "{\"schema\":\"headroom.win-raw/1\",\"registry\":{\"paging_files\":{\"state\":\"ok\",\"hex\":\"3\"}}}",
          "registry.paging_files.hex: expected an even number" },
        { "{\"schema\":\"headroom.win-raw/1\",\"registry\":{\"paging_files\":{\"state\":\"ok\"}}}",
          "needs \"hex\", \"strings\" or \"dword\"" },
        { "{\"schema\":\"headroom.win-raw/1\",\"volumes\":[{\"root\":\"C:\\\\\",\"space\":{\"state\":\"ok\",\"total\":\"x\"}}]}",
          "volumes[0].space.total: expected a non-negative integer" },
        { "{\"schema\":\"headroom.win-raw/1\",\"power\":{\"state\":\"ok\",\"ac_line\":4294967296}}",
          "power.ac_line: value does not fit in 32 bits" },
        { "{\"schema\":\"headroom.win-raw/1\",", "line 1, column 32: expected a member name" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(hr_win_raw_load_json(cases[i].doc, strlen(cases[i].doc), &raw, &err) == HR_EPARSE);
        CHECK_CONTAINS(err.msg, cases[i].msg);
    }
}

static void test_round_trip(void)
{
    const char *names[] = { "laptop-16g-auto-full-c.json", "desktop-64g-fixed-d.json", "no-pagefile.json",
                            "usb-pagefile.json" };
    for (int i = 0; i < 4; i++) {
        replay(names[i]);
        static hr_snapshot first;
        first = snap;
        static hr_win_raw copy;
        copy = raw;
        hr_buf out;
        hr_buf_init(&out, 0);
        hr_json_writer w;
        hr_json_init(&w, &out, true);
        hr_win_raw_write_json(&copy, &w);
        CHECK_EQ_I64(hr_json_finish(&w), 0);
        hr_error err = { 0 };
        int r = hr_win_raw_load_json(out.data, out.len, &raw, &err);
        if (r)
            fprintf(stderr, "%s: %s\n", names[i], err.msg);
        CHECK_EQ_I64(r, 0);
        hr_win_model_snapshot(&raw, &snap);
        CHECK(memcmp(&first, &snap, sizeof snap) == 0);
        CHECK_CONTAINS(out.data, "\"strings_read\"");
        hr_buf_free(&out);
    }
}

static void set_dword(hr_win_regval *v, uint32_t x)
{
    v->q.state = HR_WIN_OK;
    v->type = HR_REG_DWORD;
    v->len = 4;
    memcpy(v->data, &x, 4); /* little-endian, as Windows stores it */
}

/* CrashControl (X.dump): CrashDumpEnabled and DedicatedDumpFile -> does a crash dump need a
 * paging file on the system drive; recorded and replayed unchanged. */
static void test_crash_control(void)
{
    replay("desktop-64g-fixed-d.json"); /* recorded before CrashControl was read */
    CHECK(snap.paging_config.dump_needs_system_paging == HR_TRI_UNKNOWN);
    CHECK_EQ_I64(snap.paging_config.crash_dump_enabled, HR_UNKNOWN_I64);
    static const struct {
        uint32_t v;
        bool dedicated;
        hr_tri want;
    } cases[] = { { 0, false, HR_TRI_NO },  { 1, false, HR_TRI_YES }, { 2, false, HR_TRI_YES },
                  { 3, false, HR_TRI_YES }, { 7, false, HR_TRI_YES }, { 7, true, HR_TRI_NO } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        replay("desktop-64g-fixed-d.json");
        set_dword(&raw.crash_dump_enabled, cases[i].v);
        raw.dedicated_dump_file.q.state = HR_WIN_ABSENT;
        if (cases[i].dedicated) {
            static const char d[] = "D\0:\0\\\0d\0.\0d\0m\0p\0\0";
            raw.dedicated_dump_file.q.state = HR_WIN_OK;
            raw.dedicated_dump_file.type = HR_REG_SZ;
            raw.dedicated_dump_file.len = sizeof d - 1;
            memcpy(raw.dedicated_dump_file.data, d, sizeof d - 1);
        }
        hr_win_model_snapshot(&raw, &snap);
        CHECK(snap.paging_config.dump_needs_system_paging == cases[i].want);
        CHECK_EQ_I64(snap.paging_config.crash_dump_enabled, cases[i].v);
        if (cases[i].dedicated)
            CHECK_STR(snap.paging_config.dedicated_dump_file, "D:\\d.dmp");
        /* Written and read back: the same facts. */
        static hr_win_raw copy;
        copy = raw;
        hr_buf out;
        hr_buf_init(&out, 0);
        hr_json_writer w;
        hr_json_init(&w, &out, true);
        hr_win_raw_write_json(&copy, &w);
        CHECK_EQ_I64(hr_json_finish(&w), 0);
        CHECK_CONTAINS(out.data, "\"crash_dump_enabled\"");
        hr_error err = { 0 };
        CHECK_EQ_I64(hr_win_raw_load_json(out.data, out.len, &raw, &err), 0);
        hr_win_model_snapshot(&raw, &snap);
        CHECK(snap.paging_config.dump_needs_system_paging == cases[i].want);
        hr_buf_free(&out);
    }
    /* Not a DWORD: unknown, as not read. */
    replay("desktop-64g-fixed-d.json");
    raw.crash_dump_enabled.q.state = HR_WIN_OK;
    raw.crash_dump_enabled.type = HR_REG_SZ;
    raw.crash_dump_enabled.len = 2;
    hr_win_model_snapshot(&raw, &snap);
    CHECK(snap.paging_config.dump_needs_system_paging == HR_TRI_UNKNOWN);
}

int main(void)
{
    test_crash_control();
    test_laptop();
    test_desktop();
    test_no_pagefile();
    test_usb();
    test_wine_like();
    test_loader_errors();
    test_round_trip();
    return TEST_DONE();
}
