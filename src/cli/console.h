/* headroom — the console around the commands. On Windows: arguments as UTF-8 from the wide
 * command line, UTF-8 output that shows Chinese paths and user names correctly in cmd.exe,
 * PowerShell and Windows Terminal, text sent to a file or a pipe in the console's code page
 * (HEADROOM_ENCODING=utf-8 keeps it UTF-8), ANSI colour only where the console supports it, and a
 * "press any key" pause when Explorer started us in a window of our own (double-click).
 * Elsewhere these do nothing. */
#ifndef HR_CLI_CONSOLE_H
#define HR_CLI_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Call first in main: may replace *argv with UTF-8 copies (kept until exit). */
void hr_console_start(int *argc, char ***argv);
/* Once the language is chosen, Windows: one line on stderr when HEADROOM_ENCODING holds
 * neither utf-8 nor console (text then follows the console). Elsewhere nothing. */
void hr_console_check_env(void);
/* Call last in main, with the exit status about to be returned. */
void hr_console_end(int rc);
/* The one way the CLI writes to stdout or stderr (f): UTF-8 s as it reads right where it goes.
 * A console window gets it as UTF-16; on Windows text for people going to a file or a pipe is
 * in the code page `type` and PowerShell read it with (hr_platform_console_write); the rest
 * (Linux, JSON, Prometheus text, HTML, the man page, shell completions: text false) is the
 * UTF-8 bytes through stdio. HEADROOM_ENCODING=utf-8 keeps text UTF-8 too. Flushed; 0, or -1
 * when the write failed. */
int hr_console_put(FILE *f, const char *s, size_t n, bool text);
/* fopen() for a UTF-8 path given on the command line (Windows: through _wfopen). */
FILE *hr_console_fopen(const char *path, const char *mode);
/* Windows: stdout writes bytes as they are (no "\n" to "\r\n"), for formats that want
 * bare line feeds (Prometheus text). Elsewhere nothing to do. */
void hr_console_binary_stdout(void);
/* Windows: was this run started from Explorer (a double-click: a console window of its own,
 * nothing typed)? HEADROOM_EXPLORER=1 makes a test run take that path without a window
 * (no pause, no question). Elsewhere false. */
bool hr_console_own_window(void);
/* Where a double-clicked run writes its HTML report: the user's temporary folder
 * (%TEMP%\headroom-report.html), UTF-8. false when it cannot be told. */
bool hr_console_report_path(char *out, size_t n);
/* Ask "open the report?" in the window and open path in the default browser on yes (Enter
 * counts as yes). Returns true when it was opened. */
bool hr_console_offer_open(const char *path);
/* Is stdout a terminal that understands ANSI colour codes? */
bool hr_console_color(void);
/* Does f (stdout or stderr) go to the systemd journal? systemd puts the device and inode of
 * that stream in JOURNAL_STREAM ("dev:inode"); the stream is compared, not the variable's
 * presence alone, since a child started from the service inherits the variable with other
 * streams. Then each line may start with a syslog priority ("<4>") that journald takes as
 * the line's priority. false on Windows. */
bool hr_console_journal(FILE *f);

#endif
