#!/usr/bin/env bash
# Record the /proc and /sys files that `headroom status` reads into a small tree, so that
# `headroom status --sysroot TREE` replays this machine anywhere (bug reports, test fixtures).
#
#   tools/record-linux-sysroot.sh OUTDIR
#
# Only the files that matter are copied (a few hundred KiB at most): meminfo, swaps,
# mountinfo, /etc/fstab, cgroup membership, overcommit settings, kernel release, block-device facts
# (dev, removable, queue/rotational, partition, dm/uuid, dm/name, slaves), zram and zswap,
# the memory controller's files along this process's cgroup path, DRM cards, power supplies.
# Symlinks (/sys/dev/block/*, /sys/class/block/*, /sys/block/*, ...) are recorded as
# relative links inside the tree, so the tree can be moved. Free space cannot be read from
# a copy, so statvfs answers for every mounted file system are written to
# OUTDIR/.headroom/statvfs as "<total bytes> <available bytes> <used bytes> <mount point>" lines, and
# the page size to OUTDIR/.headroom/page_size.
#
# Run it as the user whose view you want: /proc/self is the recorder's own process, in the
# same namespaces (container, cgroup) as the shell that runs it. Nothing outside OUTDIR is
# changed. Review the tree before sharing it: it contains mount points and cgroup paths.
set -euo pipefail

