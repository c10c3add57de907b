#!/usr/bin/env python3
"""The verdict table in docs/accuracy.md: public reports that state a machine, its paging file
or swap, what ran and how it ended (docs/data/verdict-reports.json), each turned into a what-if
machine that `headroom check` reads as it reads a real one, and judged by the given binary.

  Windows  a recording derived from tests/fixtures/windows/desktop-64g-fixed-d.json (as
           tests/fixtures/windows/make-verdict-fixtures.py derives its fixtures), replayed
           with --replay: it states the paging configuration exactly (registry values, the
           files in use, the drives)
  Linux    a copy of tests/fixtures/linux/desktop-hdd-swap-partition with /proc/meminfo and
           /proc/swaps rewritten, read with --sysroot

Both are written to a temporary directory and removed afterwards. What no report states is
the same on every machine: other programs commit 6 GiB before the run (an idle desktop with a
browser), the system drive is an SSD with 200 GB free, the GPU is NVIDIA.

Each machine is judged twice: with --workload (the guide's table for the family) and with
--workflow, the family's sample workflow in tests/fixtures/workflows standing in for what the
reporter ran (the estimate a new user gets; ComfyUI's version is not known).

usage: verdict-table.py --headroom BIN [--write | --check] [--data FILE] [--doc FILE]
  (neither)  print the table
  --write    replace the table between the markers in the doc
  --check    compare the doc's table with this binary's; a difference is exit status 2

exit status: 0 fine; 1 a configuration that crashed is called OK (the bar); 2 the doc's
table differs (--check); 65 bad data file; 66 a file is missing; 70 headroom failed
"""
import argparse
import copy
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile

GIB = 1 << 30
MIB = 1 << 20
PAGE = 4096
# Other programs' commit on every what-if machine: Windows or a Linux desktop idle with one
# browser open commits about this much before ComfyUI starts; no report states it.
OTHERS = 6 * GIB
BEGIN = "<!-- verdict-table:begin: written by tools/verdict-table.py, do not edit by hand -->"
END = "<!-- verdict-table:end -->"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WIN_BASE = os.path.join(ROOT, "tests", "fixtures", "windows", "desktop-64g-fixed-d.json")
LINUX_BASE = os.path.join(ROOT, "tests", "fixtures", "linux", "desktop-hdd-swap-partition")

WORKLOADS = ("sd15", "sdxl", "flux", "video")
# The sample workflow of each family: SD 1.5 with a 4x upscale, SDXL at 1024x1024, FLUX dev
# fp16, Wan 2.2 image-to-video 14B fp8.
SAMPLES = {w: os.path.join(ROOT, "tests", "fixtures", "workflows", f) for w, f in (
    ("sd15", "est_sd15_upscale_api.json"), ("sdxl", "est_sdxl_api.json"),
    ("flux", "est_flux_dev_api.json"), ("video", "est_wan22_i2v_api.json"))}
OUTCOMES = ("crashed", "ok")
KINDS = {"windows": ("fixed", "automatic", "none"), "linux": ("swapfile", "none")}


class BadData(Exception):
    pass


def fail(status, msg):
    print("verdict-table: " + msg, file=sys.stderr)
    sys.exit(status)


def size_of(r, what):
    """Bytes of RAM or VRAM as stated: <what>_mib (a log's exact figure) or <what>_gb (GiB)."""
    if r.get(what + "_mib") is not None:
        return int(r[what + "_mib"]) * MIB
    if r.get(what + "_gb") is not None:
        return int(round(float(r[what + "_gb"]) * 1024)) * MIB
    return None


def paging_mib(pg):
    """The paging file or swap as stated: size_mb (a dialog's exact MB) or size_gb (GiB)."""
    if pg.get("size_mb") is not None:
        return int(pg["size_mb"])
    return int(round(float(pg["size_gb"]) * 1024))


def paging_text(pg):
    return "%d MB" % pg["size_mb"] if pg.get("size_mb") is not None else "%g GB" % pg["size_gb"]


