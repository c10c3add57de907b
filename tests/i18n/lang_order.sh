#!/usr/bin/env bash
# --lang decides the language before any option is parsed: an error about an option given
# before --lang is in the language asked for, as is one given after it; the last --lang wins;
# a --lang that is another option's value, or the child's command line of `run`, does not
# count. JSON stays English in either order.
# usage: lang_order.sh HEADROOM SOURCE_DIR
set -uo pipefail
hr=$1
src=$2
fail=0
cjk='[\x{4e00}-\x{9fff}]'
run_hr() { env -i PATH="$PATH" "$@" 2>&1; }
zh() {   # zh ENV -- ARGS...: the output has Chinese
  local e=$1; shift 2
  local out; out=$(run_hr "$e" "$hr" "$@")
  echo "$out" | grep -qP "$cjk" || { echo "FAIL: $e headroom $*: not Chinese: $out"; fail=1; }
}
en() {   # en ENV -- ARGS...: the output has no Chinese
  local e=$1; shift 2
  local out; out=$(run_hr "$e" "$hr" "$@")
  if echo "$out" | grep -qP "$cjk"; then echo "FAIL: $e headroom $*: not English: $out"; fail=1; fi
  [ -n "$out" ] || { echo "FAIL: $e headroom $*: no output"; fail=1; }
}
# A size without a unit, an unknown option, a bad number: before and after --lang.
for cmd in "plan --ram 5" "check --ram 5" "estimate --ram 5" "stress --commit 5" "status --bogus" \
           "diagnose --bogus" "watch --interval x" "apply --size 5" "export --bogus" "report --bogus" \
           "models --bogus" "workflow --bogus" "verify --bogus" "rollback --bogus" "run --bogus"; do
  # shellcheck disable=SC2086
  zh LANG=C -- $cmd --lang zh
  # shellcheck disable=SC2086
  zh LANG=C -- $cmd --lang=zh
  # shellcheck disable=SC2086
  zh LANG=C -- --lang zh $cmd
  # shellcheck disable=SC2086
  en LANG=zh_CN.UTF-8 -- $cmd --lang en
  # shellcheck disable=SC2086
  en LANG=zh_CN.UTF-8 -- $cmd --lang=EN
done
out=$(run_hr LANG=C "$hr" plan --ram 5 --lang zh)
echo "$out" | grep -q '大小必须带单位' || { echo "FAIL: plan --ram 5 --lang zh: $out"; fail=1; }
# The last --lang wins, wherever each stands.
zh LANG=C -- plan --lang en --ram 5 --lang zh
en LANG=C -- plan --lang zh --ram 5 --lang en
en LANG=C -- --lang zh plan --ram 5 --lang en
# The overview and an unknown command take --lang after them too.
zh LANG=C -- --help --lang zh
zh LANG=C -- help plan --lang=zh
zh LANG=C -- bogus --lang zh
# Before the command, in any case, as the parser takes it after.
zh LANG=C -- --lang ZH status --bogus
en LANG=zh_CN.UTF-8 -- --lang=En status --bogus
# A --lang that is an option's value, or after "--", is not ours.
en LANG=C -- plan --ram --lang zh
# An option without its value at the end: "needs SIZE", in Chinese.
zh LANG=C -- plan --lang zh --ram
en LANG=C -- diagnose --bogus -- --lang zh
# run: the child's command line (after -- or its first word) keeps its --lang.
en LANG=C -- run -- true --lang zh
en LANG=C -- run true --lang zh
zh LANG=C -- run --lang zh -- true --lang en
# An invalid --lang is the parser's error, in the environment's language.
out=$(run_hr LANG=C "$hr" status --lang fr)
echo "$out" | grep -q "expected one of en|zh" || { echo "FAIL: status --lang fr: $out"; fail=1; }
# JSON is English in either order: the same bytes as without --lang (a recorded machine).
fx=$src/tests/fixtures/linux/btrfs-swapfile
for cmd in status plan check; do
  want=$(run_hr LANG=C "$hr" "$cmd" --sysroot "$fx" --json)
  for args in "--json --lang zh" "--lang zh --json" "--lang=zh --json --lang zh"; do
    # shellcheck disable=SC2086
    got=$(run_hr LANG=C "$hr" "$cmd" --sysroot "$fx" $args)
    [ "$got" = "$want" ] || { echo "FAIL: $cmd $args: the JSON differs from English"; fail=1; }
    # shellcheck disable=SC2086
    got=$(run_hr LANG=C "$hr" --lang zh "$cmd" --sysroot "$fx" $args)
    [ "$got" = "$want" ] || { echo "FAIL: --lang zh $cmd $args: the JSON differs from English"; fail=1; }
  done
  got=$(run_hr LANG=zh_CN.UTF-8 "$hr" "$cmd" --sysroot "$fx" --json)
  [ "$got" = "$want" ] || { echo "FAIL: LANG=zh_CN $cmd --json: the JSON differs from English"; fail=1; }
done
# ... and its text is Chinese in either order.
zh LANG=C -- status --sysroot "$fx" --lang zh
zh LANG=C -- status --lang zh --sysroot "$fx"
[ "$fail" = 0 ] && echo "lang_order: --lang holds wherever it stands; JSON stays English"
exit $fail
