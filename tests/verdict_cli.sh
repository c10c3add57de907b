#!/usr/bin/env bash
# The one sizing rule against the guide's stories (docs/check.md "The rule"), on recorded
# Windows machines replayed with --replay, ComfyUI's version not given: the need then covers
# every memory manager. Usage: verdict_cli.sh HEADROOM
set -u
hr=$1
fails=0
py=$(command -v /usr/bin/python3 || command -v python3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$(dirname "$0")/fixtures/windows
wf=$(dirname "$0")/fixtures/workflows

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
# run NAME CMD...: output in $tmp/out, exit status in $st
run() {
    local name=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ "$st" -ge 64 ]; then bad "$name: exit $st"; cat "$tmp/err"; fi
}
json() { # json NAME PYTHON-EXPRESSION-over-d
    if "$py" -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if ($2) else 1)"; then ok "$1"; else
        bad "$1: $2"; head -c 3000 "$tmp/out"; echo; fi
}
has() { if grep -qF -- "$2" "$tmp/out"; then ok "$1"; else bad "$1: '$2' not in output"; head -40 "$tmp/out"; fi; }

# (a) The guide's crash: 16 GB RAM, 8 GB VRAM, 32 GB fixed on D:, Wan 2.2 image-to-video → not OK.
run "(a)" "$hr" check --replay "$fx/s6-16g-c4-d32.json" --workflow "$wf/est_wan22_i2v_api.json" --json
[ "$st" -ne 0 ] && ok "(a) 32 GB on D:, Wan 2.2 i2v: not OK (exit $st)" || bad "(a) 32 GB on D: is OK"
json "(a) not OK on the need itself: under what it must back" "d['capacity']['bytes'] < d['need']['must_back_bytes']"
json "(a) the need covers the older managers: high end past 45 GB" "d['need']['high_bytes'] > 45 << 30 and not d['need']['comfyui_version_known']"
json "(a) other programs' commit is measured and counted" "d['need']['others_basis'] == 'measured' and d['need']['must_back_bytes'] == d['need']['high_bytes'] + d['need']['others_bytes'] + d['need']['margin_bytes']"
# The same with the newest ComfyUI given: DynamicVRAM keeps the weights out of commit.
run "(a) newest" "$hr" check --replay "$fx/s6-16g-c4-d32.json" --workflow "$wf/est_wan22_i2v_api.json" --comfyui-version 0.27.0 --json
json "(a) --comfyui-version narrows the range" "d['need']['comfyui_version_known'] and d['need']['high_bytes'] < 30 << 30"

# (b) The same machine with 64 GB → OK.
run "(b)" "$hr" check --replay "$fx/s6-16g-c4-d64.json" --workflow "$wf/est_wan22_i2v_api.json"
[ "$st" -eq 0 ] && ok "(b) 64 GB on D:, Wan 2.2 i2v: OK" || bad "(b) 64 GB on D:: exit $st, want 0"
has "(b) each part shown" "+ others  "
has "(b) the margin shown" "+ margin  "

# (c) 16 GB, SDXL, system-managed paging on a nearly full C: → not OK.
run "(c)" "$hr" check --replay "$fx/laptop-16g-auto-full-c.json" --workflow "$wf/est_sdxl_api.json"
[ "$st" -ne 0 ] && ok "(c) SDXL, automatic paging on a full C:: not OK (exit $st)" || bad "(c) is OK"

# (d) The author's final setup → OK for SDXL, FLUX and video.
for w in est_sdxl_api est_flux_dev_api est_wan22_i2v_api est_ltxv_api; do
    run "(d) $w" "$hr" check --replay "$fx/s6-16g-c4-d64.json" --workflow "$wf/$w.json"
    [ "$st" -eq 0 ] && ok "(d) final setup, $w: OK" || { bad "(d) final setup, $w: exit $st"; head -20 "$tmp/out"; }
done

