#!/usr/bin/env python3
"""Regenerate (or check) the command examples of README.md and docs/*.md from real runs.

    doc-examples.py [--check] [--bin PATH] [FILE.md ...]

An example is a fenced block right after a marker line:

    <!-- example: headroom check --replay tests/fixtures/windows/s6-16g-c4-d64.json -->
    ```
    ...the command's real output...
    ```

The command runs in bash, in a scratch folder that holds what the docs name: the repository's
tests/ and bench/ (as links), the sample workflows by their bare names (sdxl_txt2img.json ...),
and a ComfyUI folder with real model headers over sparse data (tests/models/make_models.py),
with `headroom` on PATH. The environment is fixed so that the output is the same on any
machine: English, UTC, no ComfyUI server (HEADROOM_COMFYUI_URL points at a closed port), an
empty HOME. A block whose first line starts with "$ " or "> " keeps that line (the prompt the
reader types) and gets the output below it. The marker `<!-- example: session -->` makes
every "$ " line of the block a command, each followed by its output. Standard error is shown with standard output, as
a terminal shows both.

Without --check the blocks are rewritten in place. With --check nothing is written and the exit
status is 1 when a block differs from what the program prints now (a page and the program
disagree), with a diff; the test docs.examples runs that.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MARKER = re.compile(r'^<!-- example: (.*?) -->\s*$')


def find_examples(lines):
    """(marker line index, fence open index, fence close index, command) for each example."""
    out = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or not lines[j].lstrip().startswith('```'):
            raise SystemExit(f'line {i + 1}: an example marker must be followed by a fenced block')
        indent = lines[j][:len(lines[j]) - len(lines[j].lstrip())]
        k = j + 1
        while k < len(lines) and lines[k].strip() != '```':
            k += 1
        if k >= len(lines):
            raise SystemExit(f'line {j + 1}: the fenced block never closes')
        out.append((i, j, k, m.group(1), indent))
        i = k + 1
    return out


def scratch(binary):
    """The folder the examples run in, and their environment."""
    d = tempfile.mkdtemp(prefix='hr-doc-examples-')
    bindir = os.path.join(d, '.bin')
    os.mkdir(bindir)
    os.symlink(os.path.abspath(binary), os.path.join(bindir, 'headroom'))
    for sub in ('tests', 'bench', 'docs'):
        os.symlink(os.path.join(ROOT, sub), os.path.join(d, sub))
    for f in glob.glob(os.path.join(ROOT, 'tests', 'fixtures', 'workflows', '*.json')):
        shutil.copy(f, d)
    subprocess.run([sys.executable, os.path.join(ROOT, 'tests', 'models', 'make_models.py'),
                    os.path.join(d, 'ComfyUI')], check=True, stdout=subprocess.DEVNULL)
    home = os.path.join(d, '.home')
    os.mkdir(home)
    env = {
        'PATH': bindir + ':/usr/local/bin:/usr/bin:/bin',
        'HOME': home,
        'LANG': 'C.UTF-8',
        'TZ': 'UTC',
        'COLUMNS': '100',
        'TERM': 'dumb',
        'NO_COLOR': '1',
        'HEADROOM_COMFYUI_URL': 'http://127.0.0.1:9',
    }
    return d, env


def run(cmd, cwd, env):
    p = subprocess.run(['bash', '-c', cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    text = p.stdout.decode('utf-8', 'replace').replace(cwd + '/', '').replace(cwd, '.')
    return [ln.rstrip() for ln in text.rstrip('\n').split('\n')]


def regenerate(cmd, body, indent, cwd, env):
    """The block as the program prints it now."""
    def out(c):
        return [indent + ln if ln else ln for ln in run(c, cwd, env)]
    if cmd == 'session':
        # Every "$ " line is a command the reader types; what follows it, up to the next one,
        # is its output.
        new = []
        for ln in body:
            if ln.strip().startswith('$ '):
                new.append(ln)
                new += out(ln.strip()[2:])
        return new
    keep = [body[0]] if body and body[0].lstrip().startswith(('$ ', '> ')) else []
    return keep + out(cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'src', 'headroom'))
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    files = a.files or [os.path.join(ROOT, 'README.md')] + sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md')))
    if not os.access(a.bin, os.X_OK):
        raise SystemExit(f'{a.bin}: no headroom binary there (build first, or give --bin)')
    cwd, env = scratch(a.bin)
    count = differ = 0
    try:
        for path in files:
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            try:
                examples = find_examples(lines)
            except SystemExit as e:
                raise SystemExit(f'{os.path.relpath(path, ROOT)}: {e}')
            for mi, open_i, close_i, cmd, indent in reversed(examples):
                body = lines[open_i + 1:close_i]
                new = regenerate(cmd, body, indent, cwd, env)
                count += 1
                if new != body:
                    differ += 1
                    rel = os.path.relpath(path, ROOT)
                    if a.check:
                        sys.stdout.writelines(difflib.unified_diff(
                            [ln + '\n' for ln in body], [ln + '\n' for ln in new],
                            f'{rel}:{open_i + 2} (the page)', f'{cmd} (the program now)'))
                    lines[open_i + 1:close_i] = new
            if not a.check:
                with open(path, 'w', encoding='utf-8') as f:
                    f.write('\n'.join(lines))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    verb = 'differ from the program' if a.check else 'rewritten'
    print(f'doc-examples: {count} examples, {differ} {verb}')
    return 1 if a.check and differ else 0


if __name__ == '__main__':
    sys.exit(main())
