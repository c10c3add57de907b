/* headroom — Windows apply, rollback and verify: what the three share (internal).
 * apply_win.c: the registry value, the state store, the lock, the plan's facts and the
 * steps' operations; rollback_win.c and verify_win.c the other two commands. */
#ifndef HR_APPLY_WIN_H
#define HR_APPLY_WIN_H

#include "platform/platform.h"

#include "core/apply/apply_state.h"
#include "core/apply/apply_store.h"
#include "core/apply/pagingfiles_write.h"
#include "core/base/buf.h"
#include "core/base/error.h"

#include <windows.h>

#include <stdbool.h>
#include <stddef.h>

/* A Win32 error code as an error naming what (HR_EPERM, HR_ENOENT or HR_EIO). */
int hr_wa_err(hr_error *err, DWORD code, const char *what);
/* Memory Management's key under HKLM (or the request's test key, into buf). */
const wchar_t *hr_wa_key(const hr_apply_request *rq, wchar_t *buf, size_t n);
/* A REG_MULTI_SZ / REG_SZ value as UTF-8 "a\0b\0\0"; *type "REG_MULTI_SZ", "REG_SZ",
 * "missing". */
int hr_wa_reg_read_multi(const wchar_t *key, const wchar_t *name, hr_buf *out, char *type, size_t typen, hr_error *err);
/* Write PagingFiles (REG_MULTI_SZ, or REG_SZ when as_sz), flushed. */
int hr_wa_reg_write(const wchar_t *key, const hr_pfw_list *l, bool as_sz, hr_error *err);
/* PagingFiles now, parsed; *type as above. */
int hr_wa_read_paging_files(const hr_apply_request *rq, hr_pfw_list *l, char *type, size_t tn, hr_error *err);
/* The state file's store (core/apply/apply_store.h) for this request, and its two uses. */
void hr_wa_store(const hr_apply_request *rq, hr_apply_store *store);
int hr_wa_state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err);
int hr_wa_state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err);
/* Does this process hold the apply mutex (hr_platform_lock)? */
bool hr_wa_lock_held(void);

#endif
