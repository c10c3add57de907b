#!/usr/bin/env python3
"""Every finding of every log, in rank order, with its confidence and its first sighting.

usage: ranked.py HEADROOM RANKED [--write] [RUNNER...]

RANKED lists one log a line: `dir/case  cause:confidence@line ...` (the findings of
`headroom diagnose --no-system --json dir/case.log` in the order the report ranks them; the
first is the verdict; line = the finding's first evidence line, 0 = none; `-` = no finding;
`not-text` = refused as binary, exit 65).
A raised or lowered confidence, a cause classed as another, or a first sighting ranked last
fails here, where the corpus test (corpus.sh) looks only at the winning cause and its line.

--write rewrites RANKED from what the binary says now: for a deliberate change, to be read
line by line in the diff before it is committed.
"""
import concurrent.futures
import json
import os
import subprocess
import sys


def findings(hr, runner, log):
    r = subprocess.run(runner + [hr, "diagnose", "--no-system", "--json", log], capture_output=True)
    if r.returncode == 65 and not r.stdout:
        return ["not-text"], None   # refused as binary, no report
    if r.returncode not in (0, 1):
        return None, "exit status %d" % r.returncode
    doc = json.loads(r.stdout.decode("utf-8"))
    got = []
    for f in doc.get("findings", []):
        ev = f.get("evidence") or []
        got.append("%s:%s@%d" % (f["cause"], f["confidence"], ev[0]["line"] if ev else 0))
    # the verdict is the first finding, with its confidence
    if got and (doc["cause"] != doc["findings"][0]["cause"] or doc["confidence"] != doc["findings"][0]["confidence"]):
        return None, "verdict %s/%s is not the first finding" % (doc["cause"], doc["confidence"])
    if not got and doc.get("confidence") is not None:
        return None, "confidence %s with no finding" % doc["confidence"]
    return got or ["-"], None


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    write = "--write" in sys.argv[1:]
    hr, manifest, runner = args[0], args[1], args[2:]
    base = os.path.dirname(os.path.abspath(manifest))
    lines = open(manifest, encoding="utf-8").read().splitlines()
    cases = [ln.split()[0] for ln in lines if ln.split() and not ln.startswith("#")]
    # a few at a time: each run is short, most of its time is starting up
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = dict(zip(cases, pool.map(lambda c: findings(hr, runner, os.path.join(base, c + ".log")), cases)))
    out, failed, checked = [], 0, 0
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            out.append(line)
            continue
        case, want = parts[0], parts[1:]
        got, err = results[case]
        checked += 1
        if err:
            failed += 1
            print("FAIL %s: %s" % (case, err))
            out.append(line)
            continue
        out.append("%s  %s" % (case, " ".join(got)))
        if got != want:
            failed += 1
            print("FAIL %s:\n  expected %s\n  got      %s" % (case, " ".join(want), " ".join(got)))
    if write:
        with open(manifest, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
        print("rewrote %s" % manifest)
        return 0
    print("ranked: %d logs, %d failed" % (checked, failed))
    return 1 if failed or checked < 60 else 0


if __name__ == "__main__":
    sys.exit(main())
