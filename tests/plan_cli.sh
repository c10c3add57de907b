#!/usr/bin/env bash
# headroom plan / check from the command line: the issue's "done when" line, the JSON
# contract, exit statuses, what-if flags, and bad input. Usage: plan_cli.sh HEADROOM
set -u
hr=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
# expect NAME WANT_STATUS CMD...: runs CMD, output in $tmp/out and $tmp/err
expect() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, want $want"; cat "$tmp/err"; fi
}
has() { if grep -qF -- "$2" "$tmp/out"; then ok "$1"; else bad "$1: '$2' not in output"; head -40 "$tmp/out"; fi; }
err_has() {
    if grep -qF -- "$2" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok "$1"; else
        bad "$1: want one line with '$2' on stderr"; cat "$tmp/err"; fi
}
json() { # json NAME PYTHON-EXPRESSION-over-d
    if python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if ($2) else 1)"; then ok "$1"; else
        bad "$1: $2"; head -60 "$tmp/out"; fi
}

# The issue's "done when".
expect "plan: 16G/8G/sdxl/windows" 0 "$hr" plan --ram 16G --vram 8G --workload sdxl --os windows
has "64 GB fixed" "64 GB fixed (initial = maximum = 65536 MB)"
has "on a non-system SSD" "on a non-system SSD"
has "reason S4.2" "[S4.2] 8 GB of VRAM is under 12 GB"
has "dialog numbers" "Initial size (MB): 65536, Maximum size (MB): 65536 → press Set"
has "safe order" "only now select C: → No paging file"
has "crash dump warning" "[X.dump]"

expect "plan --json" 0 "$hr" plan --ram 16G --vram 8G --workload sdxl --os windows --json
json "schema" "d['schema'] == 'headroom.plan/1'"
json "recommended sizes" "d['recommended']['initial_bytes'] == d['recommended']['maximum_bytes'] == 64 << 30"
json "basis table" "d['recommended']['basis'] == 'table'"
json "target null with a reason" "d['recommended']['target'] is None and 'non-system SSD' in d['recommended']['target_reason']"
json "warnings have rules" "all(w['rule'] and w['text'] for w in d['warnings'])"
json "steps have rules" "len(d['steps']) >= 5 and all(s['rule'] and s['text'] for s in d['steps'])"
json "reasons cite S4.2" "any(r['rule'] == 'S4.2' for r in d['recommended']['reasons'])"

expect "plan --peak-commit 44G" 0 "$hr" plan --ram 16G --vram 8G --workload sdxl --os windows --peak-commit 44G --json
json "peak basis" "d['recommended']['basis'] == 'peak-commit' and d['recommended']['maximum_bytes'] == 39 << 30"
json "peak covered with the margin" "(16 << 30) + d['recommended']['maximum_bytes'] >= 44 * 1.25 * (1 << 30)"
json "table still shown" "d['recommended']['table_bytes'] == 64 << 30"

expect "plan --range" 0 "$hr" plan --ram 16G --vram 8G --workload video --os linux --range --json
json "range 32/64" "d['recommended']['initial_bytes'] == 32 << 30 and d['recommended']['maximum_bytes'] == 64 << 30 and not d['recommended']['fixed']"

for s in 16G 16GB 16GiB 16384M; do
    expect "size spelling $s" 0 "$hr" plan --ram "$s" --vram 8G --os windows --json
    json "size spelling $s = 16 GiB" "d['facts']['ram_bytes'] == 16 << 30"
done

expect "comfy args" 0 "$hr" plan --ram 32G --vram 24G --os linux --comfy-args "--listen --lowvram" --json
json "--lowvram takes the top" "d['recommended']['maximum_bytes'] == 64 << 30 and d['facts']['comfy_args']['lowvram']"
json "--lowvram warning" "any(w['id'] == 'low-vram-flags' and w['rule'] == 'S1.2' for w in d['warnings'])"

# Bad input: one line naming the flag, exit 64 / 66.
expect "bad --ram" 64 "$hr" plan --ram lots
err_has "bad --ram message" "--ram"
expect "bad --workload" 64 "$hr" plan --workload sd3
err_has "bad --workload message" "expected sd15, sdxl, flux or video"
expect "bad --os" 64 "$hr" check --os macos
err_has "bad --os message" "--os 'macos'"
expect "bad --comfy-args" 64 "$hr" plan --comfy-args "--reserve-vram x"
err_has "bad --comfy-args message" "--reserve-vram 'x'"
expect "missing value" 64 "$hr" plan --vram
err_has "missing value message" "--vram needs a value"
expect "unknown option" 64 "$hr" check --frobnicate
err_has "unknown option message" "unknown option '--frobnicate'"
expect "missing sysroot" 66 "$hr" plan --sysroot "$tmp/nope"
err_has "missing sysroot message" "$tmp/nope"
expect "plan --help" 0 "$hr" plan --help
has "help lists --peak-commit" "--peak-commit SIZE"

# check on this machine: a verdict, and `headroom` alone is `check`.
"$hr" check >"$tmp/check.txt" 2>&1
st=$?
if [ "$st" -le 3 ]; then ok "check exit $st is a verdict"; else bad "check exit $st"; cat "$tmp/check.txt"; fi
"$hr" >"$tmp/default.txt" 2>&1
st2=$?
if [ "$st2" -eq "$st" ] && [ "$(head -1 "$tmp/check.txt")" = "$(head -1 "$tmp/default.txt")" ]; then
    ok "headroom with no command runs check"; else bad "headroom alone: exit $st2 vs $st"; fi
expect "check --json" "$st" "$hr" check --json
json "check schema + verdict" "d['schema'] == 'headroom.check/1' and d['verdict'] in ('ok', 'at-risk', 'will-fail', None)"
json "check exit_status" "d['exit_status'] == $st"
json "check embeds status and plan" "d['status']['schema'] == 'headroom.status/1' and d['plan']['schema'] == 'headroom.plan/1'"
json "check todo has rules" "all(t['rule'] for t in d['todo'])"

expect "check hypothetical" 3 "$hr" check --ram 16G --vram 8G --os windows --workload sdxl --json
json "hypothetical: verdict null, plan OK" "d['verdict'] is None and d['capacity']['verdict_after_plan'] == 'ok' and d['status'] is None"

# plan never changes anything.
# (Names and sizes only: /tmp's time stamp and swap "Used" move with other tests.)
before=$(awk '{ print $1, $2, $3 }' /proc/swaps; ls -a / 2>/dev/null)
"$hr" plan >/dev/null 2>&1
after=$(awk '{ print $1, $2, $3 }' /proc/swaps; ls -a / 2>/dev/null)
if [ "$before" = "$after" ]; then ok "plan changed nothing"; else bad "plan changed /proc/swaps or /"; fi

echo "$fails failed"
[ "$fails" -eq 0 ]
