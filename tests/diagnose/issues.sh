#!/bin/sh
# Excerpts of real logs from public issues (tests/diagnose/issues/, sources in SOURCES): each
# through the CLI, `headroom diagnose --no-system --json`; the cause, its confidence, the
# winner's first evidence line and the cause ranked second must be the expected ones.
# usage: issues.sh HEADROOM ISSUES_DIR [RUNNER]   (RUNNER: e.g. wine for headroom.exe)
set -u
HR=$1
DIR=$2
RUN=${3:-}
pass=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
while read -r name cause conf line second; do
    case "$name" in ''|'#'*) continue ;; esac
    $RUN "$HR" diagnose --no-system --json "$DIR/$name.log" >"$out" 2>/dev/null
    # the top level's cause and confidence; the findings' causes in rank order (6 spaces)
    got=$(sed -n 's/^  "cause": "\(.*\)",*\r*$/\1/p' "$out" | head -n 1)
    gotconf=$(sed -n 's/^  "confidence": "*\([a-z]*\)"*,*\r*$/\1/p' "$out" | head -n 1)
    [ "$gotconf" = null ] && gotconf=-
    gotline=$(sed -n 's/^ *"line": \([0-9]*\),*\r*$/\1/p' "$out" | head -n 1)
    got2=$(sed -n 's/^      "cause": "\(.*\)",*\r*$/\1/p' "$out" | sed -n 2p)
    [ -z "$got2" ] && got2=-
    why=""
    [ "$got" != "$cause" ] && why="cause '$got', expected '$cause'"
    [ -z "$why" ] && [ "$gotconf" != "$conf" ] && why="confidence '$gotconf', expected '$conf'"
    [ -z "$why" ] && [ "$line" != 0 ] && [ "$gotline" != "$line" ] &&
        why="first evidence line '$gotline', expected $line"
    [ -z "$why" ] && [ "$got2" != "$second" ] && why="ranked second '$got2', expected '$second'"
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: $why"
        sed -n '1,30p' "$out"
    fi
done <"$DIR/MANIFEST"
echo "issues: $pass passed, $failed failed"
[ "$failed" = 0 ] && [ "$pass" -ge 20 ]
