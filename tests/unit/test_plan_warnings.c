/* Every warning fires where its facts call for it and nowhere else: from a healthy machine
 * with no warnings at all, each scenario changes one fact and must add exactly the expected
 * warning ids. Linux placement facts (btrfs, containers, USB swap inside dm-crypt) too. */
#include "fmt_conversions.h"
#include "plan_snap.h"
#include "test.h"

#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/text.h"
#include "core/model/swap_target.h"

/* Healthy Windows: 32 GB RAM, 12 GB VRAM, SSD C: with room and a fixed 32 GB file on it. */
static hr_snapshot *healthy_windows(void)
{
    hr_snapshot *s = snap_new(HR_OS_WINDOWS, GB(32));
    hr_volume *c = snap_volume(s, "C:\\", "NTFS", 1, GB(1000), GB(600), true);
    snap_gpu(s, "NVIDIA GeForce RTX 4070", GB(12), false);
    snap_config(s, "C:\\pagefile.sys", HR_PAGING_MODE_CUSTOM, GB(32), GB(32));
    snap_paging(s, "C:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(32), c);
    return s;
}

/* Healthy Linux: 32 GB RAM, 12 GB VRAM, ext4 SSD root with a 32 GB swap file. */
static hr_snapshot *healthy_linux(void)
{
    hr_snapshot *s = snap_new(HR_OS_LINUX, GB(32));
    hr_volume *root = snap_volume(s, "/", "ext4", 1, GB(1000), GB(600), true);
    snap_gpu(s, "NVIDIA GeForce RTX 4070", GB(12), false);
    snap_paging(s, "/swapfile", HR_PAGING_FILE, GB(32), root);
    return s;
}

static void expect(const char *name, const hr_snapshot *s, const hr_plan_inputs *in, const char *want)
{
    hr_plan *p = plan_run(s, in);
    char got[512];
    warning_set(p, got, sizeof got);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "scenario %s: warnings {%s}, want {%s}\n", name, got, want);
    CHECK_STR(got, want);
    for (int i = 0; i < p->warning_count; i++) {
        /* Each line is its row's: the id in JSON and the rule come from the table. */
        const hr_plan_warning_info *row = hr_plan_warning_row(p->warnings[i].warning);
        CHECK(row != NULL);
        if (row) {
            CHECK_STR(p->warnings[i].id, row->id);
            CHECK_STR(p->warnings[i].rule, row->rule);
        }
        CHECK(hr_plan_find_warning(p, p->warnings[i].warning) != NULL);
        CHECK(p->warnings[i].rule[0] != '\0');
        CHECK(strlen(line_text(&p->warnings[i])) > 20);
    }
    free(p);
}

