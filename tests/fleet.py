#!/usr/bin/env python3
"""Fleet monitoring as shipped (docs/fleet.md): the Prometheus rules and the Grafana dashboard
name only metrics that `headroom export` really writes, and the rules fire when they should.

What export writes is learnt by running it: on every recorded Windows machine, every recorded
Linux tree and this machine. Every metric an alert expression or a dashboard query names must
be among them. Then `promtool test rules` runs the rules on series copied from export's real
output (names and labels as printed, an instance and job added as Prometheus adds them), with
the values of a few changed over time, and checks which alerts fire when.

Usage: fleet.py HEADROOM SOURCE_DIR PROMTOOL
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

binary, src, promtool = sys.argv[1], sys.argv[2], sys.argv[3]
if not promtool or promtool.endswith("NOTFOUND"):
    print("SKIP: promtool not installed (Debian package prometheus; tools/install-deps.sh --tests)")
    sys.exit(77)
fixtures = os.path.join(src, "tests", "fixtures")
rules_path = os.path.join(src, "packaging", "prometheus", "headroom.rules.yml")
dash_path = os.path.join(src, "packaging", "grafana", "headroom-dashboard.json")
fails = []


def bad(msg):
    print("FAIL " + msg)
    fails.append(msg)


def ok(msg):
    print("ok   " + msg)


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def export(*args):
    out = subprocess.run([binary, "export", "--no-gpu", *args], capture_output=True, text=True)
    if out.returncode != 0:
        bad("headroom export %s: exit %d: %s" % (" ".join(args), out.returncode, out.stderr))
        return []
    series = []
    for line in out.stdout.splitlines():
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        if not m:
            bad("export %s: not a sample line: %s" % (" ".join(args), line))
            continue
        series.append((m.group(1), m.group(2) or "", float(m.group(3))))
    return series


runs = {}
for f in sorted(glob.glob(os.path.join(fixtures, "windows", "*.json"))):
    runs["windows/" + os.path.basename(f)] = export("--replay", f)
for d in sorted(glob.glob(os.path.join(fixtures, "linux", "*", ""))):
    if os.path.isdir(os.path.join(d, "proc")):
        runs["linux/" + os.path.basename(d.rstrip("/"))] = export("--sysroot", d)
runs["live"] = export()
exported = {name for s in runs.values() for name, _, _ in s}
ok("export writes %d metrics over %d machines" % (len(exported), len(runs)))

# PromQL's words that are not metric names, and what to strip before looking for names
WORDS = {"and", "or", "unless", "on", "ignoring", "by", "without", "group_left", "group_right",
         "bool", "offset", "sum", "min", "max", "avg", "count", "topk", "bottomk", "quantile",
         "increase", "rate", "irate", "delta", "deriv", "abs", "clamp_min", "clamp_max",
         "max_over_time", "min_over_time", "avg_over_time", "label_values", "absent",
         "time", "vector", "scalar", "humanizePercentage"}


def metric_names(expr):
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)         # strings
    e = re.sub(r'\{[^}]*\}', '', e)                      # label matchers
    e = re.sub(r'\[[^\]]*\]', '', e)                     # range windows
    e = re.sub(r'\b(on|ignoring|by|without|group_left|group_right)\s*\([^)]*\)', r'\1', e)
    e = re.sub(r'\$\{?[a-zA-Z_]+\}?', '', e)             # Grafana variables
    e = re.sub(r',\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)', ')', e)  # label_values(metric, label)
    names = set()
    for tok in re.findall(r'(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*', e):
        if tok not in WORDS:
            names.add(tok)
    return names


def check_names(where, exprs):
    seen = set()
    for e in exprs:
        names = metric_names(e)
        if not names:
            bad("%s: no metric in %r" % (where, e))
        for n in names:
            if n not in exported:
                bad("%s: %s is not a metric headroom export writes (in %r)" % (where, n, e))
        seen |= names
    return seen


# the rules: one line per expr (the file says so), alerts by name
rule_exprs = {}
alert = None
for line in open(rules_path, encoding="utf-8"):
    m = re.match(r'\s*- alert: (\S+)', line)
    if m:
        alert = m.group(1)
    m = re.match(r'\s*expr: (.+)$', line)
    if m:
        rule_exprs[alert] = m.group(1).strip()
lint = subprocess.run([promtool, "check", "rules", rules_path], capture_output=True, text=True)
if lint.returncode == 0:
    ok("promtool check rules: %d rules" % len(rule_exprs))
else:
    bad("promtool check rules: " + lint.stdout + lint.stderr)
used = check_names("rules", rule_exprs.values())
ok("rules name only exported metrics: " + ", ".join(sorted(used)))

# the dashboard: it parses; every query (panel targets, template variables) names exported ones
try:
    dash = json.load(open(dash_path, encoding="utf-8"))
except ValueError as e:
    bad("dashboard: not JSON: %s" % e)
    dash = {}
queries = []


def walk(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "expr" and isinstance(v, str):
                queries.append(v)
            elif k in ("definition",) and isinstance(v, str) and v:
                queries.append(v)
            elif k == "query" and isinstance(v, dict) and isinstance(v.get("query"), str):
                queries.append(v["query"])
            else:
                walk(v)
    elif isinstance(node, list):
        for v in node:
            walk(v)


walk(dash.get("panels", []))
walk(dash.get("templating", {}))
if len([p for p in dash.get("panels", []) if p.get("targets")]) < 4:
    bad("dashboard: fewer than four panels with queries")
used = check_names("dashboard", queries)
ok("dashboard: %d queries name only exported metrics: %s" % (len(queries), ", ".join(sorted(used))))
for want in ("headroom_gpu_vram_used_bytes", "headroom_ram_available_bytes",
             "headroom_paging_used_bytes", "headroom_commit_charge_bytes",
             "headroom_commit_limit_bytes"):
    if want not in used:
        bad("dashboard: no panel shows %s (the three tiers and commit over time)" % want)

# promtool test rules on export's own series. Hosts: a recorded Windows desktop (commit
# enforced, a paging file on D:), a recorded Linux machine with a swap file on btrfs (the OOM
# killer decides), and this machine (the OOM kill counter of /proc/vmstat).
MIN = 30  # minutes of series


def host_series(run, instance):
    out = {}
    for name, labels, value in runs.get(run, []):
        lab = dict((k, v) for k, v in LABEL.findall(labels))
        lab = {k: v.replace('\\\\', '\\').replace('\\"', '"') for k, v in lab.items()}
        lab.update(instance=instance, job="node")
        out[(name, tuple(sorted(lab.items())))] = value
    return out


def find(series, name, **want):
    for (n, lab), v in series.items():
        d = dict(lab)
        if n == name and all(d.get(k) == w for k, w in want.items()):
            return (n, lab), v
    bad("export's output has no %s %s to test with" % (name, want))
    return None, None


win = host_series("windows/desktop-64g-fixed-d.json", "win-1")
lx = host_series("linux/btrfs-swapfile", "lx-1")
live = host_series("live", "live-1")
values = {}  # series key -> values text; the rest keep their real value


def steps(*parts):
    return " ".join("%s x%d" % (repr(float(v)), n - 1) if n > 1 else repr(float(v))
                    for v, n in parts).replace(" x", "x")


# lx-1 and live-1 hold OK throughout (what their own verdict is does not matter here)
for hs in (lx, live):
    for key in hs:
        if key[0] == "headroom_check_verdict":
            values[key] = steps((1 if dict(key[1])["verdict"] == "ok" else 0, MIN + 1))
# win-1: the verdict leaves OK at 5m; the commit reaches 95 % of its limit at 10m; the paging
# drive falls to 5 % free at 10m
k, _ = find(win, "headroom_check_verdict", verdict="ok")
if k:
    values[k] = steps((1, 5), (0, MIN - 4))
k, _ = find(win, "headroom_check_verdict", verdict="at-risk")
if k:
    values[k] = steps((0, 5), (1, MIN - 4))
_, limit = find(win, "headroom_commit_limit_bytes")
k, charge = find(win, "headroom_commit_charge_bytes")
if k:
    values[k] = steps((charge, 10), (int(limit * 0.95), MIN - 9))
_, vsize = find(win, "headroom_paging_volume_size_bytes")
k, vfree = find(win, "headroom_paging_volume_free_bytes")
if k:
    values[k] = steps((vfree, 10), (int(vsize * 0.05), MIN - 9))
# lx-1: at 10m RAM is 98 % used and the swap file 95 %: over 90 % of RAM plus swap
_, ram = find(lx, "headroom_ram_total_bytes")
k, avail = find(lx, "headroom_ram_available_bytes")
if k:
    values[k] = steps((avail, 10), (int(ram * 0.02), MIN - 9))
_, swap_size = find(lx, "headroom_paging_size_bytes", kind="file")
k, swap_used = find(lx, "headroom_paging_used_bytes", kind="file")
if k:
    values[k] = steps((swap_used, 10), (int(swap_size * 0.95), MIN - 9))
# live-1: no swap on disk (whatever this machine has), and one OOM kill at 10m
k, _ = find(live, "headroom_paging_disk_bytes")
if k:
    values[k] = steps((0, MIN + 1))
k, kills = find(live, "headroom_oom_kills_total")
if k:
    values[k] = steps((kills, 10), (kills + 1, MIN - 9))


def selector(key):
    name, lab = key
    inner = ",".join('%s="%s"' % (n, v.replace("\\", "\\\\").replace('"', '\\"')) for n, v in lab)
    return "%s{%s}" % (name, inner)


input_series = []
for hs in (win, lx, live):
    for key, v in hs.items():
        input_series.append({"series": selector(key),
                             "values": values.get(key, steps((v, MIN + 1)))})


def labels_of(key, drop_name=True, **extra):
    d = dict(key[1])
    d.update(extra)
    return d


def expect(alertname, at, *label_sets):
    return {"eval_time": "%dm" % at, "alertname": alertname,
            "exp_alerts": [{"exp_labels": dict(ls, severity=sev[alertname]),
                            "exp_annotations": None} for ls in label_sets]}


sev = {"HeadroomVerdictNotOk": "warning", "HeadroomCommitNearLimit": "critical",
       "HeadroomMemoryNearCeiling": "critical", "HeadroomNoPaging": "warning",
       "HeadroomPagingDriveNearlyFull": "warning", "HeadroomRunKilled": "critical"}
verdict_key, _ = find(win, "headroom_check_verdict", verdict="ok")
vol_key, _ = find(win, "headroom_paging_volume_free_bytes")
host = lambda i: {"instance": i, "job": "node"}
tests = [
    expect("HeadroomVerdictNotOk", 3),
    expect("HeadroomVerdictNotOk", 12),                 # pending: not 10 minutes yet
    expect("HeadroomVerdictNotOk", 20, dict(verdict_key[1])),
    expect("HeadroomCommitNearLimit", 8),
    expect("HeadroomCommitNearLimit", 20, host("win-1")),
    expect("HeadroomMemoryNearCeiling", 8),
    expect("HeadroomMemoryNearCeiling", 20, host("lx-1")),
    expect("HeadroomNoPaging", 10),
    expect("HeadroomNoPaging", 20, host("live-1")),
    expect("HeadroomPagingDriveNearlyFull", 20),
    expect("HeadroomPagingDriveNearlyFull", 29, dict(vol_key[1])),
    expect("HeadroomRunKilled", 5),
    expect("HeadroomRunKilled", 12, host("live-1")),
    expect("HeadroomRunKilled", 25),
]
# the annotations, as Prometheus expands them: the rules use {{ $labels.NAME }} alone
annotations = {}
alert = None
for line in open(rules_path, encoding="utf-8"):
    m = re.match(r'\s*- alert: (\S+)', line)
    if m:
        alert = m.group(1)
        annotations[alert] = {}
    m = re.match(r'\s*(summary|description): "(.*)"$', line)
    if m:
        annotations[alert][m.group(1)] = m.group(2).replace('\\"', '"')
for t in tests:
    for a in t["exp_alerts"]:
        lab = a["exp_labels"]
        a["exp_annotations"] = {
            k: re.sub(r'\{\{ \$labels\.(\w+) \}\}', lambda m: lab[m.group(1)], v)
            for k, v in annotations[t["alertname"]].items()}

with tempfile.TemporaryDirectory() as tmp:
    test_file = os.path.join(tmp, "headroom.test.yml")
    doc = {"rule_files": [rules_path], "evaluation_interval": "1m",
           "tests": [{"interval": "1m", "input_series": input_series,
                      "alert_rule_test": tests}]}
    with open(test_file, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)   # JSON is YAML
    r = subprocess.run([promtool, "test", "rules", test_file], capture_output=True, text=True)
    if r.returncode == 0:
        ok("promtool test rules: %d checks on %d series from export's output"
           % (len(tests), len(input_series)))
    else:
        bad("promtool test rules:\n" + r.stdout + r.stderr)

print("all passed" if not fails else "%d failed" % len(fails))
sys.exit(1 if fails else 0)
