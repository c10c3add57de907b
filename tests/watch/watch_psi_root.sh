#!/usr/bin/env bash
# watch wakes on memory pressure: with --interval 60000 the second sample is due in a minute,
# but a PSI trigger on /proc/pressure/memory ends the wait as soon as the system stalls on
# memory. The stall is real: four readers loop over a 200 MB file inside a 16 MB memory
# cgroup, so every read reclaims (direct reclaim counts as a memory stall). The second sample
# must come long before the minute. SKIP (77) without root, a memory cgroup, PSI, or a kernel
# that accepts a trigger.
# Usage: watch_psi_root.sh HEADROOM [watch|run]. run: the same stall must wake `run` (its
# child waits for a file, so the second sample cannot be the one taken after the end).
set -u
bin=$1
mode=${2:-watch}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (makes a memory cgroup)"; exit 77; }
[ -r /proc/pressure/memory ] || { echo "SKIP: no /proc/pressure/memory (kernel without PSI, or psi=0)"; exit 77; }
python3 - <<'PY' || { echo "SKIP: the kernel refuses a PSI trigger on /proc/pressure/memory"; exit 77; }
import os, sys
for t in (b"some 100000 1000000\0", b"some 200000 2000000\0"):
    fd = os.open("/proc/pressure/memory", os.O_RDWR | os.O_NONBLOCK)
    try:
        os.write(fd, t)
        sys.exit(0)
    except OSError:
        pass
    finally:
        os.close(fd)
sys.exit(1)
PY
if [ -f /sys/fs/cgroup/memory/memory.usage_in_bytes ]; then
    cg=/sys/fs/cgroup/memory/hr-test-psi-$$; limit=memory.limit_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    cg=/sys/fs/cgroup/hr-test-psi-$$; limit=memory.max
else
    echo "SKIP: no memory cgroup controller"; exit 77
fi
tmp=$(mktemp -d /var/tmp/hr-psi.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    if [ -d "$cg" ]; then
        for _ in $(seq 50); do
            procs=$(cat "$cg/cgroup.procs" 2>/dev/null)
            [ -z "$procs" ] && break
            kill $procs 2>/dev/null
            sleep 0.1
        done
        rmdir "$cg" 2>/dev/null || echo "note: could not remove $cg"
    fi
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$cg" && echo 16M >"$cg/$limit" || { echo "SKIP: cannot make a memory cgroup"; exit 77; }
# no swap for the readers, even where another test turned some on
[ -f "$cg/memory.swap.max" ] && echo 0 >"$cg/memory.swap.max"
[ -f "$cg/memory.memsw.limit_in_bytes" ] && echo 16M >"$cg/memory.memsw.limit_in_bytes" 2>/dev/null
dd if=/dev/urandom of="$tmp/big" bs=1M count=200 conv=fsync status=none
# out of the page cache (written back first: dirty pages would stay; cached, they are charged
# to this shell's cgroup and the readers would never reclaim): the readers' pages are
# then charged to the small cgroup, which must reclaim for every megabyte read
dd if="$tmp/big" iflag=nocache count=0 status=none

start=$(date +%s%N)
if [ "$mode" = run ]; then
    # the child ends when told (or after 50 s): the test stops it once two samples are there
    "$bin" run --interval 60000 --no-cgroup --record "$tmp/out" -- \
        bash -c 'for _ in $(seq 500); do [ -e "$1" ] && exit 0; sleep 0.1; done' - "$tmp/stop" \
        >/dev/null 2>"$tmp/err" & w=$!
    ( for _ in $(seq 300); do
          [ "$(grep -c '"type":"sample"' "$tmp/out" 2>/dev/null)" -ge 2 ] && break; sleep 0.1
      done; touch "$tmp/stop" ) &
    pids+=("$!")
else
    "$bin" watch --interval 60000 --count 2 --json >"$tmp/out" 2>"$tmp/err" & w=$!
fi
pids+=("$w")
sleep 1
for i in 1 2 3 4; do
    ( echo $BASHPID >"$cg/cgroup.procs"
      end=$((SECONDS + 40))
      while [ $SECONDS -lt $end ]; do dd if="$tmp/big" of=/dev/null bs=256k status=none; done ) &
    pids+=("$!")
done
# the watch ends by itself after its second sample; give it 30 s of the 60
for _ in $(seq 300); do kill -0 "$w" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$w" 2>/dev/null; then
    echo "FAIL: no second sample within 30 s of memory pressure (the PSI trigger did not wake $mode)"
    cat /proc/pressure/memory
    exit 1
fi
wait "$w"; st=$?
el=$((($(date +%s%N) - start) / 1000000))
cat "$tmp/err"
[ $st -eq 0 ] || { echo "FAIL: $mode exited $st"; exit 1; }
python3 - "$tmp/out" <<'PY' || exit 1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
s = [l for l in lines if l["type"] == "sample"]
assert len(s) >= 2, lines
gap = s[1]["t"] - s[0]["t"]
assert gap < 30000, "second sample %d ms after the first" % gap
print("second sample %d ms after the first (interval 60000 ms): woken by memory pressure; "
      "psi some avg10 %.2f" % (gap, s[1]["psi_some_avg10"]))
PY
echo "PASS ($mode ran ${el} ms)"
