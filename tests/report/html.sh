#!/usr/bin/env bash
# The HTML reports in a real browser: `check --html`, `diagnose --html` and `report` write a page that
# is self-contained (no script, nothing fetched), that headless Chromium renders to a
# screenshot that is not blank, and whose DOM has the sections, the verdict and the chart's
# series. English and Chinese. SKIP (77) when Chromium is not installed (tools/install-deps.sh
# --tests installs Debian's chromium).
# usage: html.sh HEADROOM SOURCE_DIR
set -euo pipefail
hr=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium (install it: tools/install-deps.sh --tests)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

chrome() {   # chrome OUT_PREFIX FILE.html: screenshot (phone width) and DOM
  local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
               --user-data-dir="$tmp/profile" --window-size=412,1600)
  timeout 120 "$browser" "${flags[@]}" --screenshot="$1.png" "file://$2" >/dev/null 2>&1 || true
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$2" >"$1.dom" 2>/dev/null || true
  [ -s "$1.png" ] || bad "$2: no screenshot"
  [ -s "$1.dom" ] || bad "$2: no DOM"
  [ -s "$1.png" ] && { python3 "$here/png_nonblank.py" "$1.png" || bad "$2: blank screenshot"; }
}

self_contained() {   # no script, no network, no external resource
  if grep -Eiq '<script|<link|<iframe|<img|https?://|src=|@import|url\(' "$1"; then
    bad "$1 is not self-contained:"; grep -Eion '<script|<link|<iframe|<img|https?://|src=|@import|url\(' "$1" | head -5
  fi
}

has() {   # has DOM PATTERN WHAT
  grep -Eq "$2" "$1" || bad "$1: $3 missing (pattern: $2)"
}

fx=$src/tests/fixtures/linux/desktop-hdd-swap-partition
# 1. check, English: verdict WILL FAIL (exit 2), every section, the bars.
set +e
"$hr" --lang en check --sysroot "$fx" --workload flux --html "$tmp/check.html" >"$tmp/check.txt"
rc=$?
set -e
[ "$rc" = 2 ] || bad "check --html exited $rc, expected 2 (WILL FAIL)"
[ -s "$tmp/check.html" ] || bad "check --html wrote nothing"
grep -q "WILL FAIL" "$tmp/check.txt" || bad "check --html no longer prints the text report"
self_contained "$tmp/check.html"
chrome "$tmp/check" "$tmp/check.html"
d=$tmp/check.dom
has "$d" '<html lang="en"' 'lang="en"'
for id in verdict todo capacity tiers plan chart-capacity; do has "$d" "id=\"$id\"" "#$id"; done
has "$d" 'data-verdict="will-fail"' 'the verdict'
for s in capacity charge need after-plan; do has "$d" "data-series=\"$s\"" "bar $s"; done
has "$d" '<pre>sudo swapon' 'the plan'"'"'s commands'

# Printed: Chromium's print path lays the page out on paper (the print style sheet).
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
  --no-pdf-header-footer --print-to-pdf="$tmp/check.pdf" "file://$tmp/check.html" >/dev/null 2>&1 || true
if [ "$(head -c 4 "$tmp/check.pdf" 2>/dev/null)" != "%PDF" ] || [ "$(wc -c <"$tmp/check.pdf")" -lt 5000 ]; then
  bad "check.html does not print to PDF"
fi

# 2. check, Chinese.
"$hr" --lang zh check --sysroot "$fx" --workload flux --html "$tmp/check-zh.html" >/dev/null || true
chrome "$tmp/check-zh" "$tmp/check-zh.html"
has "$tmp/check-zh.dom" '<html lang="zh-CN"' 'lang="zh-CN"'
has "$tmp/check-zh.dom" '会失败' 'the Chinese verdict'

# 3. diagnose: the cause, the fix, the evidence lines with their file and line.
log=$src/tests/diagnose/corpus/comfy-defaultcpuallocator.log
"$hr" --lang en diagnose --no-system "$log" --html "$tmp/diag.html" >/dev/null || bad "diagnose --html failed"
self_contained "$tmp/diag.html"
chrome "$tmp/diag" "$tmp/diag.html"
d=$tmp/diag.dom
for id in verdict fix evidence read; do has "$d" "id=\"$id\"" "#$id"; done
has "$d" 'data-cause="host-oom"' 'the host-oom evidence'
has "$d" 'comfy-defaultcpuallocator.log:[0-9]+' 'an evidence line'"'"'s place'

# 4. report: a recorded run the OOM killer ended, its charts with their series and markers.
rec=$src/tests/fixtures/recordings
"$hr" --lang en report "$rec/run-killed.jsonl" -o "$tmp/run.html" >"$tmp/run.txt" || bad "report failed"
grep -q "52 samples, 2 warnings" "$tmp/run.txt" || bad "report's summary line: $(cat "$tmp/run.txt")"
self_contained "$tmp/run.html"
chrome "$tmp/run" "$tmp/run.html"
d=$tmp/run.dom
for id in verdict summary charts chart-tiers chart-commit chart-paging chart-pressure warnings nodes plan; do
  has "$d" "id=\"$id\"" "#$id"
done
for s in ram-used ram-total swap-used swap-total vram-used commit commit-limit proc-rss pages-in pages-out \
         disk-busy psi-some psi-full; do
  has "$d" "data-series=\"$s\" data-points=\"5[0-9]\"" "series $s"
