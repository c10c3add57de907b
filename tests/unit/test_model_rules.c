/* The rules every capability shares, each in one place (core/model/): which file systems can
 * hold a swap / paging file, the free-space reserve, and the real ceiling. */
#include "test.h"

#include "core/base/size.h"
#include "core/model/commit_ceiling.h"
#include "core/model/swap_target.h"

#include <stdlib.h>

#define GIB ((uint64_t)1 << 30)

static void test_file_systems(void)
{
    hr_swap_verdict why;
    static const char *const yes[] = { "ext4", "ext3", "ext2", "xfs", "EXT4" };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        CHECK(hr_swap_fs_capable(HR_OS_LINUX, yes[i], 0, false, &why) == HR_TRI_YES);
        CHECK(why.id == HR_SW_NONE);
    }
    static const struct {
        const char *fs;
        hr_swap_why id;
    } no[] = {
        { "tmpfs", HR_SW_IN_RAM },    { "ramfs", HR_SW_IN_RAM },        { "overlay", HR_SW_OVERLAY },
        { "nfs4", HR_SW_NETWORK_FS }, { "cifs", HR_SW_NETWORK_FS },     { "9p", HR_SW_NETWORK_FS },
        { "fuseblk", HR_SW_FUSE },    { "zfs", HR_SW_NO_SWAP_SUPPORT }, { "f2fs", HR_SW_F2FS },
        { "vfat", HR_SW_FAT },        { "exfat", HR_SW_FAT },           { "0x12345", HR_SW_FS_NOT_KNOWN },
        { "", HR_SW_FS_NOT_KNOWN },
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        CHECK(hr_swap_fs_capable(HR_OS_LINUX, no[i].fs, 1, false, &why) == HR_TRI_NO);
        if (why.id != no[i].id)
            fprintf(stderr, "%s: reason %d, want %d\n", no[i].fs, (int)why.id, (int)no[i].id);
        CHECK(why.id == no[i].id);
    }
    /* The file system's name is the reason's parameter where its template shows it. */
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "nfs4", 1, false, &why) == HR_TRI_NO);
    CHECK_STR(why.fs, "nfs4");
    /* btrfs: one device yes, several no, unknown unknown. */
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "btrfs", 1, false, &why) == HR_TRI_YES);
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "btrfs", 2, false, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_BTRFS_DEVICES);
    CHECK(why.devices == 2);
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "btrfs", 0, false, &why) == HR_TRI_UNKNOWN);
    CHECK(why.id == HR_SW_BTRFS_DEVICES_UNKNOWN);
    CHECK(hr_swap_fs_capable(HR_OS_LINUX, "ext4", 0, true, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_READ_ONLY);
    /* Windows: NTFS and ReFS yes, FAT no. */
    CHECK(hr_swap_fs_capable(HR_OS_WINDOWS, "NTFS", 0, false, &why) == HR_TRI_YES);
    CHECK(hr_swap_fs_capable(HR_OS_WINDOWS, "FAT32", 0, false, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_FAT);
    CHECK(hr_swap_fs_capable(HR_OS_WINDOWS, "FAT32", 0, false, NULL) == HR_TRI_NO); /* a caller that shows none */

    /* A volume: what the probe recorded wins; Windows needs the drive kind known. */
    hr_volume v;
    memset(&v, 0, sizeof v);
    hr_strlcpy(v.dev.fs_type, "NTFS", sizeof v.dev.fs_type);
    v.can_hold_swap = HR_TRI_UNKNOWN;
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_WINDOWS, &why) == HR_TRI_UNKNOWN);
    CHECK(why.id == HR_SW_DRIVE_KIND_UNKNOWN);
    v.can_hold_swap = HR_TRI_YES;
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_WINDOWS, &why) == HR_TRI_YES);
    CHECK(why.id == HR_SW_NONE);
    v.can_hold_swap = HR_TRI_NO;
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_WINDOWS, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_CANNOT); /* refused with no reason recorded */
    v.why_not.id = HR_SW_DRIVE_NETWORK;
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_WINDOWS, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_DRIVE_NETWORK);
}

