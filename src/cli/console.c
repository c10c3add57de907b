/* headroom — the console around the commands (console.h): what the CLI decides; the console
 * itself is the platform's (platform/platform.h). */
#include "console.h"
#include "cli_util.h"

#include "core/base/i18n.h"
#include "core/base/hot.h"
#include "core/base/text.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

static bool own_window;
static bool simulated; /* HEADROOM_EXPLORER=1: the double-click path, no window */
static bool text_utf8; /* HEADROOM_ENCODING=utf-8: text in a file stays UTF-8 */

HR_START void hr_console_start(int *argc, char ***argv)
{
    hr_platform_console_start(argc, argv);
    /* Started from Explorer: the console was created for us alone and closes when we exit,
     * taking the report with it. Only then (and only with a real console for input) pause. */
    const char *no_pause = getenv("HEADROOM_NO_PAUSE");
    own_window = hr_platform_console_alone() && !(no_pause && no_pause[0] && no_pause[0] != '0');
    const char *sim = getenv("HEADROOM_EXPLORER");
    simulated = hr_platform_os() == HR_OS_WINDOWS && sim && strcmp(sim, "1") == 0;
    const char *enc = getenv("HEADROOM_ENCODING");
    text_utf8 = enc && (hr_str_ieq(enc, "utf-8") || hr_str_ieq(enc, "utf8"));
}

HR_START void hr_console_check_env(void)
{
    const char *enc = getenv("HEADROOM_ENCODING");
    if (hr_platform_os() == HR_OS_WINDOWS && enc && enc[0] && !text_utf8 && !hr_str_ieq(enc, "console"))
        hr_cli_error("%s", HR_T("HEADROOM_ENCODING: expected utf-8 or console; text output follows the console"));
}

bool hr_console_own_window(void)
{
    return own_window || simulated;
}

bool hr_console_report_path(char *out, size_t n)
{
    if (!hr_platform_temp_dir(out, n) || strlen(out) + 1 + 24 > n)
        return false;
    strcat(out, "headroom-report.html");
    return true;
}

bool hr_console_offer_open(const char *path)
{
    if (hr_platform_os() != HR_OS_WINDOWS)
        return false;
    fflush(stdout);
    fflush(stderr);
    char line[1024];
    snprintf(line, sizeof line, HR_T("\nThe report is in %s\nOpen it in the browser? [Y/n] "), path);
    hr_console_put(stdout, line, strlen(line), true);
    if (simulated && !own_window) {
        hr_console_put(stdout, "n\n", 2, true);
        return false;
    }
    bool yes = hr_platform_console_ask_yes();
    hr_console_put(stdout, yes ? "y\n" : "n\n", 2, true);
    return yes && hr_platform_open_default(path);
}

HR_START void hr_console_end(int rc)
{
    (void)rc;
    if (!own_window)
        return;
    fflush(stdout);
    fflush(stderr);
    const char *msg = HR_T("\nPress any key to close this window...");
    hr_console_put(stdout, msg, strlen(msg), true);
    hr_platform_console_wait_key();
}

HR_HOT int hr_console_put(FILE *f, const char *s, size_t n, bool text)
{
    int c = hr_platform_console_write(f, s, n, text && !text_utf8);
    if (c != 0)
        return c > 0 ? 0 : -1;
    if (n && fwrite(s, 1, n, f) != n)
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

HR_START bool hr_console_color(void)
{
    return hr_platform_stdout_color();
}

FILE *hr_console_fopen(const char *path, const char *mode)
{
    return hr_platform_fopen(path, mode);
}

void hr_console_binary_stdout(void)
{
    hr_platform_binary_mode(stdout);
}

HR_START bool hr_console_journal(FILE *f)
{
    return hr_platform_journal_stream(f);
}
