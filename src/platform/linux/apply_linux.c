/* headroom — Linux apply: where the state file lives, the lock, recovery of a run that was
 * cut short, and the facts and the plan. The steps' operations are in apply_run_linux.c (run
 * by the OS-neutral loop of core/apply/apply_run.h), the system-changing primitives in
 * swapfile_linux.c, the other two commands in rollback_linux.c and verify_linux.c. */
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

#define DEFAULT_STATE_DIR "/var/lib/headroom"
#define DEFAULT_FSTAB     "/etc/fstab"

const char *hr_platform_state_dir(void)
{
    return DEFAULT_STATE_DIR;
}

bool hr_platform_is_admin(void)
{
    return geteuid() == 0;
}

/* ---- state file, journal, lock ---- */

const char *hr_lx_state_dir(const hr_apply_request *rq)
{
    return rq->state_dir ? rq->state_dir : DEFAULT_STATE_DIR;
}

const char *hr_lx_fstab_path(const hr_apply_request *rq)
{
    return rq->fstab_path ? rq->fstab_path : DEFAULT_FSTAB;
}

/* The state directory, made 0700 if it is not there; its parent must exist. */
static int make_state_dir(const char *d, hr_error *err)
{
    if (mkdir(d, 0700) == 0 || errno == EEXIST)
        return 0;
    if (errno == ENOENT) {
        char up[PATH_MAX];
        hr_lx_split_dir(d, up, sizeof up);
        return hr_error_set(err, HR_ENOENT,
                            HR_T("state directory %s: its parent %s does not exist "
                                 "(create it, or give --state-dir an existing place)"),
                            d, up);
    }
    return hr_lx_sys_err(err, HR_T("create state directory"), d);
}

static int read_state(const char *path, hr_buf *b, size_t max, hr_error *err)
{
    return hr_lx_read(NULL, path, b, max, err);
}

void hr_lx_store(const hr_apply_request *rq, hr_apply_store *store)
{
    *store = (hr_apply_store){ .dir = hr_lx_state_dir(rq),
                               .sep = '/',
                               .os = HR_OS_LINUX,
                               .read = read_state,
                               .replace = hr_platform_atomic_replace,
                               .make_dir = make_state_dir };
}

void hr_lx_state_file(const hr_apply_request *rq, char *out, size_t n)
{
    hr_apply_store store;
    hr_lx_store(rq, &store);
    char p[HR_APPLY_STORE_PATH_MAX];
    hr_error e = { 0 };
    hr_strlcpy(out, hr_apply_store_path(&store, p, &e) == 0 ? p : "", n);
}

int hr_lx_state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    hr_apply_store store;
    hr_lx_store(rq, &store);
    return hr_apply_store_load(&store, st, err);
}

int hr_lx_state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err)
{
    hr_apply_store store;
    hr_lx_store(rq, &store);
    return hr_apply_store_save(&store, st, err);
}

int hr_lx_intent_save(const hr_apply_request *rq, hr_apply_state *st, const char *step, const char *path, hr_error *err)
{
    hr_apply_store store;
    hr_lx_store(rq, &store);
    return hr_apply_store_intent(&store, st, step, path, err);
}

static int lock_fd = -1;

bool hr_lx_lock_held(void)
{
    return lock_fd >= 0;
}

/* Who holds a flock on (dev, ino)? From /proc/locks: "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INO ..." */
static void lock_holder(dev_t dev, ino_t ino, char *out, size_t n)
{
    hr_buf b;
    hr_buf_init(&b, (size_t)1 << 20);
    out[0] = '\0';
    if (hr_lx_read(NULL, "/proc/locks", &b, (size_t)1 << 20, NULL) == 0) {
        char want[64];
        snprintf(want, sizeof want, "%02x:%02x:%llu", major(dev), minor(dev), (unsigned long long)ino);
        const char *line = hr_buf_str(&b);
        while (line && *line) {
            const char *nl = strchr(line, '\n');
            char l[256];
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), line);
            long pid = 0;
            char id[64] = "";
            if (strstr(l, "FLOCK") && sscanf(l, "%*s %*s %*s %*s %ld %63s", &pid, id) == 2 && strcmp(id, want) == 0 &&
                pid > 0) {
                char comm[64] = "", cp[64];
                snprintf(cp, sizeof cp, "/proc/%ld/comm", pid);
                hr_lx_read_str(NULL, cp, comm, sizeof comm);
                snprintf(out, n, "process %ld (%s)", pid, comm[0] ? comm : "?");
                break;
            }
            line = nl ? nl + 1 : NULL;
        }
    }
    hr_buf_free(&b);
}