static void windows_scenarios(void)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    hr_snapshot *s = healthy_windows();
    expect("healthy windows", s, &in, "");
    hr_plan *p = plan_run(s, &in);
    CHECK(p->nothing_to_change);
    free(p);
    free(s);

    s = healthy_windows();
    s->ram.total_bytes = GB(8);
    s->ram.used_bytes = GB(4);
    expect("8 GB RAM", s, &in, "upgrade-ram");
    free(s);

    s = healthy_windows();
    s->gpus.count = 0;
    snap_gpu(s, "Intel Iris Xe", GB(4), true);
    expect("integrated GPU", s, &in, "integrated-gpu");
    free(s);

    s = healthy_windows();
    in.have_comfy_args = true;
    CHECK(hr_comfy_args_parse("--listen --lowvram", 18, &in.comfy, NULL) == 0);
    expect("--lowvram", s, &in, "low-vram-flags");
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    in.have_comfy_args = true;
    CHECK(hr_comfy_args_parse("--highvram --reserve-vram 1", 27, &in.comfy, NULL) == 0);
    expect("--highvram is not a low-VRAM flag", s, &in, "");
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    free(s);

    s = healthy_windows();
    s->power.on_battery = HR_TRI_YES;
    expect("on battery", s, &in, "on-battery");
    s->power.on_battery = HR_TRI_NO;
    s->power.power_saver = HR_TRI_YES;
    expect("power saver", s, &in, "power-saver");
    free(s);

    s = healthy_windows();
    s->paging_config.automatic = HR_TRI_YES;
    expect("automatic, roomy C:", s, &in, "auto-managed");
    s->volumes[0].dev.fs_free_bytes = GB(20);
    snap_volume(s, "D:\\", "NTFS", 1, GB(500), GB(400), false);
    expect("automatic, nearly full C:", s, &in, "auto-full-system,no-crash-dump");
    {
        /* the warning says C: is left with no paging file: the steps say to set it so — also
         * when PagingFiles is Windows' own "?:\pagefile.sys" (automatic), which names no
         * drive: unticking automatic leaves C: system managed until it is set to none */
        hr_strlcpy(s->paging_config.entries[0].path, "?:\\pagefile.sys", sizeof s->paging_config.entries[0].path);
        s->paging_config.entries[0].mode = HR_PAGING_MODE_AUTOMATIC;
        s->paging_config.entries[0].initial_bytes = s->paging_config.entries[0].maximum_bytes = HR_UNKNOWN;
        s->paging_count = 0; /* and the list of files in use was not read */
        s->paging_s.ok = false;
        hr_plan *q = plan_run(s, &in);
        bool step_c = false;
        for (int i = 0; i < q->step_count; i++)
            step_c |= strstr(step_text_of(&q->steps[i]), "C: → No paging file") != NULL;
        CHECK(step_c);
        free(q);
    }
    s->volumes[0].dev.fs_free_bytes = GB(100); /* exactly 2 × 5 % of 1000 GB: not nearly full */
    expect("automatic, C: at the edge", s, &in, "auto-managed,no-crash-dump");
    free(s);

    s = healthy_windows();
    s->paging_config.entries[0].mode = HR_PAGING_MODE_SYSTEM_MANAGED;
    expect("system managed C:", s, &in, "auto-managed");
    free(s);

    s = healthy_windows();
    snap_volume(s, "D:\\", "NTFS", 1, GB(2000), GB(1500), false);
    /* C: already holds a fixed file that meets the rule: it stays (issue 10: never move or
     * shrink a setup that meets the rule), so nothing warns about crash dumps. */
    expect("a roomier second SSD, C: meets the rule", s, &in, "");
    s->paging_config.entries[0].maximum_bytes = s->paging_config.entries[0].initial_bytes = GB(24);
    s->paging[0].size_bytes = GB(24);
    expect("a roomier second SSD, C: too small", s, &in, "no-crash-dump");
    /* A small C: file beside the new one is the crash-dump file X.dump asks for: kept. */
    s->paging_config.entries[0].maximum_bytes = s->paging_config.entries[0].initial_bytes = GB(4);
    s->paging[0].size_bytes = GB(4);
    expect("a roomier second SSD, 4 GB on C:", s, &in, "");
    /* What CrashControl says decides it (X.dump, issue 10): dumps on keep the small C: file;
     * off, or written to a dedicated dump file, it goes like any other, and nothing warns. */
    s->paging_config.crash_dump_enabled = 7;
    s->paging_config.dump_needs_system_paging = HR_TRI_YES;
    expect("4 GB on C:, crash dumps on", s, &in, "");
    p = plan_run(s, &in);
    CHECK_STR(p->dump_file, "C:\\pagefile.sys");
    CHECK_EQ_I64(p->removal_count, 0);
    CHECK_EQ_U64(p->dump_file_min_bytes, 0); /* 4 GB holds an automatic dump of 32 GB RAM */
    free(p);
    /* A dump file too small for the dump (77 MB, automatic dumps, 32 GB RAM: RAM / 8 = 4 GB
     * by Microsoft's sizing, X.dump): said, and a step sizes it — never "stays" alone. */
    s->paging_config.entries[0].maximum_bytes = s->paging_config.entries[0].initial_bytes = 77 * HR_MIB;
    s->paging[0].size_bytes = 77 * HR_MIB;
    p = plan_run(s, &in);
    CHECK_STR(p->dump_file, "C:\\pagefile.sys");
    CHECK_EQ_U64(p->dump_file_min_bytes, GB(4));
    {
        bool said = false, sized = false;
        for (int i = 0; i < p->recommended.reason_count; i++)
            said |= strcmp(p->recommended.reasons[i].id, "dump-small") == 0;
        for (int i = 0; i < p->step_count; i++)
            sized |= strstr(step_text_of(&p->steps[i]),
                            "select C: → Custom size → Initial size (MB): 4096, Maximum size (MB): "
                            "4096") != NULL;
        CHECK(said && sized);
    }
    free(p);
    CHECK_EQ_U64(hr_dump_min_bytes(0, GB(32)), 0);
    CHECK_EQ_U64(hr_dump_min_bytes(3, GB(32)), HR_MIB);
    CHECK_EQ_U64(hr_dump_min_bytes(1, GB(16)), GB(16) + 257 * HR_MIB);
    CHECK_EQ_U64(hr_dump_min_bytes(2, GB(512)), GB(4));
    CHECK_EQ_U64(hr_dump_min_bytes(7, GB(16)), GB(2));
    CHECK_EQ_U64(hr_dump_min_bytes(7, GB(4)), GB(1));
    s->paging_config.entries[0].maximum_bytes = s->paging_config.entries[0].initial_bytes = GB(4);
    s->paging[0].size_bytes = GB(4);
    s->paging_config.crash_dump_enabled = 0;
    s->paging_config.dump_needs_system_paging = HR_TRI_NO;
    expect("4 GB on C:, crash dumps off", s, &in, "");
    p = plan_run(s, &in);
    CHECK_STR(p->dump_file, "");
    CHECK_EQ_I64(p->removal_count, 1);
    CHECK_CONTAINS(line_text(&p->removals[0]), "C:\\pagefile.sys");
    bool said = false;
    for (int i = 0; i < p->recommended.reason_count; i++)
        said |= strcmp(p->recommended.reasons[i].id, "dump-off") == 0;
    CHECK(said);
    CHECK(step_index(p, "remove-old") > step_index(p, "set-new"));
    free(p);
    /* A file too big for a dump file, dumps on: the warning; to a dedicated file: none. */
    s->paging_config.entries[0].maximum_bytes = s->paging_config.entries[0].initial_bytes = GB(24);
    s->paging[0].size_bytes = GB(24);
    s->paging_config.crash_dump_enabled = 2;
    s->paging_config.dump_needs_system_paging = HR_TRI_YES;
    expect("24 GB on C:, crash dumps on", s, &in, "no-crash-dump");
    hr_strlcpy(s->paging_config.dedicated_dump_file, "D:\\dedicated.dmp", HR_SNAP_PATH_MAX);
    s->paging_config.dump_needs_system_paging = HR_TRI_NO;
    expect("24 GB on C:, dedicated dump file", s, &in, "");
    p = plan_run(s, &in);
    said = false;
    for (int i = 0; i < p->recommended.reason_count; i++)
        said |= strcmp(p->recommended.reasons[i].id, "dump-dedicated") == 0 &&
                strstr(line_text(&p->recommended.reasons[i]), "D:\\dedicated.dmp") != NULL;
    CHECK(said);
    free(p);
    free(s);

    s = healthy_windows();
    s->paging_config.temp_page_file = HR_TRI_YES;
    expect("temporary page file", s, &in, "temp-page-file");
    free(s);

    s = healthy_windows();
    s->compression.windows_compression = HR_TRI_NO;
    expect("compression off", s, &in, "compression-off");
    s->compression.windows_compression = HR_TRI_YES;
    s->ram.used_bytes = GB(32) / 100 * 90;
    expect("90 % used with compression", s, &in, "compression-not-vm");
    s->ram.used_bytes = GB(32) / 100 * 80;
    expect("80 % used with compression", s, &in, "");
    free(s);

    s = healthy_windows();
    hr_volume *e = snap_volume(s, "E:\\", "NTFS", 1, GB(500), GB(400), false);
    e->dev.usb = HR_TRI_YES;
    snap_paging(s, "E:\\pagefile.sys", HR_PAGING_PAGEFILE, GB(8), e);
    expect("paging file on USB", s, &in, "paging-on-removable");
    p = plan_run(s, &in);
    CHECK_EQ_I64(p->removal_count, 1);
    CHECK_STR(p->removals[0].rule, "S5.4");
    CHECK(step_index(p, "remove-old") > step_index(p, "set-new"));
    free(p);
    free(s);

    s = healthy_windows();
    s->volumes[0].dev.rotational = HR_TRI_YES;
    expect("HDD only", s, &in, "hdd-only");
    free(s);

    s = healthy_windows();
    s->volumes[0].dev.fs_free_bytes = GB(5);
    s->paging_count = 0;
    /* no drive has room: the plan still advises a non-system SSD, as its steps say, so C: is
     * left without a file for crash dumps */
    expect("no room anywhere", s, &in, "no-crash-dump,no-target");
    free(s);

    /* Linux-only facts on a Windows snapshot change nothing. */
    s = healthy_windows();
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;
    s->cgroup.memory_max_bytes = GB(4);
    expect("linux facts on windows", s, &in, "");
    free(s);
}

