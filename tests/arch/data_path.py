#!/usr/bin/env python3
"""check's data path, checked (ARCHITECTURE.md, "Data flow"): check reads the status report
and the plan's facts, never the raw snapshot.

hr_check_compute() is the one entry that takes a snapshot: it computes the status report
once (hr_status_compute) and keeps it in hr_check. Outside that function no code in
src/core/check/ (comments aside) may name the snapshot -- the type hr_snapshot or its
helpers hr_snapshot_*(), a `snap` variable or member (the report's pointer back to the
snapshot included) -- nor compute a status report again: hr_status_compute(), or the
wrappers that take a snapshot and compute one inside (hr_status_text/json/prom).
Exit 1 with one line per offence."""
import os
import re
import sys

check = os.path.join(sys.argv[1] if len(sys.argv) > 1 else '.', 'src', 'core', 'check')
ENTRY = 'hr_check_compute'
FORBIDDEN = re.compile(r'\bhr_snapshot\w*|\bsnap\b|\bhr_status_compute\b|\bhr_status_(?:text|json|prom)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def blank(m):
    """A comment or the entry, replaced by its newlines: line numbers stay true."""
    return '\n' * m.group(0).count('\n')


bad = []
files = sorted(f for f in os.listdir(check) if f.endswith(('.c', '.h')))
if not files:
    sys.exit('data_path: no source in ' + check)
entry_seen = False
for f in files:
    text = COMMENT.sub(blank, open(os.path.join(check, f), encoding='utf-8').read())
    # The entry: its prototype (ends at ';') and its definition (ends at the first '}' in
    # column 0), both allowed to name the snapshot.
    proto = re.compile(r'^void ' + ENTRY + r'\([^;{]*\);', re.M)
    defn = re.compile(r'^void ' + ENTRY + r'\([^;{]*\)\s*\{.*?^\}', re.M | re.S)
    text, n_def = defn.subn(blank, text)
    text = proto.sub(blank, text)
    entry_seen |= n_def > 0
    for no, line in enumerate(text.split('\n'), 1):
        if line.lstrip().startswith('#include'):
            continue
        for m in FORBIDDEN.finditer(line):
            bad.append(f'src/core/check/{f}:{no}: {m.group(0).strip()} outside {ENTRY}(): check reads '
                       'the status report and the plan\'s facts, not the snapshot')
if not entry_seen:
    bad.append(f'src/core/check/: no definition of {ENTRY}() found')
for b in bad:
    print(b)
print(f'data_path: {len(files)} files of src/core/check read, {len(bad)} reads of the snapshot past the entry')
sys.exit(1 if bad else 0)
