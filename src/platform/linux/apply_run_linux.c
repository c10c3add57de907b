/* headroom — Linux apply: the operations behind each kind of step, run in order by the
 * OS-neutral loop (core/apply/apply_run.h), which journals and records every one.
 *
 * Every step leaves the system consistent (the kill proofs check it after every system
 * call): the state file says what is being done before it starts; fstab names the new file
 * only once it is a working swap area; the old area goes off only after the new one is on
 * (S3.1). */
#define _GNU_SOURCE 1 /* renameat2(2) */
#include "apply_linux.h"
#include "lx_read.h"

#include "platform/platform.h"

#include "core/apply/apply_run.h"
#include "core/base/i18n.h"
#include "core/base/text.h"
#include "core/base/utc.h"
#include "core/model/fstab.h"
#include "core/model/swap_header.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What the operations of one run share: the request, and bytes a step's prepare made for
 * its perform (the new fstab, the fstab backup). */
typedef struct lx_run {
    const hr_apply_request *rq;
    hr_buf bytes;
    bool have_bytes;
} lx_run;

static hr_apply_area *area(hr_apply_state *st, const char *path)
{
    return path[0] ? hr_apply_state_find(st, path) : NULL;
}

/* A step on a file that the state does not list (prepare checked it: never expected). */
static int no_record(const hr_apply_step *s, hr_error *err)
{
    return hr_error_set(err, HR_EINTERNAL, HR_T("%s: no file recorded"), s->name);
}

/* ---- record: back up fstab the first time ---- */

static int record_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)plan, (void)s;
    lx_run *run = os;
    run->have_bytes = false;
    if (st->fstab_path[0])
        return 0; /* an earlier apply backed it up */
    const char *fp = hr_lx_fstab_path(run->rq);
    hr_strlcpy(st->fstab_path, fp, sizeof st->fstab_path);
    hr_buf_reset(&run->bytes);
    int r = hr_lx_read(NULL, fp, &run->bytes, HR_FSTAB_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        hr_error_clear(err);
        st->fstab_existed = false;
        return 0;
    }
    if (r < 0)
        return r;
    char stamp[HR_UTC_STAMP_MAX];
    hr_utc_stamp((int64_t)time(NULL), true, stamp);
    snprintf(st->fstab_backup, sizeof st->fstab_backup, "%s/fstab.backup-%s", hr_lx_state_dir(run->rq), stamp);
    st->fstab_existed = true;
    hr_strlcpy(st->intent.path, st->fstab_backup, sizeof st->intent.path);
    run->have_bytes = true;
    return 0;
}

static int record_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)plan, (void)s;
    lx_run *run = os;
    if (!run->have_bytes)
        return 0;
    return hr_platform_atomic_replace(st->fstab_backup, run->bytes.data ? run->bytes.data : "", run->bytes.len, 0600,
                                      err);
}

/* ---- the new swap file: create, allocate, header (and its name), swapon ---- */

static int create_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os, (void)s;
    unsigned char uuid[16];
    int r = hr_lx_random(uuid, sizeof uuid, err);
    if (r < 0)
        return r;
    hr_apply_area *a = hr_apply_state_add(st, plan->path);
    if (!a)
        return hr_error_set(err, HR_EINTERNAL, HR_T("state: too many areas"));
    a->created = true;
    a->size_bytes = plan->size_bytes;
    a->priority = plan->priority;
    a->device = a->inode = 0;
    /* Made under a temporary name, renamed once it is a whole swap area: recovery finds and
     * removes a file a kill left unfinished. */
    if (strlen(plan->path) + strlen(HR_LX_TMP_SUFFIX) >= sizeof a->tmp) {
        hr_apply_state_drop(st, plan->path);
        return hr_error_set(err, HR_ERANGE, HR_T("%s: path too long"), plan->path);
    }
    hr_lx_tmp_name(plan->path, a->tmp, sizeof a->tmp);
    hr_uuid_make_v4(uuid);
    hr_uuid_format(uuid, a->uuid);
    hr_strlcpy(st->intent.path, plan->path, sizeof st->intent.path);
    return 0;
}

static int create_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os;
    hr_apply_area *a = area(st, plan->path);
    if (!a)
        return no_record(s, err);
    uint64_t dev = 0, ino = 0;
    int r = hr_lx_swapfile_create(a->tmp, strcmp(plan->fs_type, "btrfs") == 0, &dev, &ino, err);
    if (r == 0) {
        a->device = dev;
        a->inode = ino;
    }
    return r;
}

/* The steps on the file made by create-file: it must be recorded. */
static int new_file_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                            hr_error *err)
{
    (void)os;
    if (!area(st, plan->path))
        return no_record(s, err);
    hr_strlcpy(st->intent.path, plan->path, sizeof st->intent.path);
    return 0;
}

