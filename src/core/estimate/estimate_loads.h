/* headroom — estimate's model manager (internal, estimate_loads.c): ComfyUI's
 * load_models_gpu() and free_memory() over the simulated process. */
#ifndef HR_ESTIMATE_LOADS_H
#define HR_ESTIMATE_LOADS_H

#include "core/estimate/estimate_sim.h"

#include <stdbool.h>

/* Evict models not in keep[] (NULL: none kept) until `required` bytes of VRAM are free. */
void hr_est_free_memory(hr_est_sim *s, double required, const bool *keep);

/* Make room, then load each of the n models idx[] fully or up to its budget, for a step that
 * needs mem_req bytes of VRAM beside them (min_req the least, < 0: mem_req); force_full loads
 * them whole. Each load the report shows is logged against op. */
void hr_est_load_models_gpu(hr_est_sim *s, const int *idx, int n, double mem_req, double min_req, bool force_full,
                            const hr_est_op *op);

#endif
