#!/usr/bin/env python3
"""The one-way rule, checked: every #include in src/ must point down the layers.

The layers are the table LAYERS below, lowest first (ARCHITECTURE.md):
    core/base <- core/model <- core/<capability> <- platform <- cli
A file may include its own layer and the layers under it, never one above. Within the
capabilities, a core module may include only itself and the modules its CMakeLists.txt
DEPENDS on (transitively), so the build graph and the include graph cannot drift apart.
src/core and src/cli include only C standard headers: never an OS header (windows.h,
unistd.h, sys/*.h, pthread.h ...); those are the platform layer's. No file includes itself
through others (a.h -> b.h -> a.h). Also:
a module's driver file is called by none of its stages (core/plan/plan.c), an internal
header stays in its module, and file names are unique (but for the two OS implementations
in platform/linux and platform/win). Exit 1 with one line per offence."""
import os
import re
import sys

src = os.path.join(sys.argv[1] if len(sys.argv) > 1 else '.', 'src')
core = os.path.join(src, 'core')

STD_HEADERS = {
    'assert.h', 'complex.h', 'ctype.h', 'errno.h', 'fenv.h', 'float.h', 'inttypes.h',
    'iso646.h', 'limits.h', 'locale.h', 'math.h', 'setjmp.h', 'signal.h', 'stdalign.h',
    'stdarg.h', 'stdatomic.h', 'stdbool.h', 'stddef.h', 'stdint.h', 'stdio.h', 'stdlib.h',
    'stdnoreturn.h', 'string.h', 'tgmath.h', 'threads.h', 'time.h', 'uchar.h', 'wchar.h',
    'wctype.h',
}

def module_deps():
    deps = {}
    for m in sorted(os.listdir(core)):
        cm = os.path.join(core, m, 'CMakeLists.txt')
        if not os.path.isfile(cm):
            continue
        text = open(cm, encoding='utf-8').read()
        hit = re.search(r'hr_core_module\(\s*' + re.escape(m) + r'\s+DEPENDS([^\n]*)', text)
        if not hit:
            sys.exit(f'include_direction: core/{m}/CMakeLists.txt has no hr_core_module({m} DEPENDS ...)')
        deps[m] = set(hit.group(1).split()) if hit else set()
    closed = {}
    def close(m, seen=()):
        if m in seen:
            sys.exit(f'include_direction: cycle in DEPENDS through core/{m}')
        if m not in closed:
            out = {m}
            for d in deps.get(m, ()):
                if d not in deps:
                    sys.exit(f'include_direction: core/{m} DEPENDS on unknown module {d}')
                out |= close(d, seen + (m,))
            closed[m] = out
        return closed[m]
    for m in deps:
        close(m)
    return closed

allowed_core = module_deps()

# The layers, lowest first: (name, the folders under src/ that make it). A core module that
# is neither base nor model is a capability. A layer may include itself and those before it.
LAYERS = [
    ('base', ('core/base',)),
    ('model', ('core/model',)),
    ('capabilities', ('core/*',)),
    ('platform', ('platform',)),
    ('cli', ('cli',)),
]


def layer_of(rel):
    """The index in LAYERS of a path under src/ (the first folder pattern that holds it)."""
    for i, (_, dirs) in enumerate(LAYERS):
        for d in dirs:
            if d.endswith('/*'):
                if rel.startswith(d[:-1]) and rel.count('/') >= 2:
                    return i
            elif rel == d or rel.startswith(d + '/'):
                return i
    return None


def resolve(rel, target):
    """The path under src/ an #include "target" in src/rel names: written from src/ when it
    has a folder, else beside the including file."""
    if '/' in target:
        return os.path.normpath(target).replace(os.sep, '/')
    return os.path.normpath(os.path.join(os.path.dirname(rel), target)).replace(os.sep, '/')


# The folders whose files include only C standard headers.
NO_OS_HEADERS = ('core', 'cli')

INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
bad = []
checked = 0
file_edges = {}     # "cli/comfy_link.h" -> {"cli/monitor.h", ...}
for dirpath, _, files in os.walk(src):
    for f in sorted(files):
        if not f.endswith(('.c', '.h')):
            continue
        path = os.path.join(dirpath, f)
        rel = os.path.relpath(path, src).replace(os.sep, '/')
        parts = rel.split('/')
        for lineno, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
            m = INC.match(line)
            if not m:
                continue
            checked += 1
            kind, target = m.groups()
            where = f'src/{rel}:{lineno}'
            if kind == '<':
                if parts[0] in NO_OS_HEADERS and target not in STD_HEADERS:
                    bad.append(f'{where}: src/{parts[0]} includes <{target}>, not a C standard '
                               f'header (an OS header belongs to the platform layer)')
                continue
            dest = resolve(rel, target)
            if not os.path.isfile(os.path.join(src, dest)):
                bad.append(f'{where}: "{target}" is not a file under src/')
                continue
            here_l, dest_l = layer_of(rel), layer_of(dest)
            if here_l is None or dest_l is None:
                bad.append(f'{where}: "{target}": src/{rel if here_l is None else dest} is in no layer')
                continue
            if dest_l > here_l:
                bad.append(f'{where}: {LAYERS[here_l][0]} includes {LAYERS[dest_l][0]} '
                           f'({target}): a layer includes only itself and those under it')
            file_edges.setdefault(rel, set()).add(dest)
            if parts[0] == 'core':
                tparts = target.split('/')
                if len(tparts) != 3 or tparts[0] != 'core':
                    bad.append(f'{where}: "{target}": core includes are written "core/<module>/<file>.h"')
                    continue
                if tparts[1] not in allowed_core.get(parts[1], set()):
                    bad.append(f'{where}: core/{parts[1]} includes core/{tparts[1]} '
                               f'(allowed: {", ".join(sorted(allowed_core.get(parts[1], ())))})')

# No include cycle between files: a header that includes, through others, itself compiles
# only in the order its include guards happen to allow. Depth first, in a fixed order, so
# that the cycle named is always the same one.
state = {}
def visit(u, path):
    state[u] = 1
    for v in sorted(file_edges.get(u, ())):
        if state.get(v) == 1:
            cyc = path[path.index(v):] + [v]
            bad.append('include cycle: ' + ' -> '.join(f'src/{x}' for x in cyc))
        elif v not in state:
            visit(v, path + [v])
    state[u] = 2
for u in sorted(file_edges):
    if u not in state:
        visit(u, [u])

# A module's driver runs its stages and is called by none of them: core/plan/plan.c calls
# plan_*.c through core/plan/plan_stages.h, and no plan_*.c calls a function plan.c defines
# (a cycle would make the stages' order a guess). An internal header stays in its module.
DRIVERS = {'plan': 'plan.c'}
INTERNAL_HEADERS = {'plan': 'plan_stages.h'}
DEF = re.compile(r'^[A-Za-z_][\w \*]*?\b(hr_\w+)\s*\([^;]*$')
for mod, driver in DRIVERS.items():
    mdir = os.path.join(core, mod)
    defined = set()
    for line in open(os.path.join(mdir, driver), encoding='utf-8'):
        m = DEF.match(line)
        if m and not line.startswith('static'):
            defined.add(m.group(1))
    for f in sorted(os.listdir(mdir)):
        if not f.endswith('.c') or f == driver:
            continue
        text = open(os.path.join(mdir, f), encoding='utf-8').read()
        for name in sorted(defined):
            if re.search(r'\b' + name + r'\s*\(', text):
                bad.append(f'src/core/{mod}/{f}: calls {name}() of the driver {driver} (a cycle)')
for mod, header in INTERNAL_HEADERS.items():
    for dirpath, _, files in os.walk(src):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), src).replace(os.sep, '/')
            if not f.endswith(('.c', '.h')) or rel.startswith(f'core/{mod}/'):
                continue
            if f'core/{mod}/{header}' in open(os.path.join(dirpath, f), encoding='utf-8', errors='replace').read():
                bad.append(f'src/{rel}: includes core/{mod}/{header}, internal to core/{mod}')

# File names are unique across src/ (issue 9), but for the two OS implementations of one job
# in platform/linux/ and platform/win/, which share a name by design.
seen = {}
for dirpath, _, files in os.walk(src):
    rel_dir = os.path.relpath(dirpath, src).replace(os.sep, '/')
    for f in files:
        if not f.endswith(('.c', '.h')):
            continue
        where = 'platform/<os>' if rel_dir in ('platform/linux', 'platform/win') else rel_dir
        seen.setdefault(f, set()).add(where)
for f, wheres in sorted(seen.items()):
    if len(wheres) > 1:
        bad.append(f'{f}: one file name in ' + ', '.join(f'src/{w}/' for w in sorted(wheres)))

if checked == 0:
    sys.exit('include_direction: no #include found under ' + src)
for b in bad:
    print(b)
print(f'include_direction: {checked} includes checked, {len(bad)} against the one-way rule')
sys.exit(1 if bad else 0)
