#!/usr/bin/env bash
# watch --comfyui / run --comfyui / --protect against tests/comfyui/peer.js, a local peer that
# speaks ComfyUI's protocol (server.py's routes, message shapes and who gets which message) on
# the ws package. Modes:
#   api        a prompt without a client id: headroom names each node and its growth
#   browser    a browser tab owns the prompt: headroom gets status broadcasts only, measures
#              the prompt, never takes the tab's client id (the peer checks that), and names
#              the likely node from the estimate's profile of the queued workflow
#   run        run --comfyui: the console's model loads and the nodes, then a clean verdict
#   protect    (root: a memory cgroup) the sampler grows; --protect sends POST /free with
#              {"unload_models":true,"free_memory":true}, then POST /interrupt; the run survives
#   protect-freefail  the same, but /free answers HTTP 500: --protect says it failed, and the
#              interrupt never claims memory climbed "after /free"
#   climb      (root: a memory cgroup) a tab's prompt climbs towards the limit: the warning is
#              followed by the estimate's likely node
#   unreachable  nothing listens: one line on stderr, sampling goes on (no node needed)
#   hostile-history  a server lists a prompt that would need hundreds of terabytes, under a
#              prompt id with a newline in it: check's need is held (X.serverneed), no line is
#              forged; as root, a local server whose process is not ComfyUI is not asked at
#              all (X.localserver)
#   hostile-ping-flood, -text-flood, -cont-flood, -slow-queue, -never
#              a server that floods the websocket, answers /queue and /history slowly, or
#              never answers: samples keep their cadence (no gap over 700 ms at 200 ms),
#              SIGTERM ends watch within an interval, and run and its child
#   hostile-huge  GET /queue answers 30 MB: refused at the link's cap (said once), and watch's
#              peak resident memory stays under 8 MiB
#   hostile-masked  the server masks its frames: the websocket is dropped, and said
#   never      run --comfyui with a command that never listens: headroom says what it waits
#              for, that the server did not come up (address, how long), and exits 69 when
#              the command itself exited 0 (no node needed)
# Usage: comfyui_cli.sh MODE HEADROOM [RUNNER]   (RUNNER: wine for the Windows build)
# Exit 77 (SKIP) without node and its ws package, or (protect) without root.
set -u
mode=$1
bin=$2
runner=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
peer_pid=
trap '[ -n "$peer_pid" ] && kill "$peer_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
hr() { if [ -n "$runner" ]; then "$runner" "$bin" "$@"; else "$bin" "$@"; fi; }

if [ "$mode" = unreachable ]; then
    # a port nothing listens on: take one and close it
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    hr watch --comfyui "http://127.0.0.1:$port" --count 3 --interval 100 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || bad "exit $rc"
    [ "$(grep -c . "$tmp/err")" -eq 1 ] || bad "not one line on stderr: $(cat "$tmp/err")"
    grep -Eq "^headroom: watch: ComfyUI at http://127.0.0.1:$port: .*(refused|actively refused|Connection)" "$tmp/err" ||
        bad "stderr: $(cat "$tmp/err")"
    [ "$(grep -c 'RAM ' "$tmp/out")" -eq 3 ] || bad "not 3 samples: $(cat "$tmp/out")"
    hr watch --comfyui "https://127.0.0.1:1" --count 1 >/dev/null 2>"$tmp/err2"
    [ $? -eq 64 ] || bad "https is not a usage error"
    grep -q "https is not supported" "$tmp/err2" || bad "https: $(cat "$tmp/err2")"
    [ $fail -eq 0 ] && echo "comfyui.unreachable: ok"
    exit $fail
fi

