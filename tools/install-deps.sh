#!/usr/bin/env bash
# Install what headroom's build and tests need on Debian 12 (run as root). Installs only
# what is missing, so it is quick the second time.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
want=(build-essential cmake ninja-build python3 gettext)
if [ "${1:-}" = "--tests" ]; then
  want+=(clang clang-format libclang-rt-14-dev mingw-w64 wine wine64 util-linux procps chromium fonts-noto-cjk
         e2fsprogs xfsprogs btrfs-progs kmod strace bc time prometheus
         dpkg-dev man-db zsh unzip lintian systemd   # the packages' checks (tests/package*.sh)
         valgrind earlyoom)   # bench/watch.sh: callgrind counts, the earlyoom peer
fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ "${1:-}" = "--tests" ]; then
  # tests/comfyui/peer.js: a local ComfyUI peer on Node.js and the ws package (npm), for the
  # watch --comfyui / --protect tests. Node may come from Debian (nodejs + npm) or be there
  # already with its own npm.
  node_missing=()
  command -v node >/dev/null 2>&1 || node_missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || node_missing+=(npm)
  if [ "${#node_missing[@]}" -gt 0 ]; then
    echo "installing: ${node_missing[*]}"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${node_missing[@]}"
  fi
  peer_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/comfyui"
  if ! (cd "$peer_dir" && node -e "require('ws')" 2>/dev/null); then
    echo "installing: ws (npm) into tests/comfyui/node_modules"
    (cd "$peer_dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
