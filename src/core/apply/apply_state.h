/* headroom — the apply state file: what headroom changed, so that rollback undoes exactly that.
 *
 * One small JSON document (schema "headroom.apply-state/1") in the state directory
 * (Linux /var/lib/headroom/apply-state.json, Windows %ProgramData%\headroom\...), replaced
 * atomically after every step of an apply. It records the swap files headroom created (and
 * only those: rollback never deletes a file that is not listed here as created by us), the
 * fstab backup and whether the fstab bytes are still the ones we wrote, and on Windows the
 * original registry values. status "in-progress" means an apply stopped half way: apply
 * refuses to go on and rollback undoes what the completed steps did. */
#ifndef HR_APPLY_STATE_H
#define HR_APPLY_STATE_H

#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/apply/pagingfiles_write.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_APPLY_STATE_SCHEMA    "headroom.apply-state/1"
#define HR_APPLY_STATE_FILE      "apply-state.json"
#define HR_APPLY_MAX_AREAS       4
#define HR_APPLY_STATE_MAX_BYTES ((size_t)256 << 10)

typedef struct hr_apply_area {
    char path[HR_SNAP_PATH_MAX];
    uint64_t size_bytes; /* file size including the header page */
    int64_t priority;
    char uuid[37];
    bool created;               /* the file exists because we created it (O_EXCL) */
    bool enabled;               /* we turned it on */
    bool in_fstab;              /* we added its fstab line */
    uint64_t device, inode;     /* identity of the file we created: rollback deletes only it */
    char tmp[HR_SNAP_PATH_MAX]; /* "" once the file is at its name; else where it is being made
                                * (PATH.headroom-tmp): a file there is ours to delete */
} hr_apply_area;

/* The journal: the step being made, written before it starts (write-ahead), so that any later
 * apply, rollback or verify can finish or undo a step a kill cut short. */
typedef struct hr_apply_intent {
    char step[48];               /* "" none; a step name ("create-file", "fstab-add", ...) or
                                * "rollback-fstab", "rollback-area", "rollback-records" */
    char path[HR_SNAP_PATH_MAX]; /* what the step changes */
    uint64_t old_hash, new_hash; /* fstab steps: FNV-1a 64 of fstab before and after */
    bool fstab_created;          /* fstab step: fstab did not exist before it */
} hr_apply_intent;

typedef struct hr_apply_state {
    hr_os os;
    char status[16];      /* "in-progress", "applied", "rolling-back" */
    char last_step[48];   /* name of the last completed step */
    char started[32];     /* UTC, "2024-05-01T12:00:00Z": the first apply */
    int64_t started_unix; /* the latest apply that changed something (Windows verify:
                                * was the machine restarted since?) */
    /* Linux */
    char fstab_path[HR_SNAP_PATH_MAX];
    char fstab_backup[HR_SNAP_PATH_MAX]; /* copy of the bytes before our first change */
    bool fstab_existed;
    bool fstab_added_newline;    /* we added a final newline to the last line */
    bool fstab_written;          /* we replaced fstab at least once */
    uint64_t fstab_written_hash; /* FNV-1a 64 of the bytes we last wrote */
    bool fstab_hand_kept;        /* an apply wrote over fstab edited by hand since our write:
                                * rollback takes out only our lines, never the backup's bytes */
    int area_count;
    hr_apply_area areas[HR_APPLY_MAX_AREAS];
    /* Windows */
    char reg_backup[HR_SNAP_PATH_MAX]; /* the timestamped backup file */
    bool reg_written;
    char orig_type[16];  /* "REG_MULTI_SZ", "REG_SZ", "missing" */
    hr_pfw_list orig;    /* PagingFiles before our first change */
    hr_pfw_list written; /* what we last wrote */
    bool pending_set;    /* the journal: a write of `pending` may have happened */
    hr_pfw_list pending;
    /* Windows: the original value's raw bytes, as hex, and its registry type number (so that
     * rollback restores it byte for byte, and a person can by hand) */
    char orig_raw_hex[2 * 8192 + 1];
    int64_t orig_raw_type; /* REG_* number; -1 when the value did not exist */
    bool orig_raw_known;
    hr_apply_intent intent;
} hr_apply_state;

void hr_apply_state_init(hr_apply_state *s, hr_os os);

/* Render as JSON (pretty, trailing newline). */
int hr_apply_state_write(const hr_apply_state *s, hr_buf *out);

/* Parse a state document. `name` is the file, for messages. Unknown members are ignored
 * (later versions may add some); a wrong schema or a malformed document is HR_EPARSE. */
int hr_apply_state_parse(const char *text, size_t len, const char *name, hr_apply_state *s, hr_error *err);

/* Is a step of an apply or rollback cut short (status not "applied", or an intent open)? */
bool hr_apply_state_interrupted(const hr_apply_state *s);

/* Area bookkeeping. */
hr_apply_area *hr_apply_state_find(hr_apply_state *s, const char *path);
hr_apply_area *hr_apply_state_add(hr_apply_state *s, const char *path);
void hr_apply_state_drop(hr_apply_state *s, const char *path);

#endif
