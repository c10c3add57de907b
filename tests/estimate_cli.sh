#!/usr/bin/env bash
# headroom estimate from the command line: every sample workflow on several what-if machines
# gives a step table, peaks with low/high and a verdict (exit 0-2); the JSON has its contract's
# keys; the modelled behaviour holds end to end; plan/check --workflow size from the estimate;
# bad input is one line and the right exit status.
set -u
bin=$1
wf=$2
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT
# check/plan ask a running ComfyUI for its /history: none answers in this test unless it
# starts one (port 1 is never a ComfyUI)
export HEADROOM_COMFYUI_URL=http://127.0.0.1:1

json_get() {   # file python-expression
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

for f in "$wf"/*.json; do
  for m in "--ram 16G --vram 8G --os windows --gpu nvidia" "--ram 32G --vram 12G --os linux --gpu nvidia" \
           "--ram 64G --vram 24G --os windows --gpu nvidia --comfyui-version 0.3.60" \
           "--ram 32G --vram 16G --os linux --gpu amd"; do
    # shellcheck disable=SC2086
    "$bin" estimate "$f" $m >"$tmp/out.txt" 2>"$tmp/err.txt"; rc=$?
    [ $rc -le 3 ] || { bad "$f $m: exit $rc: $(cat "$tmp/err.txt")"; continue; }
    grep -q "^Peaks" "$tmp/out.txt" || bad "$f $m: no peaks"
    grep -q "^Verdict" "$tmp/out.txt" || bad "$f $m: no verdict"
    # shellcheck disable=SC2086
    "$bin" estimate "$f" $m --json >"$tmp/out.json" 2>/dev/null
    json_get "$tmp/out.json" "all(k in d['peak'] for k in ('vram_bytes','ram_bytes','commit_bytes')) and \
all(d['peak'][t]['low'] <= d['peak'][t]['bytes'] <= d['peak'][t]['high'] for t in ('vram','ram','commit')) and \
d['schema']=='headroom.estimate/1' and len(d['steps'])>0 and len(d['verdicts'])>0 and d['regime'] in ('legacy','dynamic_vram') and \
all(all(k in l for k in ('model','usable_vram_bytes','loaded_bytes','offloaded_bytes')) for l in d['loads'])" \
      | grep -q True || bad "$f $m: JSON contract"
  done
done

# FLUX dev fp16 (23.8 GB) on 8 GB, legacy: most of it offloaded; DynamicVRAM stages it.
"$bin" estimate "$wf/est_flux_dev_api.json" --ram 32G --vram 8G --os windows --gpu nvidia \
  --comfyui-version 0.3.60 --json >"$tmp/f.json"
[ "$(json_get "$tmp/f.json" "max(l['offloaded_bytes'] for l in d['loads'] if l['model']=='flux1-dev.safetensors') > 15*2**30")" = True ] \
  || bad "flux on 8 GB does not offload most weights"
"$bin" estimate "$wf/est_flux_dev_api.json" --ram 32G --vram 8G --os windows --gpu nvidia --json >"$tmp/f.json"
[ "$(json_get "$tmp/f.json" "d['regime']=='dynamic_vram' and any(l.get('staged_bytes',0) > 20*2**30 for l in d['loads'])")" = True ] \
  || bad "flux on today's ComfyUI is not staged for DynamicVRAM"
# Video far above image on the same machine.
"$bin" estimate "$wf/est_sdxl_api.json" --ram 32G --vram 12G --os windows --gpu nvidia --comfyui-version 0.3.60 --json >"$tmp/i.json"
"$bin" estimate "$wf/est_wan22_i2v_api.json" --ram 32G --vram 12G --os windows --gpu nvidia --comfyui-version 0.3.60 --json >"$tmp/v.json"
[ "$(python3 -c "import json; i=json.load(open('$tmp/i.json')); v=json.load(open('$tmp/v.json')); print(v['peak']['commit_bytes'] > 2*i['peak']['commit_bytes'])")" = True ] \
  || bad "video does not peak far above image"
# --gpu-only with FLUX fp16 on 16 GB: GPU out of memory, exit 2.
"$bin" estimate "$wf/est_flux_dev_api.json" --ram 64G --vram 16G --os linux --gpu nvidia --comfy-args "--gpu-only" >/dev/null 2>&1
[ $? -eq 2 ] || bad "--gpu-only FLUX on 16 GB is not a GPU OOM (exit 2)"

# plan --workflow sizes from the estimate's peak commit (high end).
"$bin" estimate "$wf/est_wan22_i2v_api.json" --ram 16G --vram 8G --os windows --json >"$tmp/e.json"
"$bin" plan --workflow "$wf/est_wan22_i2v_api.json" --ram 16G --vram 8G --os windows --json >"$tmp/p.json"
[ "$(python3 -c "import json; e=json.load(open('$tmp/e.json')); p=json.load(open('$tmp/p.json')); print(p['recommended']['peak_commit_bytes']==e['peak']['commit']['high'])")" = True ] \
  || bad "plan --workflow does not size from the estimate"
# estimate's "need" holds the one rule's parts; --ram describes a what-if machine (its commit
# limit and swap are not this machine's), so its other programs are the stated allowance, not
# what this machine's programs commit now (the OS as this one's, so a live snapshot is read)
"$bin" estimate "$wf/est_wan22_i2v_api.json" --ram 16G --vram 8G --os linux --json >"$tmp/e.json"
[ "$(json_get "$tmp/e.json" "d['need']['others_basis']=='allowance' and d['need']['others_bytes']==6*2**30 and d['need']['high_bytes']==d['peak']['commit']['high'] and d['need']['must_back_bytes']==d['need']['high_bytes']+d['need']['others_bytes']+d['need']['margin_bytes']")" = True ] \
  || bad "estimate's need is not the allowance on a what-if machine: $(json_get "$tmp/e.json" "d.get('need')")"
"$bin" check --workflow "$wf/est_wan22_i2v_api.json" --ram 16G --vram 8G --os windows >"$tmp/c.txt" 2>&1
grep -q "the estimate of est_wan22_i2v_api.json" "$tmp/c.txt" || bad "check --workflow does not name the estimate"

# --comfyui: a model present is sized from its header (a sparse FLUX-shaped file, 11.85 B
# bf16 parameters), not from the catalog.
mkdir -p "$tmp/comfy/models/diffusion_models" "$tmp/comfy/user/default/workflows"
python3 - "$tmp/comfy/models/diffusion_models/my-flux-dev.safetensors" <<'PY'
import json, struct, sys
t = []
for i in range(19):
    for n, s in (("img_attn.qkv", [9216, 3072]), ("img_mlp.0", [12288, 3072]), ("img_mlp.2", [3072, 12288]),
                 ("txt_attn.qkv", [9216, 3072]), ("txt_mlp.0", [12288, 3072]), ("txt_mlp.2", [3072, 12288]),
                 ("img_attn.proj", [3072, 3072]), ("txt_attn.proj", [3072, 3072]), ("img_mod.lin", [18432, 3072]),
                 ("txt_mod.lin", [18432, 3072])):
        t.append(("double_blocks.%d.%s.weight" % (i, n), s))
for i in range(38):
    for n, s in (("linear1", [21504, 3072]), ("linear2", [3072, 15360]), ("modulation.lin", [9216, 3072])):
        t.append(("single_blocks.%d.%s.weight" % (i, n), s))
t += [("img_in.weight", [3072, 64]), ("txt_in.weight", [3072, 4096]), ("guidance_in.in_layer.weight", [3072, 256]),
      ("final_layer.linear.weight", [64, 3072])]
off, hdr = 0, {}
for name, shape in t:
    size = shape[0] * shape[1] * 2
    hdr[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [off, off + size]}
    off += size
h = json.dumps(hdr).encode()
h += b" " * ((8 - len(h) % 8) % 8)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(h)))
    f.write(h)
    f.truncate(8 + len(h) + off)
PY
sed 's/flux1-dev.safetensors/my-flux-dev.safetensors/' "$wf/est_flux_dev_api.json" >"$tmp/myflux.json"
"$bin" estimate "$tmp/myflux.json" --comfyui "$tmp/comfy" --ram 32G --vram 8G --os windows --comfyui-version 0.3.60 \
  --json >"$tmp/m.json" 2>/dev/null
[ "$(json_get "$tmp/m.json" "[round((l['loaded_bytes']+l['offloaded_bytes'])/1e9,1) for l in d['loads'] if l['model']=='my-flux-dev.safetensors']")" = "[23.7]" ] \
  || bad "a model file present is not sized from its header: $(json_get "$tmp/m.json" "d['loads']")"
# estimate finds ComfyUI by itself (here: the current folder's parents) and reads the file.
touch "$tmp/comfy/main.py"
mkdir -p "$tmp/home"
(cd "$tmp/comfy/user/default" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
  "$bin" estimate "$tmp/myflux.json" --ram 32G --vram 8G --os linux --comfyui-version 0.3.60 --json) >"$tmp/m2.json" 2>/dev/null
[ "$(json_get "$tmp/m2.json" "[round((l['loaded_bytes']+l['offloaded_bytes'])/1e9,1) for l in d['loads'] if l['model']=='my-flux-dev.safetensors']")" = "[23.7]" ] \
  || bad "estimate does not find ComfyUI by itself: $(json_get "$tmp/m2.json" "d['loads']")"
# ... and a model in a folder of its extra_model_paths.yaml is read too
mkdir -p "$tmp/shared/unet"
mv "$tmp/comfy/models/diffusion_models/my-flux-dev.safetensors" "$tmp/shared/unet/"
printf 'mine:\n    base_path: %s\n    diffusion_models: unet\n' "$tmp/shared" >"$tmp/comfy/extra_model_paths.yaml"
"$bin" estimate "$tmp/myflux.json" --comfyui "$tmp/comfy" --ram 32G --vram 8G --os windows --comfyui-version 0.3.60 \
  --json >"$tmp/m3.json" 2>/dev/null
[ "$(json_get "$tmp/m3.json" "[round((l['loaded_bytes']+l['offloaded_bytes'])/1e9,1) for l in d['loads'] if l['model']=='my-flux-dev.safetensors']")" = "[23.7]" ] \
  || bad "estimate does not read extra_model_paths.yaml: $(json_get "$tmp/m3.json" "d['loads']")"
rm -f "$tmp/comfy/extra_model_paths.yaml" "$tmp/comfy/main.py"
# check --comfyui: the heaviest saved workflow is the peak, by name.
cp "$wf/est_sdxl_api.json" "$wf/est_wan22_i2v_api.json" "$tmp/comfy/user/default/workflows/"
"$bin" check --comfyui "$tmp/comfy" --ram 32G --vram 12G --os linux >"$tmp/c2.txt" 2>&1
grep -q "the heaviest saved workflow, est_wan22_i2v_api.json" "$tmp/c2.txt" || bad "check --comfyui does not size from the heaviest saved workflow: $(grep needs "$tmp/c2.txt")"
# check without being told: the ComfyUI above the current folder is found, and sized from
# the same way (issue 13: "the main job uses it without being asked").
touch "$tmp/comfy/main.py"
mkdir -p "$tmp/home"
(cd "$tmp/comfy/user/default" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
  "$bin" check --ram 32G --vram 12G --os linux) >"$tmp/c3.txt" 2>&1
grep -q "the heaviest saved workflow, est_wan22_i2v_api.json" "$tmp/c3.txt" || bad "check does not find ComfyUI by itself: $(grep needs "$tmp/c3.txt")"
# ... but not when the user named the workload: the S4.1 table answers then
(cd "$tmp/comfy/user/default" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
  "$bin" check --ram 32G --vram 12G --os linux --workload flux) >"$tmp/c4.txt" 2>&1
grep -q "heaviest saved workflow" "$tmp/c4.txt" && bad "check --workload still sized from saved workflows"

# A running ComfyUI's /history comes before the saved workflows: its heaviest prompt, by id.
# The server is a main.py, as ComfyUI is: run as root, check asks only a local server whose
# process looks like ComfyUI (X.localserver).
mkdir -p "$tmp/ComfyUI"
cat >"$tmp/ComfyUI/main.py" <<'PY'
import http.server, json, os, sys
wf, portfile = sys.argv[1], sys.argv[2]
def api(name):
    d = json.load(open(os.path.join(wf, name)))
    return d.get('prompt', d)
hist = {'a1-sdxl': {'prompt': [1, 'a1-sdxl', api('est_sdxl_api.json'), {}, ['9']], 'outputs': {},
                    'status': {'status_str': 'success', 'completed': True}},
        'b2-bad': {'prompt': [2, 'b2-bad', {'1': {'inputs': {}}}, {}, []], 'outputs': {}},
        'c3-ltxv': {'prompt': [3, 'c3-ltxv', api('est_ltxv_api.json'), {}, ['9']], 'outputs': {}}}
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps(hist).encode() if self.path.startswith('/history') else b'{}'
        self.send_response(200 if self.path.startswith('/history') else 404)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(('127.0.0.1', 0), H)
open(portfile + '.tmp', 'w').write(str(s.server_address[1]))
os.rename(portfile + '.tmp', portfile)
s.serve_forever()
PY
python3 "$tmp/ComfyUI/main.py" "$wf" "$tmp/port" &
srv=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
HEADROOM_COMFYUI_URL="http://127.0.0.1:$(cat "$tmp/port")" \
  "$bin" check --comfyui "$tmp/comfy" --ram 32G --vram 12G --os linux >"$tmp/c5.txt" 2>&1
grep -q "the heaviest prompt the running ComfyUI ran (its /history), prompt c3-ltxv" "$tmp/c5.txt" \
  || bad "check does not size from the running ComfyUI's /history: $(cat "$tmp/c5.txt")"
grep -q "b2-bad" "$tmp/c5.txt" || bad "a prompt of /history that is not a graph is not said"
# The prompt's words are worded where they are shown: Chinese in zh text, English in JSON
# whatever the language (the label was once made in the language of the moment).
HEADROOM_COMFYUI_URL="http://127.0.0.1:$(cat "$tmp/port")" \
  "$bin" check --comfyui "$tmp/comfy" --ram 32G --vram 12G --os linux --lang zh >"$tmp/c5zh.txt" 2>/dev/null
HEADROOM_COMFYUI_URL="http://127.0.0.1:$(cat "$tmp/port")" \
  "$bin" check --comfyui "$tmp/comfy" --ram 32G --vram 12G --os linux --lang zh --json >"$tmp/c5zh.json" 2>/dev/null
grep -q "任务 c3-ltxv" "$tmp/c5zh.txt" || bad "zh check does not word the prompt in Chinese: $(grep c3-ltxv "$tmp/c5zh.txt")"
[ "$(json_get "$tmp/c5zh.json" "'the heaviest prompt the running ComfyUI ran (its /history), prompt c3-ltxv,' in d['need']['basis']")" = True ] \
  || bad "check --json --lang zh: the need's basis is not English: $(json_get "$tmp/c5zh.json" "d['need']['basis']")"
kill "$srv" 2>/dev/null; srv=

# A what-if machine never borrows this machine's limit: --ram alone (no --os) on a recorded
# machine whose limit is known leaves the limit unknown, and an unknown limit is "cannot tell"
# (exit 3) with the limit needed, never FITS.
lap="$wf/../linux/plan-btrfs-laptop"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$lap" --json >"$tmp/own.json"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$lap" --ram 16G --json >"$tmp/wi.json"; rc=$?
[ "$(json_get "$tmp/own.json" "d['machine']['commit_limit_bytes'] is not None")" = True ] \
  || bad "the recorded laptop's commit limit is not read"
[ "$(json_get "$tmp/wi.json" "d['machine']['commit_limit_bytes'] is None and \
any(v['verdict']=='commit_unknown' for v in d['verdicts']) and not any(v['verdict']=='fits' for v in d['verdicts'])")" = True ] \
  || bad "--ram 16G without --os borrows this machine's commit limit"
[ $rc -eq 3 ] || bad "an unknown limit does not exit 3 (cannot tell): $rc"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 64G --vram 24G --os windows --gpu nvidia >"$tmp/u.txt"; rc=$?
{ [ $rc -eq 3 ] && ! grep -q "FITS" "$tmp/u.txt" && grep -q "the run needs a limit (RAM + paging file) of at least [0-9.]* GB" "$tmp/u.txt"; } \
  || bad "an unknown limit: not cannot tell with the limit needed (exit $rc): $(grep -A2 ^Verdict "$tmp/u.txt")"
grep -q "at least 0 MB" "$tmp/u.txt" && bad "a size of 0 MB"
# A GPU that was neither read nor given is said as assumed, with the flag to give.
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --os windows >"$tmp/g.txt"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --os windows --json >"$tmp/g.json"
grep -q "12 GB of VRAM is assumed (no GPU was read): give --vram" "$tmp/g.txt" || bad "an assumed GPU said as a fact"
[ "$(json_get "$tmp/g.json" "d['machine']['vram_assumed'] and d['machine']['gpu_assumed'] and not d['machine']['ram_assumed']")" = True ] \
  || bad "the JSON does not say the GPU is assumed"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --gpu nvidia --os windows >"$tmp/g2.txt"
! grep -q "is assumed.*: give --\(ram\|vram\|gpu\)$" "$tmp/g2.txt" || bad "a given GPU called assumed"
# The VRAM other programs hold is a default per OS, said as assumed, until --vram-used gives it;
# it is taken from the card (usable VRAM falls by it) and can never be more than the card.
grep -q "^            512 MB of VRAM held by other programs is assumed: give --vram-used$" "$tmp/g2.txt" \
  || bad "the VRAM other programs hold not said as assumed"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --gpu nvidia --os windows --json >"$tmp/vu0.json"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --gpu nvidia --os windows --vram-used 6G >"$tmp/vu.txt"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --gpu nvidia --os windows --vram-used 6G --json >"$tmp/vu.json"
grep -q "^            6 GB of VRAM held by other programs (--vram-used)$" "$tmp/vu.txt" || bad "--vram-used not said"
[ "$(json_get "$tmp/vu0.json" "d['machine']['vram_other_bytes'] == 512 * 2**20 and d['machine']['vram_other_assumed']")" = True ] \
  || bad "the JSON does not give the assumed VRAM of other programs"
[ "$(json_get "$tmp/vu.json" "d['machine']['vram_other_bytes'] == 6 * 2**30 and not d['machine']['vram_other_assumed']")" = True ] \
  || bad "the JSON does not give --vram-used"
[ "$(json_get "$tmp/vu.json" "d['loads'][1]['usable_vram_bytes'] < 2.5 * 2**30")" = True ] \
  || bad "--vram-used does not take VRAM from the loads"
[ "$(json_get "$tmp/vu0.json" "d['loads'][1]['usable_vram_bytes'] > 4 * 2**30")" = True ] \
  || bad "the default VRAM of other programs takes too much"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --vram-used 9G >"$tmp/vu9.txt" 2>"$tmp/vu9.err"; rc=$?
[ "$rc" = 64 ] || bad "--vram-used above the card: exit $rc, not 64"
[ "$(wc -l <"$tmp/vu9.err")" = 1 ] && grep -q "vram-used 9 GB is more than the GPU's 8 GB of VRAM" "$tmp/vu9.err" \
  || bad "--vram-used above the card: no one-line error ($(cat "$tmp/vu9.err"))"
[ -s "$tmp/vu9.txt" ] && bad "--vram-used above the card printed an estimate"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 0 --vram-used 1G >"$tmp/vu0g.txt" 2>"$tmp/vu0g.err"; rc=$?
[ "$rc" = 64 ] && grep -q "vram-used needs a GPU with its own VRAM" "$tmp/vu0g.err" || bad "--vram-used with no GPU: exit $rc"
# WSL2 runs on the Windows host's GPU: its desktop's VRAM is assumed as on Windows, not Linux's
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --gpu nvidia --os wsl --json >"$tmp/wsl.json"
[ "$(json_get "$tmp/wsl.json" "d['machine']['wsl'] and d['machine']['os'] == 'linux' and d['machine']['vram_other_bytes'] == 512 * 2**20")" = True ] \
  || bad "--os wsl: not Linux in WSL with the Windows host's VRAM default"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$wf/../linux/laptop-battery-amd-apu" --vram 8G --gpu nvidia --os linux \
    --json >"$tmp/lnx.json"
[ "$(json_get "$tmp/lnx.json" "not d['machine']['wsl'] and d['machine']['vram_other_bytes'] < 200 * 2**20")" = True ] \
  || bad "--os linux: WSL or the Windows VRAM default"
# only an integrated GPU read (an AMD APU): its maker is taken, its VRAM stays assumed, and the
# screen says why
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$wf/../linux/laptop-battery-amd-apu" --json >"$tmp/apu.json"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$wf/../linux/laptop-battery-amd-apu" >"$tmp/apu.txt"
[ "$(json_get "$tmp/apu.json" "d['machine']['gpu'] == 'amd' and not d['machine']['gpu_assumed'] and d['machine']['vram_assumed']")" = True ] \
  && grep -q "only an integrated GPU was read" "$tmp/apu.txt" \
  || bad "an APU: not AMD, or its VRAM not said as assumed: $(grep -A2 machine "$tmp/apu.txt")"
# a recorded WSL machine stays one with --os linux, and --os wsl keeps its facts
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$wf/../linux/wsl2" --os linux --json >"$tmp/wsl-l.json"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$wf/../linux/wsl2" --os wsl --json >"$tmp/wsl-w.json"
[ "$(json_get "$tmp/wsl-l.json" "d['machine']['wsl'] and not d['machine']['ram_assumed']")" = True ] \
  && [ "$(json_get "$tmp/wsl-w.json" "d['machine']['wsl'] and not d['machine']['ram_assumed']")" = True ] \
  || bad "a recorded WSL machine lost its WSL or its RAM under --os linux / --os wsl"
# two sizes the same when rounded to GB are said to the MiB
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --vram-used 8193M >/dev/null 2>"$tmp/vu8193.err"
grep -q "8193 MiB is more than the GPU's 8192 MiB of VRAM" "$tmp/vu8193.err" || bad "rounded sizes: $(cat "$tmp/vu8193.err")"
# On this machine's card, what it holds now is other programs' when no ComfyUI (python) runs:
# a recorded laptop given a 16 GB card with 3 GB in use and a browser running.
vr="$tmp/vram-read"
cp -a "$wf/../linux/laptop-battery-amd-apu" "$vr"
card="$vr/sys/devices/pci0000:00/0000:00:08.1/0000:05:00.0"
echo 17179869184 >"$card/mem_info_vram_total"
echo 3221225472 >"$card/mem_info_vram_used"
mkdir -p "$vr/proc/4242"
printf 'Name:\tfirefox\nVmRSS:\t  204800 kB\nRssAnon:\t  102400 kB\nVmSwap:\t       0 kB\n' >"$vr/proc/4242/status"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --json >"$tmp/vr.json"
[ "$(json_get "$tmp/vr.json" "d['machine']['vram_other_bytes'] == 3 * 2**30 and d['machine']['vram_other_basis'] == 'read'")" = True ] \
  || bad "the card's VRAM in use not read as other programs'"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --vram 8G --json >"$tmp/vr8.json"
[ "$(json_get "$tmp/vr8.json" "d['machine']['vram_other_basis'] == 'assumed'")" = True ] \
  || bad "a what-if card kept this card's VRAM in use"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --vram-used 1G --json >"$tmp/vr1.json"
[ "$(json_get "$tmp/vr1.json" "d['machine']['vram_other_bytes'] == 2**30 and d['machine']['vram_other_basis'] == 'given'")" = True ] \
  || bad "--vram-used did not override the card's reading"
printf 'Name:\tpython3\nVmRSS:\t 8388608 kB\nRssAnon:\t 8388608 kB\nVmSwap:\t       0 kB\n' >"$vr/proc/4242/status"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --json >"$tmp/vrpy.json"
[ "$(json_get "$tmp/vrpy.json" "d['machine']['vram_other_basis'] == 'assumed'")" = True ] \
  || bad "a running python (maybe ComfyUI) counted as other programs' VRAM"
# What a python holds is taken out when the driver gives it per process: amdgpu's DRM fdinfo,
# one client open through two fds (counted once), 2 GiB resident; a pipe's fdinfo beside it.
mkdir -p "$vr/proc/4242/fdinfo"
fdi='drm-driver:\tamdgpu\ndrm-client-id:\t77\ndrm-pdev:\t0000:05:00.0\ndrm-resident-vram:\t2097152 KiB\ndrm-memory-vram:\t2097152 KiB\n'
printf "pos:\t0\nflags:\t02100002\n$fdi" >"$vr/proc/4242/fdinfo/5"
printf "pos:\t0\nflags:\t02100002\n$fdi" >"$vr/proc/4242/fdinfo/9"
printf 'pos:\t0\nflags:\t02\n' >"$vr/proc/4242/fdinfo/1"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --json >"$tmp/vrpy2.json"
[ "$(json_get "$tmp/vrpy2.json" "d['machine']['vram_other_bytes'] == 2**30 and d['machine']['vram_python_bytes'] == 2 * 2**30 and d['machine']['vram_other_basis'] == 'read'")" = True ] \
  || bad "the python's VRAM (DRM fdinfo) not taken out of the card's use: $(json_get "$tmp/vrpy2.json" "d['machine']")"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" >"$tmp/vrpy2.txt"
grep -q "1 GB of VRAM held by other programs (read now, less the 2 GB python (maybe ComfyUI) holds)" "$tmp/vrpy2.txt" \
  || bad "the python's VRAM not said"
"$bin" status --sysroot "$vr" --json >"$tmp/vrst.json"
[ "$(json_get "$tmp/vrst.json" "d['gpus'][0]['python_vram_bytes'] == 2 * 2**30")" = True ] || bad "status: python_vram_bytes"
"$bin" status --sysroot "$vr" | grep -q "^    2.00 GiB of it held by python (maybe ComfyUI)$" || bad "status: the python's VRAM not said"
# Windows: the GPU counters give each adapter's dedicated use (DXGI alone has none for AMD) and
# the python processes' part, matched by the adapter's LUID; not listed in full: not known.
python3 - "$wf/../windows/desktop-64g-fixed-d.json" "$tmp/win-gpu.json" "$tmp/win-gpu-cut.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["dxgi"]["adapters"][0].update(luid_high=0, luid_low=0xC2C5)
d["dxgi"]["adapters"].append({"description": "AMD Radeon RX 7600", "vendor_id": 4098, "device_id": 29824, "flags": 0,
                              "dedicated_video": 8 << 30, "dedicated_system": 0, "shared_system": 16 << 30,
                              "luid_high": 0, "luid_low": 0xD1F2})
gib = 1 << 30
d["gpu_memory"] = {"state": "ok", "processes_listed": 1,
                   "adapters": [{"luid_high": 0, "luid_low": 0xC2C5, "dedicated_used": 3 * gib},
                                {"luid_high": 0, "luid_low": 0xD1F2, "dedicated_used": 5 * gib}],
                   "processes": [{"pid": 100, "name": "python.exe", "luid_high": 0, "luid_low": 0xC2C5, "dedicated_used": 2 * gib},
                                 {"pid": 100, "name": "python.exe", "luid_high": 0, "luid_low": 0xD1F2, "dedicated_used": gib},
                                 {"pid": 200, "name": "chrome.exe", "luid_high": 0, "luid_low": 0xC2C5, "dedicated_used": gib // 2}]}
json.dump(d, open(sys.argv[2], "w"))
d["gpu_memory"]["processes_listed"] = 0
json.dump(d, open(sys.argv[3], "w"))
PYEOF
"$bin" status --replay "$tmp/win-gpu.json" --json >"$tmp/win-gpu-st.json"
[ "$(json_get "$tmp/win-gpu-st.json" "[(g['vendor'], g['vram_used_bytes'], g['python_vram_bytes']) for g in d['gpus']] == [('NVIDIA', 2089811968, 2 * 2**30), ('AMD', 5 * 2**30, 2**30)]")" = True ] \
  || bad "Windows GPU counters: $(json_get "$tmp/win-gpu-st.json" "d['gpus']")"
"$bin" status --replay "$tmp/win-gpu-cut.json" --json >"$tmp/win-gpu-cut-st.json"
[ "$(json_get "$tmp/win-gpu-cut-st.json" "[g['python_vram_bytes'] for g in d['gpus']] == [None, None]")" = True ] \
  || bad "Windows GPU counters not listed in full: python's VRAM taken as known"
# a second python whose fdinfo cannot be read: what the pythons hold is not known
mkdir -p "$vr/proc/4343"
printf 'Name:\tpython.exe\nVmRSS:\t 1024 kB\nRssAnon:\t 1024 kB\nVmSwap:\t 0 kB\n' >"$vr/proc/4343/status"
"$bin" estimate "$wf/est_sdxl_api.json" --sysroot "$vr" --json >"$tmp/vrpy3.json"
[ "$(json_get "$tmp/vrpy3.json" "d['machine']['vram_other_basis'] == 'assumed' and d['machine']['vram_python_bytes'] is None")" = True ] \
  || bad "a python whose fdinfo is unreadable: its VRAM taken as known"
# plan and check size from the same estimate: --vram-used reaches it (the same refusal)
for c in plan check; do
    "$bin" $c --ram 16G --vram 8G --os windows --workflow "$wf/est_sdxl_api.json" --vram-used 9G \
        >"$tmp/vu9.txt" 2>"$tmp/vu9.err"; rc=$?
    [ "$rc" = 64 ] && grep -q "vram-used 9 GB is more than the GPU's 8 GB of VRAM" "$tmp/vu9.err" \
        || bad "$c --workflow --vram-used above the card: exit $rc ($(cat "$tmp/vu9.err"))"
done

# A git checkout between releases: --comfyui-date gives its commit's date beside the version it
# names; said on screen and in JSON, refused when malformed or without the version.
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.3.76 --comfyui-date 2025-12-04 \
    >"$tmp/cd.txt" || true
grep -q "^  ComfyUI   0.3.76 (a checkout of 2025-12-04), " "$tmp/cd.txt" || bad "--comfyui-date not said"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.3.76 --comfyui-date 2025-12-04 \
    --json >"$tmp/cd.json" || true
[ "$(json_get "$tmp/cd.json" "d['machine']['comfyui_date'] == '2025-12-04' and d['machine']['comfyui_version'] == '0.3.76'")" = True ] \
  || bad "the JSON does not give --comfyui-date"
[ "$(json_get "$tmp/vu0.json" "d['machine']['comfyui_date'] is None")" = True ] || bad "comfyui_date not null without it"
# its time as git prints it is kept as an instant; a date alone on a merge's day says so
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.3.76 \
    --comfyui-date "2025-12-03 23:28:44 -0500" --json >"$tmp/cdt.json" || true
[ "$(json_get "$tmp/cdt.json" "d['machine']['comfyui_date'] == '2025-12-03T23:28:44-05:00' and not any('merged on' in n for n in d['notes'])")" = True ] \
  || bad "--comfyui-date with its time: $(json_get "$tmp/cdt.json" "d['machine']['comfyui_date']")"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.3.76 --comfyui-date 2025-12-03 \
    >"$tmp/cda.txt" || true
grep -q "PR #11069 was merged on 2025-12-03, so a checkout of that day may be from before it" "$tmp/cda.txt" \
  || bad "a date alone on a merge's day: no note"
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.16.0 --comfyui-date 2026-03-01 \
    >"$tmp/cdn.txt" || true
grep -q "the checkout's date changes nothing at ComfyUI 0.16.0" "$tmp/cdn.txt" || bad "a date that changes nothing: no note"
for d in 2025-13-01 2025-02-29 20251204 2025-12-4 2025-12-04x 1999-01-01 2025-+1-04 "2025-12-03 23:28:44" \
    "2025-12-03 25:00:00 -0500"; do
    "$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-version 0.3.76 --comfyui-date "$d" \
        >"$tmp/cdbad.txt" 2>"$tmp/cdbad.err"; rc=$?
    [ "$rc" = 64 ] && [ "$(wc -l <"$tmp/cdbad.err")" = 1 ] && grep -q "comfyui-date" "$tmp/cdbad.err" \
      || bad "--comfyui-date $d: exit $rc ($(cat "$tmp/cdbad.err"))"
    [ -s "$tmp/cdbad.txt" ] && bad "--comfyui-date $d printed an estimate"
done
"$bin" estimate "$wf/est_sdxl_api.json" --ram 16G --vram 8G --comfyui-date 2024-02-29 >/dev/null 2>"$tmp/cdnv.err"; rc=$?
[ "$rc" = 64 ] && grep -q "comfyui-date needs the version" "$tmp/cdnv.err" || bad "--comfyui-date without a version: exit $rc"
# the version of the ComfyUI folder the models are read from is the estimate's (as plan reads it),
# and a checkout's date then needs nothing more
mkdir -p "$tmp/cu/models"
printf '# This file is automatically generated by the build process when version is\n__version__ = "0.3.76"\n' \
    >"$tmp/cu/comfyui_version.py"
"$bin" estimate "$wf/est_sdxl_api.json" --comfyui "$tmp/cu" --ram 16G --vram 8G --comfyui-date 2025-12-04 --json \
    >"$tmp/cuv.json" 2>"$tmp/cuv.err" || true
[ "$(json_get "$tmp/cuv.json" "d['machine']['comfyui_version'] == '0.3.76' and d['machine']['comfyui_date'] == '2025-12-04'")" = True ] \
  || bad "estimate --comfyui: the folder's version not read ($(cat "$tmp/cuv.err"))"
"$bin" check --ram 16G --vram 8G --os windows --workflow "$wf/est_sdxl_api.json" --comfyui "$tmp/cu" \
    --comfyui-date "2025-12-03 23:28:44 -0500" --json >"$tmp/cuvp.json" 2>"$tmp/cuvp.err"; rc=$?
[ "$rc" != 64 ] && [ "$(json_get "$tmp/cuvp.json" "'0.3.76 (a checkout of 2025-12-03T23:28:44-05:00)' in d['need']['basis']")" = True ] \
  || bad "check --comfyui DIR --comfyui-date: exit $rc ($(cat "$tmp/cuvp.err"))"
"$bin" plan --ram 16G --vram 8G --os windows --workflow "$wf/est_sdxl_api.json" --comfyui-date 2025-12-04 \
    >/dev/null 2>"$tmp/cdnv.err"; rc=$?
[ "$rc" = 64 ] && grep -q "comfyui-date needs the version" "$tmp/cdnv.err" || bad "plan --comfyui-date without a version: exit $rc"

# Errors: one line, the right status.
"$bin" estimate "$tmp/nope.json" 2>"$tmp/err"; [ $? -eq 66 ] || bad "missing workflow: not 66"
printf '{"a": ' >"$tmp/broken.json"
"$bin" estimate "$tmp/broken.json" 2>"$tmp/err"; [ $? -eq 65 ] || bad "broken JSON: not 65"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "broken JSON: not one line"
"$bin" estimate 2>/dev/null; [ $? -eq 64 ] || bad "no workflow: not 64"
"$bin" estimate "$wf/est_sdxl_api.json" --comfyui-version banana 2>/dev/null; [ $? -eq 64 ] || bad "bad version: not 64"
"$bin" estimate "$wf/est_sdxl_api.json" --vram 8 2>/dev/null; [ $? -eq 64 ] || bad "a size without a unit: not 64"

[ $fail -eq 0 ] && echo "estimate CLI: ok"
exit $fail
