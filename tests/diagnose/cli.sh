#!/bin/sh
# headroom diagnose at the edges: stdin, several logs, bad input, bad usage, exit statuses.
# usage: cli.sh HEADROOM CORPUS_DIR [RUNNER]
set -u
HR=$1
DIR=$2
RUN=${3:-}
# Under Wine keep one wineserver alive between the many short runs (it leaves by itself
# 30 s after the last one); a cold start per run costs seconds.
if [ -n "$RUN" ] && command -v wineserver >/dev/null 2>&1; then
    (wineserver -p 30 >/dev/null 2>&1 &)
fi
failed=0
check() {   # check NAME WANT_RC GOT_RC
    if [ "$2" != "$3" ]; then
        echo "FAIL $1: exit status $3, expected $2"
        failed=$((failed + 1))
    else
        echo "ok   $1"
    fi
}
contains() {   # contains NAME FILE TEXT
    if grep -q -- "$3" "$2"; then echo "ok   $1"; else
        echo "FAIL $1: no '$3' in:"; cat "$2"; failed=$((failed + 1)); fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# standard input, as '-' and implicitly
$RUN "$HR" diagnose --no-system - <"$DIR/comfy-win-1455-en.log" >"$T/o" 2>"$T/e"
check "stdin dash" 0 $?
contains "stdin dash names host-oom" "$T/o" "host-oom"
$RUN "$HR" diagnose --no-system --json <"$DIR/linux-bare-killed.log" >"$T/o" 2>"$T/e"
check "stdin implicit" 0 $?
contains "stdin implicit names killed" "$T/o" '"cause": "killed"'

# several logs: the first failure wins, the other is listed
$RUN "$HR" diagnose --no-system --json "$DIR/comfy-illegal-memory-access.log" \
    "$DIR/comfy-win-1455-en.log" >"$T/o" 2>"$T/e"
check "two logs" 0 $?
contains "two logs: first wins" "$T/o" '^  "cause": "not-memory"'
contains "two logs: second listed" "$T/o" '"cause": "host-oom"'
contains "two logs: file named" "$T/o" '"file": ".*comfy-win-1455-en.log"'

# nothing recognised: exit 1, cause unknown, confidence null with a reason
$RUN "$HR" diagnose --no-system --json "$DIR/clean-run.log" >"$T/o" 2>"$T/e"
check "clean log" 1 $?
contains "clean log unknown" "$T/o" '"cause": "unknown"'
contains "clean log confidence null" "$T/o" '"confidence": null'

# text report carries cause, evidence with its line, and the fix
$RUN "$HR" diagnose --no-system "$DIR/comfy-defaultcpuallocator.log" >"$T/o" 2>"$T/e"
check "text report" 0 $?
contains "text: cause" "$T/o" "\[host-oom\]"
contains "text: evidence line" "$T/o" "comfy-defaultcpuallocator.log:3[0-9]: "
contains "text: fix" "$T/o" "headroom plan"

# a missing file: one line naming the file, exit 66 (docs/exit-status.md), nothing on stdout
$RUN "$HR" diagnose --no-system "$T/does-not-exist.log" >"$T/o" 2>"$T/e"
check "missing file" 66 $?
contains "missing file named" "$T/e" "does-not-exist.log"
[ ! -s "$T/o" ] && echo "ok   missing file: no report" || { echo "FAIL missing file: report printed"; failed=$((failed + 1)); }
# (Wine adds its own chatter on stderr: count only our lines there)
lines=$(if [ -n "$RUN" ]; then grep -c '^headroom:' "$T/e"; else wc -l <"$T/e"; fi)
[ "$lines" -eq 1 ] && echo "ok   missing file: one line" || { echo "FAIL missing file: not one line"; failed=$((failed + 1)); }
$RUN "$HR" diagnose --no-system "$DIR/comfy-win-1455-en.log" "$T/nope.log" >"$T/o" 2>"$T/e"
check "one of two missing" 66 $?
if [ -z "$RUN" ]; then   # directories and permissions mean little under Wine
    $RUN "$HR" diagnose --no-system "$T" >"$T/o" 2>"$T/e"
    check "directory" 65 $?
    contains "directory named" "$T/e" "$T"
fi

# bad usage: 64
$RUN "$HR" diagnose --no-system --since 5x "$DIR/empty.log" >"$T/o" 2>"$T/e"
check "bad --since" 64 $?
contains "bad --since says why" "$T/e" "unknown unit"
$RUN "$HR" diagnose --bogus >"$T/o" 2>"$T/e"
check "unknown option" 64 $?
$RUN "$HR" diagnose --no-system --since 30m --json "$DIR/empty.log" >"$T/o" 2>"$T/e"
check "--since accepted" 1 $?
contains "empty log: schema" "$T/o" '"schema": "headroom.diagnose/1"'
contains "no-system reason" "$T/o" '"system_reason": "--no-system"'

# with the system's records: a "system" object lists every source, read or not (under
# Wine the event log is a stub: "event log unavailable")
$RUN "$HR" diagnose --since 1h --json "$DIR/comfy-win-1455-en.log" >"$T/o" 2>"$T/e"
check "system records" 0 $?
contains "system object" "$T/o" '"since_seconds": 3600'
contains "system sources" "$T/o" '"sources": \['
if [ -n "$RUN" ]; then
    contains "event log unavailable under Wine" "$T/o" "event log unavailable"
fi

# a device or a FIFO: refused before the first read (one line naming it, 65), never read
# forever nor waited on; timeout bounds the test if that breaks (124)
if [ -z "$RUN" ]; then
    for dev in /dev/zero /dev/urandom; do
        timeout 10 "$HR" diagnose --no-system "$dev" >"$T/o" 2>"$T/e"
        check "device $dev refused" 65 $?
        contains "device $dev: named" "$T/e" "$dev: not a regular file"
    done
    mkfifo "$T/fifo"
    timeout 10 "$HR" diagnose --no-system "$T/fifo" >"$T/o" 2>"$T/e"
    check "FIFO refused" 65 $?
    contains "FIFO: named" "$T/e" "fifo: not a regular file"
    # standard input stays allowed, a pipe included
    cat "$DIR/comfy-win-1455-en.log" | timeout 10 "$HR" diagnose --no-system - >"$T/o" 2>"$T/e"
    check "a pipe on standard input" 0 $?
fi

# a log whose folder and name are Chinese with spaces (Windows: opened through _wfopen)
mkdir -p "$T/日志 目录"
cp "$DIR/comfy-win-1455-en.log" "$T/日志 目录/运行 日志.log"
$RUN "$HR" diagnose --no-system "$T/日志 目录/运行 日志.log" >"$T/o" 2>"$T/e"
check "non-ASCII path" 0 $?
contains "non-ASCII path: cause" "$T/o" "host-oom"
contains "non-ASCII path: evidence names the file" "$T/o" "运行 日志.log"

echo "cli: $failed failed"
[ "$failed" = 0 ]
