#!/bin/sh
# A real OOM kill in a memory cgroup, then `headroom diagnose` must find it in the kernel's
# own records. Needs root and a memory controller (cgroup v1 or v2); prints SKIP (77)
# otherwise. Cleans up the cgroup it creates.
# usage: memcg.sh HEADROOM OOM_CHILD
set -u
HR=$1
CHILD=$2
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root (creates a memory cgroup)"
LIMIT=$((64 * 1024 * 1024))
NAME="headroom-diagnose-test-$$"
CG=""
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
    CG=/sys/fs/cgroup/$NAME; V=2; PARENT=/sys/fs/cgroup
elif [ -f /sys/fs/cgroup/unified/cgroup.controllers ] &&
     grep -qw memory /sys/fs/cgroup/unified/cgroup.controllers; then
    CG=/sys/fs/cgroup/unified/$NAME; V=2; PARENT=/sys/fs/cgroup/unified
elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    CG=/sys/fs/cgroup/memory/$NAME; V=1
else
    skip "no memory cgroup controller mounted"
fi

cleanup() {
    if [ -d "$CG" ]; then
        # Anything left inside goes back to the parent before the group is removed.
        if [ -f "$CG/cgroup.procs" ]; then
            for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        fi
        # the kernel may take a moment to release a killed group's last charges
        for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
            rmdir "$CG" 2>/dev/null && break
            sleep 0.1
        done
        [ -d "$CG" ] && echo "warning: could not remove $CG"
    fi
}
trap cleanup EXIT INT TERM

mkdir "$CG" || skip "cannot create $CG"
if [ "$V" = 2 ]; then
    grep -qw memory "$PARENT/cgroup.subtree_control" ||
        echo +memory > "$PARENT/cgroup.subtree_control" 2>/dev/null ||
        skip "cannot enable the memory controller under $PARENT"
    echo $LIMIT > "$CG/memory.max" || fail "cannot set memory.max"
    [ -f "$CG/memory.swap.max" ] && echo 0 > "$CG/memory.swap.max"
else
    echo $LIMIT > "$CG/memory.limit_in_bytes" || fail "cannot set memory.limit_in_bytes"
    # memory+swap limit too, when swap accounting exists, so the child cannot swap out
    [ -f "$CG/memory.memsw.limit_in_bytes" ] && echo $LIMIT > "$CG/memory.memsw.limit_in_bytes"
fi

# The child joins the cgroup, then becomes the allocator (same pid).
sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" 1024' sh "$CG" "$CHILD" 2>/dev/null &
PID=$!
wait $PID
STATUS=$?
echo "child pid $PID exit status $STATUS"
[ "$STATUS" = 137 ] || fail "the child was not SIGKILLed (status $STATUS); no OOM kill to find"

# The kernel's record, as the kernel wrote it (for the log of this test).
OUT=$(mktemp)
trap 'rm -f "$OUT"; cleanup' EXIT INT TERM
"$HR" diagnose --since 10m --pid "$PID" --json </dev/null >"$OUT"
RC=$?
cat "$OUT"
[ "$RC" = 0 ] || fail "headroom diagnose exit status $RC, expected 0 (a cause found)"
grep -q '"cause": "killed"' "$OUT" || fail "cause is not killed"
grep -q "Memory cgroup out of memory: Killed process $PID " "$OUT" ||
    fail "no evidence 'Memory cgroup out of memory: Killed process $PID' from the kernel"
grep -q '"source": "/dev/kmsg"\|"source": "dmesg"\|"source": "journal (kernel)"' "$OUT" ||
    fail "the evidence does not come from the kernel log"
grep -q "\"pid\": $PID" "$OUT" || fail "the victim's pid $PID is not reported"
echo "PASS: diagnose found the memcg OOM kill of pid $PID in the kernel log"
