#!/usr/bin/env bash
# Every human message exists in English and Chinese: each HR_T / HR_N string in the source
# has a translation in po/zh_CN.po, with the same printf conversions, and the catalogue holds
# no message the source no longer uses. Fails with the list of offenders.
set -euo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/tools/extract-messages.sh" "$tmp/headroom.pot"
[ -s "$tmp/headroom.pot" ] || { echo "no messages extracted: the check would prove nothing"; exit 1; }
msgs=$(grep -c '^msgid ' "$tmp/headroom.pot")
msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$tmp/merged.po" "$root/po/zh_CN.po" "$tmp/headroom.pot"
fail=0
untranslated=$(msgattrib --untranslated --no-wrap "$tmp/merged.po" | grep '^msgid "..*"' || true)
if [ -n "$untranslated" ]; then
  echo "messages in English only (run tools/update-po.sh, then translate in po/zh_CN.po):"
  echo "$untranslated" | sed 's/^/  /'
  fail=1
fi
fuzzy=$(msgattrib --only-fuzzy --no-wrap "$root/po/zh_CN.po" | grep '^msgid "..*"' || true)
if [ -n "$fuzzy" ]; then
  echo "fuzzy (unchecked) translations in po/zh_CN.po:"; echo "$fuzzy" | sed 's/^/  /'; fail=1
fi
obsolete=$(grep '^#~ msgid' "$tmp/merged.po" || true)
if [ -n "$obsolete" ]; then
  echo "translations of messages the source no longer has (run tools/update-po.sh):"
  echo "$obsolete" | sed 's/^#~ /  /'
  fail=1
fi
if ! msgfmt --check-format -o /dev/null "$tmp/merged.po" 2>"$tmp/fmt"; then
  echo "printf conversions differ between English and Chinese:"; sed 's/^/  /' "$tmp/fmt"; fail=1
fi
# A message built with <inttypes.h> macros ("%" PRIu64) is a "system-dependent" msgid that
# gettext's own library expands at run time; the built-in lookup (core/base/i18n.c) compares
# plain strings and never finds it, so it would show in English: use %llu / %lld and a cast.
sysdep=$(grep '^msgid ".*%<PRI' "$tmp/headroom.pot" || true)
if [ -n "$sysdep" ]; then
  echo "messages with an <inttypes.h> macro, never found at run time (use %llu or %lld and a cast):"
  echo "$sysdep" | sed 's/^/  /'
  fail=1
fi
echo "i18n: $((msgs - 1)) messages in the source, catalogue po/zh_CN.po"
exit $fail
