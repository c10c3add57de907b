/* DRM client fdinfo (Documentation/gpu/drm-usage-stats.rst): amdgpu's keys, xe's regions, the
 * legacy drm-memory-vram, units, and files that are not a DRM client's. */
#include "core/base/text.h"
#include "core/model/drm_fdinfo.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static hr_drm_fdinfo parse(const char *s)
{
    hr_drm_fdinfo d;
    hr_drm_fdinfo_parse(s, strlen(s), &d);
    return d;
}

int main(void)
{
    /* amdgpu of a 6.x kernel: the new keys and the older one, same figure */
    hr_drm_fdinfo d = parse("pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1105\n"
                            "drm-driver:\tamdgpu\ndrm-client-id:\t42\ndrm-pdev:\t0000:03:00.0\n"
                            "pasid:\t32770\ndrm-total-vram:\t544428 KiB\ndrm-resident-vram:\t544428 KiB\n"
                            "drm-memory-vram:\t544428 KiB\ndrm-memory-gtt: \t22528 KiB\n"
                            "amd-memory-visible-vram:\t544428 KiB\ndrm-engine-gfx:\t123 ns\n");
    CHECK(d.drm && strcmp(d.driver, "amdgpu") == 0 && strcmp(d.pdev, "0000:03:00.0") == 0);
    CHECK(d.client_known && d.client_id == 42);
    CHECK(d.vram_bytes == 544428ULL * 1024);
    /* an older amdgpu: only drm-memory-vram */
    d = parse("drm-driver:\tamdgpu\ndrm-pdev:\t0000:0a:00.0\ndrm-client-id:\t7\ndrm-memory-vram:\t2048 KiB\n");
    CHECK(d.vram_bytes == 2048ULL * 1024);
    /* xe: two VRAM regions, MiB and bytes */
    d = parse("drm-driver:\txe\ndrm-client-id:\t3\ndrm-pdev:\t0000:03:00.0\ndrm-resident-gtt:\t192 KiB\n"
              "drm-resident-vram0:\t16 MiB\ndrm-resident-vram1:\t4096\n");
    CHECK(d.vram_bytes == 16ULL * 1024 * 1024 + 4096);
    /* a DRM client with no VRAM figure (an Intel integrated GPU) */
    d = parse("drm-driver:\ti915\ndrm-client-id:\t9\ndrm-resident-system:\t8 MiB\n");
    CHECK(d.drm && d.vram_bytes == HR_UNKNOWN);
    /* not a DRM client: a pipe's or a file's fdinfo */
    d = parse("pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t4242\n");
    CHECK(!d.drm && d.vram_bytes == HR_UNKNOWN && !d.client_known);
    /* malformed values are skipped, not guessed; no newline at the end; CRLF */
    d = parse("drm-driver:\tamdgpu\r\ndrm-memory-vram:\t12 GiB\ndrm-client-id:\tx1\ndrm-resident-vram:\t5 KiB");
    CHECK(d.drm && d.vram_bytes == 5 * 1024 && !d.client_known);
    d = parse("drm-driver:\tamdgpu\ndrm-memory-vram:\t99999999999999999999999 KiB\n");
    CHECK(d.vram_bytes == HR_UNKNOWN);
    d = parse("drm-driver:\tamdgpu\ndrm-memory-vram:\t9007199254740992 KiB\n"); /* 2^53 KiB: fits */
    CHECK(d.vram_bytes == ((uint64_t)1 << 63));
    d = parse("");
    CHECK(!d.drm);
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
