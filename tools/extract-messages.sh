#!/usr/bin/env bash
# Write the message template (every HR_T / HR_N string in src/) to $1, as xgettext sees it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out=$1
cd "$root"
find src -name '*.c' -o -name '*.h' | LC_ALL=C sort > "$out.files"
xgettext --from-code=UTF-8 --language=C --keyword --keyword=HR_T --keyword=HR_N \
  --keyword=hr_tr --keyword=hr_tr_lang:2 --add-comments=TRANSLATORS: --no-wrap --no-location --sort-output \
  --package-name=headroom -o "$out" --files-from="$out.files"
rm -f "$out.files"
