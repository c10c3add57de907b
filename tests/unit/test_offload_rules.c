/* ModelPatcher.load()'s offload accounting by version and by a checkout's commit time: master
 * changed it four times between the 0.3.77 and 0.4.0 releases (PRs #11069, #11096, #11173 and
 * #11171; docs/memory-model.md). A release (no date) before 0.4.0 has none of the changes and
 * 0.4.0 all, whatever a date says; a checkout has those merged before it. Two merges share a
 * day twice (as git shows the committer's date), so a date alone takes the later state and
 * says which PR it is unsure of; a time settles it. Also the commit-time parser. */
#include "core/estimate/estimate_internal.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static int bits(hr_est_offload_rules r)
{
    return (r.bare_streams ? 1 : 0) | (r.look_ahead ? 2 : 0) | (r.patch_compute ? 4 : 0) | (r.cast_copy ? 8 : 0);
}

static hr_est_offload_rules at(int version, const char *when, int *ambiguous)
{
    hr_est_commit c;
    CHECK(hr_est_commit_parse(when, &c) == 0);
    hr_est_offload_rules r = hr_est_offload_rules_at(version, &c);
    *ambiguous = r.ambiguous_pr;
    return r;
}

int main(void)
{
    const int v0376 = HR_EST_VER(0, 3, 76), v040 = HR_EST_VER(0, 4, 0);
    int amb = 0;
    CHECK(bits(hr_est_offload_rules_at(v0376, NULL)) == 0);
    CHECK(bits(hr_est_offload_rules_at(HR_EST_VER(0, 3, 77), NULL)) == 0);
    CHECK(bits(hr_est_offload_rules_at(v040, NULL)) == 15);
    CHECK(bits(hr_est_offload_rules_at(HR_EST_VER(0, 16, 0), NULL)) == 15);
    /* a checkout between the releases, by its time: the changes merged before it */
    CHECK(bits(at(v0376, "2025-12-03 02:28:44 -0500", &amb)) == 0 && amb == 0); /* a second before #11069 */
    CHECK(bits(at(v0376, "2025-12-03 02:28:45 -0500", &amb)) == 1 && amb == 0); /* #11069's own commit */
    CHECK(bits(at(v0376, "2025-12-03T07:28:45Z", &amb)) == 1);                  /* the same instant in UTC */
    CHECK(bits(at(v0376, "2025-12-04T04:28:43+00:00", &amb)) == 1);             /* a second before #11096 */
    CHECK(bits(at(v0376, "2025-12-03 23:28:44 -0500", &amb)) == 3);             /* #11096's own commit */
    CHECK(bits(at(v0376, "2025-12-08 15:18:06 -0500", &amb)) == 7);
    CHECK(bits(at(v0376, "2025-12-09 13:21:31 +0900", &amb)) == 15); /* #11171, seen from Tokyo */
    /* by its date alone: whole days; the day of a merge takes it, and says so */
    CHECK(bits(at(v0376, "2025-12-02", &amb)) == 0 && amb == 0);
    CHECK(bits(at(v0376, "2025-12-03", &amb)) == 3 && amb == 11069);
    CHECK(bits(at(v0376, "2025-12-07", &amb)) == 3 && amb == 0);
    CHECK(bits(at(v0376, "2025-12-08", &amb)) == 15 && amb == 11173);
    CHECK(bits(at(v0376, "2025-12-09", &amb)) == 15 && amb == 0);
    /* a release is never taken back by an older date */
    CHECK(bits(at(v040, "2025-12-02", &amb)) == 15 && amb == 0);

    /* the parser: strict digits, real dates and times, git's two forms and ISO's Z */
    hr_est_commit c;
    static const char *const bad[] = { "2025-13-01",
                                       "2025-02-29",
                                       "20251204",
                                       "2025-12-4",
                                       "2025-12-04x",
                                       "1999-01-01",
                                       "2025-+1-04",
                                       "2025- 1-04",
                                       "2025-12-+4",
                                       "",
                                       "2025-12-04 24:00:00 +0000",
                                       "2025-12-04 10:00:00",
                                       "2025-12-04 10:00:00 +1500",
                                       "2025-12-04T10:00:00+05",
                                       "2025-12-04 10:00 +0000",
                                       "2025-12-04T10:00:00 Z" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(hr_est_commit_parse(bad[i], &c) != 0);
    CHECK(hr_est_commit_parse("2024-02-29", &c) == 0 && c.date == 20240229 && !c.timed);
    CHECK(hr_est_commit_parse("2025-12-03 23:28:44 -0500", &c) == 0 && c.date == 20251203 && c.timed &&
          c.utc == 1764822524);
    CHECK(strcmp(c.text, "2025-12-03T23:28:44-05:00") == 0);
    CHECK(hr_est_commit_parse("2025-12-03T23:28:44-05:00", &c) == 0 && c.utc == 1764822524);
    CHECK(hr_est_commit_parse("2026-01-01T00:00:00Z", &c) == 0 && c.utc == 1767225600);
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures != 0;
}
