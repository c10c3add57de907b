#!/bin/bash
# Text redirected to a file on Chinese Windows is in the console's code page, so that cmd's
# `type` and PowerShell (which decode a program's output with it) show it: GBK (936) here,
# Wine's code page for a zh_CN locale. JSON stays UTF-8, a console switched to UTF-8 (chcp
# 65001) gets UTF-8, HEADROOM_ENCODING=utf-8 keeps text UTF-8, a code page without "—" and
# "→" (437) gets ASCII for them, not control bytes, and the user's console code page is the
# same after headroom as before.
#   windows_codepage.sh EMULATOR HEADROOM.EXE SOURCE_DIR
set -u
emu=$1 hr=$2 src=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v iconv >/dev/null || { echo "SKIP: no iconv"; exit 77; }

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export HEADROOM_NO_PAUSE=1
# one wineserver for the test's many short runs (one that exits between two can lose a run)
command -v wineserver >/dev/null && wineserver -p 30 2>/dev/null
unset HEADROOM_ENCODING
fix=$src/tests/fixtures/windows/laptop-16g-auto-full-c.json
log=$src/tests/diagnose/corpus/safetensors-os-error-1455-zh-utf8.log
hr_run() { # LOCALE OUT ARGS...: stdout to the file OUT, no console (Wine without a terminal)
    local loc=$1 out=$2
    shift 2
    LC_ALL=$loc "$emu" "$hr" "$@" >"$out" 2>"$tmp/err"
}

# Wine's code pages follow the locale: 936 for zh_CN.
probe=$(LC_ALL=zh_CN.UTF-8 "$emu" reg query 'HKLM\System\CurrentControlSet\Control\Nls\CodePage' /v OEMCP 2>/dev/null |
    grep -o 'REG_SZ *[0-9]*' | tr -dc '0-9')
[ "$probe" = 936 ] || { echo "SKIP: Wine gives code page '$probe' for zh_CN, not 936"; exit 77; }

# status in Chinese: GBK in the file, the same text as the UTF-8 run's
hr_run zh_CN.UTF-8 "$tmp/gbk.txt" status --replay "$fix" --lang zh
HEADROOM_ENCODING=utf-8 hr_run zh_CN.UTF-8 "$tmp/utf8.txt" status --replay "$fix" --lang zh
grep -q '页面文件' "$tmp/utf8.txt" || bad "HEADROOM_ENCODING=utf-8: no UTF-8 Chinese: $(head -3 "$tmp/utf8.txt")"
grep -q '页面文件' "$tmp/gbk.txt" && bad "status > file: UTF-8, not the console's code page 936"
if ! iconv -f GBK -t UTF-8 "$tmp/gbk.txt" >"$tmp/gbk-decoded.txt" 2>"$tmp/iconv.err"; then
    bad "status > file: not GBK: $(cat "$tmp/iconv.err")"
elif ! cmp -s "$tmp/gbk-decoded.txt" "$tmp/utf8.txt"; then
    bad "status > file: decoded as GBK it differs from the UTF-8 text:
$(diff "$tmp/gbk-decoded.txt" "$tmp/utf8.txt" | head -6)"
fi

# diagnose: text in GBK, JSON (which quotes the log's Chinese) UTF-8 whatever the code page
hr_run zh_CN.UTF-8 "$tmp/diag.json" diagnose --no-system --json "$log"
HEADROOM_ENCODING=utf-8 hr_run zh_CN.UTF-8 "$tmp/diag-utf8.json" diagnose --no-system --json "$log"
grep -q '页面文件太小' "$tmp/diag.json" || bad "diagnose --json > file: not UTF-8: $(grep -a os.error "$tmp/diag.json" | head -2)"
cmp -s "$tmp/diag.json" "$tmp/diag-utf8.json" || bad "diagnose --json > file: not the same bytes as with HEADROOM_ENCODING=utf-8"
hr_run zh_CN.UTF-8 "$tmp/diag.txt" diagnose --no-system --lang zh "$log"
HEADROOM_ENCODING=utf-8 hr_run zh_CN.UTF-8 "$tmp/diag-utf8.txt" diagnose --no-system --lang zh "$log"
iconv -f GBK -t UTF-8 "$tmp/diag.txt" 2>/dev/null | cmp -s - "$tmp/diag-utf8.txt" ||
    bad "diagnose > file: decoded as GBK it differs from the UTF-8 text"

# an error line sent to a file is text too
LC_ALL=zh_CN.UTF-8 "$emu" "$hr" --lang zh no-such-command >/dev/null 2>"$tmp/err.txt"
LC_ALL=zh_CN.UTF-8 HEADROOM_ENCODING=utf-8 "$emu" "$hr" --lang zh no-such-command >/dev/null 2>"$tmp/err-utf8.txt"
grep -q 'no-such-command' "$tmp/err-utf8.txt" && ! grep -q '^[ -~]*$' "$tmp/err-utf8.txt" ||
    bad "no Chinese error line to test with: $(cat "$tmp/err-utf8.txt")"
