/* apply plan, refusal rules on recorded facts, PagingFiles safe order value by value, the
 * state file round trip, and verify's verdicts. Pure core: runs on every OS. */
#include "test.h"

#include "core/apply/apply_plan.h"
#include "core/apply/apply_verify.h"
#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/model/pagingfiles.h"

#include <stdio.h>
#include <stdlib.h>

static hr_fstab g_fstab;

/* What the dry run shows, in English (the JSON's language). */
static const char *notes_en(const hr_apply_plan *p)
{
    static char b[2048];
    hr_apply_notes_text(p, HR_LANG_EN, b, sizeof b);
    return b;
}

static const char *step_en(const hr_apply_plan *p, int i)
{
    static char b[1400];
    hr_apply_step_text(p, i, HR_LANG_EN, b, sizeof b);
    return b;
}

static const char *stage_en(const hr_pfw_stage *st)
{
    static char b[700];
    hr_pfw_stage_text(st, HR_LANG_EN, b, sizeof b);
    return b;
}

static hr_apply_linux_in *linux_in(const char *fs, uint64_t total, uint64_t freeb)
{
    hr_apply_linux_in *in = calloc(1, sizeof *in);
    in->size_bytes = 2 * HR_GIB;
    in->priority = 10;
    in->page_size = 4096;
    strcpy(in->path, "/data/headroom.swap");
    strcpy(in->fs.type, fs);
    in->fs.total_bytes = total;
    in->fs.free_bytes = freeb;
    in->fs.devices = 1;
    in->fstab = &g_fstab;
    in->fstab_path = "/etc/fstab";
    return in;
}

static int step_index(const hr_apply_plan *p, hr_step_kind k)
{
    for (int i = 0; i < p->step_count; i++)
        if (p->steps[i].kind == k)
            return i;
    return -1;
}

