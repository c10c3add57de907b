/* headroom — the console on Linux (platform.h): a terminal is a terminal, and the systemd
 * journal is told by the stream systemd names. The rest of the console's jobs are Windows'. */
#include "platform/platform.h"

#include "core/base/hot.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

HR_START void hr_platform_console_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

HR_START bool hr_platform_console_alone(void)
{
    return false;
}

HR_HOT int hr_platform_console_write(FILE *f, const char *s, size_t n, bool text)
{
    (void)f;
    (void)s;
    (void)n;
    (void)text;
    return 0;
}

bool hr_platform_console_ask_yes(void)
{
    return false;
}

HR_START void hr_platform_console_wait_key(void)
{
}

HR_START bool hr_platform_stdout_color(void)
{
    return isatty(fileno(stdout)) != 0;
}

bool hr_platform_is_tty(FILE *f)
{
    return isatty(fileno(f)) != 0;
}

HR_START bool hr_platform_journal_stream(FILE *f)
{
    const char *v = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    char more;
    if (!v || sscanf(v, "%llu:%llu%c", &dev, &ino, &more) != 2)
        return false;
    struct stat st;
    return fstat(fileno(f), &st) == 0 && (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void hr_platform_binary_mode(FILE *f)
{
    (void)f;
}

FILE *hr_platform_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

int64_t hr_platform_file_mtime(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 ? (int64_t)st.st_mtime : 0;
}

bool hr_platform_temp_dir(char *out, size_t n)
{
    (void)out;
    (void)n;
    return false;
}

bool hr_platform_open_default(const char *path)
{
    (void)path;
    return false;
}
