#!/usr/bin/env python3
"""headroom models never follows a link up: to "/" (a drive's root), to a folder above the walk,
or to the folder it sits in. Each such link is named (text and JSON) and the walk goes on; a
link across, to a folder beside, is followed. Followed, a link to "/" walked the whole disk
(412 MB, then exit 65 with nothing listed).

    links_test.py [RUNNER...] HEADROOM

With a runner (Wine), paths are given and expected as Windows sees them (Z:\\...). The links are
the file system's own (Wine shows Unix links as folder links). The temporary folder is removed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
cmd = sys.argv[1:]
wine = len(cmd) > 1
fails = []


def shown(path):
    return 'Z:' + path.replace('/', '\\') if wine else path


def run(*args):
    p = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


tmp = tempfile.mkdtemp(prefix='hr-links-')
try:
    subprocess.run([sys.executable, os.path.join(here, 'make_models.py'), os.path.join(tmp, 'mm')],
                   check=True, stdout=subprocess.DEVNULL)
    lora = os.path.join(tmp, 'mm', 'models', 'loras', 'detail_sdxl_r32.safetensors')
    lk = os.path.join(tmp, 'links')
    os.makedirs(os.path.join(lk, 'models', 'loras', 'sub'))
    os.makedirs(os.path.join(lk, 'models', 'checkpoints'))
    os.makedirs(os.path.join(lk, 'beside'))
    shutil.copy(lora, os.path.join(lk, 'models', 'loras'))
    shutil.copy(lora, os.path.join(lk, 'beside', 'beside_lora.safetensors'))
    ups = {os.path.join(lk, 'models', 'loras', 'root'): '/',
           os.path.join(lk, 'models', 'checkpoints', 'tmp'): os.path.dirname(tmp),
           os.path.join(lk, 'models', 'checkpoints', 'up'): '../..',
           os.path.join(lk, 'models', 'loras', 'sub', 'back'): '..'}
    for link, target in ups.items():
        os.symlink(target, link)
    os.symlink('../../beside', os.path.join(lk, 'models', 'checkpoints', 'beside'))
    want = sorted(shown(k) for k in ups)

    rc, out, err = run('models', shown(os.path.join(lk, 'models')), '--json')
    d = json.loads(out) if out.startswith('{') else {}
    names = sorted(os.path.basename(f['path'].replace('\\', '/')) for f in d.get('files', []))
    wk = d.get('walk', {})
    if not (rc == 0 and names == ['beside_lora.safetensors', 'detail_sdxl_r32.safetensors']
            and wk.get('complete') is True and sorted(wk.get('links_not_followed', [])) == want
            and wk.get('links_not_followed_count') == len(ups)):
        fails.append(f'JSON: exit {rc}, files {names[:8]}, walk {wk}, {err[:200]}')

    rc, out, err = run('models', shown(os.path.join(lk, 'models')))
    said = [l for l in out.splitlines() if l.startswith('not followed:')]
    if not (rc == 0 and len(said) == len(ups) and
            all(any(l.startswith(f'not followed: {k}: ') for l in said) for k in want)):
        fails.append(f'text: exit {rc}: {said} {err[:200]}')
finally:
    shutil.rmtree(tmp, ignore_errors=True)

for f in fails:
    print('FAIL:', f)
print(f'links_test: {len(fails)} failure(s)')
sys.exit(1 if fails else 0)
