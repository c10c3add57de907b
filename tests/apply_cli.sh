#!/bin/bash
# apply / rollback / verify from the command line: what each says and its exit status, for
# the cases of issue 10 that need no swap change. The --yes cases need root (skipped without).
# usage: apply_cli.sh HEADROOM
set -u
H=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FAILS=0; CHECKS=0
ok()  { CHECKS=$((CHECKS+1)); echo "ok: $*"; }
bad() { CHECKS=$((CHECKS+1)); FAILS=$((FAILS+1)); echo "FAIL: $*"; }
expect_rc() { [ "$2" = "$1" ] && ok "$3 (rc $2)" || bad "$3: rc $2, want $1"; }

# verify: a missing input is 66, never "ok, no swap configured".
"$H" verify --fstab "$T/nonexistent" --state-dir "$T/state" >"$T/o" 2>&1; expect_rc 66 $? "verify --fstab on a missing file"
grep -q "no swap configured" "$T/o" && bad "verify: says ok on a missing fstab" || ok "verify: no 'ok' for a missing fstab"
# A garbage fstab: 65 with the line number.
printf '# fine\nthis is not an fstab line at all really no\n' > "$T/garbage"
"$H" verify --fstab "$T/garbage" --state-dir "$T/state" >"$T/o" 2>&1; expect_rc 65 $? "verify on a garbage fstab"
grep -q "line 2" "$T/o" && ok "verify: names the line" || bad "verify: $(cat "$T/o")"
# A missing state directory is not an error for verify (nothing recorded).
printf '# empty\n' > "$T/fstab"
"$H" verify --fstab "$T/fstab" --state-dir "$T/nostate" --json >"$T/o" 2>&1
grep -q '"schema": "headroom.verify/1"' "$T/o" && ok "verify: JSON without a state directory" || bad "verify: $(cat "$T/o")"
# JSON is English whatever --lang says, and the text is in the language asked for: one dry
# run and one verify in both (the commit charge moves between two runs: left out).
printf '# empty\n' > "$T/fstab"
for l in en zh; do
    "$H" --lang $l apply --size 1G --target "$T" --fstab "$T/fstab" --state-dir "$T/st" --json >"$T/aj.$l" 2>"$T/ae.$l"
    echo $? >>"$T/aj.$l"
    "$H" --lang $l apply --size 1G --target "$T" --fstab "$T/fstab" --state-dir "$T/st" >"$T/at.$l" 2>&1
    "$H" --lang $l verify --fstab "$T/fstab" --state-dir "$T/st" >"$T/vt.$l" 2>&1
done
# verify reads the swap in use, which another run's test may turn on or off in between: the
# two are compared again when they differ
for try in 1 2 3; do
    for l in en zh; do
        "$H" --lang $l verify --fstab "$T/fstab" --state-dir "$T/st" --json 2>&1 | grep -v commit_charge_bytes >"$T/vj.$l"
    done
    cmp -s "$T/vj.en" "$T/vj.zh" && break
done
if grep -q '"schema": "headroom.apply-plan/1"' "$T/aj.en"; then
    cmp -s "$T/aj.en" "$T/aj.zh" && ok "apply --json: the same in English and Chinese" \
        || bad "apply --json differs by language: $(diff "$T/aj.en" "$T/aj.zh")"
    LC_ALL=C grep -q -P '[\x80-\xff]' "$T/aj.zh" && bad "apply --json --lang zh is not English" || ok "apply --json: English"
    grep -q "试运行" "$T/at.zh" && grep -q "\[finish\] 在状态文件中" "$T/at.zh" && ok "apply: the dry run in Chinese" \
        || bad "apply --lang zh: $(cat "$T/at.zh")"
else
    echo "skip: a dry run on $T was refused: $(cat "$T/ae.en")"
fi
cmp -s "$T/vj.en" "$T/vj.zh" && ok "verify --json: the same in English and Chinese" \
    || bad "verify --json differs by language: $(diff "$T/vj.en" "$T/vj.zh")"
grep -q '"text": "' "$T/vj.zh" && ! LC_ALL=C grep -q -P '[\x80-\xff]' "$T/vj.zh" && ok "verify --json --lang zh: English" \
    || bad "verify --json --lang zh: $(cat "$T/vj.zh")"
