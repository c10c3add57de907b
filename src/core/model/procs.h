/* headroom — the biggest memory users right now (check: "close these", seed S5.2).
 *
 * Platform backends list processes; this file parses what Linux says about one
 * (/proc/<pid>/status) and folds processes of the same program into one line, because a
 * browser is dozens of processes and the user closes the browser, not a pid. */
#ifndef HR_PROCS_H
#define HR_PROCS_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_PROC_STATUS_MAX 16384 /* /proc/<pid>/status is ~1.5 KB; more is not a status file */

/* One /proc/<pid>/status: Name, VmRSS, RssAnon, VmSwap (kB). Returns 0; HR_ENOENT for a
 * process without memory (a kernel thread: no VmRSS); HR_EPARSE when Name is missing or a
 * number is malformed. Fields missing on old kernels (RssAnon before 4.5) read as 0. */
typedef struct hr_proc_status {
    char name[HR_SNAP_NAME_MAX];
    uint64_t rss_bytes;
    uint64_t anon_bytes;
    uint64_t swap_bytes;
} hr_proc_status;
int hr_proc_status_parse(const char *buf, size_t n, hr_proc_status *out, hr_error *err);

/* Aggregation by program name. */
#define HR_PROC_TABLE_MAX 4096
typedef struct hr_proc_table {
    hr_proc *items;
    int count;
    int cap;
    int dropped; /* distinct names past HR_PROC_TABLE_MAX */
} hr_proc_table;

void hr_proc_table_init(hr_proc_table *t);
/* Add one process; the same name (exact) adds up, keeping the first pid seen. */
int hr_proc_table_add(hr_proc_table *t, const char *name, int64_t pid, uint64_t resident, uint64_t commit);
/* The largest HR_MAX_PROCS by commit (then resident) into out->proc, largest first. */
void hr_proc_table_top(const hr_proc_table *t, hr_procs *out);
void hr_proc_table_free(hr_proc_table *t);

/* What kind of program a name is, for advice: "browser", "chat", "comfyui" (python running
 * ComfyUI cannot be told apart from other python here, so "python"), or NULL. */
const char *hr_proc_kind(const char *name);
/* The kind in words, an English msgid to translate where shown (the id stays in JSON); kind
 * itself when it is not one of hr_proc_kind()'s. */
const char *hr_proc_kind_words(const char *kind);
/* Whether a program of that kind is among the processes read ("python": maybe ComfyUI, also
 * when it is not among the largest listed). */
bool hr_procs_has_kind(const hr_procs *p, const char *kind);

#endif
