#!/usr/bin/env bash
# A killed run leaves nothing behind (docs/run.md): SIGKILL the supervisor and its child, the
# child's children and the child's memory cgroup are gone within seconds; a SIGTERM reaches
# the grandchildren too; a group left by a run that could not remove it (its maker gone) is
# removed by the next run, and a new run's group has a name of its own. Root (cgroups); SKIP
# otherwise. Usage: run_kill_root.sh HEADROOM
set -u
hr=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
# alive PID: running, not a zombie waiting for its reaper
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
wait_file() { for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }
gone_within() {   # gone_within SECONDS PID...: true when none is alive by then
    local t=$1; shift
    for _ in $(seq $((t * 10))); do
        local any=0
        for p in "$@"; do alive "$p" && any=1; done
        [ $any = 0 ] && return 0
        sleep 0.1
    done
    return 1
}
# The memory cgroup directory of process PID (v1's memory hierarchy, else v2's).
cg_of() {
    local rel
    rel=$(sed -n 's/^[0-9]*:memory://p' "/proc/$1/cgroup")
    if [ -n "$rel" ] && [ -d /sys/fs/cgroup/memory ]; then echo "/sys/fs/cgroup/memory$rel"
    else echo "/sys/fs/cgroup$(sed -n 's/^0:://p' "/proc/$1/cgroup")"; fi
}
# the child: a shell that starts two grandchildren (one a shell of its own) and waits
child='sleep 300 & echo $! >'"$tmp"'/gc1; sh -c "sleep 300" & echo $! >'"$tmp"'/gc2; echo $$ >'"$tmp"'/pid; wait'

for mode in cgroup no-cgroup; do
    rm -f "$tmp"/gc1 "$tmp"/gc2 "$tmp"/pid
    flag=""; [ $mode = no-cgroup ] && flag=--no-cgroup
    "$hr" run --interval 100 $flag -- sh -c "$child" >/dev/null 2>"$tmp/err" &
    hrpid=$!
    pids+=("$hrpid")
    wait_file "$tmp/gc2" && wait_file "$tmp/pid" || { bad "$mode: the child did not start: $(cat "$tmp/err")"; continue; }
    cpid=$(cat "$tmp/pid") g1=$(cat "$tmp/gc1") g2=$(cat "$tmp/gc2")
    pids+=("$cpid" "$g1" "$g2")
    cg=""
    if [ $mode = cgroup ]; then
        cg=$(cg_of "$cpid")
        rel=$cg
        case $rel in */headroom-run-*) ;; *) echo "SKIP: no cgroup of its own here ($rel): $(cat "$tmp/err")"; exit 77 ;; esac
        case $(basename "$rel") in "headroom-run-$hrpid") bad "the group is named after the pid alone: $rel" ;; esac
    fi
    kill -9 "$hrpid"
    wait "$hrpid" 2>/dev/null
    gone_within 5 "$cpid" "$g1" "$g2" && echo "ok   $mode: SIGKILL of run: the child and its children are gone" ||
        bad "$mode: after SIGKILL of run, still running: $(for p in $cpid $g1 $g2; do alive $p && echo -n "$p "; done)"
    if [ -n "$cg" ]; then
        for _ in $(seq 50); do [ -e "$cg" ] || break; sleep 0.1; done
        [ ! -e "$cg" ] && echo "ok   $mode: its cgroup is removed" || bad "$mode: $cg is left behind"
    fi
done

# SIGTERM to run goes to the whole process group: the grandchildren end too
rm -f "$tmp"/gc1 "$tmp"/gc2 "$tmp"/pid
"$hr" run --interval 100 -- sh -c "$child" >/dev/null 2>"$tmp/err" &
hrpid=$!
pids+=("$hrpid")
if wait_file "$tmp/gc2" && wait_file "$tmp/pid"; then
    cpid=$(cat "$tmp/pid") g1=$(cat "$tmp/gc1") g2=$(cat "$tmp/gc2")
    pids+=("$cpid" "$g1" "$g2")
    kill -TERM "$hrpid"
    wait "$hrpid"
    st=$?
    [ $st = 143 ] || bad "SIGTERM: run's status $st, want 143"
    gone_within 5 "$g1" "$g2" && echo "ok   SIGTERM: the grandchildren ended too" ||
        bad "SIGTERM: grandchildren still running: $(for p in $g1 $g2; do alive $p && echo -n "$p "; done)"
else
    bad "SIGTERM: the child did not start"
fi

# A group whose maker is gone (killed where no guard could act), in the old name and the
# new: the next run removes both, with what still ran in them; a live maker's group stays.
# run makes its group under its own cgroup: plant there
where=$(cg_of $$)
sleep 1000 & dead=$!; kill -9 $dead; wait $dead 2>/dev/null   # a pid that is gone
old=$where/headroom-run-$dead
new=$where/headroom-run-$dead-12345
live=$where/headroom-run-$$-$(sed 's/.*) //' /proc/$$/stat | awk '{print $20}')
mkdir -p "$old" "$new" "$live" 2>/dev/null || { echo "SKIP: cannot make cgroups under $where"; exit 77; }
sleep 300 & stray=$!; pids+=("$stray")
echo "$stray" >"$new/cgroup.procs" 2>/dev/null || bad "cannot move a stray process into $new"
{ echo 67108864 >"$new/memory.max" || echo 67108864 >"$new/memory.limit_in_bytes"; } 2>/dev/null
"$hr" run --interval 100 -- true >/dev/null 2>"$tmp/err" || bad "run -- true failed: $(cat "$tmp/err")"
[ ! -e "$old" ] && [ ! -e "$new" ] && echo "ok   stale groups removed" || bad "stale groups left: $(ls -d "$old" "$new" 2>/dev/null)"
gone_within 3 "$stray" && echo "ok   what ran in a stale group is gone" || bad "a process of a stale group still runs"
[ -e "$live" ] && echo "ok   a group whose maker lives stays" || bad "a live maker's group was removed"
rmdir "$live" 2>/dev/null
rmdir "$old" "$new" 2>/dev/null

echo "$fails failed"
[ "$fails" -eq 0 ]
