/* headroom — Linux rollback: undo what the state file records, newest first, each undo
 * journalled like apply's steps; fstab back to its backup's bytes, or only our lines taken
 * out when the backup is gone or fstab was edited since. */
#define _GNU_SOURCE 1 /* fallocate(2) */
#include "apply_linux.h"
#include "linux_probes.h"
#include "lx_read.h"

#include "platform/platform.h"

#include "core/apply/apply_state.h"
#include "core/base/i18n.h"
#include "core/model/fstab.h"
#include "core/model/meminfo.h"
#include "core/model/swap_header.h"
#include "core/model/swaps.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* ---- rollback ---- */

/* Remove our lines from fstab, keeping every other byte (a backup that is gone, or fstab
 * edited since). */
static int fstab_remove_ours(const char *fp, const hr_apply_state *st, const char *pre, bool dry_run, hr_buf *cur,
                             hr_buf *log, hr_error *err)
{
    hr_fstab f;
    int r = hr_fstab_parse(&f, hr_buf_str(cur), cur->len, fp, err);
    if (r < 0)
        return r;
    bool changed = false;
    for (int i = 0; i < st->area_count; i++)
        if (hr_fstab_remove_swap(&f, st->areas[i].path, st->fstab_added_newline) == 0) {
            changed = true;
            hr_buf_printf(log, HR_T("%sremove the line for %s from %s (other lines are kept)\n"), pre,
                          st->areas[i].path, fp);
        }
    hr_buf out;
    hr_buf_init(&out, HR_FSTAB_MAX_BYTES);
    if (changed && !dry_run && (r = hr_fstab_render(&f, &out)) == 0)
        r = hr_platform_atomic_replace(fp, out.data ? out.data : "", out.len, 0644, err);
    hr_buf_free(&out);
    hr_fstab_free(&f);
    return r;
}

static int rollback_fstab(const hr_apply_request *rq, hr_apply_state *st, const char *fp, bool dry_run, hr_buf *log,
                          hr_error *err)
{
    const char *pre = dry_run ? HR_T("would ") : "";
    hr_buf cur, orig;
    hr_buf_init(&cur, HR_FSTAB_MAX_BYTES);
    hr_buf_init(&orig, HR_FSTAB_MAX_BYTES);
    hr_error e2 = { 0 };
    int r = 0;
    int rr = hr_lx_read(NULL, fp, &cur, HR_FSTAB_MAX_BYTES, &e2);
    uint64_t ch = rr == 0 ? hr_fnv1a64(cur.data ? cur.data : "", cur.len) : 0;
    /* hand edits an apply kept: restoring the bytes from before headroom would undo them */
    bool same = rr == 0 && ch == st->fstab_written_hash && !st->fstab_hand_kept;
    if (rr == 0 && st->fstab_hand_kept)
        hr_buf_printf(log,
                      HR_T("%s was changed by hand between headroom's changes: %skeep those edits and "
                           "take out only headroom's lines, rather than restore %s (its bytes from before headroom)\n"),
                      fp, pre, st->fstab_backup[0] ? st->fstab_backup : HR_T("(none)"));
    else if (rr == 0 && ch != st->fstab_written_hash)
        hr_buf_printf(log,
                      HR_T("%s was changed by hand since headroom last wrote it: %skeep those edits and "
                           "take out only headroom's lines\n"),
                      fp, pre);
    int br = HR_ENOENT;
    if (same && st->fstab_existed && st->fstab_backup[0])
        br = hr_lx_read(NULL, st->fstab_backup, &orig, HR_FSTAB_MAX_BYTES, &e2);
    if (rr != 0 && rr != HR_ENOENT) {
        r = hr_error_set(err, rr, "%s", e2.msg);
    } else if (rr == HR_ENOENT) {
        /* nothing to take our lines out of */
    } else if (same && !st->fstab_existed) {
        hr_buf_printf(log, HR_T("%sremove %s (headroom created it)\n"), pre, fp);
        if (!dry_run) {
            st->intent.old_hash = ch;
            st->intent.new_hash = 0;
            r = hr_lx_intent_save(rq, st, "rollback-fstab", fp, err);
            if (r == 0 && unlink(fp) != 0)
                r = hr_lx_sys_err(err, HR_T("delete"), fp);
        }
    } else if (same && br == 0) {
        hr_buf_printf(log, HR_T("%srestore %s from %s (its bytes before headroom)\n"), pre, fp, st->fstab_backup);
        if (!dry_run) {
            st->intent.old_hash = ch;
            st->intent.new_hash = hr_fnv1a64(orig.data ? orig.data : "", orig.len);
            r = hr_lx_intent_save(rq, st, "rollback-fstab", fp, err);
            if (r == 0)
                r = hr_platform_atomic_replace(fp, orig.data ? orig.data : "", orig.len, 0644, err);
        }
    } else {
        if (same)
            hr_buf_printf(log,
                          HR_T("the fstab backup %s cannot be read; taking out only headroom's "
                               "lines\n"),
                          st->fstab_backup[0] ? st->fstab_backup : HR_T("(none)"));
        r = fstab_remove_ours(fp, st, pre, dry_run, &cur, log, err);
    }
    hr_buf_free(&cur);
    hr_buf_free(&orig);
    return r;
}

