#!/usr/bin/env bash
# A paging file's drive letter is shown upper-case, as Explorer writes it: the registry often
# holds "c:\pagefile.sys" (lower-case), which status and check showed as is. Every recorded
# Windows machine, replayed with each path's drive letter lower-cased, must show only
# upper-case drive letters and give the same verdict (only the display changes).
# usage: drive_letter.sh HEADROOM FIXTURES
set -u   # no pipefail: `echo | grep -q` would fail when grep stops reading early
hr=$1 fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for f in "$fx"/windows/*.json; do
  low="$tmp/$(basename "$f")"
  python3 - "$f" "$low" <<'PY' || { echo "FAIL: cannot lower-case $f"; fail=1; continue; }
import json, re, sys
d = json.load(open(sys.argv[1]))
def low(s):
    return re.sub(r'(^|\\\?\?\\)([A-Z]):\\', lambda m: m.group(1) + m.group(2).lower() + ':\\', s)
reg = d.get('registry', {})
for k in ('paging_files', 'existing_page_files'):
    if isinstance(reg.get(k), dict) and 'strings' in reg[k]:
        reg[k]['strings'] = [low(s) for s in reg[k]['strings']]
epf = d.get('enum_page_files', {})
for e in epf.get('files', []) if isinstance(epf, dict) else []:
    e['name'] = low(e['name'])
json.dump(d, open(sys.argv[2], 'w'))
PY
  grep -q '[a-z]:\\\\pagefile' "$low" || continue   # no paging file path in this recording
  n=$((n + 1))
  for cmd in status check; do
    for lang in C zh_CN.UTF-8; do
      out=$(LANG=$lang "$hr" $cmd --replay "$low" 2>&1); rc=$?
      LANG=$lang "$hr" $cmd --replay "$f" >/dev/null 2>&1; want=$?
      [ "$rc" = "$want" ] || { echo "FAIL: $cmd $(basename "$f"): exit $rc, $want with upper case"; fail=1; }
      bad=$(echo "$out" | grep -o '[a-z]:\\pagefile\.sys' | head -1)
      [ -z "$bad" ] || { echo "FAIL: $cmd $(basename "$f") ($lang) shows $bad"; fail=1; }
    done
  done
done
[ "$n" -ge 5 ] || { echo "FAIL: only $n recordings with a paging file path"; fail=1; }
[ "$fail" = 0 ] && echo "drive letters: $n recorded machines, lower-cased paths shown upper-case"
exit $fail