def check_report(r, i):
    where = "report %d (%s)" % (i + 1, r.get("id", "no id"))
    for key in ("id", "source", "os", "paging", "workload", "run", "outcome", "outcome_text", "assumed"):
        if key not in r:
            raise BadData("%s: no \"%s\"" % (where, key))
    if r["os"] not in KINDS:
        raise BadData("%s: os \"%s\" is not windows or linux" % (where, r["os"]))
    if r["workload"] not in WORKLOADS:
        raise BadData("%s: workload \"%s\" is not one of %s" % (where, r["workload"], ", ".join(WORKLOADS)))
    if r.get("gpu") not in (None, "nvidia", "amd", "intel", "apple"):
        raise BadData("%s: gpu \"%s\" is not nvidia, amd, intel or apple" % (where, r["gpu"]))
    if r["outcome"] not in OUTCOMES:
        raise BadData("%s: outcome \"%s\" is not crashed or ok" % (where, r["outcome"]))
    if size_of(r, "ram") is None:
        raise BadData("%s: no RAM size (ram_gb or ram_mib): a report without one cannot be judged" % where)
    kind = r["paging"].get("kind")
    if kind not in KINDS[r["os"]]:
        raise BadData("%s: paging kind \"%s\" is not one of %s" % (where, kind, ", ".join(KINDS[r["os"]])))
    if kind in ("fixed", "swapfile") and not (r["paging"].get("size_gb") or r["paging"].get("size_mb")):
        raise BadData("%s: a %s paging size needs size_gb or size_mb" % (where, kind))
    if r["paging"].get("drive") not in (None, "C:", "D:"):
        raise BadData("%s: paging drive must be C: or D:" % where)


