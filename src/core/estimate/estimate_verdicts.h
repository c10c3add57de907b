/* headroom — estimate's verdicts (internal, estimate_verdicts.c). */
#ifndef HR_ESTIMATE_VERDICTS_H
#define HR_ESTIMATE_VERDICTS_H

#include "core/estimate/estimate_sim.h"

#include "core/base/error.h"

/* Add a note to the report (dropped when the report has no room for more). */
HR_PRINTF(2, 3)
void hr_est_add_note(hr_estimate *e, const char *fmt, ...);

/* The verdicts of the middle run s over its report e (its ranges filled), each with its fix;
 * "fits" when none but offloading. */
void hr_est_verdicts(const hr_est_sim *s, hr_estimate *e);

#endif