static void test_linux(void)
{
    hr_error err = { 0 };
    hr_apply_plan *p = calloc(1, sizeof *p);
    hr_fstab_parse(&g_fstab, "", 0, "fstab", &err);

    /* The normal case, in order. */
    hr_apply_linux_in *in = linux_in("ext4", 100 * HR_GIB, 50 * HR_GIB);
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    const hr_step_kind order[] = { HR_STEP_RECORD, HR_STEP_CREATE_FILE, HR_STEP_ALLOCATE, HR_STEP_WRITE_HEADER,
                                   HR_STEP_SWAPON, HR_STEP_FSTAB_ADD,   HR_STEP_FINISH };
    CHECK_EQ_U64(p->step_count, 7);
    for (int i = 0; i < 7 && i < p->step_count; i++)
        CHECK_EQ_U64(p->steps[i].kind, order[i]);
    CHECK(!p->reboot_needed);
    CHECK_EQ_U64(p->size_bytes, 2 * HR_GIB);
    free(in);

    /* Each refusal, with its reason. */
    static const struct {
        const char *fs;
        const char *why;
    } bad[] = { { "tmpfs", "RAM" },
                { "ramfs", "RAM" },
                { "overlay", "overlayfs" },
                { "nfs", "network" },
                { "nfs4", "network" },
                { "cifs", "network" },
                { "fuse", "FUSE" },
                { "fuseblk", "FUSE" },
                { "zfs", "not one headroom knows" },
                { "0x12345", "not one headroom knows" } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        in = linux_in(bad[i].fs, 100 * HR_GIB, 50 * HR_GIB);
        CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
        CHECK_CONTAINS(err.msg, bad[i].why);
        free(in);
    }
    in = linux_in("btrfs", 100 * HR_GIB, 50 * HR_GIB);
    in->fs.devices = 2;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "single-device");
    in->fs.devices = 1;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    CHECK_CONTAINS(step_en(p, 1), "no copy-on-write");
    in->fs.read_only = true;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    free(in);

    /* A removable or USB disk is refused on Linux as plan refuses it (S5.4, issue 16): the
     * facts come from the probe plan's volumes use (hr_lx_device_facts), the rule is one. */
    in = linux_in("ext4", 100 * HR_GIB, 50 * HR_GIB);
    in->dev.removable = HR_TRI_YES;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "removable");
    in->dev.removable = HR_TRI_NO;
    in->dev.usb = HR_TRI_YES;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "USB");
    in->dev.usb = HR_TRI_NO;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    free(in);

    /* Free-space margin: 10 GiB and 5% after the file. */
    in = linux_in("ext4", 100 * HR_GIB, 12 * HR_GIB); /* 12 - 2 = 10 GiB left: ok */
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    in->fs.free_bytes = 12 * HR_GIB - 1;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "must stay free");
    in->fs.total_bytes = 1000 * HR_GIB; /* 5% = 50 GiB */
    in->fs.free_bytes = 51 * HR_GIB;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    in->fs.free_bytes = 52 * HR_GIB;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    in->fs.free_bytes = HR_UNKNOWN;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    free(in);

    /* Hostile targets. */
    in = linux_in("ext4", 100 * HR_GIB, 50 * HR_GIB);
    in->path_exists = true;
    in->path_is_symlink = true;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "symbolic link");
    in->path_is_symlink = false;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "did not create");
    in->path_exists = false;
    strcpy(in->path, "/data/bad\xff.swap");
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EINVAL);
    strcpy(in->path, "/data/交换 文件.swap");
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    strcpy(in->path, "relative.swap");
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EINVAL);
    strcpy(in->path, "/data/headroom.swap");
    in->size_bytes = 40 * 1024;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_ERANGE);
    in->size_bytes = 2 * HR_GIB + 123; /* rounded down to pages */
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    CHECK_EQ_U64(p->size_bytes, 2 * HR_GIB);
    /* A swap line for the path that we did not add. */
    hr_fstab other;
    const char *ft = "/data/headroom.swap none swap sw 0 0\n";
    hr_fstab_parse(&other, ft, strlen(ft), "fstab", &err);
    in->fstab = &other;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    in->fstab = &g_fstab;
    free(in);

    /* State: stopped half way -> refuse; applied -> idempotent; other size -> resize. */
    hr_apply_state st;
    hr_apply_state_init(&st, HR_OS_LINUX);
    strcpy(st.last_step, "allocate");
    in = linux_in("ext4", 100 * HR_GIB, 50 * HR_GIB);
    in->state = &st;
    CHECK(hr_apply_plan_linux(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "rollback");
    strcpy(st.status, "applied");
    hr_apply_area *a = hr_apply_state_add(&st, "/data/headroom.swap");
    a->created = a->enabled = a->in_fstab = true;
    a->size_bytes = 2 * HR_GIB;
    a->priority = 10;
    in->path_exists = true;
    in->active_count = 1;
    strcpy(in->active[0].path, "/data/headroom.swap");
    in->active[0].priority = 10;
    hr_fstab mine;
    hr_fstab_parse(&mine, "", 0, "fstab", &err);
    hr_fstab_add_swap(&mine, "/data/headroom.swap", 10, NULL, &err);
    in->fstab = &mine;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    CHECK(p->nothing_to_do);
    CHECK_EQ_U64(p->step_count, 0);
    /* Not on (e.g. swapoff by hand): only swapon again. */
    in->active_count = 0;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    CHECK(step_index(p, HR_STEP_SWAPON) >= 0);
    CHECK(step_index(p, HR_STEP_CREATE_FILE) < 0);
    CHECK(step_index(p, HR_STEP_FSTAB_ADD) < 0);
    in->active_count = 1;
    /* Resize: the new file gets the other name; new on before old off (S3.1). */
    char path[HR_SNAP_PATH_MAX];
    CHECK(hr_apply_linux_choose_path("/data", true, 4 * HR_GIB, 10, 4096, &st, path, sizeof path, &err) == 0);
    CHECK_STR(path, "/data/headroom-2.swap");
    CHECK(hr_apply_linux_choose_path("/data/", true, 2 * HR_GIB, 10, 4096, &st, path, sizeof path, &err) == 0);
    CHECK_STR(path, "/data/headroom.swap");
    /* --from-plan with headroom's 2 GB file on: plan asks for 4 GB more beside it
     * (headroom-2.swap); apply grows its own file to 6 GB instead, so both end at the plan's
     * total. A plan naming another place: the new file there replaces the old one, so it
     * is 6 GB too (never 4 GB with the 2 GB deleted). */
    uint64_t grown = 0;
    CHECK(hr_apply_linux_grow_own(&st, "/data/headroom-2.swap", 4 * HR_GIB, path, sizeof path, &grown));
    CHECK_STR(path, "/data/headroom.swap");
    CHECK_EQ_U64(grown, 6 * HR_GIB);
    CHECK(hr_apply_linux_choose_path(path, false, grown, 10, 4096, &st, path, sizeof path, &err) == 0);
    CHECK_STR(path, "/data/headroom-2.swap");
    CHECK(hr_apply_linux_grow_own(&st, "/srv/headroom.swap", 4 * HR_GIB, path, sizeof path, &grown));
    CHECK_STR(path, "/srv/headroom.swap");
    CHECK_EQ_U64(grown, 6 * HR_GIB);
    /* ... and the planner then replaces the 2 GB file by the 6 GB one: no shrink refusal */
    {
        hr_apply_linux_in *m = calloc(1, sizeof *m);
        *m = *in;
        m->active[0].size_bytes = 2 * HR_GIB - 4096; /* as headroom made it */
        strcpy(m->path, path);
        m->path_exists = false;
        m->size_bytes = grown;
        CHECK(hr_apply_plan_linux(m, p, &err) == 0);
        CHECK(step_index(p, HR_STEP_DELETE_OLD) > step_index(p, HR_STEP_SWAPON));
        CHECK_EQ_U64(p->size_bytes, 6 * HR_GIB);
        CHECK(!p->hand_edited); /* fstab as headroom wrote it: nothing to say */
        CHECK(strstr(notes_en(p), "by hand") == NULL);
        /* headroom's 2 GiB file resized by hand to 3 GiB (the kernel's size leaves out the
         * header page): said */
        m->active[0].size_bytes = 3 * HR_GIB - 4096;
        CHECK(hr_apply_plan_linux(m, p, &err) == 0);
        CHECK_CONTAINS(notes_en(p), "resized by hand");
        m->active[0].size_bytes = 2 * HR_GIB - 4096; /* as made: nothing to say */
        CHECK(hr_apply_plan_linux(m, p, &err) == 0);
        CHECK(strstr(notes_en(p), "by hand") == NULL);
        /* headroom's line edited by hand since its last write (priority 10 -> 50): the plan
         * says so, naming the line, and marks the edits as what rollback keeps */
        hr_fstab hand;
        const char *txt = "/data/headroom.swap none swap sw,pri=50 0 0\n";
        hr_fstab_parse(&hand, txt, strlen(txt), "fstab", &err);
        st.fstab_written = true;
        strcpy(st.fstab_backup, "/var/lib/headroom/fstab.backup-1");
        m->fstab = &hand;
        m->fstab_edited = true;
        CHECK(hr_apply_plan_linux(m, p, &err) == 0);
        CHECK(p->hand_edited);
        CHECK_CONTAINS(notes_en(p), "changed by hand");
        CHECK_CONTAINS(notes_en(p), "/var/lib/headroom/fstab.backup-1");
        CHECK_CONTAINS(notes_en(p), "'sw,pri=50', not 'defaults,pri=10'");
        /* the same edit but a plan that does not write fstab (only swapon again): no word */
        in->active_count = 0;
        in->fstab_edited = true;
        in->fstab = &mine;
        CHECK(hr_apply_plan_linux(in, p, &err) == 0);
        CHECK(!p->hand_edited);
        in->active_count = 1;
        in->fstab_edited = false;
        hr_fstab_free(&hand);
        free(m);
    }
    CHECK(!hr_apply_linux_grow_own(NULL, "/data/headroom-2.swap", 4 * HR_GIB, path, sizeof path, &grown));
    strcpy(in->path, "/data/headroom-2.swap");
    in->path_exists = false;
    in->size_bytes = 4 * HR_GIB;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    int on = step_index(p, HR_STEP_SWAPON), off = step_index(p, HR_STEP_SWAPOFF_OLD);
    int add = step_index(p, HR_STEP_FSTAB_ADD), rm = step_index(p, HR_STEP_FSTAB_REMOVE_OLD);
    int del = step_index(p, HR_STEP_DELETE_OLD);
    CHECK(on >= 0 && add > on && rm > add && off > rm && del > off);
    CHECK_STR(p->old_path, "/data/headroom.swap");
    /* Other areas on (a 32 GB HDD partition the plan says to swapoff, zram): apply's steps never
     * touch one — only headroom's own area goes — so the total after differs from the total
     * before by the own area alone, and the one guard (hr_apply_shrink_ok) comparing that
     * area's old and new size is the total's comparison (issue 10). 2 GB -> 1 GB is refused
     * beside them, naming the 1 GB that goes; 2 GB -> 4 GB is not. */
    in->active_count = 3;
    strcpy(in->active[1].path, "/dev/sdb2");
    in->active[1].size_bytes = 32 * HR_GIB;
    in->active[1].priority = -2;
    strcpy(in->active[2].path, "/dev/zram0");
    in->active[2].size_bytes = 8 * HR_GIB;
    in->active[2].priority = 100;
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    for (int i = 0; i < p->step_count; i++) {
        CHECK(strcmp(p->steps[i].path, "/dev/sdb2") != 0 && strcmp(p->steps[i].path, "/dev/zram0") != 0);
        CHECK(strstr(step_en(p, i), "/dev/sdb2") == NULL && strstr(step_en(p, i), "/dev/zram0") == NULL);
    }
    in->size_bytes = 1 * HR_GIB;
    CHECK_EQ_I64(hr_apply_plan_linux(in, p, &err), HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "remove 1.00 GiB of swap (2.00 GiB configured now, 1.00 GiB after)");
    in->allow_shrink = true;
    CHECK_EQ_I64(hr_apply_plan_linux(in, p, &err), 0);
    CHECK_CONTAINS(notes_en(p), "removes 1.00 GiB of swap");
    in->allow_shrink = false;
    in->active_count = 1;
    free(in);
    hr_fstab_free(&mine);
    hr_fstab_free(&other);

    /* Text and JSON render. */
    in = linux_in("ext4", 100 * HR_GIB, 50 * HR_GIB);
    CHECK(hr_apply_plan_linux(in, p, &err) == 0);
    hr_buf b;
    hr_buf_init(&b, 0);
    CHECK(hr_apply_plan_text(p, &b) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), " 1. [record]");
    CHECK_CONTAINS(hr_buf_str(&b), "No reboot needed");
    hr_buf_reset(&b);
    CHECK(hr_apply_plan_json(p, &b) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), "\"schema\": \"headroom.apply-plan/1\"");
    CHECK_CONTAINS(hr_buf_str(&b), "\"size_bytes\": 2147483648");
    hr_buf_free(&b);
    free(in);
    free(p);
    hr_fstab_free(&g_fstab);
}