static int allocate_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                            hr_error *err)
{
    const lx_run *run = os;
    hr_apply_area *a = area(st, plan->path);
    if (!a)
        return no_record(s, err);
    return hr_lx_swapfile_allocate(a->tmp[0] ? a->tmp : plan->path, plan->size_bytes, a->device, a->inode,
                                   run->rq->progress, run->rq->progress_ctx, err);
}

/* Rename the finished file from its temporary name to its own, never over another file. */
static int place_file(const char *tmp, const char *path, uint64_t dev, uint64_t ino, hr_error *err)
{
    if (!hr_lx_is_ours(tmp, dev, ino))
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom created"), tmp);
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) != 0) {
        if (errno != EINVAL && errno != ENOSYS)
            return hr_lx_sys_err(err, HR_T("rename to"), path);
        /* No RENAME_NOREPLACE on this file system: link (fails if path exists), unlink. */
        if (link(tmp, path) != 0)
            return hr_lx_sys_err(err, HR_T("link to"), path);
        if (unlink(tmp) != 0)
            return hr_lx_sys_err(err, HR_T("remove"), tmp);
    }
    char dir[PATH_MAX];
    hr_lx_split_dir(path, dir, sizeof dir);
    if (hr_lx_fsync_dir(dir) != 0)
        return hr_lx_sys_err(err, HR_T("fsync directory"), dir);
    return 0;
}

static int header_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os;
    hr_apply_area *a = area(st, plan->path);
    if (!a)
        return no_record(s, err);
    unsigned char uuid[16];
    if (hr_uuid_parse(a->uuid, uuid) != 0)
        return hr_error_set(err, HR_EINTERNAL, HR_T("write-header: no file recorded"));
    const char *at = a->tmp[0] ? a->tmp : plan->path;
    int r = hr_lx_swapfile_write_header(at, plan->size_bytes, plan->page_size, uuid, HR_APPLY_SWAP_LABEL, a->device,
                                        a->inode, err);
    if (r == 0 && a->tmp[0]) {
        r = place_file(a->tmp, plan->path, a->device, a->inode, err);
        if (r == 0)
            a->tmp[0] = '\0';
    }
    return r;
}

static int swapon_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os, (void)s;
    hr_apply_area *a = area(st, plan->path);
    if (!a || !a->created)
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s: headroom has no record of creating it; "
                                 "not turning it on"),
                            plan->path);
    hr_strlcpy(st->intent.path, plan->path, sizeof st->intent.path);
    return 0;
}

static int swapon_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os;
    hr_apply_area *a = area(st, plan->path);
    if (!a)
        return no_record(s, err);
    int r = hr_lx_swapon_checked(plan->path, plan->priority, a->device, a->inode, plan->page_size, err);
    if (r == 0)
        a->enabled = true;
    return r;
}

/* ---- fstab: a line in, the old line out ---- */

/* The new fstab bytes (one swap line added or removed) into run->bytes, and the journal's
 * hashes of fstab before and after into the intent. */
static int fstab_prepare(lx_run *run, hr_apply_state *st, const char *add_path, int prio, const char *remove_path,
                         hr_error *err)
{
    const char *fp = hr_lx_fstab_path(run->rq);
    hr_buf cur;
    hr_buf_init(&cur, HR_FSTAB_MAX_BYTES);
    hr_buf_reset(&run->bytes);
    hr_fstab f;
    hr_fstab_init(&f);
    bool existed = false, added_nl = false;
    int r = hr_lx_read_fstab(fp, &cur, &f, &existed, err);
    if (r == 0 && add_path)
        r = hr_fstab_add_swap(&f, add_path, prio, &added_nl, err);
    if (r == 0 && remove_path)
        hr_fstab_remove_swap(&f, remove_path, false);
    if (r == 0)
        r = hr_fstab_render(&f, &run->bytes);
    if (r == 0) {
        /* Re-read what we are about to write: it must parse (never write a broken fstab). */
        hr_fstab check;
        r = hr_fstab_parse(&check, hr_buf_str(&run->bytes), run->bytes.len, fp, err);
        hr_fstab_free(&check);
    }
    if (r == 0) {
        if (added_nl)
            st->fstab_added_newline = true;
        st->intent.old_hash = existed ? hr_fnv1a64(cur.data ? cur.data : "", cur.len) : 0;
        st->intent.new_hash = hr_fnv1a64(run->bytes.data ? run->bytes.data : "", run->bytes.len);
        st->intent.fstab_created = !existed;
        hr_strlcpy(st->intent.path, add_path ? add_path : remove_path, sizeof st->intent.path);
    }
    hr_fstab_free(&f);
    hr_buf_free(&cur);
    return r;
}

