#!/usr/bin/env bash
# tests/i18n/literals.py is not vacuous: on a small tree it finds the English that bypasses
# the catalogue (a bare printf, a concatenated error, an HTML text) and nothing else
# (wrapped messages, markup, formats, options, rule ids, JSON keys).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/cli" "$tmp/tests/i18n"
cat >"$tmp/src/cli/x.c" <<'C'
/* printf("a comment is not shown") */
void f(void)
{
    printf("plain English here\n");                                   /* 1 */
    hr_cli_error("%s: cannot open it, "
                 "because reasons", name);                            /* 2 */
    hr_html_text(out, "Written by a person");                         /* 3 */
    printf(HR_T("wrapped and "
                "translated"));
    hr_cli_error("%s: %s", cmd, msg);
    hr_buf_puts(out, "<tr><th class=\"num\">");
    hr_buf_printf(out, "  %-22s %s [S4.1] --workload docs/check.md\n", a, b);
    hr_json_str(w, "verdict_reason", "a hypothetical machine");
    fputs(hr_tr(label), stdout);
}
C
set +e
python3 "$here/literals.py" "$tmp" >"$tmp/out"
rc=$?
set -e
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: expected exit 1, got $rc"; exit 1; }
n=$(grep -c '^  src/cli/x.c:' "$tmp/out")
[ "$n" = 4 ] || { echo "FAIL: expected 4 findings (2 for the concatenation), got $n"; exit 1; }
for l in 4 5 6 7; do grep -q "x.c:$l:" "$tmp/out" || { echo "FAIL: line $l not found"; exit 1; }; done
# The list of older messages lets them pass, and only them.
python3 "$here/literals.py" "$tmp" --update >/dev/null
python3 "$here/literals.py" "$tmp" >/dev/null || { echo "FAIL: listed messages still fail"; exit 1; }
echo '    printf("a new message in English only\n");' >>"$tmp/src/cli/x.c"
if python3 "$here/literals.py" "$tmp" >/dev/null; then echo "FAIL: a new message passed"; exit 1; fi
echo "literals self-test: passed"
