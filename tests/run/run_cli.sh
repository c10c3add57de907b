#!/usr/bin/env bash
# run end to end with real processes: exit codes pass through, a normal exit is "ok", a
# signal from the user is not an out-of-memory kill, a CUDA OOM traceback is gpu-oom,
# termination sent to headroom reaches the child, and 200 MB of output arrive byte for byte
# on stdout and in the log.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
verdict() { python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; v=l[-1]; assert v["type"]=="verdict", v; print(v["cause"])' "$1"; }

"$bin" run --interval 100 --record "$tmp/ok.jsonl" -- sh -c 'echo fine' >"$tmp/ok.out" 2>"$tmp/ok.err"
[ $? -eq 0 ] || bad "normal exit: status $?"
[ "$(cat "$tmp/ok.out")" = fine ] || bad "normal exit: stdout $(cat "$tmp/ok.out")"
[ "$(verdict "$tmp/ok.jsonl")" = ok ] || bad "normal exit: verdict $(verdict "$tmp/ok.jsonl")"
head -1 "$tmp/ok.jsonl" | grep -q '"schema":"headroom.recording/1"' || bad "no header"
grep -q "finished normally" "$tmp/ok.err" || bad "normal exit: $(cat "$tmp/ok.err")"

"$bin" run --interval 100 -- sh -c 'exit 7' >/dev/null 2>&1
[ $? -eq 7 ] || bad "exit 7 did not pass through"

"$bin" run -- /nonexistent/program >/dev/null 2>"$tmp/nx.err"
[ $? -eq 127 ] || bad "a missing program is not 127"
grep -q "/nonexistent/program" "$tmp/nx.err" || bad "a missing program is not named"

"$bin" run >/dev/null 2>&1; [ $? -eq 64 ] || bad "no command is not 64"

# the user kills the child with SIGKILL: not an out-of-memory kill
"$bin" run --interval 100 --record "$tmp/kill.jsonl" -- sh -c 'echo $$ > '"$tmp"'/pid; exec sleep 30' >/dev/null 2>"$tmp/kill.err" &
hr=$!
for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
sleep 0.3
kill -9 "$(cat "$tmp/pid")"
wait $hr; st=$?
[ $st -eq 137 ] || bad "SIGKILL: status $st"
[ "$(verdict "$tmp/kill.jsonl")" = signal ] || bad "user SIGKILL: verdict $(verdict "$tmp/kill.jsonl")"
grep -q "not memory" "$tmp/kill.err" || bad "user SIGKILL: $(cat "$tmp/kill.err")"

# termination sent to headroom alone reaches the child
rm -f "$tmp/pid"
"$bin" run --interval 100 --record "$tmp/term.jsonl" -- sh -c 'echo $$ > '"$tmp"'/pid; exec sleep 30' >/dev/null 2>&1 &
hr=$!
for _ in $(seq 50); do [ -s "$tmp/pid" ] && break; sleep 0.1; done
sleep 0.3
kill -TERM $hr
wait $hr; st=$?
[ $st -eq 143 ] || bad "SIGTERM to headroom: status $st (the child should end by SIGTERM)"
kill -0 "$(cat "$tmp/pid")" 2>/dev/null && { bad "the child outlived SIGTERM"; kill -9 "$(cat "$tmp/pid")"; }

# a CUDA out-of-memory traceback (ComfyUI prints it and may even exit 0)
cat >"$tmp/cuda.py" <<'PY'
import sys
print("got prompt")
print("Requested to load SDXL")
sys.stderr.write("""Traceback (most recent call last):
  File "execution.py", line 323, in execute
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 11.72 GiB of which 1.02 GiB is free.
""")
sys.exit(1)
PY
"$bin" run --interval 100 --record "$tmp/cuda.jsonl" -- python3 "$tmp/cuda.py" >/dev/null 2>"$tmp/cuda.err"
[ $? -eq 1 ] || bad "cuda: status"
[ "$(verdict "$tmp/cuda.jsonl")" = gpu-oom ] || bad "cuda: verdict $(verdict "$tmp/cuda.jsonl")"
grep -q '"type":"node".*"event":"prompt-start"' "$tmp/cuda.jsonl" || bad "cuda: no prompt-start marker"
grep -q '"type":"node".*"event":"model-load"' "$tmp/cuda.jsonl" || bad "cuda: no model-load marker"

# 200 MB of output, byte for byte, on stdout and in the log (stderr too)
head -c 200000000 /dev/urandom >"$tmp/big"
"$bin" run --log "$tmp/big.log" -- sh -c 'cat "$1"; head -c 1000000 "$1" >&2' sh "$tmp/big" >"$tmp/big.out" 2>"$tmp/big.err"
[ $? -eq 0 ] || bad "200 MB: status"
cmp -s "$tmp/big" "$tmp/big.out" || bad "200 MB: stdout differs ($(stat -c %s "$tmp/big.out") bytes)"
head -c 1000000 "$tmp/big" | cmp -s - <(head -c 1000000 "$tmp/big.err") || bad "stderr differs"
[ "$(stat -c %s "$tmp/big.log")" -eq 201000000 ] || bad "the log has $(stat -c %s "$tmp/big.log") bytes, not 201000000"

[ $fail -eq 0 ] && echo "run.cli: ok"
exit $fail
