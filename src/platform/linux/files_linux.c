/* headroom — Linux: the file reads' OS part (files_os.h; the bounded head and tail reads are
 * platform/files.c), and a bounded folder walk (platform.h: headroom models / workflow). Never
 * blocks on a FIFO or a device: files are opened O_NONBLOCK and anything but a regular file is
 * refused before the first read. */
#include "platform/files_os.h"
#include "platform/platform.h"
#include "core/base/i18n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* strerror's words: the C locale's, the same in every language headroom speaks */
static int errno_fail(hr_error *err, hr_msg *why, int e, const char *path)
{
    char text[HR_ERROR_MSG_MAX];
    snprintf(text, sizeof text, "%s: %s", path, strerror(e));
    return hr_os_file_fail(err, why, hr_error_from_errno(e), "%s", text);
}

int hr_os_file_open(const char *path, hr_os_file *f, uint64_t *size, hr_error *err, hr_msg *why)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        return errno_fail(err, why, errno, path);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return errno_fail(err, why, e, path);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return hr_os_file_fail(err, why, HR_EINVAL, HR_N("%s: not a regular file"), path);
    }
    *size = (uint64_t)st.st_size;
    *f = (hr_os_file)fd;
    return 0;
}

int hr_os_file_read(hr_os_file f, const char *path, uint64_t off, char *dst, size_t n, hr_error *err, hr_msg *why)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread((int)f, dst + got, n - got, (off_t)(off + got));
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return errno_fail(err, why, errno, path);
        }
        if (k == 0)
            return hr_os_file_fail(err, why, HR_EIO, HR_N("%s: the file ended early (it changed while read)"), path);
        got += (size_t)k;
    }
    return 0;
}

void hr_os_file_close(hr_os_file f)
{
    close((int)f);
}

FILE *hr_os_file_stream(hr_os_file f)
{
    /* O_NONBLOCK stays: it changes nothing for a regular file */
    FILE *s = fdopen((int)f, "rb");
    if (!s)
        close((int)f);
    return s;
}

bool hr_platform_is_file(const char *path, uint64_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (size)
        *size = (uint64_t)st.st_size;
    return true;
}

bool hr_platform_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef struct dev_ino {
    dev_t dev;
    ino_t ino;
} dev_ino;

typedef struct walk_state {
    hr_walk_fn fn;
    hr_walk_note_fn note;
    void *ctx;
    int max_depth;
    size_t max_files, files;
    /* folders entered (device, inode): a link back up is not followed twice */
    dev_ino *seen;
    size_t nseen, capseen;
    /* the root's ancestors up to "/", then the folders the walk is inside of: a link to one
     * of them would take the walk up and across the whole file system */
    dev_ino *up;
    size_t nup, capup;
    bool stop;
} walk_state;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a + 1, *(char *const *)b + 1); /* past the type byte */
}

static bool has(const dev_ino *v, size_t n, const struct stat *st)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].dev == st->st_dev && v[i].ino == st->st_ino)
            return true;
    return false;
}

static bool push(dev_ino **v, size_t *n, size_t *cap, const struct stat *st)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        void *p = realloc(*v, nc * sizeof **v);
        if (!p)
            return false;
        *v = p;
        *cap = nc;
    }
    (*v)[*n].dev = st->st_dev;
    (*v)[*n].ino = st->st_ino;
    (*n)++;
    return true;
}

static bool enter(walk_state *w, const struct stat *st)
{
    return !has(w->seen, w->nseen, st) && push(&w->seen, &w->nseen, &w->capseen, st);
}

/* The root's ancestors, through "..", up to the file system's root (its own parent). */
static void ancestors(walk_state *w, const char *root)
{
    char p[4096];
    struct stat prev, st;
    if (stat(root, &prev) != 0)
        return;
    size_t len = (size_t)snprintf(p, sizeof p, "%s", root);
    for (int i = 0; i < 256 && len + 3 < sizeof p; i++) {
        memcpy(p + len, "/..", 4);
        len += 3;
        if (stat(p, &st) != 0 || (st.st_dev == prev.st_dev && st.st_ino == prev.st_ino))
            break;
        if (!push(&w->up, &w->nup, &w->capup, &st))
            break;
        prev = st;
    }
}

