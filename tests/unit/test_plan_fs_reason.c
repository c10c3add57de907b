/* Plan's candidate line for a place that cannot hold the file ("fs", X.fs) puts the file
 * system's name first unless the reason names it already — decided by the reason's row
 * (hr_swap_why_names_fs), never by looking for the name in the translated words. Each case
 * says by hand which reason the rules give and whether it names the file system; the line
 * must be exactly that, in English and in Chinese. Cases where the words happen to contain
 * the type ("only" in "mounted read-only") keep the name: reading the words would drop it,
 * in English only. */
#include "plan_snap.h"
#include "test.h"

#include "core/base/i18n.h"
#include "core/model/swap_verdict.h"

typedef struct fs_case {
    hr_os os;
    const char *mount, *target, *fs;
    int devices;
    bool read_only;
    hr_tri probe;            /* what the probe recorded: YES leaves it to the rules */
    hr_swap_why recorded;    /* the probe's reason when it said NO */
    hr_swap_why want;        /* the reason plan must give */
    bool named;              /* it names the file system: no "fs: " before it */
    const char *dir, *param; /* the reason's directory / file system parameter */
    const char *english;     /* the whole line in English, when pinned */
} fs_case;

static const fs_case cases[] = {
    { HR_OS_WINDOWS, "D:\\", "D:", "FAT32", 0, false, HR_TRI_YES, HR_SW_NONE, HR_SW_FAT, true, "", "",
      "FAT / exFAT cannot hold a file this large (FAT32 stops at 4 GB)" },
    { HR_OS_WINDOWS, "E:\\", "E:", "exFAT", 0, false, HR_TRI_YES, HR_SW_NONE, HR_SW_FAT, true, "", "", NULL },
    { HR_OS_LINUX, "/boot/efi", "/boot/efi", "vfat", 1, false, HR_TRI_YES, HR_SW_NONE, HR_SW_FAT, false, "", "",
      "vfat: FAT / exFAT cannot hold a file this large (FAT32 stops at 4 GB)" },
    { HR_OS_LINUX, "/c1", "/c1", "overlay", 1, false, HR_TRI_YES, HR_SW_NONE, HR_SW_OVERLAY, true, "", "",
      "overlayfs (a container's root) cannot hold a swap file" },
    { HR_OS_LINUX, "/c2", "/c2", "aufs", 1, false, HR_TRI_YES, HR_SW_NONE, HR_SW_OVERLAY, false, "", "",
      "aufs: overlayfs (a container's root) cannot hold a swap file" },
    { HR_OS_LINUX, "/pool", "/pool", "btrfs", 3, false, HR_TRI_YES, HR_SW_NONE, HR_SW_BTRFS_DEVICES, true, "", "",
      "btrfs on 3 devices: the kernel takes swap files only on a single-device btrfs" },
    { HR_OS_LINUX, "/shm", "/shm", "tmpfs", 1, false, HR_TRI_NO, HR_SW_IN_RAM, HR_SW_IN_RAM, true, "", "tmpfs",
      "tmpfs lives in RAM: swapping RAM to RAM gains nothing, and the kernel refuses it" },
    { HR_OS_LINUX, "/nas", "/nas", "nfs4", 1, false, HR_TRI_YES, HR_SW_NONE, HR_SW_NETWORK_FS, true, "", "nfs4", NULL },
    { HR_OS_LINUX, "/tmp", "/tmp", "ext4", 1, false, HR_TRI_YES, HR_SW_NONE, HR_SW_CLEARED_TMP, false, "/tmp", "",
      NULL },
    { HR_OS_LINUX, "/ro", "/ro", "ext4", 1, true, HR_TRI_YES, HR_SW_NONE, HR_SW_READ_ONLY, false, "", "",
      "ext4: mounted read-only" },
    /* the words contain the type by chance: the name stays */
    { HR_OS_LINUX, "/odd", "/odd", "only", 1, true, HR_TRI_YES, HR_SW_NONE, HR_SW_READ_ONLY, false, "", "",
      "only: mounted read-only" },
    { HR_OS_WINDOWS, "F:\\", "F:", "NTFS", 0, false, HR_TRI_NO, HR_SW_DRIVE_NETWORK, HR_SW_DRIVE_NETWORK, false, "", "",
      "NTFS: network drive" },
    { HR_OS_WINDOWS, "G:\\", "G:", "RAM", 0, false, HR_TRI_NO, HR_SW_DRIVE_RAM_DISK, HR_SW_DRIVE_RAM_DISK, false, "",
      "", "RAM: RAM disk: paging RAM to RAM gains nothing" },
    { HR_OS_WINDOWS, "H:\\", "H:", "NTFS", 0, false, HR_TRI_UNKNOWN, HR_SW_NONE, HR_SW_DRIVE_KIND_UNKNOWN, false, "",
      "", NULL },
    /* refused with no reason recorded, no type known */
    { HR_OS_LINUX, "/x", "/x", "", 1, false, HR_TRI_NO, HR_SW_NONE, HR_SW_CANNOT, false, "", "",
      "this file system: cannot hold a swap / paging file" },
};

