#!/usr/bin/env python3
"""Chinese output read as a Chinese reader reads it, and English output as an English one.

    zh_output.py HEADROOM SOURCE_DIR [--list]

Runs the commands over every recorded machine (tests/fixtures/linux, tests/fixtures/windows),
every sample workflow and every diagnose log, plus every command's --help, once with
LANG=zh_CN.UTF-8 and once with LANG=C, and checks what a user would see:

  * Chinese output: no English word the catalogue should have translated (none, swap, VRAM,
    ok, high, ... outside commands, paths and field names); no ASCII punctuation touching a
    Chinese character; no space after full-width punctuation or before "%"; no Chinese
    character glued to a Latin word.
  * English output: no Chinese character.
  * Both: columns line up by display width (a CJK character takes two columns): a block
    of rows padded by characters or bytes instead fails.

Every finding is printed with the command and the line; the exit status is 1 when there is one.
"""
import glob
import os
import re
import subprocess
import sys
import unicodedata

CJK = r'\u3400-\u9fff\uf900-\ufaff'
FULLWIDTH_PUNCT = '，。：；？！（）“”、'
RE_CJK = re.compile('[' + CJK + ']')

# English words that are the program's own prose (the glossary's rule 12), not names.
LEAKS = ['none', 'swap', 'vram', 'ok', 'high', 'medium', 'low', 'heuristic', 'registry',
         'unknown', 'yes', 'no', 'exit code', 'exit status', 'unlimited', 'free', 'used',
         'total', 'pagefile', 'paging file', 'page cache', 'offload', 'fits', 'will fail',
         'at risk', 'confidence', 'cause', 'node', 'prompt', 'warning', 'error', 'dry run',
         'step', 'steps', 'size', 'limit', 'peak', 'need', 'needs', 'see', 'and', 'or',
         'the', 'of', 'is', 'not', 'file', 'files', 'found', 'missing', 'idle', 'samples']
RE_LEAK = re.compile(r'(?<![A-Za-z0-9_./=:\-<>\[{])(' + '|'.join(re.escape(w) for w in LEAKS) +
                     r')(?![A-Za-z0-9_./=\-\]>}(])', re.I)


def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in 'WF' else 0 if unicodedata.combining(c)
               else 1 for c in s)


def is_code_line(line):
    """A line that is a command to type, a config line or quoted foreign text."""
    s = line.strip()
    return (s.startswith('$ ') or s.startswith('> ') or s.startswith('PS ') or
            s.startswith('sudo ') or s.startswith('#') or s.startswith('echo ') or
            re.match(r'^\d+ \| ', s) is not None or s.startswith('| ') or
            s.startswith('"') or s.startswith('<'))


def strip_code(line):
    """The line without what stays in English by rule: paths, options, field names, quoted
    log text, commands after "headroom", backticks, URLs."""
    line = re.sub(r'\S+\.log:\d+: .*', '', line)       # a quoted log line, as the log wrote it
    line = re.sub(r' \[[a-z0-9-]+\]', '', line)         # a cause's id
    line = re.sub(r'\b\w+\(\w+\)', '§', line)            # a call as code writes it: f(x)
    line = re.sub(r'“[^”]*”', '“”', line)
    line = re.sub(r'"[^"]*"', '""', line)
    line = re.sub(r"'[^']*'", "''", line)
    line = re.sub(r'`[^`]*`', '``', line)
    line = re.sub(r'https?://\S+', '§', line)
    line = re.sub(r'(?<![^\s（“])(?:[A-Z?]:)?[/\\][^\s，。：；）]*', '§', line)
    line = re.sub(r'\b[A-Z]:(?=[\s，。；）]|$)', '§', line)
    line = re.sub(r' \[(?:S\d|X\.)[^\]]*\]', '', line)
    line = re.sub(r'^\s*! ', '', line)                    # a warning's marker
    line = re.sub(r'\b(?:FILE|SIZE|DIR|PATTERN|URL|MS|N|COMMAND|ARGS|LOG|WORKFLOW|RECORDING|PATH|PID|DUR)\b',
                  '§', line)                           # an option's metavariable   # the rule's tag, set apart by design
    line = line.replace('(MB)', '')      # the dialog's own label, copied as it is
    line = re.sub(r'--?[A-Za-z][\w-]*(?:[ =](?:[A-Za-z0-9_.:|%-]+))?', '§', line)
    line = re.sub(r'\bheadroom(?: [a-z]+)?', '§', line)
    # ComfyUI's and the kernel's own names (node types, log phrases, model file names).
    line = re.sub(r'\b[A-Za-z0-9_.-]+\.(?:safetensors|gguf|ckpt|pt|pth|bin|json|log|sys|swap)\b',
                  '§', line)
    return line


def zh_findings(line):
    out = []
    if is_code_line(line) or not RE_CJK.search(line):
        return out
    s = strip_code(line)
    for m in RE_LEAK.finditer(s):
        out.append(f'English word "{m.group(1)}"')
    for m in re.finditer('[' + CJK + r'] ?[,;:!?(]|[,;:!?)] ?[' + CJK + ']|[' + CJK + r']\.(?:\s|$)', s):
        out.append(f'ASCII punctuation in Chinese: "{m.group(0)}"')
    for m in re.finditer('[' + FULLWIDTH_PUNCT.replace('（', '').replace('“', '') + r'] (?! )[^\s=+→–×-]', s):
        out.append(f'space after full-width punctuation: "{m.group(0)}"')
    for m in re.finditer(r'\d %', s):
        out.append(f'space before %: "{m.group(0)}"')
    for m in re.finditer('[' + CJK + '][A-Za-z]{2,}|[A-Za-z]{2,}[' + CJK + ']', s):
        out.append(f'Chinese glued to a Latin word: "{m.group(0)}"')
    return out


