/* HR_HOT: a function that runs on every sample of `watch` / `run`.
 *
 * They are kept together in one section (.text.hot.*, which the GNU and LLVM linkers place
 * side by side at the start of .text), so that the sampling loop's code lies on a few
 * neighbouring pages. The kernel maps a file's pages 64 kB or a whole page-cache folio at
 * a time around each one touched ("fault-around"), and watch locks what it maps
 * (docs/watch.md, "Resident memory"): scattered over the binary, the few kilobytes the
 * loop runs cost a few hundred kilobytes of locked memory. Elsewhere (PE, other
 * compilers) it is nothing. */
#ifndef HR_BASE_HOT_H
#define HR_BASE_HOT_H

/* HR_START: a function that runs once at start-up, every command's (main, the option
 * parser) or watch's (opening the sources). Put beside the hot code (.text.startup.*, which
 * the GNU linker places just before .text.hot), start-up touches a few neighbouring pages of
 * the binary instead of most of it: the peak resident memory of `watch`, before it releases
 * what only start-up used. */
#if defined(__GNUC__) && defined(__ELF__)
#define HR_HOT   __attribute__((section(".text.hot.hr_sample")))
#define HR_START __attribute__((section(".text.startup.hr_start")))
#else
#define HR_HOT
#define HR_START
#endif

#endif