static void linux_scenarios(void)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    hr_snapshot *s = healthy_linux();
    expect("healthy linux", s, &in, "");
    hr_plan *p = plan_run(s, &in);
    CHECK(p->nothing_to_change);
    CHECK_EQ_U64(p->recommended.add_bytes, 0);
    free(p);
    free(s);

    s = healthy_linux();
    s->platform.wsl2 = HR_TRI_YES;
    expect("WSL 2", s, &in, "wsl2");
    p = plan_run(s, &in);
    CHECK_STR(p->recommended.target, ".wslconfig");
    CHECK_STR(p->steps[0].id, "wslconfig");
    CHECK_CONTAINS(p->steps[0].command, "swap=32GB");
    free(p);
    free(s);

    s = healthy_linux();
    s->platform.container = HR_TRI_YES;
    expect("container without a limit", s, &in, "container");
    s->cgroup.memory_max_bytes = GB(8);
    s->cgroup.swap_max_bytes = 0;
    expect("container with memory.max and memory.swap.max=0", s, &in, "cgroup-limit");
    p = plan_run(s, &in);
    CHECK_CONTAINS(line_text(hr_plan_find_warning(p, HR_PW_CGROUP_LIMIT)), "memory.swap.max is 0");
    CHECK_STR(p->steps[0].id, "host");
    free(p);
    free(s);

    s = healthy_linux();
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;
    s->commit.limit_bytes = GB(48);
    expect("overcommit 2", s, &in, "overcommit-never");
    /* Mode 2: RAM gives only ratio % of itself, so a known peak needs more swap. */
    in.peak_commit_bytes = GB(40);
    p = plan_run(s, &in);
    CHECK_EQ_U64(p->recommended.peak_sized_bytes, GB(34)); /* 50 − 16 */
    free(p);
    /* From the table: 32 GB, plus the half of RAM mode 2 does not count. */
    in.peak_commit_bytes = HR_UNKNOWN;
    p = plan_run(s, &in);
    CHECK_EQ_U64(p->recommended.maximum_bytes, GB(48));
    CHECK(has_reason(p, "overcommit-never", "X.overcommit"));
    free(p);
    in.peak_commit_bytes = HR_UNKNOWN;
    free(s);

    s = healthy_linux();
    s->paging_count = 0;
    hr_paging *z = snap_paging(s, "/dev/zram0", HR_PAGING_ZRAM, GB(8), NULL);
    (void)z;
    expect("zram only", s, &in, "zram-not-backstop");
    p = plan_run(s, &in);
    CHECK_EQ_U64(p->recommended.add_bytes, GB(32)); /* zram does not count */
    CHECK_EQ_I64(p->removal_count, 0);              /* and is never removed */
    free(p);
    s->paging_count = 0;
    s->compression.zswap_enabled = HR_TRI_YES;
    expect("zswap without swap", s, &in, "zswap-no-swap");
    free(s);

    s = healthy_linux();
    s->power.on_battery = HR_TRI_YES;
    s->ram.total_bytes = GB(16);
    s->gpus.count = 0;
    snap_gpu(s, "AMD Radeon 780M", GB(8), true);
    expect("laptop on battery with an AMD iGPU", s, &in, "integrated-gpu,on-battery");
    free(s);
}

