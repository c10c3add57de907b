#include "core/model/mountinfo.h"
#include "core/base/i18n.h"

#include "core/base/text.h"

#include <string.h>

static bool next_field(const char **p, const char *end, const char **f, size_t *fn)
{
    while (*p < end && **p == ' ')
        (*p)++;
    if (*p >= end)
        return false;
    *f = *p;
    while (*p < end && **p != ' ')
        (*p)++;
    *fn = (size_t)(*p - *f);
    return true;
}

static void copy_field(char *dst, size_t dstn, const char *f, size_t fn)
{
    hr_unescape_octal(f, fn, dst, dstn);
}

static bool parse_majmin(const char *f, size_t fn, unsigned *maj, unsigned *min)
{
    const char *colon = memchr(f, ':', fn);
    uint64_t a, b;
    if (!colon || !hr_parse_u64(f, (size_t)(colon - f), &a) ||
        !hr_parse_u64(colon + 1, fn - (size_t)(colon - f) - 1, &b) || a > 0xffffffffu || b > 0xffffffffu)
        return false;
    *maj = (unsigned)a;
    *min = (unsigned)b;
    return true;
}

int hr_mountinfo_next(const char **cur, const char *end, const char *what, unsigned *lineno, hr_mount *m, hr_error *err)
{
    const char *line;
    size_t n;
    while (hr_next_line(cur, end, &line, &n)) {
        (*lineno)++;
        if (n && line[n - 1] == '\r')
            n--;
        if (n == 0)
            continue;
        const char *p = line, *le = line + n, *f;
        size_t fn;
        /* 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue */
        const char *fields[6];
        size_t lens[6];
        int k = 0;
        while (k < 6 && next_field(&p, le, &fields[k], &lens[k]))
            k++;
        if (k < 6)
            goto bad;
        memset(m, 0, sizeof *m);
        if (!parse_majmin(fields[2], lens[2], &m->major, &m->minor))
            goto bad;
        copy_field(m->root, sizeof m->root, fields[3], lens[3]);
        copy_field(m->mount_point, sizeof m->mount_point, fields[4], lens[4]);
        copy_field(m->mount_opts, sizeof m->mount_opts, fields[5], lens[5]);
        /* Optional fields until the lone "-". */
        bool sep = false;
        while (next_field(&p, le, &f, &fn)) {
            if (fn == 1 && f[0] == '-') {
                sep = true;
                break;
            }
        }
        if (!sep || !next_field(&p, le, &f, &fn))
            goto bad;
        copy_field(m->fs_type, sizeof m->fs_type, f, fn);
        if (next_field(&p, le, &f, &fn))
            copy_field(m->source, sizeof m->source, f, fn);
        if (next_field(&p, le, &f, &fn))
            copy_field(m->super_opts, sizeof m->super_opts, f, fn);
        return 1;
    bad:
        return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: not a mountinfo line"), what, *lineno);
    }
    return 0;
}

/* Is mount point mp a prefix of path at a component boundary? */
static size_t prefix_len(const char *mp, const char *path)
{
    size_t n = strlen(mp);
    if (n == 1 && mp[0] == '/')
        return path[0] == '/' ? 1 : 0;
    if (strncmp(mp, path, n) != 0 || (path[n] != '/' && path[n] != '\0'))
        return 0;
    return n;
}

int hr_mountinfo_find(const char *buf, size_t len, const char *what, const char *path, hr_mount *out, hr_error *err)
{
    const char *cur = buf, *end = buf + len;
    unsigned lineno = 0;
    size_t best = 0;
    hr_mount m;
    int r;
    while ((r = hr_mountinfo_next(&cur, end, what, &lineno, &m, err)) == 1) {
        size_t l = prefix_len(m.mount_point, path);
        if (l && l >= best) {
            best = l;
            *out = m;
        }
    }
    if (r < 0)
        return r;
    return best ? 0 : hr_error_set(err, HR_ENOENT, HR_T("%s: no mount holds %s"), what, path);
}

bool hr_opt_has(const char *opts, const char *opt)
{
    size_t n = strlen(opt);
    const char *p = opts;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t l = comma ? (size_t)(comma - p) : strlen(p);
        if (l == n && strncmp(p, opt, n) == 0)
            return true;
        p = comma ? comma + 1 : NULL;
    }
    return false;
}
