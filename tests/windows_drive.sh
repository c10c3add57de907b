#!/bin/bash
# apply's drive checks under Wine, on drives of Wine's own: a letter no drive has is said not
# to exist (it said "of unknown type"); a drive whose storage stack does not answer (Wine: the
# drive's device is /dev/null) is taken, and the doubt whether it is removable or on USB is
# named in the dry run, text and JSON (it was accepted without a word while plan ranks it
# last, S5.4). The drive letter is made for the test in the Wine prefix and removed.
#   windows_drive.sh EMULATOR HEADROOM.EXE
set -u
emu=$1 hr=$2
prefix=${WINEPREFIX:-$HOME/.wine}
fail=0
bad() { echo "FAIL: $*"; fail=1; }

tmp=$(mktemp -d)
letter=
for l in q r s t u v w x y; do
    if [ ! -e "$prefix/dosdevices/$l:" ] && [ ! -L "$prefix/dosdevices/$l:" ] &&
       [ ! -L "$prefix/dosdevices/$l::" ]; then letter=$l; break; fi
done
[ -n "$letter" ] || { echo "SKIP: no free drive letter in $prefix"; rmdir "$tmp"; exit 77; }
L=$(echo "$letter" | tr a-z A-Z)
cleanup() { rm -f "$prefix/dosdevices/$letter:" "$prefix/dosdevices/$letter::"; rm -rf "$tmp"; }
trap cleanup EXIT

# no such drive
"$emu" "$hr" apply --target "$L:" --size 1G >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 69 ] || bad "no drive $L:: exit $rc, expected 69"
grep -q "refused: $L: does not exist: there is no such drive" "$tmp/err" ||
    bad "no drive $L:: $(cat "$tmp/err")"
grep -q "unknown type" "$tmp/err" && bad "no drive $L:: still called of unknown type"

# a drive whose storage stack does not answer: taken, with the doubt named
ln -s "$tmp" "$prefix/dosdevices/$letter:"
ln -s /dev/null "$prefix/dosdevices/$letter::"
"$emu" "$hr" apply --target "$L:" --size 1G >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] || bad "drive $L: of unknown bus: exit $rc: $(cat "$tmp/err")"
grep -q "Not known: whether $L: is removable or attached by USB (bus type unknown" "$tmp/out" ||
    bad "drive $L: of unknown bus: the doubt is not named: $(tail -2 "$tmp/out")"
"$emu" "$hr" apply --target "$L:" --size 1G --json >"$tmp/json" 2>"$tmp/err"
grep -q "Not known: whether $L: is removable" "$tmp/json" || bad "drive $L:: no doubt in the JSON notes"

# a drive whose storage stack answers: no doubt
"$emu" "$hr" apply --target C: --size 1G >"$tmp/out" 2>"$tmp/err"
grep -q "Not known: whether" "$tmp/out" && bad "C: is doubted although its bus type was read"

[ "$fail" = 0 ] && echo "windows_drive: a missing drive is named, a doubtful one is said"
exit $fail
