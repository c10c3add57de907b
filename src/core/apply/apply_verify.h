/* headroom — verify: is what is configured what is in use? (the S5.1 check)
 *
 * Linux: fstab swap lines vs /proc/swaps (paths, priorities). Windows: PagingFiles vs the
 * paging files created at this boot (ExistingPageFiles, the open files), and whether a
 * change waits for the reboot. Pure: the platform layer gathers the facts.
 * Verdict = exit status: 0 the same, 1 a change waits for a reboot, 2 they disagree.
 * Whether the size is enough is check's question: verify mentions the commit limit only. */
#ifndef HR_APPLY_VERIFY_H
#define HR_APPLY_VERIFY_H

#include "core/apply/apply_plan.h"
#include "core/apply/apply_state.h"
#include "core/base/buf.h"
#include "core/base/msg.h"
#include "core/apply/pagingfiles_write.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_VERIFY_MAX_ITEMS  48
#define HR_VERIFY_MAX_CONFIG 64

typedef enum hr_verify_verdict {
    HR_VERDICT_MATCH = 0,
    HR_VERDICT_PENDING_REBOOT = 1,
    HR_VERDICT_DIFFER = 2
} hr_verify_verdict;

/* What a finding says: a message, or a run cut short (said with the step it stopped in). */
typedef enum hr_verify_item_kind {
    HR_VERIFY_ITEM_MSG = 0,
    HR_VERIFY_ITEM_ROLLBACK_CUT, /* a rollback was interrupted */
    HR_VERIFY_ITEM_CHANGE_CUT,   /* a change was interrupted (after it was applied) */
    HR_VERIFY_ITEM_APPLY_CUT     /* an apply was interrupted after last_step */
} hr_verify_item_kind;

typedef struct hr_verify_item {
    hr_verify_verdict verdict;
    bool note; /* a caveat: neither agreement nor disagreement ("note") */
    hr_verify_item_kind kind;
    hr_msg msg;         /* HR_VERIFY_ITEM_MSG */
    char last_step[48]; /* _APPLY_CUT: the last step done ("" none) */
    char cut_step[48];  /* _CUT: the step a kill cut short ("" not known) */
} hr_verify_item;

/* A finding in words, in lang (text: the user's; JSON: English). Returns the length the
 * whole text needs. */
size_t hr_verify_item_text(const hr_verify_item *it, hr_lang lang, char *out, size_t n);

/* What recovery (the journal of a run a kill cut short) finished or undid, one line each:
 * kept as data, so that verify's text says it in the user's language and its JSON in
 * English; rollback writes it into its log. */
typedef enum hr_recovered_kind {
    HR_RECOVERED_REMOVED_TMP,    /* the unfinished file (path) removed */
    HR_RECOVERED_DONE,           /* the step (step) cut short: it was done */
    HR_RECOVERED_NOT_DONE,       /* ... it was not done */
    HR_RECOVERED_FSTAB_CHANGED,  /* ... fstab changed (by someone else too) */
    HR_RECOVERED_ON,             /* ... path is on */
    HR_RECOVERED_OFF,            /* ... path is off */
    HR_RECOVERED_CHECKED_PATH,   /* ... path checked */
    HR_RECOVERED_CHECKED_BACKUP, /* ... the fstab backup checked */
    HR_RECOVERED_MARKED_APPLIED, /* ... marked applied */
    HR_RECOVERED_CHECKED         /* ... checked */
} hr_recovered_kind;

#define HR_RECOVERED_MAX 8

typedef struct hr_recovered {
    hr_recovered_kind kind;
    char step[48];
    char path[HR_SNAP_PATH_MAX];
} hr_recovered;

typedef struct hr_recovery_log {
    int count;
    hr_recovered e[HR_RECOVERED_MAX];
} hr_recovery_log;

/* One more line (left out when the log is full); step and path may be NULL. */
void hr_recovery_add(hr_recovery_log *log, hr_recovered_kind kind, const char *step, const char *path);
/* The line in lang, without its newline. Returns the length the whole text needs. */
size_t hr_recovered_text(const hr_recovered *e, hr_lang lang, char *out, size_t n);
/* Every line, each ending in a newline, appended to out in lang. */
int hr_recovery_log_text(const hr_recovery_log *log, hr_lang lang, hr_buf *out);

typedef struct hr_verify_result {
    hr_os os;
    hr_verify_verdict verdict;
    int count;
    hr_verify_item items[HR_VERIFY_MAX_ITEMS];
    uint64_t commit_limit_bytes; /* HR_UNKNOWN if not read */
    uint64_t commit_charge_bytes;
    uint64_t paging_total_bytes;
    bool paging_total_known; /* false: the sizes in use could not all be read */
    /* What verify itself finished or undid of a run a kill cut short (the journal); none when
     * nothing. Set by the platform after the comparison. */
    hr_recovery_log recovered;
} hr_verify_result;

/* A configured swap area (an fstab line), its spec resolved to a path by the platform. */
typedef struct hr_verify_config {
    char spec[HR_SNAP_PATH_MAX];     /* as written: "/swapfile", "UUID=..." */
    char resolved[HR_SNAP_PATH_MAX]; /* "/dev/sda3", "" if it could not be resolved */
    int64_t priority;                /* pri=, HR_UNKNOWN_I64 if none */
    bool noauto;
} hr_verify_config;

typedef struct hr_verify_linux_in {
    int config_count;
    hr_verify_config config[HR_VERIFY_MAX_CONFIG];
    int active_count;
    hr_swap_active active[HR_MAX_PAGING];
    const hr_apply_state *state; /* NULL when headroom changed nothing */
    const char *fstab_path;
    uint64_t commit_limit_bytes, commit_charge_bytes;
} hr_verify_linux_in;

void hr_verify_linux(const hr_verify_linux_in *in, hr_verify_result *out);

typedef struct hr_verify_open_file {
    char path[HR_PFW_PATH_MAX]; /* "C:\pagefile.sys" */
    uint64_t size_bytes;        /* current size; HR_UNKNOWN if not known */
} hr_verify_open_file;

typedef struct hr_verify_win_in {
    bool configured_present;
    hr_pfw_list configured; /* PagingFiles */
    int existing_count;     /* ExistingPageFiles ("\??\C:\pagefile.sys") */
    char existing[HR_PFW_MAX_ENTRIES][HR_PFW_PATH_MAX];
    int open_count; /* EnumPageFilesW */
    hr_verify_open_file open[HR_PFW_MAX_ENTRIES];
    bool open_known;
    hr_tri temp_page_file; /* TempPageFile = 1: Windows booted on a temporary file */
    bool drives_known;     /* drives_mask is set (GetLogicalDrives: bit 0 = A:) */
    uint32_t drives_mask;
    int64_t boot_unix; /* when this boot began; HR_UNKNOWN_I64 if unknown */
    const hr_apply_state *state;
    uint64_t commit_limit_bytes, commit_charge_bytes;
} hr_verify_win_in;

void hr_verify_windows(const hr_verify_win_in *in, hr_verify_result *out);

int hr_verify_text(const hr_verify_result *r, hr_buf *out); /* in the user's language */
int hr_verify_json(const hr_verify_result *r, hr_buf *out); /* "headroom.verify/1", English */
/* The one renderer interface (core/base/render.h): text or JSON as rd->format asks. */
void hr_verify_render(const hr_verify_result *r, hr_render *rd);

#endif
