/* headroom — why a place cannot hold the swap file / paging file, as data: the reasons the
 * rules of core/model/swap_target.h give, one row each in HR_SWAP_WHYS. A verdict is the
 * row's id and its parameters (the file system's name, btrfs's device count, the directory
 * the boot empties, the disk); it is turned into words only where it is shown (status, plan's
 * candidates, apply's refusals) with hr_swap_why_text(). So a rule that needs to know what a
 * reason says (does it name the file system already?) asks the row, never the translated
 * text.
 *
 * Plain data, no pointers: the snapshot keeps one per volume (hr_volume.why_not). */
#ifndef HR_SWAP_VERDICT_H
#define HR_SWAP_VERDICT_H

#include "core/base/i18n.h"
#include "core/base/msg.h"

#include <stdbool.h>
#include <stddef.h>

/* Each row: id, JSON-style name (for tests and scripts), rule, parameters, English template,
 * a phrase the template embeds (translated where shown; NULL when it takes none), and the
 * spellings of a file system type the template itself writes out ("" none, else "|a|b|"): a
 * type spelled so is named by the reason, and needs no "ext4: " before it.
 *
 * Parameters, one letter per conversion in order: f the file system's type (%s; "unknown"
 * when empty), n btrfs's device count (%d), p the directory the boot or a cleaner empties
 * (%s), w the row's phrase (%s), g a space when the disk is known (%s), k the disk (%s). A
 * row whose parameters hold f names the file system by itself. */
#define HR_SWAP_WHYS(X)                                                                                                \
    X(HR_SW_READ_ONLY, "read-only", "X.fs", "", HR_N("mounted read-only"), NULL, "")                                   \
    X(HR_SW_FAT, "fat", "X.fs", "", HR_N("FAT / exFAT cannot hold a file this large (FAT32 stops at 4 GB)"), NULL,     \
      "|FAT|FAT32|exFAT|")                                                                                             \
    X(HR_SW_BTRFS_DEVICES, "btrfs-devices", "X.fs", "n",                                                               \
      HR_N("btrfs on %d devices: the kernel takes swap files only on a single-device btrfs"), NULL, "|btrfs|")         \
    X(HR_SW_BTRFS_DEVICES_UNKNOWN, "btrfs-devices-unknown", "X.fs", "",                                                \
      HR_N("btrfs: how many devices it spans is not known (a swap file needs a single device)"), NULL, "|btrfs|")      \
    X(HR_SW_IN_RAM, "in-ram", "X.fs", "f",                                                                             \
      HR_N("%s lives in RAM: swapping RAM to RAM gains nothing, and the kernel refuses it"), NULL, "")                 \
    X(HR_SW_OVERLAY, "overlay", "X.fs", "", HR_N("overlayfs (a container's root) cannot hold a swap file"), NULL,      \
      "|overlay|overlayfs|")                                                                                           \
    X(HR_SW_NETWORK_FS, "network-fs", "X.fs", "f",                                                                     \
      HR_N("%s is a network / shared file system: swap over it is unsafe"), NULL, "")                                  \
    X(HR_SW_FUSE, "fuse", "X.fs", "f", HR_N("%s (FUSE) cannot hold a swap file"), NULL, "")                            \
    X(HR_SW_F2FS, "f2fs", "X.fs", "",                                                                                  \
      HR_N("f2fs takes a swap file only in pinned, section-aligned blocks, which headroom does not make"), NULL,       \
      "|f2fs|")                                                                                                        \
    X(HR_SW_NO_SWAP_SUPPORT, "no-swap-support", "X.fs", "f",                                                           \
      HR_N("file system '%s' is not one headroom knows can hold swap: the kernel cannot activate a swap file on it"),  \
      NULL, "")                                                                                                        \
    X(HR_SW_FS_NOT_KNOWN, "fs-not-known", "X.fs", "f",                                                                 \
      HR_N("file system '%s' is not one headroom knows can hold swap (ext4, xfs, single-device btrfs)"), NULL, "")     \
    X(HR_SW_CLEARED_TMP, "cleared-tmp", "X.fs", "pw",                                                                  \
      HR_N("%s: %s, and a swap file deleted under the system leaves the next boot without swap"),                      \
      HR_N("systemd-tmpfiles (tmp.conf) or a tmpfs empties it at boot"), "")                                           \
    X(HR_SW_CLEARED_BY_AGE, "cleared-by-age", "X.fs", "pw",                                                            \
      HR_N("%s: %s, and a swap file deleted under the system leaves the next boot without swap"),                      \
      HR_N("systemd-tmpfiles deletes old files there"), "")                                                            \
    X(HR_SW_CLEARED_RAM, "cleared-ram", "X.fs", "pw",                                                                  \
      HR_N("%s: %s, and a swap file deleted under the system leaves the next boot without swap"),                      \
      HR_N("it lives in RAM and is emptied at boot"), "")                                                              \
    X(HR_SW_CLEARED_CACHE, "cleared-cache", "X.fs", "pw",                                                              \
      HR_N("%s: %s, and a swap file deleted under the system leaves the next boot without swap"),                      \
      HR_N("package managers and cleaners empty it"), "")                                                              \
    X(HR_SW_DRIVE_REMOVABLE, "drive-removable", "S5.4", "",                                                            \
      HR_N("removable media: Windows does not place paging files there"), NULL, "")                                    \
    X(HR_SW_DRIVE_NETWORK, "drive-network", "X.fs", "", HR_N("network drive"), NULL, "")                               \
    X(HR_SW_DRIVE_RAM_DISK, "drive-ram-disk", "X.fs", "", HR_N("RAM disk: paging RAM to RAM gains nothing"), NULL, "") \
    X(HR_SW_DRIVE_KIND_UNKNOWN, "drive-kind-unknown", "X.fs", "",                                                      \
      HR_N("the kind of drive is not known (a paging file needs a fixed local disk)"), NULL, "")                       \
    X(HR_SW_CANNOT, "cannot", "X.fs", "", HR_N("cannot hold a swap / paging file"), NULL, "")                          \
    X(HR_SW_USB, "usb", "S5.4", "gkw",                                                                                 \
      HR_N("the disk%s%s is %s: unplugging it leaves the system without its paging file (S5.4)"),                      \
      HR_N("attached by USB"), "")                                                                                     \
    X(HR_SW_REMOVABLE, "removable", "S5.4", "gkw",                                                                     \
      HR_N("the disk%s%s is %s: unplugging it leaves the system without its paging file (S5.4)"),                      \
      HR_N("removable media"), "")

