#!/usr/bin/env python3
"""Find English shown to the user that bypasses the catalogue.

tools/extract-messages.sh sees only what is wrapped in HR_T / HR_N, so a message printed
as a bare literal would pass i18n.catalogue while existing in English only. This check reads
src/ and reports every string literal that reads as English prose (two words or more once
markup, conversions and escapes are removed) and is passed to a call that shows text —
printf and friends, the buffer and HTML writers, error setters, the CLI's error line —
without HR_T / HR_N / hr_tr around it. Allowed without translation (ALLOW below): JSON keys
and values (the JSON writer is not a printing call here), rule ids, command lines, file
names, and the few literals listed by file with their reason.

Messages written before this check existed and not yet translated are listed in
tests/i18n/literals-todo.txt (file and literal): they are reported as the work left, and a
message not in that list fails the check. The list only shrinks (--update rewrites it from
the source; nothing is ever added to it by hand).

usage: literals.py SOURCE_DIR [--update]   (exit 1 and the list when a new one is found)"""
import os
import re
import sys

# Calls that show their string arguments to a person (the format or text argument).
SHOWING = r'(?:printf|fprintf|fputs|puts|vfprintf|snprintf|hr_buf_printf|hr_buf_puts|' \
          r'hr_html_text|hr_html_textf|hr_cli_error|hr_error_set|hr_plan_line_add|' \
          r'hr_diag_note_source|hr_opt_bad_value|hr_cli_warn|hr_cli_note|hr_html_section|' \
          r'hr_html_verdict|hr_html_begin|hr_console_print|hr_log)'
PRINTF_DECL = re.compile(r'HR_PRINTF\([^)]*\)\s*(?:static\s+)?(?:inline\s+)?(?:const\s+)?\w+[\s*]+(\w+)\s*\(')


def showing_calls(root):
    """The calls above, and every function of the source declared HR_PRINTF (a printf-like
    writer of its own, such as status's pf() or the snapshot's notes)."""
    names = set()
    for dirpath, _, files in os.walk(os.path.join(root, 'src')):
        for f in files:
            if f.endswith(('.c', '.h')):
                text = open(os.path.join(dirpath, f), encoding='utf-8', errors='replace').read()
                names.update(PRINTF_DECL.findall(text))
    extra = '|'.join(sorted(names - {'hr_error_vset', 'hr_buf_vprintf'}))
    return re.compile(r'\b(?:' + SHOWING[3:-1] + (('|' + extra) if extra else '') + r')\s*\(')
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')

# (file suffix, literal substring) pairs allowed, each with its reason.
ALLOW = [
    # The usage line's command name and version are not prose.
    ('src/cli/main.c', 'headroom %s'),
    # Shell completion scripts and roff source generated from the option tables: code for
    # bash, zsh and man, not sentences (the texts they carry come from the tables, HR_N).
    ('src/cli/docgen.c', ''),
    # Command lines run through popen (journalctl's options and match fields), not prose.
    ('src/platform/linux/oom_evidence.c', 'journalctl -k -q --no-pager'),
    ('src/platform/linux/oom_evidence.c', 'journalctl -q --no-pager'),
    ('src/platform/linux/oom_evidence.c', 'SYSLOG_IDENTIFIER='),
    # The event log's XPath query handed to EvtQuery.
    ('src/platform/win/oom_evidence.c', 'EventID='),
    ('src/platform/win/oom_evidence.c', 'TimeCreated['),
    # ComfyUI's own log lines for a model load, reproduced word for word under the heading
    # "Model loads (as ComfyUI logs them)" so that they can be matched against a real log,
    # which ComfyUI writes in English whatever the language.
    ('src/core/estimate/estimate_render.c', ': prepared for dynamic VRAM loading.'),
    ('src/core/estimate/estimate_render.c', ': loaded partially;'),
    ('src/core/estimate/estimate_render.c', ': loaded completely;'),
    # A model family's own name (Tencent's HunyuanVideo), the same in every language.
    ('src/core/scan/classify.c', 'HunyuanVideo'),
    # Paths and file contents that are data, the same in every language: the paging file's
    # name Windows uses, the fstab line headroom writes.
    ('src/core/apply/apply_plan.c', '%c:\\\\pagefile.sys'),
    ('src/core/apply/pagingfiles_write.c', '%c:\\\\pagefile.sys'),
    ('src/core/model/fstab.c', ' none swap defaults,pri=%d 0 0'),
    # Member paths of the recorded Win32 answers (JSON), named in a parse error as they are
    # written in the file.
    ('src/core/model/win_raw_json.c', '.seek_penalty'),
    ('src/core/model/win_raw_json.c', 'dxgi.adapters'),
    ('src/core/model/win_raw_json.c', 'nvml.devices'),
    # A plan step's id and rule ("create|X.btrfs"), and the command lines and file text the
    # user types or pastes as they are: shell, PowerShell, .wslconfig, the Run box.
    ('src/core/plan/plan_steps.c', '|X.'),
    ('src/core/plan/plan_steps.c', 'sudo '),
    ('src/core/plan/plan_steps.c', 'docker update --memory'),
    ('src/core/plan/plan_steps.c', '[wsl2]'),
    ('src/core/plan/plan_steps.c', 'Get-CimInstance Win32_PageFileUsage'),
    ('src/core/plan/plan_steps.c', 'sysdm.cpl'),
]