static hr_pfw_list pfw(const char *multi, size_t n)
{
    hr_pfw_list l;
    hr_error err = { 0 };
    CHECK(hr_pfw_deserialize(multi, n, &l, &err) == 0);
    return l;
}

#define PFW(lit) pfw(lit, sizeof lit) /* the literal's own NUL ends the list */

static const char *stage_str(const hr_pfw_stage *s)
{
    static char out[2048];
    out[0] = '\0';
    for (int i = 0; i < s->value.count; i++) {
        char e[600];
        hr_pfw_format_string(&s->value.e[i], e, sizeof e);
        strcat(out, i ? "|" : "");
        strcat(out, e);
    }
    return out;
}

static hr_apply_win_in *win_in(void)
{
    hr_apply_win_in *in = calloc(1, sizeof *in);
    in->initial_mb = in->maximum_mb = 32768;
    in->drive = 'D';
    in->system_drive = 'C';
    in->drive_type = HR_DRIVE_FIXED;
    in->dev.removable = HR_TRI_NO;
    in->dev.usb = HR_TRI_NO;
    in->dev.encrypted = HR_TRI_NO;
    in->dev.fs_total_bytes = 1000 * HR_GIB;
    in->dev.fs_free_bytes = 500 * HR_GIB;
    in->existing_file_bytes = 0;
    return in;
}

