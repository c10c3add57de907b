#!/usr/bin/env python3
"""Why a model file could not be read is worded where it is shown: a read the platform refuses
(a FIFO named like a model: "not a regular file") reads in Chinese in `models --lang zh` and in
English in `models --json --lang zh`. The platform's words were once kept as it wrote them, in
the language of the moment, so the JSON said them in Chinese.

    read_error_lang.py HEADROOM

The temporary folder is removed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

binary = sys.argv[1]
fails = []


def run(*args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)


tmp = tempfile.mkdtemp(prefix='hr-readlang-')
try:
    fifo = os.path.join(tmp, 'pipe.safetensors')
    os.mkfifo(fifo)
    # named on the command line (a folder's walk lists regular files only)
    for args in ([fifo],):
        p = run('models', '--json', '--lang', 'zh', *args)
        doc = json.loads(p.stdout) if p.stdout.startswith('{') else {}
        errs = [f.get('error') for f in doc.get('files', []) if f.get('path') == fifo]
        if p.returncode != 3 or errs != [f'{fifo}: not a regular file']:
            fails.append(f'models --json --lang zh {args}: exit {p.returncode}, errors {errs}, {p.stderr[:200]}')
        p = run('models', '--lang', 'zh', *args)
        if p.returncode != 3 or '不是普通文件' not in p.stdout or 'not a regular file' in p.stdout:
            fails.append(f'models --lang zh {args}: exit {p.returncode}: {p.stdout[-300:]}')
        p = run('models', '--json', *args)
        doc = json.loads(p.stdout) if p.stdout.startswith('{') else {}
        errs = [f.get('error') for f in doc.get('files', []) if f.get('path') == fifo]
        if errs != [f'{fifo}: not a regular file']:
            fails.append(f'models --json {args}: errors {errs}')
finally:
    shutil.rmtree(tmp, ignore_errors=True)

for f in fails:
    print('FAIL:', f)
sys.exit(1 if fails else 0)
