#!/usr/bin/env bash
# headroom estimate on each sample workflow: wall time and peak RSS, against the floor any
# script-based tool starts from, `python3 -c 'import json; json.load(...)'` of the same file,
# measured in the same run. Target: under 100 ms and under 8 MiB.
set -eu
# usage: bench/estimate.sh HEADROOM   (HR_BENCH_SMOKE=1: a few runs, to prove the script works)
bin=${1:-build/src/headroom}
[ -x "$bin" ] || { echo "build first: $bin missing" >&2; exit 1; }
dir=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/workflows
command -v python3 >/dev/null || { echo "python3 missing: no peer to compare with"; exit 0; }
n=${HR_BENCH_RUNS:-30}
[ -n "${HR_BENCH_SMOKE:-}" ] && n=2
what=(--ram 32G --vram 12G --os linux --gpu nvidia --json)

now() { date +%s%N; }
# peak RSS in KiB of one run (GNU time when present, else the kernel's record of the child)
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    python3 -c 'import resource,subprocess,sys; subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
  fi
}
printf "%-28s %10s %10s %7s %10s %10s\n" workflow "headroom" "python" "ratio" "RSS KiB" "py RSS KiB"
for f in "$dir"/*.json; do
  t0=$(now); for _ in $(seq "$n"); do "$bin" estimate "$f" "${what[@]}" >/dev/null 2>&1 || true; done; t1=$(now)
  for _ in $(seq "$n"); do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f"; done; t2=$(now)
  h=$(( (t1 - t0) / n )); p=$(( (t2 - t1) / n ))
  hr=$(rss "$bin" estimate "$f" "${what[@]}")
  pr=$(rss python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f")
  awk -v w="$(basename "$f")" -v h="$h" -v p="$p" -v hr="$hr" -v pr="$pr" 'BEGIN {
    printf "%-28s %8.2fms %8.2fms %7.3f %10d %10d\n", w, h / 1e6, p / 1e6, h / p, hr, pr }'
done
echo "(ratio = headroom / python3 json.load; runs: $n each)"