static void test_windows(void)
{
    hr_error err = { 0 };
    hr_pfw_entry t = { .mode = HR_PAGING_MODE_CUSTOM, .initial_mb = 65536, .maximum_mb = 65536 };
    strcpy(t.path, "D:\\pagefile.sys");
    hr_pfw_stage st[HR_PFW_MAX_STAGES];
    int n = 0;

    /* The story of the seed: automatic on C:. Untick, add D:, only then remove C:. */
    hr_pfw_list cur = pfw("?:\\pagefile.sys\0", 17);
    CHECK_EQ_U64(cur.count, 1);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 3);
    CHECK_STR(stage_str(&st[0]), "C:\\pagefile.sys 0 0");
    CHECK_STR(stage_str(&st[1]), "C:\\pagefile.sys 0 0|D:\\pagefile.sys 65536 65536");
    CHECK_STR(stage_str(&st[2]), "D:\\pagefile.sys 65536 65536");
    CHECK_CONTAINS(stage_en(&st[0]), "automatic");
    CHECK_CONTAINS(stage_en(&st[2]), "C:\\pagefile.sys");
    /* Every stage keeps a paging file. */
    for (int i = 0; i < n; i++)
        CHECK(st[i].value.count >= 1);

    /* Custom on C: (REG_SZ as Wine has it). */
    cur = pfw("C:\\pagefile.sys 27 77", 22);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 2);
    CHECK_STR(stage_str(&st[0]), "C:\\pagefile.sys 27 77|D:\\pagefile.sys 65536 65536");
    CHECK_STR(stage_str(&st[1]), "D:\\pagefile.sys 65536 65536");

    /* Already applied: nothing to write (idempotent). */
    cur = pfw("D:\\pagefile.sys 65536 65536\0", 29);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 0);
    /* Growing the file on the same drive: one write. */
    cur = pfw("D:\\pagefile.sys 16384 32768\0", 29);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 1);
    CHECK_STR(stage_str(&st[0]), "D:\\pagefile.sys 65536 65536");
    /* No paging file at all: add it. */
    cur = pfw("\0", 1);
    CHECK_EQ_U64(cur.count, 0);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 1);
    /* Several drives. */
    cur = pfw("C:\\pagefile.sys 0 0\0E:\\pagefile.sys 1024 2048\0", 45);
    CHECK(hr_pfw_safe_sequence(&cur, &t, 'C', NULL, st, &n, &err) == 0);
    CHECK_EQ_U64(n, 2);
    CHECK_CONTAINS(stage_en(&st[1]), "C:\\pagefile.sys, E:\\pagefile.sys");

    /* Serialization: REG_MULTI_SZ with both final NULs. */
    hr_buf b;
    hr_buf_init(&b, 0);
    CHECK(hr_pfw_serialize(&st[0].value, &b) == 0);
    CHECK_EQ_U64(b.len, strlen("C:\\pagefile.sys 0 0") + 1 + strlen("E:\\pagefile.sys 1024 2048") + 1 +
                            strlen("D:\\pagefile.sys 65536 65536") + 1 + 1);
    hr_buf_free(&b);
    hr_pfw_entry e;
    CHECK(hr_pfw_parse_string("C:\\pagefile.sys", &e, &err) == 0);
    CHECK_EQ_U64(e.mode, HR_PAGING_MODE_SYSTEM_MANAGED);
    CHECK(hr_pfw_parse_string("D:\\pagefile.sys 4096 1024", &e, &err) == 0);
    CHECK_EQ_U64(e.maximum_mb, 4096); /* smss raises max to min */
    CHECK(hr_pfw_parse_string("pagefile.sys 1 2", &e, &err) == HR_EPARSE);
    CHECK(hr_pfw_parse_string("C:\\pagefile.sys x", &e, &err) == HR_EPARSE);
    /* One reading of an entry: what status takes, apply takes, with the same sizes; what
     * status leaves out, apply refuses (issue 9 found them disagreeing on each of these). */
    static const char *const entries[] = { "C:\\pagefile.sys 1 2 3",
                                           "100",
                                           "CC:\\pagefile.sys 1 2",
                                           "H:\\pagefile.sys 0x400 0x800",
                                           "\\??\\I:\\pagefile.sys 00 000",
                                           "C:\\pagefile.sys 5x 6",
                                           "C:\\pagefile.sys 1024,2048",
                                           "?:\\pagefile.sys",
                                           "E:\\pagefile.sys\t65536\t65536  ",
                                           "J:\\pagefile.sys abc",
                                           "" };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        hr_paging_config_entry m;
        hr_error e1 = { 0 }, e2 = { 0 };
        const int rm = hr_pagingfiles_parse_entry(entries[i], &m, &e1);
        const int ra = hr_pfw_parse_string(entries[i], &e, &e2);
        CHECK_EQ_I64(rm == 0, ra == 0);
        if (rm != 0 || ra != 0)
            continue;
        CHECK_STR(e.path, m.path);
        CHECK_EQ_U64(e.mode, m.mode);
        if (m.mode == HR_PAGING_MODE_CUSTOM) {
            CHECK_EQ_U64(e.initial_mb << 20, m.initial_bytes);
            CHECK_EQ_U64(e.maximum_mb << 20, m.maximum_bytes);
        }
    }
    CHECK(hr_pfw_parse_string("C:\\pagefile.sys 1 2 3", &e, &err) == 0);
    CHECK_EQ_U64(e.maximum_mb, 2);

    /* The plan and the refusal rules on recorded drive facts. */
    hr_apply_plan *p = calloc(1, sizeof *p);
    hr_apply_win_in *in = win_in();
    in->current = pfw("?:\\pagefile.sys\0", 17);
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    CHECK(p->reboot_needed);
    CHECK_EQ_U64(p->step_count, 5);
    CHECK_EQ_U64(p->steps[0].kind, HR_STEP_BACKUP_REGISTRY);
    CHECK_STR(p->steps[1].name, "write-paging-files-1");
    CHECK_STR(p->steps[3].name, "write-paging-files-3");
    CHECK(p->steps[3].needs_reboot);
    CHECK_CONTAINS(notes_en(p), "first boot");
    in->dev.removable = HR_TRI_YES;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "removable");
    in->dev.removable = HR_TRI_NO;
    in->dev.usb = HR_TRI_YES;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "USB");
    in->dev.usb = HR_TRI_UNKNOWN; /* bus unknown (Wine): allowed on a fixed drive */
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    CHECK(!strstr(notes_en(p), "Not known")); /* removable: no, as the storage stack said */
    /* removability not read either (S5.4): allowed, as plan allows it (ranked last), and said */
    in->dev.removable = HR_TRI_UNKNOWN;
    hr_words_set(&in->dev.why, "bus type unknown (IOCTL_STORAGE_QUERY_PROPERTY failed)");
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    CHECK_CONTAINS(notes_en(p), "Not known: whether D: is removable or attached by USB (bus type unknown");
    CHECK_CONTAINS(notes_en(p), "(S5.4)");
    { /* the probe's reason in each language: Chinese in the text, English in the JSON */
        char zh[2048];
        hr_apply_notes_text(p, HR_LANG_ZH, zh, sizeof zh);
        const char *why_zh = hr_tr_lang(HR_LANG_ZH, "bus type unknown (IOCTL_STORAGE_QUERY_PROPERTY failed)");
        CHECK(strcmp(why_zh, "bus type unknown (IOCTL_STORAGE_QUERY_PROPERTY failed)") != 0);
        CHECK_CONTAINS(zh, why_zh);
        CHECK(!strstr(notes_en(p), why_zh));
    }
    in->dev.removable = HR_TRI_NO;
    hr_words_clear(&in->dev.why);
    /* a letter no drive has: said so, not "of unknown type" */
    in->drive_type = HR_DRIVE_NONE;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "D: does not exist");
    CHECK(!strstr(err.msg, "unknown type"));
    in->drive_type = HR_DRIVE_FIXED;
    in->dev.encrypted = HR_TRI_YES;
    strcpy(in->dev.encryption, "BitLocker To Go");
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "BitLocker");
    strcpy(in->dev.encryption, "BitLocker"); /* a fixed BitLocker drive is fine */
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    in->drive_type = HR_DRIVE_REMOTE;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "network");
    in->drive_type = HR_DRIVE_REMOVABLE;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    in->drive_type = HR_DRIVE_FIXED;
    /* Margin: 64 GiB needed + 10 GiB (and 5% of 100 GiB = 5) = 74 GiB. */
    in->initial_mb = in->maximum_mb = 65536;
    in->dev.fs_total_bytes = 100 * HR_GIB;
    in->dev.fs_free_bytes = 73 * HR_GIB;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "must stay free");
    in->existing_file_bytes = 2 * HR_GIB; /* the old file on D: is reused */
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    in->initial_mb = 0;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_ERANGE);
    in->initial_mb = 70000;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_ERANGE); /* initial > maximum */

    /* Never less paging file than is configured (issue 10): C: 4 GB + D: 64 GB and
     * --size 1G on D: is refused, naming the sizes now and after; --allow-shrink lets it
     * and the notes say how much goes. */
    in->dev.fs_total_bytes = 1000 * HR_GIB;
    in->dev.fs_free_bytes = 500 * HR_GIB;
    in->current = pfw("C:\\pagefile.sys 4096 4096\0D:\\pagefile.sys 65536 65536\0", 55);
    CHECK_EQ_U64(in->current.count, 2);
    in->initial_mb = in->maximum_mb = 1024;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "68.0 GiB configured now, 1.00 GiB after");
    CHECK_CONTAINS(err.msg, "remove 67.0 GiB");
    CHECK_CONTAINS(err.msg, "C:\\pagefile.sys 4.00 GiB, D:\\pagefile.sys 64.0 GiB");
    CHECK_CONTAINS(err.msg, "--allow-shrink");
    in->allow_shrink = true;
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    CHECK_CONTAINS(notes_en(p), "removes 67.0 GiB of paging file");
    in->allow_shrink = false;
    /* The same total elsewhere is no shrink; more is none either. */
    in->initial_mb = in->maximum_mb = 69632;
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    CHECK(strstr(notes_en(p), "--allow-shrink") == NULL);
    /* A range counts its maximum: 64 GB fixed -> 16-64 GB is not a shrink, 16-32 is. */
    in->current = pfw("D:\\pagefile.sys 65536 65536\0", 29);
    in->initial_mb = 16384;
    in->maximum_mb = 65536;
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    in->maximum_mb = 32768;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    /* System managed / automatic: the file now on its drive is what it gives (24 GB on C:);
     * a size not known counts 0 (the least there is). */
    in->current = pfw("?:\\pagefile.sys\0", 17);
    in->drive_file_bytes['C' - 'A'] = 24 * HR_GIB;
    in->initial_mb = in->maximum_mb = 16384;
    CHECK(hr_apply_plan_windows(in, p, &err) == HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "system managed");
    in->initial_mb = in->maximum_mb = 32768;
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);
    in->drive_file_bytes['C' - 'A'] = HR_UNKNOWN;
    in->initial_mb = in->maximum_mb = 1024;
    CHECK(hr_apply_plan_windows(in, p, &err) == 0);

    /* X.dump (issue 10): plan keeps the small C: file crash dumps need; apply keeps the same
     * entry (hr_dump_file_stays, one rule), and its shrink guard counts it. C: 4 GB + D: 64 GB
     * and --size 64G on D: is the seed author's setup: nothing to do, not a shrink. */
    in->current = PFW("C:\\pagefile.sys 4096 4096\0D:\\pagefile.sys 65536 65536\0");
    in->initial_mb = in->maximum_mb = 65536;
    for (int k = 0; k < 2; k++) {
        in->dump_needs_system_paging = k ? HR_TRI_YES : HR_TRI_UNKNOWN; /* on, or not read */
        CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
        CHECK(p->nothing_to_do);
        CHECK(hr_apply_win_dump_entry(in) != NULL);
    }
    /* Dumps off (or to a dedicated file): C: goes as before, and that is a shrink of 4 GB. */
    in->dump_needs_system_paging = HR_TRI_NO;
    CHECK(hr_apply_win_dump_entry(in) == NULL);
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), HR_EUNSAFE);
    CHECK_CONTAINS(err.msg, "remove 4.00 GiB");
    /* Growing D: beside the dump file: one write, C: stays where it was in the list. */
    in->dump_needs_system_paging = HR_TRI_YES;
    in->current = PFW("C:\\pagefile.sys 4096 4096\0D:\\pagefile.sys 16384 16384\0");
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK_EQ_U64(p->stage_count, 1);
    CHECK_STR(stage_str(&p->stages[0]), "C:\\pagefile.sys 4096 4096|D:\\pagefile.sys 65536 65536");
    CHECK_CONTAINS(notes_en(p), "C:\\pagefile.sys (4096 MB) stays");
    CHECK_CONTAINS(notes_en(p), "X.dump");
    /* A file on E: goes, the dump file stays: the last write names both. */
    in->current = PFW("C:\\pagefile.sys 2048 4096\0E:\\pagefile.sys 8192 8192\0");
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK_EQ_U64(p->stage_count, 2);
    CHECK_STR(stage_str(&p->stages[1]), "C:\\pagefile.sys 2048 4096|D:\\pagefile.sys 65536 65536");
    CHECK_CONTAINS(stage_en(&p->stages[1]), "E:\\pagefile.sys (C:\\pagefile.sys stays for crash dumps");
    /* Not the dump file: system managed (no size of its own), larger than 16 GB, or the
     * target on C: itself. */
    in->current = PFW("C:\\pagefile.sys 0 0\0D:\\pagefile.sys 16384 16384\0");
    CHECK(hr_apply_win_dump_entry(in) == NULL);
    in->current = PFW("C:\\pagefile.sys 32768 32768\0D:\\pagefile.sys 16384 16384\0");
    CHECK(hr_apply_win_dump_entry(in) == NULL);
    /* ... then C:'s file goes: with crash dumps on, apply says what that costs (X.dump);
     * dumps off, or the file kept, nothing of the kind */
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK_CONTAINS(notes_en(p), "C:'s paging file goes, and crash dumps are on");
    in->dump_needs_system_paging = HR_TRI_UNKNOWN;
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK_CONTAINS(notes_en(p), "not read: assumed on");
    in->dump_needs_system_paging = HR_TRI_NO;
    in->allow_shrink = true;
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK(strstr(notes_en(p), "crash dumps are on") == NULL);
    in->allow_shrink = false;
    in->dump_needs_system_paging = HR_TRI_YES;
    in->current = PFW("C:\\pagefile.sys 4096 4096\0D:\\pagefile.sys 16384 16384\0");
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK(strstr(notes_en(p), "crash dumps are on") == NULL);
    in->current = PFW("C:\\pagefile.sys 32768 32768\0D:\\pagefile.sys 16384 16384\0");
    in->current = PFW("C:\\pagefile.sys 4096 4096\0D:\\pagefile.sys 16384 16384\0");
    in->drive = 'C';
    CHECK(hr_apply_win_dump_entry(in) == NULL);
    in->drive = 'D';
    /* A hand edit since headroom's last write: apply says so and takes it over as the value
     * rollback gives back (backed up again), never in silence; headroom's own value, or the
     * one a cut-short write left, is no hand edit. */
    {
        hr_apply_state *hst = calloc(1, sizeof *hst);
        hr_apply_state_init(hst, HR_OS_WINDOWS);
        strcpy(hst->status, "applied");
        strcpy(hst->reg_backup, "C:\\ProgramData\\headroom\\registry-backup-20260101T000000Z.json");
        hst->reg_written = true;
        hst->orig = PFW("?:\\pagefile.sys\0");
        hst->written = PFW("D:\\pagefile.sys 32768 32768\0");
        in->state = hst;
        in->dump_needs_system_paging = HR_TRI_NO;
        in->current = PFW("D:\\pagefile.sys 40000 40000\0"); /* typed by hand */
        CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
        CHECK(p->hand_edited);
        CHECK_CONTAINS(notes_en(p), "changed by hand since headroom last wrote it");
        CHECK_CONTAINS(notes_en(p), "registry-backup-20260101T000000Z.json");
        in->current = hst->written;
        CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
        CHECK(!p->hand_edited && strstr(notes_en(p), "by hand") == NULL);
        hst->pending = PFW("D:\\pagefile.sys 40000 40000\0");
        hst->pending_set = true;
        in->current = hst->pending;
        CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
        CHECK(!p->hand_edited);
        in->state = NULL;
        free(hst);
    }
    free(in);
    free(p);
}

