/* Windows event records as evidence (the collector in platform/win renders the values;
 * judging them is here so it can be tested anywhere). Field positions: docs/rules.md,
 * sources: Windows event log (template order of Application Error 1000, WER 1001,
 * Resource-Exhaustion-Detector 2004). */
#include "core/diagnose/diag.h"
#include "core/base/i18n.h"
#include "core/base/size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *val(const hr_winevent *ev, size_t i)
{
    return i < ev->nvalues && ev->values[i] ? ev->values[i] : "";
}

static bool ci_contains(const char *s, const char *needle)
{
    size_t k = strlen(needle);
    for (; *s; s++) {
        size_t j = 0;
        while (j < k && s[j] && (s[j] | 0x20) == (needle[j] | 0x20))
            j++;
        if (j == k)
            return true;
    }
    return false;
}

/* python.exe, pythonw.exe, python3.11.exe, and the launchers that host generation tools. */
static bool generation_process(const char *name)
{
    static const char *const names[] = { "python", "comfy", "invoke", "fooocus",  "webui",
                                         "forge",  "kohya", "swarm",  "stability" };
    const char *base = name;
    for (const char *p = name; *p; p++)
        if (*p == '\\' || *p == '/')
            base = p + 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (ci_contains(base, names[i]))
            return true;
    return false;
}

/* The exception code as it appears in 1000 / WER signatures: "c0000005", "0xc0000005". */
static unsigned long exception_code(const char *s)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 16);
    return end && end != s ? v : 0;
}

static const char *const m_av =
    HR_N("Windows recorded a crash of the generation process with an access violation "
         "(0xC0000005): when RAM + paging file run out, a failed allocation ends this way without a "
         "Python error.");
static const char *const m_commit =
    HR_N("Windows recorded that the generation process hit the commit limit (RAM + paging file).");
static const char *const m_crash =
    HR_N("Windows recorded a crash of the generation process with a code that is not about memory "
         "(stack overflow, fail-fast, heap corruption, or another exception).");
static const char *const m_cxx =
    HR_N("Windows recorded an unhandled C++ exception in the generation process (0xE06D7363); "
         "std::bad_alloc, a failed allocation, is one of the usual ones.");

static const char *const m_net1023 =
    HR_N("Windows recorded that the .NET runtime ended a generation tool's process (event 1023): a "
         "sudden end like this is what S2.1 describes when memory runs out; the console log says "
         "more.");

static bool crash_event(hr_diag_ctx *c, const hr_winevent *ev, const char *app, const char *module,
                        const char *code_text, const hr_msg *source)
{
    if (!generation_process(app))
        return false;
    unsigned long code = exception_code(code_text);
    hr_cause cause;
    hr_confidence conf;
    const char *meaning;
    switch (code) {
    case 0xC0000005ul:
        cause = HR_CAUSE_KILLED;
        conf = HR_CONF_MEDIUM;
        meaning = m_av;
        break;
    case 0xC000012Dul:
    case 0xC0000017ul:
        cause = HR_CAUSE_HOST_OOM;
        conf = HR_CONF_HIGH;
        meaning = m_commit;
        break;
    case 0xE06D7363ul:
        cause = HR_CAUSE_KILLED;
        conf = HR_CONF_LOW;
        meaning = m_cxx;
        break;
    default:
        cause = HR_CAUSE_NOT_MEMORY;
        conf = HR_CONF_LOW;
        meaning = m_crash;
        break;
    }
    hr_msg what;
    hr_msg_set(&what, HR_N("%s %u: %s crashed in %s, exception code 0x%08lx"), ev->provider ? ev->provider : "event",
               ev->id, app, module[0] ? module : "?", code);
    hr_diag_add_msg(c, cause, conf, source, ev->time, &what, "", 300, meaning);
    return true;
}

static void fmt_bytes(const char *s, char *out, size_t n)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (!end || end == s) {
        snprintf(out, n, "?");
        return;
    }
    hr_size_format((uint64_t)v, out, n);
}

