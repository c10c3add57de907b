/* headroom — apply's state file on disk, through the OS's file operations (apply_store.h). */
#include "core/apply/apply_store.h"

#include "core/base/i18n.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

int hr_apply_store_path(const hr_apply_store *store, char *out, hr_error *err)
{
    int w = snprintf(out, HR_APPLY_STORE_PATH_MAX, "%s%c%s", store->dir, store->sep, HR_APPLY_STATE_FILE);
    if (w < 0 || w >= HR_APPLY_STORE_PATH_MAX)
        return hr_error_set(err, HR_ERANGE, HR_T("state directory %s: name too long"), store->dir);
    return 0;
}

int hr_apply_store_load(const hr_apply_store *store, hr_apply_state *s, hr_error *err)
{
    char p[HR_APPLY_STORE_PATH_MAX];
    if (hr_apply_store_path(store, p, err) < 0)
        return err->code;
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    int r = store->read(p, &b, HR_APPLY_STATE_MAX_BYTES, err);
    if (r == HR_ENOENT) {
        hr_error_clear(err);
        r = 0;
    } else if (r == 0) {
        r = hr_apply_state_parse(hr_buf_str(&b), b.len, p, s, err);
        if (r == 0 && s->os != store->os)
            r = hr_error_set(err, HR_EPARSE, HR_T("%s: a %s state file"), p,
                             s->os == HR_OS_WINDOWS ? "Windows" : "Linux");
        if (r == 0)
            r = 1;
    }
    hr_buf_free(&b);
    return r;
}

int hr_apply_store_save(const hr_apply_store *store, const hr_apply_state *s, hr_error *err)
{
    int r = store->make_dir(store->dir, err);
    if (r < 0)
        return r;
    char p[HR_APPLY_STORE_PATH_MAX];
    if (hr_apply_store_path(store, p, err) < 0)
        return err->code;
    hr_buf b;
    hr_buf_init(&b, HR_APPLY_STATE_MAX_BYTES);
    r = hr_apply_state_write(s, &b);
    if (r == 0)
        r = store->replace(p, b.data, b.len, 0600, err);
    else
        hr_error_set(err, r, HR_T("%s: could not render the state"), p);
    hr_buf_free(&b);
    return r;
}

int hr_apply_store_intent(const hr_apply_store *store, hr_apply_state *s, const char *step, const char *path,
                          hr_error *err)
{
    hr_strlcpy(s->intent.step, step, sizeof s->intent.step);
    if (path != s->intent.path) /* the path prepare put there already: no copy onto itself */
        hr_strlcpy(s->intent.path, path ? path : "", sizeof s->intent.path);
    return hr_apply_store_save(store, s, err);
}
