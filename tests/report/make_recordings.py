#!/usr/bin/env python3
"""Write the recordings tests/report uses (tests/fixtures/recordings/), in the format of
docs/recording.md: a FLUX run on a 16 GB Linux machine that the OOM killer ends, a quiet
watch on Windows, and the same run cut short mid-line. Deterministic: rerun to regenerate.
usage: make_recordings.py OUT_DIR"""
import json
import math
import os
import sys

GB = 1 << 30
START = 1764702000123


def line(f, obj):
    f.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")


def run_killed(path, cut=False):
    with open(path, "w", encoding="utf-8") as f:
        line(f, {"type": "header", "schema": "headroom.recording/1", "version": "0.1.0", "os": "linux",
                 "started": START, "interval_ms": 1000, "mode": "run", "target": {"pid": 4242, "name": None},
                 "command": ["python3", "main.py", "--lowvram"], "comfyui": "http://127.0.0.1:8188"})
        ram_total, swap_total, limit = 16 * GB, 8 * GB, 16 * GB
        nodes = [(5, "CheckpointLoaderSimple", "4"), (14, "KSampler", "3"), (38, "VAEDecode", "8")]
        warned = set()
        for s in range(0, 52):
            t = s * 1000
            for (ts, cls, nid) in nodes:
                if ts == s:
                    line(f, {"type": "node", "t": t, "time": START + t, "event": "start", "prompt_id": "6f0c",
                             "node": nid, "class_type": cls, "source": "websocket"})
            grow = min(1.0, s / 48)
            used = int(3 * GB + 12 * GB * grow + 0.2 * GB * math.sin(s))
            swap = int(max(0, (s - 30) / 20) * 7 * GB)
            commit = int(5 * GB + 14 * GB * grow)
            busy = 5.0 if s < 30 else min(99.0, 40 + (s - 30) * 4)
            line(f, {"type": "sample", "t": t, "time": START + t, "ram_total": ram_total, "ram_used": used,
                     "ram_available": ram_total - used, "swap_total": swap_total, "swap_used": swap,
                     "commit": commit, "commit_limit": limit, "cgroup_current": None, "cgroup_max": None,
                     "cgroup_swap_current": None, "cgroup_swap_max": None,
                     "pages_in_ps": 0 if s < 30 else (s - 30) * 300, "pages_out_ps": 0 if s < 30 else (s - 30) * 900,
                     "psi_some_avg10": 0.0 if s < 32 else (s - 32) * 4.0, "psi_full_avg10": 0.0 if s < 36 else (s - 36) * 3.0,
                     "disk_busy_pct": busy, "disk": "sda", "proc_rss": used - 2 * GB, "proc_swap": swap,
                     "proc_count": 3, "vram_used": int(7.5 * GB) if s >= 6 else int(0.5 * GB), "vram_total": 8 * GB})
            if commit > 0.85 * limit and "commit-85" not in warned:
                warned.add("commit-85")
                line(f, {"type": "warning", "t": t, "time": START + t, "rule": "commit-85", "level": "warn",
                         "message": "commit is over 85% of its limit", "value": commit, "limit": limit, "eta_s": 9.0})
            if busy > 90 and "S2.3" not in warned:
                warned.add("S2.3")
                line(f, {"type": "warning", "t": t, "time": START + t, "rule": "S2.3", "level": "critical",
                         "message": "RAM over half used, commit still climbing, the paging disk 98% busy: the system is paging hard",
                         "value": commit, "limit": limit, "eta_s": 4.5,
                         # what the sentence is made of, since 0.1 (the cut-short run keeps the
                         # older line without it: the report then shows the English message)
                         **({} if cut else {"disk_busy_pct": 98.0, "psi_full_avg10": None, "limit_name": None})})
            if s == 20:
                line(f, {"type": "node", "t": t, "time": START + t, "event": "end", "prompt_id": "6f0c", "node": "3",
                         "class_type": "KSampler", "source": "websocket", "ram_growth": 2 * GB,
                         "commit_growth": 2 * GB, "peak_rss": 8 * GB})
            if cut and s == 45:
                f.write('{"type":"sample","t":46000,"time":17647020461')
                return
        line(f, {"type": "exit", "t": 52000, "time": START + 52000, "code": None, "signal": 9,
                 "cgroup_oom_kill": None, "cgroup_peak": None})
        line(f, {"type": "verdict", "t": 52100, "time": START + 52100, "cause": "killed", "confidence": "high",
                 "evidence": [{"source": "/dev/kmsg",
                               "text": "Out of memory: Killed process 4242 (python3) total-vm:31457280kB, anon-rss:14680064kB"}],
                 "peaks": {"ram_used": int(15.2 * GB), "commit": 19 * GB, "swap_used": 7 * GB, "cgroup_current": None,
                           "proc_rss": int(13.2 * GB), "proc_swap": 7 * GB, "vram_used": int(7.5 * GB)},
                 "node": {"prompt_id": "6f0c", "node": "8", "class_type": "VAEDecode"},
                 "warned_before": True, "first_warning_t": 41000,
                 "advice": {"commit_needed": 22 * GB,
                            "text": "This run needed about 22 GB of commit; RAM + swap gave 24 GB but the swap disk is a slow HDD."}})


def watch_ok(path):
    with open(path, "w", encoding="utf-8") as f:
        line(f, {"type": "header", "schema": "headroom.recording/1", "version": "0.1.0", "os": "windows",
                 "started": START, "interval_ms": 1000, "mode": "watch", "target": {"pid": None, "name": "python"},
                 "command": None, "comfyui": None})
        for s in range(10):
            t = s * 1000
            line(f, {"type": "sample", "t": t, "time": START + t, "ram_total": 32 * GB, "ram_used": 12 * GB + s * 10 ** 8,
                     "ram_available": 20 * GB, "swap_total": 24 * GB, "swap_used": GB // 2, "commit": 20 * GB,
                     "commit_limit": 56 * GB, "cgroup_current": None, "cgroup_max": None,
                     "cgroup_swap_current": None, "cgroup_swap_max": None, "pages_in_ps": 0, "pages_out_ps": 1,
                     "psi_some_avg10": None, "psi_full_avg10": None, "disk_busy_pct": 1.0, "disk": "D:",
                     "proc_rss": 6 * GB, "proc_swap": None, "proc_count": 1, "vram_used": None, "vram_total": None,
                     "a_future_key": [1, 2, {"x": "y"}]})
        line(f, {"type": "a-future-line", "t": 9500, "time": START + 9500, "whatever": True})
        line(f, {"type": "end", "t": 10000, "time": START + 10000, "samples": 10, "warnings": 0,
                 "peaks": {"ram_used": 13 * GB, "commit": 20 * GB}})


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    run_killed(os.path.join(out, "run-killed.jsonl"))
    run_killed(os.path.join(out, "run-cut-short.jsonl"), cut=True)
    watch_ok(os.path.join(out, "watch-ok.jsonl"))