static void test_state(void)
{
    hr_error err = { 0 };
    hr_apply_state s, t;
    hr_apply_state_init(&s, HR_OS_LINUX);
    strcpy(s.status, "applied");
    strcpy(s.last_step, "finish");
    strcpy(s.fstab_path, "/etc/fstab");
    strcpy(s.fstab_backup, "/var/lib/headroom/fstab.backup-20240101T000000Z");
    s.fstab_existed = s.fstab_written = s.fstab_added_newline = true;
    s.fstab_written_hash = 0xfedcba9876543210ULL;
    s.fstab_hand_kept = true;
    s.started_unix = 1700000000;
    hr_apply_area *a = hr_apply_state_add(&s, "/数据/a \"b\"\\c.swap");
    a->size_bytes = 64ULL << 30;
    a->priority = 10;
    a->created = true;
    a->inode = 123456789012ULL;
    a->device = 2049;
    strcpy(a->uuid, "1b4e28ba-2fa1-41d2-883f-0016d3cca427");
    hr_buf b;
    hr_buf_init(&b, 0);
    CHECK(hr_apply_state_write(&s, &b) == 0);
    CHECK(hr_apply_state_parse(b.data, b.len, "state", &t, &err) == 0);
    CHECK_STR(t.status, "applied");
    CHECK_EQ_U64(t.fstab_written_hash, 0xfedcba9876543210ULL);
    CHECK(t.fstab_added_newline);
    CHECK(t.fstab_hand_kept);
    CHECK_EQ_U64(t.area_count, 1);
    CHECK_STR(t.areas[0].path, "/数据/a \"b\"\\c.swap");
    CHECK_EQ_U64(t.areas[0].size_bytes, 64ULL << 30);
    CHECK_EQ_U64(t.areas[0].inode, 123456789012ULL);
    CHECK_EQ_I64(t.areas[0].priority, 10);
    CHECK(t.areas[0].created && !t.areas[0].enabled);
    CHECK_EQ_I64(t.started_unix, 1700000000);

    hr_apply_state_init(&s, HR_OS_WINDOWS);
    strcpy(s.orig_type, "REG_SZ");
    s.orig = pfw("C:\\pagefile.sys 27 77", 22);
    s.written = pfw("D:\\pagefile.sys 1024 1024\0", 27);
    s.reg_written = true;
    hr_buf_reset(&b);
    CHECK(hr_apply_state_write(&s, &b) == 0);
    CHECK(hr_apply_state_parse(b.data, b.len, "state", &t, &err) == 0);
    CHECK(t.os == HR_OS_WINDOWS);
    CHECK_STR(t.orig_type, "REG_SZ");
    CHECK(hr_pfw_equal(&t.orig, &s.orig));
    CHECK(hr_pfw_equal(&t.written, &s.written));
    hr_buf_free(&b);

    const char *bad[] = { "",
                          "[]",
                          "{\"schema\":\"other/1\",\"os\":\"linux\",\"status\":\"applied\"}",
                          "{\"schema\":\"headroom.apply-state/1\",\"os\":\"linux\",\"status\":\"x\"}",
                          "{\"schema\":\"headroom.apply-state/1\"",
                          "{\"a\":tru}",
                          "{\"a\":\"\\ud800\"}",
                          "{\"schema\":\"headroom.apply-state/1\",\"os\":\"linux\",\"status\":\"applied\"} x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(hr_apply_state_parse(bad[i], strlen(bad[i]), "/var/lib/headroom/apply-state.json", &t, &err) < 0);
    CHECK_CONTAINS(err.msg, "apply-state.json");

    /* Paths come back byte for byte or not at all: a NUL or invalid UTF-8 is refused. */
    const char *head = "{\"schema\":\"headroom.apply-state/1\",\"os\":\"linux\","
                       "\"status\":\"applied\",\"areas\":[{\"path\":";
    const char *paths[] = { "\"/a\\u0000b\"}]}", "\"/a\xff\"}]}" };
    const char *why[] = { "NUL", "invalid UTF-8" };
    for (size_t i = 0; i < 2; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "%s%s", head, paths[i]);
        CHECK(hr_apply_state_parse(doc, strlen(doc), "apply-state.json", &t, &err) == HR_EPARSE);
        CHECK_CONTAINS(err.msg, "apply-state.json: ");
        CHECK_CONTAINS(err.msg, why[i]);
    }
    /* A relative area path is refused: a later rollback would swapoff and delete it relative
     * to whatever directory it runs in. The same for the temporary file of a resize. */
    const char *rel[] = { "\"headroom.swap\"}]}", "\"./data/headroom.swap\"}]}",
                          "\"/data/headroom.swap\",\"tmp\":\"headroom.swap.tmp\"}]}" };
    const char *rel_why[] = { "areas[0]", "areas[0]", "areas[0].tmp" };
    for (size_t i = 0; i < 3; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "%s%s", head, rel[i]);
        CHECK(hr_apply_state_parse(doc, strlen(doc), "apply-state.json", &t, &err) == HR_EPARSE);
        CHECK_CONTAINS(err.msg, "apply-state.json: ");
        CHECK_CONTAINS(err.msg, rel_why[i]);
    }
    /* The control: the same document with an absolute path loads. */
    char ok_doc[256];
    snprintf(ok_doc, sizeof ok_doc, "%s%s", head, "\"/data/headroom.swap\",\"tmp\":\"/data/h.tmp\"}]}");
    CHECK(hr_apply_state_parse(ok_doc, strlen(ok_doc), "apply-state.json", &t, &err) == 0);
    CHECK(t.area_count == 1);
}

