#!/usr/bin/env bash
# headroom export: Prometheus text that `promtool check metrics` accepts, on this machine and
# on every recorded one; the values a fleet alerts on; the atomic --textfile write.
# Usage: export.sh FIXTURES HEADROOM [EMULATOR...]   (a Windows build: HEADROOM run by wine)
set -u
fixtures=$1
shift
hr=("$@")   # the binary, after the emulator when there is one: "wine headroom.exe"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }

promtool=$(command -v promtool || true)
if [ -z "$promtool" ]; then
    echo "SKIP: promtool not installed (Debian package prometheus; tools/install-deps.sh --tests)"
    exit 77
fi
# promtool check metrics: the format (grouping, HELP/TYPE, escaping) and the naming lints
# (base units, _total only on counters); any complaint fails.
lint() { # NAME FILE
    if "$promtool" check metrics <"$2" >"$tmp/lint" 2>&1 && [ ! -s "$tmp/lint" ]; then ok "$1: promtool check metrics"; else
        bad "$1: promtool check metrics"; cat "$tmp/lint"; fi
}
has() { if grep -qE -- "$3" "$2"; then ok "$1"; else bad "$1: /$3/ not in output"; head -30 "$2"; fi; }
# Exactly one verdict holds.
one_verdict() {
    local n
    n=$(grep -cE '^headroom_check_verdict\{.*\} 1$' "$2")
    if [ "$n" -eq 1 ]; then ok "$1: one verdict"; else bad "$1: $n verdicts hold"; fi
}

run() { "${hr[@]}" export "$@"; }

# This machine.
if run >"$tmp/live.prom" 2>"$tmp/err"; then ok "live: exit 0"; else bad "live: exit $?"; cat "$tmp/err"; fi
lint live "$tmp/live.prom"
has "live: commit limit" "$tmp/live.prom" '^headroom_commit_limit_bytes [0-9]+$'
one_verdict live "$tmp/live.prom"

# Every recorded machine, Linux trees and Windows recordings.
win=0
[ "${#hr[@]}" -gt 1 ] && win=1   # headroom.exe under Wine: --sysroot is Linux's
for d in "$fixtures"/linux/*/; do
    [ -d "$d/proc" ] && [ "$win" -eq 0 ] || continue
    n=$(basename "$d")
    run --sysroot "$d" >"$tmp/$n.prom" 2>"$tmp/err" || { bad "$n: exit $?"; cat "$tmp/err"; }
    lint "$n" "$tmp/$n.prom"
    one_verdict "$n" "$tmp/$n.prom"
done
for f in "$fixtures"/windows/*.json; do
    n=$(basename "$f" .json)
    run --replay "$f" >"$tmp/$n.prom" 2>"$tmp/err" || { bad "$n: exit $?"; cat "$tmp/err"; }
    lint "$n" "$tmp/$n.prom"
    one_verdict "$n" "$tmp/$n.prom"
done

# The values behind them.
w=$tmp/desktop-64g-fixed-d.prom
has "windows: commit peak" "$w" '^headroom_commit_peak_bytes 40427520000$'
has "windows: paging file, path escaped" "$w" \
    '^headroom_paging_size_bytes\{path="D:\\\\pagefile.sys",kind="pagefile"\} 68719476736$'
has "windows: VRAM" "$w" '^headroom_gpu_vram_total_bytes\{gpu="0",name="NVIDIA GeForce RTX 4090",vendor="NVIDIA"\} 25757220864$'
has "windows: the verdict" "$w" '^headroom_check_verdict\{verdict="ok",workload="sdxl"\} 1$'
if grep -q 'section="pressure"' "$w"; then bad "windows: no pressure source"; else ok "windows: no pressure source"; fi
l=$tmp/desktop-hdd-swap-partition.prom
[ "$win" -eq 1 ] || {
has "linux: swap partition" "$l" '^headroom_paging_size_bytes\{path="/dev/[^"]+",kind="partition"\} [0-9]+$'
has "linux: commit charge" "$l" '^headroom_commit_charge_bytes [0-9]+$'
has "linux: commit limit" "$l" '^headroom_commit_limit_bytes [0-9]+$'
if grep -q '^headroom_commit_peak_bytes' "$l"; then bad "linux: a commit peak it does not have"; else ok "linux: unknown values are left out"; fi
}
if [ -r /proc/pressure/memory ] && [ "${#hr[@]}" -eq 1 ]; then
    has "live: PSI" "$tmp/live.prom" '^headroom_pressure_memory_some_ratio\{window="10s"\} [0-9]+\.[0-9]{4}$'
    has "live: PSI total" "$tmp/live.prom" '^headroom_pressure_memory_waiting_seconds_total [0-9]+\.[0-9]{6}$'
fi
run --replay "$fixtures/windows/desktop-64g-fixed-d.json" --workload video --ram 16G >"$tmp/wl.prom" 2>/dev/null
has "what-ifs reach the verdict" "$tmp/wl.prom" 'headroom_check_verdict\{verdict="[a-z-]+",workload="video"\} 1$'

# --textfile: the same bytes, in DIR/headroom.prom, nothing else left in DIR.
mkdir "$tmp/tf"
if run --textfile "$tmp/tf" --replay "$fixtures/windows/desktop-64g-fixed-d.json" >"$tmp/out" 2>"$tmp/err"; then
    ok "--textfile: exit 0"; else bad "--textfile: exit $?"; cat "$tmp/err"; fi
if [ ! -s "$tmp/out" ]; then ok "--textfile: nothing on stdout"; else bad "--textfile: printed"; fi
if cmp -s "$tmp/tf/headroom.prom" "$w"; then ok "--textfile: the metrics"; else bad "--textfile: content differs"; fi
if [ "$(ls -A "$tmp/tf")" = "headroom.prom" ]; then ok "--textfile: no temporary file left"; else
    bad "--textfile: left $(ls -A "$tmp/tf")"; fi
# Again over an existing file: replaced whole.
run --textfile "$tmp/tf" --replay "$fixtures/windows/no-pagefile.json" >/dev/null 2>&1
if cmp -s "$tmp/tf/headroom.prom" "$tmp/no-pagefile.prom" && [ "$(ls -A "$tmp/tf")" = "headroom.prom" ]; then
    ok "--textfile: replaced"; else bad "--textfile: not replaced cleanly"; fi
lint "--textfile" "$tmp/tf/headroom.prom"
# A directory that is not there: one line naming it, an error status, no file.
run --textfile "$tmp/nope" >"$tmp/out" 2>"$tmp/err.all"
st=$?
grep -v '^wine: ' "$tmp/err.all" >"$tmp/err"   # Wine's own complaints about the Z: drive
if [ "$st" -ge 64 ] && grep -q "nope" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    ok "--textfile missing dir (exit $st)"; else bad "--textfile missing dir: exit $st"; cat "$tmp/err"; fi
# A size without a unit stays refused; an unknown option too.
run --ram 16 >/dev/null 2>&1; st=$?
if [ "$st" -eq 64 ]; then ok "--ram 16 refused (64)"; else bad "--ram 16: exit $st"; fi
# --help lists --textfile.
"${hr[@]}" export --help >"$tmp/help" 2>&1
has "--help" "$tmp/help" '--textfile DIR'

[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" -eq 0 ]
