#include "core/model/procs.h"
#include "core/base/text.h"
#include "core/base/i18n.h"
#include "core/base/hot.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* "   123456 kB" → bytes. */
HR_HOT static int parse_kb(const char *p, const char *end, uint64_t *bytes)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    uint64_t v = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v > (UINT64_MAX / 1024 - 9) / 10)
            return HR_ERANGE;
        v = v * 10 + (uint64_t)(*p - '0');
        p++;
        digits++;
    }
    if (!digits)
        return HR_EPARSE;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 2 || p[0] != 'k' || p[1] != 'B')
        return HR_EPARSE;
    *bytes = v * 1024;
    return 0;
}

HR_HOT int hr_proc_status_parse(const char *buf, size_t n, hr_proc_status *out, hr_error *err)
{
    memset(out, 0, sizeof *out);
    if (n > HR_PROC_STATUS_MAX)
        return hr_error_set(err, HR_ETOOBIG, HR_T("status: %llu bytes, more than a status file holds"),
                            (unsigned long long)n);
    bool have_name = false, have_rss = false, have_anon = false, have_swap = false;
    const char *p = buf, *end = buf + n;
    /* the lines after the four it reads (signals, capabilities, cpus: half the file) are
     * not looked at: watch parses this for every process of a tree on every sample */
    while (p < end && !(have_name && have_rss && have_anon && have_swap)) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *colon = memchr(p, ':', (size_t)(le - p));
        if (colon) {
            size_t klen = (size_t)(colon - p);
            const char *v = colon + 1;
            uint64_t *dst = NULL;
            if (klen == 4 && memcmp(p, "Name", 4) == 0) {
                while (v < le && (*v == ' ' || *v == '\t'))
                    v++;
                size_t vl = (size_t)(le - v);
                if (vl >= sizeof out->name)
                    vl = sizeof out->name - 1;
                memcpy(out->name, v, vl);
                out->name[vl] = '\0';
                hr_text_one_line(out->name); /* nothing that steers a terminal */
                have_name = vl > 0;
            } else if (klen == 5 && memcmp(p, "VmRSS", 5) == 0) {
                dst = &out->rss_bytes;
                have_rss = true;
            } else if (klen == 7 && memcmp(p, "RssAnon", 7) == 0) {
                dst = &out->anon_bytes;
                have_anon = true;
            } else if (klen == 6 && memcmp(p, "VmSwap", 6) == 0) {
                dst = &out->swap_bytes;
                have_swap = true;
            }
            if (dst) {
                int r = parse_kb(v, le, dst);
                if (r < 0)
                    return hr_error_set(err, r, HR_T("status: %.*s: a number of kB expected"), (int)klen, p);
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (!have_name)
        return hr_error_set(err, HR_EPARSE, HR_T("status: no Name line"));
    if (!have_rss)
        return HR_ENOENT;
    return 0;
}

void hr_proc_table_init(hr_proc_table *t)
{
    memset(t, 0, sizeof *t);
}

void hr_proc_table_free(hr_proc_table *t)
{
    free(t->items);
    memset(t, 0, sizeof *t);
}

int hr_proc_table_add(hr_proc_table *t, const char *name, int64_t pid, uint64_t resident, uint64_t commit)
{
    for (int i = 0; i < t->count; i++) {
        hr_proc *p = &t->items[i];
        if (strcmp(p->name, name) != 0)
            continue;
        p->resident_bytes += resident;
        p->commit_bytes += commit;
        p->processes++;
        return 0;
    }
    if (t->count >= HR_PROC_TABLE_MAX) {
        t->dropped++;
        return HR_ETOOBIG;
    }
    if (t->count == t->cap) {
        int cap = t->cap ? t->cap * 2 : 256;
        hr_proc *items = realloc(t->items, (size_t)cap * sizeof *items);
        if (!items)
            return HR_ENOMEM;
        t->items = items;
        t->cap = cap;
    }
    hr_proc *p = &t->items[t->count++];
    memset(p, 0, sizeof *p);
    p->pid = pid; /* the first one seen: enough to find the program */
    hr_strlcpy(p->name, name, sizeof p->name);
    p->resident_bytes = resident;
    p->commit_bytes = commit;
    p->processes = 1;
    return 0;
}

static int by_size(const void *pa, const void *pb)
{
    const hr_proc *a = pa, *b = pb;
    if (a->commit_bytes != b->commit_bytes)
        return a->commit_bytes > b->commit_bytes ? -1 : 1;
    if (a->resident_bytes != b->resident_bytes)
        return a->resident_bytes > b->resident_bytes ? -1 : 1;
    return strcmp(a->name, b->name);
}

void hr_proc_table_top(const hr_proc_table *t, hr_procs *out)
{
    out->count = 0;
    if (t->count == 0)
        return;
    hr_proc *copy = malloc((size_t)t->count * sizeof *copy);
    if (!copy)
        return;
    memcpy(copy, t->items, (size_t)t->count * sizeof *copy);
    qsort(copy, (size_t)t->count, sizeof *copy, by_size);
    int n = t->count < HR_MAX_PROCS ? t->count : HR_MAX_PROCS;
    memcpy(out->proc, copy, (size_t)n * sizeof *copy);
    out->count = n;
    /* a small python is not among the largest, and may still be ComfyUI with its models on the
     * GPU: keep that it runs */
    out->python_unlisted = false;
    for (int i = n; i < t->count && !out->python_unlisted; i++) {
        const char *k = hr_proc_kind(copy[i].name);
        out->python_unlisted = k && !strcmp(k, "python");
    }
    free(copy);
}

/* python3.9, python3.14, python3.12.exe: an interpreter named by its version */
static bool python_versioned(const char *name)
{
    size_t i = 0;
    static const char prefix[] = "python3.";
    for (; prefix[i]; i++)
        if (tolower((unsigned char)name[i]) != prefix[i])
            return false;
    if (!isdigit((unsigned char)name[i]))
        return false;
    while (isdigit((unsigned char)name[i]))
        i++;
    return name[i] == '\0' || strcmp(name + i, ".exe") == 0 || strcmp(name + i, ".EXE") == 0;
}

static bool name_is(const char *name, const char *const *list, size_t n)
{
    char low[HR_SNAP_NAME_MAX];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = '\0';
    if (i > 4 && strcmp(low + i - 4, ".exe") == 0)
        low[i - 4] = '\0';
    for (size_t k = 0; k < n; k++)
        if (strcmp(low, list[k]) == 0)
            return true;
    return false;
}

const char *hr_proc_kind(const char *name)
{
    static const char *const browsers[] = { "chrome",      "msedge",          "firefox",       "firefox-esr",
                                            "firefox-bin", "brave",           "opera",         "vivaldi",
                                            "chromium",    "chromium-browse", "safari",        "msedgewebview2",
                                            "360se",       "qqbrowser",       "sogouexplorer", "isolated web co",
                                            "web content", "webextensions" };
    static const char *const chats[] = { "discord", "slack", "teams",    "ms-teams", "telegram", "wechat",
                                         "weixin",  "qq",    "dingtalk", "feishu",   "lark",     "whatsapp",
                                         "signal",  "zoom",  "skype",    "element" };
    /* PyTorch names its process's main thread pt_main_thread, which Linux lists as the name */
    static const char *const python[] = { "python", "python3", "pythonw", "pt_main_thread" };
    if (name_is(name, browsers, sizeof browsers / sizeof browsers[0]))
        return "browser";
    if (name_is(name, chats, sizeof chats / sizeof chats[0]))
        return "chat";
    if (name_is(name, python, sizeof python / sizeof python[0]) || python_versioned(name))
        return "python";
    return NULL;
}

bool hr_procs_has_kind(const hr_procs *p, const char *kind)
{
    if (p->python_unlisted && !strcmp(kind, "python"))
        return true;
    for (int i = 0; i < p->count && i < HR_MAX_PROCS; i++) {
        const char *k = hr_proc_kind(p->proc[i].name);
        if (k && !strcmp(k, kind))
            return true;
    }
    return false;
}

const char *hr_proc_kind_words(const char *kind)
{
    if (!kind)
        return "";
    if (!strcmp(kind, "browser"))
        return HR_N("browser");
    if (!strcmp(kind, "chat"))
        return HR_N("chat");
    if (!strcmp(kind, "python"))
        return HR_N("python");
    return kind;
}
