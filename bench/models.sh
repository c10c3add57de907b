#!/usr/bin/env bash
# headroom models over 2,000 model files vs what users' scripts do: python3 reading each
# safetensors header (open, read 8 bytes, read the header, json.loads) in the same run.
# Prints files per second for both, their ratio, and headroom's system calls per file from
# `strace -c -f` (target: open, fstat, read of the length, read of the header, close).
# Files are real safetensors headers over sparse data (a LoRA-sized header, 200 tensors).
set -eu
# usage: bench/models.sh HEADROOM   (HR_BENCH_SMOKE=1: 50 files, to prove the script works)
bin=${1:-build/src/headroom}
[ -x "$bin" ] || { echo "build first: $bin missing" >&2; exit 1; }
n=${HR_BENCH_FILES:-2000}
[ -n "${HR_BENCH_SMOKE:-}" ] && n=50
command -v python3 >/dev/null || { echo "python3 missing: no peer to compare with"; exit 0; }
# the interpreter itself, not a version manager's wrapper script (pyenv shims cost ~200 ms)
py=$(python3 -c 'import sys; print(sys.executable)')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$n" <<'PY'
import json, os, struct, sys
d, n = sys.argv[1], int(sys.argv[2])
for folder in ('loras', 'checkpoints', 'vae', 'controlnet'):
    os.makedirs(os.path.join(d, 'models', folder), exist_ok=True)
head, off = {}, 0
for i in range(200):
    for part, shape in (('lora_down', [16, 1280]), ('lora_up', [1280, 16])):
        nb = shape[0] * shape[1] * 2
        head[f'lora_unet_input_blocks_{i}_1_transformer_blocks_0_attn1_to_q.{part}.weight'] = \
            {'dtype': 'F16', 'shape': shape, 'data_offsets': [off, off + nb]}
        off += nb
j = json.dumps(head).encode()
blob = struct.pack('<Q', len(j)) + j
for i in range(n):
    folder = ('loras', 'checkpoints', 'vae', 'controlnet')[i % 4]
    with open(os.path.join(d, 'models', folder, f'model_{i:05d}.safetensors'), 'wb') as f:
        f.write(blob)
        f.truncate(len(blob) + off)
PY
cat > "$dir/peer.py" <<'PY'
import json, os, struct, sys
total = 0
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for name in sorted(files):
        if not name.endswith(('.safetensors', '.sft')):
            continue
        with open(os.path.join(root, name), 'rb') as f:
            n = struct.unpack('<Q', f.read(8))[0]
            h = json.loads(f.read(n))
        total += sum(v['data_offsets'][1] - v['data_offsets'][0]
                     for k, v in h.items() if k != '__metadata__')
print(total)
PY
now() { date +%s%N; }
"$bin" models "$dir/models" --json >/dev/null; "$py" "$dir/peer.py" "$dir/models" >/dev/null   # warm
best_h=; best_p=
for _ in 1 2 3; do
  t0=$(now); "$bin" models "$dir/models" --json >/dev/null; t1=$(now)
  "$py" "$dir/peer.py" "$dir/models" >/dev/null; t2=$(now)
  h=$((t1 - t0)); p=$((t2 - t1))
  [ -z "$best_h" ] || [ "$h" -lt "$best_h" ] && best_h=$h
  [ -z "$best_p" ] || [ "$p" -lt "$best_p" ] && best_p=$p
done
# the one-liner per file, as a shell loop over `python3 -c` does it (on up to 100 files)
m=$(( n < 100 ? n : 100 ))
t0=$(now)
for f in $(find "$dir/models" -name '*.safetensors' | sort | head -n "$m"); do
  "$py" -c 'import json,struct,sys; f=open(sys.argv[1],"rb"); n=struct.unpack("<Q",f.read(8))[0]; json.loads(f.read(n))' "$f"
done
t1=$(now); c=$((t1 - t0))
awk -v h="$best_h" -v p="$best_p" -v n="$n" -v c="$c" -v m="$m" 'BEGIN {
  printf "files: %d (real safetensors headers, sparse data)\n", n
  printf "headroom models --json:        %9.0f files/s  (%.1f ms)\n", n / (h / 1e9), h / 1e6
  printf "python3 json header reading:   %9.0f files/s  (%.1f ms)\n", n / (p / 1e9), p / 1e6
  printf "python3 -c per file:           %9.0f files/s  (%d files)\n", m / (c / 1e9), m
  printf "speed ratio headroom/python3:  %9.1fx (one python3 process), %.0fx (python3 -c per file)\n", p / h, (c / m) / (h / n)
}'
if command -v strace >/dev/null; then
  out="$dir/strace.txt"
  if strace -c -f -o "$out" "$bin" models "$dir/models" --json >/dev/null 2>&1; then
    awk -v n="$n" '
      $NF ~ /^(openat|open|newfstatat|fstat|statx|read|pread64|close|getdents64|stat|lstat)$/ { per[$NF] = $4 }
      $NF == "total" { total = $4 }
      END {
        printf "headroom system calls: %d in all, %.2f per file\n", total, total / n
        split("openat fstat newfstatat statx pread64 read close getdents64", k, " ")
        for (i = 1; i <= 8; i++) if (per[k[i]]) printf "  %-11s %6d  (%.2f per file)\n", k[i], per[k[i]], per[k[i]] / n
      }' "$out"
  else
    echo "strace could not trace here (no ptrace): system calls not counted"
  fi
fi
