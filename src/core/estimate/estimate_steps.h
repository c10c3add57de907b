/* headroom — estimate's steps (internal, estimate_steps.c): one run of the workflow. */
#ifndef HR_ESTIMATE_STEPS_H
#define HR_ESTIMATE_STEPS_H

#include "core/estimate/estimate_sim.h"

/* Run the workflow through s (in, m, a, p and out set, the rest zero): the regime set up,
 * every step simulated; the peaks and the verdicts' facts left in s, and with s->out the
 * steps and loads written there. */
void hr_est_sim_run(hr_est_sim *s);

#endif
