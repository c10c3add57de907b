/* headroom — Linux apply: the state file and its journal, the lock, recovery of a run that was
 * cut short, the facts and the plan, and the steps run in order (swapfile_linux.c holds the
 * system-changing primitives; rollback_linux.c and verify_linux.c the other two commands).
 *
 * Every step leaves the system consistent (the failpoint tests prove it): the state file
 * says what was done before the next step starts; fstab names the new file only once it is
 * a working swap area; the old area goes off only after the new one is on (S3.1). */
#define _GNU_SOURCE 1   /* fallocate(2) */
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
#define DEFAULT_FSTAB "/etc/fstab"

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

void hr_lx_state_file(const hr_apply_request *rq, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", hr_lx_state_dir(rq), HR_APPLY_STATE_FILE);
}

/* 1: loaded; 0: no state file; <0: error. */
int hr_lx_state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    char p[PATH_MAX];
    hr_lx_state_file(rq, p, sizeof p);
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    int r = hr_lx_read(NULL, p, &b, HR_APPLY_STATE_MAX_BYTES, err);
    r = hr_apply_state_load(r, &b, p, HR_OS_LINUX, st, err);
    hr_buf_free(&b);
    return r;
}

/* The state directory, made 0700 if it is not there; its parent must exist. */
static int make_state_dir(const char *d, hr_error *err)
{
    if (mkdir(d, 0700) == 0 || errno == EEXIST)
        return 0;
    if (errno == ENOENT) {
        char up[PATH_MAX];
        hr_lx_split_dir(d, up, sizeof up);
        return hr_error_set(err, HR_ENOENT, HR_T("state directory %s: its parent %s does not exist "
                            "(create it, or give --state-dir an existing place)"), d, up);
    }
    return hr_lx_sys_err(err, HR_T("create state directory"), d);
}

