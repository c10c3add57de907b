/* headroom — Windows verify: the configured PagingFiles against the paging files in use
 * (EnumPageFilesW, ExistingPageFiles, TempPageFile, the commit limit), judged by the core
 * (core/apply/apply_verify.h); holding the lock, it first settles a step a kill cut short. */
#include "apply_win.h"
#include "win_probes.h"

#include "core/apply/apply_verify.h"
#include "core/base/i18n.h"
#include "core/base/text.h"

#include <windows.h>
#include <psapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct enum_ctx {
    hr_verify_win_in *in;
    uint64_t page;
} enum_ctx;

static BOOL CALLBACK on_page_file(LPVOID ctx, PENUM_PAGE_FILE_INFORMATION info, LPCWSTR name)
{
    enum_ctx *c = ctx;
    hr_verify_win_in *in = c->in;
    if (in->open_count < HR_PFW_MAX_ENTRIES) {
        hr_verify_open_file *f = &in->open[in->open_count++];
        WideCharToMultiByte(CP_UTF8, 0, name, -1, f->path, sizeof f->path, NULL, NULL);
        /* EnumPageFilesW names "\??\C:\pagefile.sys" on some builds: verify normalises. */
        f->size_bytes = (uint64_t)info->TotalSize * c->page;
    }
    return TRUE;
}

/* The journal (as Linux verify does with its own): a PagingFiles write a kill cut short, between
 * the state saying it may happen and the state saying it did. The value now says which: the
 * one being written (it was done) or the one before (it was not). The state then records that,
 * so rollback and the next apply start from the truth; the apply itself stays interrupted
 * (verify says so, and rollback --yes undoes it). A value that is neither is someone else's
 * change: left alone (rollback refuses over it). Runs holding the lock only. Appends what it
 * did to log; returns 1 when it saved the state. */
static int recover(const hr_apply_request *rq, hr_apply_state *st, hr_recovery_log *log, hr_error *err)
{
    if (!st->pending_set) {
        /* A step that writes no value (the backup, the finish): what it did is on disk or
         * will be done again; only a finish is taken as done. */
        if (!st->intent.step[0])
            return 0;
        bool finish = strcmp(st->intent.step, "finish") == 0;
        if (finish)
            hr_strlcpy(st->status, "applied", sizeof st->status);
        hr_recovery_add(log, finish ? HR_RECOVERED_MARKED_APPLIED : HR_RECOVERED_CHECKED, st->intent.step, NULL);
        memset(&st->intent, 0, sizeof st->intent);
        int r = hr_wa_state_save(rq, st, err);
        return r < 0 ? r : 1;
    }
    hr_pfw_list cur;
    char type[16];
    int r = hr_wa_read_paging_files(rq, &cur, type, sizeof type, err);
    if (r < 0)
        return r;
    bool done = hr_pfw_equal(&cur, &st->pending);
    bool before = hr_pfw_equal(&cur, &st->written);
    if (!done && !before)
        return 0;
    const char *step = st->intent.step[0] ? st->intent.step : "write-paging-files";
    if (done) {
        st->written = st->pending;
        st->reg_written = true;
        hr_strlcpy(st->last_step, step, sizeof st->last_step);
    }
    st->pending_set = false;
    hr_recovery_add(log, done ? HR_RECOVERED_DONE : HR_RECOVERED_NOT_DONE, step, NULL);
    memset(&st->intent, 0, sizeof st->intent); /* its outcome is recorded now */
    r = hr_wa_state_save(rq, st, err);
    return r < 0 ? r : 1;
}

int hr_platform_verify(const hr_apply_request *rq, hr_verify_result *res, hr_error *err)
{
    hr_apply_state st;
    int have = hr_wa_state_load(rq, &st, err);
    if (have < 0)
        return have;
    hr_recovery_log rlog = { 0 }; /* what recovery found of a write a kill cut short: verify says so */
    if (have && hr_wa_lock_held()) {
        int rr = recover(rq, &st, &rlog, err);
        if (rr < 0)
            return rr;
    }
    hr_verify_win_in *in = calloc(1, sizeof *in);
    if (!in) {
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    }
    in->state = have ? &st : NULL;
    wchar_t kb[512];
    const wchar_t *key = hr_wa_key(rq, kb, 512);
    char type[16];
    int r = hr_wa_read_paging_files(rq, &in->configured, type, sizeof type, err);
    in->configured_present = strcmp(type, "missing") != 0;
    hr_buf b;
    hr_buf_init(&b, 1 << 20);
    if (r == 0 && hr_wa_reg_read_multi(key, L"ExistingPageFiles", &b, type, sizeof type, err) == 0)
        for (size_t p = 0; p < b.len && in->existing_count < HR_PFW_MAX_ENTRIES;) {
            size_t l = strlen(b.data + p);
            if (!l)
                break;
            hr_strlcpy(in->existing[in->existing_count++], b.data + p, HR_PFW_PATH_MAX);
            p += l + 1;
        }
    hr_buf_free(&b);
    hr_error_clear(err);
    /* The paging files open now. */
    PERFORMANCE_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    pi.cb = sizeof pi;
    uint64_t page = 4096;
    in->commit_limit_bytes = in->commit_charge_bytes = HR_UNKNOWN;
    if (GetPerformanceInfo(&pi, sizeof pi)) {
        page = pi.PageSize ? pi.PageSize : 4096;
        in->commit_limit_bytes = (uint64_t)pi.CommitLimit * page;
        in->commit_charge_bytes = (uint64_t)pi.CommitTotal * page;
    }
    in->boot_unix = (int64_t)time(NULL) - (int64_t)(GetTickCount64() / 1000);
    DWORD tmp = 0, tsz = sizeof tmp;
    LSTATUS ts = RegGetValueW(HKEY_LOCAL_MACHINE, key, L"TempPageFile", RRF_RT_REG_DWORD, NULL, &tmp, &tsz);
    in->temp_page_file = ts == ERROR_SUCCESS          ? (tmp ? HR_TRI_YES : HR_TRI_NO)
                         : ts == ERROR_FILE_NOT_FOUND ? HR_TRI_NO
                                                      : HR_TRI_UNKNOWN;
    in->drives_mask = (uint32_t)GetLogicalDrives();
    in->drives_known = in->drives_mask != 0;
    enum_ctx ec = { in, page };
    in->open_known = EnumPageFilesW(on_page_file, &ec) != 0;
    if (r == 0) {
        hr_verify_windows(in, res);
        res->recovered = rlog;
    }
    free(in);
    return r;
}