done
has "$d" 'data-marker="node"' 'node markers'
has "$d" 'data-marker="warning"' 'warning markers'
has "$d" 'data-verdict="will-fail"' 'the verdict'
has "$d" 'headroom plan --peak-commit 22G' 'the plan'"'"'s command'
# The same in Chinese; a watch on Windows with no warning; a run cut short mid-line.
"$hr" --lang zh report "$rec/run-killed.jsonl" -o "$tmp/run-zh.html" >/dev/null || bad "report --lang zh failed"
chrome "$tmp/run-zh" "$tmp/run-zh.html"
has "$tmp/run-zh.dom" '提交限制' 'the Chinese legend'
# Its warnings in Chinese, made again from the recorded rule and numbers: S2.3 from its disk's
# busy percent, commit-85 from an older line that names its limit only in its English message.
has "$tmp/run-zh.dom" '页面文件所在磁盘繁忙 98%' 'the S2.3 warning in Chinese'
has "$tmp/run-zh.dom" '超过限制的 85%' 'the commit-85 warning in Chinese'
"$hr" report "$rec/watch-ok.jsonl" -o "$tmp/watch.html" >/dev/null || bad "report of a watch failed"
chrome "$tmp/watch" "$tmp/watch.html"
has "$tmp/watch.dom" 'data-verdict="ok"' 'the watch'"'"'s verdict'
has "$tmp/watch.dom" 'data-series="commit" data-points="10"' 'the watch'"'"'s commit'
"$hr" report "$rec/run-cut-short.jsonl" -o "$tmp/cut.html" >"$tmp/cut.txt" || bad "report of a cut-short run failed"
grep -q "cut short" "$tmp/cut.txt" || bad "the cut-short run is not said to be cut short"
has "$tmp/cut.html" 'data-verdict="unknown"' 'the cut-short verdict'
# A malformed recording: exit 65, one line naming the file and the line.
printf '%s\n%s\n' "$(head -1 "$rec/watch-ok.jsonl")" '{"type":"sample","t":0,"commit":"lots"}' >"$tmp/bad.jsonl"
set +e
"$hr" report "$tmp/bad.jsonl" -o "$tmp/bad.html" 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" = 65 ] || bad "a malformed recording exited $rc, expected 65"
grep -q 'bad.jsonl: line 2: "commit" is string, not a number' "$tmp/bad.err" || bad "error: $(cat "$tmp/bad.err")"
[ "$(wc -l <"$tmp/bad.err")" = 1 ] || bad "the error is not one line"
[ ! -e "$tmp/bad.html" ] || bad "a page was written for a malformed recording"

# estimate --html: a FLUX workflow on 16 GB RAM / 8 GB VRAM, the per-step chart's series.
"$hr" --lang en estimate "$src/tests/fixtures/workflows/est_flux_dev_api.json" --ram 16G --vram 8G --os linux \
  --html "$tmp/est.html" >/dev/null || bad "estimate --html failed"
self_contained "$tmp/est.html"
chrome "$tmp/est" "$tmp/est.html"
for id in verdict peaks chart-peaks steps chart-steps loads; do has "$tmp/est.dom" "id=\"$id\"" "estimate #$id"; done
for s in vram ram commit; do has "$tmp/est.dom" "data-series=\"$s\" data-points=\"10\"" "estimate series $s"; done

# diagnose and estimate pages in Chinese too: the page's language and its headings (the
# quoted log lines stay as written).
"$hr" --lang zh diagnose --no-system "$log" --html "$tmp/diag-zh.html" >/dev/null || bad "diagnose --html --lang zh failed"
has "$tmp/diag-zh.html" '<html lang="zh-CN"' 'diagnose: lang="zh-CN"'
has "$tmp/diag-zh.html" '运行为什么中断了' 'diagnose: the Chinese heading'
"$hr" estimate "$src/tests/fixtures/workflows/est_flux_dev_api.json" --ram 16G --vram 8G --os linux \
  --html "$tmp/est-zh.html" --lang zh >/dev/null || bad "estimate --html --lang zh failed"
has "$tmp/est-zh.html" '<html lang="zh-CN"' 'estimate: lang="zh-CN"'
has "$tmp/est-zh.html" '估算' 'estimate: the Chinese heading'

# 5. A page that cannot be written: exit 73/74/77, nothing half-written left behind.
set +e
"$hr" check --sysroot "$fx" --html "$tmp/no-such-dir/x.html" >/dev/null 2>"$tmp/err"
rc=$?
set -e
case $rc in 73|74|77) ;; *) bad "an unwritable --html exited $rc";; esac
grep -q "x.html" "$tmp/err" || bad "the error does not name the file: $(cat "$tmp/err")"

# 6. A blank page is caught (the check is not vacuous).
printf '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --user-data-dir="$tmp/profile" --window-size=412,800 --screenshot="$tmp/blank.png" \
  "file://$tmp/blank.html" >/dev/null 2>&1 || true
if python3 "$here/png_nonblank.py" "$tmp/blank.png" >/dev/null; then bad "a blank page passed the screenshot check"; fi

[ "$fail" = 0 ] && echo "html: check, diagnose and report pages render in $browser, English and Chinese"
exit $fail