int hr_platform_lock(const hr_apply_request *rq, bool create, int wait_s, hr_error *err)
{
    if (lock_fd >= 0)
        return 1;
    const char *d = hr_lx_state_dir(rq);
    if (create) {
        int r = make_state_dir(d, err);
        if (r < 0)
            return r;
    }
    for (int tries = 0;; tries++) {
        int fd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT && !create)
                return 0; /* no state directory: nothing to lock, nothing recorded */
            return hr_lx_sys_err(err, HR_T("open state directory"), d);
        }
        struct stat st, now;
        fstat(fd, &st);
        if (st.st_uid != 0 && geteuid() == 0) {
            close(fd);
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("state directory %s belongs to user %u, not "
                                     "root"),
                                d, (unsigned)st.st_uid);
        }
        int waited = 0;
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                int r = hr_lx_sys_err(err, HR_T("lock"), d);
                close(fd);
                return r;
            }
            if (waited >= wait_s * 10) {
                char who[128];
                lock_holder(st.st_dev, st.st_ino, who, sizeof who);
                close(fd);
                return hr_error_set(err, HR_EBUSY,
                                    HR_T("another headroom apply or rollback is "
                                         "working on %s (%s holds its lock); try again when it has "
                                         "finished"),
                                    d, who[0] ? who : HR_T("another process"));
            }
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            waited++;
        }
        /* A rollback may have removed the directory while we waited: lock the one there now. */
        if (stat(d, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino) {
            lock_fd = fd;
            return 1;
        }
        close(fd);
        if (tries == 3)
            return hr_error_set(err, HR_EBUSY, HR_T("state directory %s keeps changing"), d);
        if (create) {
            int r = make_state_dir(d, err);
            if (r < 0)
                return r;
        }
    }
}

void hr_platform_unlock(void)
{
    if (lock_fd >= 0)
        close(lock_fd);
    lock_fd = -1;
}

bool hr_lx_is_active(const char *path)
{
    hr_swap_active *act = calloc(HR_MAX_PAGING, sizeof *act);
    int n = 0;
    hr_error e = { 0 };
    bool on = false;
    if (act && hr_lx_active_swaps(act, HR_MAX_PAGING, &n, &e) == 0)
        for (int i = 0; i < n; i++)
            if (strcmp(act[i].path, path) == 0)
                on = true;
    free(act);
    return on;
}

/* Is the file at path the one recorded (regular, same device and inode)? */
bool hr_lx_is_ours(const char *path, uint64_t dev, uint64_t ino)
{
    struct stat s;
    return lstat(path, &s) == 0 && S_ISREG(s.st_mode) && (uint64_t)s.st_dev == dev && (uint64_t)s.st_ino == ino &&
           (dev || ino);
}

static int fstab_hash(const char *fp, uint64_t *h, bool *exists)
{
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_error e = { 0 };
    int r = hr_lx_read(NULL, fp, &b, HR_FSTAB_MAX_BYTES, &e);
    *exists = r != HR_ENOENT;
    if (r == 0)
        *h = hr_fnv1a64(b.data ? b.data : "", b.len);
    hr_buf_free(&b);
    return r == HR_ENOENT ? 0 : r;
}

/* Finish or undo the step a kill cut short (st->intent), and remove the temporary files a
 * killed run leaves: every later apply, rollback and verify (as root, holding the lock) runs
 * this first. Appends what it did to log. Returns 1 when it changed the state (saved). */
