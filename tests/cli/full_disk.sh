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
run "$hr" --help
run "$hr" plan --help
run "$hr" --version
echo "$fails failed"
[ "$fails" -eq 0 ]