static void test_reserve(void)
{
    CHECK_EQ_U64(hr_reserve_bytes(100 * GIB), 10 * GIB);  /* the 10 GiB floor */
    CHECK_EQ_U64(hr_reserve_bytes(1000 * GIB), 50 * GIB); /* 5 % */
    CHECK_EQ_U64(hr_reserve_bytes(HR_UNKNOWN), 10 * GIB);
    CHECK(hr_room_ok(100 * GIB, 42 * GIB, 32 * GIB)); /* 42 = 32 + 10 exactly */
    CHECK(!hr_room_ok(100 * GIB, 42 * GIB - 1, 32 * GIB));
    CHECK(!hr_room_ok(HR_UNKNOWN, 500 * GIB, 32 * GIB));
    CHECK(!hr_room_ok(100 * GIB, HR_UNKNOWN, 32 * GIB));
    CHECK(!hr_room_ok(100 * GIB, 50 * GIB, UINT64_MAX - 1)); /* saturates, never wraps */
    /* a file kept at its size or shrunk needs no new room; a grown one needs its growth */
    CHECK(hr_room_needed(64 * GIB, 64 * GIB) == 0);
    CHECK(hr_room_needed(64 * GIB, 32 * GIB) == 0);
    CHECK(hr_room_needed(32 * GIB, 64 * GIB) == 32 * GIB);
    CHECK(hr_room_needed(HR_UNKNOWN, 64 * GIB) == 64 * GIB);
    CHECK(hr_room_needed(0, 64 * GIB) == 64 * GIB);
    CHECK_EQ_U64(hr_room_largest(256 * GIB, 60 * GIB), 47 * GIB); /* 60 - 12.8, whole GiB down */
    CHECK_EQ_U64(hr_room_largest(100 * GIB, 9 * GIB), 0);
}

static hr_snapshot *linux_machine(uint64_t ram, uint64_t swap)
{
    hr_snapshot *s = malloc(sizeof *s);
    hr_snapshot_init(s, HR_OS_LINUX);
    s->ram.total_bytes = ram;
    hr_section_ok(&s->paging_s, "test");
    s->paging_count = 1;
    s->paging[0].kind = HR_PAGING_FILE;
    s->paging[0].size_bytes = swap;
    s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
    s->commit.limit_bytes = ram / 2 + swap;
    s->commit.enforced = HR_TRI_NO;
    return s;
}

