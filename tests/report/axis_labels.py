#!/usr/bin/env python3
"""The report's chart axes say what they show: on every recorded run (and the quiet one with
its paging rates scaled by 10 and by 3), each chart's five value labels are distinct and
evenly spaced — never "0/s 0/s 1/s 1/s" from quarters of 1 rounded.

    axis_labels.py HEADROOM SOURCE_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

hr, src = sys.argv[1], sys.argv[2]
fail = 0
tmp = tempfile.mkdtemp()
recs = sorted(glob.glob(os.path.join(src, 'tests', 'fixtures', 'recordings', '*.jsonl')))
quiet = os.path.join(src, 'tests', 'fixtures', 'recordings', 'watch-ok.jsonl')
for k in (3, 10):
    out = os.path.join(tmp, f'paging-x{k}.jsonl')
    with open(quiet) as f, open(out, 'w') as g:
        for line in f:
            g.write(re.sub(r'"(pages_(?:in|out)_ps)":(\d+)', lambda m: f'"{m.group(1)}":{int(m.group(2)) * k}', line))
    recs.append(out)


def number(label):
    m = re.match(r'^([\d.]+)\s*(/s|%|[KMGT]i?B|B)?$', label.replace('\u00a0', ' '))
    return float(m.group(1)) if m else None


for rec in recs:
    page = os.path.join(tmp, 'page.html')
    p = subprocess.run([hr, 'report', rec, '-o', page], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f'FAIL: {rec}: report failed: {p.stdout.decode()}')
        fail = 1
        continue
    html = open(page, encoding='utf-8').read()
    for fig in re.findall(r'<figure id="(chart-[a-z]+)">(.*?)</figure>', html, re.S):
        name, body = fig
        labels = [l for l in re.findall(r'<text class="axis"[^>]*text-anchor="end">([^<]*)<', body)
                  if not re.match(r'^\d+:\d\d', l)]
        if not labels:
            continue
        values = [number(l) for l in labels]
        ok = len(labels) == 5 and None not in values and len(set(labels)) == 5 and \
            all(b > a for a, b in zip(values, values[1:]))
        if ok and name == 'chart-paging':
            step = values[1] - values[0]
            ok = all(abs((b - a) - step) < 1e-9 for a, b in zip(values, values[1:]))
        if not ok:
            print(f'FAIL: {os.path.basename(rec)}: {name}: axis {labels}')
            fail = 1
        elif name == 'chart-paging':
            print(f'{os.path.basename(rec)}: {name}: {" ".join(labels)}')
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(fail)