# (e) plan --workflow on (a)'s starting machine (automatic paging on C:) → at least 64 GB, on D:.
run "(e)" "$hr" plan --replay "$fx/s6-16g-auto-c.json" --workflow "$wf/est_wan22_i2v_api.json" --json
json "(e) at least 64 GB on D:, the workload a video" "d['recommended']['maximum_bytes'] >= 64 << 30 and d['recommended']['target'] == 'D:' and d['facts']['workload'] == 'video' and d['facts']['workload_implied']"
json "(e) which of the two set the size" "d['recommended']['set_by'] in ('table', 'estimate') and d['recommended']['maximum_bytes'] >= d['recommended']['table_bytes'] and d['recommended']['maximum_bytes'] >= d['recommended']['estimate_bytes']"
run "(e) text" "$hr" plan --replay "$fx/s6-16g-auto-c.json" --workflow "$wf/est_wan22_i2v_api.json"
has "(e) not 'no declared workload'" "workload   video (what the workflow implies)"

# One scale: a named workload and a workflow of it are judged by the same estimate.
run "one scale: --workload" "$hr" check --replay "$fx/s6-16g-auto-c.json" --workload sdxl --json
cp "$tmp/out" "$tmp/named.json"
run "one scale: --workflow" "$hr" check --replay "$fx/s6-16g-auto-c.json" --workflow "$wf/est_sdxl_api.json" --json
json "one scale: the same need for SDXL named and SDXL estimated" "d['need']['high_bytes'] == json.load(open('$tmp/named.json'))['need']['high_bytes'] and d['verdict'] == json.load(open('$tmp/named.json'))['verdict']"

# Below the low end with the others is WILL FAIL, not AT RISK (the laptop's 16.8 GB counted).
run "below the need" "$hr" check --replay "$fx/laptop-16g-auto-full-c.json" --workflow "$wf/est_wan22_i2v_api.json" --json
json "below the low end + others: will fail" "d['verdict'] == 'will-fail' and d['capacity']['bytes'] < d['need']['fail_below_bytes']"
# No drive has room: the plan is not offered as → OK.
json "no room: the plan is not offered as a way out" "not d['capacity']['plan_feasible'] and d['capacity']['verdict_after_plan'] == d['verdict'] and d['todo'][0]['id'] == 'make-room'"
run "below the need, text" "$hr" check --replay "$fx/laptop-16g-auto-full-c.json" --workflow "$wf/est_wan22_i2v_api.json"
if grep -q "with the plan: .* → OK$" "$tmp/out"; then bad "no room: '→ OK' offered"; else ok "no room: no '→ OK'"; fi
has "no room: what would be needed instead" "cannot be carried out here — no drive has room for the 64 GB file"

# A what-if machine described in full on the command line: the allowance for the OS and a
# browser, and --paging for the paging file it has.
run "what-if" "$hr" check --os windows --ram 16G --vram 8G --paging 32G --workflow "$wf/est_wan22_i2v_api.json" --json
json "what-if: --paging makes a verdict, the others an allowance" "d['verdict'] == 'at-risk' and d['capacity']['bytes'] == 48 << 30 and d['need']['others_basis'] == 'allowance'"
run "what-if 64" "$hr" check --os windows --ram 16G --vram 8G --paging 64G --workflow "$wf/est_wan22_i2v_api.json" --json
json "what-if: 64 GB is OK" "d['verdict'] == 'ok'"
"$hr" check --os windows --ram 16G --paging 32 --workload sdxl >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 64 ] && grep -q "a unit" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok "--paging 32: refused, a unit asked for"
else bad "--paging 32: exit $st"; cat "$tmp/err"; fi

# check, plan and export take --comfyui-version and --gpu as estimate does.
for c in check plan export; do
    "$hr" $c --replay "$fx/s6-16g-c4-d32.json" --workflow "$wf/est_wan22_i2v_api.json" --comfyui-version 0.3.60 --gpu amd >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ "$st" -lt 64 ] && ok "$c takes --comfyui-version and --gpu" || { bad "$c --comfyui-version: exit $st"; cat "$tmp/err"; }
done
"$hr" check --replay "$fx/s6-16g-c4-d32.json" --workflow "$wf/est_wan22_i2v_api.json" --comfyui-version x.y >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 64 ] && ok "--comfyui-version x.y refused" || bad "--comfyui-version x.y accepted"

