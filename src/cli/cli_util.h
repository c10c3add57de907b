/* headroom — small helpers shared by the CLI's command files. */
#ifndef HR_CLI_UTIL_H
#define HR_CLI_UTIL_H

#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/base/render.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdio.h>

/* "headroom: <message>" on stderr, one line. */
HR_PRINTF(1, 2)
void hr_cli_error(const char *fmt, ...);

/* Write the buffer, a document in format, to stdout in one go: UTF-8, except text on Windows
 * going to a file or a pipe, which is in the console's code page (hr_console_put). */
int hr_cli_write(const hr_buf *b, hr_format format);

/* A page made in b (a help page; text false: the man page, a shell completion), written whole
 * to f (stdout or stderr) through hr_console_put, and freed. 0; or, when b could not be made
 * (its sticky error), the error said, nothing written, and its exit status. A failed write
 * shows at exit, on the stream's error flag, as stdio's did. */
int hr_cli_put_page(FILE *f, hr_buf *b, bool text);

/* A line of text for people on stdout (hr_cli_write's text: the console's code page in a
 * Windows file). A failed write shows at exit, as stdio's did. */
HR_PRINTF(1, 2)
void hr_cli_print(const char *fmt, ...);

/* Find ComfyUI without being told: hr_platform_find_comfyui (Desktop app, the current folder
 * and its parents, the home folder), else a running server at HEADROOM_COMFYUI_URL (default
 * http://127.0.0.1:8188) whose GET /system_stats argv names its folder (--base-directory,
 * or an absolute .../main.py) and that folder has models/: how is then "running server".
 * f is the platform's struct (struct hr_comfy_found, platform.h). */
struct hr_comfy_found;
bool hr_cli_find_comfyui(const char *cmd, struct hr_comfy_found *f);

/* Where a running ComfyUI is looked for: HEADROOM_COMFYUI_URL, else http://127.0.0.1:8188.
 * false when the variable holds no usable URL, or (root, a server on this machine) when the
 * process listening there does not look like ComfyUI: then one line says so on stderr
 * (X.localserver) and nothing is asked. cmd names the command in that line. */
struct hr_url;
bool hr_cli_comfyui_url(const char *cmd, struct hr_url *url);

/* A version as ComfyUI writes it ("0.3.60", "v0.16") into out; false for anything else. */
bool hr_cli_version_of(const char *v, int out[3]);
/* The version a ComfyUI folder names (comfyui_version.py: __version__ = "0.3.60"); false when
 * it has none or it cannot be read. */
bool hr_cli_comfyui_folder_version(const char *dir, int out[3]);

/* Is stdout a terminal (colour, width)? */
bool hr_cli_stdout_is_tty(void);
/* Is stdin a terminal (nothing piped in)? */
bool hr_cli_stdin_is_tty(void);

/* For the commands not yet on option tables (apply, rollback, verify, diagnose): remove these
 * three with the last of them. Match "--name" or "--name=value" / "--name value"; on match sets *value (NULL for flags)
 * and advances *i past a separate value. Returns 1 on match, 0 if not this option, -1 if
 * the value is missing. */
int hr_cli_opt(int argc, char **argv, int *i, const char *name, const char **value);

/* hr_cli_opt for an option that needs a value; on a missing (or, with nonempty, empty) value
 * prints "<cmd>: <name> needs <what>" and returns -1: the caller exits with 64. */
int hr_cli_opt_value(int argc, char **argv, int *i, const char *cmd, const char *name, const char *what, bool nonempty,
                     const char **value);

/* "--help" or "-h". */
bool hr_cli_is_help(const char *arg);

/* The end every report command shares: render_rc is what rendering `out` (a document in
 * format) returned. Writes it to stdout (hr_cli_write); 0, or the exit status of the error (hr_exit_from_error) after "<cmd>: cannot
 * render the <what>: ..." or "<cmd>: cannot write to standard output" (74). */
int hr_cli_emit(const char *cmd, const char *what, int render_rc, const hr_buf *out, hr_format format);

/* hr_cli_emit for a document rendered through an hr_render (its sticky error decides). */
int hr_cli_emit_render(const char *cmd, const char *what, hr_render *r);

/* A document rendered through r, written to the file path instead of stdout (atomically: an
 * old file stays whole until the new one is complete). 0, or the exit status after
 * "<cmd>: cannot render the <what>: ..." or "<cmd>: <path>: ..." (73, 74, 77). */
int hr_cli_emit_file(const char *cmd, const char *what, const char *path, hr_render *r);
/* The exit status when a file the user named could not be written
 * (hr_platform_output_replace / hr_platform_output_open): 69 refused as unsafe (a link,
 * another user's file or folder), 74 the write failed (disk full), 73 otherwise. */
int hr_cli_output_exit(int code);

/* Choose the language of messages from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)
 * or, on Windows, the user's display language; --lang overrides it later. */
void hr_cli_choose_language(void);

#endif