grep -q "^verify：" "$T/vt.zh" && grep -q "提交限制" "$T/vt.zh" && ok "verify --lang zh: Chinese" || bad "verify --lang zh: $(cat "$T/vt.zh")"
# Option tables: unknown options are usage errors, --help works.
"$H" apply --bogus >/dev/null 2>&1; expect_rc 64 $? "apply: unknown option"
"$H" rollback --help >"$T/o" 2>&1; expect_rc 0 $? "rollback --help"
grep -q -- "--state-dir" "$T/o" && ok "rollback --help lists its options" || bad "rollback --help: $(cat "$T/o")"
"$H" apply --size 1G --priority 40000 >/dev/null 2>&1; expect_rc 64 $? "apply: --priority out of range"

if [ "$(id -u)" = 0 ]; then
    # --state-dir whose parent is missing: says so, 66, never "recorded".
    "$H" apply --size 1G --target "$T" --fstab "$T/fstab" --state-dir "$T/no/such/dir" --yes >"$T/o" 2>&1
    expect_rc 66 $? "apply --state-dir with a missing parent"
    grep -q "does not exist" "$T/o" && ok "apply: says the parent does not exist" || bad "apply: $(cat "$T/o")"
    grep -q "recorded" "$T/o" && bad "apply: claims steps were recorded: $(cat "$T/o")" || ok "apply: claims nothing was recorded"
    [ ! -e "$T/no" ] && ok "apply: created nothing" || bad "apply: created $T/no"
    # rollback with nothing to undo does not say "Restored".
    "$H" rollback --fstab "$T/fstab" --state-dir "$T/nostate" --yes >"$T/o" 2>&1; expect_rc 0 $? "rollback with nothing to undo"
    grep -q "Restored" "$T/o" && bad "rollback: says Restored with nothing to undo" || ok "rollback: no 'Restored' with nothing to undo"
    grep -q "Nothing to roll back" "$T/o" && ok "rollback: says there is nothing" || bad "rollback: $(cat "$T/o")"
    # A missing target directory is 66.
    "$H" apply --size 1G --target "$T/missing/x.swap" --fstab "$T/fstab" --state-dir "$T/state" --yes >"$T/o" 2>&1
    expect_rc 66 $? "apply: missing target directory"
    # verify finishes a step a kill cut short (the journal) and says so (issue 10: recovery
    # was silent): an apply killed in its last step, "finish".
    mkdir -p "$T/cut" && chmod 700 "$T/cut"
    cat > "$T/cut/apply-state.json" <<EOS
{"schema": "headroom.apply-state/1", "os": "linux", "status": "in-progress", "last_step": "fstab-add",
 "started": "2026-01-01T00:00:00Z", "started_unix": 1767225600,
 "fstab": {"path": "$T/fstab", "backup": "", "existed": true, "added_newline": false, "written": false,
           "written_fnv1a64": "0000000000000000"},
 "areas": [],
 "intent": {"step": "finish", "path": "", "old_fnv1a64": "0000000000000000",
            "new_fnv1a64": "0000000000000000", "fstab_created": false}}
EOS
    "$H" verify --fstab "$T/fstab" --state-dir "$T/cut" >"$T/o" 2>&1
    grep -q "fixed   recovered: step 'finish' was cut short; marked applied" "$T/o" \
        && ok "verify: says what it recovered" || bad "verify is silent about its recovery: $(cat "$T/o")"
    grep -q '"intent": {[^}]*"step": ""' <(tr -d '\n' < "$T/cut/apply-state.json") \
        && ok "verify: the journal is closed" || bad "verify: intent still open: $(cat "$T/cut/apply-state.json")"
    "$H" verify --fstab "$T/fstab" --state-dir "$T/cut" --json >"$T/o" 2>&1
    grep -q '"recovered": \[\]' "$T/o" && ok "verify: nothing more to recover the second time (JSON)" \
        || bad "verify --json the second time: $(cat "$T/o")"
else
    echo "skip: the --yes cases need root"
fi
echo "$CHECKS checks: $((CHECKS-FAILS)) passed, $FAILS failed"
[ $FAILS = 0 ]