static void note(walk_state *w, hr_walk_note what, const char *path)
{
    if (w->note)
        w->note(what, path, w->ctx);
}

static int walk_dir(walk_state *w, const char *dir, int depth, hr_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return depth == 0 ? hr_error_set(err, hr_error_from_errno(errno), "%s: %s", dir, strerror(errno)) : 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int r = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 32;
            if (nc > ((size_t)1 << 20)) {
                note(w, HR_WALK_STOPPED_ENTRIES, dir);
                r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: too many entries"), dir);
                break;
            }
            char **p = realloc(names, nc * sizeof *names);
            if (!p) {
                r = HR_ENOMEM;
                break;
            }
            names = p;
            cap = nc;
        }
        /* the entry's type from the listing in front of its name: a regular file needs no
         * stat of its own (the reader opens and fstat()s it anyway) */
        size_t k = strlen(e->d_name);
        if (!(names[n] = malloc(k + 2))) {
            r = HR_ENOMEM;
            break;
        }
        names[n][0] = e->d_type == DT_REG ? 'f' : e->d_type == DT_LNK ? 'l' : e->d_type == DT_DIR ? 'd' : '?';
        memcpy(names[n] + 1, e->d_name, k + 1);
        n++;
    }
    closedir(d);
    if (r == 0 && n > 1)
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; r == 0 && i < n && !w->stop; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i] + 1) >= sizeof path)
            continue;
        struct stat st;
        bool link = names[i][0] == 'l';
        if (names[i][0] == 'f') {
            memset(&st, 0, sizeof st);
            st.st_mode = S_IFREG;
            st.st_size = -1; /* not asked: HR_WALK_SIZE_UNKNOWN */
        } else if (names[i][0] == '?' && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
            link = true;
        }
        if (names[i][0] != 'f' && stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (link && has(w->up, w->nup, &st)) {
                note(w, HR_WALK_LINK_UP, path);
                continue;
            }
            if (depth + 1 <= w->max_depth && enter(w, &st)) {
                bool pushed = push(&w->up, &w->nup, &w->capup, &st);
                r = walk_dir(w, path, depth + 1, err);
                if (pushed)
                    w->nup--;
            }
        } else if (S_ISREG(st.st_mode)) {
            if (w->files >= w->max_files) {
                note(w, HR_WALK_STOPPED_FILES, dir);
                r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: more than %zu files"), dir, w->max_files);
                break;
            }
            w->files++;
            uint64_t size = st.st_size < 0 ? HR_WALK_SIZE_UNKNOWN : (uint64_t)st.st_size;
            if (w->fn(path, size, depth, w->ctx) != 0)
                w->stop = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (r == HR_ENOMEM && err && !err->msg[0])
        hr_error_set(err, r, "%s: %s", dir, hr_strerror(r));
    return r;
}

int hr_platform_walk(const char *root, int max_depth, size_t max_files, hr_walk_fn fn, hr_walk_note_fn note_fn,
                     void *ctx, hr_error *err)
{
    walk_state w = { .fn = fn, .note = note_fn, .ctx = ctx, .max_depth = max_depth, .max_files = max_files };
    struct stat st;
    if (stat(root, &st) != 0)
        return hr_error_set(err, hr_error_from_errno(errno), "%s: %s", root, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return hr_error_set(err, HR_EINVAL, HR_T("%s: not a directory"), root);
    /* a root given with a trailing '/' joins without doubling it */
    char r0[4096];
    size_t len = strlen(root);
    if (len >= sizeof r0)
        return hr_error_set(err, HR_EINVAL, HR_T("%s: path too long"), root);
    memcpy(r0, root, len + 1);
    while (len > 1 && r0[len - 1] == '/')
        r0[--len] = '\0';
    enter(&w, &st);
    ancestors(&w, r0);
    push(&w.up, &w.nup, &w.capup, &st);
    int r = walk_dir(&w, r0, 0, err);
    free(w.seen);
    free(w.up);
    return r;
}

const char *hr_platform_getenv(const char *name, char *out, size_t n)
{
    const char *v = getenv(name);
    if (!v || !n)
        return NULL;
    snprintf(out, n, "%s", v);
    return out;
}

char hr_platform_dirsep(void)
{
    return '/';
}

bool hr_platform_cwd(char *out, size_t n)
{
    return getcwd(out, n) != NULL;
}
