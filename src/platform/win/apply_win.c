/* headroom — Windows apply: the registry value, the state store, the lock, the plan's facts and
 * the steps' operations (rollback_win.c and verify_win.c hold the other two commands).
 *
 * The paging file configuration is the PagingFiles value (REG_MULTI_SZ; Wine and old setups
 * have a REG_SZ) under HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory
 * Management. apply backs the related values up to a timestamped file, then writes
 * PagingFiles once per S3.1 click (core/apply/pagingfiles_write.h), recording each write in the
 * state file. Windows reads the value at boot only: every change waits for a reboot. We do
 * not grow a file live (sysdm.cpl can, through NtCreatePagingFile); one path, tested. */
#include "apply_win.h"
#include "win_probes.h"

#include "core/apply/apply_run.h"
#include "core/apply/apply_state.h"
#include "core/apply/apply_store.h"
#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/utc.h"

#include <windows.h>
#include <psapi.h>
#include <shlobj.h>
#include <winioctl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MM_KEY L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management"

/* ---- UTF-8 <-> UTF-16 ---- */

/* UTF-16 units (NULs included) -> UTF-8 bytes in b. */
static int from_wide(const wchar_t *w, size_t units, hr_buf *b)
{
    hr_buf_reset(b);
    if (!units)
        return 0;
    int n = WideCharToMultiByte(CP_UTF8, 0, w, (int)units, NULL, 0, NULL, NULL);
    char *tmp = malloc((size_t)n + 1);
    if (!tmp)
        return HR_ENOMEM;
    WideCharToMultiByte(CP_UTF8, 0, w, (int)units, tmp, n, NULL, NULL);
    int r = hr_buf_append(b, tmp, (size_t)n);
    free(tmp);
    return r;
}

int hr_wa_err(hr_error *err, DWORD code, const char *what)
{
    char msg[256] = "";
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, msg, sizeof msg, NULL);
    for (char *p = msg; *p; p++)
        if (*p == '\r' || *p == '\n')
            *p = ' ';
    int c = code == ERROR_ACCESS_DENIED                                      ? HR_EPERM
            : (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND) ? HR_ENOENT
                                                                             : HR_EIO;
    return hr_error_set(err, c, "%s: error %lu %s", what, (unsigned long)code, msg);
}

/* ---- small OS facts ---- */

const char *hr_platform_state_dir(void)
{
    static char dir[MAX_PATH * 3];
    if (dir[0])
        return dir;
    wchar_t w[MAX_PATH];
    DWORD n = GetEnvironmentVariableW(L"ProgramData", w, MAX_PATH);
    if (n == 0 || n >= MAX_PATH)
        wcscpy(w, L"C:\\ProgramData");
    char base[MAX_PATH * 3];
    WideCharToMultiByte(CP_UTF8, 0, w, -1, base, sizeof base, NULL, NULL);
    snprintf(dir, sizeof dir, "%s\\headroom", base);
    return dir;
}

bool hr_platform_is_admin(void)
{
    HANDLE tok;
    bool elevated = false;
    if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok)) {
        TOKEN_ELEVATION e;
        DWORD n = 0;
        if (GetTokenInformation(tok, TokenElevation, &e, sizeof e, &n))
            elevated = e.TokenIsElevated != 0;
        CloseHandle(tok);
    }
    return elevated || IsUserAnAdmin();
}

static HANDLE lock_mutex;

bool hr_wa_lock_held(void)
{
    return lock_mutex != NULL;
}

int hr_platform_lock(const hr_apply_request *rq, bool create, int wait_s, hr_error *err)
{
    (void)rq;
    (void)create;
    if (lock_mutex)
        return 1;
    /* One name for the machine: every session's apply and rollback change the same registry. */
    HANDLE h = CreateMutexW(NULL, FALSE, L"Global\\headroom-apply");
    if (!h)
        h = CreateMutexW(NULL, FALSE, L"Local\\headroom-apply");
    if (!h)
        return hr_wa_err(err, GetLastError(), "CreateMutexW(headroom-apply)");
    DWORD w = WaitForSingleObject(h, (DWORD)(wait_s > 0 ? wait_s : 0) * 1000u);
    if (w == WAIT_OBJECT_0 || w == WAIT_ABANDONED) { /* abandoned: its holder died */
        lock_mutex = h;
        return 1;
    }
    CloseHandle(h);
    return hr_error_set(err, HR_EBUSY,
                        HR_T("another headroom apply or rollback is running (it holds "
                             "the headroom-apply mutex); try again when it has finished"));
}

