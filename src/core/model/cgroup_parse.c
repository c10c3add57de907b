#include "core/model/cgroup_parse.h"
#include "core/base/i18n.h"

#include "core/model/mountinfo.h"
#include "core/base/text.h"

#include <string.h>

int hr_parse_proc_cgroup(const char *buf, size_t len, const char *what, hr_proc_cgroup *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    const char *cur = buf, *end = buf + len, *line;
    size_t n;
    unsigned lineno = 0;
    while (hr_next_line(&cur, end, &line, &n)) {
        lineno++;
        if (n && line[n - 1] == '\r')
            n--;
        if (n == 0)
            continue;
        const char *c1 = memchr(line, ':', n);
        const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;
        uint64_t id;
        if (!c2 || !hr_parse_u64(line, (size_t)(c1 - line), &id))
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: expected ID:CONTROLLERS:PATH"), what, lineno);
        const char *ctl = c1 + 1, *path = c2 + 1;
        size_t ctln = (size_t)(c2 - ctl), pathn = n - (size_t)(path - line);
        if (id == 0 && ctln == 0) {
            out->has_v2 = true;
            hr_unescape_octal(path, pathn, out->v2_path, sizeof out->v2_path);
            continue;
        }
        out->v1_lines++;
        char ctls[256];
        hr_unescape_octal(ctl, ctln, ctls, sizeof ctls);
        if (hr_opt_has(ctls, "memory")) {
            out->has_v1_memory = true;
            hr_unescape_octal(path, pathn, out->v1_memory_path, sizeof out->v1_memory_path);
        }
    }
    return 0;
}