static void linux_placement(void)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    in.vram_bytes = GB(8);

    /* Swap file on btrfs: eligible, with its constraints, and the btrfs command. */
    hr_snapshot *s = snap_new(HR_OS_LINUX, GB(16));
    snap_volume(s, "/", "btrfs", 1, GB(1000), GB(700), true);
    hr_volume *tmp = snap_volume(s, "/tmp", "tmpfs", -1, GB(8), GB(8), false);
    tmp->can_hold_swap = HR_TRI_NO;
    hr_plan *p = plan_run(s, &in);
    CHECK_STR(p->recommended.target_path, "/headroom.swap");
    CHECK_STR(p->candidates[0].reasons[p->candidates[0].reason_count - 2].id, "btrfs");
    CHECK_CONTAINS(step_command(p, "create"), "btrfs filesystem mkswapfile --size 64g /headroom.swap");
    CHECK(!p->candidates[1].eligible);
    CHECK_CONTAINS(line_text(&p->candidates[1].reasons[0]), "tmpfs");
    free(p);
    free(s);

    /* headroom made a swap file here before: the new one gets the next name. */
    s = snap_new(HR_OS_LINUX, GB(16));
    hr_volume *r2 = snap_volume(s, "/", "ext4", 1, GB(1000), GB(700), true);
    snap_paging(s, "/headroom.swap", HR_PAGING_FILE, GB(16), r2);
    p = plan_run(s, &in);
    CHECK_STR(p->recommended.target_path, "/headroom-2.swap");
    CHECK_EQ_U64(p->recommended.add_bytes, GB(48));
    free(p);
    free(s);

    /* A desktop with its swap partition on an HDD and a roomy SSD /data: move it. */
    s = snap_new(HR_OS_LINUX, GB(16));
    snap_volume(s, "/", "ext4", 0, GB(1000), GB(700), true);
    hr_volume *data = snap_volume(s, "/data", "xfs", 1, GB(1000), GB(800), false);
    (void)data;
    hr_paging *part = snap_paging(s, "/dev/sda3", HR_PAGING_PARTITION, GB(8), NULL);
    part->has_device = true;
    part->device.rotational = HR_TRI_YES;
    part->device.usb = HR_TRI_NO;
    part->device.removable = HR_TRI_NO;
    p = plan_run(s, &in);
    CHECK_STR(p->recommended.target_path, "/data/headroom.swap");
    CHECK_EQ_I64(p->removal_count, 1);
    CHECK_STR(p->removals[0].id, "remove-hdd");
    CHECK_EQ_U64(p->recommended.add_bytes, GB(64));
    CHECK(step_index(p, "swapoff-old") > step_index(p, "swapon"));
    CHECK_CONTAINS(step_command(p, "swapoff-old"), "sudo swapoff /dev/sda3");
    CHECK_CONTAINS(step_command(p, "create"), "fallocate -l 64G /data/headroom.swap");
    free(p);

    /* The same partition on an SSD is kept and counted. */
    part->device.rotational = HR_TRI_NO;
    p = plan_run(s, &in);
    CHECK_EQ_I64(p->removal_count, 0);
    CHECK_EQ_U64(p->recommended.add_bytes, GB(56));
    free(p);
    free(s);

    /* A swap file on a USB disk inside dm-crypt: removed; the USB file system never chosen. */
    s = snap_new(HR_OS_LINUX, GB(16));
    snap_volume(s, "/", "ext4", 1, GB(500), GB(300), true);
    hr_volume *usb = snap_volume(s, "/media/backup", "ext4", 1, GB(2000), GB(1900), false);
    usb->dev.usb = HR_TRI_YES;
    usb->dev.encrypted = HR_TRI_YES;
    hr_strlcpy(usb->dev.encryption, "dm-crypt LUKS2", sizeof usb->dev.encryption);
    snap_paging(s, "/media/backup/swapfile", HR_PAGING_FILE, GB(16), usb);
    p = plan_run(s, &in);
    CHECK_STR(p->recommended.target_path, "/headroom.swap");
    CHECK(hr_plan_find_warning(p, HR_PW_PAGING_ON_REMOVABLE) != NULL);
    CHECK_EQ_I64(p->removal_count, 1);
    CHECK_STR(p->removals[0].rule, "S5.4");
    CHECK_CONTAINS(step_command(p, "swapoff-old"), "swapoff /media/backup/swapfile");
    free(p);
    free(s);

    /* A container: the overlay root cannot hold swap; the steps go to the host. */
    s = snap_new(HR_OS_LINUX, GB(64));
    hr_volume *ov = snap_volume(s, "/", "overlay", -1, GB(100), GB(50), true);
    (void)ov;
    s->platform.container = HR_TRI_YES;
    s->cgroup.memory_max_bytes = GB(16);
    s->cgroup.swap_max_bytes = 0;
    p = plan_run(s, &in);
    CHECK(!p->candidates[0].eligible);
    CHECK_CONTAINS(line_text(&p->candidates[0].reasons[0]), "overlay");
    CHECK(hr_plan_find_warning(p, HR_PW_CGROUP_LIMIT) != NULL);
    CHECK(hr_plan_find_warning(p, HR_PW_NO_TARGET) == NULL); /* the host's business, not "no room" */
    CHECK(!p->recommended.target_known);
    CHECK_CONTAINS(hr_plan_advice_text(&p->recommended, hr_lang_get(), plan_text_buf(), HR_PLAN_TEXT_MAX), "the host");
    CHECK(find_step(p, "raise-limit") != NULL);
    CHECK_CONTAINS(step_command(p, "raise-limit"), "docker update --memory 40g --memory-swap -1");
    CHECK(find_step(p, "create") == NULL);
    free(p);
    free(s);
}