void hr_platform_unlock(void)
{
    if (lock_mutex) {
        ReleaseMutex(lock_mutex);
        CloseHandle(lock_mutex);
    }
    lock_mutex = NULL;
}

int hr_platform_atomic_replace(const char *path, const void *data, size_t len, unsigned mode, hr_error *err)
{
    (void)mode;
    char tmp[MAX_PATH * 3 + 32];
    snprintf(tmp, sizeof tmp, "%s.headroom-tmp", path);
    wchar_t *wt = hr_win_wide(tmp), *wp = hr_win_wide(path);
    int r = 0;
    if (!wt || !wp) {
        r = hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
        goto out;
    }
    HANDLE h = CreateFileW(wt, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        r = hr_wa_err(err, GetLastError(), tmp);
        goto out;
    }
    DWORD w = 0;
    if (len && (!WriteFile(h, data, (DWORD)len, &w, NULL) || w != len))
        r = hr_wa_err(err, GetLastError(), tmp);
    else if (!FlushFileBuffers(h))
        r = hr_wa_err(err, GetLastError(), tmp);
    CloseHandle(h);
    if (r == 0 && !MoveFileExW(wt, wp, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        r = hr_wa_err(err, GetLastError(), path);
    if (r != 0)
        DeleteFileW(wt);
out:
    free(wt);
    free(wp);
    return r;
}

static int read_file(const char *path, hr_buf *out, size_t max, hr_error *err)
{
    hr_buf_reset(out);
    wchar_t *w = hr_win_wide(path);
    if (!w)
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return hr_wa_err(err, GetLastError(), path);
    char tmp[65536];
    DWORD n;
    int r = 0;
    while (ReadFile(h, tmp, sizeof tmp, &n, NULL) && n) {
        if (out->len + n > max || hr_buf_append(out, tmp, n) < 0) {
            r = hr_error_set(err, HR_ETOOBIG, HR_T("%s: larger than %lu bytes"), path, (unsigned long)max);
            break;
        }
    }
    CloseHandle(h);
    return r;
}

const wchar_t *hr_wa_key(const hr_apply_request *rq, wchar_t *buf, size_t n)
{
    if (!rq->registry_key)
        return MM_KEY;
    MultiByteToWideChar(CP_UTF8, 0, rq->registry_key, -1, buf, (int)n);
    return buf;
}

/* A REG_MULTI_SZ / REG_SZ value as UTF-8 "a\0b\0\0". *type: "REG_MULTI_SZ", "REG_SZ",
 * "missing". */
int hr_wa_reg_read_multi(const wchar_t *key, const wchar_t *name, hr_buf *out, char *type, size_t typen, hr_error *err)
{
    DWORD t = 0, cb = 0;
    hr_buf_reset(out);
    LSTATUS s =
        RegGetValueW(HKEY_LOCAL_MACHINE, key, name, RRF_RT_REG_MULTI_SZ | RRF_RT_REG_SZ | RRF_NOEXPAND, &t, NULL, &cb);
    if (s == ERROR_FILE_NOT_FOUND) {
        hr_strlcpy(type, "missing", typen);
        return 0;
    }
    if (s != ERROR_SUCCESS)
        return hr_wa_err(err, (DWORD)s, "RegGetValueW(Memory Management)");
    wchar_t *w = calloc(cb / sizeof(wchar_t) + 2, sizeof(wchar_t));
    if (!w)
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    s = RegGetValueW(HKEY_LOCAL_MACHINE, key, name, RRF_RT_REG_MULTI_SZ | RRF_RT_REG_SZ | RRF_NOEXPAND, &t, w, &cb);
    if (s != ERROR_SUCCESS) {
        free(w);
        return hr_wa_err(err, (DWORD)s, "RegGetValueW(Memory Management)");
    }
    hr_strlcpy(type, t == REG_MULTI_SZ ? "REG_MULTI_SZ" : "REG_SZ", typen);
    size_t units = cb / sizeof(wchar_t);
    int r = from_wide(w, units, out);
    free(w);
    return r;
}

/* A value's bytes exactly as stored (RegQueryValueExW adds no terminator and drops nothing):
 * *present false when there is no such value. The caller frees *data. */
static int reg_read_raw(const wchar_t *key, const wchar_t *name, BYTE **data, DWORD *cb, DWORD *type, bool *present,
                        hr_error *err)
{
    *data = NULL;
    *cb = 0;
    *type = REG_NONE;
    *present = false;
    HKEY h;
    LSTATUS s = RegOpenKeyExW(HKEY_LOCAL_MACHINE, key, 0, KEY_QUERY_VALUE, &h);
    if (s == ERROR_FILE_NOT_FOUND)
        return 0;
    if (s != ERROR_SUCCESS)
        return hr_wa_err(err, (DWORD)s, "RegOpenKeyExW(Memory Management)");
    DWORD n = 0;
    s = RegQueryValueExW(h, name, NULL, type, NULL, &n);
    if (s == ERROR_SUCCESS) {
        *data = malloc(n ? n : 1);
        if (!*data) {
            RegCloseKey(h);
            return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
        }
        s = RegQueryValueExW(h, name, NULL, type, *data, &n);
    }
    RegCloseKey(h);
    if (s == ERROR_FILE_NOT_FOUND) {
        free(*data);
        *data = NULL;
        return 0;
    }
    if (s != ERROR_SUCCESS) {
        free(*data);
        *data = NULL;
        return hr_wa_err(err, (DWORD)s, "RegQueryValueExW(Memory Management)");
    }
    *cb = n;
    *present = true;
    return 0;
}

static void to_hex(const BYTE *d, DWORD n, char *out, size_t outn)
{
    static const char digits[] = "0123456789abcdef";
    size_t o = 0;
    for (DWORD i = 0; i < n && o + 2 < outn; i++) {
        out[o++] = digits[d[i] >> 4];
        out[o++] = digits[d[i] & 15];
    }
    out[o] = '\0';
}

int hr_wa_reg_write(const wchar_t *key, const hr_pfw_list *l, bool as_sz, hr_error *err)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    int r = hr_pfw_serialize(l, &b);
    if (r < 0) {
        hr_buf_free(&b);
        return hr_error_set(err, r, "%s", HR_T("PagingFiles: could not serialize"));
    }
    size_t n = as_sz ? strlen(hr_buf_str(&b)) + 1 : b.len; /* REG_SZ: one string, one NUL */
    int wn = MultiByteToWideChar(CP_UTF8, 0, b.data, (int)n, NULL, 0);
    wchar_t *w = calloc((size_t)wn + 1, sizeof *w);
    if (!w) {
        hr_buf_free(&b);
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    }
    MultiByteToWideChar(CP_UTF8, 0, b.data, (int)n, w, wn);
    hr_buf_free(&b);
    HKEY h;
    LSTATUS s = RegOpenKeyExW(HKEY_LOCAL_MACHINE, key, 0, KEY_SET_VALUE, &h);
    if (s == ERROR_SUCCESS) {
        s = RegSetValueExW(h, L"PagingFiles", 0, as_sz ? REG_SZ : REG_MULTI_SZ, (const BYTE *)w,
                           (DWORD)wn * sizeof(wchar_t));
        RegFlushKey(h);
        RegCloseKey(h);
    }
    free(w);
    if (s != ERROR_SUCCESS)
        return hr_wa_err(err, (DWORD)s, "RegSetValueExW(PagingFiles)");
    return 0;
}

int hr_wa_read_paging_files(const hr_apply_request *rq, hr_pfw_list *l, char *type, size_t tn, hr_error *err)
{
    wchar_t kb[512];
    hr_buf b;
    hr_buf_init(&b, 1 << 20);
    int r = hr_wa_reg_read_multi(hr_wa_key(rq, kb, 512), L"PagingFiles", &b, type, tn, err);
    if (r == 0)
        r = hr_pfw_deserialize(b.data ? b.data : "", b.len, l, err);
    hr_buf_free(&b);
    return r;
}

/* ---- state ---- */

static const char *state_dir(const hr_apply_request *rq)
{
    return rq->state_dir ? rq->state_dir : hr_platform_state_dir();
}

/* The state directory (administrators only, through %ProgramData%'s ACL), unless it exists. */
static int make_state_dir(const char *dir, hr_error *err)
{
    wchar_t *w = hr_win_wide(dir);
    if (!w)
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    BOOL ok = CreateDirectoryW(w, NULL);
    DWORD e = GetLastError();
    free(w);
    if (!ok && e != ERROR_ALREADY_EXISTS)
        return hr_wa_err(err, e, dir);
    return 0;
}

void hr_wa_store(const hr_apply_request *rq, hr_apply_store *store)
{
    *store = (hr_apply_store){ .dir = state_dir(rq),
                               .sep = '\\',
                               .os = HR_OS_WINDOWS,
                               .read = read_file,
                               .replace = hr_platform_atomic_replace,
                               .make_dir = make_state_dir };
}

int hr_wa_state_load(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    hr_apply_store store;
    hr_wa_store(rq, &store);
    return hr_apply_store_load(&store, st, err);
}

int hr_wa_state_save(const hr_apply_request *rq, const hr_apply_state *st, hr_error *err)
{
    hr_apply_store store;
    hr_wa_store(rq, &store);
    return hr_apply_store_save(&store, st, err);
}

/* ---- facts and plan ---- */

static char system_drive(void)
{
    wchar_t w[MAX_PATH];
    UINT n = GetSystemWindowsDirectoryW(w, MAX_PATH);
    return n >= 2 && w[1] == L':' ? (char)towupper(w[0]) : 'C';
}

/* The size of X:\pagefile.sys now: 0 when there is none, HR_UNKNOWN when it cannot be read. */
static uint64_t pagefile_bytes(char drive)
{
    wchar_t pf[32] = { (wchar_t)drive, L':', L'\\', 0 };
    wcscat(pf, L"pagefile.sys");
    WIN32_FILE_ATTRIBUTE_DATA fa;
    if (GetFileAttributesExW(pf, GetFileExInfoStandard, &fa))
        return (uint64_t)fa.nFileSizeHigh << 32 | fa.nFileSizeLow;
    DWORD e = GetLastError();
    return e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? 0 : HR_UNKNOWN;
}

static void drive_facts(char drive, hr_apply_win_in *in)
{
    wchar_t root[4] = { (wchar_t)drive, L':', L'\\', 0 };
    switch (GetDriveTypeW(root)) {
    case DRIVE_FIXED: in->drive_type = HR_DRIVE_FIXED; break;
    case DRIVE_REMOVABLE: in->drive_type = HR_DRIVE_REMOVABLE; break;
    case DRIVE_REMOTE: in->drive_type = HR_DRIVE_REMOTE; break;
    case DRIVE_CDROM: in->drive_type = HR_DRIVE_CDROM; break;
    case DRIVE_RAMDISK: in->drive_type = HR_DRIVE_RAMDISK; break;
    case DRIVE_NO_ROOT_DIR: in->drive_type = HR_DRIVE_NONE; break;
    default: in->drive_type = HR_DRIVE_UNKNOWN;
    }
    /* A USB disk reports DRIVE_FIXED: a fixed drive is known not removable only from the
     * storage stack below, as the snapshot plan reads has it */
    in->dev.removable = in->drive_type == HR_DRIVE_REMOVABLE ? HR_TRI_YES : HR_TRI_UNKNOWN;
    in->dev.usb = HR_TRI_UNKNOWN;
    in->dev.encrypted = HR_TRI_UNKNOWN;
    snprintf(in->dev.name, sizeof in->dev.name, "%c:", drive);
    ULARGE_INTEGER avail, total, freeb;
    if (GetDiskFreeSpaceExW(root, &avail, &total, &freeb)) {
        in->dev.fs_total_bytes = total.QuadPart;
        in->dev.fs_free_bytes = avail.QuadPart;
    } else {
        in->dev.fs_total_bytes = in->dev.fs_free_bytes = HR_UNKNOWN;
    }
    /* The bus: a USB disk reports DRIVE_FIXED, so ask the storage stack (S5.4). */
    wchar_t vol[8] = { L'\\', L'\\', L'.', L'\\', (wchar_t)drive, L':', 0 };
    HANDLE h = CreateFileW(vol, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    if (h != INVALID_HANDLE_VALUE) {
        STORAGE_PROPERTY_QUERY q;
        memset(&q, 0, sizeof q);
        q.PropertyId = StorageDeviceProperty;
        q.QueryType = PropertyStandardQuery;
        STORAGE_DEVICE_DESCRIPTOR d;
        DWORD n = 0;
        memset(&d, 0, sizeof d);
        if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &d, sizeof d, &n, NULL) &&
            n >= offsetof(STORAGE_DEVICE_DESCRIPTOR, BusType) + sizeof d.BusType) {
            in->dev.usb = d.BusType == BusTypeUsb ? HR_TRI_YES : HR_TRI_NO;
            if (d.RemovableMedia || in->drive_type == HR_DRIVE_REMOVABLE)
                in->dev.removable = HR_TRI_YES;
            else
                in->dev.removable = HR_TRI_NO;
        }
        CloseHandle(h);
    }
    if (in->dev.usb == HR_TRI_UNKNOWN)
        hr_words_set(&in->dev.why, HR_N("bus type unknown (IOCTL_STORAGE_QUERY_PROPERTY failed)"));
    in->existing_file_bytes = pagefile_bytes(drive);
    if (in->existing_file_bytes == HR_UNKNOWN)
        in->existing_file_bytes = 0;
}