int hr_lx_state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err)
{
    const char *d = hr_lx_state_dir(rq);
    int r = make_state_dir(d, err);
    if (r < 0)
        return r;
    char p[PATH_MAX];
    hr_lx_state_file(rq, p, sizeof p);
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    r = hr_apply_state_write(st, &b);
    if (r == 0)
        r = hr_platform_atomic_replace(p, b.data, b.len, 0600, err);
    else
        hr_error_set(err, r, HR_T("%s: could not render the state"), p);
    hr_buf_free(&b);
    return r;
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
        snprintf(want, sizeof want, "%02x:%02x:%llu", major(dev), minor(dev),
                 (unsigned long long)ino);
        const char *line = hr_buf_str(&b);
        while (line && *line) {
            const char *nl = strchr(line, '\n');
            char l[256];
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            snprintf(l, sizeof l, "%.*s", (int)(len < sizeof l ? len : sizeof l - 1), line);
            long pid = 0;
            char id[64] = "";
            if (strstr(l, "FLOCK") && sscanf(l, "%*s %*s %*s %*s %ld %63s", &pid, id) == 2 &&
                strcmp(id, want) == 0 && pid > 0) {
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
                return 0;   /* no state directory: nothing to lock, nothing recorded */
            return hr_lx_sys_err(err, HR_T("open state directory"), d);
        }
        struct stat st, now;
        fstat(fd, &st);
        if (st.st_uid != 0 && geteuid() == 0) {
            close(fd);
            return hr_error_set(err, HR_EUNSAFE, HR_T("state directory %s belongs to user %u, not "
                                "root"), d, (unsigned)st.st_uid);
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
                return hr_error_set(err, HR_EBUSY, HR_T("another headroom apply or rollback is "
                                    "working on %s (%s holds its lock); try again when it has "
                                    "finished"), d, who[0] ? who : HR_T("another process"));
            }
            struct timespec ts = {0, 100 * 1000 * 1000};
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

static void utc_stamp(time_t t, char *out, size_t n, bool compact)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool hr_lx_is_active(const char *path)
{
    hr_swap_active *act = calloc(HR_MAX_PAGING, sizeof *act);
    int n = 0;
    hr_error e = {0};
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
    return lstat(path, &s) == 0 && S_ISREG(s.st_mode) && (uint64_t)s.st_dev == dev &&
           (uint64_t)s.st_ino == ino && (dev || ino);
}

static int fstab_hash(const char *fp, uint64_t *h, bool *exists)
{
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    hr_error e = {0};
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
int hr_lx_recover(const hr_apply_request *rq, hr_apply_state *st, hr_buf *log, hr_error *err)
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
            if (log)
                hr_buf_printf(log, HR_T("recovered: removed the unfinished %s\n"), a->tmp);
            hr_apply_state_drop(st, a->path);
            changed = true;
        } else if (!hr_lx_is_ours(a->tmp, a->device, a->inode) && hr_lx_is_ours(a->path, a->device, a->inode)) {
            a->tmp[0] = '\0';   /* the rename to its name was done */
            changed = true;
        }
    }
    if (in->step[0]) {
        if (log)
            hr_buf_printf(log, HR_T("recovered: step '%s' was cut short; "), in->step);
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
            if (log)
                hr_buf_printf(log, "%s\n", done ? HR_T("it was done") : before ? HR_T("it was not done")
                                                                          : HR_T("fstab changed"));
        } else if (strcmp(in->step, "swapon") == 0 || strcmp(in->step, "swapoff-old") == 0) {
            if (a)
                a->enabled = hr_lx_is_active(a->path);
            if (log)
                hr_buf_printf(log, hr_lx_is_active(in->path) ? HR_T("%s is on\n") : HR_T("%s is off\n"), in->path);
        } else if (strcmp(in->step, "delete-old") == 0) {
            struct stat s;
            if (a && lstat(a->path, &s) != 0 && !a->tmp[0])
                hr_apply_state_drop(st, a->path);
            if (log)
                hr_buf_printf(log, HR_T("checked %s\n"), in->path);
        } else if (strcmp(in->step, "record") == 0) {
            struct stat s;
            if (st->fstab_backup[0] && lstat(st->fstab_backup, &s) != 0) {
                st->fstab_backup[0] = '\0';
                st->fstab_path[0] = '\0';
            }
            if (log)
                hr_buf_printf(log, HR_T("checked the fstab backup\n"));
        } else if (strcmp(in->step, "finish") == 0) {
            hr_strlcpy(st->status, "applied", sizeof st->status);
            if (log)
                hr_buf_printf(log, HR_T("marked applied\n"));
        } else if (log) {
            hr_buf_printf(log, HR_T("checked\n"));
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
        return hr_error_set(err, HR_EUNSAFE, HR_T("target %s is a symbolic link; give the real path "
                            "(headroom never follows links when it creates a swap file)"), target);
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
        return hr_error_set(err, HR_EUNSAFE, HR_T("%s is %s; headroom edits only a regular fstab "
                            "file (replace the link with the file it points to, or give "
                            "--fstab the real file)"), hr_lx_fstab_path(rq),
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
        r = hr_apply_linux_choose_path(target, is_dir, size_bytes, rq->priority, in->page_size,
                                       have ? &st : NULL, in->path, sizeof in->path, err);
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
            hr_error de = {0};
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
        r = hr_apply_plan_linux(in, plan, err);
    }
    hr_fstab_free(&f);
    hr_buf_free(&fb);
    free(in);
    return r;
}

/* ---- running the steps ---- */

/* Compute the new fstab bytes (add and/or remove one swap line). */
static int fstab_compose(const char *fp, const char *add_path, int prio, const char *remove_path,
                         bool strip_nl, hr_buf *bytes, hr_buf *out, bool *existed, bool *added_nl,
                         hr_error *err)
{
    hr_fstab f;
    hr_fstab_init(&f);
    int r = hr_lx_read_fstab(fp, bytes, &f, existed, err);
    if (r == 0 && add_path)
        r = hr_fstab_add_swap(&f, add_path, prio, added_nl, err);
    if (r == 0 && remove_path)
        hr_fstab_remove_swap(&f, remove_path, strip_nl);
    if (r == 0)
        r = hr_fstab_render(&f, out);
    if (r == 0) {
        /* Re-read what we are about to write: it must parse (never write a broken fstab). */
        hr_fstab check;
        r = hr_fstab_parse(&check, hr_buf_str(out), out->len, fp, err);
        hr_fstab_free(&check);
    }
    hr_fstab_free(&f);
    return r;
}

/* The journal's rule: the intent is on disk before the change; a failed write stops here. */
int hr_lx_intent_save(const hr_apply_request *rq, hr_apply_state *st, const char *step,
                       const char *path, hr_error *err)
{
    hr_strlcpy(st->intent.step, step, sizeof st->intent.step);
    hr_strlcpy(st->intent.path, path ? path : "", sizeof st->intent.path);
    return hr_lx_state_save(rq, st, err);
}

static int fstab_edit(const hr_apply_request *rq, hr_apply_state *st, const char *step,
                      const char *add_path, int prio, const char *remove_path, hr_error *err)
{
    const char *fp = hr_lx_fstab_path(rq);
    hr_buf bytes, out;
    hr_buf_init(&bytes, HR_FSTAB_MAX_BYTES);
    hr_buf_init(&out, HR_FSTAB_MAX_BYTES + 4096);
    bool existed = false, added_nl = false;
    int r = fstab_compose(fp, add_path, prio, remove_path, false, &bytes, &out, &existed,
                          &added_nl, err);
    if (r == 0) {
        if (added_nl)
            st->fstab_added_newline = true;
        st->intent.old_hash = existed ? hr_fnv1a64(bytes.data ? bytes.data : "", bytes.len) : 0;
        st->intent.new_hash = hr_fnv1a64(out.data ? out.data : "", out.len);
        st->intent.fstab_created = !existed;
        r = hr_lx_intent_save(rq, st, step, add_path ? add_path : remove_path, err);
    }
    if (r == 0)
        r = hr_platform_atomic_replace(fp, out.data ? out.data : "", out.len, 0644, err);
    if (r == 0) {
        st->fstab_written = true;
        st->fstab_written_hash = hr_fnv1a64(out.data ? out.data : "", out.len);
    }
    hr_buf_free(&bytes);
    hr_buf_free(&out);
    return r;
}

static int step_record(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    if (st->fstab_path[0])
        return hr_lx_intent_save(rq, st, "record", NULL, err);   /* an earlier apply backed it up */
    const char *fp = hr_lx_fstab_path(rq);
    hr_strlcpy(st->fstab_path, fp, sizeof st->fstab_path);
    hr_buf b;
    hr_buf_init(&b, HR_FSTAB_MAX_BYTES);
    int r = hr_lx_read(NULL, fp, &b, HR_FSTAB_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        hr_error_clear(err);
        st->fstab_existed = false;
        hr_buf_free(&b);
        return hr_lx_intent_save(rq, st, "record", NULL, err);
    }
    if (r == 0) {
        char stamp[32];
        utc_stamp(time(NULL), stamp, sizeof stamp, true);
        snprintf(st->fstab_backup, sizeof st->fstab_backup, "%s/fstab.backup-%s", hr_lx_state_dir(rq),
                 stamp);
        st->fstab_existed = true;
        r = hr_lx_intent_save(rq, st, "record", st->fstab_backup, err);
    }
    if (r == 0)
        r = hr_platform_atomic_replace(st->fstab_backup, b.data ? b.data : "", b.len, 0600, err);
    hr_buf_free(&b);
    return r;
}

/* Rename the finished file from its temporary name to its own, never over another file. */
static int place_file(const char *tmp, const char *path, uint64_t dev, uint64_t ino,
                      hr_error *err)
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

int hr_platform_apply_run(const hr_apply_request *rq, const hr_apply_plan *plan, hr_buf *log,
                          hr_error *err)
{
    if (plan->nothing_to_do)
        return 0;
    hr_apply_state st;
    int have = hr_lx_state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (!have) {
        hr_apply_state_init(&st, HR_OS_LINUX);
        time_t now = time(NULL);
        st.started_unix = (int64_t)now;
        utc_stamp(now, st.started, sizeof st.started, false);
    }
    char loaded_status[16];
    hr_strlcpy(loaded_status, st.status, sizeof loaded_status);
    bool changed = false;   /* a step besides "record" was done */
    hr_strlcpy(st.status, "in-progress", sizeof st.status);
    bool btrfs = strcmp(plan->fs_type, "btrfs") == 0;

    for (int i = 0; i < plan->step_count; i++) {
        const hr_apply_step *s = &plan->steps[i];
        hr_apply_area *a = hr_apply_state_find(&st, plan->path);
        hr_apply_area *old = plan->old_path[0] ? hr_apply_state_find(&st, plan->old_path) : NULL;
        int r = 0;
        bool intent_failed = false;
        memset(&st.intent, 0, sizeof st.intent);
        switch (s->kind) {
        case HR_STEP_RECORD:
            r = step_record(rq, &st, err);
            break;
        case HR_STEP_CREATE_FILE: {
            uint64_t dev = 0, ino = 0;
            unsigned char uuid[16];
            char tmp[PATH_MAX + 32];
            hr_lx_tmp_name(plan->path, tmp, sizeof tmp);
            r = hr_lx_random(uuid, sizeof uuid, err);
            if (r == 0) {
                a = hr_apply_state_add(&st, plan->path);
                if (!a) {
                    r = hr_error_set(err, HR_EINTERNAL, HR_T("state: too many areas"));
                    break;
                }
                a->created = true;
                a->size_bytes = plan->size_bytes;
                a->priority = plan->priority;
                a->device = a->inode = 0;
                hr_strlcpy(a->tmp, tmp, sizeof a->tmp);
                hr_uuid_make_v4(uuid);
                hr_uuid_format(uuid, a->uuid);
                r = hr_lx_intent_save(rq, &st, s->name, plan->path, err);
                intent_failed = r < 0;
            }
            if (r == 0)
                r = hr_lx_swapfile_create(tmp, btrfs, &dev, &ino, err);
            if (r == 0) {
                a->device = dev;
                a->inode = ino;
            } else if (a && !intent_failed) {
                hr_apply_state_drop(&st, plan->path);   /* the create cleaned up after itself */
            }
            break;
        }
        case HR_STEP_ALLOCATE:
            r = a ? hr_lx_intent_save(rq, &st, s->name, plan->path, err)
                  : hr_error_set(err, HR_EINTERNAL, HR_T("allocate: no file recorded"));
            intent_failed = r < 0;
            if (r == 0)
                r = hr_lx_swapfile_allocate(a->tmp[0] ? a->tmp : plan->path, plan->size_bytes,
                                            a->device, a->inode, err);
            break;
        case HR_STEP_WRITE_HEADER: {
            unsigned char uuid[16];
            if (!a || hr_uuid_parse(a->uuid, uuid) != 0) {
                r = hr_error_set(err, HR_EINTERNAL, HR_T("write-header: no file recorded"));
                break;
            }
            r = hr_lx_intent_save(rq, &st, s->name, plan->path, err);
            intent_failed = r < 0;
            const char *at = a->tmp[0] ? a->tmp : plan->path;
            if (r == 0)
                r = hr_lx_swapfile_write_header(at, plan->size_bytes, plan->page_size, uuid,
                                                HR_APPLY_SWAP_LABEL, a->device, a->inode, err);
            if (r == 0 && a->tmp[0]) {
                r = place_file(a->tmp, plan->path, a->device, a->inode, err);
                if (r == 0)
                    a->tmp[0] = '\0';
            }
            break;
        }
        case HR_STEP_SWAPON:
            if (!a || !a->created)
                r = hr_error_set(err, HR_EUNSAFE, HR_T("%s: headroom has no record of creating it; "
                                 "not turning it on"), plan->path);
            if (r == 0) {
                r = hr_lx_intent_save(rq, &st, s->name, plan->path, err);
                intent_failed = r < 0;
            }
            if (r == 0)
                r = hr_lx_swapon_checked(plan->path, plan->priority, a->device, a->inode,
                                         plan->page_size, err);
            if (r == 0)
                a->enabled = true;
            break;
        case HR_STEP_FSTAB_ADD:
            r = fstab_edit(rq, &st, s->name, plan->path, plan->priority, NULL, err);
            intent_failed = r < 0 && strcmp(st.intent.step, s->name) != 0;
            if (r == 0 && a)
                a->in_fstab = true;
            break;
        case HR_STEP_SWAPOFF_OLD:
            r = hr_lx_intent_save(rq, &st, s->name, plan->old_path, err);
            intent_failed = r < 0;
            if (r == 0 && hr_lx_is_active(plan->old_path))
                r = hr_lx_swapoff(plan->old_path, err);
            if (r == 0 && old)
                old->enabled = false;
            break;
        case HR_STEP_FSTAB_REMOVE_OLD:
            r = fstab_edit(rq, &st, s->name, NULL, 0, plan->old_path, err);
            intent_failed = r < 0 && strcmp(st.intent.step, s->name) != 0;
            if (r == 0 && old)
                old->in_fstab = false;
            break;
        case HR_STEP_DELETE_OLD:
            if (old) {
                r = hr_lx_intent_save(rq, &st, s->name, plan->old_path, err);
                intent_failed = r < 0;
                if (r == 0 && !hr_lx_is_ours(plan->old_path, old->device, old->inode))
                    r = hr_error_set(err, HR_EUNSAFE, HR_T("%s is no longer the file headroom "
                                     "created; not deleting it"), plan->old_path);
                if (r == 0 && unlink(plan->old_path) != 0)
                    r = hr_lx_sys_err(err, HR_T("delete"), plan->old_path);
                if (r == 0)
                    hr_apply_state_drop(&st, plan->old_path);
            }
            break;
        case HR_STEP_FINISH:
            r = hr_lx_intent_save(rq, &st, s->name, NULL, err);
            intent_failed = r < 0;
            hr_strlcpy(st.status, "applied", sizeof st.status);
            break;
        default:
            r = hr_error_set(err, HR_EINTERNAL, HR_T("step %s is not a Linux step"), s->name);
        }
        if (r == 0) {
            memset(&st.intent, 0, sizeof st.intent);
            hr_strlcpy(st.last_step, s->name, sizeof st.last_step);
            r = hr_lx_state_save(rq, &st, err);
            if (r < 0) {
                /* The step is done and its intent is on disk: the next run finishes it. */
                hr_buf_printf(log, HR_T("done: [%s] %s\n"), s->name, s->what);
                hr_buf_printf(log, HR_T("FAILED: recording step [%s] as done in the state file\n"),
                              s->name);
                return r;
            }
        }
        if (r < 0) {
            if (intent_failed) {
                hr_buf_printf(log, HR_T("FAILED: [%s] not started: its intent could not be written "
                              "to the state file\n"), s->name);
            } else if (s->kind == HR_STEP_FSTAB_ADD || s->kind == HR_STEP_FSTAB_REMOVE_OLD) {
                /* The new fstab may be in place: the rename done, the directory's fsync (or
                 * the open before it) failed. The intent on disk stays, so that the next run
                 * tells by fstab's hash whether the edit was made (hr_lx_recover()); clearing it
                 * here left a line rollback did not know of (ENOSPC, issue 16). */
                hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, s->what);
            } else {
                /* The step failed and undid itself; record that nothing of it is left. */
                hr_error e2 = {0};
                memset(&st.intent, 0, sizeof st.intent);
                if (s->kind == HR_STEP_FINISH)
                    hr_strlcpy(st.status, "in-progress", sizeof st.status);
                if (!changed && have)   /* e.g. a repair whose swapon was refused */
                    hr_strlcpy(st.status, loaded_status, sizeof st.status);
                hr_lx_state_save(rq, &st, &e2);
                hr_buf_printf(log, HR_T("FAILED: [%s] %s\n"), s->name, s->what);
            }
            return r;
        }
        hr_buf_printf(log, HR_T("done: [%s] %s\n"), s->name, s->what);
        if (s->kind != HR_STEP_RECORD)
            changed = true;
        if (rq->failpoint && strcmp(rq->failpoint, s->name) == 0) {
            hr_buf_printf(log, HR_T("stopped at failpoint '%s'\n"), s->name);
            return 1;
        }
    }
    return 0;
}
