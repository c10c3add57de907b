#!/usr/bin/env bash
# apply's steps name the file system that is mounted: ext2, ext3 and ext4 share one statfs
# magic, so an ext2 target read "allocate ... on ext4". On real loop-mounted ext2 and ext3
# images (root; SKIP elsewhere), the dry run's allocate step says ext2 / ext3.
# usage: fs_type_root.sh HEADROOM
set -u   # no pipefail: `echo | grep -q` would fail when grep stops reading early
hr=$1
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root"
for t in losetup mkfs.ext2 mkfs.ext3; do command -v $t >/dev/null || skip "$t not installed"; done
tmp=$(mktemp -d)
mnts=()
cleanup() { for m in "${mnts[@]}"; do umount "$m" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
for fs in ext2 ext3; do
  img="$tmp/$fs.img" mnt="$tmp/$fs"
  truncate -s 16G "$img" && "mkfs.$fs" -q -F "$img" >/dev/null 2>&1 || skip "mkfs.$fs failed"
  mkdir -p "$mnt" && mount -o loop "$img" "$mnt" 2>/dev/null || skip "loop mount unavailable"
  mnts+=("$mnt")
  out=$("$hr" apply --size 1G --target "$mnt" --state-dir "$tmp" 2>&1)
  echo "$out" | grep -q "allocate all .* on $fs (no holes)" || { echo "FAIL: $fs: $out"; fail=1; }
  "$hr" apply --size 1G --target "$mnt" --state-dir "$tmp" --json 2>/dev/null |
    grep -q "\"fs_type\": *\"$fs\"" || { echo "FAIL: $fs: --json fs_type"; fail=1; }
done
[ "$fail" = 0 ] && echo "apply names the mounted file system: ext2, ext3"
exit $fail
