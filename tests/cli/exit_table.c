/* The exit table and its page agree: docs/exit-status.md (argv[1]) lists every row of
 * HR_EXIT_TABLE exactly (status, name, meaning) and, for every HR_E* code, the status
 * hr_exit_from_error() gives it — no row missing, none extra, none different. */
#include "test.h"

#include "cli/exit_status.h"
#include "core/base/error.h"

#include <stdlib.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* How many lines of doc start with prefix. */
static int count_lines(const char *doc, const char *prefix)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *l = doc; l && *l;) {
        if (strncmp(l, prefix, pl) == 0)
            n++;
        const char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : NULL;
    }
    return n;
}

static bool has_line(const char *doc, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = strstr(doc, line); p; p = strstr(p + 1, line))
        if ((p == doc || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: exit_table docs/exit-status.md\n");
        return 2;
    }
    char *doc = slurp(argv[1]);
    CHECK(doc != NULL);
    if (!doc)
        return TEST_DONE();
    char line[512];
    int rows = 0;
#define HR_X_EXIT(name, value, meaning)                                                   \
    snprintf(line, sizeof line, "| %d | `%s` | %s |", value, #name, meaning);             \
    rows++;                                                                               \
    if (!has_line(doc, line))                                                             \
        fprintf(stderr, "docs/exit-status.md lacks the row: %s\n", line);                 \
    CHECK(has_line(doc, line));                                                           \
    CHECK_STR(hr_exit_meaning(value), meaning);
    HR_EXIT_TABLE(HR_X_EXIT)
#undef HR_X_EXIT
    CHECK_EQ_I64(count_lines(doc, "| ") - count_lines(doc, "| `HR_") - count_lines(doc, "| status") -
                     count_lines(doc, "| error code"),
                 rows);   /* no status row that the table does not have */

    int codes = 0;
#define HR_X_CODE(name, value, msg)                                                       \
    snprintf(line, sizeof line, "| `%s` | %d |", #name, hr_exit_from_error(value));       \
    codes++;                                                                              \
    if (!has_line(doc, line))                                                             \
        fprintf(stderr, "docs/exit-status.md lacks the row: %s\n", line);                 \
    CHECK(has_line(doc, line));
    HR_ERROR_TABLE(HR_X_CODE)
#undef HR_X_CODE
    CHECK_EQ_I64(count_lines(doc, "| `HR_"), codes);
    free(doc);
    return TEST_DONE();
}
