/* headroom — the console on Windows (platform.h): UTF-8 arguments from the wide command line,
 * UTF-8 shown right in cmd.exe, PowerShell and Windows Terminal, text in a file or a pipe in the
 * code page `type` and PowerShell read it with, ANSI colour where the console has it, and the
 * keys a double-clicked run waits for. */
#include "platform/platform.h"

#include "core/base/hot.h"
#include "core/base/utf8.h"

#include <windows.h>
#include <shellapi.h>

#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool vt_ok;

/* UTF-8 argv from the UTF-16 command line: the narrow argv Windows hands to main() is in
 * the ANSI code page, which cannot hold a Chinese path on most systems. */
static void utf8_argv(int *argc, char ***argv)
{
    int n = 0;
    LPWSTR *w = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!w || n <= 0)
        return;
    char **out = calloc((size_t)n + 1, sizeof *out);
    if (!out) {
        LocalFree(w);
        return;
    }
    for (int i = 0; i < n; i++) {
        int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, NULL, 0, NULL, NULL);
        out[i] = len > 0 ? malloc((size_t)len) : NULL;
        if (!out[i] || WideCharToMultiByte(CP_UTF8, 0, w[i], -1, out[i], len, NULL, NULL) <= 0) {
            LocalFree(w);
            return; /* keep the narrow argv; the leak of a partial copy is harmless at start */
        }
    }
    LocalFree(w);
    *argc = n;
    *argv = out;
}

/* The code page text goes to a file or a pipe in; 0 = UTF-8 as it is. cmd's `type` writes a
 * file's bytes to the console, which shows them in its output code page (GetConsoleOutputCP,
 * learn.microsoft.com/windows/console/getconsoleoutputcp); PowerShell decodes a native
 * program's output with [Console]::OutputEncoding, the same code page (about_Character_Encoding,
 * learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_character_encoding).
 * With no console (a service, a pipe from another program) the system's OEM code page, the one
 * those consoles start with. */
static UINT text_cp;
static UINT user_cp; /* the console's output code page we changed, put back at exit; 0: none */

/* Our manifest's activeCodePage UTF-8 makes GetACP and GetOEMCP answer 65001 for this process
 * (learn.microsoft.com/windows/apps/design/globalizing/use-utf8-code-page), as does a query for
 * LOCALE_NAME_SYSTEM_DEFAULT under Wine: ask for the system locale by its name. Its OEM code
 * page is the one its consoles start with. */
static UINT system_oem_cp(void)
{
    DWORD cp = 0;
    wchar_t name[LOCALE_NAME_MAX_LENGTH];
    if (GetSystemDefaultLocaleName(name, LOCALE_NAME_MAX_LENGTH) > 0 &&
        GetLocaleInfoEx(name, LOCALE_IDEFAULTCODEPAGE | LOCALE_RETURN_NUMBER, (LPWSTR)&cp,
                        sizeof cp / sizeof(wchar_t)) > 0 &&
        cp > 1 && cp < 65536)
        return (UINT)cp;
    return GetOEMCP();
}

static void put_back_cp(void)
{
    if (user_cp)
        SetConsoleOutputCP(user_cp);
}

/* cmd keeps a console's code page after a program exits: Ctrl+C or a closed window must not
 * leave the user's window in UTF-8 either. FALSE: the default handler still ends us. */
static BOOL WINAPI on_ctrl(DWORD type)
{
    (void)type;
    put_back_cp();
    return FALSE;
}

static bool is_console(DWORD std)
{
    HANDLE h = GetStdHandle(std);
    DWORD mode;
    return h != INVALID_HANDLE_VALUE && h != NULL && GetConsoleMode(h, &mode);
}

HR_START void hr_platform_console_start(int *argc, char ***argv)
{
    utf8_argv(argc, argv);
    /* Read before anything changes it: the code page the user's console shows text in. */
    UINT cp = GetConsoleOutputCP();
    text_cp = cp ? cp : system_oem_cp();
    if (text_cp == CP_UTF8)
        text_cp = 0;
    /* Our own text reaches a console window as UTF-16 (hr_platform_console_write); bytes
     * written there as they are (the output run passes on from its command) are read as UTF-8
     * while we run. */
    if (cp && cp != CP_UTF8 && (is_console(STD_OUTPUT_HANDLE) || is_console(STD_ERROR_HANDLE)) &&
        SetConsoleOutputCP(CP_UTF8)) {
        user_cp = cp;
        atexit(put_back_cp);
        SetConsoleCtrlHandler(on_ctrl, TRUE);
    }
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode;
    if (out != INVALID_HANDLE_VALUE && GetConsoleMode(out, &mode))
        vt_ok = SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

HR_START bool hr_platform_console_alone(void)
{
    /* Started from Explorer, the console was created for us alone and closes when we exit */
    DWORD list[2], mode;
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    return GetConsoleProcessList(list, 2) == 1 && in != INVALID_HANDLE_VALUE && GetConsoleMode(in, &mode);
}

bool hr_platform_temp_dir(char *out, size_t n)
{
    wchar_t dir[MAX_PATH + 1];
    DWORD len = GetTempPathW(MAX_PATH + 1, dir);
    if (len == 0 || len > MAX_PATH)
        return false;
    return WideCharToMultiByte(CP_UTF8, 0, dir, -1, out, (int)n, NULL, NULL) > 0;
}

/* (The Chinese IME's "是" is not a key: Enter is the answer most people give.) */
bool hr_platform_console_ask_yes(void)
{
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    FlushConsoleInputBuffer(in);
    for (;;) {
        INPUT_RECORD r;
        DWORD got = 0;
        if (!ReadConsoleInputW(in, &r, 1, &got) || got == 0)
            return false;
        if (r.EventType != KEY_EVENT || !r.Event.KeyEvent.bKeyDown)
            continue;
        WCHAR c = r.Event.KeyEvent.uChar.UnicodeChar;
        if (c == 0)
            continue; /* Shift, Ctrl...: wait for a character */
        return c == L'\r' || c == L'y' || c == L'Y';
    }
}

HR_START void hr_platform_console_wait_key(void)
{
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    FlushConsoleInputBuffer(in);
    for (;;) {
        INPUT_RECORD r;
        DWORD got = 0;
        if (!ReadConsoleInputW(in, &r, 1, &got) || got == 0)
            break;
        if (r.EventType == KEY_EVENT && r.Event.KeyEvent.bKeyDown)
            break;
    }
}

bool hr_platform_open_default(const char *path)
{
    wchar_t wpath[4096];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, 4096))
        return false;
    return (INT_PTR)ShellExecuteW(NULL, L"open", wpath, NULL, NULL, SW_SHOWNORMAL) > 32;
}

