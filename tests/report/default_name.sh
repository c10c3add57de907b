#!/usr/bin/env bash
# report RECORDING without -o never replaces a page already there: the default name is not
# the user's choice, so report.html is kept and the page goes to report-1.html, report-2.html.
# A file named with -o is replaced, as asked.
# usage: default_name.sh HEADROOM SOURCE_DIR
set -u   # no pipefail: `echo | grep -q` would fail when grep stops reading early
hr=$1 src=$2
rec="$src/tests/fixtures/recordings/watch-ok.jsonl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$hr" report "$rec" >out1 || bad "first report: $(cat out1)"
[ -s report.html ] || bad "no report.html"
echo "an earlier page the user keeps" >report.html
out=$("$hr" report "$rec") || bad "second report failed: $out"
[ "$(cat report.html)" = "an earlier page the user keeps" ] || bad "report.html was replaced"
[ -s report-1.html ] || bad "no report-1.html"
echo "$out" | grep -q "report.html exists and is kept" || bad "not said: $out"
echo "$out" | grep -q "report-1.html written" || bad "the new name not said: $out"
"$hr" report "$rec" >/dev/null && [ -s report-2.html ] || bad "third page is not report-2.html"
cmp -s report-1.html report-2.html || bad "the pages differ"

"$hr" report "$rec" -o report.html >/dev/null || bad "-o report.html failed"
grep -q "<html" report.html || bad "-o report.html did not replace the file named"
[ -e report-3.html ] && bad "-o wrote a numbered page"

[ "$fail" = 0 ] && echo "report: the default name keeps an earlier page; -o replaces the file named"
exit $fail
