/* headroom — the plan's stages, internal to core/plan. hr_plan_compute() (plan.c) calls
 * them in this order, each filling its part of the plan from the parts before it; a stage
 * never calls another stage or back into plan.c. */
#ifndef HR_PLAN_STAGES_H
#define HR_PLAN_STAGES_H

#include "core/plan/plan.h"

/* plan_facts.c: the facts the rules read, after the what-if overrides. */
void hr_plan_facts_derive(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan_facts *f);
/* plan_sizing.c: how big (S4.1, S4.2, or the peak commit). */
void hr_plan_size(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p);
/* plan_placement.c: where (S3.3, S4.3, S5.4), and what to remove. */
void hr_plan_place(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p);
/* plan_warnings.c: what else to change. */
void hr_plan_warn(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p);
/* plan_steps.c: the exact steps, in the safe order (S3.1). */
void hr_plan_write_steps(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p);

/* plan_sizing.c: the S4.1 row for a RAM size (installed 16 GB reads as 15.6 GiB: rows are
 * bands). */
hr_ram_row hr_plan_ram_row(uint64_t ram_bytes);

#endif