if [ "$mode" = never ]; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # 1: the bound passes while the command still runs, then the command ends with 0
    hr run --interval 200 --comfyui "$port" --comfyui-wait 1 --record "$tmp/rec.jsonl" -- \
        sleep 3 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 69 ] || bad "a ComfyUI that never came up: exit $rc, not 69"
    grep -q "waiting for ComfyUI at http://127.0.0.1:$port to answer GET /system_stats (up to 1 s)" "$tmp/err" ||
        bad "no 'waiting for' line: $(cat "$tmp/err")"
    grep -Eq "ComfyUI did not come up at http://127.0.0.1:$port: no answer to GET /system_stats in 1 s \(.*(refused|Connection).*\)" "$tmp/err" ||
        bad "no 'did not come up' line: $(cat "$tmp/err")"
    grep -Eq "ComfyUI never came up at http://127.0.0.1:$port: no answer to GET /system_stats in the [2-4] s the command ran" "$tmp/err" ||
        bad "no 'never came up' line at the end: $(cat "$tmp/err")"
    python3 - "$tmp/rec.jsonl" "$port" <<'PY' || bad "recording: $(grep -v '"sample"' "$tmp/rec.jsonl")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[-1]["type"] == "verdict", lines[-1]
down = [l for l in lines if l["type"] == "comfyui-down"]
url = "http://127.0.0.1:" + sys.argv[2]
assert [d["command_ended"] for d in down] == [False, True], down
assert all(d["url"] == url and "refused" in (d["error"] or "") for d in down), down
assert 1000 <= down[0]["waited_ms"] < 2500 and down[1]["waited_ms"] >= 2500, down
PY
    # 2: the command ends (exit 5) before the server ever answered: its own status stays
    hr run --interval 200 --comfyui "$port" -- sh -c 'exit 5' >"$tmp/out" 2>"$tmp/err2"
    rc=$?
    [ $rc -eq 5 ] || bad "the command's exit 5 became $rc"
    grep -q "ComfyUI never came up at http://127.0.0.1:$port: .* in the 0 s the command ran (not asked yet: the command ended first)" "$tmp/err2" ||
        bad "ended early: $(cat "$tmp/err2")"
    hr run --comfyui "$port" --comfyui-wait 0 -- true >/dev/null 2>&1
    [ $? -eq 64 ] || bad "--comfyui-wait 0 is not a usage error"
    [ $fail -eq 0 ] && { echo "comfyui.never: ok"; sed 's/^/  /' "$tmp/err"; }
    exit $fail
fi

if ! command -v node >/dev/null 2>&1 || ! (cd "$here" && node -e "require('ws')" 2>/dev/null); then
    echo "SKIP: node or its ws package is missing (tools/install-deps.sh --tests installs them)"
    exit 77
fi
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_hostile() { # attack [script]: a hostile peer; sets port and peer_pid
    local script=${2:-$here/peer.js}
    : >"$tmp/peer.out"
    NODE_PATH="$here/node_modules" node "$script" --scenario hostile --attack "$1" --ttl 60 \
        --base "$tmp/srv" >"$tmp/peer.out" 2>"$tmp/peer.err" &
    peer_pid=$!
    for _ in $(seq 100); do grep -q '^PORT ' "$tmp/peer.out" && break; sleep 0.1; done
    port=$(awk '/^PORT / {print $2; exit}' "$tmp/peer.out")
    [ -n "$port" ] || { echo "FAIL: the peer did not start: $(cat "$tmp/peer.err")"; exit 1; }
}
stop_peer() { [ -n "$peer_pid" ] && kill "$peer_pid" 2>/dev/null; wait "$peer_pid" 2>/dev/null; peer_pid=; }

# term_after SECONDS PID NAME: SIGTERM to PID after SECONDS; ms = how long it took to end
# (killed, and said, past 2 s).
term_after() {
    sleep "$1"
    local t0; t0=$(date +%s%N)
    kill -TERM "$2"
    for _ in $(seq 100); do kill -0 "$2" 2>/dev/null || break; sleep 0.02; done
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    if kill -0 "$2" 2>/dev/null; then kill -KILL "$2"; bad "$3 still runs 2 s after SIGTERM"; fi
    wait "$2" 2>/dev/null
}

