#!/usr/bin/env bash
# A real OOM kill: `run --limit 200M` puts the child in a memory cgroup of its own (200 MB,
# no swap); the child allocates 50 MB/s until the kernel kills it. run must warn before the
# kill, and its verdict must be "killed" with the kernel's record naming the child.
# Needs root and a memory cgroup controller; SKIP (77) otherwise.
set -u
bin=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (makes a memory cgroup)"; exit 77; }
[ -f /sys/fs/cgroup/memory/memory.usage_in_bytes ] || grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null ||
    { echo "SKIP: no memory cgroup controller"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/hog.py" <<'PY'
import time
held = []
while True:
    held.append(b"x" * (5 << 20))   # touched, not lazily zero
    time.sleep(0.1)
PY
"$bin" run --limit 200M --interval 100 --record "$tmp/oom.jsonl" -- python3 "$tmp/hog.py" >"$tmp/out" 2>"$tmp/err"
st=$?
cat "$tmp/err"
[ $st -eq 137 ] || bad "status $st, not 137 (SIGKILL)"
python3 - "$tmp/oom.jsonl" <<'PY' || bad "the recording"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
v = lines[-1]
assert v["type"] == "verdict", v
assert v["cause"] == "killed" and v["confidence"] == "high", v
assert v["kernel_record"] is True, "no kernel record naming the child: %r" % v["evidence"]
assert any("oom_kill" in e["text"] for e in v["evidence"]), v["evidence"]
ex = [l for l in lines if l["type"] == "exit"][0]
assert ex["signal"] == 9 and ex["cgroup_oom_kill"] >= 1, ex
warnings = [l for l in lines if l["type"] == "warning"]
assert warnings, "no warning before the kill"
assert warnings[0]["t"] < ex["t"], (warnings[0], ex)
assert v["warned_before"] is True
lead = ex["t"] - warnings[0]["t"]
print("first warning %s at t=%d ms, the kill seen at t=%d ms: %.1f s ahead" % (warnings[0]["rule"], warnings[0]["t"], ex["t"], lead / 1000))
PY
grep -q "Killed by the operating system" "$tmp/err" || bad "the verdict text"
# the cgroup is gone again
ls -d /sys/fs/cgroup/memory/headroom-run-* /sys/fs/cgroup/headroom-run-* 2>/dev/null | grep -q . && bad "a headroom-run cgroup was left behind"
[ $fail -eq 0 ] && echo "run.root.oom_kill: ok"
exit $fail
