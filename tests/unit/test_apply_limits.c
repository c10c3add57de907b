/* apply's limits at their edges: a swap priority is 0 to 32767 (the kernel's swapon(2) takes
 * SWAP_FLAG_PRIO_MASK, 0x7fff), so 32767 plans and 32768 is refused before anything runs. */
#include "test.h"

#include "core/apply/apply_plan.h"
#include "core/base/size.h"

#include <stdlib.h>

static int plan_with_priority(int priority, hr_error *err)
{
    static hr_fstab fstab;
    hr_fstab_parse(&fstab, "", 0, "fstab", err);
    hr_apply_linux_in *in = calloc(1, sizeof *in);
    in->size_bytes = 2 * HR_GIB;
    in->priority = priority;
    in->page_size = 4096;
    strcpy(in->path, "/data/headroom.swap");
    strcpy(in->fs.type, "ext4");
    in->fs.total_bytes = 100 * HR_GIB;
    in->fs.free_bytes = 50 * HR_GIB;
    in->fs.devices = 1;
    in->fstab = &fstab;
    in->fstab_path = "/etc/fstab";
    hr_apply_plan *p = calloc(1, sizeof *p);
    int r = hr_apply_plan_linux(in, p, err);
    free(p);
    free(in);
    return r;
}

int main(void)
{
    hr_error err = { 0 };
    CHECK_EQ_I64(plan_with_priority(0, &err), 0);
    CHECK_EQ_I64(plan_with_priority(32767, &err), 0);
    CHECK(plan_with_priority(32768, &err) != 0);
    CHECK_CONTAINS(err.msg, "32767");
    CHECK(plan_with_priority(65535, &err) != 0);
    CHECK(plan_with_priority(-1, &err) != 0);
    return TEST_DONE();
}
