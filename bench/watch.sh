#!/usr/bin/env bash
# Benchmark: what watching costs, and how early it warns.
#  1. Cost: instructions per second (callgrind) and resident memory (while sampling, and the
#     peak VmHWM) of `headroom watch --interval 1000` against earlyoom (Debian's package)
#     polling at its own 1 s pace with plenty of memory free, over the same wall time; and headroom's
#     instructions per sample (the difference between a long and a short run).
#  2. Lead time: `headroom run --limit` on a child allocating 200 MB/s in a memory cgroup of
#     its own; the first warning's time against the kernel's kill (from the recording), with
#     earlyoom running beside it in the same run (it watches the whole machine, not the cgroup).
# Not a test: prints figures and ratios. usage: bench/watch.sh HEADROOM
# (HR_BENCH_SMOKE=1: short runs; HR_BENCH_COST_ONLY=1: part 1 only; part 2 needs root and a
# memory cgroup, else it is skipped)
set -u
H=$(readlink -f "${1:-build/src/headroom}")
SECS=10; LIMIT=2000M
[ -n "${HR_BENCH_SMOKE:-}" ] && { SECS=2; LIMIT=600M; }
T=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT

have_vg=0; command -v valgrind >/dev/null && have_vg=1
have_eo=0; command -v earlyoom >/dev/null && have_eo=1
[ $have_eo = 1 ] || echo "earlyoom not installed (tools/install-deps.sh --bench): the peer columns are empty"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }  # rounded, not truncated
instr() { # instructions of a callgrind run: FILE
    awk '/^summary:/ {print $2}' "$1"
}

echo "-- cost, ${SECS} s at 1 s intervals"
if [ $have_vg = 1 ]; then
    timeout -s INT $((SECS))s valgrind --tool=callgrind --callgrind-out-file="$T/hr.cg" \
        "$H" watch --interval 1000 >/dev/null 2>&1
    hr_i=$(instr "$T/hr.cg")
    valgrind --tool=callgrind --callgrind-out-file="$T/hr1.cg" "$H" watch --count 1 --json >/dev/null 2>&1
    valgrind --tool=callgrind --callgrind-out-file="$T/hr21.cg" "$H" watch --count 21 --interval 50 --json >/dev/null 2>&1
    per=$(( ($(instr "$T/hr21.cg") - $(instr "$T/hr1.cg")) / 20 ))
    echo "headroom watch: $((hr_i / SECS)) instructions/s; $per instructions per sample (--json, no target)"
    valgrind --tool=callgrind --callgrind-out-file="$T/hrn1.cg" "$H" watch --count 1 --json --name init >/dev/null 2>&1
    valgrind --tool=callgrind --callgrind-out-file="$T/hrn21.cg" "$H" watch --count 21 --interval 50 --json --name init >/dev/null 2>&1
    pern=$(( ($(instr "$T/hrn21.cg") - $(instr "$T/hrn1.cg")) / 20 ))
    echo "headroom watch --name: $pern instructions per sample (walks every process: $(ls -d /proc/[0-9]* | wc -l) here)"
    if [ $have_eo = 1 ]; then
        timeout -s INT $((SECS))s valgrind --tool=callgrind --callgrind-out-file="$T/eo.cg" \
            earlyoom --dryrun -r 0 >/dev/null 2>&1
        eo_i=$(instr "$T/eo.cg")
        echo "earlyoom: $((eo_i / SECS)) instructions/s"
        echo "ratio headroom/earlyoom instructions: $(ratio $hr_i $eo_i)"
    fi
else
    echo "valgrind not installed: no instruction counts"
fi
# Resident memory, two figures for each: the peak (VmHWM, start-up included) and what stays
# resident while sampling (VmRSS after a few samples; both programs lock their memory with
# mlockall(MCL_ONFAULT): every page they map stays; VmLck is the size of those mappings).
# The second is the one that matters under pressure: watch releases the clean file pages only
# its start-up touched before it locks (docs/watch.md, "Resident memory"); earlyoom does
# not, so for it the two are the same. Both binaries' page-cache pages are dropped first
# (posix_fadvise DONTNEED: they are read back as after a boot), because the kernel maps a whole page-cache folio around each page touched, and the folios of a
# freshly linked or copied file are not those of one read at exec.
drop_cache() { python3 -c 'import os,sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$@" 2>/dev/null; }
drop_cache "$H" $([ $have_eo = 1 ] && command -v earlyoom)
"$H" watch --interval 1000 >/dev/null 2>&1 & hp=$!
[ $have_eo = 1 ] && { earlyoom --dryrun -r 0 >/dev/null 2>&1 & ep=$!; }
sleep "$SECS"
kb() { awk -v k="$2:" '$1 == k {print $2}' /proc/$1/status; }
split() { # where a process's resident memory is: its own anonymous pages, and file pages
          # (libc and ld.so text, shared with every process, are most of them)
    printf "anon %s kB, file %s kB" "$(kb $1 RssAnon)" "$(kb $1 RssFile)"
}
hr_rss=$(kb $hp VmRSS); hr_hwm=$(kb $hp VmHWM)
echo "headroom watch: resident while sampling ${hr_rss} kB (mappings locked: $(kb $hp VmLck) kB; $(split $hp)); peak VmHWM ${hr_hwm} kB"
kill -INT $hp; wait $hp 2>/dev/null
if [ $have_eo = 1 ]; then
    eo_rss=$(kb $ep VmRSS); eo_hwm=$(kb $ep VmHWM)
    echo "earlyoom: resident while sampling ${eo_rss} kB (mappings locked: $(kb $ep VmLck) kB; $(split $ep)); peak VmHWM ${eo_hwm} kB"
    echo "ratio headroom/earlyoom resident while sampling: $(ratio $hr_rss $eo_rss); peak: $(ratio $hr_hwm $eo_hwm)"
    kill $ep; wait $ep 2>/dev/null
fi

[ -n "${HR_BENCH_COST_ONLY:-}" ] && exit 0
echo "-- lead time: 200 MB/s into a $LIMIT memory cgroup, sampled every 100 ms"
if [ "$(id -u)" != 0 ]; then echo "skipped: needs root"; exit 0; fi
cat >"$T/ramp.py" <<'PY'
import time
held = []
while True:
    held.append(b"x" * (20 << 20))   # 20 MB every 100 ms, touched
    time.sleep(0.1)
PY
[ $have_eo = 1 ] && { earlyoom --dryrun -r 0 >"$T/eo.log" 2>&1 & ep=$!; }
"$H" run --limit "$LIMIT" --interval 100 --record "$T/r.jsonl" -- python3 "$T/ramp.py" >/dev/null 2>"$T/run.err"
[ $have_eo = 1 ] && { kill $ep; wait $ep 2>/dev/null; }
python3 - "$T/r.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ex = [l for l in lines if l["type"] == "exit"]
w = [l for l in lines if l["type"] == "warning"]
v = lines[-1]
if not ex:
    print("no exit line"); sys.exit(0)
print("verdict %s; kill seen at t=%.1f s" % (v.get("cause"), ex[0]["t"] / 1000))
for x in w:
    print("  %-14s at t=%.1f s: %.1f s before the kill" % (x["rule"], x["t"] / 1000, (ex[0]["t"] - x["t"]) / 1000))
if not w:
    print("  no warning before the kill")
PY
if [ $have_eo = 1 ]; then
    n=$(grep -ci "low memory" "$T/eo.log" || true)
    echo "earlyoom beside it: $n warnings or actions (it judges the whole machine's free memory, not the cgroup)"
fi
