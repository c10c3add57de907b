/* headroom — Linux: the biggest memory users, from <sysroot>/proc/[0-9]*\/status. */
#ifndef HR_LINUX_PROBE_PROCS_H
#define HR_LINUX_PROBE_PROCS_H

#include "core/model/snapshot.h"

/* Fill out (section, count, top HR_MAX_PROCS programs by RssAnon+VmSwap, processes of one
 * program folded together). sysroot "/" is this machine. Processes that exit while being
 * read are skipped. Returns 0, or a negative HR_E* with out->s saying why. */
int hr_linux_probe_procs(const char *sysroot, hr_procs *out);

#endif