# Following the plan never makes the verdict worse, and plan's warning gives the plan's advice.
rank() { case $1 in ok) echo 0 ;; at-risk) echo 1 ;; will-fail) echo 2 ;; *) echo 3 ;; esac; }
for w in est_sdxl_api est_wan22_i2v_api; do
    run "plan never worse ($w)" "$hr" check --replay "$fx/ssd-full-hdd-room.json" --workflow "$wf/$w.json" --json
    json "full SSD, roomy HDD, $w: the plan's verdict is no worse than now" "{'ok':0,'at-risk':1,'will-fail':2}[d['capacity']['verdict_after_plan']] <= {'ok':0,'at-risk':1,'will-fail':2}[d['verdict']]"
    json "full SSD, roomy HDD, $w: no 'another drive' beside a plan for C:" "d['plan']['recommended']['target'] != 'C:' or all('another drive' not in x['text'] for x in d['plan']['warnings'])"
done

# Linux: --range gives one size (a swap file never grows), which apply takes.
lx=$(dirname "$0")/fixtures/linux
run "linux --range" "$hr" plan --sysroot "$lx/plan-btrfs-laptop" --vram 8G --workload sdxl --range --json
json "linux --range: one size, said why" "d['recommended']['fixed'] and d['recommended']['initial_bytes'] == d['recommended']['maximum_bytes'] and any(r['id'] == 'range-linux' for r in d['recommended']['reasons'])"

# A nearly full drive under the paging file is seen: not OK, and the to-do says to free space.
run "full paging drive" "$hr" check --replay "$fx/apply-edge/s6-16g-d64-full.json" --workload sdxl --json
json "D: with 8 GB free under a 64 GB file: at risk, free space there" "d['verdict'] == 'at-risk' and 'free-room' in [t['id'] for t in d['todo']] and d['verdict_rule'] == 'S3.3'"
run "room enough" "$hr" check --replay "$fx/s6-16g-c4-d64.json" --workload sdxl --json
json "the same setup with room: OK, nothing to free" "d['verdict'] == 'ok' and 'free-room' not in [t['id'] for t in d['todo']]"

# The list of files in use unreadable after a change: ExistingPageFiles says a restart is
# pending, as verify says.
run "restart pending, in-use list unread" "$hr" check --replay "$fx/restart-pending-unread.json" --workload sdxl --json
json "in-use list unread: the to-do is the restart" "d['todo'][0]['id'] == 'restart'"

# ComfyUI's version read from its folder (comfyui_version.py) is known: that version's estimate.
mkdir -p "$tmp/ComfyUI/user/default/workflows"
cp "$wf/est_wan22_i2v_api.json" "$tmp/ComfyUI/user/default/workflows/wan.json"
printf '# This file is automatically generated by the build process when version is\n__version__ = "0.3.60"\n' >"$tmp/ComfyUI/comfyui_version.py"
run "version from the folder" "$hr" check --replay "$fx/s6-16g-c4-d32.json" --comfyui "$tmp/ComfyUI" --json
json "version from the folder: known, 0.3.60's range" "d['need']['comfyui_version_known'] and d['need']['low_bytes'] > 30 << 30"

# estimate's verdict is the same rule: the guide's crash is at risk there too, the final setup fits.
run "estimate (a)" "$hr" estimate --replay "$fx/s6-16g-c4-d32.json" "$wf/est_wan22_i2v_api.json" --json
[ "$st" -eq 1 ] && ok "estimate, 32 GB on D:: at risk (exit 1)" || bad "estimate, 32 GB on D:: exit $st, want 1"
json "estimate (a): the rule's verdict" "any(v['verdict'] == 'commit_tight' for v in d['verdicts'])"
run "estimate (b)" "$hr" estimate --replay "$fx/s6-16g-c4-d64.json" "$wf/est_wan22_i2v_api.json"
[ "$st" -eq 0 ] && ok "estimate, 64 GB on D:: fits (exit 0)" || bad "estimate, 64 GB on D:: exit $st, want 0"
run "estimate below the low end" "$hr" estimate --replay "$fx/laptop-16g-auto-full-c.json" "$wf/est_sdxl_api.json"
[ "$st" -eq 2 ] && ok "estimate, 16 GB laptop with 16.8 GB committed, SDXL: will fail as check says" || bad "estimate laptop SDXL: exit $st, want 2"

[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