bool hr_diag_feed_winevent(hr_diag_ctx *c, const hr_winevent *ev)
{
    hr_msg src, *source = &src;
    hr_msg_set(source, HR_N("event log %s %u"), ev->channel ? ev->channel : "?", ev->id);
    const char *provider = ev->provider ? ev->provider : "";
    if (ev->id == 1000 && ci_contains(provider, "application error"))
        return crash_event(c, ev, val(ev, 0), val(ev, 3), val(ev, 6), source);
    if (ev->id == 1001 && ci_contains(provider, "windows error reporting")) {
        /* P1 = application, P4 = module, P7 = exception code (some parsers read P8). */
        const char *code = exception_code(val(ev, 11)) ? val(ev, 11) : val(ev, 12);
        if (!ci_contains(val(ev, 2), "crash") && !ci_contains(val(ev, 2), "bex"))
            return false;
        return crash_event(c, ev, val(ev, 5), val(ev, 8), code, source);
    }
    if (ev->id == 2004 && ci_contains(provider, "resource-exhaustion")) {
        char limit[32], charge[32], top[HR_DIAG_TEXT_MAX] = "";
        fmt_bytes(val(ev, 0), limit, sizeof limit);
        fmt_bytes(val(ev, 1), charge, sizeof charge);
        hr_msg what;
        hr_msg_set(&what, HR_N("Windows diagnosed low virtual memory: commit %s of limit %s; top:"), charge, limit);
        /* Process_N_{Name, ID, CreationTime, CommitCharge, ...}: 7 fields from index 20; names
         * and numbers, the same in every language */
        int o = 0;
        for (size_t k = 0; k < 3 && o >= 0 && (size_t)o < sizeof top; k++) {
            size_t base = 20 + k * 7;
            if (!val(ev, base)[0])
                break;
            char used[32];
            fmt_bytes(val(ev, base + 3), used, sizeof used);
            o += snprintf(top + o, sizeof top - (size_t)o, "%s %s (%s) %s", k ? "," : "", val(ev, base),
                          val(ev, base + 1), used);
        }
        hr_diag_add_msg(c, HR_CAUSE_LOW_VM, HR_CONF_HIGH, source, ev->time, &what, top, HR_DIAG_TEXT_MAX, NULL);
        return true;
    }
    if (ev->id == 1023 && ci_contains(provider, ".net runtime")) {
        /* "Application: python.exe ... Description: The process was terminated due to an internal
         * error in the .NET Runtime": only a generation tool's, and its text may say why */
        const char *app = "";
        for (size_t i = 0; i < ev->nvalues && !app[0]; i++)
            if (generation_process(val(ev, i)) && ci_contains(val(ev, i), ".exe"))
                app = val(ev, i);
        if (!app[0])
            return false;
        for (size_t i = 0; i < ev->nvalues; i++) {
            if (ci_contains(val(ev, i), "outofmemory")) {
                hr_diag_feed_record_msg(c, source, ev->time, val(ev, i), strlen(val(ev, i)));
                return true;
            }
        }
        hr_msg what;
        hr_msg_set(&what,
                   HR_N(".NET Runtime 1023: %.200s was terminated by an internal error of the "
                        "runtime"),
                   app);
        hr_diag_add_msg(c, HR_CAUSE_KILLED, HR_CONF_LOW, source, ev->time, &what, "", 300, m_net1023);
        return true;
    }
    if (ev->id == 1026 && ci_contains(provider, ".net runtime")) {
        for (size_t i = 0; i < ev->nvalues; i++) {
            if (ci_contains(val(ev, i), "outofmemoryexception")) {
                hr_diag_feed_record_msg(c, source, ev->time, val(ev, i), strlen(val(ev, i)));
                return true;
            }
        }
        return false;
    }
    /* Anything else (Application Popup 26 "... low on virtual memory"): its text through the
     * phrase table. */
    bool any = false;
    for (size_t i = 0; i < ev->nvalues; i++) {
        const char *v = val(ev, i);
        if (v[0]) {
            hr_diag_feed_record_msg(c, source, ev->time, v, strlen(v));
            any = true;
        }
    }
    return any;
}