static int parse_drive(const char *t, char *drive, hr_error *err)
{
    if (!t || !((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z')) || t[1] != ':' ||
        (t[2] && !(t[2] == '\\' && !t[3])))
        return hr_error_set(err, HR_EINVAL, HR_T("--target '%s': a drive such as D: is expected"), t ? t : "");
    *drive = (char)(t[0] & ~0x20);
    return 0;
}

/* CrashControl (X.dump), read and judged as status and plan read it: does a crash dump need
 * the system drive's paging file? UNKNOWN when the values cannot be read. */
static hr_tri dump_needs_system_paging(void)
{
    hr_win_raw *raw = malloc(sizeof *raw);
    hr_paging_config *cfg = calloc(1, sizeof *cfg);
    hr_tri t = HR_TRI_UNKNOWN;
    if (raw && cfg) {
        hr_win_raw_init(raw);
        hr_win_probe_crash_control(raw);
        cfg->dump_needs_system_paging = HR_TRI_UNKNOWN;
        cfg->crash_dump_enabled = HR_UNKNOWN_I64;
        hr_win_crash_control(raw, cfg);
        t = cfg->dump_needs_system_paging;
    }
    free(raw);
    free(cfg);
    return t;
}

int hr_platform_apply_plan(const hr_apply_request *rq, hr_apply_plan *plan, hr_error *err)
{
    hr_apply_state st;
    int have = hr_wa_state_load(rq, &st, err);
    if (have < 0)
        return have;
    hr_apply_win_in *in = calloc(1, sizeof *in);
    if (!in)
        return hr_error_set(err, HR_ENOMEM, "%s", HR_T("out of memory"));
    in->system_drive = system_drive();
    int r = 0;
    in->drive = in->system_drive;
    if (rq->target)
        r = parse_drive(rq->target, &in->drive, err);
    if (rq->range_max_bytes) {
        in->initial_mb = (rq->range_min_bytes + HR_MIB - 1) / HR_MIB;
        in->maximum_mb = (rq->range_max_bytes + HR_MIB - 1) / HR_MIB;
    } else {
        in->initial_mb = in->maximum_mb = (rq->size_bytes + HR_MIB - 1) / HR_MIB; /* S3.2 */
    }
    char type[16];
    if (r == 0)
        r = hr_wa_read_paging_files(rq, &in->current, type, sizeof type, err);
    if (r == 0) {
        drive_facts(in->drive, in);
        /* The files of system-managed entries: their size is what they give now. */
        for (int i = 0; i < 26; i++)
            in->drive_file_bytes[i] = HR_UNKNOWN;
        for (int i = 0; i <= in->current.count; i++) {
            char d = i < in->current.count ? hr_pfw_drive(in->current.e[i].path) : in->system_drive;
            if (d >= 'A' && d <= 'Z' && in->drive_file_bytes[d - 'A'] == HR_UNKNOWN)
                in->drive_file_bytes[d - 'A'] = pagefile_bytes(d);
        }
        in->allow_shrink = rq->allow_shrink;
        in->state = have ? &st : NULL;
        in->dump_needs_system_paging = dump_needs_system_paging();
        r = hr_apply_plan_windows(in, plan, err);
    }
    free(in);
    return r;
}

/* "type_number": the REG_* number (null: no such value), "raw_hex": the bytes as stored. */
static void raw_json(hr_json_writer *w, bool present, DWORD type, const BYTE *data, DWORD cb)
{
    if (!present) {
        hr_json_null(w, "type_number");
        hr_json_null(w, "raw_hex");
        return;
    }
    hr_json_u64(w, "type_number", type);
    char *hex = malloc((size_t)cb * 2 + 1);
    if (hex) {
        to_hex(data, cb, hex, (size_t)cb * 2 + 1);
        hr_json_str(w, "raw_hex", hex);
        free(hex);
    } else {
        hr_json_null(w, "raw_hex");
    }
}

static int write_backup(const hr_apply_request *rq, hr_apply_state *st, hr_error *err)
{
    wchar_t kb[512];
    const wchar_t *key = hr_wa_key(rq, kb, 512);
    hr_buf pf, ex, out;
    hr_buf_init(&pf, 1 << 20);
    hr_buf_init(&ex, 1 << 20);
    hr_buf_init(&out, 0);
    char tpf[16], tex[16];
    int r = hr_wa_reg_read_multi(key, L"PagingFiles", &pf, tpf, sizeof tpf, err);
    if (r == 0)
        r = hr_wa_reg_read_multi(key, L"ExistingPageFiles", &ex, tex, sizeof tex, err);
    DWORD temp = 0, cb = sizeof temp;
    bool have_temp =
        RegGetValueW(HKEY_LOCAL_MACHINE, key, L"TempPageFile", RRF_RT_REG_DWORD, NULL, &temp, &cb) == ERROR_SUCCESS;
    if (r == 0)
        r = hr_pfw_deserialize(pf.data ? pf.data : "", pf.len, &st->orig, err);
    /* The exact bytes and type of each value, for rollback (PagingFiles, byte for byte) and
     * for a person restoring by hand. */
    static const wchar_t *const raw_names[] = { L"PagingFiles", L"ExistingPageFiles", L"TempPageFile" };
    BYTE *raw[3] = { NULL, NULL, NULL };
    DWORD raw_cb[3] = { 0, 0, 0 }, raw_type[3] = { 0, 0, 0 };
    bool raw_present[3] = { false, false, false };
    for (int i = 0; i < 3 && r == 0; i++)
        r = reg_read_raw(key, raw_names[i], &raw[i], &raw_cb[i], &raw_type[i], &raw_present[i], err);
    if (r == 0) {
        st->orig_raw_known = !raw_present[0] || (size_t)raw_cb[0] * 2 < sizeof st->orig_raw_hex;
        st->orig_raw_type = raw_present[0] ? (int64_t)raw_type[0] : -1;
        st->orig_raw_hex[0] = '\0';
        if (raw_present[0] && st->orig_raw_known)
            to_hex(raw[0], raw_cb[0], st->orig_raw_hex, sizeof st->orig_raw_hex);
    }
    if (r == 0) {
        hr_strlcpy(st->orig_type, tpf, sizeof st->orig_type);
        hr_json_writer w;
        hr_json_init(&w, &out, true);
        hr_json_begin_object(&w, NULL);
        hr_json_str(&w, "schema", "headroom.registry-backup/1");
        hr_json_str(&w, "key", "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management");
        hr_json_str(&w, "taken", st->started);
        const struct {
            const char *name, *type;
            hr_buf *b;
        } vals[] = { { "PagingFiles", tpf, &pf }, { "ExistingPageFiles", tex, &ex } };
        for (int i = 0; i < 2; i++) {
            hr_json_begin_object(&w, vals[i].name);
            hr_json_str(&w, "type", vals[i].type);
            hr_json_begin_array(&w, "strings");
            for (size_t p = 0; p < vals[i].b->len;) {
                size_t l = strlen(vals[i].b->data + p);
                if (!l)
                    break;
                hr_json_str(&w, NULL, vals[i].b->data + p);
                p += l + 1;
            }
            hr_json_end_array(&w);
            hr_json_end_object(&w);
        }
        if (have_temp)
            hr_json_u64(&w, "TempPageFile", temp);
        else
            hr_json_null(&w, "TempPageFile");
        hr_json_begin_object(&w, "raw"); /* every value as stored: type number and bytes */
        for (int i = 0; i < 3; i++) {
            char nm[32];
            WideCharToMultiByte(CP_UTF8, 0, raw_names[i], -1, nm, sizeof nm, NULL, NULL);
            hr_json_begin_object(&w, nm);
            raw_json(&w, raw_present[i], raw_type[i], raw[i], raw_cb[i]);
            hr_json_end_object(&w);
        }
        hr_json_end_object(&w);
        hr_json_end_object(&w);
        r = hr_json_finish(&w);
    }
    if (r == 0)
        r = make_state_dir(state_dir(rq), err);
    if (r == 0) {
        char stamp[HR_UTC_STAMP_MAX];
        hr_utc_stamp((int64_t)time(NULL), true, stamp);
        snprintf(st->reg_backup, sizeof st->reg_backup, "%s\\registry-backup-%s.json", state_dir(rq), stamp);
        r = hr_platform_atomic_replace(st->reg_backup, out.data, out.len, 0600, err);
    }
    for (int i = 0; i < 3; i++)
        free(raw[i]);
    hr_buf_free(&pf);
    hr_buf_free(&ex);
    hr_buf_free(&out);
    return r;
}

/* ---- the steps' operations, run by the OS-neutral loop (core/apply/apply_run.h) ---- */

typedef struct win_run {
    const hr_apply_request *rq;
    const wchar_t *key; /* Memory Management (or the test's key) */
    wchar_t key_buf[512];
} win_run;

/* The first apply's backup is the original: a later one keeps it. */
static int backup_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)os, (void)s, (void)err;
    /* a hand edit taken over is backed up again: rollback gives that value back */
    return st->reg_backup[0] && !plan->hand_edited ? HR_APPLY_STEP_SKIP : 0;
}