case $mode in
hostile-history)
    mkdir -p "$tmp/srv/models"
    chmod 755 "$tmp"   # another user reads the folder the server names
    start_hostile history
    # the trust check is root's: the need is checked as another user first
    asuser=()
    [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && asuser=(setpriv --reuid 65534 --regid 65534 --clear-groups)
    HEADROOM_COMFYUI_URL="http://127.0.0.1:$port" "${asuser[@]}" "$bin" check >"$tmp/out" 2>"$tmp/err"
    grep -q "its /history" "$tmp/out" || bad "check did not take the server's prompt: $(cat "$tmp/out" "$tmp/err")"
    grep -q "FORGED" "$tmp/out" "$tmp/err" && ! grep -q "^headroom: FORGED\|^FORGED" "$tmp/out" "$tmp/err" ||
        bad "the prompt id's text is gone or forged a line: $(grep -h FORGED "$tmp/out" "$tmp/err")"
    LC_ALL=C grep -q $'\xe2\x80\xae' "$tmp/out" "$tmp/err" && bad "a bidi override reached the terminal"
    need=$(sed -n 's/^  needs *\([0-9.]*\) GB.*/\1/p' "$tmp/out")
    python3 -c "import sys; sys.exit(0 if 0 < float('$need') < 2000 else 1)" 2>/dev/null ||
        bad "the need is not held: $need GB: $(cat "$tmp/out")"
    grep -q "would need [0-9.]* GB by its workflow; held to .*(X.serverneed)" "$tmp/err" ||
        bad "no line says the need was held: $(cat "$tmp/err")"
    if [ "$(id -u)" -eq 0 ]; then
        # root: the peer from tests/comfyui/ looks like ComfyUI and is asked; the same peer
        # under another name is not
        HEADROOM_COMFYUI_URL="http://127.0.0.1:$port" "$bin" check >"$tmp/out2" 2>"$tmp/err2"
        grep -q "(X.serverneed)" "$tmp/err2" || bad "root did not ask a ComfyUI-looking server: $(cat "$tmp/err2")"
        stop_peer
        mkdir -p "$tmp/evil"
        cp "$here/peer.js" "$tmp/evil/server.js"
        start_hostile history "$tmp/evil/server.js"
        HEADROOM_COMFYUI_URL="http://127.0.0.1:$port" "$bin" check >"$tmp/out3" 2>"$tmp/err3"
        grep -q "not asking the server on port $port: running as root, and the process listening there (PID $peer_pid: .*server.js.*) does not look like ComfyUI (X.localserver)" "$tmp/err3" ||
            bad "root asked a server that is not ComfyUI: $(cat "$tmp/err3")"
        grep -q "its /history" "$tmp/out3" && bad "root took that server's prompt"
    fi
    stop_peer
    [ $fail -eq 0 ] && { echo "comfyui.hostile-history: ok"; sed 's/^/  /' "$tmp/err" "$tmp/err3" 2>/dev/null; }
    exit $fail
    ;;
hostile-huge)
    # a 30 MB /queue: refused at the link's cap, said once; watch's peak stays under 8 MiB
    start_hostile huge
    python3 - "$bin" "$port" "$tmp/out" "$tmp/err" <<'PY' || bad "watch's peak under a huge /queue"
import resource, subprocess, sys
b, port, out, err = sys.argv[1:]
def peak(args, o, e):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    rc = subprocess.run([b, "watch", "--interval", "200", "--count", "15"] + args, stdout=o, stderr=e).returncode
    assert rc == 0, rc
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# ru_maxrss of the children is the largest of them: the plain watch first, then the hostile
plain = peak([], subprocess.DEVNULL, subprocess.DEVNULL)
with open(out, "w") as o, open(err, "w") as e:
    hostile = peak(["--comfyui", port], o, e)
print("watch's peak: %d kB plain, %d kB under a 30 MB /queue (%.2fx)" % (plain, hostile, hostile / plain))
import os
if os.environ.get("HR_SANITIZED"):
    print("(a sanitizer build: its heap keeps freed blocks, so the peak is not judged)")
else:
    assert hostile <= plain + 4096, (plain, hostile)
PY
    grep -q "GET /queue: .*the answer is larger than" "$tmp/err" || bad "the refusal is not said: $(cat "$tmp/err")"
    [ "$(grep -c 'GET /queue' "$tmp/err")" -eq 1 ] || bad "said more than once: $(cat "$tmp/err")"
    stop_peer
    ;;