static void test_ceiling(void)
{
    hr_ceiling c;
    /* Modes 0/1: RAM + disk swap, not the (unenforced) CommitLimit. */
    hr_snapshot *s = linux_machine(32 * GIB, 8 * GIB);
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 40 * GIB);
    CHECK(c.basis == HR_CEILING_RAM_SWAP && !c.enforced);
    /* zram is RAM, not a backstop. */
    s->paging[s->paging_count].kind = HR_PAGING_ZRAM;
    s->paging[s->paging_count++].size_bytes = 16 * GIB;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 40 * GIB);
    /* cgroup v2: memory.max + the swap it may use, at most the disk swap there is. */
    s->cgroup.memory_version = HR_CGROUP_V2;
    s->cgroup.memory_max_bytes = 12 * GIB;
    s->cgroup.swap_max_bytes = 100 * GIB;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 20 * GIB);
    CHECK(c.basis == HR_CEILING_CGROUP);
    CHECK_EQ_U64(c.machine_bytes, 40 * GIB);
    s->cgroup.swap_max_bytes = 0;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 12 * GIB);
    s->cgroup.swap_max_bytes = HR_UNKNOWN; /* no swap limit file: all the swap there is */
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 20 * GIB);
    /* cgroup v1: memsw unlimited is the RAM limit + swap, not the RAM limit alone. */
    s->cgroup.memory_version = HR_CGROUP_V1;
    s->cgroup.memsw_max_bytes = HR_UNLIMITED;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 20 * GIB);
    s->cgroup.memsw_max_bytes = 14 * GIB;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, 14 * GIB);
    free(s);

    /* Mode 2: the enforced CommitLimit; with a what-if, RAM's share + swap. */
    s = linux_machine(32 * GIB, 8 * GIB);
    s->commit.overcommit_mode = HR_OVERCOMMIT_NEVER;
    s->commit.overcommit_ratio = 80;
    s->commit.overcommit_kbytes = 0;
    s->commit.enforced = HR_TRI_YES;
    s->commit.limit_bytes = 32 * GIB / 100 * 80 + 8 * GIB;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK(c.basis == HR_CEILING_COMMIT_LIMIT && c.enforced);
    CHECK_EQ_U64(c.bytes, s->commit.limit_bytes);
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, 64 * GIB, &c);
    CHECK(c.basis == HR_CEILING_COMMIT_PARTS);
    CHECK_EQ_U64(c.bytes, hr_commit_ram_part(s, HR_OS_LINUX, 32 * GIB) + 64 * GIB);
    CHECK_EQ_U64(hr_commit_ram_part(s, HR_OS_LINUX, 100 * GIB), 80 * GIB);
    /* The paging list unreadable: unknown, never RAM alone. */
    s->paging_s.ok = false;
    s->commit.overcommit_mode = HR_OVERCOMMIT_HEURISTIC;
    s->commit.enforced = HR_TRI_NO;
    hr_ceiling_compute(s, HR_OS_LINUX, HR_UNKNOWN, HR_UNKNOWN, &c);
    CHECK_EQ_U64(c.bytes, HR_UNKNOWN);
    CHECK(c.basis == HR_CEILING_UNKNOWN);
    free(s);

    /* A hypothetical Windows machine: RAM + paging. */
    hr_ceiling_compute(NULL, HR_OS_WINDOWS, 16 * GIB, 64 * GIB, &c);
    CHECK_EQ_U64(c.bytes, 80 * GIB);
    CHECK(c.enforced);
}

/* Places the boot or a cleaner empties are never a swap target (issue 10). */
static void test_cleared_dirs(void)
{
    hr_swap_verdict why;
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmp", "/tmp", &why) == HR_TRI_YES);
    CHECK(why.id == HR_SW_CLEARED_TMP);
    CHECK_STR(why.dir, "/tmp");
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/var/tmp", "/var/tmp", &why) == HR_TRI_YES);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmp/headroom.swap", "/", &why) == HR_TRI_YES);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/var/tmp/swap/x", "/var", &why) == HR_TRI_YES);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/dev/shm", "/dev/shm", &why) == HR_TRI_YES);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/var/cache/x.swap", NULL, &why) == HR_TRI_YES);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmp/headroom.swap", NULL, &why) == HR_TRI_YES);
    /* A file system mounted below /tmp is not the one the cleaners empty. */
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmp/x.mnt/headroom.swap", "/tmp/x.mnt", &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmp/t.1/x.mnt/headroom.swap", NULL, &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/", "/", &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/tmpdata", "/tmpdata", &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/var", "/var", &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_LINUX, "/data/headroom.swap", "/data", &why) == HR_TRI_NO);
    CHECK(hr_swap_dir_cleared(HR_OS_WINDOWS, "/tmp", "/tmp", &why) == HR_TRI_NO);
    /* The volume rule: an ext4 /tmp (not tmpfs) is refused with the cleaner's reason. */
    hr_volume v;
    memset(&v, 0, sizeof v);
    hr_strlcpy(v.dev.mount_point, "/tmp", sizeof v.dev.mount_point);
    hr_strlcpy(v.dev.fs_type, "ext4", sizeof v.dev.fs_type);
    v.can_hold_swap = HR_TRI_YES;
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_LINUX, &why) == HR_TRI_NO);
    CHECK(why.id == HR_SW_CLEARED_TMP);
    CHECK_STR(why.dir, "/tmp");
    hr_strlcpy(v.dev.mount_point, "/srv", sizeof v.dev.mount_point);
    CHECK(hr_volume_can_hold_swap(&v, HR_OS_LINUX, &why) == HR_TRI_YES);
}

int main(void)
{
    test_cleared_dirs();
    test_file_systems();
    test_reserve();
    test_ceiling();
    return TEST_DONE();
}
