#!/usr/bin/env bash
# tools/record-linux-sysroot.sh must capture everything `headroom status` reads:
# 1. re-recording each fixture tree (HR_RECORD_SOURCE) gives a tree with the same report;
# 2. recording this machine gives a tree whose report matches the live one in everything
#    that does not move by itself (RAM total, swap areas and their devices, file systems,
#    cgroup, kernel, container).
#
#   tests/record_roundtrip.sh HEADROOM_BINARY FIXTURES_DIR
set -euo pipefail
BIN=$1
FIX=$2
HERE=$(cd "$(dirname "$0")/.." && pwd)
REC=$HERE/tools/record-linux-sysroot.sh
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hr-record.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

n=0
for dir in "$FIX"/linux/*/; do
    name=$(basename "$dir")
    HR_RECORD_SOURCE=$(cd "$dir" && pwd) bash "$REC" "$TMP/$name" 2>/dev/null
    rc=0
    "$BIN" status --sysroot "$TMP/$name" --json >"$TMP/$name.json" || rc=$?
    if ! cmp -s "$TMP/$name.json" "$dir/expected.json"; then
        diff -u "$dir/expected.json" "$TMP/$name.json" >&2 || true
        echo "FAIL: re-recording $name changes the report" >&2
        exit 1
    fi
    n=$((n + 1))
done
echo "ok: $n fixture trees re-recorded with the same report"

# The live part compares a recording with live readings: what other processes change on
# their own time (swap areas turned on and off, file systems mounted, a balloon resizing RAM)
# can move between the two. So the recording is bracketed by a live reading before and after
# it: when those two agree the machine held still, and the tree must match them exactly;
# when they differ the machine moved under the recording, and it is taken again.
cat >"$TMP/compare.py" <<'PY'
import json, sys
before, after, tree = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:4])
def stable(d):
    # Drop what moves by itself between two reads, and what a tree cannot know (NVML).
    moving = {"available_bytes", "used_bytes", "charge_bytes", "memory_current_bytes",
              "memory_peak_bytes", "fs_free_bytes", "orig_data_bytes", "compr_data_bytes",
              "mem_used_bytes", "pool_bytes", "stored_bytes", "compressed_bytes", "real_ceiling_bytes",
              "limit_bytes", "oom_kills", "battery_percent", "gpus", "gpus_status", "partial"}
    if isinstance(d, dict):
        return {k: stable(v) for k, v in d.items() if k not in moving}
    if isinstance(d, list):
        return [stable(v) for v in d]
    return d
def differ(a, b, how):
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print("%s: %s differs:\n  %s\n  %s" % (how, k, json.dumps(a.get(k)), json.dumps(b.get(k))),
                  file=sys.stderr)
a, b, t = stable(before), stable(after), stable(tree)
if a != b:
    differ(a, b, "the machine moved during the recording")
    sys.exit(2)
if b != t:
    differ(b, t, "FAIL: live and tree")
    sys.exit(1)
print("ok: this machine recorded; the tree's report matches the live one")
PY
tries=10
for try in $(seq "$tries"); do
    rm -rf "$TMP/live"
    "$BIN" status --json >"$TMP/before.json" || true
    bash "$REC" "$TMP/live" 2>/dev/null
    "$BIN" status --json >"$TMP/after.json" || true
    "$BIN" status --sysroot "$TMP/live" --json >"$TMP/tree.json" || true
    rc=0
    python3 "$TMP/compare.py" "$TMP/before.json" "$TMP/after.json" "$TMP/tree.json" || rc=$?
    [ "$rc" = 2 ] || exit "$rc"
    sleep 1
done
echo "SKIP: the machine moved during each of $tries recordings (swap areas or mounts changing)"
exit 77