def load_reports(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        fail(66, "%s: no such file" % path)
    except (ValueError, UnicodeDecodeError) as e:
        fail(65, "%s: not valid JSON: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("schema") != "headroom.verdict-reports/1":
        fail(65, "%s: not a headroom.verdict-reports/1 document" % path)
    reports = doc.get("reports")
    if not isinstance(reports, list) or not reports:
        fail(65, "%s: no reports" % path)
    seen = set()
    try:
        for i, r in enumerate(reports):
            if not isinstance(r, dict):
                raise BadData("report %d is not an object" % (i + 1))
            check_report(r, i)
            if r["id"] in seen:
                raise BadData("report %d: id \"%s\" used twice" % (i + 1, r["id"]))
            seen.add(r["id"])
    except BadData as e:
        fail(65, "%s: %s" % (path, e))
    return reports


# --- Windows: a recording ---------------------------------------------------------------------

def volume(root, total, free, bus):
    return {"root": root, "drive_type": 3,
            "space": {"state": "ok", "free_to_caller": free, "total": total, "total_free": free},
            "info": {"state": "ok", "fs": "NTFS"},
            "seek_penalty": {"state": "ok", "incurs_seek_penalty": False},
            "device": {"state": "ok", "bus_type": bus, "removable_media": False},
            "bitlocker": {"state": "ok", "protection": 0}}


def windows_machine(base, r):
    ram = size_of(r, "ram")
    vram = size_of(r, "vram")
    pg = r["paging"]
    drive = pg.get("drive") or "C:"
    if pg["kind"] == "fixed":
        mb = paging_mib(pg)
        registry = ["%s\\pagefile.sys %d %d" % (drive, mb, mb)]
        files = [(drive + "\\pagefile.sys", mb * MIB)]
    elif pg["kind"] == "automatic":
        # Before a run a system-managed file sits at its minimum, RAM / 8 on Windows 10 and
        # later (Microsoft, "How to determine the appropriate page file size"); it grows
        # during the run only as far as the drive allows.
        registry = ["?:\\pagefile.sys"]
        files = [(drive + "\\pagefile.sys", ram // 8 // MIB * MIB)]
    else:
        registry, files = None, []
    paging = sum(s for _, s in files)
    limit = ram + paging
    d = copy.deepcopy(base)
    d["note"] = "what-if machine for the verdict table: " + r["id"]
    d["performance_info"].update(commit_limit=limit // PAGE, physical_total=ram // PAGE,
                                 physical_available=max(ram - OTHERS, ram // 10) // PAGE,
                                 commit_total=OTHERS // PAGE, commit_peak=OTHERS // PAGE)
    d["memory_status"].update(total_phys=ram, avail_phys=max(ram - OTHERS, ram // 10),
                              total_page_file=limit, avail_page_file=limit - OTHERS,
                              memory_load=min(99, OTHERS * 100 // ram))
    d["registry"]["paging_files"] = {"state": "ok", "type": 7, "strings": registry} if registry else \
        {"state": "ok", "type": 7, "hex": "0000"}
    d["registry"]["existing_page_files"] = {"state": "ok", "type": 7,
                                            "strings": ["\\??\\" + n for n, _ in files]} if files else \
        {"state": "absent", "code": 2}
    d["enum_page_files"] = {"state": "ok", "files": [
        {"name": "\\??\\" + n, "total_pages": s // PAGE, "in_use_pages": s // PAGE // 50,
         "peak_pages": s // PAGE // 20} for n, s in files]}
    c_free = pg.get("c_free_gb")
    c_free = int(c_free * GIB) if c_free is not None else 200 * GIB
    vols = [volume("C:\\", 1000204886016, c_free, 17)]
    if drive == "D:":
        vols.append(volume("D:\\", 1000204886016, 300 * GIB, 11))
    d["volumes"] = vols
    if vram is not None:
        name = "NVIDIA GPU with %d GB" % round(vram / GIB)
        d["nvml"]["devices"] = [{"name": name, "total": vram, "used": vram // 16, "free": vram - vram // 16}]
        d["dxgi"]["adapters"][0].update(description=name, dedicated_video=vram)
    return d


# --- Linux: a /proc tree -----------------------------------------------------------------------

def linux_machine(dest, r):
    ram = size_of(r, "ram")
    pg = r["paging"]
    swap = paging_mib(pg) * MIB if pg["kind"] == "swapfile" else 0
    shutil.copytree(LINUX_BASE, dest, symlinks=True)
    for extra in ("expected.json", "text-phrases", "expected.exit"):
        p = os.path.join(dest, extra)
        if os.path.exists(p):
            os.remove(p)
    kb = lambda b: b // 1024
    avail = max(ram - OTHERS, ram // 10)
    values = {"MemTotal": kb(ram), "MemFree": kb(avail) // 2, "MemAvailable": kb(avail),
              "SwapTotal": kb(swap), "SwapFree": kb(swap), "SwapCached": 0,
              "CommitLimit": kb(ram // 2 + swap), "Committed_AS": kb(OTHERS)}
    path = os.path.join(dest, "proc", "meminfo")
    out = []
    with open(path) as f:
        for line in f:
            key = line.split(":", 1)[0]
            if key in values:
                # The kernel's own layout: the label padded to 16 columns, the number right-aligned.
                line = "%s%s kB\n" % ((key + ":").ljust(16), str(values[key]).rjust(8))
            out.append(line)
    with open(path, "w") as f:
        f.writelines(out)
    with open(os.path.join(dest, "proc", "swaps"), "w") as f:
        f.write("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")
        if swap:
            f.write("%-40s%s\t\t%d\t\t%d\t\t%d\n" % ("/swap.img", "file", kb(swap), 0, -2))


# --- Asking headroom ---------------------------------------------------------------------------

def check_help(binary):
    try:
        p = subprocess.run([binary, "check", "--help"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        fail(66, "%s: cannot run: %s" % (binary, e))
    return p.stdout + p.stderr


def machine_args(base, r, tmp):
    """Write r's what-if machine under tmp; the arguments that make check read it."""
    if r["os"] == "windows":
        path = os.path.join(tmp, r["id"] + ".json")
        with open(path, "w") as f:
            json.dump(windows_machine(base, r), f, indent=1)
        args = ["--replay", path]
        if size_of(r, "vram") is None:
            args.append("--no-gpu")
    else:
        path = os.path.join(tmp, r["id"])
        linux_machine(path, r)
        args = ["--sysroot", path, "--no-gpu"]
        if size_of(r, "vram") is not None:
            args += ["--vram", "%dM" % (size_of(r, "vram") // MIB)]
    return args


def judge(binary, helptext, machine, r, how):
    args = [binary, "check", "--json", "--lang", "en"] + machine
    args += ["--workload", r["workload"]] if how == "workload" else ["--workflow", SAMPLES[r["workload"]]]
    if r.get("comfy_args"):
        args += ["--comfy-args", r["comfy_args"]]
    # Facts a report states that only a newer headroom can be told.
    if r.get("comfyui_version") and "--comfyui-version" in helptext:
        args += ["--comfyui-version", r["comfyui_version"]]
    if r.get("gpu") and "--gpu " in helptext:
        args += ["--gpu", r["gpu"]]
    env = dict(os.environ, LANG="C", LC_ALL="C")
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        fail(70, "%s (%s): headroom check gave no JSON (exit %d): %s" % (r["id"], how, p.returncode,
                                                                     p.stderr.strip()[:300]))
    verdict = out.get("verdict")
    if verdict not in ("ok", "at-risk", "will-fail", "unknown"):
        fail(70, "%s (%s): headroom check gave verdict %r (exit %d)" % (r["id"], how, verdict, p.returncode))
    # The machine headroom read must be the one the report states: RAM + paging file or swap.
    cap = out.get("capacity", {}).get("bytes")
    if isinstance(cap, int) and abs(cap - backs(r)) > MIB:
        fail(70, "%s (%s): headroom read a machine that backs %d bytes, the report's backs %d" % (
            r["id"], how, cap, backs(r)))
    return out


def backs(r):
    """What the report's machine backs: RAM + the paging file or swap in use before the run."""
    ram = size_of(r, "ram")
    pg = r["paging"]
    if pg["kind"] in ("fixed", "swapfile"):
        return ram + paging_mib(pg) * MIB
    if pg["kind"] == "automatic":
        return ram + ram // 8 // MIB * MIB
    return ram


def gb(b):
    return "%.1f" % (b / GIB) if isinstance(b, (int, float)) else "?"


def figures(out):
    """What the machine can back against what the run needs, from whichever fields this
    binary's JSON carries (must_back once the need is a range with a margin)."""
    cap = out.get("capacity", {}).get("bytes")
    need = out.get("need", {})
    parts = ["backs %s" % gb(cap)]
    low, high = need.get("low_bytes"), need.get("high_bytes")
    if isinstance(low, int) and isinstance(high, int) and low != high:
        parts.append("run %s–%s" % (gb(low), gb(high)))
    must = need.get("must_back_bytes")
    if isinstance(must, int):
        parts.append("must back %s" % gb(must))
    elif isinstance(need.get("bytes"), int):
        parts.append("needs %s" % gb(need["bytes"]))
    return ", ".join(parts) + " GB"


VERDICT_TEXT = {"ok": "OK", "at-risk": "AT RISK", "will-fail": "WILL FAIL", "unknown": "cannot tell"}


def agreement(outcome, verdict):
    if outcome == "crashed":
        return {"will-fail": "yes", "at-risk": "partly", "ok": "**NO: a crash called OK**"}.get(verdict, "no answer")
    return {"ok": "yes", "at-risk": "partly", "will-fail": "no (too cautious)"}.get(verdict, "no answer")


def machine_text(r):
    ram = size_of(r, "ram")
    vram = size_of(r, "vram")
    pg = r["paging"]
    bits = ["Windows" if r["os"] == "windows" else "Linux",
            "%s GB RAM" % ("%g" % round(ram / GIB, 1)),
            "%g GB VRAM" % round(vram / GIB, 1) if vram is not None else "VRAM not stated"]
    if pg["kind"] == "fixed":
        bits.append("paging file %s fixed on %s" % (paging_text(pg), pg.get("drive") or "C: (drive not stated)"))
    elif pg["kind"] == "automatic":
        bits.append("paging file system-managed on %s" % (pg.get("drive") or "C:"))
    elif pg["kind"] == "swapfile":
        bits.append("swap %s" % paging_text(pg))
    else:
        bits.append("no paging file" if r["os"] == "windows" else "no swap")
    if pg.get("c_free_gb") is not None:
        bits.append("%g GB free on C:" % pg["c_free_gb"])
    if r.get("gpu") and r["gpu"] != "nvidia":
        bits.append("%s GPU" % {"amd": "AMD", "intel": "Intel", "apple": "Apple"}[r["gpu"]])
    if r.get("comfy_args"):
        bits.append("ComfyUI `%s`" % r["comfy_args"])
    return ", ".join(bits)


def cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


def build(binary, reports):
    helptext = check_help(binary)
    with open(WIN_BASE) as f:
        base = json.load(f)
    rows, notes, crash_ok = [], [], []
    count = {how: {"yes": 0, "partly": 0, "no": 0} for how in ("workload", "workflow")}
    tmp = tempfile.mkdtemp(prefix="headroom-verdict-table.")
    try:
        for i, r in enumerate(reports, 1):
            machine = machine_args(base, r, tmp)
            cells = []
            for how in ("workload", "workflow"):
                out = judge(binary, helptext, machine, r, how)
                v = out["verdict"]
                agree = agreement(r["outcome"], v)
                count[how]["yes" if agree == "yes" else "partly" if agree == "partly" else "no"] += 1
                if r["outcome"] == "crashed" and v == "ok":
                    crash_ok.append((r, how, out))
                rule = " [%s]" % out["verdict_rule"] if out.get("verdict_rule") else ""
                cells += ["**%s**%s: %s" % (VERDICT_TEXT[v], rule, figures(out)), agree]
            src = "[%s](%s)" % (r["source"], r["url"]) if r.get("url") else r["source"]
            rows.append("| %d | %s | %s | %s (%s) | %s | %s |" % (
                i, src, cell(machine_text(r)), r["workload"], cell(r["run"]),
                "crashed" if r["outcome"] == "crashed" else "worked", " | ".join(cells)))
            quote = "\"%s\"" % r["quote"] if r.get("quote") else "(no quote: %s)" % r["source"]
            notes.append("%d. %s — outcome: %s. Assumed: %s." % (i, cell(quote), cell(r["outcome_text"]),
                                                                cell(r["assumed"])))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    crashed = sum(1 for r in reports if r["outcome"] == "crashed")
    summary = ["%d reports (%d crashed, %d worked)." % (len(reports), crashed, len(reports) - crashed)]
    for how, what in (("workload", "`check --workload`"), ("workflow", "`check --workflow` (the family's sample)")):
        c = count[how]
        summary.append("%s agrees on %d, partly on %d (AT RISK), disagrees on %d; crashed "
                       "configurations called OK: **%d**." % (
                           what, c["yes"], c["partly"], c["no"], sum(1 for x in crash_ok if x[1] == how)))
    lines = [BEGIN, "", " ".join(summary), "",
             "| # | report | machine and paging, as stated | ran | outcome | check --workload | agree? "
             "| check --workflow (sample) | agree? |",
             "|---|---|---|---|---|---|---|---|---|"] + rows + [
             "", "Evidence (the report's words) and what was assumed:", ""] + notes + ["", END]
    return "\n".join(lines) + "\n", crash_ok


def splice(doc, table):
    a, b = doc.find(BEGIN), doc.find(END)
    if a < 0 or b < a:
        return None
    return doc[:a] + table + doc[b + len(END) + 1:]


def main():
    ap = argparse.ArgumentParser(description="the verdict table of docs/accuracy.md")
    ap.add_argument("--headroom", required=True, help="the headroom binary to ask")
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data", "verdict-reports.json"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "accuracy.md"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the table into the doc")
    mode.add_argument("--check", action="store_true", help="fail when the doc's table differs")
    a = ap.parse_args()
    if not os.path.isfile(a.headroom):
        fail(66, "%s: no such file" % a.headroom)
    reports = load_reports(a.data)
    table, crash_ok = build(a.headroom, reports)
    status = 0
    if a.write or a.check:
        try:
            with open(a.doc, encoding="utf-8") as f:
                doc = f.read()
        except FileNotFoundError:
            fail(66, "%s: no such file" % a.doc)
        new = splice(doc, table)
        if new is None:
            fail(65, "%s: no verdict-table markers (%s ... %s)" % (a.doc, BEGIN, END))
        if a.write:
            if new != doc:
                with open(a.doc + ".tmp", "w", encoding="utf-8") as f:
                    f.write(new)
                os.replace(a.doc + ".tmp", a.doc)
        elif new != doc:
            sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), new.splitlines(True),
                                                       a.doc, "this binary's table"))
            print("verdict-table: %s: the table differs from what this binary says; "
                  "run tools/verdict-table.py --headroom BIN --write" % a.doc, file=sys.stderr)
            status = 2
    else:
        sys.stdout.write(table)
    for r, how, out in crash_ok:
        print("verdict-table: %s crashed (%s) but headroom check --%s says OK: %s" % (
            r["id"], machine_text(r), how, figures(out)), file=sys.stderr)
    if crash_ok:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
