/* headroom — the console on Windows (platform.h): UTF-8 arguments from the wide command line,
 * UTF-8 shown right in cmd.exe, PowerShell and Windows Terminal, ANSI colour where the console
 * has it, and the keys a double-clicked run waits for. */
#include "platform/platform.h"

#include "core/base/hot.h"

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

HR_START void hr_platform_console_start(int *argc, char ***argv)
{
    utf8_argv(argc, argv);
    /* Output is UTF-8 everywhere; for a console window we write UTF-16 ourselves (below),
     * and the code page covers what stdio still writes (error lines). */
    SetConsoleOutputCP(CP_UTF8);
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

HR_HOT int hr_platform_console_write_stdout(const char *s, size_t n)
{
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode;
    if (out == INVALID_HANDLE_VALUE || !GetConsoleMode(out, &mode))
        return 0; /* a pipe or a file: UTF-8 bytes through stdio */
    fflush(stdout);
    /* WriteConsoleW takes UTF-16 and is right in every console host whatever the code
     * page; write in chunks so a huge report needs no huge buffer. */
    while (n > 0) {
        size_t chunk = n > 8192 ? 8192 : n;
        /* Never split a UTF-8 sequence between chunks. */
        while (chunk < n && chunk > 0 && ((unsigned char)s[chunk] & 0xc0) == 0x80)
            chunk--;
        wchar_t w[8192];
        int len = MultiByteToWideChar(CP_UTF8, 0, s, (int)chunk, w, 8192);
        DWORD done;
        if (len <= 0 || !WriteConsoleW(out, w, (DWORD)len, &done, NULL))
            return -1;
        s += chunk;
        n -= chunk;
    }
    return 1;
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
