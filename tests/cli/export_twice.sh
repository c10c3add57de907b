#!/usr/bin/env bash
# Two `export --textfile` loops at once into one folder (two cron jobs, a timer and a hand):
# every run succeeds, each time the collector reads a whole file, and no temporary file is
# left behind. Usage: export_twice.sh HEADROOM FIXTURES [RUNS]
set -u
hr=$1
fx=$2
runs=${3:-150}
tmp=$(mktemp -d "$PWD/export_twice.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
loop() {
    local fails=0
    for _ in $(seq "$runs"); do
        "$hr" export --sysroot "$fx/linux/btrfs-swapfile" --textfile "$tmp/prom" 2>>"$tmp/err.$1" ||
            fails=$((fails + 1))
    done
    echo "$fails" >"$tmp/fails.$1"
}
mkdir "$tmp/prom"
loop a & loop b & wait
fa=$(cat "$tmp/fails.a") fb=$(cat "$tmp/fails.b")
rc=0
if [ "$fa" -ne 0 ] || [ "$fb" -ne 0 ]; then
    echo "FAIL: $fa and $fb of $runs runs failed each; first error: $(head -n 1 "$tmp"/err.* | grep -v '^==' | head -n 1)"
    rc=1
fi
left=$(ls -A "$tmp/prom" | grep -vx headroom.prom)
[ -z "$left" ] || { echo "FAIL: left behind: $left"; rc=1; }
tail -n 1 "$tmp/prom/headroom.prom" | grep -q '^headroom_' || { echo "FAIL: the file is not whole"; rc=1; }
[ "$rc" = 0 ] && echo "ok   2 x $runs exports at once, none failed, nothing left behind"
exit "$rc"
