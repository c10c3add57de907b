/* headroom — writing the Windows PagingFiles value, in the safe order of S3.1.
 *
 * PagingFiles (REG_MULTI_SZ under HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\
 * Memory Management) holds one string per paging file: "<path> [<initialMB> <maximumMB>]";
 * "?:\pagefile.sys" means "automatically manage for all drives"; no sizes or "0 0" means
 * system managed. smss reads it at boot, so every change waits for a reboot.
 *
 * The guide's click path (S3.1) is: untick automatic management, add the new file (initial =
 * maximum, S3.2) and press Set, only then set the old file to "No paging file". headroom
 * writes the value once per click, in that order, so that every intermediate value is a
 * configuration with at least one paging file — whatever stops it half way (a failpoint, a
 * crash, a power cut), the next boot still has paging. Functions are prefixed hr_pfw_ to
 * stay apart from the PagingFiles reader in the status backend. Strings are UTF-8 here;
 * the Windows layer converts to UTF-16. */
#ifndef HR_PAGINGFILES_WRITE_H
#define HR_PAGINGFILES_WRITE_H

#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/base/i18n.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_PFW_MAX_ENTRIES 16  /* smss: at most 16 paging files */
#define HR_PFW_PATH_MAX    520 /* MAX_PATH UTF-16 units, as UTF-8 with room */
#define HR_PFW_MAX_STAGES  4

typedef struct hr_pfw_entry {
    char path[HR_PFW_PATH_MAX]; /* "C:\pagefile.sys", "?:\pagefile.sys" */
    hr_paging_mode mode;
    uint64_t initial_mb, maximum_mb; /* custom only */
} hr_pfw_entry;

typedef struct hr_pfw_list {
    int count;
    hr_pfw_entry e[HR_PFW_MAX_ENTRIES];
} hr_pfw_list;

/* One PagingFiles string -> entry (minimal reading: path, then optional two numbers). */
int hr_pfw_parse_string(const char *s, hr_pfw_entry *out, hr_error *err);
/* Entry -> string: "D:\pagefile.sys 32768 32768", "C:\pagefile.sys 0 0", "?:\pagefile.sys". */
int hr_pfw_format_string(const hr_pfw_entry *e, char *out, size_t n);
/* The upper-case drive letter of a path ("C:\..." -> 'C', "?:\..." -> '?'), or 0. */
char hr_pfw_drive(const char *path);

/* The list as REG_MULTI_SZ bytes in UTF-8: each string NUL-terminated, then one more NUL.
 * An empty list is a single NUL ("no paging file"). */
int hr_pfw_serialize(const hr_pfw_list *l, hr_buf *out);
/* The reverse, for lists the Windows layer read back (UTF-8 converted). Also accepts a plain
 * REG_SZ (one string, one NUL) and an empty value. */
int hr_pfw_deserialize(const char *data, size_t n, hr_pfw_list *out, hr_error *err);

bool hr_pfw_equal(const hr_pfw_list *a, const hr_pfw_list *b);

/* The safe sequence of values from `cur` to a configuration with `target` as the only
 * paging file — beside the entry of `cur` whose path is `keep` (the crash-dump file X.dump
 * keeps on the system drive, chosen by hr_dump_file_stays(); NULL or "" for none), which
 * stays as it is. Stage names say what the step does ("turn off automatic management",
 * "add D:\pagefile.sys 32768/32768", "remove C:\pagefile.sys"). Stages equal to the value
 * before them are left out, so an already applied target gives *nstages == 0. Every
 * stage has at least one entry. */
typedef enum hr_pfw_stage_kind {
    HR_PFW_STAGE_AUTO_OFF, /* turn off automatic management */
    HR_PFW_STAGE_SET,      /* the target drive's entry changed in place */
    HR_PFW_STAGE_ADD,      /* the target added before anything goes */
    HR_PFW_STAGE_REMOVE    /* the old files go (but the one kept for crash dumps) */
} hr_pfw_stage_kind;

typedef struct hr_pfw_stage {
    hr_pfw_stage_kind kind;
    hr_pfw_entry target;        /* SET, ADD: the entry set */
    char removed[200];          /* REMOVE: the paths that go, ", " between them */
    char kept[HR_PFW_PATH_MAX]; /* REMOVE: the crash-dump file that stays ("" none) */
    hr_pfw_list value;
} hr_pfw_stage;

int hr_pfw_safe_sequence(const hr_pfw_list *cur, const hr_pfw_entry *target, char system_drive, const char *keep,
                         hr_pfw_stage stages[HR_PFW_MAX_STAGES], int *nstages, hr_error *err);

/* What a stage does, in words, in lang (formatted where it is shown: the dry run in the
 * user's language, JSON in English). Returns the length the whole text needs. */
size_t hr_pfw_stage_text(const hr_pfw_stage *st, hr_lang lang, char *out, size_t n);

#endif
