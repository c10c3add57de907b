#!/usr/bin/env bash
# Replay one recorded Linux tree through `headroom status` and compare with what it must say.
#
#   tests/status_fixtures.sh HEADROOM_BINARY SCENARIO_DIR
#
# A scenario directory (tests/fixtures/linux/<name>/, tests/fixtures/linux-hostile/<name>/)
# holds a small /proc + /sys tree and:
#   expected.json   the exact `headroom status --sysroot DIR --json` output (byte for byte)
#   expected.exit   optional: the exit status (default 0, and 3 = partial for linux-hostile/)
#   text-phrases    optional: one phrase per line that the human report must contain
#   GENERATE        optional: a bash snippet run in a temporary copy of the tree before the
#                   replay (for inputs too big to commit, e.g. a meminfo over the read cap)
#
# Regenerate expected.json after a deliberate change of the report with
#   HR_UPDATE_EXPECTED=1 ctest -R status.fixture
# and then READ the diff: an expected file states what is true of the tree, not whatever
# the tool printed.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 HEADROOM_BINARY SCENARIO_DIR" >&2
    exit 2
fi
BIN=$1
DIR=${2%/}
NAME=$(basename "$DIR")
fail() { echo "FAIL [$NAME]: $*" >&2; exit 1; }
[ -d "$DIR" ] || fail "no such scenario directory: $DIR"
command -v python3 >/dev/null || fail "python3 is needed to check the JSON"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/hr-fixture.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ROOT=$DIR
if [ -f "$DIR/GENERATE" ]; then
    ROOT=$TMP/root
    cp -a "$DIR" "$ROOT"
    (cd "$ROOT" && bash ./GENERATE) || fail "GENERATE failed"
fi

case "$DIR" in
*/linux-hostile/*) want_rc=3 ;;
*) want_rc=0 ;;
esac
[ -f "$DIR/expected.exit" ] && want_rc=$(tr -d ' \n' <"$DIR/expected.exit")

# 1. JSON: exit status, a valid document, the same bytes as expected.json.
rc=0
"$BIN" status --sysroot "$ROOT" --json >"$TMP/out.json" 2>"$TMP/err.txt" || rc=$?
[ "$rc" = "$want_rc" ] || { cat "$TMP/err.txt" >&2; fail "--json exit status $rc, expected $want_rc"; }
python3 - "$TMP/out.json" "$rc" <<'EOF' || fail "the JSON document is not what a script can rely on"
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
rc = int(sys.argv[2])
assert doc["schema"].startswith("headroom.status/"), "schema missing"
assert doc["partial"] == (rc == 3), "partial flag %r with exit status %d" % (doc["partial"], rc)
sections = ["ram", "commit", "paging_status", "volumes_status", "compression", "cgroup",
            "gpus_status", "power"]
unknown = [s for s in sections if doc[s]["unknown_reason"]]
if rc == 3:
    assert unknown, "partial, but no section says why"
    # Sections fail alone: at least one other section must still be filled.
    assert len(unknown) < len(sections), "every section unknown"
else:
    assert not unknown, "exit status 0 but unknown: %s" % unknown
# Unknown values are null with a reason, never a silent 0: a section that failed says why.
for s in unknown:
    assert isinstance(doc[s]["unknown_reason"], str) and doc[s]["unknown_reason"].strip()
EOF
if grep -qF "$ROOT" "$TMP/out.json"; then
    fail "the report names the sysroot path; paths must read as on the recorded machine"
fi
if [ "${HR_UPDATE_EXPECTED:-0}" = 1 ]; then
    cp "$TMP/out.json" "$DIR/expected.json"
    echo "updated $DIR/expected.json: review the diff before committing"
elif [ ! -f "$DIR/expected.json" ]; then
    fail "no expected.json (create it with HR_UPDATE_EXPECTED=1, then review it)"
elif ! cmp -s "$DIR/expected.json" "$TMP/out.json"; then
    diff -u "$DIR/expected.json" "$TMP/out.json" >&2 || true
    fail "JSON differs from expected.json"
fi

# 2. Text: same exit status, no colour codes when not on a terminal, the key phrases.
rc=0
"$BIN" status --sysroot "$ROOT" >"$TMP/out.txt" 2>"$TMP/err.txt" || rc=$?
[ "$rc" = "$want_rc" ] || { cat "$TMP/err.txt" >&2; fail "text exit status $rc, expected $want_rc"; }
if grep -q $'\033' "$TMP/out.txt"; then fail "colour codes in output that is not a terminal"; fi
if [ -f "$DIR/text-phrases" ]; then
    while IFS= read -r phrase || [ -n "$phrase" ]; do
        [ -n "$phrase" ] || continue
        grep -qF -- "$phrase" "$TMP/out.txt" || { cat "$TMP/out.txt" >&2; fail "text report lacks \"$phrase\""; }
    done <"$DIR/text-phrases"
fi
echo "ok [$NAME]: exit $rc, JSON as expected$([ -f "$DIR/text-phrases" ] && echo ", $(grep -c . "$DIR/text-phrases") phrases found")"