def en_findings(line):
    # Quoted log lines and example commands keep what the user wrote.
    line = re.sub(r'\S+\.log:\d+: .*', '', line)
    if line.strip().startswith('headroom ') or is_code_line(line):
        return []
    if RE_CJK.search(line):
        return ['Chinese in English output']
    return []


def cells(line):
    """(start, end, text) of the cells of a line, cells separated by two or more spaces, in
    characters; the caller measures them."""
    out = []
    for m in re.finditer(r'\S+(?: \S+)*', line):
        out.append((m.start(), m.end(), m.group(0)))
    return out


def column_findings(lines):
    """Rows of one table: consecutive lines of the same indent with the same number of cells
    (3 or more, cells split at two or more spaces): each column starts or ends at one display
    column in every row."""
    out = []
    i = 0
    ordinal = 0
    while i < len(lines):
        c0 = cells(lines[i])
        j = i + 1
        if len(c0) >= 3:
            while j < len(lines) and len(cells(lines[j])) == len(c0) and \
                    cells(lines[j])[0][0] == c0[0][0]:
                j += 1
        block = lines[i:j]
        if len(block) >= 2:
            ordinal += 1
            rows = [cells(l) for l in block]
            for k in range(1, len(c0)):
                def edges(measure):
                    starts = {measure(l[:r[k][0]]) for l, r in zip(block, rows)}
                    ends = {measure(l[:r[k][1]]) for l, r in zip(block, rows)}
                    return len(starts) == 1 or len(ends) == 1
                if not edges(width):
                    out.append((ordinal, k, block))
                    break
        i = max(j, i + 1)
    return out


def commands(src):
    fx = os.path.join(src, 'tests', 'fixtures')
    runs = []
    for d in sorted(glob.glob(os.path.join(fx, 'linux', '*'))):
        if os.path.isdir(d):
            for c in (['status'], ['check'], ['check', '--vram', '8G', '--workload', 'flux'],
                      ['plan'], ['plan', '--vram', '12G', '--workload', 'video']):
                runs.append(c + ['--sysroot', d])
    for f in sorted(glob.glob(os.path.join(fx, 'windows', '*.json'))):
        for c in (['status'], ['check'], ['check', '--vram', '8G', '--workload', 'flux'],
                  ['plan'], ['plan', '--vram', '12G', '--workload', 'video']):
            runs.append(c + ['--replay', f])
    for f in sorted(glob.glob(os.path.join(fx, 'workflows', '*.json'))):
        runs.append(['workflow', f])
        runs.append(['estimate', '--os', 'windows', '--ram', '16G', '--vram', '8G', f])
        runs.append(['estimate', '--os', 'linux', '--ram', '32G', '--vram', '12G', f])
    for f in sorted(glob.glob(os.path.join(src, 'tests', 'diagnose', '*', '*.log'))):
        runs.append(['diagnose', '--no-system', f])
    for c in ('check', 'status', 'plan', 'apply', 'rollback', 'verify', 'watch', 'run',
              'diagnose', 'export', 'report', 'stress', 'models', 'estimate', 'workflow'):
        runs.append([c, '--help'])
    runs.append(['--help'])
    # run's own verdict on a child that fails and one that ends well (no ComfyUI, no cgroup).
    runs.append(['run', '--no-cgroup', '--interval', '200', '--', 'sh', '-c', 'exit 3'])
    runs.append(['run', '--no-cgroup', '--interval', '200', '--', 'true'])
    return runs


def main():
    hr, src = sys.argv[1], sys.argv[2]
    runs = commands(src)
    findings = 0
    seen = set()
    ragged_en = set()
    for lang in ('C', 'zh_CN.UTF-8'):
        env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'LANG': lang, 'TZ': 'UTC',
               'HOME': '/nonexistent', 'HEADROOM_COMFYUI_URL': 'http://127.0.0.1:9'}
        for args in runs:
            p = subprocess.run([hr] + args, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
            text = p.stdout.decode('utf-8', 'replace')
            shown = ' '.join(os.path.relpath(a, src) if a.startswith(src) else a for a in args)
            lines = text.splitlines()
            check = zh_findings if lang.startswith('zh') else en_findings
            for line in lines:
                for f in check(line):
                    key = (lang, f, line.strip())
                    if key in seen:
                        continue
                    seen.add(key)
                    findings += 1
                    print(f'{lang[:2]}: {shown}: {f}\n    {line}')
            # A column is judged against the English layout of the same command: one that is
            # ragged in English too is free text, not a table column.
            for ordinal, k, block in column_findings(lines):
                n = len(cells(block[0]))
                if lang == 'C':
                    ragged_en.update({(shown, ordinal, k), (shown, ordinal, k - n)})
                    continue
                key = (lang, k, block[0])
                if (shown, ordinal, k) in ragged_en or (shown, ordinal, k - n) in ragged_en or key in seen:
                    continue
                seen.add(key)
                findings += 1
                print(f'zh: {shown}: column {k + 1} does not line up in display columns\n' +
                      '\n'.join('    ' + l for l in block))
    print(f'{len(runs)} commands in 2 languages: {findings} findings')
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
