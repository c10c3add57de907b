/* Fuzz the workflow reader: any input is either a workflow (both formats, subgraphs, an
 * order with no cycle, a GET /history body's prompts) or a one-line error; never a crash, a
 * leak or a read past the buffer. */
#include "core/scan/workflow.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* one workflow for every input (each parse starts it afresh): a fresh multi-megabyte block
     * per input made the Windows build's run under Wine sixty times slower than Linux's */
    static hr_workflow *wf;
    if (!wf)
        wf = malloc(sizeof *wf);
    if (!wf)
        return 0;
    hr_error err = { 0 };
    int r = hr_workflow_parse("fuzz", (const char *)data, size, wf, &err);
    if (r != 0 && err.msg[0] == '\0')
        __builtin_trap();
    if (r == 0) {
        for (size_t i = 0; i < wf->n_order; i++)
            if (memchr(wf->order[i].id, '\0', sizeof wf->order[i].id) == NULL)
                __builtin_trap();
        if (wf->n_models > HR_WF_MAX_MODELS || wf->n_latents > HR_WF_MAX_ITEMS)
            __builtin_trap();
        hr_workflow_free(wf);
    }
    /* the same bytes as a GET /history body: its first two prompts */
    for (size_t nth = 0; nth < 2; nth++) {
        char id[64];
        hr_error herr = { 0 };
        r = hr_workflow_parse_history("fuzz", (const char *)data, size, nth, id, sizeof id, wf, &herr);
        if (r != 0 && herr.msg[0] == '\0')
            __builtin_trap();
        if (r == 0) {
            if (memchr(id, '\0', sizeof id) == NULL)
                __builtin_trap();
            hr_workflow_free(wf);
        }
    }
    return 0;
}