/* The table is the contract: ids as JSON has them (unique, lower-case words), a rule, and
 * templates whose conversions are the parameters the row names, in English and in Chinese. */
static void warning_table(void)
{
    CHECK(hr_plan_warning_row(HR_PW_NONE) == NULL);
    CHECK(hr_plan_warning_row(HR_PW_COUNT) == NULL);
    for (int w = HR_PW_NONE + 1; w < HR_PW_COUNT; w++) {
        const hr_plan_warning_info *row = hr_plan_warning_row((hr_plan_warning)w);
        CHECK(row != NULL);
        if (!row)
            continue;
        CHECK(strspn(row->id, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(row->id) && row->id[0]);
        CHECK(row->rule[0] == 'S' || strncmp(row->rule, "X.", 2) == 0);
        for (int v = HR_PW_NONE + 1; v < w; v++)
            CHECK(strcmp(hr_plan_warning_row((hr_plan_warning)v)->id, row->id) != 0);
        char en[16], zh[16];
        fmt_conversions(row->text, en, sizeof en);
        fmt_conversions(hr_tr_lang(HR_LANG_ZH, row->text), zh, sizeof zh);
        if (strcmp(en, row->params) != 0)
            fprintf(stderr, "warning %s: template takes {%s}, the row says {%s}\n", row->id, en, row->params);
        CHECK_STR(en, row->params);
        CHECK_STR(zh, row->params);
    }
}

/* s as JSON writes a string (quotes and escapes), without the quotes, into b. */
static const char *json_quoted(const char *s, hr_buf *b)
{
    hr_buf_reset(b);
    hr_json_writer w;
    hr_json_init(&w, b, false);
    hr_json_begin_array(&w, NULL);
    hr_json_str(&w, NULL, s);
    hr_json_end_array(&w);
    static char inner[HR_PLAN_TEXT_MAX * 2];
    const char *t = hr_buf_str(b);
    size_t n = strlen(t);
    snprintf(inner, sizeof inner, "%.*s", n >= 4 ? (int)(n - 4) : 0, t + 2);
    return inner;
}

/* One line shown three ways from the same plan: the text report in each language shows it in
 * that language, and the JSON (written while the process is set to Chinese) in English. */
static void line_three_ways(const char *what, const hr_plan_line *l, const char *text_en, const char *text_zh,
                            const char *json, bool must_differ)
{
    char en[HR_PLAN_TEXT_MAX], zh[HR_PLAN_TEXT_MAX];
    hr_buf q;
    hr_buf_init(&q, 0);
    hr_plan_line_text(l, HR_LANG_EN, en, sizeof en);
    hr_plan_line_text(l, HR_LANG_ZH, zh, sizeof zh);
    CHECK(en[0] != '\0');
    if (must_differ && strcmp(en, zh) == 0)
        fprintf(stderr, "%s %s: the same in both languages: %s\n", what, l->id, en);
    CHECK(!must_differ || strcmp(en, zh) != 0);
    CHECK_CONTAINS(text_en, en);
    CHECK_CONTAINS(text_zh, zh);
    if (!strstr(json, json_quoted(en, &q)))
        fprintf(stderr, "%s %s: the JSON lacks the English text %s\n", what, l->id, en);
    CHECK(strstr(json, json_quoted(en, &q)) != NULL);
    CHECK(strcmp(en, zh) == 0 || strstr(json, json_quoted(zh, &q)) == NULL);
    hr_buf_free(&q);
}

/* A plan is computed once and rendered in both languages from that one result: its lines
 * are data, not text written in the language set when the plan was made. */
static void one_plan_both_languages(void)
{
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_VIDEO;
    hr_snapshot *s = healthy_linux();
    s->platform.container = HR_TRI_YES;
    s->cgroup.memory_max_bytes = GB(8);
    s->cgroup.swap_max_bytes = 0;
    hr_strlcpy(s->cgroup.path, "/docker/abc", sizeof s->cgroup.path);
    s->power.on_battery = HR_TRI_YES;
    hr_lang_set(HR_LANG_ZH); /* the language of the moment must not leak into the plan */
    hr_plan *p = plan_run(s, &in);
    CHECK(p->warning_count >= 2);

    hr_buf json, text_en, text_zh;
    hr_buf_init(&json, 0);
    hr_buf_init(&text_en, 0);
    hr_buf_init(&text_zh, 0);
    hr_json_writer w;
    hr_json_init(&w, &json, false);
    hr_plan_json(p, &w, NULL); /* still set to Chinese */
    CHECK_EQ_I64(hr_plan_text(p, &text_zh), 0);
    hr_lang_set(HR_LANG_EN);
    CHECK_EQ_I64(hr_plan_text(p, &text_en), 0);
    const char *je = hr_buf_str(&json), *te = hr_buf_str(&text_en), *tz = hr_buf_str(&text_zh);

    for (int i = 0; i < p->warning_count; i++)
        line_three_ways("warning", &p->warnings[i], te, tz, je, true);
    for (int i = 0; i < p->recommended.reason_count; i++)
        line_three_ways("reason", &p->recommended.reasons[i], te, tz, je, true);
    for (int i = 0; i < p->candidate_count; i++)
        for (int j = 0; j < p->candidates[i].reason_count; j++)
            line_three_ways("candidate reason", &p->candidates[i].reasons[j], te, tz, je, true);

    /* A value that is a message of its own is translated with its line. */
    const hr_plan_line *cg = hr_plan_find_warning(p, HR_PW_CGROUP_LIMIT);
    CHECK(cg != NULL);
    if (cg) {
        char want[HR_PLAN_TEXT_MAX], got[HR_PLAN_TEXT_MAX], lim[32];
        hr_size_gb(GB(8), lim, sizeof lim);
        const char *fmt = hr_plan_warning_row(HR_PW_CGROUP_LIMIT)->text;
        const char *swap0 = ", and memory.swap.max is 0 so it may not swap at all";
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, fmt), lim, "/docker/abc", hr_tr_lang(HR_LANG_ZH, swap0));
        CHECK_STR(hr_plan_line_text(cg, HR_LANG_ZH, got, sizeof got), want);
        snprintf(want, sizeof want, fmt, lim, "/docker/abc", swap0);
        CHECK_STR(hr_plan_line_text(cg, HR_LANG_EN, got, sizeof got), want);
#pragma GCC diagnostic pop
    }
    /* Steps too: the workload's name inside one is translated with it. */
    const hr_plan_step *raise = find_step(p, "raise-limit");
    CHECK(raise != NULL);
    if (raise) {
        char en[HR_PLAN_TEXT_MAX], zh[HR_PLAN_TEXT_MAX];
        hr_buf q;
        hr_buf_init(&q, 0);
        hr_plan_step_text(raise, HR_LANG_EN, en, sizeof en);
        hr_plan_step_text(raise, HR_LANG_ZH, zh, sizeof zh);
        CHECK_CONTAINS(en, "what video needs");
        CHECK_CONTAINS(zh, hr_tr_lang(HR_LANG_ZH, "video"));
        CHECK(strcmp(hr_tr_lang(HR_LANG_ZH, "video"), "video") != 0);
        CHECK_CONTAINS(te, en);
        CHECK_CONTAINS(tz, zh);
        CHECK_CONTAINS(je, json_quoted(en, &q));
        hr_buf_free(&q);
    }
    hr_buf_free(&json);
    hr_buf_free(&text_en);
    hr_buf_free(&text_zh);
    free(p);
    free(s);
}

int main(void)
{
    warning_table();
    one_plan_both_languages();
    windows_scenarios();
    linux_scenarios();
    linux_placement();
    return TEST_DONE();
}