hostile-masked)
    # RFC 6455 5.1: a masked frame from the server ends the websocket, and it is said
    start_hostile masked
    hr watch --comfyui "$port" --interval 200 --count 8 >"$tmp/out" 2>"$tmp/err" || bad "watch exited $?"
    grep -q "websocket: a masked frame from the server; following the queue only" "$tmp/out" ||
        bad "a masked frame was taken: $(cat "$tmp/out" "$tmp/err")"
    [ "$(grep -c '^[0-9:]*  RAM ' "$tmp/out")" -eq 8 ] || bad "not 8 samples: $(cat "$tmp/out")"
    stop_peer
    ;;
hostile-ping-flood|hostile-text-flood|hostile-cont-flood|hostile-slow-queue|hostile-never)
    # a server cannot stall sampling or signals: samples keep their cadence, SIGTERM ends
    # watch within an interval, and under run the child gets the SIGTERM
    attack=${mode#hostile-}
    start_hostile "$attack"
    hr watch --comfyui "$port" --interval 200 --count 20 --record "$tmp/rec.jsonl" >"$tmp/out" 2>"$tmp/err" ||
        bad "watch exited $?: $(cat "$tmp/err")"
    python3 - "$tmp/rec.jsonl" <<'PY' || bad "sampling stalled: $(tail -3 "$tmp/out")"
import json, sys
t = [l["t"] for l in map(json.loads, open(sys.argv[1])) if l["type"] == "sample"]
gaps = [b - a for a, b in zip(t, t[1:])]
print("samples %d, largest gap %d ms (interval 200 ms)" % (len(t), max(gaps)))
assert len(t) == 20 and max(gaps) <= 700, gaps
PY
    # SIGTERM while the server does its worst
    "$bin" watch --comfyui "$port" --interval 200 >"$tmp/out2" 2>"$tmp/err2" &
    w=$!
    term_after 2.5 "$w" watch
    [ "$ms" -le 2000 ] || bad "watch took $ms ms to end after SIGTERM"
    echo "SIGTERM ended watch in $ms ms"
    # run: the child gets the SIGTERM, and run ends
    "$bin" run --interval 200 --comfyui "$port" -- sh -c "trap 'echo term >\"$tmp/term\"; exit 0' TERM; while :; do sleep 0.05; done" \
        >"$tmp/out3" 2>"$tmp/err3" &
    w=$!
    term_after 2.5 "$w" run
    [ -s "$tmp/term" ] || bad "run's child did not get the SIGTERM"
    [ "$ms" -le 2000 ] || bad "run took $ms ms to end after SIGTERM"
    echo "SIGTERM ended run (and its child) in $ms ms"
    stop_peer
    ;;
api|browser)
    node "$here/peer.js" --scenario "$mode" >"$tmp/peer.out" 2>"$tmp/peer.err" &
    peer_pid=$!
    for _ in $(seq 100); do grep -q '^PORT ' "$tmp/peer.out" && break; sleep 0.1; done
    port=$(awk '/^PORT / {print $2; exit}' "$tmp/peer.out")
    [ -n "$port" ] || { echo "FAIL: the peer did not start: $(cat "$tmp/peer.err")"; exit 1; }
    # follow the peer's own process: the growth is its resident memory, exactly
    pidopt=(--pid "$peer_pid")
    [ -n "$runner" ] && pidopt=()
    hr watch --comfyui "$port" --interval 200 --count 60 "${pidopt[@]}" --record "$tmp/rec.jsonl" \
        >"$tmp/out" 2>"$tmp/err" || bad "watch exited $?"
    wait "$peer_pid"; prc=$?; peer_pid=
    [ $prc -eq 0 ] || bad "the peer says: $(cat "$tmp/peer.err")"
    python3 - "$tmp/rec.jsonl" "$mode" "$tmp/out" "$runner" <<'PY' || { bad "recording / output"; cat "$tmp/out"; grep -v '"sample"' "$tmp/rec.jsonl"; }
