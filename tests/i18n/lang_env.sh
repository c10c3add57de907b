#!/usr/bin/env bash
# The language of messages: from LC_ALL / LC_MESSAGES / LANG (LANGUAGE too, as gettext reads
# it, unless the locale is C), --lang en|zh before or after the command overriding them.
# usage: lang_env.sh HEADROOM
set -uo pipefail
hr=$1
fail=0
expect() {   # expect zh|en ENV... -- ARGS...
  local want=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local out
  out=$(env -i PATH="$PATH" "${envs[@]}" "$hr" "$@" 2>&1)
  case $want in
    zh) echo "$out" | grep -q '未知命令' || { echo "FAIL: ${envs[*]} $*: not Chinese: $out"; fail=1; } ;;
    en) echo "$out" | grep -q 'unknown command' || { echo "FAIL: ${envs[*]} $*: not English: $out"; fail=1; } ;;
  esac
}
expect zh LANG=zh_CN.UTF-8 -- bogus
expect zh LC_ALL=zh_CN.UTF-8 LANG=en_US.UTF-8 -- bogus
expect zh LC_MESSAGES=zh_TW.UTF-8 -- bogus
expect en LANG=zh_CN.UTF-8 LC_ALL=C -- bogus
expect en LANG=de_DE.UTF-8 -- bogus
expect en -- bogus
expect en LANG=zh_CN.UTF-8 -- --lang en bogus
expect en LANG=zh_CN.UTF-8 -- --lang=en bogus
expect zh LANG=C -- --lang zh bogus
# --lang after the command: the command's parser takes it.
out=$(env -i PATH="$PATH" LANG=zh_CN.UTF-8 "$hr" check --lang en --ram 16 2>&1)
echo "$out" | grep -q 'a size needs a unit' || { echo "FAIL: check --lang en: $out"; fail=1; }
out=$(env -i PATH="$PATH" LANG=C "$hr" check --lang zh --ram 16 2>&1)
echo "$out" | grep -q '大小必须带单位' || { echo "FAIL: check --lang zh: $out"; fail=1; }
[ "$fail" = 0 ] && echo "lang_env: LANG/LC_*/--lang choose the language"
exit $fail
