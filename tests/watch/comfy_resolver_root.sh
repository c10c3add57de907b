#!/bin/bash
# A DNS server that never answers holds nobody past the link's deadline (root: a mount
# namespace gives this test its own resolv.conf and nsswitch.conf, pointing the resolver at a
# local UDP socket that reads every query and answers none, with a 30 s resolver timeout).
#   check: GET /system_stats and /history at HEADROOM_COMFYUI_URL, each with a 3 s deadline:
#          it ends in seconds, not after the resolver's 30 s per lookup;
#   watch --comfyui: the link reports the unresolved name while watch samples, instead of
#          sitting in getaddrinfo() until watch ends and leaves it behind, mute.
# usage: comfy_resolver_root.sh HEADROOM
set -u
HR=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (a mount namespace and bind mounts)"; exit 77; }
for t in unshare mount python3 getent timeout; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
d=$(mktemp -d)
sink=""
cleanup() {
    [ -n "$sink" ] && kill "$sink" 2>/dev/null && wait "$sink" 2>/dev/null
    rm -rf "$d"
}
trap cleanup EXIT
# a loopback address of this test's own: parallel runs do not share a sink
addr="127.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1)).$((RANDOM % 250 + 1))"
python3 - "$addr" "$d/ready" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
open(sys.argv[2], "w").close()
while True:
    s.recvfrom(4096)   # read every query, answer none
EOF
sink=$!
for _ in $(seq 50); do [ -e "$d/ready" ] && break; sleep 0.1; done
[ -e "$d/ready" ] || { echo "SKIP: cannot listen on $addr:53"; exit 77; }
printf 'nameserver %s\noptions timeout:30 attempts:1\n' "$addr" >"$d/resolv.conf"
printf 'hosts: files dns\n' >"$d/nsswitch.conf"
name=comfy.headroom-resolver-test.example
# in_ns CMD...: run CMD with this test's resolver
in_ns() {
    unshare -m sh -c 'mount --make-rprivate / &&
        mount --bind "$1/resolv.conf" /etc/resolv.conf &&
        mount --bind "$1/nsswitch.conf" /etc/nsswitch.conf && shift && exec "$@"' sh "$d" "$@"
}
# the setup itself: a lookup of the name must hang
in_ns timeout 4 getent ahosts "$name" >/dev/null 2>&1
rc=$?
if [ "$rc" != 124 ]; then
    echo "SKIP: the test resolver did not hang (getent exit $rc): nothing to prove here"
    exit 77
fi
fail=0
t0=$(date +%s)
in_ns env HEADROOM_COMFYUI_URL="http://$name:8188" "$HR" check >"$d/check.out" 2>"$d/check.err"
rc=$?
el=$(($(date +%s) - t0))
echo "check: exit $rc after ${el} s"
# two requests with a 3 s deadline each, the rest of check well under the resolver's 30 s
if [ "$el" -ge 20 ]; then
    echo "FAIL: check took ${el} s with a resolver that never answers (deadline: 3 s a request)"
    fail=1
fi
if [ "$rc" -gt 3 ]; then
    echo "FAIL: check exit $rc"
    cat "$d/check.err"
    fail=1
fi
# watch: 6 samples a second apart; the link's first attempt has a 1 s deadline
t0=$(date +%s)
in_ns "$HR" watch --comfyui "http://$name:8188" --interval 1000 --count 6 >"$d/watch.out" 2>"$d/watch.err"
rc=$?
el=$(($(date +%s) - t0))
echo "watch: exit $rc after ${el} s"
cat "$d/watch.err"
if ! grep -q "ComfyUI at http://$name:8188/*:.*$name:8188: .*not resolved within" "$d/watch.err"; then
    echo "FAIL: watch did not report the unresolved name while it sampled"
    fail=1
fi
if [ "$el" -ge 20 ]; then
    echo "FAIL: watch of 6 one-second samples took ${el} s"
    fail=1
fi
[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
