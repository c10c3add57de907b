#!/usr/bin/env bash
# Every --json document against its schema in docs/schemas/: real output of this binary, on this
# machine and on every recorded machine (tests/fixtures), with several workloads, the diagnose
# corpus, a real stress run. Usage: schemas.sh SOURCE_DIR HEADROOM [EMULATOR-first: wine x.exe]
# (HR_SCHEMA_KEEP=DIR: leave the samples there, e.g. to draft a schema with
# tools/json-schema-draft.py.)
set -u
src=$1
shift
hr=("$@")
win=0
[ "${#hr[@]}" -gt 1 ] && win=1   # headroom.exe under Wine: no Linux trees, its own answers
py=$(command -v /usr/bin/python3 || command -v python3)
out=${HR_SCHEMA_KEEP:-$(mktemp -d)}
[ -n "${HR_SCHEMA_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
mkdir -p "$out"
fails=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
fx=$src/tests/fixtures
n=0
# sample NAME CMD...: the command's stdout is a sample for schema NAME (any exit status of a
# verdict, 0-3; an error status is not a document).
sample() {
    local name=$1
    shift
    n=$((n + 1))
    mkdir -p "$out/$name"
    "$@" 2>/dev/null | tr -d '\r' >"$out/$name/$n.json"
    local st=${PIPESTATUS[0]}
    if [ "$st" -gt 3 ] && [ "$st" -ne 69 ]; then rm -f "$out/$name/$n.json"; fi
}

sources=(--no-gpu)
[ "$win" -eq 1 ] || for d in "$fx"/linux/*/; do [ -d "$d/proc" ] && sources+=("--sysroot=$d"); done
for f in "$fx"/windows/*.json; do sources+=("--replay=$f"); done
for s in "${sources[@]}"; do
    sample status "${hr[@]}" status --json "$s"
    for w in sdxl flux video; do
        sample check "${hr[@]}" check --json --workload "$w" "$s"
        sample plan "${hr[@]}" plan --json --workload "$w" "$s"
    done
    sample plan "${hr[@]}" plan --json --ram 16G --vram 8G --range "$s"
done
# Hypothetical machines: no snapshot at all.
sample check "${hr[@]}" check --json --os windows --ram 16G --vram 8G
sample check "${hr[@]}" check --json --os linux --ram 32G --vram 0
sample plan "${hr[@]}" plan --json --os windows --ram 16G --vram 8G --workload flux
for f in "$src"/tests/diagnose/corpus/*.log; do
    sample diagnose "${hr[@]}" diagnose --json --no-system "$f"
done
sample verify "${hr[@]}" verify --json
sample apply-plan "${hr[@]}" apply --json --size 4G
sample stress "${hr[@]}" stress --json --commit 32M --step 16M
sample stress "${hr[@]}" stress --json --commit 48M --step 16M --touch --force
sample stress "${hr[@]}" stress --json --commit 4096G --touch
# Model files with real headers over sparse data (tests/models/make_models.py), the workflows of
# the fixtures, read alone and against that ComfyUI tree, and estimated on several machines.
mtree=$out/.models   # a dot folder: not a sample folder below
"$py" "$src/tests/models/make_models.py" "$mtree" >/dev/null
sample models "${hr[@]}" models --json "$mtree/models"
sample models "${hr[@]}" models --json "$mtree/hostile"
sample models "${hr[@]}" models --json --comfyui "$mtree"
for f in "$fx"/workflows/*.json; do
    sample workflow "${hr[@]}" workflow --json "$f"
    sample workflow "${hr[@]}" workflow --json --comfyui "$mtree" "$f"
    sample estimate "${hr[@]}" estimate --json "$f" --ram 32G --vram 12G
    sample estimate "${hr[@]}" estimate --json "$f" --ram 16G --vram 8G --os windows --gpu nvidia --comfy-args --lowvram
    sample estimate "${hr[@]}" estimate --json --comfyui "$mtree" "$f" --ram 24G --vram 16G
done
# Recordings are JSON lines: each line is a document of headroom.recording/1 (the recorded
# ones of the fixtures, a live watch on stdout and the same written with --record).
lines() {
    local name=$1 file=$2
    mkdir -p "$out/$name"
    while IFS= read -r line; do
        n=$((n + 1))
        printf '%s\n' "$line" | tr -d '\r' >"$out/$name/$n.json"
    done <"$file"
}
for f in "$fx"/recordings/*.jsonl; do lines recording "$f"; done
"${hr[@]}" watch --json --count 3 --interval 100 --record "$out/.watch.jsonl" >"$out/.stdout.jsonl" 2>/dev/null
lines recording "$out/.stdout.jsonl"
lines recording "$out/.watch.jsonl"

for dir in "$out"/*/; do
    name=$(basename "$dir")
    schema=$src/docs/schemas/$name.schema.json
    count=$(ls "$dir" | wc -l)
    if [ ! -f "$schema" ]; then bad "$name: no docs/schemas/$name.schema.json"; continue; fi
    if [ "$count" -eq 0 ]; then continue; fi   # reported below
    if "$py" "$src/tests/schemas/validate.py" "$schema" "$dir"/*.json >"$out/$name.err"; then
        ok "$name: $count documents valid"
    else
        bad "$name: $(wc -l <"$out/$name.err") errors"; head -20 "$out/$name.err"
    fi
done
# Every schema in docs/schemas/ was exercised, and each is itself one the validator reads.
for schema in "$src"/docs/schemas/*.schema.json; do
    name=$(basename "$schema" .schema.json)
    if [ -d "$out/$name" ] && [ -n "$(ls "$out/$name")" ]; then continue; fi
    # Under Wine, apply and verify may not answer (no administrator rights): not a gap.
    case "$win:$name" in 1:verify|1:apply-plan) echo "note: $name: no document under Wine" ;;
    *) bad "$name: a schema without a sample" ;; esac
done
# The validator is not a rubber stamp: a document with a renamed key fails.
"$py" - "$out/status" <<'PY' >"$out/renamed.json"
import json, os, sys
d = json.load(open(os.path.join(sys.argv[1], sorted(os.listdir(sys.argv[1]))[0])))
d['commit']['limit'] = d['commit'].pop('limit_bytes')
json.dump(d, sys.stdout)
PY
if "$py" "$src/tests/schemas/validate.py" "$src/docs/schemas/status.schema.json" "$out/renamed.json" >/dev/null; then
    bad "validator: a renamed key passed"; else ok "validator: a renamed key fails"; fi
[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" -eq 0 ]
