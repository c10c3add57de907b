/* headroom — the apply plan: from the facts of this machine, a target and a size, the exact
 * ordered list of changes (or a refusal saying why not).
 *
 * Pure: the platform layer gathers the facts (statfs, /proc/swaps, fstab bytes, the state
 * file, the registry value, drive facts) and runs the steps; everything that decides lives
 * here and is tested on recorded facts. The order is the guide's safe order (S3.1): the new
 * paging file / swap area is in place before anything old is taken away, so at no moment
 * has the machine less paging than before; every step leaves a consistent system, which
 * the failpoint tests check after each one.
 *
 * Refusals (HR_EUNSAFE, message says which rule):
 *  - removable, USB or not-fixed drives (S5.4: "never on removable media");
 *  - less than the free-space margin left after the file exists: at least 10 GiB and at
 *    least 5% of the volume (S3.3 "do not fill an SSD beyond ~95%"; S6 stutter below 10 GB);
 *  - Linux file systems that cannot hold swap (tmpfs, overlayfs, NFS, FUSE, ...; btrfs only
 *    on one device, as a no-copy-on-write file);
 *  - a target that is a symlink or an existing file headroom did not create;
 *  - an earlier apply that stopped half way (rollback first). */
#ifndef HR_APPLY_PLAN_H
#define HR_APPLY_PLAN_H

#include "core/apply/apply_state.h"
#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/base/msg.h"
#include "core/base/render.h"
#include "core/model/fstab.h"
#include "core/apply/pagingfiles_write.h"
#include "core/model/snapshot.h"
#include "core/model/swap_verdict.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_APPLY_MAX_STEPS        16
#define HR_APPLY_DEFAULT_PRIORITY 10
#define HR_APPLY_SWAP_NAME        "headroom.swap"
#define HR_APPLY_SWAP_LABEL       "headroom"

typedef enum hr_step_kind {
    /* Linux */
    HR_STEP_RECORD = 0,       /* back up fstab (first time), write the state: in-progress */
    HR_STEP_CREATE_FILE,      /* open O_CREAT|O_EXCL|O_NOFOLLOW 0600 (+ NOCOW on btrfs) */
    HR_STEP_ALLOCATE,         /* allocate every block (no holes), fsync */
    HR_STEP_WRITE_HEADER,     /* swap header page, fsync */
    HR_STEP_SWAPON,           /* swapon with priority */
    HR_STEP_FSTAB_ADD,        /* fstab: add the line (tmp + fsync + rename) */
    HR_STEP_FSTAB_REMOVE_OLD, /* resize: the old line out of fstab, after the new is on */
    HR_STEP_SWAPOFF_OLD,      /* then the old headroom area off */
    HR_STEP_DELETE_OLD,       /* the old file (headroom created it) */
    /* Windows */
    HR_STEP_BACKUP_REGISTRY,    /* timestamped backup of PagingFiles & co; state in-progress */
    HR_STEP_WRITE_PAGING_FILES, /* one value write per S3.1 click */
    /* both */
    HR_STEP_FINISH /* state: applied */
} hr_step_kind;

typedef struct hr_apply_step {
    hr_step_kind kind;
    char name[40]; /* failpoint name: "create-file", "write-paging-files-2" */
    /* the exact change, for the dry run, formatted where it is shown (hr_apply_step_text);
     * unset for a Windows write step, whose words are its stage's and the value's */
    hr_msg msg;
    char path[HR_SNAP_PATH_MAX];
    bool needs_reboot;
    int stage; /* Windows: index into the plan's stages */
} hr_apply_step;

/* A sentence of the plan's notes: formatted where it is shown, the notes one after another. */
typedef enum hr_apply_note_kind {
    HR_APPLY_NOTE_MSG,      /* msg as it is */
    HR_APPLY_NOTE_SENTENCE, /* " msg." : a clause said as a sentence of its own (the shrink) */
    HR_APPLY_NOTE_WIN_HAND  /* Windows: PagingFiles changed by hand (the plan's hand_* facts) */
} hr_apply_note_kind;

#define HR_APPLY_MAX_NOTES 8

typedef struct hr_apply_note {
    hr_apply_note_kind kind;
    hr_msg msg;
} hr_apply_note;

