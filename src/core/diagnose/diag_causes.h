/* headroom — the causes a diagnosis names, and how sure it is: stable ids, titles, meanings
 * and the seed-mapped fixes (diag_causes.c). No state: the rest of the diagnosis and the
 * renderers only look these up. */
#ifndef HR_DIAG_CAUSES_H
#define HR_DIAG_CAUSES_H

#include <stdbool.h>

typedef enum hr_cause {
    HR_CAUSE_GPU_OOM = 0,
    HR_CAUSE_HOST_OOM,
    HR_CAUSE_KILLED,
    HR_CAUSE_LOW_VM,
    HR_CAUSE_NOT_MEMORY,
    HR_CAUSE_UNKNOWN,
    HR_CAUSE_COUNT
} hr_cause;

typedef enum hr_confidence { HR_CONF_NONE = 0, HR_CONF_LOW, HR_CONF_MEDIUM, HR_CONF_HIGH } hr_confidence;

/* Stable ids ("gpu-oom"), short titles, one-sentence meanings and seed-mapped fixes. */
const char *hr_cause_id(hr_cause cause);
const char *hr_cause_title(hr_cause cause);
const char *hr_cause_meaning(hr_cause cause);
const char *hr_cause_fix(hr_cause cause);
/* The fix in the words of one OS (Windows: the paging file dialog; Linux: a swap file, no
 * restart): what the commands show. */
const char *hr_cause_fix_os(hr_cause cause, bool windows);
const char *hr_confidence_name(hr_confidence conf);

#endif
