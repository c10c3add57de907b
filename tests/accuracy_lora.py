#!/usr/bin/env python3
"""tools/estimate-accuracy.py carries a point's LoRA into the estimate: the workflow applies it
to the diffusion model, and the estimate reads its stated size (the page cache grows by it).

    python3 tests/accuracy_lora.py BINARY
"""
import importlib.util
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LORA_BYTES = 1_000_000_000


def load_tool():
    spec = importlib.util.spec_from_file_location("estimate_accuracy", os.path.join(ROOT, "tools", "estimate-accuracy.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    binary = sys.argv[1]
    tool = load_tool()
    with open(os.path.join(ROOT, "docs", "data", "estimate-points.json"), encoding="utf-8") as f:
        points = json.load(f)["points"]
    p29 = next(p for p in points if p["id"] == "P29")   # FLUX.2 dev, legacy manager, files by name
    base = {k: v for k, v in p29.items() if k != "loras"}  # the point's own LoRA left out
    with_lora = dict(base, loras=[{"name": "test_lora.safetensors", "bytes": LORA_BYTES}])
    bad = []

    g = tool.workflow_for(with_lora)
    loras = [k for k, n in g.items() if n["class_type"] == "LoraLoaderModelOnly"]
    if len(loras) != 1 or g[loras[0]]["inputs"]["lora_name"] != "test_lora.safetensors":
        bad.append("the workflow has no LoraLoaderModelOnly for the point's LoRA")
    elif g["7"]["inputs"]["model"] != [loras[0], 0]:
        bad.append("the sampler does not take the model through the LoRA")

    with tempfile.TemporaryDirectory() as tmp:
        e0 = tool.run_estimate(binary, base, tmp)
        e1 = tool.run_estimate(binary, with_lora, tmp)
        left = os.listdir(os.path.join(tmp, "comfyui", "models", "loras"))
        if left:
            bad.append("LoRA files left behind: %s" % left)
    grew = e1["peak"]["page_cache_bytes"] - e0["peak"]["page_cache_bytes"]
    if abs(grew - LORA_BYTES) > LORA_BYTES * 0.01:
        bad.append("the page cache grew by %d bytes for a %d-byte LoRA" % (grew, LORA_BYTES))

    for b in bad:
        print("accuracy_lora: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
