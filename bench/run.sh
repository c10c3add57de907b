#!/usr/bin/env bash
# Run every benchmark: bench/<name>.sh HEADROOM [...]. Every script takes the binary first.
# Figures are ratios against a peer measured in the same run, never pass/fail thresholds.
# HR_BENCH_SMOKE=1 runs each on a tiny size (the bench.smoke test), so none can rot.
set -u
bin=${1:-build/src/headroom}
rc=0
for b in "$(dirname "$0")"/*.sh; do
  [ "$(basename "$b")" = run.sh ] && continue
  echo "== $(basename "$b" .sh)"
  bash "$b" "$bin"; r=$?
  case $r in
    0) ;;
    77) echo "(benchmark $(basename "$b") skipped: needs root)" ;;
    *) echo "(benchmark $(basename "$b") failed: exit $r)"; rc=1 ;;
  esac
done
exit $rc
