/* headroom — the phrase table behind the diagnosis (internal to diag.c and its tests). */
#ifndef HR_DIAG_RULES_H
#define HR_DIAG_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* How a phrase's hit is judged. */
enum hr_rule_kind {
    HR_RK_PLAIN = 0,      /* the phrase is the evidence */
    HR_RK_MARKER,         /* an error / traceback / user stop: not a cause, but it means the
                               run did not end silently */
    HR_RK_KILLED_PROCESS, /* kernel "Killed process <pid> (<name>)": victim and memcg */
    HR_RK_SHELL_KILLED,   /* a shell's "Killed" job report, not the word in prose */
    HR_RK_EXIT_CODE,      /* "exit code N": 137 / -9, Windows NTSTATUS codes */
    HR_RK_PRESS_ANY_KEY,  /* the launcher's pause after python.exe ended */
    HR_RK_GENERIC_OOM,    /* "out of memory" with no qualifier: look at the line's words */
    HR_RK_WARNING,        /* a shortage the run survives (retry with tiles): a warning of
                               the tier in `cause`, never the cause */
    HR_RK_NOTICE,         /* mentions memory, is no failure ("Cleared CUDA cache to avoid
                               out of memory errors"): silences the generic phrases */
    HR_RK_BUSY,           /* the run is loading or sampling (a silent stop after it = killed) */
    HR_RK_DONE,           /* a prompt finished */
    HR_RK_TRACEBACK,      /* a Python traceback begins: its final line is the exception */
    HR_RK_PAGEFILE,       /* the page file named: evidence when the line also says it is
                               short (hr_diag_pagefile_blame); generic, judged before a bare
                               "OOM" on its line */
    HR_RK_MODULE,         /* "<name>.dll": evidence when the name is a graphics driver's
                               module (hr_diag_driver_module), nothing otherwise */
    HR_RK_EVENT           /* a failure-shaped line no phrase explains ("error:", a crash
                               reporter's header): the terminal-event finder's candidate, judged
                               when the input ends (diag_event.h); conf M: a header, L: a line */
};

/* Flags. */
#define HR_RF_WORD_BEFORE 1u /* no letter, digit or _ just before */
#define HR_RF_WORD_AFTER  2u /* ... just after */
#define HR_RF_GENERIC     4u /* ignored when a more specific phrase matched the same line */
/* Every phrase is matched at word boundaries: an ASCII letter or digit at its start or end
 * must not continue a longer word. These let a phrase begin or end inside a word. */
#define HR_RF_IN_BEFORE   8u /* "[WinError 1455]" for "error 1455", "RuntimeError:" */
#define HR_RF_IN_AFTER    16u
#define HR_RF_NEXT        32u /* HR_RK_EVENT: the line after this one says what failed */

#define HR_RULE_NO_CAUSE (-1)

typedef struct hr_diag_rule {
    const char *phrase; /* lower-case ASCII, or UTF-8 */
    signed char cause;  /* hr_cause, or HR_RULE_NO_CAUSE for markers */
    unsigned char conf; /* hr_confidence */
    unsigned char flags;
    unsigned char kind;
    const char *meaning; /* NULL = the cause's own sentence */
} hr_diag_rule;

extern const hr_diag_rule hr_diag_rules[];
extern const size_t hr_diag_nrules;

/* Whether a finding's meaning (one of the rules' sentences) is about a message only Windows
 * prints (error 1455, WinError 8, ...): a log of a Windows machine, wherever it is read. */
bool hr_diag_meaning_windows(const char *meaning);

#endif
