#!/usr/bin/env bash
# A report that cannot be written is an error (74), not a success: status, check and plan
# (text and JSON) and the help pages, written to /dev/full. Usage: full_disk.sh HEADROOM FIXTURES
set -u
hr=$1
fx=$2
[ -w /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }
fails=0
run() {
    "$@" >/dev/full 2>/dev/null
    local got=$?
    if [ "$got" -eq 74 ]; then echo "ok   exit 74: ${*#"$hr" }"; else
        echo "FAIL exit $got, want 74: ${*#"$hr" }"; fails=$((fails + 1)); fi
}
tree=$fx/linux/btrfs-swapfile
run "$hr" status --sysroot "$tree"
run "$hr" status --sysroot "$tree" --json
run "$hr" plan --sysroot "$tree" --vram 8G
run "$hr" plan --sysroot "$tree" --vram 8G --json
run "$hr" check --sysroot "$tree" --vram 8G --workload video   # a verdict of 2, and still 74
run "$hr" check --sysroot "$tree" --vram 8G --json
run "$hr" check --replay "$fx/windows/laptop-16g-auto-full-c.json"
# verify, apply (a dry run) and rollback report on stdout too (issue 9: they exited 0), and
# diagnose: on their own state directory and fstab, nothing of the machine's.
# The target is in the build folder (a /tmp that is a tmpfs is refused, rightly).
tmp=$(mktemp -d "$PWD/full_disk.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
: >"$tmp/fstab"; mkdir "$tmp/target"
run "$hr" verify --state-dir "$tmp/state" --fstab "$tmp/fstab"
# (A dry run this machine refuses, short of room, writes nothing: then there is no report.)
if "$hr" apply --state-dir "$tmp/state" --fstab "$tmp/fstab" --size 2G --target "$tmp/target" >/dev/null 2>&1; then
    run "$hr" apply --state-dir "$tmp/state" --fstab "$tmp/fstab" --size 2G --target "$tmp/target"
    run "$hr" apply --state-dir "$tmp/state" --fstab "$tmp/fstab" --size 2G --target "$tmp/target" --json
else
    echo "skip apply: the dry run is refused here ($?)"
fi
run "$hr" rollback --state-dir "$tmp/state" --fstab "$tmp/fstab"
run "$hr" diagnose --no-system "$fx/../diagnose/corpus/comfy-defaultcpuallocator.log"
run "$hr" --help
run "$hr" plan --help
run "$hr" --version
echo "$fails failed"
[ "$fails" -eq 0 ]
