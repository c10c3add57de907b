/* Windows: the event log's records of crashes and low virtual memory, for headroom
 * diagnose (docs/rules.md, sources: Windows event log). Values are rendered positionally
 * (EvtRenderContextUser: template order, named or not, robust across builds) and judged in the core
 * (core/diagnose/winevent.c). Under Wine EvtQuery is a stub that returns NULL with error 0:
 * that is reported as "event log unavailable", never as "nothing happened". */
#include "platform/platform.h"

#include "core/base/i18n.h"

#include <windows.h>
#include <winevt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS_PER_QUERY_MAX 200
#define VALUES_MAX           64
#define VALUE_CHARS          512

typedef struct evt_query {
    const wchar_t *channel;
    const char *channel_utf8;
    const char *provider;
    unsigned id;
} evt_query;

static const evt_query queries[] = {
    { L"Application", "Application", "Application Error", 1000 },
    { L"Application", "Application", "Windows Error Reporting", 1001 },
    { L"Application", "Application", ".NET Runtime", 1023 },
    { L"Application", "Application", ".NET Runtime", 1026 },
    { L"System", "System", "Microsoft-Windows-Resource-Exhaustion-Detector", 2004 },
    { L"System", "System", "Application Popup", 26 },
};

static int64_t filetime_unix(ULONGLONG ft)
{
    return (int64_t)(ft / 10000000ULL) - 11644473600LL;
}

static void variant_text(const EVT_VARIANT *v, char *out, size_t n)
{
    out[0] = '\0';
    if (v->Type & EVT_VARIANT_TYPE_ARRAY)
        return;
    switch (v->Type & EVT_VARIANT_TYPE_MASK) {
    case EvtVarTypeString:
        if (v->StringVal && !WideCharToMultiByte(CP_UTF8, 0, v->StringVal, -1, out, (int)n, NULL, NULL))
            out[0] = '\0';
        break;
    case EvtVarTypeAnsiString:
        if (v->AnsiStringVal)
            snprintf(out, n, "%s", v->AnsiStringVal);
        break;
    case EvtVarTypeByte: snprintf(out, n, "%u", (unsigned)v->ByteVal); break;
    case EvtVarTypeSByte: snprintf(out, n, "%d", (int)v->SByteVal); break;
    case EvtVarTypeInt16: snprintf(out, n, "%d", (int)v->Int16Val); break;
    case EvtVarTypeUInt16: snprintf(out, n, "%u", (unsigned)v->UInt16Val); break;
    case EvtVarTypeInt32: snprintf(out, n, "%ld", (long)v->Int32Val); break;
    case EvtVarTypeUInt32: snprintf(out, n, "%lu", (unsigned long)v->UInt32Val); break;
    case EvtVarTypeInt64: snprintf(out, n, "%lld", (long long)v->Int64Val); break;
    case EvtVarTypeUInt64: snprintf(out, n, "%llu", (unsigned long long)v->UInt64Val); break;
    /* exception codes are HexInt32: written as the event viewer shows them */
    case EvtVarTypeHexInt32: snprintf(out, n, "%08lx", (unsigned long)v->UInt32Val); break;
    case EvtVarTypeHexInt64: snprintf(out, n, "0x%llx", (unsigned long long)v->UInt64Val); break;
    case EvtVarTypeFileTime: snprintf(out, n, "%lld", (long long)filetime_unix(v->FileTimeVal)); break;
    default: break;
    }
}

/* EvtRender into a growing buffer; returns the value count or -1. */
static int render(EVT_HANDLE ctx, EVT_HANDLE ev, void **buf, DWORD *cap)
{
    DWORD used = 0, count = 0;
    if (!EvtRender(ctx, ev, EvtRenderEventValues, *cap, *buf, &used, &count)) {
        if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || used > (1u << 20))
            return -1;
        void *nb = realloc(*buf, used);
        if (!nb)
            return -1;
        *buf = nb;
        *cap = used;
        if (!EvtRender(ctx, ev, EvtRenderEventValues, *cap, *buf, &used, &count))
            return -1;
    }
    return (int)count;
}

typedef struct render_state {
    EVT_HANDLE sys_ctx, user_ctx;
    void *buf;
    DWORD cap;
    char (*text)[VALUE_CHARS];
} render_state;

