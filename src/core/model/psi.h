/* headroom — pressure stall information: /proc/pressure/memory (and a cgroup's
 * memory.pressure), the kernel's account of the time tasks waited for memory.
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=204
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=154
 *
 * Parsed by name, bounded by len; a line that is neither "some" nor "full" is ignored (a
 * newer kernel may add one). */
#ifndef HR_PSI_H
#define HR_PSI_H

#include "core/base/error.h"
#include "core/model/snapshot.h"

#include <stddef.h>

/* Fill some and full (present = false for a line the file lacks). HR_EPARSE, naming `what`
 * and the line, when a "some"/"full" line is malformed or neither line is there. */
int hr_parse_psi(const char *buf, size_t len, const char *what, hr_psi_line *some, hr_psi_line *full, hr_error *err);

#endif
