#!/bin/bash
# Benchmark: time to create and turn on a swap file with `headroom apply` vs the method many
# guides give (dd if=/dev/zero, chmod, mkswap, swapon), measured in the same run on the same
# loop-mounted ext4 image. Not a test: it prints the figures and the ratio.
# usage: sudo bench/apply_swapfile.sh HEADROOM [SIZE_GIB=16] [WORKDIR=/var/tmp]
#        (HR_BENCH_SMOKE=1: 1 GiB, to prove it works)
set -eu
H=$(readlink -f "${1:-build/src/headroom}"); GIB=${2:-16}; WORK=${3:-/var/tmp}
[ -n "${HR_BENCH_SMOKE:-}" ] && GIB=1
export PATH=$PATH:/sbin:/usr/sbin
[ "$(id -u)" = 0 ] || { echo "bench: needs root (swapon, loop mounts)"; exit 77; }
T=$(mktemp -d "$WORK/hr-bench.XXXXXX"); M="$T/mnt"
cleanup() { swapoff "$M/dd.swap" 2>/dev/null || true; "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" --yes >/dev/null 2>&1 || true; umount "$M" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT
truncate -s $((GIB * 2 + 16))G "$T/img"; mkfs.ext4 -q -F "$T/img"; mkdir "$M"; mount -o loop "$T/img" "$M"
: > "$T/fstab"
now() { date +%s.%N; }
sync; echo 3 > /proc/sys/vm/drop_caches
t0=$(now)
"$H" apply --size ${GIB}G --target "$M" --fstab "$T/fstab" --state-dir "$T/state" --yes >/dev/null
t1=$(now)
hr=$(echo "$t1 - $t0" | bc)
"$H" rollback --fstab "$T/fstab" --state-dir "$T/state" --yes >/dev/null
sync; echo 3 > /proc/sys/vm/drop_caches
t0=$(now)
dd if=/dev/zero of="$M/dd.swap" bs=1M count=$((GIB * 1024)) status=none conv=fsync
chmod 600 "$M/dd.swap"; mkswap -q "$M/dd.swap" >/dev/null; swapon "$M/dd.swap"
t1=$(now)
dd=$(echo "$t1 - $t0" | bc)
swapoff "$M/dd.swap"
printf 'swap file of %d GiB on loop-mounted ext4, create + enable:\n' "$GIB"
printf '  headroom apply --yes      %8.3f s  (fallocate, own header, swapon, fstab, state)\n' "$hr"
printf '  dd + mkswap + swapon      %8.3f s  (writes every byte)\n' "$dd"
printf '  ratio dd / headroom       %8.1f x\n' "$(echo "$dd / $hr" | bc -l)"
