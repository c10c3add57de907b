#include "console.h"

#include "core/base/i18n.h"
#include "core/base/hot.h"

#ifdef _WIN32

#include <windows.h>
#include <shellapi.h>

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool vt_ok;
static bool own_window;
static bool simulated;   /* HEADROOM_EXPLORER=1: the double-click path, no window */

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

HR_START void hr_console_start(int *argc, char ***argv)
{
    utf8_argv(argc, argv);
    /* Output is UTF-8 everywhere; for a console window we write UTF-16 ourselves (below),
     * and the code page covers what stdio still writes (error lines). */
    SetConsoleOutputCP(CP_UTF8);
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode;
    if (out != INVALID_HANDLE_VALUE && GetConsoleMode(out, &mode))
        vt_ok = SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
    /* Started from Explorer: the console was created for us alone and closes when we exit,
     * taking the report with it. Only then (and only with a real console for input) pause. */
    DWORD list[2];
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    const char *no_pause = getenv("HEADROOM_NO_PAUSE");
    own_window = GetConsoleProcessList(list, 2) == 1 && in != INVALID_HANDLE_VALUE &&
                 GetConsoleMode(in, &mode) && !(no_pause && no_pause[0] && no_pause[0] != '0');
    const char *sim = getenv("HEADROOM_EXPLORER");
    simulated = sim && strcmp(sim, "1") == 0;
}

bool hr_console_own_window(void)
{
    return own_window || simulated;
}

bool hr_console_report_path(char *out, size_t n)
{
    wchar_t dir[MAX_PATH + 1];
    DWORD len = GetTempPathW(MAX_PATH + 1, dir);
    if (len == 0 || len > MAX_PATH)
        return false;
    int w = WideCharToMultiByte(CP_UTF8, 0, dir, -1, out, (int)n, NULL, NULL);
    if (w <= 0 || (size_t)w + 24 > n)
        return false;
    strcat(out, "headroom-report.html");
    return true;
}

/* One key from the console: true for Enter, y or Y (and the Chinese IME's "是" is not a
 * key: Enter is the answer most people give). */
static bool ask_yes(void)
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
            continue;   /* Shift, Ctrl...: wait for a character */
        return c == L'\r' || c == L'y' || c == L'Y';
    }
}

bool hr_console_offer_open(const char *path)
{
    fflush(stdout);
    fflush(stderr);
    char line[1024];
    snprintf(line, sizeof line, HR_T("\nThe report is in %s\nOpen it in the browser? [Y/n] "), path);
    if (hr_console_write_stdout(line, strlen(line)) != 1)
        fputs(line, stdout);
    if (simulated && !own_window) {
        fputs("n\n", stdout);
        return false;
    }
    bool yes = ask_yes();
    fputs(yes ? "y\n" : "n\n", stdout);
    fflush(stdout);
    if (!yes)
        return false;
    wchar_t wpath[4096];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, 4096))
        return false;
    return (INT_PTR)ShellExecuteW(NULL, L"open", wpath, NULL, NULL, SW_SHOWNORMAL) > 32;
}

HR_START void hr_console_end(int rc)
{
    (void)rc;
    if (!own_window)
        return;
    fflush(stdout);
    fflush(stderr);
    const char *msg = HR_T("\nPress any key to close this window...");
    hr_console_write_stdout(msg, strlen(msg));
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

HR_HOT int hr_console_write_stdout(const char *s, size_t n)
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

HR_START bool hr_console_color(void)
{
    return vt_ok && _isatty(_fileno(stdout));
}

FILE *hr_console_fopen(const char *path, const char *mode)
{
    /* fopen() takes the ANSI code page: convert the UTF-8 name so Chinese paths open. */
    wchar_t wpath[4096], wmode[16];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, 4096) ||
        !MultiByteToWideChar(CP_UTF8, 0, mode, -1, wmode, 16))
        return fopen(path, mode);
    return _wfopen(wpath, wmode);
}

void hr_console_binary_stdout(void)
{
    fflush(stdout);
    _setmode(_fileno(stdout), _O_BINARY);
}

bool hr_console_journal(FILE *f)
{
    (void)f;
    return false;
}

#else

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

HR_START void hr_console_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

HR_START void hr_console_end(int rc)
{
    (void)rc;
}

HR_HOT int hr_console_write_stdout(const char *s, size_t n)
{
    (void)s;
    (void)n;
    return 0;
}

HR_START bool hr_console_color(void)
{
    return isatty(fileno(stdout)) != 0;
}

bool hr_console_own_window(void)
{
    return false;
}

bool hr_console_report_path(char *out, size_t n)
{
    (void)out;
    (void)n;
    return false;
}

bool hr_console_offer_open(const char *path)
{
    (void)path;
    return false;
}

FILE *hr_console_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

void hr_console_binary_stdout(void)
{
}

HR_START bool hr_console_journal(FILE *f)
{
    const char *v = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    char more;
    if (!v || sscanf(v, "%llu:%llu%c", &dev, &ino, &more) != 2)
        return false;
    struct stat st;
    return fstat(fileno(f), &st) == 0 && (unsigned long long)st.st_dev == dev &&
           (unsigned long long)st.st_ino == ino;
}

#endif