def prose(text):
    """Does a C literal's text read as English words? Markup, printf conversions, escapes,
    option names, paths and rule ids do not count."""
    t = re.sub(r'[\w%.:-]*(?:\\\\[\w%.-]+)+', ' ', text)   # Windows paths: "%s\\pagefile.sys"
    t = re.sub(r'\\[nrt"\\]', ' ', t)
    t = re.sub(r'\\(?:x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4})', ' ', t)
    # identifiers: snake_case and dotted names (tensor and file names such as memory.events,
    # text_encoder, add_embedding.linear_1.weight, general.alignment), printf conversions
    # inside them included (body.%ld.weight)
    t = re.sub(r'[\w%]*_[\w%]*|[\w%]+(?:\.[\w%]+)+\.?', ' ', t)
    t = re.sub(r'<[^<>]*>?', ' ', t)                     # HTML tags (also cut at the literal's end)
    t = re.sub(r'^[^<>]*>', ' ', t)                       # the end of a tag opened before
    t = re.sub(r'%[-+ #0-9.*]*(?:l{1,2}|z|h|j|t|<PRI[a-zA-Z0-9]+>)?[diouxXeEfgGcsp%]', ' ', t)
    t = re.sub(r'\b[a-z][\w-]*\|[A-Z][\w.]*', ' ', t)        # line ids with their rule: "dump-off|X.dump"
    t = re.sub(r'--?[A-Za-z][\w-]*', ' ', t)              # options
    t = re.sub(r'(?:[\w.-]*/[\w./-]*)', ' ', t)           # paths, docs/x.md
    t = re.sub(r'\[[A-Z][\w.]*\]', ' ', t)                # [S4.1]
    t = re.sub(r'\b(?:headroom|ComfyUI|JSON|VRAM|RAM|GB|MB|KiB|GiB|pid|OK)\b', ' ', t)
    words = re.findall(r"[A-Za-z][a-z']+", t)
    return len(words) >= 2


def strip_comments(src):
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j]))
            i = j
        elif src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif src[i] == '"':
            m = LITERAL.match(src, i)
            if not m:
                out.append(src[i]); i += 1; continue
            out.append(m.group(0)); i = m.end()
        elif src[i] == "'":
            m = re.match(r"'(?:[^'\\\n]|\\.)*'", src[i:])
            k = m.end() if m else 1
            out.append(src[i:i + k]); i += k
        else:
            out.append(src[i]); i += 1
    return ''.join(out)


def spans(src, pattern):
    """(start, args, end) of each call matching pattern: its name, its arguments, its end."""
    for m in pattern.finditer(src):
        depth, i = 1, m.end()
        while i < len(src) and depth:
            c = src[i]
            if c == '"':
                lm = LITERAL.match(src, i)
                i = lm.end() if lm else i + 1
                continue
            depth += c == '('
            depth -= c == ')'
            i += 1
        yield m.start(), m.end(), i


WRAPPER = re.compile(r'\b(?:HR_T|HR_N|hr_tr|hr_tr_lang)\s*\(')


def scan(root):
    found = []
    call = showing_calls(root)
    for dirpath, _, files in os.walk(os.path.join(root, 'src')):
        for f in sorted(files):
            if not f.endswith('.c'):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root).replace(os.sep, '/')
            src = strip_comments(open(path, encoding='utf-8', errors='replace').read())
            wrapped = [(a, e) for _, a, e in spans(src, WRAPPER)]
            seen = set()
            for start, args, end in spans(src, call):
                for lm in LITERAL.finditer(src, args, end):
                    if lm.start() in seen:
                        continue
                    seen.add(lm.start())
                    if any(a <= lm.start() < e for a, e in wrapped):
                        continue
                    if not prose(lm.group(1)):
                        continue
                    if any(rel.endswith(a) and s in lm.group(1) for a, s in ALLOW):
                        continue
                    line = src.count('\n', 0, lm.start()) + 1
                    found.append((rel, line, lm.group(1)))
    return found


TODO = 'tests/i18n/literals-todo.txt'


def key(rel, text):
    return f'{rel}\t{text}'


def main():
    root = sys.argv[1]
    update = '--update' in sys.argv[2:]
    found = scan(root)
    todo_path = os.path.join(root, TODO)
    todo = set()
    if os.path.exists(todo_path):
        for line in open(todo_path, encoding='utf-8'):
            if line.strip() and not line.startswith('#'):
                todo.add(line.rstrip('\n'))
    if update:
        keep = sorted({key(r, t) for r, _, t in found})
        with open(todo_path, 'w', encoding='utf-8') as f:
            f.write('# Messages still shown in English only, written before this check existed: file, TAB,\n'
                    '# the literal. tests/i18n/literals.py fails on any message NOT listed here; wrap these\n'
                    '# in HR_T / HR_N and translate them, then shrink the list with\n'
                    '#   python3 tests/i18n/literals.py . --update\n'
                    '# Never add to it by hand: a new message goes through the catalogue.\n')
            for k in keep:
                f.write(k + '\n')
        print(f'{TODO}: {len(keep)} messages left to wrap and translate')
        return 0
    new = [(r, l, t) for r, l, t in found if key(r, t) not in todo]
    stale = todo - {key(r, t) for r, _, t in found}
    if stale:
        print(f'note: {len(stale)} entries of {TODO} are wrapped or gone now; shrink the list with'
              f' python3 tests/i18n/literals.py . --update')
    if new:
        print('English shown to the user without HR_T / HR_N (wrap it, run tools/update-po.sh,'
              ' translate it in po/zh_CN.po):')
        for r, l, t in new:
            print(f'  {r}:{l}: "{t[:100]}"')
        print(f'literals: {len(new)} new messages in English only; {len(todo) - len(stale)} older'
              f' ones listed in {TODO}')
        return 1
    print(f'literals: no new message bypasses the catalogue; {len(todo) - len(stale)} older ones'
          f' listed in {TODO}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
