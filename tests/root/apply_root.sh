#!/bin/bash
# headroom apply/verify/rollback for real, as root, on loop-mounted file systems made here.
# usage: apply_root.sh HEADROOM SECTION   (SECTION: ext4 xfs btrfs tmpfs failpoints resize hostile pressure)
# Exits 77 (ctest SKIP) where it cannot run. Never touches /etc/fstab: every call gets
# --fstab and --state-dir inside the test's own temporary directory.
set -u
H=$(readlink -f "$1")
SECTION=$2
export PATH=$PATH:/sbin:/usr/sbin

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (swapon, loop mounts)"
for t in losetup mkswap swapon blkid findmnt; do command -v $t >/dev/null || skip "$t not installed"; done

# The swap list is machine-wide: one root test at a time, across every checkout and ctest
# run on this machine (RESOURCE_LOCK only covers one ctest invocation).
command -v flock >/dev/null || skip "flock not installed (util-linux)"
exec 9>/run/lock/headroom-apply-root-tests.lock || skip "cannot open the test lock"
flock -w 1200 9 || skip "another headroom root test held the lock for 20 minutes"

T=$(mktemp -d /tmp/hr-apply-test.XXXXXX)
MOUNTS=()
cleanup() {
    # Turn off any swap area under our directory, unmount, detach, delete.
    tail -n +2 /proc/swaps | awk '{print $1}' | while read -r p; do
        p=$(printf '%b' "$p")
        case "$p" in "$T"/*) swapoff "$p" 2>/dev/null ;; esac
    done
    for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}"; done
    rm -rf "$T"
}
trap cleanup EXIT

FAILS=0; CHECKS=0
ok()   { CHECKS=$((CHECKS+1)); echo "ok: $*"; }
bad()  { CHECKS=$((CHECKS+1)); FAILS=$((FAILS+1)); echo "FAIL: $*"; }
expect_rc() { local want=$1 got=$2 what=$3; [ "$got" = "$want" ] && ok "$what (rc $got)" || bad "$what: rc $got, want $want"; }

# A swapped-on path as /proc/swaps prints it (octal escapes undone).
active() { tail -n +2 /proc/swaps | awk '{print $1}' | while read -r p; do printf '%b\n' "$p"; done; }
is_active() { active | grep -Fxq -- "$1"; }
prio_of() { tail -n +2 /proc/swaps | while read -r p ty sz us pr; do q=$(printf '%b' "$p"); [ "$q" = "$1" ] && echo "$pr"; done; }

mkimg() {   # mkimg FS SIZE -> mount point on stdout
    local fs=$1 size=$2 img mnt
    img=$(mktemp "$T/$fs.XXXXXX"); mnt="$img.mnt"
    truncate -s "$size" "$img" || return 1
    case $fs in
        ext4) mkfs.ext4 -q -F "$img" ;;
        xfs) mkfs.xfs -q -f "$img" ;;
        btrfs) mkfs.btrfs -q -f "$img" >/dev/null ;;
    esac || return 1
    mkdir -p "$mnt" && mount -o loop "$img" "$mnt" || return 1
    echo "$mnt"
}

# The test fstab: comments, tabs, UUID= entries, no final newline.
make_fstab() {
    printf '# /etc/fstab: static file system information.\n#\n# <fs>\t<mount>\t<type>\t<options>\t<dump>\t<pass>\nUUID=0a3407de-014b-458b-b5c1-848e92a327a3 /               ext4    errors=remount-ro 0       1\n\nLABEL=data\t/mnt/my\\040data\txfs\tdefaults,nofail\t0\t2\n/dev/sr0        /media/cdrom0   udf,iso9660 user,noauto     0       0' > "$T/fstab"
    cp "$T/fstab" "$T/fstab.orig"
}

HA() { "$H" apply --fstab "$T/fstab" --state-dir "$T/state" "$@"; }
HV() { "$H" verify --fstab "$T/fstab" --state-dir "$T/state" "$@"; }
HR() { "$H" rollback --fstab "$T/fstab" --state-dir "$T/state" "$@"; }
PRE_SWAPS=$(tail -n +2 /proc/swaps | wc -l)

# Can this machine swapon a file at all? (containers without CAP_SYS_ADMIN cannot)
probe_swapon() {
    local m; m=$(mkimg ext4 256M) || skip "cannot make and loop-mount an ext4 image here"
    MOUNTS+=("$m")
    fallocate -l 16M "$m/probe" && chmod 600 "$m/probe" && mkswap -q "$m/probe" >/dev/null || skip "mkswap failed"
    swapon "$m/probe" 2>"$T/swapon.err" || skip "swapon of a file is refused here: $(cat "$T/swapon.err")"
    swapoff "$m/probe"; rm -f "$m/probe"
}

full_cycle() {   # full_cycle FS SIZE
    local fs=$1 size=$2
    local m; m=$(mkimg "$fs" 20G) || skip "mkfs.$fs or loop mount unavailable"
    MOUNTS+=("$m")
    make_fstab
    local f="$m/headroom.swap"
    HA --size "$size" --target "$m" >"$T/dry.out"; expect_rc 0 $? "$fs: dry run"
    [ ! -e "$f" ] && cmp -s "$T/fstab" "$T/fstab.orig" && [ ! -e "$T/state" ] && ok "$fs: dry run changed nothing" || bad "$fs: dry run changed something"
    grep -q '\[fstab-add\]' "$T/dry.out" && ok "$fs: dry run lists the steps" || bad "$fs: dry run output"
    HA --size "$size" --target "$m" --yes >"$T/apply.out" 2>&1; expect_rc 0 $? "$fs: apply --yes"
    cat "$T/apply.out"
    is_active "$f" && ok "$fs: swap file is on" || bad "$fs: swap file not in /proc/swaps"
    [ "$(prio_of "$f")" = 10 ] && ok "$fs: priority 10" || bad "$fs: priority $(prio_of "$f")"
    [ "$(stat -c %a "$f")" = 600 ] && ok "$fs: mode 0600" || bad "$fs: mode $(stat -c %a "$f")"
    local want; want=$("$H" --version >/dev/null; numfmt --from=iec "$size")
    [ "$(stat -c %s "$f")" = "$want" ] && ok "$fs: size $size" || bad "$fs: size $(stat -c %s "$f")"
    [ $(( $(stat -c %b "$f") * $(stat -c %B "$f") )) -ge "$want" ] && ok "$fs: fully allocated (no holes)" || bad "$fs: holes"
    blkid -o export "$f" | grep -q '^TYPE=swap$' && blkid -o export "$f" | grep -q '^LABEL=headroom$' && ok "$fs: blkid sees swap, label headroom" || bad "$fs: blkid: $(blkid "$f")"
    swaplabel "$f" | grep -q 'LABEL: headroom' && ok "$fs: swaplabel reads it" || bad "$fs: swaplabel"
    if [ "$fs" = btrfs ]; then lsattr "$f" | cut -d' ' -f1 | grep -q C && ok "btrfs: no-copy-on-write set" || bad "btrfs: NOCOW missing"; fi
    grep -q "^$f none swap defaults,pri=10 0 0\$" "$T/fstab" && ok "$fs: fstab line added" || bad "$fs: fstab line missing"
    head -c "$(stat -c %s "$T/fstab.orig")" "$T/fstab" | cmp -s - "$T/fstab.orig" && ok "$fs: earlier fstab bytes untouched" || bad "$fs: fstab prefix changed"
    findmnt --tab-file "$T/fstab" >/dev/null && ok "$fs: libmount parses the new fstab" || bad "$fs: findmnt cannot parse"
    if [ "$PRE_SWAPS" = 0 ]; then HV >"$T/verify.out"; expect_rc 0 $? "$fs: verify"; cat "$T/verify.out"; fi
    cp "$T/fstab" "$T/fstab.after"; cp "$T/state/apply-state.json" "$T/state.after"
    HA --size "$size" --target "$m" --yes >"$T/again.out"; expect_rc 0 $? "$fs: apply again"
    grep -q "Nothing to do" "$T/again.out" && cmp -s "$T/fstab" "$T/fstab.after" && cmp -s "$T/state/apply-state.json" "$T/state.after" && ok "$fs: second apply changed nothing" || bad "$fs: second apply not idempotent"
    HR --yes >"$T/rb.out"; expect_rc 0 $? "$fs: rollback --yes"
    cmp -s "$T/fstab" "$T/fstab.orig" && ok "$fs: fstab back to its original bytes" || bad "$fs: fstab differs after rollback"
    [ ! -e "$f" ] && ok "$fs: swap file deleted" || bad "$fs: swap file left"
    is_active "$f" && bad "$fs: still on after rollback" || ok "$fs: off after rollback"
    [ ! -e "$T/state" ] && ok "$fs: state removed" || bad "$fs: state dir left: $(ls "$T/state")"
    HR --yes >/dev/null; expect_rc 0 $? "$fs: second rollback is a no-op"
}

# Every swap line of the test fstab names a file that is on (no entry without a working file).
fstab_lines_working() {
    local ok_=1
    while read -r spec rest; do
        case "$spec" in "$T"/*) ;; *) continue ;; esac
        spec=$(printf '%b' "$spec")
        is_active "$spec" || ok_=0
    done < <(awk '$3=="swap"{print $1}' "$T/fstab")
    [ $ok_ = 1 ]
}

case $SECTION in
ext4) probe_swapon; full_cycle ext4 2G ;;
xfs) command -v mkfs.xfs >/dev/null || skip "mkfs.xfs not installed (xfsprogs)"; probe_swapon; full_cycle xfs 256M ;;
btrfs) command -v mkfs.btrfs >/dev/null || skip "mkfs.btrfs not installed (btrfs-progs)"; probe_swapon; full_cycle btrfs 256M ;;
tmpfs)
    mkdir -p "$T/tmpfs" && mount -t tmpfs -o size=30G tmpfs "$T/tmpfs" || skip "cannot mount tmpfs"
    MOUNTS+=("$T/tmpfs"); make_fstab
    HA --size 64M --target "$T/tmpfs" --yes >"$T/out" 2>&1; expect_rc 69 $? "tmpfs: refused"
    grep -q "RAM" "$T/out" && ok "tmpfs: says why" || bad "tmpfs: message: $(cat "$T/out")"
    [ -z "$(ls -A "$T/tmpfs")" ] && cmp -s "$T/fstab" "$T/fstab.orig" && ok "tmpfs: nothing created" || bad "tmpfs: something was created"
    ;;
failpoints)
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    # The user's own swap, on before headroom: it must stay on through everything.
    fallocate -l 32M "$m/user.swap"; chmod 600 "$m/user.swap"; mkswap -q "$m/user.swap" >/dev/null; swapon -p 1 "$m/user.swap"
    printf '\n%s none swap sw,pri=1 0 0' "$m/user.swap" >> "$T/fstab"; cp "$T/fstab" "$T/fstab.orig"
    f="$m/headroom.swap"
    for step in record create-file allocate write-header swapon fstab-add finish; do
        HR_FAILPOINT=$step HA --size 64M --target "$m" --yes >"$T/fp.out" 2>&1; rc=$?
        expect_rc 75 $rc "failpoint $step: stopped"
        findmnt --tab-file "$T/fstab" >/dev/null && ok "failpoint $step: fstab parses" || bad "failpoint $step: fstab broken"
        fstab_lines_working && ok "failpoint $step: every swap line has a working file" || bad "failpoint $step: an fstab line without a working file"
        if is_active "$f"; then
            case $step in swapon|fstab-add|finish) ok "failpoint $step: on only after the header" ;; *) bad "failpoint $step: half-made file is on" ;; esac
            blkid -o export "$f" | grep -q '^TYPE=swap$' && ok "failpoint $step: the enabled file is a complete swap area" || bad "failpoint $step: enabled file has no header"
        fi
        is_active "$m/user.swap" && ok "failpoint $step: the user's swap is still on" || bad "failpoint $step: user swap off"
        if [ "$step" != finish ]; then
            HA --size 64M --target "$m" --yes >"$T/fp2.out" 2>&1; expect_rc 69 $? "failpoint $step: a new apply refuses until rollback"
        fi
        HR --yes >"$T/fprb.out" 2>&1; expect_rc 0 $? "failpoint $step: rollback"
        cmp -s "$T/fstab" "$T/fstab.orig" && ok "failpoint $step: fstab back to original bytes" || { bad "failpoint $step: fstab differs"; diff "$T/fstab" "$T/fstab.orig"; }
        [ ! -e "$f" ] && ! is_active "$f" && ok "failpoint $step: headroom's file gone" || bad "failpoint $step: file left"
        is_active "$m/user.swap" && [ -e "$m/user.swap" ] && ok "failpoint $step: user's swap untouched" || bad "failpoint $step: user's swap touched"
    done
    ;;
resize)
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    HA --size 64M --target "$m" --yes >/dev/null; expect_rc 0 $? "resize: first apply 64M"
    for step in swapon fstab-add fstab-remove-old swapoff-old delete-old; do
        before=$(awk 'NR>1{s+=$3}END{print s+0}' /proc/swaps)
        HR_FAILPOINT=$step HA --size 128M --target "$m" --yes >"$T/rs.out" 2>&1; expect_rc 75 $? "resize failpoint $step: stopped"
        now=$(awk 'NR>1{s+=$3}END{print s+0}' /proc/swaps)
        [ "$now" -ge "$before" ] && ok "resize failpoint $step: swap never less than before ($before -> $now KiB)" || bad "resize $step: swap went down $before -> $now"
        findmnt --tab-file "$T/fstab" >/dev/null && fstab_lines_working && ok "resize failpoint $step: fstab consistent" || bad "resize $step: fstab inconsistent"
        HR --yes >/dev/null 2>&1; expect_rc 0 $? "resize failpoint $step: rollback"
        cmp -s "$T/fstab" "$T/fstab.orig" && ok "resize failpoint $step: fstab original bytes" || bad "resize $step: fstab differs"
        [ -z "$(ls "$m" | grep -v lost+found)" ] && ok "resize failpoint $step: no file left" || bad "resize $step: left $(ls "$m")"
        HA --size 64M --target "$m" --yes >/dev/null; expect_rc 0 $? "resize: re-apply 64M"
    done
    HA --size 128M --target "$m" --yes >/dev/null; expect_rc 0 $? "resize: to 128M"
    is_active "$m/headroom-2.swap" && ! is_active "$m/headroom.swap" && [ ! -e "$m/headroom.swap" ] && ok "resize: new file on, old one gone" || bad "resize: wrong files: $(active)"
    if [ "$PRE_SWAPS" = 0 ]; then HV >/dev/null; expect_rc 0 $? "resize: verify"; fi
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; expect_rc 69 $? "resize: shrinking refused without --allow-shrink"
    grep -q "remove 64" "$T/o" && grep -q -- --allow-shrink "$T/o" && ok "resize: says how much would go" || bad "resize shrink message: $(cat "$T/o")"
    HA --size 64M --target "$m" --allow-shrink --yes >/dev/null; expect_rc 0 $? "resize: back to 64M with --allow-shrink"
    is_active "$m/headroom.swap" && [ ! -e "$m/headroom-2.swap" ] && ok "resize: back at the plain name" || bad "resize back: $(active)"
    HR --yes >/dev/null; expect_rc 0 $? "resize: rollback"
    cmp -s "$T/fstab" "$T/fstab.orig" && ok "resize: fstab original bytes" || bad "resize: fstab differs"
    # fstab edited by hand between two applies (headroom's line and an admin's new line):
    # the later apply says so, and rollback keeps the edits instead of restoring the
    # bytes from before headroom.
    HA --size 64M --target "$m" --yes >/dev/null; expect_rc 0 $? "hand edit: apply 64M"
    sed -i 's#headroom.swap none swap defaults,pri=\([0-9]*\)#headroom.swap none swap defaults,pri=\1,discard#' "$T/fstab"
    printf '/dev/sdz8 /srv2 ext4 defaults 0 2\n' >> "$T/fstab"
    HA --size 128M --target "$m" --yes >"$T/o" 2>&1; expect_rc 0 $? "hand edit: apply 128M"
    grep -q "changed by hand" "$T/o" && grep -q "discard" "$T/o" && ok "hand edit: apply says so, naming the line" \
        || bad "hand edit: apply is silent: $(cat "$T/o")"
    grep -q "resized by hand" "$T/o" && bad "hand edit: a resize by hand said where there was none: $(cat "$T/o")" \
        || ok "hand edit: no resize by hand said for the file as headroom made it"
    HR --yes >"$T/o" 2>&1; expect_rc 0 $? "hand edit: rollback"
    grep -q "keep those edits" "$T/o" && ok "hand edit: rollback says it keeps the edits" || bad "hand edit: rollback: $(cat "$T/o")"
    grep -q '/dev/sdz8 /srv2' "$T/fstab" && ! grep -q 'headroom' "$T/fstab" && ok "hand edit: the admin's line kept, headroom's gone" \
        || bad "hand edit: fstab after rollback: $(cat "$T/fstab")"
    [ -z "$(ls "$m" | grep -v lost+found)" ] && ok "hand edit: no file left" || bad "hand edit: left $(ls "$m")"
    ;;
hostile)
    probe_swapon
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    # A symlink as target (to a file that does not exist yet, and to a directory).
    ln -s "$m/victim" "$m/link"
    HA --size 64M --target "$m/link" --yes >"$T/o" 2>&1; expect_rc 69 $? "symlink target refused"
    grep -q "symbolic link" "$T/o" && [ ! -e "$m/victim" ] && ok "symlink: not followed" || bad "symlink: $(cat "$T/o")"
    mkdir "$m/realdir"; ln -s "$m/realdir" "$m/dirlink"
    HA --size 64M --target "$m/dirlink" --yes >"$T/o" 2>&1; expect_rc 69 $? "symlinked directory refused"
    # An existing file: never overwritten, never deleted.
    printf 'precious' > "$m/existing"
    HA --size 64M --target "$m/existing" --yes >"$T/o" 2>&1; expect_rc 69 $? "existing file refused"
    [ "$(cat "$m/existing")" = precious ] && ok "existing file untouched" || bad "existing file changed"
    # A directory already holding a headroom.swap that headroom did not create.
    mkdir "$m/has"; printf 'x' > "$m/has/headroom.swap"
    HA --size 64M --target "$m/has" --yes >"$T/o" 2>&1; expect_rc 69 $? "foreign headroom.swap refused"
    # Spaces and non-ASCII in the path.
    d="$m/my dir 数据"; mkdir "$d"
    HA --size 64M --target "$d" --yes >"$T/o" 2>&1; expect_rc 0 $? "path with spaces and non-ASCII: apply"
    is_active "$d/headroom.swap" && ok "non-ASCII path: on" || bad "non-ASCII path: not on: $(active)"
    grep -qF 'my\040dir\040数据/headroom.swap none swap' "$T/fstab" && ok "non-ASCII path: escaped in fstab" || bad "fstab: $(tail -1 "$T/fstab")"
    findmnt --tab-file "$T/fstab" -n -o SOURCE | grep -qxF "$d/headroom.swap" && ok "libmount decodes our escaped path" || bad "libmount decode"
    if [ "$PRE_SWAPS" = 0 ]; then HV >"$T/o"; expect_rc 0 $? "non-ASCII path: verify"; fi
    # Someone edits fstab after apply: rollback removes only our lines.
    printf '\n# added later by the admin\n/dev/sdz9 /srv ext4 defaults 0 2\n' >> "$T/fstab"
    HR --yes >"$T/o" 2>&1; expect_rc 0 $? "rollback after a foreign fstab edit"
    grep -q '/dev/sdz9 /srv' "$T/fstab" && ! grep -q headroom.swap "$T/fstab" && ok "foreign edit kept, our line gone" || bad "foreign edit: $(cat "$T/fstab")"
    [ ! -e "$d/headroom.swap" ] && ok "non-ASCII path: file deleted" || bad "non-ASCII path: file left"
    # A malformed fstab: refused before anything changes.
    printf 'garbage line\n' > "$T/fstab"
    HA --size 64M --target "$m" --yes >"$T/o" 2>&1; expect_rc 65 $? "malformed fstab refused"
    grep -q "line 1" "$T/o" && [ ! -e "$m/headroom.swap" ] && ok "malformed fstab: names the line, nothing created" || bad "malformed: $(cat "$T/o")"
    # Not enough room (1 GiB volume: the 10 GiB margin cannot hold).
    make_fstab; s=$(mkimg xfs 1G 2>/dev/null || mkimg ext4 1G); MOUNTS+=("$s")
    HA --size 64M --target "$s" --yes >"$T/o" 2>&1; expect_rc 69 $? "small volume refused (margin)"
    grep -q "must stay free" "$T/o" && ok "margin: says why" || bad "margin: $(cat "$T/o")"
    ;;
pressure)
    # Rollback while a memory cgroup at its limit has pages in headroom's swap: swapoff cannot
    # take them back (ENOMEM) until the kernel kills that process; rollback must wait and retry,
    # not leave the journal half-done.
    probe_swapon
    if [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
        cg=/sys/fs/cgroup/memory/hr-test-pressure-$$; limit=memory.limit_in_bytes
    elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
        cg=/sys/fs/cgroup/hr-test-pressure-$$; limit=memory.max
    else
        skip "no memory cgroup controller"
    fi
    [ "$PRE_SWAPS" = 0 ] || skip "other swap is on: the cgroup's pages might not land in ours"
    m=$(mkimg ext4 20G) || skip "no ext4 image"; MOUNTS+=("$m"); make_fstab
    f="$m/headroom.swap"
    HA --size 256M --target "$m" --yes >"$T/o" 2>&1; expect_rc 0 $? "pressure: apply"
    mkdir "$cg" || skip "cannot create $cg"
    echo 64M > "$cg/$limit"
    ( echo $BASHPID > "$cg/cgroup.procs"; exec python3 -c '
import time
a = bytearray(150 << 20)
for i in range(0, len(a), 4096): a[i] = 1
time.sleep(60)' ) &
    hog=$!
    used=0
    for _ in $(seq 100); do
        used=$(tail -n +2 /proc/swaps | while read -r p ty sz us pr; do [ "$(printf '%b' "$p")" = "$f" ] && echo "$us"; done)
        [ "${used:-0}" -gt 50000 ] && break
        sleep 0.1
    done
    [ "${used:-0}" -gt 50000 ] && ok "pressure: the cgroup's pages are in our swap (${used} KiB)" || bad "pressure: swap used only ${used:-0} KiB"
    HR --yes >"$T/o" 2>&1; expect_rc 0 $? "pressure: rollback --yes"
    is_active "$f" && bad "pressure: still on" || ok "pressure: off after rollback"
    [ ! -e "$f" ] && [ ! -e "$T/state" ] && cmp -s "$T/fstab" "$T/fstab.orig" && ok "pressure: file, state and fstab line gone" || bad "pressure: left: $(ls "$m" "$T/state" 2>&1)"
    kill $hog 2>/dev/null; wait $hog 2>/dev/null
    rmdir "$cg" 2>/dev/null || bad "pressure: cannot remove $cg"
    ;;
*) echo "unknown section $SECTION"; exit 2 ;;
esac
echo "$CHECKS checks: $((CHECKS-FAILS)) passed, $FAILS failed"
[ $FAILS = 0 ]