int hr_platform_rollback(const hr_apply_request *rq, bool dry_run, hr_buf *log, hr_error *err)
{
    hr_apply_state st;
    int have = hr_lx_state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (!have) {
        if (!dry_run) {
            /* An apply killed in its first state write, or a rollback at its very end, leaves
             * a temporary state file or an empty directory: ours to remove. */
            char sp[PATH_MAX];
            hr_lx_state_file(rq, sp, sizeof sp);
            hr_lx_remove_tmp(sp);
            rmdir(hr_lx_state_dir(rq));
        }
        hr_buf_puts(log, HR_T("Nothing to roll back: headroom has no record of a change.\n"));
        return 0;
    }
    if (!dry_run) {
        hr_recovery_log rec = { 0 };
        int rr = hr_lx_recover(rq, &st, &rec, err);
        hr_recovery_log_text(&rec, hr_lang_get(), log); /* the log is text: the user's language */
        if (rr < 0)
            return rr;
    }
    const char *pre = dry_run ? HR_T("would ") : "";
    int r = 0;
    const char *fp = st.fstab_path[0] ? st.fstab_path : hr_lx_fstab_path(rq);
    if (!dry_run) {
        hr_strlcpy(st.status, "rolling-back", sizeof st.status);
        if ((r = hr_lx_state_save(rq, &st, err)) < 0)
            return r;
    }

    /* 1. fstab first: no line may name a file that is about to go. */
    if (st.fstab_written) {
        r = rollback_fstab(rq, &st, fp, dry_run, log, err);
        if (r < 0)
            return r;
        if (!dry_run) {
            st.fstab_written = false;
            memset(&st.intent, 0, sizeof st.intent);
            if ((r = hr_lx_state_save(rq, &st, err)) < 0)
                return r;
        }
    }

    /* 2. Swap areas we turned on or created: off, then delete the files we created. */
    for (int i = st.area_count - 1; i >= 0; i--) {
        hr_apply_area *a = &st.areas[i];
        char path[HR_SNAP_PATH_MAX];
        hr_strlcpy(path, a->path, sizeof path);
        if (!dry_run && (r = hr_lx_intent_save(rq, &st, "rollback-area", path, err)) < 0)
            return r;
        if (hr_lx_is_active(a->path)) {
            hr_buf_printf(log, HR_T("%sturn off swap %s\n"), pre, a->path);
            if (!dry_run && (r = hr_lx_swapoff(a->path, err)) < 0)
                return r;
        }
        if (a->created) {
            if (a->tmp[0] && hr_lx_is_ours(a->tmp, a->device, a->inode)) {
                hr_buf_printf(log, HR_T("%sdelete %s (unfinished, created by headroom)\n"), pre, a->tmp);
                if (!dry_run && unlink(a->tmp) != 0)
                    return hr_lx_sys_err(err, HR_T("delete"), a->tmp);
            }
            struct stat s;
            if (lstat(a->path, &s) != 0) {
                if (!a->tmp[0])
                    hr_buf_printf(log, HR_T("%s is already gone\n"), a->path);
            } else if (!hr_lx_is_ours(a->path, a->device, a->inode)) {
                hr_buf_printf(log, HR_T("keep %s: it is not the file headroom created\n"), a->path);
            } else {
                hr_buf_printf(log, HR_T("%sdelete %s (created by headroom)\n"), pre, a->path);
                if (!dry_run && unlink(a->path) != 0)
                    return hr_lx_sys_err(err, HR_T("delete"), a->path);
            }
        }
        if (!dry_run) {
            hr_apply_state_drop(&st, path);
            memset(&st.intent, 0, sizeof st.intent);
            if ((r = hr_lx_state_save(rq, &st, err)) < 0)
                return r;
        }
    }

    /* 3. Our own records: the backup first, the state file last (until it goes, a rollback
     * cut short is found and finished by the next one). */
    char sp[PATH_MAX];
    hr_lx_state_file(rq, sp, sizeof sp);
    hr_buf_printf(log, HR_T("%sremove headroom's records (%s%s%s)\n"), pre, sp, st.fstab_backup[0] ? ", " : "",
                  st.fstab_backup);
    if (!dry_run) {
        if (st.fstab_backup[0])
            unlink(st.fstab_backup);
        if (unlink(sp) != 0 && errno != ENOENT)
            return hr_lx_sys_err(err, HR_T("delete"), sp);
        rmdir(hr_lx_state_dir(rq)); /* only if empty */
    }
    return 1;
}
