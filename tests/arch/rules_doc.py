#!/usr/bin/env python3
"""docs/rules.md defines every rule the code cites, with the files that cite it.

A rule is cited as S<n>.<m> (the guide's sections; S6 alone) or X.<name> (headroom's own).
For each one found in src/, docs/rules.md must have a heading "### <rule> ..." and list each
citing file, as `src/...`, in that rule's section; every file the page lists must exist.
Exit 1 with one line per offence."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
CITE = re.compile(r'\b(S[1-6]\.[0-9]|S6|X\.[a-z0-9]+)\b')
cited = {}
for dirpath, _, files in os.walk(os.path.join(root, 'src')):
    for f in sorted(files):
        if not f.endswith(('.c', '.h')):
            continue
        path = os.path.join(dirpath, f)
        rel = os.path.relpath(path, root).replace(os.sep, '/')
        for m in CITE.finditer(open(path, encoding='utf-8', errors='replace').read()):
            cited.setdefault(m.group(1), set()).add(rel)

doc = open(os.path.join(root, 'docs', 'rules.md'), encoding='utf-8').read()
sections = {}
for part in re.split(r'^### ', doc, flags=re.M)[1:]:
    name = part.split(None, 1)[0]
    sections[name] = part.split('\n## ', 1)[0]

bad = []
for rule in sorted(cited):
    if rule not in sections:
        bad.append(f'docs/rules.md: no section "### {rule}" (cited in {", ".join(sorted(cited[rule]))})')
        continue
    for f in sorted(cited[rule]):
        if f'`{f}`' not in sections[rule]:
            bad.append(f'docs/rules.md: {rule} does not list `{f}`, which cites it')
for f in sorted(set(re.findall(r'`(src/[^`]+)`', doc))):
    if not os.path.isfile(os.path.join(root, f)):
        bad.append(f'docs/rules.md: lists {f}, which does not exist')
if not cited:
    sys.exit('rules_doc: no rule cited under src/: the check would prove nothing')
for b in bad:
    print(b)
print(f'rules_doc: {len(cited)} rules cited, {len(bad)} problems')
sys.exit(1 if bad else 0)
