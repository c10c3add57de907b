#!/usr/bin/env bash
# Run every benchmark: bench/<name>.sh BUILD_DIR. Figures are ratios against a peer measured
# in the same run, never pass/fail thresholds.
set -u
build=${1:-build}
for b in "$(dirname "$0")"/*.sh; do
  [ "$(basename "$b")" = run.sh ] && continue
  echo "== $(basename "$b" .sh)"
  bash "$b" "$build" || echo "(benchmark $(basename "$b") failed)"
done
