/* Why a place cannot hold the swap / paging file is data (core/model/swap_verdict.h): every
 * row renders in English and in Chinese with its parameters where its template puts them,
 * nothing untranslated, nothing cut; and what a row says it names (the file system) is what
 * its words show, in both languages, for every file system type the rules give it. */
#include "test.h"
#include "fmt_conversions.h"

#include "core/base/i18n.h"
#include "core/model/swap_target.h"
#include "core/model/swap_verdict.h"

#include <stdio.h>
#include <string.h>

static void expected_conversions(const char *params, char *out, size_t n)
{
    size_t k = 0;
    for (; *params && k + 1 < n; params++)
        out[k++] = *params == 'n' ? 'd' : strchr("fpwgk", *params) ? 's' : '?';
    out[k] = '\0';
}

/* The table: names unique, a rule, templates (and embedded phrases) translated, their
 * conversions the parameters the row names, in both languages. */
static void table(void)
{
    CHECK(hr_swap_why_row_of(HR_SW_NONE) == NULL);
    CHECK(hr_swap_why_row_of(HR_SW_COUNT) == NULL);
    for (int i = HR_SW_NONE + 1; i < HR_SW_COUNT; i++) {
        const hr_swap_why_row *row = hr_swap_why_row_of((hr_swap_why)i);
        CHECK(row != NULL);
        if (!row)
            continue;
        CHECK(row->name[0] && strspn(row->name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(row->name));
        for (int j = HR_SW_NONE + 1; j < i; j++)
            CHECK(strcmp(hr_swap_why_row_of((hr_swap_why)j)->name, row->name) != 0);
        CHECK(strcmp(row->rule, "X.fs") == 0 || strcmp(row->rule, "S5.4") == 0);
        CHECK((strchr(row->params, 'w') != NULL) == (row->phrase != NULL));
        CHECK(row->names[0] == '\0' || (row->names[0] == '|' && row->names[strlen(row->names) - 1] == '|'));
        if (strcmp(hr_tr_lang(HR_LANG_ZH, row->text), row->text) == 0)
            fprintf(stderr, "%s: no Chinese for \"%s\"\n", row->name, row->text);
        CHECK(strcmp(hr_tr_lang(HR_LANG_ZH, row->text), row->text) != 0);
        if (row->phrase)
            CHECK(strcmp(hr_tr_lang(HR_LANG_ZH, row->phrase), row->phrase) != 0);
        char want[8], en[8], zh[8];
        expected_conversions(row->params, want, sizeof want);
        fmt_conversions(row->text, en, sizeof en);
        fmt_conversions(hr_tr_lang(HR_LANG_ZH, row->text), zh, sizeof zh);
        if (strcmp(en, want) != 0)
            fprintf(stderr, "%s: template takes {%s}, the row's parameters {%s} make {%s}\n", row->name, en,
                    row->params, want);
        CHECK_STR(en, want);
        CHECK_STR(zh, want);
    }
}

/* Every row, in each language: whole (not cut at the snapshot's reason size), no conversion
 * left, each parameter shown where the row says it is, and nothing else. */
static void render_every_row(hr_lang lang)
{
    hr_lang_set(lang);
    for (int i = HR_SW_NONE + 1; i < HR_SW_COUNT; i++) {
        const hr_swap_why_row *row = hr_swap_why_row_of((hr_swap_why)i);
        hr_swap_verdict v;
        memset(&v, 0, sizeof v);
        v.id = (hr_swap_why)i;
        hr_strlcpy(v.fs, "fuse.sshfs", sizeof v.fs);
        v.devices = 37;
        hr_strlcpy(v.dir, "/var/cache", sizeof v.dir);
        hr_strlcpy(v.disk, "nvme9n1", sizeof v.disk);
        char text[HR_SNAP_WHY_MAX];
        int len = hr_swap_why_text(&v, text, sizeof text);
        CHECK(len > 5);
        if (len >= (int)sizeof text)
            fprintf(stderr, "%s (%s): %d bytes, cut at %zu\n", row->name, hr_lang_code(lang), len, sizeof text);
        CHECK(len < (int)sizeof text);
        CHECK(strchr(text, '%') == NULL);
        bool f = strchr(row->params, 'f'), n = strchr(row->params, 'n'), p = strchr(row->params, 'p'),
             w = strchr(row->params, 'w'), k = strchr(row->params, 'k');
        CHECK((strstr(text, "fuse.sshfs") != NULL) == f);
        CHECK((strstr(text, "37") != NULL) == n);
        CHECK((strstr(text, "/var/cache") != NULL) == p);
        CHECK((strstr(text, "nvme9n1") != NULL) == k);
        if (w)
            CHECK_CONTAINS(text, hr_tr(row->phrase));
        if (k)
            CHECK_CONTAINS(text, lang == HR_LANG_EN ? "disk nvme9n1 is" : "磁盘 nvme9n1 ");
        /* the file system not known: the word for it, in this language */
        if (f) {
            v.fs[0] = '\0';
            hr_swap_why_text(&v, text, sizeof text);
            CHECK_CONTAINS(text, hr_tr("unknown"));
        }
        /* a disk not known: no gap left for it */
        if (k) {
            v.disk[0] = '\0';
            hr_swap_why_text(&v, text, sizeof text);
            CHECK_CONTAINS(text, lang == HR_LANG_EN ? "the disk is " : "磁盘");
        }
    }
    hr_swap_verdict none;
    memset(&none, 0, sizeof none);
    char text[8] = "x";
    CHECK(hr_swap_why_text(&none, text, sizeof text) == 0);
    CHECK_STR(text, "");
    hr_lang_set(HR_LANG_EN);
}

/* What a row says it names is what its words show: for every file system type the rules give
 * a reason (as Linux's mountinfo and Windows' GetVolumeInformation spell them), the reason
 * contains the type exactly when hr_swap_why_names_fs says so, in English and in Chinese.
 * This is what lets plan's candidate line leave out "vfat: " without reading its words. */
static void names_match_words(void)
{
    static const struct {
        hr_os os;
        const char *fs;
        int devices;
        bool read_only;
    } cases[] = {
        { HR_OS_LINUX, "tmpfs", 1, false },     { HR_OS_LINUX, "ramfs", 1, false },
        { HR_OS_LINUX, "devtmpfs", 1, false },  { HR_OS_LINUX, "overlay", 1, false },
        { HR_OS_LINUX, "overlayfs", 1, false }, { HR_OS_LINUX, "aufs", 1, false },
        { HR_OS_LINUX, "nfs", 1, false },       { HR_OS_LINUX, "nfs4", 1, false },
        { HR_OS_LINUX, "cifs", 1, false },      { HR_OS_LINUX, "smb3", 1, false },
        { HR_OS_LINUX, "9p", 1, false },        { HR_OS_LINUX, "virtiofs", 1, false },
        { HR_OS_LINUX, "fuseblk", 1, false },   { HR_OS_LINUX, "fuse.sshfs", 1, false },
        { HR_OS_LINUX, "f2fs", 1, false },      { HR_OS_LINUX, "zfs", 1, false },
        { HR_OS_LINUX, "squashfs", 1, false },  { HR_OS_LINUX, "iso9660", 1, false },
        { HR_OS_LINUX, "ntfs3", 1, false },     { HR_OS_LINUX, "ntfs", 1, false },
        { HR_OS_LINUX, "bcachefs", 1, false },  { HR_OS_LINUX, "vfat", 1, false },
        { HR_OS_LINUX, "msdos", 1, false },     { HR_OS_LINUX, "exfat", 1, false },
        { HR_OS_LINUX, "btrfs", 3, false },     { HR_OS_LINUX, "btrfs", 0, false },
        { HR_OS_LINUX, "ext4", 1, true },       { HR_OS_LINUX, "xfs", 1, true },
        { HR_OS_WINDOWS, "FAT32", 0, false },   { HR_OS_WINDOWS, "FAT", 0, false },
        { HR_OS_WINDOWS, "exFAT", 0, false },   { HR_OS_WINDOWS, "NTFS", 0, true },
    };
    bool seen[HR_SW_COUNT] = { false };
    for (int lang = HR_LANG_EN; lang <= HR_LANG_ZH; lang++) {
        hr_lang_set((hr_lang)lang);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            hr_swap_verdict v;
            CHECK(hr_swap_fs_capable(cases[i].os, cases[i].fs, cases[i].devices, cases[i].read_only, &v) != HR_TRI_YES);
            seen[v.id] = true;
            char text[HR_SNAP_WHY_MAX];
            hr_swap_why_text(&v, text, sizeof text);
            bool shown = strstr(text, cases[i].fs) != NULL;
            if (hr_swap_why_names_fs(&v, cases[i].fs) != shown)
                fprintf(stderr, "%s (%s): the row says it %s the file system, the words \"%s\"\n", cases[i].fs,
                        hr_lang_code((hr_lang)lang), shown ? "does not name" : "names", text);
            CHECK(hr_swap_why_names_fs(&v, cases[i].fs) == shown);
        }
        /* and the places the boot empties, and the drives Windows does not page to */
        static const hr_swap_why others[] = { HR_SW_CLEARED_TMP,     HR_SW_CLEARED_BY_AGE,
                                              HR_SW_CLEARED_RAM,     HR_SW_CLEARED_CACHE,
                                              HR_SW_DRIVE_REMOVABLE, HR_SW_DRIVE_NETWORK,
                                              HR_SW_DRIVE_RAM_DISK,  HR_SW_DRIVE_KIND_UNKNOWN,
                                              HR_SW_CANNOT,          HR_SW_USB,
                                              HR_SW_REMOVABLE };
        static const char *const fs[] = { "ext4", "xfs", "btrfs", "NTFS", "ReFS", "FAT32", "exFAT" };
        for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
            for (size_t j = 0; j < sizeof fs / sizeof fs[0]; j++) {
                hr_swap_verdict v;
                memset(&v, 0, sizeof v);
                v.id = others[i];
                hr_strlcpy(v.dir, "/tmp", sizeof v.dir);
                hr_strlcpy(v.disk, "sdb", sizeof v.disk);
                seen[v.id] = true;
                char text[HR_SNAP_WHY_MAX];
                hr_swap_why_text(&v, text, sizeof text);
                CHECK(hr_swap_why_names_fs(&v, fs[j]) == (strstr(text, fs[j]) != NULL));
            }
    }
    hr_lang_set(HR_LANG_EN);
    for (int i = HR_SW_NONE + 1; i < HR_SW_COUNT; i++) {
        if (!seen[i])
            fprintf(stderr, "row %s: no case here gives it\n", hr_swap_why_row_of((hr_swap_why)i)->name);
        CHECK(seen[i]);
    }
    /* a reason names its own file system, not another one */
    hr_swap_verdict ram;
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "ramfs", 1, false, &ram) == HR_TRI_NO);
    CHECK(hr_swap_why_names_fs(&ram, "ramfs"));
    CHECK(!hr_swap_why_names_fs(&ram, "tmpfs"));
    /* no file system, nothing named */
    hr_swap_verdict v;
    memset(&v, 0, sizeof v);
    v.id = HR_SW_FS_NOT_KNOWN;
    CHECK(!hr_swap_why_names_fs(&v, ""));
    CHECK(!hr_swap_why_names_fs(&v, NULL));
}

int main(void)
{
    table();
    render_every_row(HR_LANG_EN);
    render_every_row(HR_LANG_ZH);
    names_match_words();
    return TEST_DONE();
}
