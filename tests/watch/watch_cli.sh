#!/usr/bin/env bash
# watch end to end on this machine: JSON lines that parse, a process tree found by name and
# by pid (real processes), the recording file, plain lines on a pipe, and the refusals.
set -u
bin=$1
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# a small process tree: a shell with a child holding ~20 MB
python3 -c 'import time; b = bytearray(20 << 20); time.sleep(60)  # hr-watch-test-tree' &
pids+=($!)
tree=$!
# wait until the child holds its 20 MB (python starts slowly on a busy machine)
for _ in $(seq 100); do
    rss=$(awk '/^VmRSS/ {print $2}' /proc/$tree/status 2>/dev/null)
    [ "${rss:-0}" -gt 20480 ] && break
    sleep 0.1
done

# GPU memory comes from NVML where the driver is installed; without it the fields are null
# and nothing is said about it (no link-time dependency: the binary starts either way)
nvml=0
ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 ' && nvml=1
"$bin" watch --count 4 --interval 100 --json --name hr-watch-test-tree >"$tmp/out.jsonl" 2>"$tmp/out.err" || bad "watch --json exited $?"
[ -s "$tmp/out.err" ] && bad "watch --json wrote to stderr: $(cat "$tmp/out.err")"
python3 - "$tmp/out.jsonl" "$nvml" <<'PY' || { bad "JSON lines"; cat "$tmp/out.jsonl"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
nvml = sys.argv[2] == "1"
for s in (l for l in lines if l["type"] == "sample"):
    if nvml:
        # the driver lists the tree's processes (none of them here uses the GPU: 0)
        assert s["vram_total"] > 0 and s["proc_vram"] is not None, s
    else:
        assert s["vram_used"] is None and s["vram_total"] is None and s["proc_vram"] is None, s
types = [l["type"] for l in lines]
assert types[0] == "header" and lines[0]["schema"] == "headroom.recording/1", types
assert types[-1] == "end" and lines[-1]["samples"] == 4, lines[-1]
samples = [l for l in lines if l["type"] == "sample"]
assert len(samples) == 4
for s in samples:
    assert s["ram_total"] > 0 and s["ram_used"] > 0 and s["commit_limit"] > 0, s
    assert s["proc_count"] >= 1, s
    assert s["proc_rss"] >= 20 << 20, s
ts = [s["t"] for s in samples]
# a fixed grid: single gaps jitter on a busy machine, and memory pressure appearing (a PSI
# trigger, as when the sanitizer builds run beside this) takes a sample at once and keeps the
# cadence from there, so one gap may be short: the median gap holds the interval
assert all(b > a for a, b in zip(ts, ts[1:])), ts
gaps = sorted(b - a for a, b in zip(ts, ts[1:]))
assert gaps[len(gaps) // 2] >= 90, ts
# a paging rate is per second between two samples: the first has none
assert samples[0]["pages_in_ps"] is None and samples[0]["pages_out_ps"] is None, samples[0]
PY

"$bin" watch --count 2 --interval 100 --pid "$tree" --record "$tmp/rec.jsonl" >"$tmp/plain.txt" || bad "watch --record exited $?"
grep -q '"type":"end"' "$tmp/rec.jsonl" || bad "the recording has no end line"
grep -q '"pid":'"$tree" "$tmp/rec.jsonl" || bad "the header has no pid"
[ "$(wc -l <"$tmp/plain.txt")" -eq 2 ] || bad "plain output is not one line per sample: $(cat "$tmp/plain.txt")"
grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}  RAM [0-9.]+/[0-9.]+ GB' "$tmp/plain.txt" || bad "plain line: $(head -1 "$tmp/plain.txt")"
grep -q $'\x1b' "$tmp/plain.txt" && bad "escape sequences on a pipe"

"$bin" watch --pid 1 --name x --count 1 >/dev/null 2>&1; [ $? -eq 64 ] || bad "--pid with --name is not 64"
"$bin" watch --interval 10 --count 1 >/dev/null 2>&1; [ $? -eq 64 ] || bad "--interval 10 is not 64"
"$bin" watch --count 1 --record /nonexistent-dir/x.jsonl >/dev/null 2>&1; [ $? -eq 73 ] || bad "an uncreatable recording is not 73"
"$bin" watch --help | grep -q -- '--record' || bad "--help"
[ $fail -eq 0 ] && echo "watch.cli: ok"
exit $fail