/* One UTF-16 character (1 or 2 units) in text_cp; what the code page lacks becomes an ASCII
 * stand-in or '?', never a best-fit guess (CP437's for "→" is the control byte 0x1A). */
static size_t one_char(const wchar_t *w, int units, char *out)
{
    BOOL lost = FALSE;
    int m = WideCharToMultiByte(text_cp, WC_NO_BEST_FIT_CHARS, w, units, out, 8, NULL, &lost);
    if (m > 0 && !lost)
        return (size_t)m;
    uint32_t c = units == 2 ? 0x10000u + (((uint32_t)w[0] - 0xd800u) << 10) + ((uint32_t)w[1] - 0xdc00u) : w[0];
    const char *alt = hr_utf8_ascii_fallback(c);
    if (!alt)
        alt = "?";
    size_t n = strlen(alt);
    memcpy(out, alt, n);
    return n;
}

/* s[0..n) (whole UTF-8 characters) in text_cp, to f; 0 or -1. */
static int write_cp(FILE *f, const char *s, size_t n)
{
    wchar_t w[4096];
    char out[4096 * 4 + 8]; /* 4 bytes a unit at most (GB18030); a stand-in takes 3 */
    int len = MultiByteToWideChar(CP_UTF8, 0, s, (int)n, w, 4096);
    if (len <= 0)
        return -1;
    BOOL lost = FALSE;
    int m = WideCharToMultiByte(text_cp, WC_NO_BEST_FIT_CHARS, w, len, out, (int)sizeof out, NULL, &lost);
    if (m <= 0) /* GB18030, ISO-2022...: no flags taken, and they hold every character */
        m = WideCharToMultiByte(text_cp, 0, w, len, out, (int)sizeof out, NULL, NULL);
    else if (lost) {
        size_t o = 0;
        for (int i = 0; i < len;) {
            int units =
                i + 1 < len && w[i] >= 0xd800 && w[i] < 0xdc00 && w[i + 1] >= 0xdc00 && w[i + 1] < 0xe000 ? 2 : 1;
            o += one_char(w + i, units, out + o);
            i += units;
        }
        m = (int)o;
    }
    if (m <= 0) /* a code page this system cannot convert to: the text as it is */
        return fwrite(s, 1, n, f) == n ? 0 : -1;
    return fwrite(out, 1, (size_t)m, f) == (size_t)m ? 0 : -1;
}

HR_HOT int hr_platform_console_write(FILE *f, const char *s, size_t n, bool text)
{
    HANDLE h = GetStdHandle(f == stderr ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE);
    DWORD mode;
    bool console = h != INVALID_HANDLE_VALUE && h != NULL && GetConsoleMode(h, &mode);
    if (!console && (!text || !text_cp))
        return 0; /* UTF-8 bytes through stdio */
    fflush(f);
    /* Chunks, so a huge report needs no huge buffer; never a UTF-8 sequence split between
     * two. WriteConsoleW takes UTF-16 and is right in every console host whatever the code
     * page. */
    while (n > 0) {
        size_t chunk = n > 4096 ? 4096 : n;
        while (chunk < n && chunk > 0 && ((unsigned char)s[chunk] & 0xc0) == 0x80)
            chunk--;
        if (console) {
            wchar_t w[4096];
            int len = MultiByteToWideChar(CP_UTF8, 0, s, (int)chunk, w, 4096);
            DWORD done;
            if (len <= 0 || !WriteConsoleW(h, w, (DWORD)len, &done, NULL))
                return -1;
        } else if (write_cp(f, s, chunk) != 0) {
            return -1;
        }
        s += chunk;
        n -= chunk;
    }
    return console || fflush(f) == 0 ? 1 : -1;
}

HR_START bool hr_platform_stdout_color(void)
{
    return vt_ok && _isatty(_fileno(stdout));
}

bool hr_platform_is_tty(FILE *f)
{
    return _isatty(_fileno(f)) != 0;
}

FILE *hr_platform_fopen(const char *path, const char *mode)
{
    /* fopen() takes the ANSI code page: convert the UTF-8 name so Chinese paths open. */
    wchar_t wpath[4096], wmode[16];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, 4096) ||
        !MultiByteToWideChar(CP_UTF8, 0, mode, -1, wmode, 16))
        return fopen(path, mode);
    return _wfopen(wpath, wmode);
}

void hr_platform_binary_mode(FILE *f)
{
    if (f != stdin)
        fflush(f);
    _setmode(_fileno(f), _O_BINARY);
}

int64_t hr_platform_file_mtime(FILE *f)
{
    struct stat st;
    return fstat(_fileno(f), &st) == 0 ? (int64_t)st.st_mtime : 0;
}

bool hr_platform_journal_stream(FILE *f)
{
    (void)f;
    return false;
}
