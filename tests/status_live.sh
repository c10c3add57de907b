#!/usr/bin/env bash
# headroom status on this machine, checked against the tools users compare it with:
# free(1) for RAM and swapon(8) for every swap area.
#
#   tests/status_live.sh HEADROOM_BINARY
#
# What is compared, and why the tolerances:
# - RAM total: equal to the byte (both are MemTotal x 1024).
# - RAM available: free's "available" is MemAvailable x 1024 too, but it is read a moment
#   later and moves with the page cache: within 5 % of RAM.
# - Swap: the same set of areas as `swapon --show --bytes --raw`, each with the same size
#   to the byte and the same priority; "used" moves, so within 5 % of the area (at least
#   64 MiB). swapon's SIZE is /proc/swaps' Size (KiB) x 1024, which the kernel computes
#   from the usable pages: the header page is NOT counted (a 64 MiB file shows 65532 KiB,
#   67104768 bytes; mkswap prints the same "size = 64 MiB (67104768 bytes)"). headroom's
#   size_bytes is the same figure.
# Exits 77 (ctest skip) where free or swapon is missing.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 HEADROOM_BINARY" >&2
    exit 2
fi
BIN=$1
for tool in free swapon python3; do
    if ! command -v "$tool" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$tool" ] && ! [ -x "/sbin/$tool" ]; then
        echo "SKIP: needs $tool (procps / util-linux / python3)"
        exit 77
    fi
done
export PATH="$PATH:/usr/sbin:/sbin"

# Root tests add and remove swap areas; wait for them (the lock they take, machine-wide)
# when the lock can be opened, else rely on the retries below.
if command -v flock >/dev/null && { exec 9>>/run/lock/headroom-apply-root-tests.lock; } 2>/dev/null; then
    flock -w 1200 9 || echo "note: a root test held the swap lock for 20 minutes; comparing anyway"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/hr-live.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# swapon's default columns: NAME TYPE SIZE USED PRIO (later ones, if any, are ignored).
# Another program may add or remove swap meanwhile: take the swap list before and after
# headroom, and retry until they agree.
list_swap() { swapon --show --bytes --noheadings --raw | awk '{ print $1, $2, $3, $5 }'; }
for attempt in 1 2 3 4 5; do
    swapon --show --bytes --noheadings --raw >"$TMP/swapon.txt"
    list_swap >"$TMP/before.txt"
    rc=0
    "$BIN" status --json >"$TMP/status.json" 2>"$TMP/err.txt" || rc=$?
    free -b >"$TMP/free.txt"
    list_swap >"$TMP/after.txt"
    cmp -s "$TMP/before.txt" "$TMP/after.txt" && break
    echo "note: the swap list changed during the run (attempt $attempt); again"
    sleep 1
done
if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
    cat "$TMP/err.txt" >&2
    echo "FAIL: headroom status --json exited $rc" >&2
    exit 1
fi

python3 - "$TMP/status.json" "$TMP/free.txt" "$TMP/swapon.txt" "$rc" <<'EOF'
import json, re, sys

doc = json.load(open(sys.argv[1], encoding="utf-8"))
rc = int(sys.argv[4])
failures = []

def check(cond, msg):
    if not cond:
        failures.append(msg)

# A live machine: RAM and swap must be known; a partial report must say why.
check(doc["ram"]["unknown_reason"] is None, "RAM unknown: %s" % doc["ram"]["unknown_reason"])
check(doc["paging_status"]["unknown_reason"] is None,
      "swap list unknown: %s" % doc["paging_status"]["unknown_reason"])
if rc == 3:
    reasons = [doc[s]["unknown_reason"] for s in ("ram", "commit", "paging_status", "volumes_status",
               "compression", "cgroup", "gpus_status", "power") if doc[s]["unknown_reason"]]
    check(reasons, "exit status 3 without a reason")
    print("note: partial report here: %s" % "; ".join(reasons))

mem = None
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[0] == "Mem:":
        mem = {"total": int(f[1]), "available": int(f[6])}
check(mem is not None, "free -b printed no Mem: line")
if mem:
    ram = doc["ram"]
    check(ram["total_bytes"] == mem["total"],
          "RAM total: headroom %s, free %d" % (ram["total_bytes"], mem["total"]))
    tol = mem["total"] // 20
    check(abs(ram["available_bytes"] - mem["available"]) <= tol,
          "RAM available: headroom %s, free %d (tolerance %d)" % (ram["available_bytes"], mem["available"], tol))
    check(ram["used_bytes"] == ram["total_bytes"] - ram["available_bytes"], "used != total - available")

def unraw(s):
    # util-linux --raw escapes unsafe bytes as \xHH
    return re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), s.encode()).decode("utf-8", "replace")

areas = {}
for line in open(sys.argv[3], encoding="utf-8", errors="replace"):
    f = line.split()
    if len(f) < 5:
        continue
    areas[unraw(f[0])] = {"type": f[1], "size": int(f[2]), "used": int(f[3]), "prio": int(f[4])}

mine = {p["path"]: p for p in doc["paging"]}
check(set(mine) == set(areas), "swap areas: headroom %s, swapon %s" % (sorted(mine), sorted(areas)))
check(doc["paging_status"]["count"] == len(areas), "paging count %d, swapon %d" % (doc["paging_status"]["count"], len(areas)))
for path, a in areas.items():
    p = mine.get(path)
    if not p:
        continue
    check(p["size_bytes"] == a["size"], "%s size: headroom %s, swapon %d" % (path, p["size_bytes"], a["size"]))
    check(p["priority"] == a["prio"], "%s priority: headroom %s, swapon %d" % (path, p["priority"], a["prio"]))
    tol = max(a["size"] // 20, 64 << 20)
    check(abs(p["used_bytes"] - a["used"]) <= tol,
          "%s used: headroom %s, swapon %d" % (path, p["used_bytes"], a["used"]))
    want = {"file": "file", "partition": "zram" if path.startswith("/dev/zram") else "partition"}.get(a["type"], "other")
    check(p["kind"] == want, "%s kind: headroom %s, swapon %s" % (path, p["kind"], a["type"]))
    check(p["disk_backstop"] == (p["kind"] != "zram"), "%s disk_backstop wrong" % path)
disk = sum(p["size_bytes"] for p in doc["paging"] if p["kind"] != "zram")
check(doc["paging_status"]["disk_total_bytes"] == disk, "disk_total_bytes is not the sum of disk areas")

if failures:
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    sys.exit(1)
print("ok: RAM %d bytes (= free), available within 5%%, %d swap area(s) match swapon" % (mem["total"], len(areas)))
EOF
