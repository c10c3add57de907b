#!/usr/bin/env bash
# Golden run: every read-only command over every recorded machine, workflow, model tree,
# crash log and recording, in text and JSON, English and Chinese, with its exit status.
# A refactor that claims "output unchanged" proves it by running this with the binary
# before and after and comparing the two directories:
#
#   tools/golden.sh OLD_BIN /tmp/gold-before
#   tools/golden.sh NEW_BIN /tmp/gold-after
#   diff -r /tmp/gold-before /tmp/gold-after && echo unchanged
#
# Nothing here touches the system: machines come from recorded trees (--sysroot) and
# recorded Win32 answers (--replay); diagnose runs with --no-system.
set -u
if [ $# -ne 2 ]; then
    echo "usage: tools/golden.sh HEADROOM_BINARY OUTPUT_DIR" >&2
    exit 2
fi
BIN=$(readlink -f "$1")
OUT=$(readlink -m "$2")
REPO=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BIN" ] || { echo "golden.sh: $1: not an executable" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT" "$WORK/home" "$WORK/run"
export LANG=C.UTF-8 TZ=UTC HOME="$WORK/home" HEADROOM_COMFYUI_URL=http://127.0.0.1:9 COLUMNS=100
unset LANGUAGE LC_ALL HEADROOM_LANG 2>/dev/null || true
python3 "$REPO/tests/models/make_models.py" "$WORK/ComfyUI" >/dev/null
CU=$WORK/ComfyUI

# Machines whose tree is made by a script (sizes too large to store) are built in WORK.
sysroots() {
    for d in "$REPO"/tests/fixtures/linux/*/ "$REPO"/tests/fixtures/linux-hostile/*/; do
        d=${d%/}
        if [ -f "$d/GENERATE" ]; then
            local copy="$WORK/gen/$(basename "$(dirname "$d")")/$(basename "$d")"
            mkdir -p "$(dirname "$copy")"
            cp -a "$d" "$copy"
            (cd "$copy" && bash ./GENERATE >/dev/null 2>&1)
            echo "$copy"
        else
            echo "$d"
        fi
    done
}

# run NAME ARGS...: stdout, then stderr, then the exit status, with the work paths masked
run() {
    local name=$1
    shift
    (cd "$WORK/run" && "$BIN" "$@" >"$WORK/o" 2>"$WORK/e")
    local rc=$?
    { cat "$WORK/o"; echo "--- stderr"; cat "$WORK/e"; echo "--- rc=$rc"; } |
        sed "s#$REPO#REPO#g; s#$WORK#WORK#g" >"$OUT/$name"
}

n_machines=0
for lang in en zh; do
    while read -r fx; do
        b=$(basename "$(dirname "$fx")").$(basename "$fx")
        for c in status plan check; do
            run "$lang.$c.$b" $c --lang $lang --sysroot "$fx" --no-gpu
            run "$lang.$c.$b.json" $c --lang $lang --sysroot "$fx" --no-gpu --json
        done
        run "$lang.export.$b" export --lang $lang --sysroot "$fx" --no-gpu
        run "$lang.check.$b.flux" check --lang $lang --sysroot "$fx" --no-gpu --workload flux --vram 12G
        run "$lang.plan.$b.video" plan --lang $lang --sysroot "$fx" --no-gpu --workload video --vram 8G
        run "$lang.check.$b.wf" check --workflow "$REPO/tests/fixtures/workflows/est_wan22_i2v_api.json" \
            --comfyui "$CU" --lang $lang --sysroot "$fx" --no-gpu
        run "$lang.estimate.$b" estimate "$REPO/tests/fixtures/workflows/sdxl_txt2img.api.json" \
            --comfyui "$CU" --lang $lang --sysroot "$fx" --no-gpu
        [ $lang = en ] && n_machines=$((n_machines + 1))
    done < <(sysroots)
    for fx in "$REPO"/tests/fixtures/windows/*.json "$REPO"/tests/fixtures/windows/bad/*; do
        [ -f "$fx" ] || continue
        b=win.$(basename "$fx")
        for c in status plan check; do
            run "$lang.$c.$b" $c --lang $lang --replay "$fx"
            run "$lang.$c.$b.json" $c --lang $lang --replay "$fx" --json
        done
        run "$lang.export.$b" export --lang $lang --replay "$fx"
        run "$lang.check.$b.video" check --lang $lang --replay "$fx" --workload video --vram 8G
        run "$lang.plan.$b.flux" plan --lang $lang --replay "$fx" --workload flux --vram 12G
        run "$lang.check.$b.wf" check --workflow "$REPO/tests/fixtures/workflows/est_wan22_i2v_api.json" \
            --comfyui "$CU" --lang $lang --replay "$fx"
        run "$lang.estimate.$b" estimate "$REPO/tests/fixtures/workflows/wan_i2v.api.json" \
            --comfyui "$CU" --lang $lang --replay "$fx"
        [ $lang = en ] && n_machines=$((n_machines + 1))
    done
    for wf in "$REPO"/tests/fixtures/workflows/*.json; do
        b=$(basename "$wf")
        run "$lang.estimate.$b.win" estimate "$wf" --comfyui "$CU" --lang $lang --ram 32G --vram 12G --os windows
        run "$lang.estimate.$b.json" estimate "$wf" --comfyui "$CU" --lang $lang --ram 32G --vram 12G --os linux --json
        run "$lang.estimate.$b.low" estimate "$wf" --comfyui "$CU" --lang $lang --ram 16G --vram 6G --os linux
        run "$lang.workflow.$b" workflow "$wf" --comfyui "$CU" --lang $lang
        run "$lang.workflow.$b.json" workflow "$wf" --comfyui "$CU" --lang $lang --json
    done
    run "$lang.models" models "$CU" --lang $lang
    run "$lang.models.json" models "$CU" --lang $lang --json
    for d in corpus issues mixed; do
        for log in "$REPO"/tests/diagnose/$d/*; do
            [ -f "$log" ] || continue
            b=$d.$(basename "$log")
            run "$lang.diagnose.$b" diagnose "$log" --no-system --lang $lang
            run "$lang.diagnose.$b.json" diagnose "$log" --no-system --lang $lang --json
        done
    done
    for rec in "$REPO"/tests/fixtures/recordings/*.jsonl; do
        [ -f "$rec" ] || continue
        b=$(basename "$rec")
        run "$lang.report.$b" report "$rec" -o "$WORK/run/$lang.$b.html" --lang $lang
        sed "s#$REPO#REPO#g; s#$WORK#WORK#g" "$WORK/run/$lang.$b.html" >"$OUT/$lang.report.$b.html" 2>/dev/null
        run "$lang.diagnose.rec.$b" diagnose "$rec" --no-system --lang $lang
    done
done
echo "golden.sh: $n_machines recorded machines, $(find "$OUT" -type f | wc -l) outputs in $OUT"