typedef struct hr_apply_plan {
    hr_os os;
    bool nothing_to_do; /* already applied: an idempotent second run */
    bool reboot_needed;
    bool hand_edited; /* Linux: fstab differs from what headroom last wrote, and the
                                 * plan writes it (rollback then keeps the edits).
                                 * Windows: PagingFiles differs from what headroom last wrote (a
                                 * hand edit): taken over as the value rollback gives back, with
                                 * a new backup of it (said in notes) */
    int step_count;
    hr_apply_step steps[HR_APPLY_MAX_STEPS];
    /* Linux */
    char path[HR_SNAP_PATH_MAX]; /* the swap file to create */
    uint64_t size_bytes;         /* page-aligned */
    int priority;
    size_t page_size;
    char fs_type[32];
    char old_path[HR_SNAP_PATH_MAX]; /* resize: the headroom area to retire ("" if none) */
    /* Windows */
    hr_pfw_entry target;
    int stage_count;
    hr_pfw_stage stages[HR_PFW_MAX_STAGES];
    /* what the user should know (reboot, slow first boot): hr_apply_notes_text() */
    int note_count;
    hr_apply_note notes[HR_APPLY_MAX_NOTES];
    /* Windows, hand_edited: the value found (each entry's size, HR_UNKNOWN when not known)
     * and the backup that keeps the value from before headroom */
    hr_pfw_list hand_now;
    uint64_t hand_now_bytes[HR_PFW_MAX_ENTRIES];
    char hand_backup[HR_SNAP_PATH_MAX];
} hr_apply_plan;

/* ---- Linux ---- */

typedef struct hr_swap_active {
    char path[HR_SNAP_PATH_MAX];
    bool is_file;
    uint64_t size_bytes, used_bytes;
    int64_t priority;
} hr_swap_active;

/* What statfs and friends said about the file system that would hold the file. */
typedef struct hr_fs_facts {
    char type[32]; /* "ext4", "xfs", "btrfs", "tmpfs", "nfs", "fuse", ... */
    uint64_t total_bytes;
    uint64_t free_bytes; /* available to the creator */
    int devices;         /* btrfs: number of devices; 0 unknown */
    bool read_only;
} hr_fs_facts;

typedef struct hr_apply_linux_in {
    uint64_t size_bytes;
    int priority;
    size_t page_size;
    char path[HR_SNAP_PATH_MAX]; /* the chosen file path (hr_apply_linux_choose_path) */
    bool path_exists, path_is_symlink;
    hr_fs_facts fs;
    int active_count;
    hr_swap_active active[HR_MAX_PAGING];
    const hr_fstab *fstab;
    const char *fstab_path;
    const hr_apply_state *state; /* NULL: headroom changed nothing yet */
    bool fstab_edited;           /* fstab's bytes are not the ones headroom last wrote */
    hr_device dev;               /* the disk under the file (removable, usb) */
    bool allow_shrink;           /* the user allowed less swap than is configured */
    char dir_unsafe[400];        /* why the file's directory is not root's alone ("": it is) */
} hr_apply_linux_in;

/* Can this file system type hold a swap file at all? Says why when not (shown with
 * hr_swap_why_text()). The rule is core/model/swap_target.h's, shared with plan placement and
 * the volume probe. */
bool hr_fs_can_hold_swap(const hr_fs_facts *fs, hr_swap_verdict *why);

/* The free-space rule shared by both OSes and with plan placement (hr_room_ok): after
 * adding `grow` bytes, is there at least 10 GiB and 5% of the volume left? Sets why when not. */
bool hr_apply_margin_ok(uint64_t total, uint64_t free, uint64_t grow, char *why, size_t n);

/* The one shrink rule of apply, both OSes: a change that leaves less paging file / swap
 * configured than there is now (after < before) is refused unless the user said so
 * (--allow-shrink). Sets why, naming the size now, the size after and what would go; when
 * allowed, why still says how much goes (for the dry run's notes). Windows passes every
 * PagingFiles entry before and after (the crash-dump file kept, X.dump, counted in both).
 * Linux passes headroom's own area, old and new: apply's steps never touch another area
 * (a partition, zram, a file the plan tells the user to swapoff by hand), so the totals
 * before and after differ by that area alone and comparing it is comparing the totals. */
bool hr_apply_shrink_ok(hr_os os, uint64_t before, uint64_t after, bool allow_shrink, hr_msg *why);

/* target_is_dir: put HR_APPLY_SWAP_NAME in it. If the state's applied area sits at that path
 * with another size or priority, the new file goes next to it (name-2.swap) so that the old
 * one can stay on until the new one is. */
