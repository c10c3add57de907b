/* headroom — Linux primitives behind apply/rollback/verify (the system-changing calls). */
#ifndef HR_APPLY_LINUX_H
#define HR_APPLY_LINUX_H

#include "core/apply/apply_plan.h"
#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/apply/apply_state.h"
#include "core/apply/apply_store.h"
#include "core/apply/apply_verify.h"
#include "core/model/fstab.h"
#include "platform/platform.h"

#include <stdbool.h>
#include <stdint.h>

/* statfs + statvfs (+ the btrfs device count) of the directory that holds path. */
int hr_lx_fs_facts(const char *dir, hr_fs_facts *fs, hr_error *err);

/* Create a new, empty swap file: O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, no copy-on-write on
 * btrfs (set while it is empty). Returns its device and inode. */
int hr_lx_swapfile_create(const char *path, bool btrfs, uint64_t *dev, uint64_t *ino, hr_error *err);
/* Allocate every byte (fallocate; zeros written where it is not supported), then fsync.
 * Opens with O_NOFOLLOW and checks the identity (dev, ino). */
int hr_lx_swapfile_allocate(const char *path, uint64_t size, uint64_t dev, uint64_t ino,
                            void (*progress)(void *ctx, uint64_t done, uint64_t total), void *progress_ctx,
                            hr_error *err);
/* Write the header page (core/model/swap_header.h) and fsync. */
int hr_lx_swapfile_write_header(const char *path, uint64_t size, size_t page_size, const unsigned char uuid[16],
                                const char *label, uint64_t dev, uint64_t ino, hr_error *err);
/* Turn on the swap file at path only if it is the one recorded (dev, ino), root's, 0600, one
 * link, with a swap header; the check and the swapon are on the same open file. */
int hr_lx_swapon_checked(const char *path, int priority, uint64_t dev, uint64_t ino, size_t page_size, hr_error *err);
/* StrictModes: HR_EUNSAFE when real_dir, or a directory above it, can be written by anyone
 * but root (a root-owned sticky directory above it is accepted). */
int hr_lx_dir_root_only(const char *real_dir, hr_error *err);
/* Files being replaced are written as PATH.headroom-tmp: recovery finds them by that name. */
#define HR_LX_TMP_SUFFIX ".headroom-tmp"
void hr_lx_tmp_name(const char *path, char *out, size_t n);
void hr_lx_remove_tmp(const char *path);
int hr_lx_swapoff(const char *path, hr_error *err);
/* Read /proc/swaps. */
int hr_lx_active_swaps(hr_swap_active *out, int max, int *count, hr_error *err);
/* 16 random bytes. */
int hr_lx_random(unsigned char *out, size_t n, hr_error *err);

/* ---- shared by apply_linux.c, rollback_linux.c and verify_linux.c (internal) ---- */

/* An OS call's failure as an error naming what and path (errno's code and text). */
int hr_lx_sys_err(hr_error *err, const char *what, const char *path);
/* The directory part of path. */
void hr_lx_split_dir(const char *path, char *dir, size_t n);
/* fsync a directory, so that a rename or a new name in it is on disk. */
int hr_lx_fsync_dir(const char *dir);
/* The state directory and fstab of a request (its options, or the defaults). */
const char *hr_lx_state_dir(const hr_apply_request *rq);
const char *hr_lx_fstab_path(const hr_apply_request *rq);
void hr_lx_state_file(const hr_apply_request *rq, char *out, size_t n);
/* The state file's store (core/apply/apply_store.h): this request's directory, Linux's reads. */
void hr_lx_store(const hr_apply_request *rq, hr_apply_store *store);
/* The state file: 1 loaded, 0 none, < 0 an error. A failed save is returned, never dropped. */
int hr_lx_state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err);
int hr_lx_state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err);
/* The journal's rule: the intent (step, path) is on disk before the change. */
int hr_lx_intent_save(const hr_apply_request *rq, hr_apply_state *st, const char *step, const char *path,
                      hr_error *err);
/* Finish or undo a step a kill cut short (by what is on disk); 1 when the state changed. */
int hr_lx_recover(const hr_apply_request *rq, hr_apply_state *st, hr_recovery_log *log, hr_error *err);
/* Does this process hold the state directory's lock (hr_platform_lock)? */
bool hr_lx_lock_held(void);
/* Is path in /proc/swaps? Is the file at path the one recorded (regular, dev and inode)? */
bool hr_lx_is_active(const char *path);
bool hr_lx_is_ours(const char *path, uint64_t dev, uint64_t ino);
/* fstab's bytes and its parse. */
int hr_lx_read_fstab(const char *path, hr_buf *bytes, hr_fstab *f, bool *existed, hr_error *err);

#endif
