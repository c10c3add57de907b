#!/usr/bin/env bash
# Every file a user names (run --log, run --record, watch --record, check/estimate/diagnose
# --html, report -o, export --textfile) written as root: a link planted in a folder another
# user owns never leads the write to a root-owned 0600 file, nor does a link in root's own
# folder, another user's file or a second name (hard link) of root's file; a refused output
# exits 69 naming the path. What root may write is still written, and a replaced file keeps
# its mode. Usage: outputs_root.sh HEADROOM SOURCE_DIR
set -u
hr=$1
src=$2
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# In the build folder: /tmp may be root's and sticky, but this test wants folders of its own.
tmp=$(mktemp -d "$PWD/outputs_root.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
fx=$src/tests/fixtures
secret=$tmp/secret/shadow
mkdir "$tmp/secret" && chmod 0700 "$tmp/secret"
printf 'root:secret\n' >"$secret" && chmod 0600 "$secret"
want=$(stat -c '%u %a %s %Y' "$secret")
mkdir "$tmp/nobody" && chown nobody "$tmp/nobody"   # a folder another user owns
mkdir "$tmp/root"                                   # a folder only root can write

# Each output, with OUT standing for the path to write.
outputs=(
  "run-log|run --no-cgroup --interval 100 --log OUT -- echo attacker-text"
  "run-record|run --no-cgroup --interval 100 --record OUT -- echo attacker-text"
  "watch-record|watch --count 1 --interval 50 --record OUT"
  "check-html|check --sysroot $fx/linux/btrfs-swapfile --workload flux --html OUT"
  "estimate-html|estimate $fx/workflows/est_flux_dev_api.json --ram 16G --vram 8G --os linux --html OUT"
  "diagnose-html|diagnose --no-system $src/tests/diagnose/corpus/a1111-memoryerror.log --html OUT"
  "report-o|report $fx/recordings/watch-ok.jsonl -o OUT"
  "export|export --sysroot $fx/linux/btrfs-swapfile --textfile OUT"
)

# run_out NAME CMD PATH: run the command with OUT replaced by PATH (export takes the folder).
run_out() {
    local cmd=${2//OUT/$3}
    # shellcheck disable=SC2086
    "$hr" --lang en $cmd >"$tmp/out.txt" 2>"$tmp/err.txt"
}
file_of() { [ "$1" = export ] && echo "$2/headroom.prom" || echo "$2/out"; }
dir_or_file() { [ "$1" = export ] && echo "$2" || echo "$2/out"; }

# refused NAME CMD DIR WHY: the command must exit 69, name the file, and leave the secret whole.
refused() {
    local name=$1 cmd=$2 dir=$3 why=$4
    run_out "$name" "$cmd" "$(dir_or_file "$name" "$dir")"
    local rc=$?
    [ "$rc" = 69 ] || bad "$name ($why): exit $rc, want 69; $(head -c 300 "$tmp/err.txt")"
    grep -q "$(file_of "$name" "$dir")" "$tmp/err.txt" || bad "$name ($why): the error does not name the file: $(head -c 300 "$tmp/err.txt")"
    [ "$(stat -c '%u %a %s %Y' "$secret")" = "$want" ] || bad "$name ($why): root's file changed: $(stat -c '%u %a %s' "$secret")"
    grep -qx 'root:secret' "$secret" || bad "$name ($why): root's file was written: $(head -c 100 "$secret")"
    [ "$rc" = 69 ] && echo "ok   $name refused: $why"
}

for o in "${outputs[@]}"; do
    name=${o%%|*} cmd=${o#*|}
    f=$(file_of "$name" "$tmp/nobody")
    # 1. the attack: a link planted in another user's folder
    ln -sfn "$secret" "$f" && chown -h nobody "$f"
    refused "$name" "$cmd" "$tmp/nobody" "link in a folder of user nobody"
    rm -f "$f"
    # 2. the same folder with nothing in it: still theirs to plant in between
    refused "$name" "$cmd" "$tmp/nobody" "folder of user nobody"
    rm -f "$tmp/nobody"/.??* "$tmp/nobody"/*
    # 3. a link in root's own folder: the last part is never followed
    f=$(file_of "$name" "$tmp/root")
    ln -sfn "$secret" "$f"
    refused "$name" "$cmd" "$tmp/root" "link in root's folder"
    rm -f "$f"
    # 4. another user's file there
    : >"$f" && chown nobody "$f"
    refused "$name" "$cmd" "$tmp/root" "a file of user nobody"
    rm -f "$f"
    # 5. written where it may be, keeping the mode of the file it replaces
    printf 'old\n' >"$f" && chmod 0640 "$f"
    run_out "$name" "$cmd" "$(dir_or_file "$name" "$tmp/root")"
    rc=$?
    case $rc in 0|1|2|3) ;; *) bad "$name: a plain write failed (exit $rc): $(head -c 300 "$tmp/err.txt")" ;; esac
    [ -s "$f" ] && ! grep -qx old "$f" || bad "$name: $f was not written"
    [ "$(stat -c '%a %u' "$f")" = "640 0" ] || bad "$name: mode or owner not kept: $(stat -c '%a %u' "$f")"
    left=$(find "$tmp/root" -mindepth 1 ! -name "$(basename "$f")")
    [ -z "$left" ] || bad "$name: left behind: $left"
    rm -f "$f"
done

# A second name of root's file (a hard link) is written through by a stream: refused.
ln "$secret" "$tmp/root/out"
refused run-log "run --no-cgroup --interval 100 --log OUT -- echo attacker-text" "$tmp/root" "a hard link to root's file"
rm -f "$tmp/root/out"

# A device is not written over (nor opened: no truncation of what it is).
for o in "run-log|run --no-cgroup --interval 100 --log OUT -- true" "report-o|report $fx/recordings/watch-ok.jsonl -o OUT"; do
    name=${o%%|*} cmd=${o#*|}
    mknod "$tmp/root/out" c 1 3   # /dev/null's numbers
    run_out "$name" "$cmd" "$tmp/root/out"
    rc=$?
    [ "$rc" = 69 ] && grep -q 'not a regular file' "$tmp/err.txt" && echo "ok   $name refused: a device" ||
        bad "$name on a device: exit $rc, $(head -c 200 "$tmp/err.txt")"
    rm -f "$tmp/root/out"
done

echo "$fails failed"
[ "$fails" -eq 0 ]
