#!/usr/bin/env python3
"""headroom report streams a recording: a 1 GiB recording (about 3 million samples, written
here in a temporary folder and removed) is read in a few MiB, and every sample is counted.
The whole file was read into memory before (up to 512 MiB, then refused).

    large_test.py HEADROOM

The memory bound is judged only without a sanitizer (HR_SANITIZED unset): AddressSanitizer's
own shadow and quarantine would be measured instead."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

binary = sys.argv[1]
GB = 1 << 30
SIZE = 1 << 30
BOUND_KIB = 8 << 10
fails = []

tmp = tempfile.mkdtemp(prefix='hr-report-large-')
try:
    rec = os.path.join(tmp, 'long.jsonl')
    # the values cycle through a block of lines; only "t" changes from block to block
    tails = [(',"ram_total":17179869184,"ram_used":%d,"ram_available":%d,"swap_total":8589934592,'
              '"swap_used":%d,"commit":%d,"commit_limit":25769803776,"pages_in_ps":%d,'
              '"pages_out_ps":0,"psi_some_avg10":1.5,"psi_full_avg10":0.2,"disk_busy_pct":3,'
              '"proc_rss":%d,"vram_used":%d,"vram_total":12884901888}\n') %
             (8 * GB + (i % 977) * 10**6, 8 * GB - (i % 977) * 10**6, (i % 501) * 10**6,
              10 * GB + (i % 1301) * 10**6, i % 50, 4 * GB + (i % 733) * 10**5,
              6 * GB + (i % 211) * 10**6) for i in range(4096)]
    n = 0
    with open(rec, 'w') as f:
        f.write('{"type":"header","schema":"headroom.recording/1","version":"0.1.0","os":"linux",'
                '"started":1764702000123,"interval_ms":1000,"mode":"watch"}\n')
        size = 0
        while size < SIZE:
            block = ''.join('{"type":"sample","t":%d%s' % ((n + i) * 1000, tail)
                            for i, tail in enumerate(tails))
            f.write(block)
            size += len(block)
            n += len(tails)
        f.write('{"type":"end","t":%d,"peaks":{}}\n' % (n * 1000))
    # The peak resident size of headroom alone: GNU time forks it from its own small
    # process. Forked from python3 instead, the child's peak starts at python's own size
    # (about 14 MiB): without /usr/bin/time that floor is measured and allowed for.
    page = os.path.join(tmp, 'long.html')
    argv = [binary, '--lang', 'en', 'report', rec, '-o', page]
    floor = 0
    if os.access('/usr/bin/time', os.X_OK):
        p = subprocess.run(['/usr/bin/time', '-f', 'maxrss %M', *argv], capture_output=True,
                           text=True, timeout=1500)
        said = p.stdout + p.stderr
        rc = p.returncode
        kib = int([l for l in p.stderr.splitlines() if l.startswith('maxrss ')][-1].split()[1])
    else:
        meter = ('import resource, subprocess, sys\n'
                 'p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n'
                 'print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n'
                 'print(p.stdout.strip() + " " + p.stderr.strip())\n')
        floor = int(subprocess.run([sys.executable, '-c', meter, 'true'], capture_output=True,
                                   text=True).stdout.split()[1])
        out = subprocess.run([sys.executable, '-c', meter, *argv], capture_output=True, text=True,
                             timeout=1500).stdout
        first, said = out.split('\n', 1)
        rc, kib = (int(x) for x in first.split())
    bound = floor + BOUND_KIB if not os.environ.get('HR_SANITIZED') else 1 << 40
    if rc != 0 or f'({n} samples, 0 warnings)' not in said or not os.path.getsize(page):
        fails.append(f'exit {rc}: {said.strip()[:300]} (expected {n} samples)')
    if kib >= bound:
        fails.append(f'peak resident {kib} KiB for a {os.path.getsize(rec) >> 20} MiB recording '
                     f'(want under {bound} KiB)')
    print(f'report of {os.path.getsize(rec) >> 20} MiB, {n} samples: peak resident {kib} KiB')
finally:
    shutil.rmtree(tmp, ignore_errors=True)

for f in fails:
    print('FAIL:', f)
sys.exit(1 if fails else 0)