/* Replace fstab with the prepared bytes. A failure here may come after the rename (the
 * directory's fsync): the step is marked uncertain, and recovery tells by fstab's hash. */
static int fstab_write(lx_run *run, hr_apply_state *st, hr_error *err)
{
    const char *data = run->bytes.data ? run->bytes.data : "";
    int r = hr_platform_atomic_replace(hr_lx_fstab_path(run->rq), data, run->bytes.len, 0644, err);
    if (r == 0) {
        st->fstab_written = true;
        st->fstab_written_hash = hr_fnv1a64(data, run->bytes.len);
    }
    return r;
}

static int fstab_add_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                             hr_error *err)
{
    (void)s;
    if (plan->hand_edited)
        st->fstab_hand_kept = true; /* saved with this step's intent, before fstab is written */
    return fstab_prepare(os, st, plan->path, plan->priority, NULL, err);
}

static int fstab_add_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                             hr_error *err)
{
    (void)s;
    int r = fstab_write(os, st, err);
    hr_apply_area *a = area(st, plan->path);
    if (r == 0 && a)
        a->in_fstab = true;
    return r;
}

static int fstab_remove_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                                hr_error *err)
{
    (void)s;
    if (plan->hand_edited)
        st->fstab_hand_kept = true;
    return fstab_prepare(os, st, NULL, 0, plan->old_path, err);
}

static int fstab_remove_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                                hr_error *err)
{
    (void)s;
    int r = fstab_write(os, st, err);
    hr_apply_area *old = area(st, plan->old_path);
    if (r == 0 && old)
        old->in_fstab = false;
    return r;
}

/* ---- the old area (resize): off, then deleted ---- */

static int old_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    (void)os, (void)s, (void)err;
    hr_strlcpy(st->intent.path, plan->old_path, sizeof st->intent.path);
    return 0;
}

static int swapoff_old_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                               hr_error *err)
{
    (void)os, (void)s;
    int r = hr_lx_is_active(plan->old_path) ? hr_lx_swapoff(plan->old_path, err) : 0;
    hr_apply_area *old = area(st, plan->old_path);
    if (r == 0 && old)
        old->enabled = false;
    return r;
}

static int delete_old_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                              hr_error *err)
{
    if (!area(st, plan->old_path))
        return HR_APPLY_STEP_SKIP; /* not a file headroom created: never deleted */
    return old_prepare(os, st, plan, s, err);
}

static int delete_old_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                              hr_error *err)
{
    (void)os;
    hr_apply_area *old = area(st, plan->old_path);
    if (!old)
        return no_record(s, err);
    if (!hr_lx_is_ours(plan->old_path, old->device, old->inode))
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s is no longer the file headroom created; "
                                 "not deleting it"),
                            plan->old_path);
    if (unlink(plan->old_path) != 0)
        return hr_lx_sys_err(err, HR_T("delete"), plan->old_path);
    hr_apply_state_drop(st, plan->old_path);
    return 0;
}

static const hr_apply_op linux_ops[] = {
    /* The backup's replace can fail after its rename (the directory's sync): recovery then
     * keeps the backup if it is there, and rollback removes it. */
    { HR_STEP_RECORD, record_prepare, record_perform, true },
    { HR_STEP_CREATE_FILE, create_prepare, create_perform, false },
    { HR_STEP_ALLOCATE, new_file_prepare, allocate_perform, false },
    { HR_STEP_WRITE_HEADER, new_file_prepare, header_perform, false },
    { HR_STEP_SWAPON, swapon_prepare, swapon_perform, false },
    /* fstab's replace likewise: recovery tells by fstab's hash whether it was made. */
    { HR_STEP_FSTAB_ADD, fstab_add_prepare, fstab_add_perform, true },
    { HR_STEP_SWAPOFF_OLD, old_prepare, swapoff_old_perform, false },
    { HR_STEP_FSTAB_REMOVE_OLD, fstab_remove_prepare, fstab_remove_perform, true },
    { HR_STEP_DELETE_OLD, delete_old_prepare, delete_old_perform, false },
    { HR_STEP_FINISH, NULL, NULL, false },
};

int hr_platform_apply_run(const hr_apply_request *rq, const hr_apply_plan *plan, hr_buf *log, hr_error *err)
{
    hr_apply_store store;
    hr_lx_store(rq, &store);
    lx_run run = { .rq = rq };
    hr_buf_init(&run.bytes, HR_FSTAB_MAX_BYTES + 4096);
    const hr_apply_ops ops = { &store, &run, linux_ops, sizeof linux_ops / sizeof linux_ops[0] };
    int r = hr_apply_run(&ops, plan, rq->failpoint, (int64_t)time(NULL), log, err);
    hr_buf_free(&run.bytes);
    return r;
}
