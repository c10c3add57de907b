#!/bin/bash
# Proof that apply and rollback survive a kill at any instant, a second run at the same time,
# and a hostile file system (issue 16). As root, on loop-mounted images made here; SKIP (77)
# elsewhere. Never touches /etc/fstab: every call gets --fstab and --state-dir in the test's
# own temporary directory.
# usage: apply_proof.sh HEADROOM SECTION
#   kill-ext4 | kill-btrfs   SIGKILL at the entry of every system call (strace fault injection)
#                            of a fresh apply, a resize and a rollback; after each: verify,
#                            rollback, and the machine must be as before
#   concurrent               five pairs of simultaneous applies end consistent
#   attacks                  path attacks: the foreign file is never turned on
#   enospc                   ENOSPC at every write, sync, rename and creation of the same three
#                            runs: each stops, says what is left, and rollback restores
# HR_PROOF_STRIDE=N injects at every Nth call only (a quicker run by hand; default 1: all).
set -u
H=$(readlink -f "$1")
SECTION=$2
STRIDE=${HR_PROOF_STRIDE:-1}
export PATH=$PATH:/sbin:/usr/sbin
# LeakSanitizer cannot work under ptrace: in a sanitizer build it would fail at exit and spin
# (sched_yield), adding system calls whose number depends on the machine's load.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (swapon, loop mounts)"
for t in losetup mkswap swapon findmnt flock; do command -v $t >/dev/null || skip "$t not installed"; done
exec 9>/run/lock/headroom-apply-root-tests.lock || skip "cannot open the test lock"
flock -w 1200 9 || skip "another headroom root test held the lock for 20 minutes"

