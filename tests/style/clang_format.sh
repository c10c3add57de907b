#!/usr/bin/env bash
# style.clang_format: every C file under src/ and tests/unit/ is formatted as .clang-format says.
# The style is pinned to the clang-format that tools/install-deps.sh installs (Debian 12's);
# another version may format a few constructs differently, so it is a SKIP, not a failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cf=$(command -v clang-format || true)
if [ -z "$cf" ]; then echo "SKIP: clang-format is not installed (tools/install-deps.sh --tests)"; exit 77; fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != "14" ]; then echo "SKIP: clang-format $major here; the style is checked with version 14"; exit 77; fi
cd "$root" || exit 1
files=$(find src tests/unit -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "FAIL: no C files found under src/"; exit 1; }
# shellcheck disable=SC2086
if ! out=$("$cf" --style=file --dry-run --Werror $files 2>&1); then
    echo "$out" | head -40
    echo "FAIL: files above differ from .clang-format; run: clang-format -i \$(find src tests/unit -name '*.[ch]')"
    exit 1
fi
echo "ok: $(echo "$files" | wc -l) files formatted"
