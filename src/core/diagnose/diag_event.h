/* headroom — the terminal-event finder (internal to the diagnosis).
 *
 * Phrases recognise the failures someone has seen before; a new tool's or a new release's
 * failure has words nobody listed. So the diagnosis also finds a run's last failure by its
 * shape — an exception line ("SomeError: ..."), an error line that ends the log, a crash
 * reporter's header, an exception code, a stack that ends the log — and judges it when the
 * input ends: what the line itself says decides the cause (a kill, or not memory with the
 * line as evidence). It runs in the same single pass as the phrases, on a few bytes of
 * each line, and keeps one candidate: nothing per line. */
#ifndef HR_DIAG_EVENT_H
#define HR_DIAG_EVENT_H

#include "core/diagnose/diag.h"

/* Per input: forget the candidate and the tail's shape. */
void hr_diag_event_begin(hr_diag_ctx *c);
/* Every line of a log after the phrases looked at it; understood: a phrase made it evidence
 * (then it is no candidate, and an older candidate was not the end). */
void hr_diag_event_line(hr_diag_ctx *c, const char *text, size_t len, uint64_t line, bool understood);
/* A phrase saw a failure-shaped line that is no evidence by itself ("error:", a crash
 * reporter's header): it becomes the candidate. next: the line after it says why. */
void hr_diag_event_mark(hr_diag_ctx *c, int kind, hr_cause cause, hr_confidence conf, const char *meaning,
                        const char *text, size_t len, uint64_t line, bool next);
/* The run went on (loading, sampling, a prompt finished): the candidate was no ending. */
void hr_diag_event_clear(hr_diag_ctx *c);
/* At the end of an input: judge the candidate (or a stack that ends the log). */
void hr_diag_event_end(hr_diag_ctx *c);

/* Does a GPU out-of-memory message's own text show far more free memory than it asked for
 * (a per-allocation limit, an allocator bug), or a first allocation on an empty device? */
bool hr_diag_gpu_room(const char *s, size_t n);
/* Does the line give a size ("3.00 GiB", "41943040000 bytes")? A bare std::bad_alloc or
 * MemoryError does not, and cannot say whether memory really ran out. */
bool hr_diag_has_size(const char *s, size_t n);

/* Is name[0..n) (a file name without ".dll") a graphics driver's user-mode module — NVIDIA's,
 * AMD's or Intel's, any API, 32 or 64 bit? Named as the faulting module of a crash report,
 * it says the driver crashed, whatever language the report is in. */
bool hr_diag_driver_module(const char *name, size_t n);
/* Is the module whose ".dll" ends at dll_end in line s[0..n) named as a crash report names
 * it: a faulting-module field (its name in the report's language: module, Modul, модуль,
 * モジュール, 模块 ...; WER's Sig[N].Value) or a stack frame (name.dll+0x..., name.dll!f,
 * name.dll(0x...) + 0x...)? A driver DLL named anywhere else (a loader's or a device
 * banner's line) says nothing about a crash. */
bool hr_diag_module_in_crash_report(const char *s, size_t n, size_t dll_end);

/* Does a line that names the page file (or virtual memory) also say it is short — too small,
 * below what is needed, undersized, disabled, to be increased — in its own words and
 * language? Then the program itself blames the page file. */
bool hr_diag_pagefile_blame(const char *s, size_t n);

/* A Python exception's final line ("ValueError: ...", a traceback's end): the confidence it
 * gets, HR_CONF_NONE if it is not one. */
hr_confidence hr_diag_exception_line(const char *s, size_t n);

#endif