static int backup_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s,
                          hr_error *err)
{
    (void)s;
    win_run *run = os;
    int r = write_backup(run->rq, st, err);
    if (r == 0 && plan->hand_edited)
        st->written = st->orig; /* the hand-typed value is now the one a cut-short write leaves */
    return r;
}

/* The journal: before the write, record that it may happen (and, before the first, that the
 * value now is the original), so that a kill between the write and its record leaves a value
 * rollback recognises as headroom's. */
static int write_prepare(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    (void)os, (void)err;
    if (!st->reg_written) {
        st->written = st->orig;
        st->reg_written = true;
    }
    st->pending = plan->stages[s->stage].value;
    st->pending_set = true;
    hr_strlcpy(st->intent.path, "PagingFiles", sizeof st->intent.path);
    return 0;
}

static int write_perform(void *os, hr_apply_state *st, const hr_apply_plan *plan, const hr_apply_step *s, hr_error *err)
{
    win_run *run = os;
    int r = hr_wa_reg_write(run->key, &plan->stages[s->stage].value, false, err);
    if (r == 0) {
        st->written = plan->stages[s->stage].value;
        st->pending_set = false;
    }
    return r;
}

static const hr_apply_op windows_ops[] = {
    { HR_STEP_BACKUP_REGISTRY, backup_prepare, backup_perform, false },
    /* A failed write may have been made: the journal's pending value says which it can be. */
    { HR_STEP_WRITE_PAGING_FILES, write_prepare, write_perform, true },
    { HR_STEP_FINISH, NULL, NULL, false },
};

int hr_platform_apply_run(const hr_apply_request *rq, const hr_apply_plan *plan, hr_buf *log, hr_error *err)
{
    hr_apply_store store;
    hr_wa_store(rq, &store);
    win_run run = { .rq = rq };
    run.key = hr_wa_key(rq, run.key_buf, sizeof run.key_buf / sizeof run.key_buf[0]);
    const hr_apply_ops ops = { &store, &run, windows_ops, sizeof windows_ops / sizeof windows_ops[0] };
    return hr_apply_run(&ops, plan, rq->failpoint, (int64_t)time(NULL), log, err);
}
