/* headroom — where apply's state file lives and how it is read and replaced, for every OS.
 *
 * The state file (apply_state.h) is loaded, saved and journalled here, once; each OS hands
 * over its three file operations (read with a bound, replace atomically, make the private
 * state directory) and its state directory. apply, rollback and verify on Linux and on
 * Windows all go through these functions, so the file's rules cannot drift apart:
 * a failed save is returned, never dropped; the intent of a step is on disk before it. */
#ifndef HR_APPLY_STORE_H
#define HR_APPLY_STORE_H

#include "core/apply/apply_state.h"
#include "core/base/buf.h"
#include "core/base/error.h"

#include <stddef.h>

typedef struct hr_apply_store {
    const char *dir; /* the state directory (an option, or the OS's default) */
    char sep;        /* '/' or '\\' */
    hr_os os;        /* whose state files this store accepts */
    /* The whole file into b, at most max bytes; HR_ENOENT (with err) when it does not exist. */
    int (*read)(const char *path, hr_buf *b, size_t max, hr_error *err);
    /* Replace path's contents atomically (new files get mode). */
    int (*replace)(const char *path, const void *data, size_t len, unsigned mode, hr_error *err);
    /* Make dir readable by the administrator only, unless it exists; its parent must exist. */
    int (*make_dir)(const char *dir, hr_error *err);
} hr_apply_store;

/* The state file's path: DIR SEP apply-state.json, into out (HR_APPLY_STORE_PATH_MAX bytes).
 * HR_ERANGE when the directory's name is too long for it. */
#define HR_APPLY_STORE_PATH_MAX 4200
int hr_apply_store_path(const hr_apply_store *store, char *out, hr_error *err);

/* 1: loaded, a state file of the store's OS; 0: there is none; < 0: the read's error, a
 * malformed file, or the other OS's state file (the message names the file). */
int hr_apply_store_load(const hr_apply_store *store, hr_apply_state *s, hr_error *err);

/* Render s and replace the state file with it (making the state directory first). */
int hr_apply_store_save(const hr_apply_store *store, const hr_apply_state *s, hr_error *err);

/* The journal's rule: a step's intent (its name and what it changes) is on disk before the
 * change starts. Sets s->intent's step and path, keeps its other members, saves. */
int hr_apply_store_intent(const hr_apply_store *store, hr_apply_state *s, const char *step, const char *path,
                          hr_error *err);

#endif
