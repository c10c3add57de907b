#!/usr/bin/env bash
# watch under the systemd journal (a service): when JOURNAL_STREAM names stderr's device and
# inode, watch writes the events alone, one line each, starting with the syslog priority that
# journald reads ("<4>" a warning, "<2>" critical), and no line per sample. A variable naming
# another file changes nothing.
# Usage: watch_journal.sh HEADROOM [plain|root]
#   plain  the detection: sample lines without the journal, none with it
#   root   real warnings (a process growing in a memory cgroup of 400 MB) at their priorities;
#          SKIP (77) without root or a memory cgroup controller
set -u
bin=$1
mode=${2:-plain}
tmp=$(mktemp -d /var/tmp/hr-journal.XXXXXX)
fail=0
bad() { echo "FAIL: $*"; fail=1; }
: >"$tmp/err"
stream=$(stat -L -c '%d:%i' "$tmp/err")

if [ "$mode" = plain ]; then
    trap 'rm -rf "$tmp"' EXIT
    : >"$tmp/other"
    other=$(stat -L -c '%d:%i' "$tmp/other")
    JOURNAL_STREAM=$other "$bin" watch --count 3 --interval 100 >"$tmp/out" 2>"$tmp/err" ||
        bad "watch (JOURNAL_STREAM of another file) exited $?"
    [ "$(wc -l <"$tmp/out")" -eq 3 ] || bad "JOURNAL_STREAM of another file: not a line per sample: $(cat "$tmp/out")"
    JOURNAL_STREAM=$stream "$bin" watch --count 3 --interval 100 >"$tmp/out" 2>>"$tmp/err" ||
        bad "watch (JOURNAL_STREAM of its stderr) exited $?"
    [ -s "$tmp/out" ] && bad "under the journal, lines on stdout: $(head -3 "$tmp/out")"
    grep -q 'RAM ' "$tmp/err" && bad "under the journal, sample lines on stderr: $(head -3 "$tmp/err")"
    JOURNAL_STREAM=$stream "$bin" watch --count 2 --interval 100 --json >"$tmp/out" 2>>"$tmp/err" ||
        bad "watch --json (JOURNAL_STREAM) exited $?"
    [ "$(grep -c '"type":"sample"' "$tmp/out")" -eq 2 ] || bad "--json under the journal lost its samples"
    JOURNAL_STREAM=garbage "$bin" watch --count 2 --interval 100 >"$tmp/out" 2>/dev/null
    [ "$(wc -l <"$tmp/out")" -eq 2 ] || bad "JOURNAL_STREAM=garbage: not a line per sample"
    [ $fail -eq 0 ] && echo "watch.journal: ok"
    exit $fail
fi

[ "$(id -u)" = 0 ] || { rm -rf "$tmp"; echo "SKIP: needs root (makes a memory cgroup)"; exit 77; }
if [ -f /sys/fs/cgroup/memory/memory.usage_in_bytes ]; then
    cg=/sys/fs/cgroup/memory/hr-test-journal-$$; limit=memory.limit_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    cg=/sys/fs/cgroup/hr-test-journal-$$; limit=memory.max
else
    rm -rf "$tmp"; echo "SKIP: no memory cgroup controller"; exit 77
fi
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    if [ -d "$cg" ]; then
        for _ in $(seq 50); do
            procs=$(cat "$cg/cgroup.procs" 2>/dev/null)
            [ -z "$procs" ] && break
            kill $procs 2>/dev/null
            sleep 0.1
        done
        rmdir "$cg" 2>/dev/null || echo "note: could not remove $cg"
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$cg" && echo 400M >"$cg/$limit" || { echo "SKIP: cannot make a memory cgroup"; exit 77; }
[ -f "$cg/memory.swap.max" ] && echo 0 >"$cg/memory.swap.max"
[ -f "$cg/memory.memsw.limit_in_bytes" ] && echo 400M >"$cg/memory.memsw.limit_in_bytes" 2>/dev/null

# The grower: 120 MB at once (past a quarter of the limit), flat until told, then 15 MB/s for
# 3 s — the limit in about 20 s at that rate, which is a warning (under 60 s, not under 10) — then 370 MB at once
# (over 90 %: the cgroup rule, critical), in well under a second.
python3 - "$cg/cgroup.procs" "$tmp/go" "$tmp/ready" "$tmp/done" <<'PY' &
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
chunks = [bytearray(os.urandom(1) * (120 << 20))]
open(sys.argv[3], "w").close()
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
for _ in range(30):
    chunks.append(bytearray(b"x" * (3 << 19)))
    time.sleep(0.1)
for _ in range(21):  # in 10 MB pieces: no transient copy of the whole
    chunks.append(bytearray(b"y" * (10 << 20)))
open(sys.argv[4], "w").close()
time.sleep(60)
PY
pids+=($!)
grower=$!
for _ in $(seq 200); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
[ -e "$tmp/ready" ] || { bad "the grower did not start"; exit 1; }

JOURNAL_STREAM=$stream "$bin" watch --pid "$grower" --interval 200 >"$tmp/out" 2>"$tmp/err" &
w=$!
pids+=($w)
sleep 1.5
touch "$tmp/go"
# until the grower is done, and a second more for watch to see it; then Ctrl-C
for _ in $(seq 300); do [ -e "$tmp/done" ] && break; sleep 0.1; done
sleep 1
kill -INT "$w"
wait "$w" || bad "watch exited $?"
cat "$tmp/err"
[ -s "$tmp/out" ] && bad "under the journal, lines on stdout: $(head -3 "$tmp/out")"
grep -Eq '^<4>WARNING: .*limit' "$tmp/err" || bad "no <4> warning line (time to the limit)"
grep -Eq '^<2>CRITICAL: .*cgroup' "$tmp/err" || bad "no <2> critical line (the cgroup near its limit)"
grep -Ev '^<[2456]>' "$tmp/err" | grep -q . && bad "a line without its priority: $(grep -Ev '^<[2456]>' "$tmp/err" | head -1)"
[ $fail -eq 0 ] && echo "watch.root.journal: ok"
exit $fail
