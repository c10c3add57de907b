#!/usr/bin/env python3
"""Hold `headroom estimate` against public data points and write the table of docs/accuracy.md.

Each point of docs/data/estimate-points.json is a real public report: ComfyUI's own load lines
("loaded partially; ...", "loaded completely; ...", "prepared for dynamic VRAM loading. N MB
Staged") or a crash/OK report with a bound on the run's peak, with the machine and the workflow
the post states. The script runs `headroom estimate --json` for each on that machine (the
what-if flags), matches the predicted load lines to the observed ones, and writes the table
and the summary rates between the markers of docs/accuracy.md.

    python3 tools/estimate-accuracy.py --bin build/src/headroom          # rewrite the doc
    python3 tools/estimate-accuracy.py --bin build/src/headroom --check  # fail on a difference

--check fails when the page differs from what the program says now, not on the accuracy
targets: those are reported in the table.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- estimate-accuracy:begin (tools/estimate-accuracy.py writes this part) -->"
END = "<!-- estimate-accuracy:end -->"
MIB = 1024.0 * 1024.0
TOL = 0.10          # usable / loaded / offloaded / staged
TOL_BUFFER = 0.25   # offload buffer
ZERO_MB = 64.0      # an observed 0 MB is matched by a prediction below this
TOL_PINNED = 0.01   # the pinned-memory cap is a fixed share of RAM: anything looser hides a wrong rule


def fail(msg):
    print("estimate-accuracy: " + msg, file=sys.stderr)
    sys.exit(2)


# --- workflows -------------------------------------------------------------------------------

def workflow_for(p):
    """An API-format workflow naming the point's model files, so the catalogue sizes them."""
    w = p["workflow"]
    if "fixture" in w:
        with open(os.path.join(ROOT, "tests", "fixtures", "workflows", w["fixture"]), encoding="utf-8") as f:
            return json.load(f)
    g = {}
    width, height = w.get("width", 1024), w.get("height", 1024)
    batch, frames = w.get("batch", 1), w.get("frames", 0)
    if "ckpt" in w:
        g["1"] = {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": w["ckpt"]}}
        model, clip, vae = ["1", 0], ["1", 1], ["1", 2]
    else:
        cls = "UnetLoaderGGUF" if w["unet"].endswith(".gguf") else "UNETLoader"
        inputs = {"unet_name": w["unet"]}
        if cls == "UNETLoader":
            inputs["weight_dtype"] = w.get("weight_dtype", "default")
        g["1"] = {"class_type": cls, "inputs": inputs}
        model = ["1", 0]
        clips = w.get("clip", [])
        if len(clips) == 2:
            g["2"] = {"class_type": "DualCLIPLoader",
                      "inputs": {"clip_name1": clips[0], "clip_name2": clips[1], "type": w.get("clip_type", "flux")}}
        else:
            g["2"] = {"class_type": "CLIPLoader", "inputs": {"clip_name": clips[0], "type": w.get("clip_type", "wan")}}
        clip = ["2", 0]
    if "vae" in w:
        g["3"] = {"class_type": "VAELoader", "inputs": {"vae_name": w["vae"]}}
        vae = ["3", 0]
    # A LoRA the post names goes between the model and the sampler, as LoraLoaderModelOnly does.
    for i, lora in enumerate(p.get("loras", [])):
        nid = str(20 + i)
        g[nid] = {"class_type": "LoraLoaderModelOnly",
                  "inputs": {"lora_name": lora["name"], "strength_model": 1.0, "model": model}}
        model = [nid, 0]
    g["4"] = {"class_type": "CLIPTextEncode", "inputs": {"text": "a photo", "clip": clip}}
    g["5"] = {"class_type": "CLIPTextEncode", "inputs": {"text": "", "clip": clip}}
    latent = w.get("latent", "EmptyHunyuanLatentVideo" if frames else "EmptyLatentImage")
    li = {"width": width, "height": height, "batch_size": batch}
    if frames:
        li["length"] = frames
    g["6"] = {"class_type": latent, "inputs": li}
    g["7"] = {"class_type": "KSampler",
              "inputs": {"seed": 1, "steps": 20, "cfg": 1.0, "sampler_name": "euler", "scheduler": "simple",
                         "denoise": 1.0, "model": model, "positive": ["4", 0], "negative": ["5", 0],
                         "latent_image": ["6", 0]}}
    g["8"] = {"class_type": "VAEDecode", "inputs": {"samples": ["7", 0], "vae": vae}}
    g["9"] = {"class_type": "SaveImage", "inputs": {"filename_prefix": "x", "images": ["8", 0]}}
    return g


def write_lora(folder, lora, pid):
    """A LoRA file of the post's size: a safetensors header naming one tensor of that many bytes,
    and a sparse body, so the estimate reads its real size from the file as it would on a disk."""
    name, size = lora.get("name"), lora.get("bytes")
    if not isinstance(name, str) or not name.endswith(".safetensors") or os.path.basename(name) != name:
        fail("%s: loras[].name must be a bare .safetensors file name" % pid)
    if not isinstance(size, int) or size < 2 or size % 2:
        fail("%s: loras[].bytes must be an even byte count" % pid)
    header = json.dumps({"lora.weight": {"dtype": "BF16", "shape": [size // 2],
                                         "data_offsets": [0, size]}}).encode("ascii")
    header += b" " * (-len(header) % 8)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(len(header).to_bytes(8, "little"))
        f.write(header)
        f.truncate(8 + len(header) + size)


def run_estimate(binary, p, tmp):
    path = os.path.join(tmp, p["id"] + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(workflow_for(p), f)
    m = p["machine"]
    # An empty ComfyUI folder: every size comes from the catalogue, never from this machine's files.
    empty = os.path.join(tmp, "comfyui")
    os.makedirs(os.path.join(empty, "models", "loras"), exist_ok=True)
    # LoRAs the post names, sized as it states (the only files in the folder, removed after).
    for lora in p.get("loras", []):
        write_lora(os.path.join(empty, "models", "loras"), lora, p["id"])
    args = [binary, "estimate", path, "--json", "--comfyui", empty,
            "--ram", m["ram"], "--vram", m["vram"], "--os", m["os"], "--gpu", m["gpu"]]
    if m.get("comfy_args"):
        args += ["--comfy-args", m["comfy_args"]]
    if m.get("comfyui_version"):
        args += ["--comfyui-version", m["comfyui_version"]]
    if m.get("comfyui_date"):
        args += ["--comfyui-date", m["comfyui_date"]]
    if m.get("vram_used"):
        args += ["--vram-used", m["vram_used"]]
    r = subprocess.run(args, capture_output=True, text=True)
    for lora in p.get("loras", []):
        os.remove(os.path.join(empty, "models", "loras", lora["name"]))
    if r.returncode not in (0, 1, 2, 3):
        fail("%s: headroom estimate failed (exit %d): %s" % (p["id"], r.returncode, r.stderr.strip()))
    try:
        return json.loads(r.stdout)
    except ValueError:
        fail("%s: headroom estimate did not print JSON" % p["id"])


# --- comparison ------------------------------------------------------------------------------

def err(pred, obs):
    if obs == 0:
        return None if pred < ZERO_MB else float("inf")
    return (pred - obs) / obs


def within(e, tol):
    return e is None or abs(e) <= tol


def fmt_err(e):
    if e is None:
        return "0"
    if e == float("inf"):
        return "∞"
    return "%+.1f %%" % (e * 100.0)


def find_load(est, obs):
    want = obs["model"]
    if want.startswith("/"):          # a part of a checkpoint: "/vae", "/text_encoder"
        hits = [l for l in est.get("loads", []) if l["model"].endswith(want)]
    elif want.endswith((".safetensors", ".gguf", ".ckpt", ".pt", ".pth", ".sft")):  # a whole file name
        hits = [l for l in est.get("loads", []) if l["model"] == want]
    else:
        hits = [l for l in est.get("loads", []) if want in l["model"]]
    n = obs.get("occurrence", 0)
    return hits[n] if n < len(hits) else None


def compare_line(est, obs):
    """One observed load line against the prediction: cells for the table and the tallies."""
    l = find_load(est, obs)
    res = {"fields": {}, "form_ok": None, "partial_ok": None, "pred": l}
    if l is None:
        return res
    form = "staged" if "staged_bytes" in l else "loaded"
    res["form_ok"] = form == obs["form"]
    if "partial" in obs:
        res["partial_ok"] = l["partial"] == obs["partial"]
    keys = {"usable_mb": "usable_vram_bytes", "loaded_mb": "loaded_bytes", "offloaded_mb": "offloaded_bytes",
            "buffer_mb": "buffer_bytes", "staged_mb": "staged_bytes"}
    for k, jk in keys.items():
        if k in obs and jk in l:
            pred = l[jk] / MIB
            res["fields"][k] = (obs[k], pred, err(pred, obs[k]))
    return res


def compare_pinned(est, obs):
    """ComfyUI's startup line "Enabled pinned memory N" (N in MB) against the predicted cap."""
    pred = (est.get("machine", {}).get("pinned_cap_bytes") or 0) / MIB
    return obs["pinned_cap_mb"], pred, err(pred, obs["pinned_cap_mb"])


def compare_bound(est, b):
    """A crash/OK report bounds the whole machine (RAM + paging file / swap), which holds the
    other programs too: the process's commit range is raised by what the one sizing rule counts
    for them (the estimate's need.others_low_bytes and others_high_bytes: on a what-if machine,
    a lean desktop's at the low end and a busy one's at the high end)."""
    peak = est["peak"][b["measure"]]
    lo, hi = peak["low"], peak["high"]
    if b["measure"] == "commit":
        need = est.get("need")
        if not isinstance(need, dict) or not all(
                isinstance(need.get(k), int) for k in ("others_low_bytes", "others_high_bytes")):
            fail("headroom estimate --json has no need.others_low_bytes / others_high_bytes")
        others = (need["others_low_bytes"], need["others_high_bytes"], need.get("others_basis"))
        lo += need["others_low_bytes"]
        hi += need["others_high_bytes"]
    else:
        others = None
    gb = b["bytes"] / 1e9
    if b["real_peak"] == "above":   # the run died: its real peak was above the bound
        ok = hi > b["bytes"]
    else:                           # the run completed: its real peak was at most the bound
        ok = lo <= b["bytes"]
    return ok, lo / 1e9, hi / 1e9, gb, others


def rule_verdict(est, b):
    """What the one sizing rule (core/model/run_need.h) says of a machine whose limit is the
    report's: WILL FAIL under need.fail_below_bytes, AT RISK under need.must_back_bytes, else OK. It
    agrees with a run that died unless it says OK, with a run that completed unless it says
    WILL FAIL."""
    need = est.get("need")
    if not isinstance(need, dict) or not isinstance(need.get("must_back_bytes"), int) \
            or not isinstance(need.get("fail_below_bytes"), int):
        fail("headroom estimate --json has no need.fail_below_bytes / must_back_bytes")
    if b["measure"] != "commit":
        fail("a crash/OK bound's verdict is the commit rule's: measure must be commit")
    cap = b["bytes"] + (64 << 20)  # hr_run_judge(): 64 MiB under a bound is the bound (rounded sizes)
    v = "WILL FAIL" if cap < need["fail_below_bytes"] else "AT RISK" if cap < need["must_back_bytes"] else "OK"
    agrees = v != "OK" if b["real_peak"] == "above" else v != "WILL FAIL"
    return v, agrees


# --- the table -------------------------------------------------------------------------------

def mb(x):
    return "%.0f" % x


def build(binary, points):
    rows, bound_rows, misses, others_seen = [], [], [], set()
    tally = {k: [0, 0] for k in ("usable_mb", "loaded_mb", "offloaded_mb", "buffer_mb", "staged_mb",
                                  "pinned_mb", "form", "partial", "bound", "verdict")}
    with tempfile.TemporaryDirectory() as tmp:
        for p in points:
            est = run_estimate(binary, p, tmp)
            for i, obs in enumerate(p.get("lines", [])):
                label = "%s%s" % (p["id"], "" if len(p["lines"]) == 1 else "." + str(i + 1))
                if obs.get("form") == "pinned":
                    o, pr, e = compare_pinned(est, obs)
                    ok = within(e, TOL_PINNED)
                    tally["pinned_mb"][1] += 1
                    tally["pinned_mb"][0] += ok
                    rows.append("| %s | %s | `%s` | pinned cap %s→%s (%s) | %s |" % (
                        label, p["machine_text"], obs["quote"], mb(o), mb(pr), fmt_err(e),
                        "ok" if ok else "**miss**: pinned cap"))
                    if not ok:
                        misses.append((label, "pinned cap", p))
                    continue
                c = compare_line(est, obs)
                if c["pred"] is None:
                    rows.append("| %s | %s | `%s` | no such load predicted | miss |" % (label, p["machine_text"], obs["quote"]))
                    for k in ("form",) + (("partial",) if "partial" in obs else ()):
                        tally[k][1] += 1
                    for k in ("usable_mb", "loaded_mb", "offloaded_mb", "buffer_mb", "staged_mb"):
                        if k in obs:
                            tally[k][1] += 1
                    misses.append((label, "the model `%s` is not loaded in the prediction" % obs["model"], p))
                    continue
                cells, bad = [], []
                for k in ("usable_mb", "loaded_mb", "offloaded_mb", "buffer_mb", "staged_mb"):
                    if k not in c["fields"]:
                        continue
                    o, pr, e = c["fields"][k]
                    tol = TOL_BUFFER if k == "buffer_mb" else TOL
                    ok = within(e, tol)
                    tally[k][1] += 1
                    tally[k][0] += ok
                    name = k[:-3]
                    cells.append("%s %s→%s (%s)" % (name, mb(o), mb(pr), fmt_err(e)))
                    if not ok:
                        bad.append(name)
                tally["form"][1] += 1
                tally["form"][0] += c["form_ok"]
                if not c["form_ok"]:
                    bad.append("line form")
                if c["partial_ok"] is not None:
                    tally["partial"][1] += 1
                    tally["partial"][0] += c["partial_ok"]
                    if not c["partial_ok"]:
                        bad.append("complete/partial")
                l = c["pred"]
                form = ("staged" if "staged_bytes" in l else ("partially" if l["partial"] else "completely"))
                rows.append("| %s | %s | `%s` | %s; %s | %s |" % (
                    label, p["machine_text"], obs["quote"], form, "; ".join(cells) or "—",
                    "ok" if not bad else "**miss**: " + ", ".join(bad)))
                if bad:
                    misses.append((label, ", ".join(bad), p))
            for i, b in enumerate(p.get("bounds", [])):
                ok, lo, hi, gb, others = compare_bound(est, b)
                verdict, agrees = rule_verdict(est, b)
                if others:
                    others_seen.add(others)
                tally["bound"][1] += 1
                tally["bound"][0] += ok
                tally["verdict"][1] += 1
                tally["verdict"][0] += agrees
                label = "%s%s" % (p["id"], "" if len(p["bounds"]) == 1 else ".b" + str(i + 1))
                result = "ok" if ok and agrees else "**miss**: " + ", ".join(
                    ([] if ok else ["range"]) + ([] if agrees else ["verdict"]))
                bound_rows.append("| %s | %s | %s | %s above %.1f GB | %.1f – %.1f GB | %s | %s |" % (
                    label, p["machine_text"], b["quote"], "real peak " + ("was" if b["real_peak"] == "above" else "was not"),
                    gb, lo, hi, verdict, result))
                if not ok or not agrees:
                    misses.append((label, ", ".join(([] if ok else ["bound outside the predicted range"]) +
                                                    ([] if agrees else ["the rule's verdict disagrees"])), p))
    out = ["Computed by `tools/estimate-accuracy.py` from `docs/data/estimate-points.json` (%d points, "
           "%d load lines, %d crash/OK bounds); the test `accuracy.estimate_table` fails when this part "
           "differs from the program." % (len(points), len(rows), len(bound_rows)), ""]
    out.append("### Summary")
    out.append("")
    out.append("| measure | within | target |")
    out.append("|---|---|---|")
    names = [("usable_mb", "usable VRAM within 10 %", "85 %"), ("loaded_mb", "loaded within 10 %", "85 %"),
             ("offloaded_mb", "offloaded within 10 %", "85 %"), ("buffer_mb", "buffer within 25 %", "70 %"),
             ("staged_mb", "staged within 10 %", "85 %"), ("pinned_mb", "pinned-memory cap within 1 %", "—"),
             ("form", "line form (Staged / loaded) right", "95 %"),
             ("partial", "completely / partially right", "95 %"), ("bound", "crash/OK bound inside the range", "all"),
             ("verdict", "crash/OK: the one rule's verdict at that limit agrees", "all")]
    for k, text, target in names:
        good, n = tally[k]
        pct = "%.0f %%" % (100.0 * good / n) if n else "—"
        out.append("| %s | %d of %d (%s) | %s |" % (text, good, n, pct, target))
    out.append("")
    out.append("### Load lines")
    out.append("")
    out.append("Observed → predicted in MiB (ComfyUI's \"MB\"), and the error of the prediction.")
    out.append("")
    out.append("| # | machine | observed line | predicted | result |")
    out.append("|---|---|---|---|---|")
    out += rows
    out.append("")
    out.append("### Crash/OK reports")
    out.append("")
    out.append("A run that died had a real peak above the machine's limit, so the predicted high end must be "
               "above it; a run that completed had a real peak at most the limit, so the low end must be at "
               "most it. The limit is the whole machine's, so the predicted range is the ComfyUI process's "
               "commit plus what other programs commit as the one sizing rule counts them (`need.others_low_bytes` "
               "at the low end and `need.others_high_bytes` at the high end, of `headroom estimate --json`: %s; "
               "nothing of these machines was read, so their other programs span a lean desktop to a busy one, "
               "[check.md](check.md) \"Other programs on a what-if machine\"). The verdict is what `check` and "
               "`plan` would say of a machine with that limit by the one sizing rule (WILL FAIL under the low end "
               "plus a lean desktop's others, AT RISK under the high end plus the allowance plus the 25 %% margin "
               "or the high end plus a busy desktop's others, whichever is more, else OK): it agrees with a "
               "run that died unless it is OK, and with a run that completed unless it is WILL FAIL." % "; ".join(
                   "%.1f – %.1f GB (%s)" % (lo_o / 1e9, hi_o / 1e9, basis) for lo_o, hi_o, basis in sorted(others_seen)))
    out.append("")
    out.append("| # | machine | report | bound | predicted peak (low – high) | verdict at that limit | result |")
    out.append("|---|---|---|---|---|---|---|")
    out += bound_rows
    out.append("")
    out.append("### Misses and their cause")
    out.append("")
    if not misses:
        out.append("None.")
    for label, what, p in misses:
        out.append("- **%s** (%s): %s" % (label, what, p.get("cause", "cause not found yet")))
    out.append("")
    out.append("### Sources")
    out.append("")
    for p in points:
        out.append("- %s: %s — %s" % (p["id"], p["url"], p["source_text"]))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "src", "headroom"))
    ap.add_argument("--data", default=os.path.join(ROOT, "docs", "data", "estimate-points.json"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "accuracy.md"))
    ap.add_argument("--check", action="store_true", help="fail when the page differs from the program")
    a = ap.parse_args()
    try:
        with open(a.data, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (a.data, e))
    if data.get("schema") != "headroom.estimate-points/1" or not isinstance(data.get("points"), list):
        fail("%s: not a headroom.estimate-points/1 document" % a.data)
    table = build(a.bin, data["points"])
    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        fail("%s: the markers of the computed part are missing" % a.doc)
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table + END + tail
    if a.check:
        if new != doc:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), new.splitlines(True),
                                                       a.doc, "program"))
            print("estimate-accuracy: %s differs from the program; rerun tools/estimate-accuracy.py" % a.doc,
                  file=sys.stderr)
            return 1
        return 0
    if new != doc:
        tmp = a.doc + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, a.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
