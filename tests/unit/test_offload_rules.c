/* ModelPatcher.load()'s offload accounting by version and by a checkout's date: master changed
 * it four times between the 0.3.77 and 0.4.0 releases (PRs #11069 2025-12-03, #11096 12-04,
 * #11173 12-08, #11171 12-09; docs/memory-model.md). A release before 0.4.0 has none of the
 * changes whatever its date says, 0.4.0 all; a checkout has those merged by its date. */
#include "core/estimate/estimate_internal.h"
#include "test.h"

#include <stdio.h>

static int bits(hr_est_offload_rules r)
{
    return (r.bare_streams ? 1 : 0) | (r.look_ahead ? 2 : 0) | (r.patch_compute ? 4 : 0) | (r.cast_copy ? 8 : 0);
}

int main(void)
{
    const int v0376 = HR_EST_VER(0, 3, 76), v040 = HR_EST_VER(0, 4, 0);
    CHECK(bits(hr_est_offload_rules_at(v0376, 0)) == 0);
    CHECK(bits(hr_est_offload_rules_at(HR_EST_VER(0, 3, 77), 0)) == 0);
    CHECK(bits(hr_est_offload_rules_at(v040, 0)) == 15);
    CHECK(bits(hr_est_offload_rules_at(HR_EST_VER(0, 16, 0), 0)) == 15);
    /* a checkout between the releases: the changes merged by its date */
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251202)) == 0);
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251203)) == 1);
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251204)) == 3);
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251207)) == 3);
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251208)) == 7);
    CHECK(bits(hr_est_offload_rules_at(v0376, 20251209)) == 15);
    /* a release is never taken back by an older date */
    CHECK(bits(hr_est_offload_rules_at(v040, 20251203)) == 15);
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