static void test_verify(void)
{
    hr_verify_linux_in *in = calloc(1, sizeof *in);
    hr_verify_result *r = calloc(1, sizeof *r);
    in->fstab_path = "/etc/fstab";
    in->commit_limit_bytes = in->commit_charge_bytes = HR_UNKNOWN;
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_MATCH);
    in->config_count = 2;
    strcpy(in->config[0].spec, "/swapfile");
    in->config[0].priority = 10;
    strcpy(in->config[1].spec, "UUID=abcd");
    strcpy(in->config[1].resolved, "/dev/sda3");
    in->config[1].priority = HR_UNKNOWN_I64;
    in->active_count = 2;
    strcpy(in->active[0].path, "/swapfile");
    in->active[0].priority = 10;
    strcpy(in->active[1].path, "/dev/sda3");
    in->active[1].priority = -2;
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_MATCH);
    in->active[0].priority = 5;
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    in->active[0].priority = 10;
    in->active_count = 1; /* /dev/sda3 not on */
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    in->active_count = 3;
    strcpy(in->active[1].path, "/dev/sda3");
    strcpy(in->active[2].path, "/dev/zram0");
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_MATCH);
    strcpy(in->active[2].path, "/other.swap"); /* on, but gone after a reboot */
    hr_verify_linux(in, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    free(in);

    hr_verify_win_in *w = calloc(1, sizeof *w);
    hr_apply_state st;
    hr_apply_state_init(&st, HR_OS_WINDOWS);
    strcpy(st.status, "applied");
    st.reg_written = true;
    st.started_unix = 2000;
    w->configured_present = true;
    w->configured = pfw("D:\\pagefile.sys 32768 32768\0", 29);
    w->existing_count = 1;
    strcpy(w->existing[0], "\\??\\C:\\pagefile.sys");
    w->open_known = true;
    w->open_count = 1;
    strcpy(w->open[0].path, "C:\\pagefile.sys");
    w->open[0].size_bytes = HR_GIB;
    w->commit_limit_bytes = w->commit_charge_bytes = HR_UNKNOWN;
    w->state = &st;
    w->boot_unix = 1000; /* the change came after this boot: waits for the reboot */
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_PENDING_REBOOT);
    w->boot_unix = 3000; /* rebooted since, and still the old file: they disagree */
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_verify_text(r, &b);
    CHECK_CONTAINS(hr_buf_str(&b), "should be gone");
    hr_buf_free(&b);
    strcpy(w->existing[0], "\\??\\D:\\pagefile.sys");
    strcpy(w->open[0].path, "D:\\pagefile.sys");
    w->open[0].size_bytes = 32768 * HR_MIB;
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_MATCH);
    w->open[0].size_bytes = 1024 * HR_MIB; /* smaller than configured */
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    hr_buf_init(&b, 0);
    CHECK(hr_verify_json(r, &b) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), "\"verdict\": \"differ\"");
    hr_buf_free(&b);

    /* Issue 10: TempPageFile = 1 is a disagreement, never "configured = in use". */
    w->open[0].size_bytes = 32768 * HR_MIB;
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_MATCH);
    w->temp_page_file = HR_TRI_YES;
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    w->temp_page_file = HR_TRI_NO;
    /* A configured drive that does not exist: no reboot creates it. */
    w->configured = pfw("E:\\pagefile.sys 32768 32768\0", 29);
    w->boot_unix = 1000; /* written after this boot */
    w->drives_known = true;
    w->drives_mask = (1u << 2) | (1u << 3); /* C: D: */
    hr_verify_windows(w, r);
    CHECK_EQ_U64(r->verdict, HR_VERDICT_DIFFER);
    hr_buf_init(&b, 0);
    hr_verify_text(r, &b);
    CHECK_CONTAINS(hr_buf_str(&b), "no such drive, so no restart will create it (E:)");
    CHECK(strstr(hr_buf_str(&b), "creates it") == NULL || strstr(hr_buf_str(&b), "no restart will create it") != NULL);
    CHECK(strstr(hr_buf_str(&b), "the reboot creates it") == NULL);
    hr_buf_free(&b);
    /* Unknown amounts are not "0 B"; a caveat is a note, not a match. */
    w->configured = pfw("D:\\pagefile.sys 32768 32768\0", 29);
    w->drives_known = false;
    w->open_known = false;
    w->open_count = 0;
    w->commit_limit_bytes = 64 * HR_GIB;
    hr_verify_windows(w, r);
    hr_buf_init(&b, 0);
    hr_verify_text(r, &b);
    CHECK(strstr(hr_buf_str(&b), "adds 0 B") == NULL);
    CHECK(strstr(hr_buf_str(&b), "committed now 0 B") == NULL);
    CHECK_CONTAINS(hr_buf_str(&b), "note    the open paging files could not be listed");
    CHECK(strstr(hr_buf_str(&b), "ok      the open paging files") == NULL);
    hr_buf_free(&b);
    hr_buf_init(&b, 0);
    CHECK(hr_verify_json(r, &b) == 0);
    CHECK_CONTAINS(hr_buf_str(&b), "\"verdict\": \"note\"");
    CHECK_CONTAINS(hr_buf_str(&b), "\"paging_in_use_bytes\": null");
    hr_buf_free(&b);
    free(w);
    free(r);
}

