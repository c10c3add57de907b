/* headroom — Windows rollback: PagingFiles back to the bytes and type the first apply's backup
 * took (or deleted when there was none), only if the value is still one headroom wrote; then
 * the state file goes (the registry backup stays). */
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

int hr_platform_rollback(const hr_apply_request *rq, bool dry_run, hr_buf *log, hr_error *err)
{
    hr_apply_state st;
    int have = hr_wa_state_load(rq, &st, err);
    if (have < 0)
        return have;
    if (!have) {
        hr_buf_puts(log, HR_T("Nothing to roll back: headroom has no record of a change.\n"));
        return 0;
    }
    wchar_t kb[512];
    const wchar_t *key = hr_wa_key(rq, kb, 512);
    if (st.reg_written) {
        hr_pfw_list cur;
        char type[16];
        int r = hr_wa_read_paging_files(rq, &cur, type, sizeof type, err);
        if (r < 0)
            return r;
        /* A write cut short by a kill: the value is the one the journal says was being
         * written, or the one before it; both are headroom's. */
        if (!hr_pfw_equal(&cur, &st.written) && !(st.pending_set && hr_pfw_equal(&cur, &st.pending)))
            return hr_error_set(err, HR_EUNSAFE,
                                HR_T("PagingFiles changed since headroom wrote it; "
                                     "not restoring over someone else's change (the original is in %s)"),
                                st.reg_backup);
        char s[HR_PFW_PATH_MAX + 48];
        hr_buf v;
        hr_buf_init(&v, 0);
        for (int i = 0; i < st.orig.count; i++) {
            hr_pfw_format_string(&st.orig.e[i], s, sizeof s);
            hr_buf_printf(&v, "%s\"%s\"", i ? ", " : "", s);
        }
        if (st.orig_raw_known && st.orig_raw_type >= 0) {
            /* Byte for byte: the type and the bytes the backup took, whatever their form
             * (padding, tabs, empty values, bytes after the terminator). */
            size_t hl = strlen(st.orig_raw_hex);
            hr_buf_printf(log,
                          dry_run ? HR_T("would restore PagingFiles = [%s] (%s, %lu bytes as they were) from %s\n")
                                  : HR_T("restore PagingFiles = [%s] (%s, %lu bytes as they were) from %s\n"),
                          hr_buf_str(&v), st.orig_type, (unsigned long)(hl / 2), st.reg_backup);
            if (!dry_run) {
                BYTE *raw = malloc(hl / 2 + 1);
                if (!raw)
                    r = hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
                for (size_t i = 0; raw && i < hl / 2; i++) {
                    int hi = hr_hex_digit(st.orig_raw_hex[2 * i]), lo = hr_hex_digit(st.orig_raw_hex[2 * i + 1]);
                    raw[i] = (BYTE)((hi < 0 ? 0 : hi) << 4 | (lo < 0 ? 0 : lo));
                }
                HKEY h;
                LSTATUS ls = raw ? RegOpenKeyExW(HKEY_LOCAL_MACHINE, key, 0, KEY_SET_VALUE, &h) : ERROR_SUCCESS;
                if (raw && ls == ERROR_SUCCESS) {
                    ls = RegSetValueExW(h, L"PagingFiles", 0, (DWORD)st.orig_raw_type, raw, (DWORD)(hl / 2));
                    RegFlushKey(h);
                    RegCloseKey(h);
                }
                if (raw && ls != ERROR_SUCCESS)
                    r = hr_wa_err(err, (DWORD)ls, "RegSetValueExW(PagingFiles)");
                free(raw);
            }
        } else if (strcmp(st.orig_type, "missing") == 0) {
            hr_buf_puts(log, dry_run ? HR_T("would delete PagingFiles (there was none before headroom)\n")
                                     : HR_T("delete PagingFiles (there was none before headroom)\n"));
            if (!dry_run) {
                LSTATUS ls = RegDeleteKeyValueW(HKEY_LOCAL_MACHINE, key, L"PagingFiles");
                if (ls != ERROR_SUCCESS && ls != ERROR_FILE_NOT_FOUND)
                    r = hr_wa_err(err, (DWORD)ls, "RegDeleteKeyValueW(PagingFiles)");
            }
        } else {
            hr_buf_printf(log,
                          dry_run ? HR_T("would restore PagingFiles = [%s] (%s) from %s\n")
                                  : HR_T("restore PagingFiles = [%s] (%s) from %s\n"),
                          hr_buf_str(&v), st.orig_type, st.reg_backup);
            if (!dry_run)
                r = hr_wa_reg_write(key, &st.orig, strcmp(st.orig_type, "REG_SZ") == 0 && st.orig.count == 1, err);
        }
        hr_buf_free(&v);
        if (r < 0)
            return r;
    }
    char sp[HR_APPLY_STORE_PATH_MAX];
    hr_apply_store store;
    hr_wa_store(rq, &store);
    if (hr_apply_store_path(&store, sp, err) < 0)
        return err->code;
    hr_buf_printf(log,
                  dry_run ? HR_T("would remove headroom's state file %s (the registry backup %s is kept)\n")
                          : HR_T("remove headroom's state file %s (the registry backup %s is kept)\n"),
                  sp, st.reg_backup[0] ? st.reg_backup : HR_T("(none)"));
    if (!dry_run) {
        wchar_t *w = hr_win_wide(sp);
        if (w) {
            DeleteFileW(w);
            free(w);
        }
    }
    return 1;
}