typedef enum hr_swap_why {
    HR_SW_NONE = 0, /* nothing against it (or nothing known against it) */
#define HR_SW_ENUM(id, name, rule, params, text, phrase, names) id,
    HR_SWAP_WHYS(HR_SW_ENUM)
#undef HR_SW_ENUM
        HR_SW_COUNT
} hr_swap_why;

/* A row of HR_SWAP_WHYS; NULL for HR_SW_NONE or out of range. */
typedef struct hr_swap_why_row {
    const char *name, *rule, *params, *text, *phrase, *names;
} hr_swap_why_row;
const hr_swap_why_row *hr_swap_why_row_of(hr_swap_why id);

/* A verdict: which reason, and the parameters its row takes (the others are empty). */
typedef struct hr_swap_verdict {
    hr_swap_why id;
    char fs[32];    /* f: the file system's type as the OS spells it ("tmpfs", "FAT32") */
    int devices;    /* n: the devices btrfs spans */
    char dir[16];   /* p: "/var/tmp" */
    char disk[128]; /* k: "sdb"; "" not known */
} hr_swap_verdict;

/* The reason in the current language, into out (n bytes, always terminated); "" for
 * HR_SW_NONE. Returns what snprintf returns. */
int hr_swap_why_text(const hr_swap_verdict *v, char *out, size_t n);
/* The same in lang, whatever the current language (JSON: HR_LANG_EN). */
int hr_swap_why_text_lang(const hr_swap_verdict *v, hr_lang lang, char *out, size_t n);

/* The reason's stable id for JSON (status's why_not_id): the row's name in snake_case
 * ("in_ram", "network_fs"); "" for HR_SW_NONE. Returns what snprintf returns. */
int hr_swap_why_id(const hr_swap_verdict *v, char *out, size_t n);

/* The reason as a message (its row's template and values), worded where it is shown; no
 * message for HR_SW_NONE. */
void hr_swap_why_msg(const hr_swap_verdict *v, hr_msg *m);

/* Does the reason name a file system of type fs_type by itself (its template or its f
 * parameter spells it), so that a line about that file system need not put its name first? */
bool hr_swap_why_names_fs(const hr_swap_verdict *v, const char *fs_type);

#endif