T=$(mktemp -d /tmp/hr-apply-proof.XXXXXX)
chmod 755 "$T"
# A copy of the binary: a rebuild during this long run must not change what is tested.
cp "$H" "$T/headroom.bin" && H=$T/headroom.bin
MOUNTS=()
cleanup() {
    tail -n +2 /proc/swaps | awk '{print $1}' | while read -r p; do
        p=$(printf '%b' "$p")
        case "$p" in "$T"/*) swapoff "$p" 2>/dev/null ;; esac
    done
    for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}"; done
    rm -rf "$T"
}
trap cleanup EXIT

FAILS=0; CHECKS=0
ok()   { CHECKS=$((CHECKS+1)); [ -n "${QUIET:-}" ] || echo "ok: $*"; }
bad()  { CHECKS=$((CHECKS+1)); FAILS=$((FAILS+1)); echo "FAIL: $*"; }
expect_rc() { local want=$1 got=$2 what=$3; [ "$got" = "$want" ] && ok "$what (rc $got)" || bad "$what: rc $got, want $want"; }
active() { tail -n +2 /proc/swaps | awk '{print $1}' | while read -r p; do printf '%b\n' "$p"; done; }
is_active() { active | grep -Fxq -- "$1"; }

mkimg() {   # mkimg FS SIZE -> mount point on stdout
    local fs=$1 size=$2 img mnt
    img=$(mktemp "$T/$fs.XXXXXX"); mnt="$img.mnt"
    truncate -s "$size" "$img" || return 1
    case $fs in
        ext4) mkfs.ext4 -q -F "$img" ;;
        btrfs) mkfs.btrfs -q -f "$img" >/dev/null ;;
    esac || return 1
    mkdir -p "$mnt" && mount -o loop "$img" "$mnt" || return 1
    chmod 755 "$mnt"
    echo "$mnt"
}
probe_swapon() {
    local m; m=$(mkimg ext4 256M) || skip "cannot make and loop-mount an ext4 image here"
    MOUNTS+=("$m")
    fallocate -l 16M "$m/probe" && chmod 600 "$m/probe" && mkswap -q "$m/probe" >/dev/null || skip "mkswap failed"
    swapon "$m/probe" 2>"$T/swapon.err" || skip "swapon of a file is refused here: $(cat "$T/swapon.err")"
    swapoff "$m/probe"; rm -f "$m/probe"
}
make_fstab() {
    printf '# /etc/fstab\nUUID=0a3407de-014b-458b-b5c1-848e92a327a3 /               ext4    errors=remount-ro 0       1\n\nLABEL=data\t/mnt/my\\040data\txfs\tdefaults,nofail\t0\t2' > "$T/fstab"
    cp "$T/fstab" "$T/fstab.orig"
}
HA() { "$H" apply --fstab "$T/fstab" --state-dir "$T/state" "$@"; }
HV() { "$H" verify --fstab "$T/fstab" --state-dir "$T/state" "$@"; }
HR() { "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" "$@"; }

# The machine as it was: fstab's bytes, no file of ours, no temporary file, no records, no
# swap of ours on. Prints what differs; returns 1 if anything does.
consistent() {
    local m=$1 why=""
    cmp -s "$T/fstab" "$T/fstab.orig" || why="$why fstab-differs"
    local left; left=$(ls -A "$m" | grep -v '^lost+found$' | tr '\n' ' ')
    [ -z "$left" ] || why="$why files-left:[$left]"
    ls "$T" | grep -q 'headroom-tmp' && why="$why tmp-left:[$(ls "$T" | grep headroom-tmp | tr '\n' ' ')]"
    [ -e "$T/state" ] && why="$why state-left:[$(ls -A "$T/state" | tr '\n' ' ')]"
    active | grep -q "^$m/" && why="$why swap-on:[$(active | grep "^$m/" | tr '\n' ' ')]"
    [ -z "$why" ] && return 0
    echo "$why"; return 1
}

INJ=0; INCONS=0
# kill_each LABEL MNT SETUP CMD... : for every system call CMD makes, a run killed at its
# entry, then verify + rollback; counts the inconsistent outcomes.
kill_each() {
    local label=$1 m=$2 setup=$3; shift 3
    $setup || { bad "$label: setup failed"; return; }
    strace -f -qq -o "$T/trace" "$@" >/dev/null 2>&1
    HR --yes >/dev/null 2>&1
    consistent "$m" >/dev/null || { bad "$label: not clean after the untouched run + rollback: $(consistent "$m")"; return; }
    local counts; counts=$(sed -E 's/^[0-9]+ +//; s/^([a-z0-9_]+)\(.*/\1/; t; d' "$T/trace" | grep -E "^(${ONLY:-.*})\$" | sort | uniq -c)
    local total; total=$(echo "$counts" | awk '{s+=$1} END {print s}')
    echo "$label: $total system calls, $(echo "$counts" | wc -l) kinds"
    local n name k before=$INCONS
    while read -r n name; do
        for ((k=1; k<=n; k+=STRIDE)); do
            $setup || { bad "$label: setup failed before $name#$k"; continue; }
            ( exec 2>"$T/k.err"; strace -f -qq -o /dev/null -e trace="$name" -e inject="$name":${INJECT:-signal=KILL}:when=$k "$@" >"$T/k.out" ); local arc=$?
            INJ=$((INJ+1))
            # An error instead of a kill: the run stops and says what is left (or that nothing
            # changed); a report it could not write is 74 after the work was done.
            if [ -n "${INJECT:-}" ] && [ $arc != 0 ] && [ $arc != 74 ] &&
               ! grep -q "nothing was changed\|headroom rollback --yes\|Nothing to roll back" "$T/k.err"; then
                bad "$label: $INJECT at $name#$k: rc $arc and no word of what is left: $(grep headroom: "$T/k.err" | head -3)"
            fi
            HV >"$T/v.out" 2>&1; local vrc=$?
            if [ -e "$T/state/apply-state.json" ] && grep -q '"status": "in-progress"\|"status": "rolling-back"' "$T/state/apply-state.json"; then
                grep -q "headroom rollback --yes" "$T/v.out" && [ $vrc = 2 ] || { bad "$label: ${INJECT:-kill} at $name#$k: verify (rc $vrc) does not report the interrupted run: $(head -3 "$T/v.out")"; }
            fi
            HR --yes >"$T/r.out" 2>&1; local rrc=$?
            local why; why=$(consistent "$m"); local crc=$?
            if [ $rrc != 0 ] || [ $crc != 0 ]; then
                INCONS=$((INCONS+1))
                bad "$label: ${INJECT:-kill} at $name#$k: rollback rc $rrc;$why"
                sed 's/^/    /' "$T/r.out" | head -5
                # Start the next injection from a clean machine.
                active | grep "^$m/" | while read -r p; do swapoff "$p"; done
                find "$m" -mindepth 1 -maxdepth 1 ! -name lost+found -exec rm -rf {} +
                rm -rf "$T/state" "$T"/*headroom-tmp*; cp "$T/fstab.orig" "$T/fstab"
            fi
        done
    done <<< "$counts"
    echo "$label: inconsistent states: $((INCONS-before))"
}

kill_section() {
    local fs=$1
    [ "$fs" = btrfs ] && { command -v mkfs.btrfs >/dev/null || skip "mkfs.btrfs not installed (btrfs-progs)"; }
    command -v strace >/dev/null || skip "strace not installed"
    probe_swapon
    local m; m=$(mkimg "$fs" 20G) || skip "mkfs.$fs or loop mount unavailable"
    MOUNTS+=("$m"); make_fstab
    M=$m
    setup_none() { return 0; }
    setup_applied() { HA --size 64M --target "$M" --yes >/dev/null 2>&1; }
    kill_each "$fs fresh apply" "$m" setup_none "$H" apply --fstab "$T/fstab" --state-dir "$T/state" --size 64M --target "$m" --yes
    kill_each "$fs resize" "$m" setup_applied "$H" apply --fstab "$T/fstab" --state-dir "$T/state" --size 128M --target "$m" --yes
    kill_each "$fs rollback" "$m" setup_applied "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" --yes
    echo "FIGURES $fs: $INJ injections, $INCONS inconsistent states"
    [ $INCONS = 0 ] && ok "$fs: 0 inconsistent states in $INJ kills" || bad "$fs: $INCONS inconsistent states in $INJ kills"
}

case $SECTION in
enospc)
    # No space at every write, sync, rename, allocation and creation of a fresh apply, a resize
    # and a rollback (the state directory full, as issue 16 found): each run stops, says what is
    # left, and rollback brings the machine back.
    command -v strace >/dev/null || skip "strace not installed"
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab; M=$m
    INJECT=error=ENOSPC
    ONLY='write|pwrite64|writev|fsync|fdatasync|fallocate|rename|renameat|renameat2|openat|open|mkdir|mkdirat|ftruncate|linkat|link|swapon'
    setup_none() { return 0; }
    setup_applied() { HA --size 64M --target "$M" --yes >/dev/null 2>&1; }
    kill_each "ENOSPC fresh apply" "$m" setup_none "$H" apply --fstab "$T/fstab" --state-dir "$T/state" --size 64M --target "$m" --yes
    kill_each "ENOSPC resize" "$m" setup_applied "$H" apply --fstab "$T/fstab" --state-dir "$T/state" --size 128M --target "$m" --yes
    kill_each "ENOSPC rollback" "$m" setup_applied "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" --yes
    echo "FIGURES enospc ext4: $INJ injections, $INCONS inconsistent states"
    [ $INCONS = 0 ] && ok "ENOSPC: 0 inconsistent states in $INJ failed calls" || bad "ENOSPC: $INCONS inconsistent states in $INJ failed calls"
    ;;
kill-ext4) kill_section ext4 ;;
kill-btrfs) kill_section btrfs ;;
concurrent)
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    mkdir -p "$m/a" "$m/b"
    for pair in 1 2 3 4 5; do
        HA --size 64M --target "$m/a" --yes >"$T/a.out" 2>&1 & pa=$!
        HA --size 64M --target "$m/b" --yes >"$T/b.out" 2>&1 & pb=$!
        wait $pa; ra=$?; wait $pb; rb=$?
        [ $ra = 0 ] && [ $rb = 0 ] && ok "pair $pair: both exit 0 (one after the other)" || bad "pair $pair: rc $ra / $rb: $(cat "$T/a.out" "$T/b.out" | grep headroom:)"
        lines=$(grep -c 'headroom.swap none swap' "$T/fstab")
        on=$(active | grep -c "^$m/")
        files=$(find "$m/a" "$m/b" -type f | wc -l)
        rec=$(grep -c '"path": "'"$m" "$T/state/apply-state.json")
        one=$(find "$m/a" "$m/b" -type f)
        if [ "$lines" = 1 ] && [ "$on" = 1 ] && [ "$files" = 1 ] && [ "$rec" = 1 ] && is_active "$one" && grep -qF "$one none swap" "$T/fstab"; then
            ok "pair $pair: consistent (one file, on, in fstab, recorded)"
        else
            bad "pair $pair: $lines fstab lines, $on on, $files files, $rec records"
        fi
        HR --yes >/dev/null 2>&1; expect_rc 0 $? "pair $pair: rollback"
        why=$(consistent "$m" | sed 's/files-left:\[a b \]//'); [ -z "$(echo "$why" | tr -d ' ')" ] && ok "pair $pair: back to the start" || bad "pair $pair: after rollback:$why"
    done
    # A second run that cannot wait says who holds the lock.
    exec 8<"$T"; mkdir -p "$T/state"; chmod 700 "$T/state"
    flock -x "$T/state" sleep 60 & holder=$!
    sleep 0.3
    timeout 120 "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" --yes >"$T/l.out" 2>&1; rc=$?
    kill $holder 2>/dev/null; wait $holder 2>/dev/null; rmdir "$T/state" 2>/dev/null
    expect_rc 75 $rc "a run while another holds the lock: busy"
    grep -q "holds its lock" "$T/l.out" && grep -q "process" "$T/l.out" && ok "busy: says who holds the lock: $(cat "$T/l.out")" || bad "busy message: $(cat "$T/l.out")"
    ;;
attacks)
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    foreign() {   # a swap-formatted file that is not headroom's: root's, 0600
        fallocate -l 64M "$1" && chmod 600 "$1" && mkswap -q "$1" >/dev/null
    }
    f="$m/headroom.swap"
    # 1. Repair apply after swapoff, the file replaced by a symlink to another swap file.
    HA --size 64M --target "$m" --yes >/dev/null 2>&1; expect_rc 0 $? "attack 1: apply"
    swapoff "$f"; mv "$f" "$m/moved.swap"; foreign "$m/other.swap"; ln -s "$m/other.swap" "$f"
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; rc=$?
    is_active "$m/other.swap" && bad "attack 1: the symlinked foreign file was turned on" || ok "attack 1: symlink not turned on (rc $rc: $(grep headroom: "$T/o" | head -1))"
    [ $rc != 0 ] && ok "attack 1: apply refuses" || bad "attack 1: apply said ok"
    rm -f "$f"; mv "$m/moved.swap" "$f"
    # 2. The same with a different regular file at the path (root's, 0600, a swap header).
    mv "$f" "$m/moved.swap"; foreign "$f"
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; rc=$?
    is_active "$f" && bad "attack 2: the other regular file was turned on" || ok "attack 2: another file at the path not turned on (rc $rc)"
    grep -q "not the file headroom created" "$T/o" && ok "attack 2: says why" || bad "attack 2: message: $(cat "$T/o")"
    rm -f "$f" "$m/other.swap"; mv "$m/moved.swap" "$f"
    # 3. The file's mode and link count are checked too.
    chmod 644 "$f"; HA --size 64M --target "$m" --yes >"$T/o" 2>&1
    is_active "$f" && bad "attack 3: a 0644 file turned on" || ok "attack 3: mode 0644 refused"
    chmod 600 "$f"; ln "$f" "$m/hardlink"; HA --size 64M --target "$m" --yes >"$T/o" 2>&1
    is_active "$f" && bad "attack 3: a file with two links turned on" || ok "attack 3: two links refused"
    rm -f "$m/hardlink"
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; expect_rc 0 $? "attack 3: the repair turns on our own file"
    is_active "$f" && ok "attack 3: our file on again" || bad "attack 3: repair: $(cat "$T/o")"
    HR --yes >/dev/null 2>&1; expect_rc 0 $? "attacks 1-3: rollback"
    consistent "$m" >/dev/null && ok "attacks 1-3: clean after rollback" || bad "attacks 1-3: $(consistent "$m")"
    # 4. A directory anyone can write (0777, no sticky bit), anywhere up the path.
    mkdir -p "$m/open/sub"; chmod 777 "$m/open"
    HA --size 64M --target "$m/open" --yes >"$T/o" 2>&1; expect_rc 69 $? "attack 4: 0777 target directory refused"
    HA --size 64M --target "$m/open/sub" --yes >"$T/o" 2>&1; expect_rc 69 $? "attack 4: 0777 directory above refused"
    grep -q "writable by users other than root" "$T/o" && ok "attack 4: says why" || bad "attack 4: $(cat "$T/o")"
    mkdir -p "$m/users"; chown 65534 "$m/users"
    HA --size 64M --target "$m/users" --yes >"$T/o" 2>&1; expect_rc 69 $? "attack 4: a directory owned by another user refused"
    [ -z "$(find "$m/open" "$m/users" -type f)" ] && ok "attack 4: nothing created" || bad "attack 4: files made"
    rm -rf "$m/open" "$m/users"
    # 5. A symlinked parent: resolved once, used everywhere (verify agrees, rollback works).
    mkdir "$m/real"; ln -s "$m/real" "$T/link"
    HA --size 64M --target "$T/link/sub.swap" --yes >"$T/o" 2>&1; expect_rc 0 $? "attack 5: apply through a symlinked parent"
    is_active "$m/real/sub.swap" && grep -qF "$m/real/sub.swap none swap" "$T/fstab" && ok "attack 5: the real path in fstab and in use" || bad "attack 5: $(active) / $(tail -1 "$T/fstab")"
    if [ "$(tail -n +2 /proc/swaps | wc -l)" = 1 ]; then HV >"$T/o" 2>&1; expect_rc 0 $? "attack 5: verify agrees"; fi
    HR --yes >"$T/o" 2>&1; expect_rc 0 $? "attack 5: rollback"
    rm -f "$T/link"; rmdir "$m/real"
    consistent "$m" >/dev/null && ok "attack 5: clean after rollback" || bad "attack 5: $(consistent "$m")"
    # 6. A symlinked fstab is refused before step 1.
    mv "$T/fstab" "$T/fstab.real"; ln -s "$T/fstab.real" "$T/fstab"
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; expect_rc 69 $? "attack 6: symlinked fstab refused"
    [ ! -e "$f" ] && ! is_active "$f" && [ ! -e "$T/state/apply-state.json" ] && ok "attack 6: nothing changed" || bad "attack 6: something changed"
    rm -f "$T/fstab"; mv "$T/fstab.real" "$T/fstab"; rm -rf "$T/state"
    # 7. The fstab backup gone: rollback removes exactly its own line.
    HA --size 64M --target "$m" --yes >/dev/null 2>&1; rm -f "$T"/state/fstab.backup-*
    HR --yes >"$T/o" 2>&1; expect_rc 0 $? "attack 7: rollback without the fstab backup"
    consistent "$m" >/dev/null && ok "attack 7: fstab bytes restored by removing our line" || bad "attack 7: $(consistent "$m")"
    # 8. Exit statuses: a missing target directory 66; an oversized state file 65 everywhere.
    HA --size 64M --target "$m/nope/x.swap" --yes >"$T/o" 2>&1; expect_rc 66 $? "attack 8: missing target directory"
    mkdir -p "$T/state"; chmod 700 "$T/state"; head -c 300000 /dev/zero | tr '\0' ' ' > "$T/state/apply-state.json"
    HA --size 64M --target "$m" --yes >/dev/null 2>&1; expect_rc 65 $? "attack 8: oversized state: apply"
    HR --yes >/dev/null 2>&1; expect_rc 65 $? "attack 8: oversized state: rollback"
    HV >/dev/null 2>&1; expect_rc 65 $? "attack 8: oversized state: verify"
    rm -rf "$T/state"
    # 9. A FIFO at proc/<pid>/status does not hang status or check --sysroot.
    src=$(dirname "$0")/../fixtures/linux/btrfs-swapfile
    if [ -d "$src" ]; then
        cp -a "$src" "$T/sysroot"; mkdir -p "$T/sysroot/proc/4242"
        printf 'x' > "$T/sysroot/proc/4242/cmdline"; mkfifo "$T/sysroot/proc/4242/status"
        timeout 20 "$H" status --sysroot "$T/sysroot" >/dev/null 2>&1; rc=$?
        [ $rc != 124 ] && ok "attack 9: status with a FIFO returns (rc $rc)" || bad "attack 9: status hangs on a FIFO"
        timeout 20 "$H" check --sysroot "$T/sysroot" >/dev/null 2>&1; rc=$?
        [ $rc != 124 ] && ok "attack 9: check with a FIFO returns (rc $rc)" || bad "attack 9: check hangs on a FIFO"
    fi
    ;;
*) echo "unknown section $SECTION"; exit 2 ;;
esac
echo "$CHECKS checks: $((CHECKS-FAILS)) passed, $FAILS failed"
[ $FAILS = 0 ]
