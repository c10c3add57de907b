#!/usr/bin/env bash
# Advice in the words of the OS it is for: check, plan and diagnose on a Linux machine or log
# never say Windows-only things (Disk Management, the Set button, sysdm.cpl, pagefile.sys ...),
# and on a recorded Windows machine never Linux-only ones (fstab, swapon, systemd, sudo ...).
# Every recorded machine x every workload; the corpus logs of each OS.
set -u
bin=$1
fx=$2
corpus=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export HEADROOM_COMFYUI_URL=http://127.0.0.1:1
WIN='Disk Management|press Set|Set before OK|sysdm|No paging file|pagefile\.sys|Event Viewer|Windows Logs|Win\+R|\.bat\b'
LNX='systemd|fstab|swapon|sudo |/proc/|overcommit|mkswap|journalctl|swap file|dmesg'
for d in "$fx"/linux/*/; do
    [ -d "$d/proc" ] || continue
    case $(basename "$d") in wsl2) continue ;; esac   # WSL's swap is set from Windows: both are right there
    for w in sdxl flux video; do
        for c in check plan; do
            out=$("$bin" $c --sysroot="$d" --workload $w 2>&1)
            hit=$(grep -E -o ".{0,50}($WIN).{0,20}" <<<"$out" | head -1)
            [ -z "$hit" ] || bad "Linux $(basename "$d") $c --workload $w: Windows advice: $hit"
        done
    done
done
for f in "$fx"/windows/*.json; do
    for w in sdxl flux video; do
        for c in check plan; do
            out=$("$bin" $c --replay="$f" --workload $w 2>&1)
            hit=$(grep -E -o ".{0,50}($LNX).{0,20}" <<<"$out" | head -1)
            [ -z "$hit" ] || bad "Windows $(basename "$f") $c --workload $w: Linux advice: $hit"
        done
    done
done
# diagnose on this (Linux) machine: a Linux log gets Linux advice; a log that says it was
# written on Windows ("** Platform: Windows", error 1455) keeps the Windows advice.
for l in dmesg-global-oom-killer kohya-std-bad-alloc a1111-memoryerror java-heap-reserve-failed \
         invokeai-cpu-allocator-old linux-bare-killed journal-systemd-oomd; do
    [ -f "$corpus/$l.log" ] || { bad "no corpus log $l"; continue; }
    out=$("$bin" diagnose --no-system "$corpus/$l.log" 2>&1)
    hit=$(grep -E -o ".{0,50}($WIN).{0,20}" <<<"$out" | head -1)
    [ -z "$hit" ] || bad "diagnose $l (Linux): Windows advice: $hit"
done
for l in comfy-win-1455-en host-oom-ansi-crlf comfy-defaultcpuallocator; do
    out=$("$bin" diagnose --no-system --json "$corpus/$l.log" 2>&1)
    grep -q "press Set before OK" <<<"$out" || bad "diagnose $l (a Windows log): not the Windows fix"
done
[ $fail -eq 0 ] && echo "OS advice: ok"
exit $fail
