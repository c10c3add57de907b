#!/usr/bin/env bash
# The systemd units in packaging/linux, before any install: `systemd-analyze verify` passes
# with no complaint (ExecStart pointed at the build's binary, the man page the build
# generated), the service is hardened as docs/watch.md says, the export service may write
# where it writes and nowhere else, and each ExecStart runs as written.
# Usage: package_units.sh SOURCE_DIR HEADROOM MAN_DIR
set -u
src=$1
bin=$(realpath "$2")
man=$(realpath "$3")
units="headroom-watch.service headroom-export.service headroom-export.timer"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
key() { sed -n "s/^$2=//p" "$src/packaging/linux/$1"; }

for u in $units; do
    sed "s#/usr/bin/headroom#$bin#" "$src/packaging/linux/$u" >"$tmp/$u"
done
if ! command -v systemd-analyze >/dev/null; then
    echo "SKIP: systemd-analyze is not installed (Debian package systemd)"; exit 77
fi
out=$(cd "$tmp" && MANPATH=$man systemd-analyze verify $units 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -qi 'bus\|connect' <<<"$out"; then
    echo "SKIP: systemd-analyze verify cannot run here: $out"; exit 77
fi
[ $rc -eq 0 ] && [ -z "$out" ] && ok "systemd-analyze verify: $units" || bad "systemd-analyze verify ($rc): $out"

w=headroom-watch.service
[ "$(key $w ProtectSystem)" = strict ] && ok "watch: ProtectSystem=strict" || bad "watch: ProtectSystem is not strict"
[ "$(key $w ProtectHome)" = yes ] && ok "watch: ProtectHome=yes" || bad "watch: ProtectHome"
[ "$(key $w NoNewPrivileges)" = yes ] && ok "watch: NoNewPrivileges=yes" || bad "watch: NoNewPrivileges"
[ "$(key $w PrivateTmp)" = yes ] && ok "watch: PrivateTmp=yes" || bad "watch: PrivateTmp"
# mlockall is the only privileged thing watch does (hr_platform_lock_memory)
[ "$(key $w CapabilityBoundingSet)" = CAP_IPC_LOCK ] && [ "$(key $w AmbientCapabilities)" = CAP_IPC_LOCK ] &&
    ok "watch: CAP_IPC_LOCK alone" || bad "watch: capabilities '$(key $w CapabilityBoundingSet)'"
grep -q '^WantedBy=multi-user.target$' "$src/packaging/linux/$w" && ok "watch: [Install] WantedBy=multi-user.target" ||
    bad "watch: no WantedBy"

e=headroom-export.service
dir=$(key $e ConditionPathIsDirectory)
[ -n "$dir" ] && [ "$(key $e ReadWritePaths)" = "$dir" ] && [[ "$(key $e ExecStart)" == *"--textfile $dir "* ]] &&
    ok "export: writes $dir, may write there alone" || bad "export: --textfile, ReadWritePaths and the condition differ"
[ "$(key $e ProtectSystem)" = strict ] && [ "$(key $e NoNewPrivileges)" = yes ] &&
    ok "export: ProtectSystem=strict, NoNewPrivileges=yes" || bad "export: not hardened"

# the command lines as systemd runs them ($HEADROOM_*_ARGS empty: /etc/default/headroom absent)
cmd=$(key $e ExecStart | sed "s#/usr/bin/headroom#$bin#; s#$dir#$tmp#; s#\$HEADROOM_EXPORT_ARGS##")
if $cmd && grep -q '^headroom_check_verdict{' "$tmp/headroom.prom"; then ok "export's ExecStart writes headroom.prom"
else bad "export's ExecStart: $cmd"; fi
cmd=$(key $w ExecStart | sed "s#/usr/bin/headroom#$bin#; s#\$HEADROOM_WATCH_ARGS##")
if $cmd --count 2 --interval 100 >"$tmp/watch.out" && [ "$(wc -l <"$tmp/watch.out")" -eq 2 ]; then
    ok "watch's ExecStart runs"
else bad "watch's ExecStart: $cmd"; fi
[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" -eq 0 ]
