/* headroom — can this place hold the paging file / swap file, and is there room for it:
 * the one home of both rules. The volume probes use it to fill hr_volume.can_hold_swap (what
 * `status` shows), `plan` to rank the places, and `apply` to refuse one; so what the plan
 * recommends, apply accepts (tests/unit/test_plan_apply_agree.c walks every recorded machine).
 *
 * File systems (docs/rules.md X.fs): Linux takes a swap file on ext2/3/4 and xfs, and on
 * btrfs when it spans one device (the file is made no-copy-on-write). Nothing else: tmpfs
 * and ramfs live in RAM, overlay and network file systems cannot hold one safely, FUSE, zfs,
 * squashfs and NTFS drivers have no swap support, and f2fs needs pinned, section-aligned
 * blocks that headroom does not make. Windows puts paging files on NTFS and ReFS, never FAT.
 *
 * Room (S3.3 "do not fill an SSD beyond ~95%", S6 trouble below 10 GB free): once the file
 * is at its largest, at least max(10 GiB, 5 % of the volume) stays free. */
#ifndef HR_SWAP_TARGET_H
#define HR_SWAP_TARGET_H

#include "core/model/snapshot.h"
#include "core/model/swap_verdict.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_RESERVE_MIN_BYTES ((uint64_t)10 << 30)
#define HR_RESERVE_PERCENT   5

/* The functions below give their reason as data (core/model/swap_verdict.h), set whole on
 * every call (HR_SW_NONE when nothing is against the place); why may be NULL. Words are made
 * where the reason is shown, with hr_swap_why_text(). */

/* Can a file system of this type hold the swap file (Linux) / paging file (Windows)?
 * fs_devices: btrfs's device count, 0 when not known; read_only: mounted read-only. NO and
 * UNKNOWN say why (HR_SW_IN_RAM for tmpfs, ...). */
hr_tri hr_swap_fs_capable(hr_os os, const char *fs_type, int fs_devices, bool read_only, hr_swap_verdict *why);

/* Linux: is path (a directory or a file) in a place the boot or a cleaner empties? /tmp
 * (tmpfs, or cleared by systemd-tmpfiles' tmp.conf), /var/tmp (systemd-tmpfiles, by age), /run
 * and /dev/shm (RAM), /var/cache (package managers and cleaners empty it). A swap file there is
 * deleted while fstab still names it: the next boot has no swap. mount_point is the
 * file system path is on: a file system mounted below /tmp is not the one the cleaners empty
 * (they stay on one file system). NULL when not known: then only a path directly in one of
 * those directories counts. YES says why (an HR_SW_CLEARED_* row, with the directory). */
hr_tri hr_swap_dir_cleared(hr_os os, const char *path, const char *mount_point, hr_swap_verdict *why);

/* The rule for a volume of a snapshot: what the probe recorded (a drive type that cannot hold
 * one: removable, network, RAM disk), the file-system rule, and (Linux) a mount point the boot
 * or a cleaner empties (hr_swap_dir_cleared). On Windows a drive whose type
 * is not known is UNKNOWN (a paging file needs a fixed local disk). */
hr_tri hr_volume_can_hold_swap(const hr_volume *v, hr_os os, hr_swap_verdict *why);

/* Is the disk under a volume removable or attached by USB (S5.4: never a paging file on
 * removable media)? YES says why (HR_SW_USB, HR_SW_REMOVABLE, with the disk). Plan placement
 * and apply use this one rule. */
hr_tri hr_device_removable(const hr_device *d, hr_swap_verdict *why);

/* What must stay free on a volume of total_bytes (HR_UNKNOWN: the 10 GiB floor). */
uint64_t hr_reserve_bytes(uint64_t total_bytes);

/* Is there room for a file of file_bytes when free_bytes are free (counting any file it
 * replaces), keeping the reserve? False when free or total is unknown. */
bool hr_room_ok(uint64_t total_bytes, uint64_t free_bytes, uint64_t file_bytes);

/* The new room a file of file_bytes needs where a file of existing_bytes is now (HR_UNKNOWN:
 * none known): none when it is kept or shrunk — the reserve is for a file being created or
 * grown — else the growth. Pass the result to hr_room_ok with the free space not counting
 * the file there; 0 needs no room check at all. */
uint64_t hr_room_needed(uint64_t existing_bytes, uint64_t file_bytes);

/* The largest file, in whole GiB, that leaves the reserve free; 0 when none or unknown. */
uint64_t hr_room_largest(uint64_t total_bytes, uint64_t free_bytes);

/* Windows, X.dump: the largest custom paging file on the system drive still taken for the
 * small file kept there for kernel crash dumps. */
#define HR_DUMP_FILE_MAX_BYTES ((uint64_t)16 << 30)

/* Windows, X.dump: the least paging file a crash dump of this kind needs on the system drive
 * (CrashControl\CrashDumpEnabled; docs/rules.md cites Microsoft's table): 0 off; small memory
 * dump (3) 1 MB; complete (1) RAM + 257 MB; kernel (2), automatic (7) or not read: RAM / 8
 * within 1 GB and the 4 GB X.dump advises. ram_bytes HR_UNKNOWN: 0 for the RAM-sized kinds. */
uint64_t hr_dump_min_bytes(int64_t crash_dump_enabled, uint64_t ram_bytes);

/* Windows, X.dump — the one rule for which configured paging file stays on the system drive
 * when the paging file goes to another drive: `plan` names it its dump file (and leaves it
 * out of the removals), `apply` keeps that entry in PagingFiles (and its shrink guard counts
 * it). True for an entry on the system drive (entry_drive == system_drive), custom
 * with both sizes known and a maximum of at most HR_DUMP_FILE_MAX_BYTES, when the target is
 * another drive and crash dumps need the system drive's paging file (CrashControl says so,
 * or was not read: dump_needs_system_paging YES or UNKNOWN). Callers take the first entry of
 * their list for which it is true. */
bool hr_dump_file_stays(hr_tri dump_needs_system_paging, char system_drive, char target_drive, char entry_drive,
                        hr_paging_mode mode, uint64_t initial_bytes, uint64_t maximum_bytes);

#endif
