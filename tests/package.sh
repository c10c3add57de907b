#!/usr/bin/env bash
# The packages people install. deb (root): cpack builds the .deb from this build, lintian finds
# no error and no warning in it, dpkg -i installs it, the installed headroom answers --version,
# man -w finds headroom(1) (English and Chinese), the bash completion completes, the copyright
# file is machine-readable (DEP-5) and the changelog Debian's, the systemd units are installed
# but not enabled and pass systemd-analyze verify; dpkg -r removes every file again. zip: the
# Windows zip holds headroom.exe, the readme (UTF-8 with a BOM, CRLF) and LICENSE.txt, and the
# .exe runs (Wine).
# Usage: package.sh deb BUILD_DIR VERSION | package.sh zip BUILD_DIR VERSION [EMULATOR]
set -u
mode=$1
build=$2
version=$3
emu=${4:-}
fails=0
tmp=$(mktemp -d)
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }
finish() { [ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"; [ "$fails" -eq 0 ]; exit; }

if [ "$mode" = zip ]; then
    trap 'rm -rf "$tmp"' EXIT
    (cd "$build" && cpack -G ZIP -B "$tmp/out" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; bad "cpack -G ZIP"; finish; }
    zip=$tmp/out/headroom-$version-win64.zip
    [ -f "$zip" ] && ok "zip: $(basename "$zip")" || { bad "no $zip"; ls "$tmp/out"; finish; }
    command -v unzip >/dev/null || { echo "SKIP: unzip not installed"; exit 77; }
    (cd "$tmp" && unzip -q "$zip")
    d=$tmp/headroom-$version-win64
    [ -f "$d/headroom.exe" ] && ok "zip: headroom.exe" || bad "zip: no headroom.exe"
    [ "$(ls "$d" | LC_ALL=C sort | tr '\n' ' ')" = "LICENSE.txt README.txt headroom.exe " ] && ok "zip: nothing else" ||
        bad "zip: holds $(ls "$d")"
    grep -q '^MIT License' "$d/LICENSE.txt" && grep -q 'The headroom authors' "$d/LICENSE.txt" && ok "zip: LICENSE.txt (MIT)" ||
        bad "zip: LICENSE.txt is not the MIT licence"
    head -c 3 "$d/README.txt" | od -An -tx1 | grep -q 'ef bb bf' && ok "readme: UTF-8 BOM" || bad "readme: no BOM"
    grep -q $'\r$' "$d/README.txt" && ! grep -q $'[^\r]$' "$d/README.txt" && ok "readme: CRLF" || bad "readme: not CRLF"
    grep -q '页面文件' "$d/README.txt" && grep -q 'paging file' "$d/README.txt" && ok "readme: Chinese and English" ||
        bad "readme: not both languages"
    # Every command the readme shows runs as written in PowerShell too, which finds no program
    # in the current folder without .\ (cmd does: .\ works in both).
    bare=$(tr -d '\r' <"$d/README.txt" | grep -E '^ +headroom\.exe' || true)
    [ -z "$bare" ] && tr -d '\r' <"$d/README.txt" | grep -qE '^ +\.\\headroom\.exe' &&
        ok "readme: commands written .\\headroom.exe (PowerShell and cmd)" ||
        bad "readme: a command PowerShell would not find: $bare"
    if [ -n "$emu" ]; then
        got=$(cd "$d" && WINEDEBUG=-all $emu cmd /c '.\headroom.exe --version' 2>/dev/null | tr -d '\r')
        [ "$got" = "headroom $version" ] && ok "cmd: .\\headroom.exe --version as the readme writes it" ||
            bad "cmd: .\\headroom.exe --version: '$got'"
        got=$(WINEDEBUG=-all $emu "$d/headroom.exe" --version 2>/dev/null | tr -d '\r')
        [ "$got" = "headroom $version" ] && ok "headroom.exe --version: $got" || bad "headroom.exe --version: '$got'"
        # Every command the readme shows, as written (up to the two spaces before what it does),
        # run by cmd in the zip's folder: found, and not refused as a usage error (64) or a
        # missing file. The log it names is there; `status > 结果.txt` writes its file. And the
        # form the readme gives cmd users, headroom.exe without .\ in front.
        printf 'RuntimeError: CUDA error: out of memory\n' >"$d/日志.txt"
        cp "$d/日志.txt" "$d/log.txt"
        tr -d '\r' <"$d/README.txt" | grep -E '^ +\.\\headroom\.exe' | sed -E 's/^ +//; s/  +.*$//' | sort -u >"$tmp/cmds"
        [ "$(wc -l <"$tmp/cmds")" -ge 8 ] || bad "readme: only $(wc -l <"$tmp/cmds") commands found"
        while IFS= read -r line; do
            (cd "$d" && WINEDEBUG=-all HEADROOM_NO_PAUSE=1 LC_ALL=C.UTF-8 $emu cmd /c "$line" >"$tmp/cmd.out" 2>&1)
            rc=$?
            [ "$rc" -le 3 ] && ok "cmd: $line (exit $rc)" || bad "cmd: $line: exit $rc: $(head -c 200 "$tmp/cmd.out")"
        done <"$tmp/cmds"
        line=$(tr -d '\r' <"$d/README.txt" | grep -oE '\.\\headroom\.exe status > [^ ]+\.txt' | head -1)
        (cd "$d" && WINEDEBUG=-all LC_ALL=C.UTF-8 $emu cmd /c "$line" >/dev/null 2>&1)
        out=${line##*> }
        [ -s "$d/$out" ] && ok "cmd: $line" || bad "cmd: $line: no $out written"
        got=$(cd "$d" && WINEDEBUG=-all $emu cmd /c 'headroom.exe --version' 2>/dev/null | tr -d '\r')
        [ "$got" = "headroom $version" ] && ok "cmd: headroom.exe --version, as cmd users may write it" ||
            bad "cmd: headroom.exe --version: '$got'"
    fi
    finish
fi

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (dpkg -i)"; exit 77; }
command -v dpkg >/dev/null && command -v cpack >/dev/null || { echo "SKIP: not a Debian system"; exit 77; }
if dpkg-query -W -f='${Status}' headroom 2>/dev/null | grep -q "install ok installed"; then
    echo "SKIP: a headroom package is installed already; not touching it"; exit 77
fi
trap 'dpkg -r headroom >/dev/null 2>&1; rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; bad "cpack -G DEB"; finish; }
deb=$tmp/out/headroom_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] && ok "deb: $(basename "$deb")" || { bad "no $deb"; ls "$tmp/out"; finish; }
dpkg-deb -f "$deb" Depends | grep -q libc6 && ok "deb: depends on libc6 (shlibdeps)" || bad "deb: no libc6 dependency"
# lintian: Debian's checks (changelog, copyright, man page, maintainer, modes, md5sums ...);
# informational tags (I:) are allowed, errors and warnings are not
if command -v lintian >/dev/null; then
    lintian --tag-display-limit 0 "$deb" >"$tmp/lintian.log" 2>&1
    if grep -Eq '^[EW]: ' "$tmp/lintian.log"; then bad "lintian:"; grep -E '^[EW]: ' "$tmp/lintian.log"
    else ok "lintian: no error, no warning"; fi
else
    bad "lintian is not installed (tools/install-deps.sh --tests)"
fi
if dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1; then ok "dpkg -i"; else bad "dpkg -i"; cat "$tmp/dpkg.log"; finish; fi
got=$(/usr/bin/headroom --version)
[ "$got" = "headroom $version" ] && ok "installed: $got" || bad "installed --version: '$got'"
m=$(man -w headroom 2>&1)
[ "$m" = /usr/share/man/man1/headroom.1.gz ] && ok "man -w headroom: $m" || bad "man -w headroom: '$m'"
m=$(man -w -L zh_CN headroom 2>/dev/null)
[ "$m" = /usr/share/man/zh_CN/man1/headroom.1.gz ] && ok "man -w -L zh_CN: $m" || bad "man -w -L zh_CN: '$m'"
MANWIDTH=80 man headroom 2>/dev/null | grep -q 'headroom export' && ok "man headroom: the commands" || bad "man headroom: empty"
got=$(bash -c 'source /usr/share/bash-completion/completions/headroom; COMP_WORDS=(headroom stress --to); COMP_CWORD=2; _headroom; echo "${COMPREPLY[*]}"')
[ "$got" = "--touch" ] && ok "bash completion installed" || bad "bash completion: '$got'"
[ -f /usr/share/zsh/vendor-completions/_headroom ] && ok "zsh completion installed" || bad "no zsh completion"
doc=/usr/share/doc/headroom
[ "$(head -1 $doc/copyright)" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] &&
    grep -q '^Files: \*$' $doc/copyright && grep -q '^License: Expat$' $doc/copyright &&
    ok "copyright: machine-readable (DEP-5), Expat (MIT)" || bad "copyright: not DEP-5 with the licence"
zcat $doc/changelog.gz >"$tmp/changelog"
got=$(dpkg-parsechangelog -l "$tmp/changelog" -S Version 2>&1)
[ "$got" = "$version" ] && ok "changelog.gz: Debian's format, version $got" || bad "changelog.gz: '$got'"
units="headroom-watch.service headroom-export.service headroom-export.timer"
for u in $units; do [ -f /lib/systemd/system/$u ] || bad "no /lib/systemd/system/$u"; done
ls /etc/systemd/system/*/headroom-* >/dev/null 2>&1 && bad "a unit is enabled by the package" ||
    ok "units installed, not enabled"
if command -v systemd-analyze >/dev/null; then
    out=$(cd /lib/systemd/system && systemd-analyze verify $units 2>&1)
    [ -z "$out" ] && ok "systemd-analyze verify: the installed units" || bad "systemd-analyze verify: $out"
else
    bad "systemd-analyze is not installed"
fi
if dpkg -r headroom >"$tmp/dpkg.log" 2>&1; then ok "dpkg -r"; else bad "dpkg -r"; cat "$tmp/dpkg.log"; fi
left=""
for f in /usr/bin/headroom /usr/share/man/man1/headroom.1.gz /usr/share/bash-completion/completions/headroom \
         /usr/share/zsh/vendor-completions/_headroom /lib/systemd/system/headroom-watch.service \
         /usr/share/headroom $doc; do [ -e "$f" ] && left="$left $f"; done
[ -z "$left" ] && ok "removed: nothing left" || bad "left after dpkg -r:$left"
finish
