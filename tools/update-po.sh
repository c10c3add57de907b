#!/usr/bin/env bash
# Bring po/zh_CN.po up to date with the messages in the source: every HR_T("...") and
# HR_N("...") becomes a msgid; new ones arrive with an empty msgstr to translate, unused ones
# are dropped. Run after adding or changing a message; then translate, and run the test
# i18n.catalogue. Needs gettext (xgettext, msgmerge).
set -euo pipefail
cd "$(dirname "$0")/.."
pot=$(mktemp --suffix=.pot)
trap 'rm -f "$pot"' EXIT
tools/extract-messages.sh "$pot"
msgmerge --quiet --update --backup=none --no-fuzzy-matching --no-wrap --no-location --sort-output po/zh_CN.po "$pot"
msgattrib --no-obsolete --no-wrap -o po/zh_CN.po po/zh_CN.po
echo "po/zh_CN.po: $(msgattrib --untranslated po/zh_CN.po | grep -c '^msgid ' || true) entries to translate (counting the header)"
