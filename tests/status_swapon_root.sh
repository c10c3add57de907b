#!/usr/bin/env bash
# A real swap file, seen by `headroom status`: create 64 MiB under /var/tmp (a disk file
# system), mkswap, swapon -p 7, and check the report names it with kind "file", the size
# the kernel uses (the header page is not counted: 64 MiB - one page), priority 7 and the
# facts of the file system and disk under it; then swapoff and check it is gone.
# Needs root; prints "SKIP: <why>" and exits 77 (ctest skip) where it cannot run.
# Everything it creates is removed on exit, whatever happens (trap).
#
#   tests/status_swapon_root.sh HEADROOM_BINARY
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 HEADROOM_BINARY" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export PATH="$PATH:/usr/sbin:/sbin"
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root (swapon)"
for t in mkswap swapon swapoff python3; do
    command -v "$t" >/dev/null || skip "needs $t"
done
# The swap list is machine-wide: one test that changes it at a time, across every checkout
# and ctest run on this machine (RESOURCE_LOCK only covers one ctest invocation). The lock
# is the one the apply root tests take.
command -v flock >/dev/null || skip "flock not installed (util-linux)"
exec 9>/run/lock/headroom-apply-root-tests.lock || skip "cannot open the test lock"
flock -w 1200 9 || skip "another headroom root test held the lock for 20 minutes"

BASE=${HR_SWAPTEST_DIR:-/var/tmp}
fstype=$(stat -f -c %T "$BASE" 2>/dev/null || echo unknown)
case "$fstype" in
ext2/ext3|xfs|btrfs|f2fs) ;;   # stat -f names ext4 "ext2/ext3"
*) skip "$BASE is on $fstype, not a disk file system that can hold a swap file" ;;
esac

DIR=$(mktemp -d "$BASE/hr-swaptest.XXXXXX")
FILE=$DIR/swapfile
active=0
cleanup() {
    if [ "$active" = 1 ]; then swapoff "$FILE" 2>/dev/null || true; fi
    rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$fstype" = btrfs ]; then
    : >"$FILE"
    chattr +C "$FILE" 2>/dev/null || skip "btrfs: cannot set no-copy-on-write on $FILE"
fi
dd if=/dev/zero of="$FILE" bs=1M count=64 status=none conv=fsync
chmod 600 "$FILE"
mkswap -q "$FILE" >/dev/null
if ! swapon -p 7 "$FILE" 2>"$DIR/swapon.err"; then
    # Containers and some VMs forbid swapon even to root.
    skip "swapon refused here: $(tr -d '\n' <"$DIR/swapon.err")"
fi
active=1

rc=0
"$BIN" status --json >"$DIR/on.json" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "FAIL: headroom status exited $rc" >&2; exit 1; }
swapoff "$FILE"
active=0
rc=0
"$BIN" status --json >"$DIR/off.json" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "FAIL: headroom status exited $rc after swapoff" >&2; exit 1; }

python3 - "$FILE" "$DIR/on.json" "$DIR/off.json" "$(getconf PAGESIZE)" <<'EOF'
import json, os, sys

path, on_path, off_path, page = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
on = json.load(open(on_path, encoding="utf-8"))
off = json.load(open(off_path, encoding="utf-8"))
fail = []
def check(cond, msg):
    if not cond:
        fail.append(msg)

# What the system says: the mount holding the file (longest prefix in mountinfo), the
# block device under it (st_dev through /sys/dev/block), its disk (a partition's parent).
def unesc(s):
    return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")
best = None
for line in open("/proc/self/mountinfo"):
    f = line.split()
    mp = unesc(f[4])
    if path == mp or path.startswith(mp.rstrip("/") + "/"):
        if best is None or len(mp) >= len(best[0]):
            best = (mp, f[f.index("-") + 1])
mount_point, fs_type = best
st = os.stat(path)
disk = None
if os.major(st.st_dev) != 0:
    real = os.path.realpath("/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)))
    for _ in range(8):  # device mapper: follow the first slave, as headroom does
        slaves = os.path.join(real, "slaves")
        if os.path.isdir(slaves) and os.listdir(slaves):
            real = os.path.realpath(os.path.join(slaves, sorted(os.listdir(slaves))[0]))
        else:
            break
    disk = os.path.basename(os.path.dirname(real) if os.path.exists(os.path.join(real, "partition")) else real)

areas = [p for p in on["paging"] if p["path"] == path]
check(len(areas) == 1, "%s not listed once in paging: %s" % (path, [p["path"] for p in on["paging"]]))
if areas:
    a = areas[0]
    check(a["kind"] == "file", "kind %r, expected file" % a["kind"])
    check(a["size_bytes"] == 64 * 1024 * 1024 - page,
          "size %r, expected 64 MiB minus the header page = %d" % (a["size_bytes"], 64 * 1024 * 1024 - page))
    check(a["priority"] == 7, "priority %r, expected 7" % a["priority"])
    check(0 <= a["used_bytes"] <= a["size_bytes"], "used %r out of range" % a["used_bytes"])
    check(a["disk_backstop"] is True, "a swap file is a disk backstop")
    d = a["device"] or {}
    check(d.get("fs_type") == fs_type, "fs_type %r, expected %r" % (d.get("fs_type"), fs_type))
    check(d.get("mount_point") == mount_point, "mount_point %r, expected %r" % (d.get("mount_point"), mount_point))
    if disk:
        check(d.get("disk") == disk, "disk %r, expected %r" % (d.get("disk"), disk))
    check(isinstance(d.get("fs_free_bytes"), int) and d["fs_free_bytes"] <= d["fs_total_bytes"],
          "file system free/total space missing or inconsistent: %r / %r" % (d.get("fs_free_bytes"), d.get("fs_total_bytes")))
    check(d.get("unknown_reason") is None, "device facts unknown: %r" % d.get("unknown_reason"))
    vols = [v for v in on["volumes"] if v["mount_point"] == mount_point]
    check(not vols or vols[0]["holds_paging"], "volume %s does not say it holds paging" % mount_point)
check(on["paging_status"]["count"] == off["paging_status"]["count"] + 1, "count did not drop by one after swapoff")
check(all(p["path"] != path for p in off["paging"]), "still listed after swapoff")

if fail:
    for f in fail:
        print("FAIL: " + f, file=sys.stderr)
    sys.exit(1)
print("ok: %s listed as file, %d bytes, priority 7, %s at %s on %s; gone after swapoff"
      % (path, 64 * 1024 * 1024 - page, fs_type, mount_point, disk or "(anonymous device)"))
EOF
