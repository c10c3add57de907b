#!/usr/bin/env bash
# watch --name PATTERN says when the pattern matches no process (name or command line), and
# when a match appears later; a pattern that matches from the start says nothing. With --json
# the note goes to stderr and stdout stays the recording. Real processes, no mocks.
# usage: watch_name.sh HEADROOM
set -u   # no pipefail: `echo | grep -q` would fail when grep stops reading early
hr=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
probe="hr-watch-name-probe-$$"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null' EXIT

out=$("$hr" watch --name "$probe" --count 3 --interval 100 2>&1)
echo "$out" | grep -q -- "--name '$probe' matches no process" || bad "no match not said: $out"

out=$("$hr" watch --name "$probe" --count 2 --interval 100 --json 2>"$probe.err")
grep -q "matches no process" "$probe.err" || bad "--json: the note is not on stderr: $(cat "$probe.err")"
echo "$out" | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' ||
  bad "--json: stdout is not the recording alone"
rm -f "$probe.err"

out=$(LANG=zh_CN.UTF-8 "$hr" watch --name "$probe" --count 1 --interval 100 2>&1)
echo "$out" | grep -q "没有匹配的进程" || bad "Chinese: $out"

# a process whose command line holds the pattern, started before: nothing to say
bash -c "exec -a $probe sleep 60" & pids+=($!)
for _ in $(seq 50); do pgrep -f "^$probe" >/dev/null && break; sleep 0.1; done
out=$("$hr" watch --name "$probe" --count 3 --interval 100 2>&1)
echo "$out" | grep -q "matches no process" && bad "said no match while $probe runs: $out"
echo "$out" | grep -q "in 1 processes\|in 1 process" || bad "the probe is not the target: $out"
kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; pids=()

# the match appears while watch runs
( sleep 1; exec -a "$probe" sleep 60 ) & pids+=($!)
out=$("$hr" watch --name "$probe" --count 40 --interval 100 2>&1)
echo "$out" | grep -q "matches no process" || bad "no first note: $out"
echo "$out" | grep -q -- "--name '$probe' matches now (processes: 1)" || bad "the match that appeared is not said: $out"

[ "$fail" = 0 ] && echo "watch --name: a pattern matching nothing is said, and a match appearing"
exit $fail
