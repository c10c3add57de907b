/* headroom — estimate's regime (internal, estimate_regime.c): the regime and the settings of
 * one run, and what the simulated process holds where in it. */
#ifndef HR_ESTIMATE_REGIME_H
#define HR_ESTIMATE_REGIME_H

#include "core/estimate/estimate_sim.h"

/* The run's regime, VRAM state, reserve, pins, cache and its models at their sizes, from the
 * version, the machine and the flags; every model unused. */
void hr_est_sim_setup(hr_est_sim *s);

/* The process's private RAM now (the pinned part in *pinned when not NULL). */
double hr_est_ram_now(const hr_est_sim *s, double *pinned);

/* The process now: private RAM, VRAM and commit, the pinned part, and the VRAM NVIDIA's
 * Windows driver spills into system memory. */
void hr_est_tiers_now(const hr_est_sim *s, double *ram, double *vram, double *commit, double *pinned, double *spill);

#endif