int hr_lx_recover(const hr_apply_request *rq, hr_apply_state *st, hr_recovery_log *log, hr_error *err)
{
    char sp[PATH_MAX];
    hr_lx_state_file(rq, sp, sizeof sp);
    hr_lx_remove_tmp(sp);
    const char *fp = st->fstab_path[0] ? st->fstab_path : hr_lx_fstab_path(rq);
    hr_lx_remove_tmp(fp);
    if (st->fstab_backup[0])
        hr_lx_remove_tmp(st->fstab_backup);
    const hr_apply_intent *in = &st->intent;
    bool changed = false;
    /* Areas still at their temporary name: without an identity the kill came between the
     * create and its record: the file under that name is ours (only we make that name, in a
     * directory only root can write). */
    for (int i = st->area_count - 1; i >= 0; i--) {
        hr_apply_area *a = &st->areas[i];
        if (!a->tmp[0])
            continue;
        if (!a->device && !a->inode) {
            struct stat s;
            if (lstat(a->tmp, &s) == 0 && S_ISREG(s.st_mode))
                unlink(a->tmp);
            hr_recovery_add(log, HR_RECOVERED_REMOVED_TMP, NULL, a->tmp);
            hr_apply_state_drop(st, a->path);
            changed = true;
        } else if (!hr_lx_is_ours(a->tmp, a->device, a->inode) && hr_lx_is_ours(a->path, a->device, a->inode)) {
            a->tmp[0] = '\0'; /* the rename to its name was done */
            changed = true;
        }
    }
    if (in->step[0]) {
        hr_apply_area *a = in->path[0] ? hr_apply_state_find(st, in->path) : NULL;
        if (strcmp(in->step, "fstab-add") == 0 || strcmp(in->step, "fstab-remove-old") == 0 ||
            strcmp(in->step, "rollback-fstab") == 0) {
            uint64_t h = 0;
            bool exists = false;
            fstab_hash(fp, &h, &exists);
            bool done = in->new_hash ? exists && h == in->new_hash : !exists;
            bool before = in->fstab_created ? !exists : exists && h == in->old_hash;
            if (strcmp(in->step, "rollback-fstab") == 0) {
                if (done)
                    st->fstab_written = false;
            } else if (done || !before) {
                /* Done (or changed by someone else as well): rollback takes out our lines. */
                st->fstab_written = true;
                if (done)
                    st->fstab_written_hash = in->new_hash;
                if (a)
                    a->in_fstab = strcmp(in->step, "fstab-add") == 0;
            }
            hr_recovery_add(log,
                            done     ? HR_RECOVERED_DONE
                            : before ? HR_RECOVERED_NOT_DONE
                                     : HR_RECOVERED_FSTAB_CHANGED,
                            in->step, NULL);
        } else if (strcmp(in->step, "swapon") == 0 || strcmp(in->step, "swapoff-old") == 0) {
            if (a)
                a->enabled = hr_lx_is_active(a->path);
            hr_recovery_add(log, hr_lx_is_active(in->path) ? HR_RECOVERED_ON : HR_RECOVERED_OFF, in->step, in->path);
        } else if (strcmp(in->step, "delete-old") == 0) {
            struct stat s;
            if (a && lstat(a->path, &s) != 0 && !a->tmp[0])
                hr_apply_state_drop(st, a->path);
            hr_recovery_add(log, HR_RECOVERED_CHECKED_PATH, in->step, in->path);
        } else if (strcmp(in->step, "record") == 0) {
            struct stat s;
            if (st->fstab_backup[0] && lstat(st->fstab_backup, &s) != 0) {
                st->fstab_backup[0] = '\0';
                st->fstab_path[0] = '\0';
            }
            hr_recovery_add(log, HR_RECOVERED_CHECKED_BACKUP, in->step, NULL);
        } else if (strcmp(in->step, "finish") == 0) {
            hr_strlcpy(st->status, "applied", sizeof st->status);
            hr_recovery_add(log, HR_RECOVERED_MARKED_APPLIED, in->step, NULL);
        } else {
            hr_recovery_add(log, HR_RECOVERED_CHECKED, in->step, NULL);
        }
        memset(&st->intent, 0, sizeof st->intent);
        changed = true;
    }
    if (!changed)
        return 0;
    int r = hr_lx_state_save(rq, st, err);
    return r < 0 ? r : 1;
}

/* ---- facts and plan ---- */

int hr_lx_read_fstab(const char *path, hr_buf *bytes, hr_fstab *f, bool *existed, hr_error *err)
{
    *existed = true;
    int r = hr_lx_read(NULL, path, bytes, HR_FSTAB_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        *existed = false;
        hr_error_clear(err);
        hr_buf_reset(bytes);
        r = 0;
    }
    if (r == 0)
        r = hr_fstab_parse(f, hr_buf_str(bytes), bytes->len, path, err);
    return r;
}

/* The target with its directory resolved once (symlinked parents followed), the last part
 * kept as given: a target that is itself a link is refused later. */
static int resolve_target(const char *target, char *out, size_t n, bool *is_dir, hr_error *err)
{
    char dir[PATH_MAX], real[PATH_MAX];
    struct stat ts;
    *is_dir = false;
    if (target[0] != '/')
        return hr_error_set(err, HR_EINVAL, HR_T("target '%s' must be an absolute path"), target);
    if (lstat(target, &ts) == 0 && S_ISDIR(ts.st_mode)) {
        if (!realpath(target, real))
            return hr_lx_sys_err(err, HR_T("resolve"), target);
        *is_dir = true;
        hr_strlcpy(out, real, n);
        return 0;
    }
    if (lstat(target, &ts) == 0 && S_ISLNK(ts.st_mode))
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("target %s is a symbolic link; give the real path "
                                 "(headroom never follows links when it creates a swap file)"),
                            target);
    hr_lx_split_dir(target, dir, sizeof dir);
    const char *base = strrchr(target, '/') + 1;
    if (!*base)
        return hr_error_set(err, HR_EINVAL, HR_T("target '%s': no file name"), target);
    if (!realpath(dir, real)) {
        if (errno == ENOENT || errno == ENOTDIR)
            return hr_error_set(err, HR_ENOENT, HR_T("%s: the directory %s does not exist"), target, dir);
        return hr_lx_sys_err(err, HR_T("resolve"), dir);
    }
    int w = snprintf(out, n, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
    if (w < 0 || (size_t)w >= n)
        return hr_error_set(err, HR_ERANGE, HR_T("target '%s': path too long"), target);
    return 0;
}

