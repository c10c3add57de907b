#!/usr/bin/env bash
# watch --comfyui against a hostile server (tests/comfyui/peer.js --scenario hostile, on
# 127.0.0.1 only, gone after 60 s): the peak resident memory (VmHWM, through GNU time) of watch
# under each attack, as a ratio against plain `watch` (no --comfyui) measured in the same run, and the
# largest gap between two samples at a 200 ms interval.
# Usage: watch_hostile.sh HEADROOM. Exit 77 (skipped) without node and its ws package.
set -u
bin=$1
here=$(cd "$(dirname "$0")/../tests/comfyui" && pwd)
if ! command -v node >/dev/null 2>&1 || ! (cd "$here" && node -e "require('ws')" 2>/dev/null); then
    echo "node or its ws package is missing (tools/install-deps.sh --tests)"
    exit 77
fi
count=25
[ -n "${HR_BENCH_SMOKE:-}" ] && count=5
attacks="huge ping-flood text-flood cont-flood slow-queue never"
[ -n "${HR_BENCH_SMOKE:-}" ] && attacks="huge"
tmp=$(mktemp -d)
peer_pid=
trap '[ -n "$peer_pid" ] && kill "$peer_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
# Each run's own peak (VmHWM at exit) through GNU time, which forks watch from its own small
# process. A child forked from python3 starts with python's pages counted (about 14 MB):
# ru_maxrss read there measures python, not watch, and hid everything below it.
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is missing: each run's peak cannot be read"; exit 77; }
peak_py='
import subprocess
def peak(argv, **kw):
    p = subprocess.run(["/usr/bin/time", "-f", "maxrss %M"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, **kw)
    return int([l for l in p.stderr.splitlines() if l.startswith("maxrss ")][-1].split()[1])
'
python3 - "$bin" "$count" <<PY
$peak_py
import sys
b, count = sys.argv[1], sys.argv[2]
print("plain watch: peak %d kB" % peak([b, "watch", "--interval", "200", "--count", count]))
PY
for a in $attacks; do
    : >"$tmp/peer.out"
    NODE_PATH="$here/node_modules" node "$here/peer.js" --scenario hostile --attack "$a" --ttl 60 \
        >"$tmp/peer.out" 2>/dev/null &
    peer_pid=$!
    for _ in $(seq 100); do grep -q '^PORT ' "$tmp/peer.out" && break; sleep 0.1; done
    port=$(awk '/^PORT / {print $2; exit}' "$tmp/peer.out")
    python3 - "$bin" "$count" "$port" "$a" "$tmp/rec.jsonl" <<PY
$peak_py
import json, sys
b, count, port, attack, rec = sys.argv[1:]
def run(args):
    return peak([b, "watch", "--interval", "200", "--count", count] + args)
plain = run([])                                  # the peer, in the same run
hostile = run(["--comfyui", port, "--record", rec])
t = [l["t"] for l in map(json.loads, open(rec)) if l["type"] == "sample"]
gap = max(y - x for x, y in zip(t, t[1:])) if len(t) > 1 else 0
print("%-11s peak %6d kB = %.2fx plain watch; largest gap between samples %d ms at 200 ms"
      % (attack, hostile, hostile / plain, gap))
PY
    kill "$peer_pid" 2>/dev/null; wait "$peer_pid" 2>/dev/null; peer_pid=
done