iconv -f GBK -t UTF-8 "$tmp/err.txt" 2>/dev/null | cmp -s - "$tmp/err-utf8.txt" ||
    bad "an error line 2> file is not in GBK: $(cat "$tmp/err.txt")"

# The help pages and run's verdict are text too: GBK in a file (936), ASCII stand-ins for what
# 437 lacks. run's peaks differ from run to run: numbers are compared as N.
digits() { sed -E 's/[0-9]+([.][0-9]+)?/N/g' "$@"; }
run_exit5() { # LOCALE ERR LANG: run's stderr (its verdict) for a child that exits 5
    LC_ALL=$1 "$emu" "$hr" run --lang "$3" --interval 200 -- cmd /c "exit 5" >/dev/null 2>"$2"
    local rc=$?
    [ $rc = 5 ] || bad "run -- cmd /c exit 5: exit status $rc, not 5: $(head -c 300 "$2")"
}
run_exit5 zh_CN.UTF-8 "$tmp/run.txt" zh
HEADROOM_ENCODING=utf-8 run_exit5 zh_CN.UTF-8 "$tmp/run-utf8.txt" zh
grep -q '^headroom run：' "$tmp/run-utf8.txt" && grep -q '退出码 5' "$tmp/run-utf8.txt" ||
    bad "run: no Chinese verdict to test with: $(head -c 300 "$tmp/run-utf8.txt")"
if ! iconv -f GBK -t UTF-8 "$tmp/run.txt" >"$tmp/run-decoded.txt" 2>"$tmp/iconv.err"; then
    bad "run's verdict 2> file: not GBK: $(cat "$tmp/iconv.err")"
elif ! cmp -s <(digits "$tmp/run-decoded.txt") <(digits "$tmp/run-utf8.txt"); then
    bad "run's verdict 2> file: decoded as GBK it differs from the UTF-8 text:
$(diff <(digits "$tmp/run-decoded.txt") <(digits "$tmp/run-utf8.txt") | head -6)"
fi
for page in "--help" "status --help"; do
    # shellcheck disable=SC2086 # the page's words are separate arguments
    hr_run zh_CN.UTF-8 "$tmp/help.txt" $page --lang zh
    # shellcheck disable=SC2086
    HEADROOM_ENCODING=utf-8 hr_run zh_CN.UTF-8 "$tmp/help-utf8.txt" $page --lang zh
    grep -q '选项' "$tmp/help-utf8.txt" || bad "headroom $page: no Chinese to test with: $(head -3 "$tmp/help-utf8.txt")"
    if ! iconv -f GBK -t UTF-8 "$tmp/help.txt" >"$tmp/help-decoded.txt" 2>"$tmp/iconv.err"; then
        bad "headroom $page > file: not GBK: $(cat "$tmp/iconv.err")"
    elif ! cmp -s "$tmp/help-decoded.txt" "$tmp/help-utf8.txt"; then
        bad "headroom $page > file: decoded as GBK it differs from the UTF-8 text:
$(diff "$tmp/help-decoded.txt" "$tmp/help-utf8.txt" | head -6)"
    fi
done
# The man page and the shell completions are files for man, bash and zsh: UTF-8 with bare line
# feeds whatever the code page, the bytes HEADROOM_ENCODING=utf-8 gives.
for doc in "--man" "--completion zsh"; do
    # shellcheck disable=SC2086
    hr_run zh_CN.UTF-8 "$tmp/doc.txt" --lang zh $doc
    # shellcheck disable=SC2086
    HEADROOM_ENCODING=utf-8 hr_run zh_CN.UTF-8 "$tmp/doc-utf8.txt" --lang zh $doc
    grep -q '页面文件' "$tmp/doc.txt" || bad "headroom $doc > file: no UTF-8 Chinese: $(head -c 200 "$tmp/doc.txt")"
    grep -q $'\r' "$tmp/doc.txt" && bad "headroom $doc > file: \\r\\n line ends, not \\n"
    cmp -s "$tmp/doc.txt" "$tmp/doc-utf8.txt" || bad "headroom $doc > file: not the bytes HEADROOM_ENCODING=utf-8 gives"
done

# an unknown HEADROOM_ENCODING is named, and text follows the console
HEADROOM_ENCODING=latin9 hr_run zh_CN.UTF-8 "$tmp/enc.txt" status --replay "$fix" --lang zh
LC_ALL=C grep -aq 'HEADROOM_ENCODING.*utf-8.*console' "$tmp/err" || bad "HEADROOM_ENCODING=latin9: no warning: $(cat "$tmp/err")"
cmp -s "$tmp/enc.txt" "$tmp/gbk.txt" || bad "HEADROOM_ENCODING=latin9: the text is not GBK"

