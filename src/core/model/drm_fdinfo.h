/* headroom — one DRM client's fdinfo (/proc/<pid>/fdinfo/<fd> of an open /dev/dri node), the
 * kernel's per-client memory figures (Documentation/gpu/drm-usage-stats.rst):
 *
 *   drm-driver:	amdgpu
 *   drm-pdev:	0000:03:00.0
 *   drm-client-id:	42
 *   drm-resident-vram:	544428 KiB
 *   drm-memory-vram:	544428 KiB        (amdgpu's older key, printed beside the new ones)
 *
 * Keys are read by name, values with an optional KiB/MiB unit; lines of other files (pos,
 * flags) and unknown keys are ignored; bounded by len. */
#ifndef HR_DRM_FDINFO_H
#define HR_DRM_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hr_drm_fdinfo {
    bool drm;          /* a DRM client: it has a drm-driver line */
    char driver[16];   /* "amdgpu", "xe", "i915" */
    char pdev[16];     /* the device's PCI address ("0000:03:00.0"); "" when not given */
    bool client_known; /* a drm-client-id line: one client may be open through several fds */
    uint64_t client_id;
    uint64_t vram_bytes; /* resident VRAM: drm-resident-vram* summed over the VRAM regions, else
                          * drm-memory-vram; HR_UNKNOWN when neither is given */
} hr_drm_fdinfo;

/* Parse one fdinfo file. Always fills out (drm false for a file that is not a DRM client's). */
void hr_drm_fdinfo_parse(const char *buf, size_t len, hr_drm_fdinfo *out);

#endif