static void one_event(hr_diag_ctx *ctx, const evt_query *q, EVT_HANDLE ev, render_state *rs)
{
    int64_t when = 0;
    char provider[128] = "";
    int ns = render(rs->sys_ctx, ev, &rs->buf, &rs->cap);
    if (ns > (int)EvtSystemTimeCreated) {
        const EVT_VARIANT *sv = rs->buf;
        if ((sv[EvtSystemTimeCreated].Type & EVT_VARIANT_TYPE_MASK) == EvtVarTypeFileTime)
            when = filetime_unix(sv[EvtSystemTimeCreated].FileTimeVal);
        variant_text(&sv[EvtSystemProviderName], provider, sizeof provider);
    }
    int nu = render(rs->user_ctx, ev, &rs->buf, &rs->cap);
    if (nu < 0)
        return;
    if (nu > VALUES_MAX)
        nu = VALUES_MAX;
    const EVT_VARIANT *uv = rs->buf;
    const char *values[VALUES_MAX];
    for (int i = 0; i < nu; i++) {
        variant_text(&uv[i], rs->text[i], VALUE_CHARS);
        values[i] = rs->text[i];
    }
    hr_winevent we = { .channel = q->channel_utf8,
                       .provider = provider[0] ? provider : q->provider,
                       .id = q->id,
                       .time = when,
                       .nvalues = (size_t)nu,
                       .values = values };
    hr_diag_feed_winevent(ctx, &we);
}

int hr_platform_oom_evidence(const hr_probe_opts *opts, int64_t since_seconds, hr_diag_ctx *ctx, hr_error *err)
{
    (void)opts;
    (void)err;
    render_state rs = { 0 };
    long long ms = (long long)since_seconds * 1000;
    int64_t total = 0;
    int failed = 0;
    DWORD first_error = 0;
    for (size_t qi = 0; qi < sizeof queries / sizeof queries[0]; qi++) {
        const evt_query *q = &queries[qi];
        char xpath[512];
        wchar_t wxpath[512];
        snprintf(xpath, sizeof xpath,
                 "*[System[Provider[@Name='%s'] and (EventID=%u) and "
                 "TimeCreated[timediff(@SystemTime) <= %lld]]]",
                 q->provider, q->id, ms);
        if (!MultiByteToWideChar(CP_UTF8, 0, xpath, -1, wxpath, 512))
            continue;
        EVT_HANDLE h = EvtQuery(NULL, q->channel, wxpath, EvtQueryChannelPath | EvtQueryReverseDirection);
        if (!h) {
            /* NULL is failure whatever the error code (Wine's stub leaves it 0). */
            if (!failed)
                first_error = GetLastError();
            failed++;
            continue;
        }
        /* Render contexts only once a query answered: Wine does not implement
         * EvtCreateRenderContext at all (calling it aborts the process). */
        if (!rs.sys_ctx) {
            rs.sys_ctx = EvtCreateRenderContext(0, NULL, EvtRenderContextSystem);
            rs.user_ctx = EvtCreateRenderContext(0, NULL, EvtRenderContextUser);
            rs.text = malloc(sizeof *rs.text * VALUES_MAX);
            rs.cap = 4096;
            rs.buf = malloc(rs.cap);
        }
        if (!rs.sys_ctx || !rs.user_ctx || !rs.text || !rs.buf) {
            if (!failed)
                first_error = GetLastError();
            failed++;
            EvtClose(h);
            continue;
        }
        EVT_HANDLE evs[16];
        DWORD got = 0;
        int64_t seen = 0;
        while (seen < EVENTS_PER_QUERY_MAX && EvtNext(h, 16, evs, 1000, 0, &got)) {
            for (DWORD i = 0; i < got; i++) {
                if (seen < EVENTS_PER_QUERY_MAX)
                    one_event(ctx, q, evs[i], &rs);
                seen++;
                EvtClose(evs[i]);
            }
        }
        total += seen;
        EvtClose(h);
    }
    if (rs.sys_ctx)
        EvtClose(rs.sys_ctx);
    if (rs.user_ctx)
        EvtClose(rs.user_ctx);
    free(rs.text);
    free(rs.buf);
    size_t nq = sizeof queries / sizeof queries[0];
    if ((size_t)failed == nq) {
        hr_diag_note_source(ctx, HR_N("event log"), false, -1,
                            HR_N("event log unavailable (EvtQuery failed, error %lu): read it by "
                                 "hand in Event Viewer → Windows Logs → Application (events 1000, "
                                 "1023)"),
                            (unsigned long)first_error);
        return HR_EPARTIAL;
    }
    hr_msg *detail = hr_diag_note_source(ctx, HR_N("event log"), true, total,
                                         HR_N("Application 1000/1001/1023/1026, System 2004/26: %lld events%s"),
                                         (long long)total, failed ? HR_N(" (some queries failed)") : "");
    if (detail && failed) /* the fragment is a msgid of its own, shown in the report's language */
        hr_msg_translate_arg(detail, 1);
    return failed ? HR_EPARTIAL : 0;
}