# code page 437 (en_US): no "—" or "→" there; ASCII stand-ins, never control bytes
hr_run en_US.UTF-8 "$tmp/437.txt" diagnose --no-system "$log"
HEADROOM_ENCODING=utf-8 hr_run en_US.UTF-8 "$tmp/437-utf8.txt" diagnose --no-system "$log"
grep -q '—' "$tmp/437-utf8.txt" || bad "the English diagnosis has no \"—\" to test with"
LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\r\n\t' <"$tmp/437.txt") && bad "code page 437: control bytes in the text"
stand_ins() {
    sed -e 's/—/-/g; s/–/-/g; s/→/->/g; s/…/.../g' "$1" | LC_ALL=C sed -e 's/[\x80-\xff][\x80-\xbf]*/?/g'
}
stand_ins "$tmp/437-utf8.txt" >"$tmp/437-expected.txt"
cmp -s "$tmp/437.txt" "$tmp/437-expected.txt" ||
    bad "code page 437: not the text with ASCII stand-ins:
$(diff "$tmp/437.txt" "$tmp/437-expected.txt" | head -6)"
# the help pages and run's verdict likewise (the overview's title has a "—")
n=0
for page in "--help" "status --help"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    hr_run en_US.UTF-8 "$tmp/437h$n.txt" $page
    # shellcheck disable=SC2086
    HEADROOM_ENCODING=utf-8 hr_run en_US.UTF-8 "$tmp/437h$n-utf8.txt" $page
    cmp -s "$tmp/437h$n.txt" <(stand_ins "$tmp/437h$n-utf8.txt") ||
        bad "code page 437, headroom $page: not the text with ASCII stand-ins:
$(diff "$tmp/437h$n.txt" <(stand_ins "$tmp/437h$n-utf8.txt") | head -6)"
done
grep -q '^headroom .* — ' "$tmp/437h1-utf8.txt" || bad "the English overview has no \"—\" to test with"
run_exit5 en_US.UTF-8 "$tmp/437r.txt" en
HEADROOM_ENCODING=utf-8 run_exit5 en_US.UTF-8 "$tmp/437r-utf8.txt" en
grep -q '^headroom run: ' "$tmp/437r-utf8.txt" || bad "run: no English verdict: $(head -c 300 "$tmp/437r-utf8.txt")"
cmp -s <(digits "$tmp/437r.txt") <(stand_ins "$tmp/437r-utf8.txt" | digits) ||
    bad "code page 437, run's verdict: not the text with ASCII stand-ins:
$(diff <(digits "$tmp/437r.txt") <(stand_ins "$tmp/437r-utf8.txt" | digits) | head -6)"

# A console (Wine makes one on a terminal: `script`): its code page decides (read before
# headroom sets its own to UTF-8), and stays the user's after headroom has run. (Wine keeps a
# code page per process, so there the last check cannot see a code page left unrestored; on
# Windows cmd would keep it.)
if command -v script >/dev/null; then
    w_hr=$("$emu" winepath -w "$hr" 2>/dev/null | tr -d '\r')
    w_tmp=$("$emu" winepath -w "$tmp" 2>/dev/null | tr -d '\r')
    w_fix=$("$emu" winepath -w "$fix" 2>/dev/null | tr -d '\r')
    in_console() { # NAME LINE: LINE run by cmd from the batch file NAME.cmd, in a console
        printf '@echo off\r\n%s\r\n' "$2" >"$tmp/$1.cmd"
        LC_ALL=zh_CN.UTF-8 timeout 240 script -qec "$(printf '%q cmd /c %q' "$emu" "$w_tmp\\$1.cmd")" /dev/null \
            </dev/null >/dev/null 2>&1
    }
    in_console c936 "\"$w_hr\" status --replay \"$w_fix\" --lang zh > \"$w_tmp\\con936.txt\" & chcp > \"$w_tmp\\cp936.txt\""
    cmp -s "$tmp/con936.txt" "$tmp/gbk.txt" ||
        bad "console 936, status > file: not the GBK text: $(head -c 200 "$tmp/con936.txt")"
    [ "$(tr -dc '0-9' <"$tmp/cp936.txt")" = 936 ] ||
        bad "console 936: code page after headroom: '$(tr -dc '0-9' <"$tmp/cp936.txt")', not 936"
    in_console c65001 "chcp 65001 > nul & \"$w_hr\" status --replay \"$w_fix\" --lang zh > \"$w_tmp\\con65001.txt\" & chcp > \"$w_tmp\\cp65001.txt\""
    cmp -s "$tmp/con65001.txt" "$tmp/utf8.txt" ||
        bad "console 65001, status > file: not the UTF-8 text: $(head -c 200 "$tmp/con65001.txt")"
    [ "$(tr -dc '0-9' <"$tmp/cp65001.txt")" = 65001 ] ||
        bad "console 65001: code page after headroom: '$(tr -dc '0-9' <"$tmp/cp65001.txt")'"
else
    echo "note: no script(1): the console cases are not run"
fi

[ $fail = 0 ] && echo "PASS: text in the console's code page, JSON in UTF-8"
exit $fail
