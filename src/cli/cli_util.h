/* headroom — small helpers shared by the CLI's command files. */
#ifndef HR_CLI_UTIL_H
#define HR_CLI_UTIL_H

#include "core/buf.h"
#include "core/error.h"

#include <stdbool.h>
#include <stdio.h>

/* "headroom: <message>" on stderr, one line. */
HR_PRINTF(1, 2)
void hr_cli_error(const char *fmt, ...);

/* Write the buffer to stdout in one go (UTF-8; on Windows the console is set to UTF-8). */
int hr_cli_write(const hr_buf *b);

/* Is stdout a terminal (colour, width)? */
bool hr_cli_stdout_is_tty(void);
/* Is stdin a terminal (nothing piped in)? */
bool hr_cli_stdin_is_tty(void);

/* Match "--name" or "--name=value" / "--name value"; on match sets *value (NULL for flags)
 * and advances *i past a separate value. Returns 1 on match, 0 if not this option, -1 if
 * the value is missing. */
int hr_cli_opt(int argc, char **argv, int *i, const char *name, const char **value);

#endif
