#!/usr/bin/env bash
# apply's steps name the file system that is mounted: ext2, ext3 and ext4 share one statfs
# magic, so an ext2 target read "allocate ... on ext4". On real loop-mounted ext2 and ext3
# images (root; SKIP elsewhere), the dry run's allocate step says ext2 / ext3; on ext2
# (no fallocate) apply --yes writes the zeros and reports its progress on stderr.
# usage: fs_type_root.sh HEADROOM
set -u   # no pipefail: `echo | grep -q` would fail when grep stops reading early
hr=$1
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root"
for t in losetup mkfs.ext2 mkfs.ext3; do command -v $t >/dev/null || skip "$t not installed"; done
tmp=$(mktemp -d)
mnts=()
cleanup() {
  for m in "${mnts[@]}"; do swapoff "$m/headroom.swap" 2>/dev/null; umount "$m" 2>/dev/null; done
  rm -rf "$tmp"
}
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
  # ext2 has no fallocate: apply writes the zeros itself and says how far it is, a line per
  # tenth when stderr is not a terminal (the swap is turned on, then rolled back).
  if [ "$fs" = ext2 ]; then
    : >"$tmp/fstab"
    "$hr" apply --size 96M --target "$mnt" --state-dir "$tmp/state" --fstab "$tmp/fstab" --yes \
      >"$tmp/apply.out" 2>"$tmp/apply.err" || { echo "FAIL: ext2 apply --yes: $(cat "$tmp/apply.out" "$tmp/apply.err")"; fail=1; }
    n=$(grep -c 'allocating: .* written ([0-9]* %)' "$tmp/apply.err")
    last=$(grep 'allocating:' "$tmp/apply.err" | tail -n 1)
    if [ "$n" -ge 10 ] && [ "$n" -le 11 ] && echo "$last" | grep -q '96 MB of 96 MB written (100 %)'; then
      echo "ok: ext2: $n progress lines, the last: $last"
    else
      echo "FAIL: ext2: progress on stderr ($n lines): $(cat "$tmp/apply.err")"; fail=1
    fi
    "$hr" rollback --state-dir "$tmp/state" --fstab "$tmp/fstab" --yes >/dev/null 2>&1 || { echo "FAIL: ext2 rollback"; fail=1; }
    grep -q "$mnt/headroom.swap" /proc/swaps && { swapoff "$mnt/headroom.swap"; echo "FAIL: ext2 swap left on"; fail=1; }
  fi
done
[ "$fail" = 0 ] && echo "apply names the mounted file system: ext2, ext3; says how far a zero-filled file is"
exit $fail
