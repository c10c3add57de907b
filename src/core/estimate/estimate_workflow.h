/* headroom — the estimate's input from a read workflow (core/scan/workflow.h): models from
 * their headers when read, else from the catalog; operations in execution order. */
#ifndef HR_ESTIMATE_WORKFLOW_H
#define HR_ESTIMATE_WORKFLOW_H

#include "core/estimate/estimate.h"
#include "core/scan/workflow.h"

#define HR_EST_WF_MAX_PROBLEMS 8

typedef struct hr_est_wf_result {
    int catalog; /* models sized from the catalog */
    int unknown; /* models neither read nor in the catalog (not counted) */
    int problem_count;
    hr_msg problems[HR_EST_WF_MAX_PROBLEMS]; /* said where shown, cut at 256 bytes */
} hr_est_wf_result;

/* Fill in from wf. Returns 0, or HR_ETOOBIG when the workflow does not fit the input. */
int hr_est_from_workflow(const hr_workflow *wf, hr_est_input *in, hr_est_wf_result *r, hr_error *err);

#endif