static bool ascii_only(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

/* One result, two languages: the dry run's text and verify's text are in the user's
 * language, their JSON is English whatever the language is, with no switch in between. */
static void test_languages(void)
{
    hr_error err = { 0 };
    hr_apply_plan *p = calloc(1, sizeof *p);
    hr_apply_win_in *in = win_in();
    hr_apply_state *st = calloc(1, sizeof *st);
    hr_apply_state_init(st, HR_OS_WINDOWS);
    strcpy(st->status, "applied");
    strcpy(st->reg_backup, "C:\\ProgramData\\headroom\\registry-backup-20260101T000000Z.json");
    st->reg_written = true;
    st->written = PFW("D:\\pagefile.sys 32768 32768\0");
    in->state = st;
    in->current = PFW("D:\\pagefile.sys 40000 40000\0C:\\pagefile.sys\0"); /* typed by hand */
    in->dev.removable = HR_TRI_UNKNOWN; /* why not known: "not read", a msgid of its own */
    in->allow_shrink = true;
    in->dump_needs_system_paging = HR_TRI_UNKNOWN;
    for (int d = 0; d < 26; d++)
        in->drive_file_bytes[d] = HR_UNKNOWN; /* "size not known", said in the list */
    CHECK_EQ_I64(hr_apply_plan_windows(in, p, &err), 0);
    CHECK(p->hand_edited);

    hr_buf text_en, text_zh, json_en, json_zh;
    hr_buf_init(&text_en, 0);
    hr_buf_init(&text_zh, 0);
    hr_buf_init(&json_en, 0);
    hr_buf_init(&json_zh, 0);
    hr_lang_set(HR_LANG_ZH);
    CHECK(hr_apply_plan_text(p, &text_zh) == 0);
    CHECK(hr_apply_plan_json(p, &json_zh) == 0);
    hr_lang_set(HR_LANG_EN);
    CHECK(hr_apply_plan_text(p, &text_en) == 0);
    CHECK(hr_apply_plan_json(p, &json_en) == 0);
    CHECK_STR(hr_buf_str(&json_zh), hr_buf_str(&json_en));
    CHECK(ascii_only(hr_buf_str(&json_zh)));
    const char *en[] = { "back up PagingFiles",
                         "set D:\\\\pagefile.sys initial 32768 MB, maximum 32768 MB: PagingFiles",
                         "--allow-shrink: this removes",
                         "changed by hand since headroom last wrote it (now D:",
                         "size not known (system managed, the file now)",
                         "USB (not read)",
                         "(CrashControl not read" };
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
        CHECK_CONTAINS(hr_buf_str(&json_zh), en[i]);
    /* the text: every part in Chinese, the nested ones too */
    const char *zh[] = { "size not known", " (system managed, the file now)", "not read", " not read: assumed on",
                         " (takes effect after a reboot)" };
    for (size_t i = 0; i < sizeof zh / sizeof zh[0]; i++) {
        CHECK(strcmp(hr_tr_lang(HR_LANG_ZH, zh[i]), zh[i]) != 0);
        CHECK_CONTAINS(hr_buf_str(&text_zh), hr_tr_lang(HR_LANG_ZH, zh[i]));
        CHECK_CONTAINS(hr_buf_str(&text_en), zh[i]);
    }
    char want[200];
    snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, "%s initial %llu MB, maximum %llu MB"), "D:\\pagefile.sys",
             32768ULL, 32768ULL);
    CHECK_CONTAINS(hr_buf_str(&text_zh), want);
    CHECK(strstr(hr_buf_str(&text_zh), "by hand") == NULL && strstr(hr_buf_str(&text_zh), "this removes") == NULL);

    /* Linux: a step whose words are translated values, and the shrink said as a sentence */
    hr_apply_linux_in *li = linux_in("btrfs", 1000 * HR_GIB, 500 * HR_GIB);
    CHECK_EQ_I64(hr_apply_plan_linux(li, p, &err), 0);
    hr_buf_reset(&text_zh);
    hr_buf_reset(&json_zh);
    hr_buf_reset(&json_en);
    hr_lang_set(HR_LANG_ZH);
    CHECK(hr_apply_plan_text(p, &text_zh) == 0);
    CHECK(hr_apply_plan_json(p, &json_zh) == 0);
    hr_lang_set(HR_LANG_EN);
    CHECK(hr_apply_plan_json(p, &json_en) == 0);
    CHECK_STR(hr_buf_str(&json_zh), hr_buf_str(&json_en));
    CHECK_CONTAINS(hr_buf_str(&json_zh), "no copy-on-write (chattr +C)");
    CHECK_CONTAINS(hr_buf_str(&text_zh), hr_tr_lang(HR_LANG_ZH, "new file only (O_EXCL, no symlinks), mode 0600"));
    CHECK_CONTAINS(hr_buf_str(&text_zh), hr_tr_lang(HR_LANG_ZH, ", no copy-on-write (chattr +C) while it is empty"));

    /* verify: a finding with a translated part, a run cut short, and what recovery did */
    hr_verify_win_in *w = calloc(1, sizeof *w);
    hr_verify_result *r = calloc(1, sizeof *r);
    strcpy(st->status, "in-progress");
    strcpy(st->intent.step, "write-paging-files-2");
    w->state = st;
    w->configured_present = true;
    w->configured = PFW("D:\\pagefile.sys 32768 32768\0");
    w->open_known = true;
    w->boot_unix = HR_UNKNOWN_I64;
    w->commit_limit_bytes = w->commit_charge_bytes = HR_UNKNOWN;
    hr_verify_windows(w, r);
    hr_recovery_add(&r->recovered, HR_RECOVERED_DONE, "write-paging-files-2", NULL);
    hr_buf_reset(&text_zh);
    hr_buf_reset(&json_zh);
    hr_buf_reset(&json_en);
    hr_lang_set(HR_LANG_ZH);
    CHECK(hr_verify_text(r, &text_zh) == 0);
    CHECK(hr_verify_json(r, &json_zh) == 0);
    hr_lang_set(HR_LANG_EN);
    CHECK(hr_verify_json(r, &json_en) == 0);
    CHECK_STR(hr_buf_str(&json_zh), hr_buf_str(&json_en));
    CHECK(ascii_only(hr_buf_str(&json_zh)));
    CHECK_CONTAINS(hr_buf_str(&json_zh), "recovered: step 'write-paging-files-2' was cut short; it was done");
    CHECK_CONTAINS(hr_buf_str(&json_zh), " (step 'write-paging-files-2' was cut short)");
    CHECK_CONTAINS(hr_buf_str(&json_zh), "configured but not in use");
    CHECK_CONTAINS(hr_buf_str(&text_zh), hr_tr_lang(HR_LANG_ZH, "it was done"));
    snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, " (step '%s' was cut short)"), "write-paging-files-2");
    CHECK_CONTAINS(hr_buf_str(&text_zh), want);

    hr_buf_free(&text_en);
    hr_buf_free(&text_zh);
    hr_buf_free(&json_en);
    hr_buf_free(&json_zh);
    free(r);
    free(w);
    free(li);
    free(st);
    free(in);
    free(p);
}

int main(void)
{
    test_linux();
    test_windows();
    test_state();
    test_verify();
    test_languages();
    return TEST_DONE();
}