int hr_apply_linux_choose_path(const char *target, bool target_is_dir, uint64_t size_bytes, int priority,
                               size_t page_size, const hr_apply_state *state, char *out, size_t n, hr_error *err);

/* --from-plan once headroom's own swap file exists: plan counts that file as kept and asks for
 * add_bytes more in a second file, while apply keeps one file and replaces it. So that both
 * end at the plan's total, apply's one file is its old size plus add_bytes: at the old file's
 * path when plan_path is its neighbour (name-2.swap: the file grown), else at plan_path (the
 * new file replaces the old one there). True (with that path and size) when the state has an
 * applied area; false otherwise (a plain add of add_bytes at plan_path). */
bool hr_apply_linux_grow_own(const hr_apply_state *state, const char *plan_path, uint64_t add_bytes, char *path,
                             size_t n, uint64_t *size_bytes);

int hr_apply_plan_linux(const hr_apply_linux_in *in, hr_apply_plan *plan, hr_error *err);

/* ---- Windows ---- */

typedef enum hr_drive_type {
    HR_DRIVE_UNKNOWN = 0,
    HR_DRIVE_FIXED,
    HR_DRIVE_REMOVABLE,
    HR_DRIVE_REMOTE,
    HR_DRIVE_CDROM,
    HR_DRIVE_RAMDISK,
    HR_DRIVE_NONE /* no such drive (GetDriveTypeW: no root directory) */
} hr_drive_type;

typedef struct hr_apply_win_in {
    uint64_t initial_mb, maximum_mb;
    char drive;        /* 'D' */
    char system_drive; /* 'C' */
    hr_drive_type drive_type;
    hr_device dev;                /* removable/usb/encrypted/fs_total/fs_free of the target */
    uint64_t existing_file_bytes; /* pagefile.sys already on the target (space it frees) */
    hr_pfw_list current;
    const hr_apply_state *state;
    /* pagefile.sys on each drive now ('A' + i; 0: none, HR_UNKNOWN: not known): the size of a
     * system-managed or automatic entry, which the registry does not hold */
    uint64_t drive_file_bytes[26];
    bool allow_shrink; /* --allow-shrink: less paging file than configured is fine */
    /* CrashControl (X.dump): does a crash dump need the system drive's paging file? YES or
     * UNKNOWN: the small custom file there stays (hr_dump_file_stays(), the rule plan keeps
     * to); NO: dumps are off or go to a dedicated file, and it goes like the others. */
    hr_tri dump_needs_system_paging;
} hr_apply_win_in;

/* The entry of in->current that stays beside the target for crash dumps (X.dump), or NULL. */
const hr_pfw_entry *hr_apply_win_dump_entry(const hr_apply_win_in *in);

/* What a PagingFiles list gives, in bytes: a custom entry its maximum, a system-managed or
 * automatic one the file now on its drive (the system drive for "?:"); *known false when a
 * size is not known (it then counts 0). */
uint64_t hr_apply_win_total(const hr_apply_win_in *in, const hr_pfw_list *l, bool *known);

/* The refusal rules on recorded drive facts. */
bool hr_apply_win_drive_ok(const hr_apply_win_in *in, char *why, size_t n);

int hr_apply_plan_windows(const hr_apply_win_in *in, hr_apply_plan *plan, hr_error *err);

/* ---- rendering ---- */

/* Step i's change in words, in lang (the dry run: the user's; JSON: English; the run's log:
 * the user's). Returns the length the whole text needs. */
size_t hr_apply_step_text(const hr_apply_plan *plan, int i, hr_lang lang, char *out, size_t n);
/* The notes, one sentence after another, in lang ("" when none). */
size_t hr_apply_notes_text(const hr_apply_plan *plan, hr_lang lang, char *out, size_t n);

/* The dry run: the exact changes in order, reboot needs, notes; in the user's language. */
int hr_apply_plan_text(const hr_apply_plan *plan, hr_buf *out);
/* The same as JSON (schema "headroom.apply-plan/1"), in English whatever the language. */
int hr_apply_plan_json(const hr_apply_plan *plan, hr_buf *out);
/* The one renderer interface (core/base/render.h): text or JSON as r->format asks. */
void hr_apply_plan_render(const hr_apply_plan *plan, hr_render *r);

const char *hr_step_kind_name(hr_step_kind k);

#endif
