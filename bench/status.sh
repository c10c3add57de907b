#!/usr/bin/env bash
# headroom status --json vs the peer users run today: `free -b; swapon --show --bytes`.
# Prints wall time per run for both, their ratio, the binary size and its run-time
# dependencies. Target: ratio <= 1 while reporting far more; binary < 1 MiB.
set -eu
# usage: bench/status.sh HEADROOM   (HR_BENCH_SMOKE=1: a few runs, to prove the script works)
bin=${1:-build/src/headroom}
[ -x "$bin" ] || { echo "build first: $bin missing" >&2; exit 1; }
n=${HR_BENCH_RUNS:-300}
[ -n "${HR_BENCH_SMOKE:-}" ] && n=3

now() { date +%s%N; }
run_headroom() { for _ in $(seq "$n"); do "$bin" status --json >/dev/null || true; done; }
run_peer() { for _ in $(seq "$n"); do free -b >/dev/null; swapon --show --bytes >/dev/null; done; }

# Warm the page cache for both, then alternate twice and keep the best of each.
run_headroom; run_peer
best_h=; best_p=
for _ in 1 2; do
  t0=$(now); run_headroom; t1=$(now); run_peer; t2=$(now)
  h=$(( (t1 - t0) / n )); p=$(( (t2 - t1) / n ))
  [ -z "$best_h" ] || [ "$h" -lt "$best_h" ] && best_h=$h
  [ -z "$best_p" ] || [ "$p" -lt "$best_p" ] && best_p=$p
done
size=$(stat -c %s "$bin")
stripped=$(mktemp); cp "$bin" "$stripped"; strip "$stripped"; ssize=$(stat -c %s "$stripped"); rm -f "$stripped"
awk -v h="$best_h" -v p="$best_p" -v n="$n" -v s="$size" -v ss="$ssize" 'BEGIN {
  printf "runs: %d each\n", n
  printf "headroom status --json:          %8.2f ms/run\n", h / 1e6
  printf "free -b; swapon --show --bytes:  %8.2f ms/run\n", p / 1e6
  printf "ratio headroom/peer:             %8.2f  (<= 1.00 meets the target)\n", h / p
  printf "binary: %d bytes with debug info, %d bytes stripped (%.0f%% of 1 MiB)\n", s, ss, 100 * ss / 1048576
}'
echo "run-time dependencies:"; ldd "$bin" | sed 's/^/  /'