if [ $# -ne 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 64
fi
OUT=$1
SRC=${HR_RECORD_SOURCE:-}   # for testing the recorder itself: a tree to record from
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
    echo "record-linux-sysroot: $OUT exists and is not empty" >&2
    exit 65
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Copy one file's content (with cat: /proc and /sys files report size 0).
copy_file() {
    local p=$1
    [ -f "$SRC$p" ] && [ -r "$SRC$p" ] || return 0
    [ -e "$OUT$p" ] && return 0
    mkdir -p "$OUT$(dirname "$p")"
    cat "$SRC$p" >"$OUT$p" 2>/dev/null || rm -f "$OUT$p"
}

# Record a symlink as a relative link to the same place inside the tree, and return (echo)
# the canonical path of its target.
copy_link() {
    local p=$1 target rel
    [ -L "$SRC$p" ] || return 1
    target=$(readlink -f "$SRC$p") || return 1
    target=${target#"$SRC"}
    mkdir -p "$OUT$(dirname "$p")" "$OUT$target"
    rel=$(realpath -m --relative-to="$(dirname "$p")" "$target")
    [ -L "$OUT$p" ] || ln -s "$rel" "$OUT$p"
    echo "$target"
}

# The attributes of one block device directory (a disk, a partition or a dm device).
block_attrs() {
    local d=$1 f s
    for f in dev removable partition size queue/rotational dm/uuid dm/name disksize comp_algorithm mm_stat; do
        copy_file "$d/$f"
    done
    if [ -d "$SRC$d/slaves" ]; then
        mkdir -p "$OUT$d/slaves"
        for s in "$SRC$d"/slaves/*; do
            [ -L "$s" ] || continue
            copy_link "$d/slaves/$(basename "$s")" >/dev/null || true
        done
    fi
}

echo "recording into $OUT" >&2

# /proc: memory, swap, mounts, cgroups, overcommit, kernel. /proc/self is `cat` itself.
for p in /proc/meminfo /proc/swaps /proc/self/mountinfo /proc/self/cgroup /proc/1/cgroup \
         /proc/sys/vm/overcommit_memory /proc/sys/vm/overcommit_ratio /proc/sys/vm/overcommit_kbytes \
         /proc/sys/kernel/ostype /proc/sys/kernel/osrelease; do
    copy_file "$p"
done
# The swap /etc/fstab configures: what a restart or `swapon -a` switches on (paging_config).
copy_file /etc/fstab

# Block devices: every name in /sys/class/block, every number in /sys/dev/block, /sys/block.
for l in "$SRC"/sys/class/block/* "$SRC"/sys/dev/block/* "$SRC"/sys/block/*; do
    [ -L "$l" ] || continue
    p=${l#"$SRC"}
    real=$(copy_link "$p") || continue
    block_attrs "$real"
    # A partition's disk holds queue/rotational and removable.
    if [ -f "$SRC$real/partition" ]; then
        block_attrs "$(dirname "$real")"
    fi
done

# btrfs: the devices each file system spans (a swap file needs a single one).
for l in "$SRC"/sys/fs/btrfs/*/devices/*; do
    [ -L "$l" ] || continue
    real=$(copy_link "${l#"$SRC"}") || continue
    block_attrs "$real"
done

# zswap parameters (and /sys/module itself: without zswap in it, the kernel has none).
[ -d "$SRC/sys/module" ] && mkdir -p "$OUT/sys/module"
[ -d "$SRC/sys/block" ] && mkdir -p "$OUT/sys/block"   # an empty /sys/block still says "no zram"
for f in "$SRC"/sys/module/zswap/parameters/*; do
    [ -f "$f" ] && copy_file "${f#"$SRC"}"
done

# The memory controller's files along this process's cgroup path, for every cgroup mount
# (v1 with the memory option, and cgroup2), up to the mount root.
unescape() { printf '%b' "$(printf '%s' "$1" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')"; }
while read -r _id _parent _dev root mnt _opts rest; do
    # Optional fields end at a lone "-"; then fstype, source, super options.
    tail=$(printf ' %s\n' "$rest" | sed 's/.* - //')
    fstype=$(printf '%s\n' "$tail" | cut -d' ' -f1)
    super=$(printf '%s\n' "$tail" | cut -d' ' -f3)
    path=""
    case "$fstype" in
    cgroup2) path=$(sed -n 's/^0::\(.*\)$/\1/p' "$SRC/proc/self/cgroup" | head -n1) ;;
    cgroup)
        case ",$super," in *,memory,*) ;; *) continue ;; esac
        path=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") { sub(/^[^:]*:[^:]*:/, ""); print; exit } }' "$SRC/proc/self/cgroup")
        ;;
    *) continue ;;
    esac
    [ -n "$path" ] || continue
    mnt=$(unescape "$mnt")
    root=$(unescape "$root")
    rel=$path
    if [ "$root" != "/" ] && [ "${rel#"$root"}" != "$rel" ]; then rel=${rel#"$root"}; fi
    while :; do
        dir=$mnt${rel%/}
        [ "$rel" = "/" ] && dir=$mnt
        for f in memory.max memory.high memory.swap.max memory.current memory.peak memory.events \
                 memory.limit_in_bytes memory.memsw.limit_in_bytes memory.usage_in_bytes \
                 memory.max_usage_in_bytes memory.oom_control cgroup.controllers; do
            copy_file "$dir/$f"
        done
        mkdir -p "$OUT$dir"
        [ "$rel" = "/" ] && break
        rel=$(dirname "$rel")
    done
done <"$SRC/proc/self/mountinfo"

# GPUs (DRM cards, not connectors) and power supplies.
for c in "$SRC"/sys/class/drm/card*; do
    case "$(basename "$c")" in card*[!0-9]*) continue ;; esac
    real=$(copy_link "${c#"$SRC"}") || continue
    dev=$(copy_link "$real/device") || continue
    for f in vendor device product_name mem_info_vram_total mem_info_vram_used mem_info_gtt_total mem_info_gtt_used; do
        copy_file "$dev/$f"
    done
done
for s in "$SRC"/sys/class/power_supply/*; do
    real=$(copy_link "${s#"$SRC"}") || continue
    for f in type online status capacity scope; do
        copy_file "$real/$f"
    done
done
[ -d "$SRC/sys/class/power_supply" ] && mkdir -p "$OUT/sys/class/power_supply"
copy_file /sys/firmware/acpi/platform_profile

# Container markers.
for m in /.dockerenv /run/.containerenv; do
    if [ -e "$SRC$m" ]; then mkdir -p "$OUT$(dirname "$m")"; : >"$OUT$m"; fi
done

# Free space of every mounted file system, as statvfs reports it now, and the page size.
mkdir -p "$OUT/.headroom"
if [ -z "$SRC" ]; then
    getconf PAGESIZE >"$OUT/.headroom/page_size"
elif [ -f "$SRC/.headroom/page_size" ]; then
    cat "$SRC/.headroom/page_size" >"$OUT/.headroom/page_size"
fi
: >"$OUT/.headroom/statvfs"
while read -r _id _parent _dev _root mnt _rest; do
    mnt=$(unescape "$mnt")
    if [ -z "$SRC" ] && v=$(stat -f -c '%b %a %f %S' -- "$mnt" 2>/dev/null); then
        read -r blocks avail free frsize <<<"$v"
        # the third number is df's Used (blocks - free), so root's reserve is not counted used
        echo "$((blocks * frsize)) $((avail * frsize)) $(((blocks - free) * frsize)) $mnt" >>"$OUT/.headroom/statvfs"
    elif [ -n "$SRC" ] && [ -f "$SRC/.headroom/statvfs" ]; then
        grep -F " $mnt" "$SRC/.headroom/statvfs" | awk -v m="$mnt" '{ l = $0; sub(/^[0-9]+ [0-9]+ ([0-9]+ )?/, "", l); if (l == m) print }' >>"$OUT/.headroom/statvfs" || true
    fi
done <"$SRC/proc/self/mountinfo"
# Sizes of the swap files /etc/fstab names, which a copy of /etc cannot tell:
# "<bytes> <path>" lines in OUTDIR/.headroom/stat.
: >"$OUT/.headroom/stat"
if [ -f "$OUT/etc/fstab" ]; then
    while read -r spec _mnt type _rest; do
        case $spec in /*) ;; *) continue ;; esac
        [ "$type" = swap ] || continue
        spec=$(unescape "$spec")
        if [ -z "$SRC" ]; then
            sz=$(stat -c '%s' -- "$spec" 2>/dev/null) && echo "$sz $spec" >>"$OUT/.headroom/stat"
        elif [ -f "$SRC/.headroom/stat" ]; then
            awk -v p="$spec" '{ l = $0; sub(/^[0-9]+ /, "", l); if (l == p) print }' \
                "$SRC/.headroom/stat" >>"$OUT/.headroom/stat" || true
        fi
    done <"$OUT/etc/fstab"
fi
[ -s "$OUT/.headroom/stat" ] || rm -f "$OUT/.headroom/stat"

# Bind mounts repeat mount points: keep the first answer for each.
awk '!seen[$0]++' "$OUT/.headroom/statvfs" >"$OUT/.headroom/statvfs.tmp"
mv "$OUT/.headroom/statvfs.tmp" "$OUT/.headroom/statvfs"

# Git keeps no empty directories, and an empty one can matter (no power supplies, no dm
# slaves): mark each with a dot file, which every directory scan of headroom skips.
find "$OUT" -type d -empty -exec touch {}/.keep \;

echo "done: $(find "$OUT" -type f | wc -l) files, $(find "$OUT" -type l | wc -l) links" >&2