static const char *fs_line(const hr_plan *p, const char *target)
{
    for (int i = 0; i < p->candidate_count; i++) {
        if (strcmp(p->candidates[i].target, target) != 0)
            continue;
        CHECK(!p->candidates[i].eligible);
        for (int j = 0; j < p->candidates[i].reason_count; j++)
            if (strcmp(p->candidates[i].reasons[j].id, "fs") == 0) {
                CHECK_STR(p->candidates[i].reasons[j].rule, "X.fs");
                return line_text(&p->candidates[i].reasons[j]);
            }
    }
    return NULL;
}

static void one(const fs_case *c, hr_lang lang)
{
    hr_lang_set(lang);
    hr_snapshot *s = snap_new(c->os, GB(32));
    snap_volume(s, c->os == HR_OS_WINDOWS ? "C:\\" : "/", c->os == HR_OS_WINDOWS ? "NTFS" : "ext4", 1, GB(1000),
                GB(600), true);
    hr_volume *v = snap_volume(s, c->mount, c->fs, 1, GB(500), GB(400), false);
    v->fs_devices = c->devices;
    v->read_only = c->read_only;
    v->can_hold_swap = c->probe;
    v->why_not.id = c->recorded;
    if (c->recorded != HR_SW_NONE)
        hr_strlcpy(v->why_not.fs, c->param, sizeof v->why_not.fs);
    hr_plan_inputs in;
    hr_plan_inputs_init(&in);
    in.workload = HR_WORKLOAD_SDXL;
    hr_plan *p = plan_run(s, &in);

    /* the line as the case says it must be: the reason's words, after the name or not */
    hr_swap_verdict want;
    memset(&want, 0, sizeof want);
    want.id = c->want;
    want.devices = c->devices;
    hr_strlcpy(want.fs, c->param, sizeof want.fs);
    hr_strlcpy(want.dir, c->dir, sizeof want.dir);
    char why[HR_SNAP_WHY_MAX], line[HR_PLAN_TEXT_MAX];
    hr_swap_why_text(&want, why, sizeof why);
    if (c->named)
        snprintf(line, sizeof line, "%s", why);
    else
        snprintf(line, sizeof line, "%s: %s", c->fs[0] ? c->fs : hr_tr("this file system"), why);

    const char *got = fs_line(p, c->target);
    CHECK(got != NULL);
    if (got && strcmp(got, line) != 0)
        fprintf(stderr, "%s %s (%s): got \"%s\", want \"%s\"\n", c->mount, c->fs, hr_lang_code(lang), got, line);
    if (got) {
        CHECK_STR(got, line);
        if (lang == HR_LANG_EN && c->english)
            CHECK_STR(got, c->english);
    }
    free(p);
    free(s);
    hr_lang_set(HR_LANG_EN);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        one(&cases[i], HR_LANG_EN);
        one(&cases[i], HR_LANG_ZH);
    }
    return TEST_DONE();
}
