#!/bin/sh
# Every case of the corpus through the CLI: `headroom diagnose --no-system --json <case>`
# must name the expected cause, with the expected key line as the first evidence.
# usage: corpus.sh HEADROOM CORPUS_DIR [RUNNER]   (RUNNER: e.g. wine for headroom.exe)
set -u
HR=$1
DIR=$2
RUN=${3:-}
# Under Wine keep one wineserver alive between the many short runs (it leaves by itself
# 30 s after the last one); a cold start per run costs seconds.
if [ -n "$RUN" ] && command -v wineserver >/dev/null 2>&1; then
    (wineserver -p 30 >/dev/null 2>&1 &)
fi
pass=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
while read -r name cause line; do
    case "$name" in ''|'#'*) continue ;; esac
    $RUN "$HR" diagnose --no-system --json "$DIR/$name.log" >"$out" 2>/dev/null
    rc=$?
    # the top-level cause is the first "cause" key; the winner's first evidence line the
    # first "line" key
    got=$(sed -n 's/^  "cause": "\(.*\)",*\r*$/\1/p' "$out" | head -n 1)
    gotline=$(sed -n 's/^ *"line": \([0-9]*\),*\r*$/\1/p' "$out" | head -n 1)
    want_rc=0
    [ "$cause" = unknown ] && want_rc=1
    why=""
    if [ "$cause" = not-text ]; then
        # refused: exit 65 and no report
        want_rc=65
        got=not-text
        [ -s "$out" ] && why="a report was written for binary input"
    fi
    [ -z "$why" ] && [ "$got" != "$cause" ] && why="cause '$got', expected '$cause'"
    [ -z "$why" ] && [ "$line" != 0 ] && [ "$gotline" != "$line" ] &&
        why="first evidence line '$gotline', expected $line"
    [ -z "$why" ] && [ "$rc" != "$want_rc" ] && why="exit status $rc, expected $want_rc"
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: $why"
        sed -n '1,40p' "$out"
    fi
done <"$DIR/MANIFEST"
echo "corpus: $pass passed, $failed failed"
[ "$failed" = 0 ] && [ "$pass" -ge 60 ]
