#!/bin/sh
# The shared sets of real crash logs (../shared/data/diagnose beside the repository, outside
# it): the scorer's share right must reach the floor for each set, and every answer given
# with high confidence must be right. SKIP (77) when the sets are not there.
# usage: real_logs.sh HEADROOM SETS_DIR
set -u
HR=$1
DIR=$2
if [ ! -f "$DIR/score.py" ] || [ ! -f "$DIR/real-logs-1.md" ] || [ ! -f "$DIR/real-logs-2.md" ]; then
    echo "SKIP: the shared real-log sets are not at $DIR"
    exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 for the scorer"; exit 77; }
rc=0
# set, floor in per cent
for spec in "1 97" "2 95"; do
    set -- $spec
    res=$(python3 "$DIR/score.py" "$HR" "$DIR/real-logs-$1.md" -v)
    echo "$res"
    right=$(echo "$res" | sed -n 's/^real-logs-[0-9]*\.md: \([0-9]*\)\/\([0-9]*\) right.*/\1/p')
    total=$(echo "$res" | sed -n 's/^real-logs-[0-9]*\.md: \([0-9]*\)\/\([0-9]*\) right.*/\2/p')
    if [ -z "$right" ] || [ -z "$total" ] || [ $((right * 100)) -lt $(($2 * total)) ]; then
        echo "FAIL real-logs-$1: ${right:-?}/${total:-?} right, the floor is $2 %"
        rc=1
    fi
    # "high a/b" in the calibration line: every high-confidence answer right
    high=$(echo "$res" | sed -n 's/.*calibration): .*high \([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
    if [ -n "$high" ]; then
        set -- $high
        if [ "$1" != "$2" ]; then
            echo "FAIL real-logs-$spec: $1 of $2 high-confidence answers right"
            rc=1
        fi
    fi
done
exit $rc