import json, sys
rec, mode, out, runner = sys.argv[1], sys.argv[2], open(sys.argv[3]).read(), sys.argv[4]
lines = [json.loads(l) for l in open(rec)]
types = [l["type"] for l in lines]
assert types[0] == "header" and lines[0]["comfyui"].startswith("http://127.0.0.1:"), lines[0]
assert types[-1] == "end", types[-1]
cf = [l for l in lines if l["type"] == "comfyui"]
assert cf and cf[0]["version"] == "0.3.40" and cf[0]["devices"][0]["vram_total"] == 25757220864, cf
assert "ComfyUI 0.3.40 at http://127.0.0.1:" in out and "VRAM 24 GB" in out, out
nodes = [l for l in lines if l["type"] == "node"]
ps = [n for n in nodes if n["event"] == "prompt-start"]
pe = [n for n in nodes if n["event"] == "prompt-end"]
assert len(ps) == 1 and len(pe) == 1, nodes
assert pe[0]["ram_growth"] is not None and pe[0]["duration_ms"] > 1000, pe
assert "success" in pe[0]["text"] and "(history)" in pe[0]["text"], pe
if mode == "api":
    ends = {n["node"]: n for n in nodes if n["event"] == "end"}
    assert list(ends) == ["4", "6", "7", "3", "8", "9"], list(ends)
    v = ends["8"]
    assert v["class_type"] == "VAEDecode" and v["source"] == "websocket", v
    if not runner:
        # the decode holds 160 MB of touched pages while it runs
        assert v["rss_growth"] >= 120 << 20, v
        assert v["rss_growth"] == max(n["rss_growth"] for n in ends.values()), ends
        assert "the node that grew most: node 8 VAEDecode: +" in out, out
    assert "node 8 VAEDecode: +" in out and "node 3 KSampler: " in out, out
    assert "its node messages reach every client" in out, out
    assert not [n for n in nodes if n["event"] == "likely-node"], nodes
else:
    assert not [n for n in nodes if n["event"] in ("start", "end")], nodes
    assert "belongs to another client (a browser tab)" in out, out
    assert "prompt " in out and " RSS, peak " in out or " RAM, peak " in out, out
    # the nodes are the tab's: the estimate's profile of the queued workflow names the likely
    # one (SDXL on ComfyUI 0.3.40 loads the checkpoint through RAM: the loader adds most)
    lk = [n for n in nodes if n["event"] == "likely-node"]
    assert len(lk) == 1 and lk[0]["source"] == "estimate" and lk[0]["node"] == "4", lk
    assert lk[0]["class_type"] == "CheckpointLoaderSimple" and lk[0]["prompt_id"] == ps[0]["prompt_id"], lk
    assert "by the estimate's profile of its workflow, RAM grows most at node 4 CheckpointLoaderSimple (+" in out, out
    assert "VRAM peaks at node 8 VAEDecode" in out, out
    assert "; likely node 4 CheckpointLoaderSimple (the estimate's profile)" in out, out
print("ok")
PY
    ;;
