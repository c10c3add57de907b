#!/usr/bin/env bash
# Run every benchmark: bench/<name>.sh HEADROOM [...]. Every script takes the binary first.
# Figures are ratios against a peer measured in the same run, never pass/fail thresholds.
# HR_BENCH_SMOKE=1 runs each on a tiny size (the bench.smoke test), so none can rot: then each
# must print its figure as a number (a speed is not judged: the smoke size is too small to
# time, and the machine is shared), and the figures that do not depend on speed must be right.
set -u
bin=${1:-build/src/headroom}
rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The lines each benchmark must print (extended regexes, one a line), whatever the machine's speed.
figure() {
  case $1 in
    apply_swapfile) echo '^  headroom apply --yes +[0-9]+\.[0-9]{3} s' ;;
    diagnose) echo '^log: [0-9]+ bytes, [0-9]+ phrases; grep -E matched [1-9][0-9]* lines; headroom: gpu-oom$'
              echo '^headroom diagnose: +[0-9.]+ s CPU  \(' ;;
    estimate) echo '^est_sdxl_api\.json +[0-9]+\.[0-9]{2}ms +[0-9]+\.[0-9]{2}ms' ;;
    models) echo '^headroom models --json: +[0-9]+ files/s' ;;
    status) echo '^headroom status --json: +[0-9]+\.[0-9]{2} ms/run' ;;
    watch) echo '^headroom watch: resident while sampling [1-9][0-9]* kB' ;;
    *) echo . ;;
  esac
}
for b in "$(dirname "$0")"/*.sh; do
  name=$(basename "$b" .sh)
  [ "$name" = run.sh ] || [ "$name" = run ] && continue
  echo "== $name"
  bash "$b" "$bin" >"$out" 2>&1; r=$?
  cat "$out"
  case $r in
    0) if [ -n "${HR_BENCH_SMOKE:-}" ]; then
         while read -r re; do
           grep -Eq "$re" "$out" || { echo "(benchmark $name printed no line matching: $re)"; rc=1; }
         done < <(figure "$name")
       fi ;;
    77) echo "(benchmark $name skipped: needs root)" ;;
    *) echo "(benchmark $name failed: exit $r)"; rc=1 ;;
  esac
done
exit $rc
