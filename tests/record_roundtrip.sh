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

bash "$REC" "$TMP/live" 2>/dev/null
"$BIN" status --json >"$TMP/live.json" || true
"$BIN" status --sysroot "$TMP/live" --json >"$TMP/tree.json" || true
python3 - "$TMP/live.json" "$TMP/tree.json" <<'PY'
import json, sys
live, tree = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
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
a, b = stable(live), stable(tree)
if a != b:
    for k in a:
        if a.get(k) != b.get(k):
            print("FAIL: %s differs:\n live %s\n tree %s" % (k, json.dumps(a.get(k)), json.dumps(b.get(k))), file=sys.stderr)
    sys.exit(1)
print("ok: this machine recorded; the tree's report matches the live one")
PY