run)
    port=$(free_port)
    hr run --interval 200 --comfyui "$port" --record "$tmp/rec.jsonl" -- \
        node "$here/peer.js" --scenario api --port "$port" --linger 300 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || bad "run exited $rc: $(cat "$tmp/err")"
    grep -q '^Prompt executed in ' "$tmp/out" || bad "the child's output did not pass through"
    python3 - "$tmp/rec.jsonl" "$tmp/err" <<'PY' || { bad "recording / output"; cat "$tmp/err"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
assert lines[-1]["type"] == "verdict" and lines[-1]["cause"] == "ok", lines[-1]
loads = [l for l in lines if l["type"] == "node" and l["event"] == "model-load" and "rss_growth" in l]
assert [l["text"] for l in loads] == ["SDXLClipModel (loaded completely)", "SDXL (loaded partially)"], loads
assert loads[0]["node"] == "4" and loads[0]["class_type"] == "CheckpointLoaderSimple", loads[0]
assert loads[0]["rss_growth"] >= 30 << 20, loads[0]
assert "model load SDXLClipModel (loaded completely): +" in err, err
assert "node 8 VAEDecode: +" in err, err
print("ok")
PY
    ;;
protect|protect-freefail)
    if [ "$(id -u)" -ne 0 ]; then echo "SKIP: --protect's test needs root (a memory cgroup)"; exit 77; fi
    port=$(free_port)
    freeopt=()
    [ "$mode" = protect-freefail ] && freeopt=(--free-status 500)
    hr run --limit 600M --interval 200 --comfyui "$port" --protect --record "$tmp/rec.jsonl" -- \
        node "$here/peer.js" --scenario hog --port "$port" --linger 300 "${freeopt[@]}" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -q "no memory cgroup of its own" "$tmp/err"; then
        echo "SKIP: no memory cgroup here: $(grep 'no memory cgroup' "$tmp/err")"; exit 77
    fi
    # the peer exits 3 unless /free came with the right body and then /interrupt
    [ $rc -eq 0 ] || bad "run exited $rc: $(cat "$tmp/err")"
    grep -q '^POST /free {"unload_models":true,"free_memory":true}$' "$tmp/out" || bad "the peer saw no /free body"
    grep -q '^POST /interrupt$' "$tmp/out" || bad "the peer saw no /interrupt"
    python3 - "$tmp/rec.jsonl" "$tmp/err" "$mode" <<'PY' || { bad "recording / output"; cat "$tmp/err"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
acts = [l for l in lines if l["type"] == "action"]
assert [a["action"] for a in acts] == ["free", "interrupt"], acts
if sys.argv[3] == "protect-freefail":
    # /free failed: said so, never "still climbing after /free"
    assert acts[0]["status"] == 500 and acts[0]["error"] == "HTTP 500", acts
    assert "--protect: POST /free failed: HTTP 500" in err, err
    assert "after /free" not in err and "and POST /free had failed: interrupted the running prompt" in err, err
    acts[0]["status"] = 200
assert acts[0]["status"] == 200 and acts[0]["url"].endswith("/free") and acts[0]["reason"] in ("time-to-limit", "cgroup-near", "commit-95"), acts
assert acts[1]["status"] == 200 and acts[1]["url"].endswith("/interrupt"), acts
assert acts[0]["t"] < acts[1]["t"], acts
assert lines[-1]["type"] == "verdict" and lines[-1]["cause"] == "ok", lines[-1]
pe = [l for l in lines if l["type"] == "node" and l["event"] == "prompt-end" and l["source"] != "console"]
assert pe and "interrupted at node 3 KSampler" in pe[0]["text"], pe
assert ("--protect: the limit is near" in err or sys.argv[3] == "protect-freefail") and "interrupted the running prompt" in err, err
print("ok")
PY
    ;;
climb)
    # a tab owns the prompt and memory climbs towards the child's cgroup limit: the warning
    # is followed by the estimate's likely node (headroom cannot see the tab's node messages)
    if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root (a memory cgroup)"; exit 77; fi
    port=$(free_port)
    hr run --limit 330M --interval 200 --comfyui "$port" --record "$tmp/rec.jsonl" -- \
        node "$here/peer.js" --scenario browser --port "$port" --linger 300 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -q "no memory cgroup of its own" "$tmp/err"; then
        echo "SKIP: no memory cgroup here: $(grep 'no memory cgroup' "$tmp/err")"; exit 77
    fi
    [ $rc -eq 0 ] || bad "run exited $rc: $(cat "$tmp/err")"
    python3 - "$tmp/rec.jsonl" "$tmp/err" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
ps = [l for l in lines if l["type"] == "node" and l["event"] == "prompt-start" and l["prompt_id"]]
pe = [l for l in lines if l["type"] == "node" and l["event"] == "prompt-end" and l["prompt_id"]]
assert ps and pe, [l for l in lines if l["type"] == "node"]
during = [l for l in lines if l["type"] == "warning" and ps[0]["t"] <= l["t"] <= pe[0]["t"]]
if not during:
    print("SKIP: no warning fired during the prompt here (the peer stayed far from the limit)")
    sys.exit(77)
assert "memory climbs in prompt %s, whose nodes another client follows: likely node 4 CheckpointLoaderSimple" % ps[0]["prompt_id"][:8] in err, err
assert err.count("memory climbs in prompt") == 1, err
print("a warning at t=%d ms during the tab's prompt named node 4 CheckpointLoaderSimple" % during[0]["t"])
PY
    st=$?
    [ $st -eq 77 ] && exit 77
    [ $st -eq 0 ] || { bad "recording / output"; cat "$tmp/err"; }
    ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
[ $fail -eq 0 ] && echo "comfyui.$mode: ok"
exit $fail