int hr_platform_apply_plan(const hr_apply_request *rq, hr_apply_plan *plan, hr_error *err)
{
    hr_apply_state st;
    int have = hr_lx_state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (have && lock_fd >= 0) {
        int rr = hr_lx_recover(rq, &st, NULL, err);
        if (rr < 0)
            return rr;
    }
    /* fstab must be a plain file before step 1, like every other precondition. */
    struct stat fs_st;
    if (lstat(hr_lx_fstab_path(rq), &fs_st) == 0 && !S_ISREG(fs_st.st_mode))
        return hr_error_set(err, HR_EUNSAFE,
                            HR_T("%s is %s; headroom edits only a regular fstab "
                                 "file (replace the link with the file it points to, or give "
                                 "--fstab the real file)"),
                            hr_lx_fstab_path(rq),
                            S_ISLNK(fs_st.st_mode) ? HR_T("a symbolic link") : HR_T("not a regular file"));
    hr_apply_linux_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, HR_T("out of memory"));
    hr_buf fb;
    hr_buf_init(&fb, HR_FSTAB_MAX_BYTES);
    hr_fstab f;
    hr_fstab_init(&f);
    bool existed;
    int r = hr_lx_read_fstab(hr_lx_fstab_path(rq), &fb, &f, &existed, err);
    if (r == 0)
        r = hr_lx_active_swaps(in->active, HR_MAX_PAGING, &in->active_count, err);

    char target[PATH_MAX];
    bool is_dir = false;
    if (r == 0)
        r = resolve_target(rq->target ? rq->target : "/", target, sizeof target, &is_dir, err);
    uint64_t size_bytes = rq->size_bytes;
    if (r == 0 && rq->from_plan && have &&
        hr_apply_linux_grow_own(&st, target, rq->size_bytes, target, sizeof target, &size_bytes))
        is_dir = false;
    long ps = sysconf(_SC_PAGESIZE);
    in->page_size = ps > 0 ? (size_t)ps : 4096;
    in->size_bytes = size_bytes;
    in->priority = rq->priority;
    in->allow_shrink = rq->allow_shrink;
    if (r == 0)
        r = hr_apply_linux_choose_path(target, is_dir, size_bytes, rq->priority, in->page_size, have ? &st : NULL,
                                       in->path, sizeof in->path, err);
    if (r == 0) {
        struct stat ps2;
        if (lstat(in->path, &ps2) == 0) {
            in->path_exists = true;
            in->path_is_symlink = S_ISLNK(ps2.st_mode);
        } else if (errno != ENOENT) {
            r = hr_lx_sys_err(err, "lstat", in->path);
        }
        char dir[PATH_MAX];
        hr_lx_split_dir(in->path, dir, sizeof dir);
        struct stat ds;
        if (r == 0 && (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)))
            r = hr_error_set(err, HR_ENOENT, HR_T("%s: the directory %s does not exist"), in->path, dir);
        if (r == 0)
            r = hr_lx_fs_facts(dir, &in->fs, err);
        if (r == 0) {
            hr_error de = { 0 };
            if (hr_lx_dir_root_only(dir, &de) < 0)
                hr_strlcpy(in->dir_unsafe, de.msg, sizeof in->dir_unsafe);
        }
        if (r == 0) {
            hr_device_init(&in->dev);
            hr_lx_file_device(NULL, dir, &in->dev);
        }
    }
    if (r == 0) {
        in->fstab = &f;
        in->fstab_path = hr_lx_fstab_path(rq);
        in->state = have ? &st : NULL;
        /* edited by hand since our last write (or deleted): the planner says so */
        in->fstab_edited = have && st.fstab_written &&
                           (!existed || hr_fnv1a64(fb.data ? fb.data : "", fb.len) != st.fstab_written_hash);
        r = hr_apply_plan_linux(in, plan, err);
    }
    hr_fstab_free(&f);
    hr_buf_free(&fb);
    free(in);
    return r;
}
