/* headroom — Windows: the biggest memory users (Toolhelp32 + GetProcessMemoryInfo). */
#ifndef HR_WIN_PROBE_PROCS_H
#define HR_WIN_PROBE_PROCS_H

#include "core/model/snapshot.h"

/* Fill out with the top HR_MAX_PROCS programs by private bytes (PrivateUsage: what counts
 * against the commit limit), processes of one program (same exe name) folded together.
 * Processes we may not open (protected, other sessions) are skipped and counted in out->s.
 * Returns 0, or a negative HR_E* with out->s saying why. */
int hr_win_probe_procs(hr_procs *out);

#endif
