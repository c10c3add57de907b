/* headroom — the `workflow` report: what a workflow loads (resolved paths, bytes,
 * architecture), its latent geometry, samplers, VAE decodes, upscales and execution order. */
#ifndef HR_SCAN_WORKFLOW_RENDER_H
#define HR_SCAN_WORKFLOW_RENDER_H

#include "core/base/render.h"
#include "core/scan/workflow.h"

typedef struct hr_workflow_report {
    const hr_workflow *wf;
    const char *file;       /* the workflow file as given */
    const char *comfyui;    /* the ComfyUI folder used, NULL if none */
    const char *extra_yaml; /* extra_model_paths.yaml read, NULL if none */
    const char *found_how;  /* how ComfyUI was found when not given ("current folder"), NULL */
} hr_workflow_report;

/* Models not found or not readable. */
size_t hr_workflow_missing(const hr_workflow *wf);
void hr_workflow_render(const hr_workflow_report *r, hr_render *rd);

#endif
