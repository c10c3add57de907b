#!/usr/bin/env python3
"""Writes the diagnose corpus: tests/diagnose/corpus/<case>.log and MANIFEST.

The logs are written by the team from the known formats of each message (PyTorch's,
the kernel's, Windows', the tools'); none is copied from a real user's log. A line
starting with "@@" is the key line: the marker is removed and its line number goes to
the MANIFEST with the expected cause, so the expectation is independent of the
classifier. Encoded variants (UTF-16LE/BE, GBK, cp1251, CRLF, ANSI, tqdm \\r) are
produced here as bytes. Run it again after editing; the files are committed.
"""
import os, random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
cases = []  # (name, cause, line)

def comfy_win(gpu="NVIDIA GeForce RTX 3060 Laptop GPU", vram=6144, ram=16088, torch="2.5.1+cu124"):
    return f"""[START] Security scan
[DONE] Security scan
## ComfyUI-Manager: installing dependencies done.
** ComfyUI startup time: 2025-03-14 20:41:07.118
** Platform: Windows
** Python version: 3.12.8 (tags/v3.12.8:2dc476b, Dec  3 2024, 19:30:04) [MSC v.1942 64 bit (AMD64)]
** Python executable: E:\\ComfyUI_windows_portable\\python_embeded\\python.exe
** ComfyUI Path: E:\\ComfyUI_windows_portable\\ComfyUI
** Log path: E:\\ComfyUI_windows_portable\\comfyui.log

Prestartup times for custom nodes:
   0.0 seconds: E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\rgthree-comfy
   1.9 seconds: E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ComfyUI-Manager

Total VRAM {vram} MB, total RAM {ram} MB
pytorch version: {torch}
Set vram state to: NORMAL_VRAM
Device: cuda:0 {gpu} : cudaMallocAsync
Using pytorch attention
[Prompt Server] web root: E:\\ComfyUI_windows_portable\\ComfyUI\\web
Import times for custom nodes:
   0.0 seconds: E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\websocket_image_save.py
   0.3 seconds: E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ComfyUI-Manager

Starting server

To see the GUI go to: http://127.0.0.1:8188
got prompt
"""

def comfy_linux(gpu="NVIDIA GeForce RTX 4070", vram=12282, ram=31998, torch="2.4.1+cu121"):
    return f"""Checkpoint files will always be loaded safely.
Total VRAM {vram} MB, total RAM {ram} MB
pytorch version: {torch}
xformers version: 0.0.28.post1
Set vram state to: NORMAL_VRAM
Device: cuda:0 {gpu} : cudaMallocAsync
Using xformers attention
ComfyUI version: 0.3.12
[Prompt Server] web root: /home/mika/ComfyUI/web
Starting server

To see the GUI go to: http://0.0.0.0:8188
got prompt
model weight dtype torch.float16, manual cast: None
model_type EPS
Using xformers attention in VAE
"""

SAMPLING = "100%|██████████| 20/20 [00:17<00:00,  1.16it/s]\n"

def tb_comfy(lines):
    head = """!!! Exception during processing !!! {msg}
Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 327, in execute
    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 202, in get_output_data
    return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION, allow_interrupt=True, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\nodes.py", line 1519, in sample
    return common_ksampler(model, seed, steps, cfg, sampler_name, scheduler, positive, negative, latent_image, denoise=denoise)
"""
    return head + lines

def add(name, cause, text, enc="utf-8", eol="\n", post=None):
    """text: str with one '@@' key line (or none for unknown). eol applied to \\n."""
    lines = text.split("\n")
    key = 0
    out = []
    for i, l in enumerate(lines):
        if l.startswith("@@"):
            key = i + 1
            l = l[2:]
        out.append(l)
    body = eol.join(out)
    if enc == "utf-16le-bom":
        data = b"\xff\xfe" + body.encode("utf-16-le")
    elif enc == "utf-16le":
        data = body.encode("utf-16-le")
    elif enc == "utf-16be-bom":
        data = b"\xfe\xff" + body.encode("utf-16-be")
    elif enc == "utf-8-bom":
        data = b"\xef\xbb\xbf" + body.encode("utf-8")
    else:
        data = body.encode(enc)
    if post:
        data = post(data)
    with open(os.path.join(OUT, name + ".log"), "wb") as f:
        f.write(data)
    cases.append((name, cause, key))

# ----------------------------------------------------------------------------- gpu-oom
add("comfy-win-torch25-cuda-oom", "gpu-oom", comfy_win() + """model weight dtype torch.float16, manual cast: None
model_type EPS
Requested to load SDXLClipModel
loaded completely 0.0 1560.802734375 True
Requested to load SDXL
loaded partially 4102.4 4101.9 0
 35%|███▌      | 7/20 [00:21<00:39,  3.02s/it]
""" + tb_comfy("""@@torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)
Currently allocated     : 5.61 GiB
Requested               : 640.00 MiB
Device limit            : 6.00 GiB
Free (according to CUDA): 0 bytes
PyTorch limit (set by user-supplied memory fraction)
                        : 17179869184.00 GiB

Got an OOM, unloading all loaded models.
Prompt executed in 31.47 seconds
"""))

add("comfy-linux-torch24-cuda-oom", "gpu-oom", comfy_linux() + """Requested to load SDXL
loaded completely 9122.8 4897.0490417480469 True
100%|██████████| 25/25 [00:09<00:00,  2.61it/s]
Requested to load AutoencoderKL
@@!!! Exception during processing !!! Tried to allocate 6.33 GiB. GPU 0 has a total capacity of 11.72 GiB of which 2.14 GiB is free.
Traceback (most recent call last):
  File "/home/mika/ComfyUI/execution.py", line 323, in execute
    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)
  File "/home/mika/ComfyUI/comfy/ldm/modules/diffusionmodules/model.py", line 94, in forward
    h = self.norm1(h)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.33 GiB. GPU 0 has a total capacity of 11.72 GiB of which 2.14 GiB is free. Including non-PyTorch memory, this process has 9.55 GiB memory in use. Of the allocated memory 8.91 GiB is allocated by PyTorch, and 412.37 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)

Got an OOM, unloading all loaded models.
Prompt executed in 14.02 seconds
""")

add("a1111-torch1-runtimeerror-cuda-oom", "gpu-oom", """venv "C:\\stable-diffusion-webui\\venv\\Scripts\\Python.exe"
Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC v.1932 64 bit (AMD64)]
Version: v1.2.1
Commit hash: 89f9faa63388756314e8a1d96cf86bf5e0663045
Launching Web UI with arguments: --xformers
Loading weights [6ce0161689] from C:\\stable-diffusion-webui\\models\\Stable-diffusion\\v1-5-pruned-emaonly.safetensors
Running on local URL:  http://127.0.0.1:7860
Model loaded in 4.2s (load weights from disk: 0.6s, create model: 0.5s, apply weights to model: 2.1s).
 60%|██████    | 12/20 [00:08<00:05,  1.45it/s]
Error completing request
Arguments: ('task(8d1m2a3k)', 'a castle on a hill', '', [], 30, 0, False, False, 1, 1, 7, -1.0, -1.0, 0, 0, 0, False, 1024, 1024, True, 0.7, 2, 'Latent', 0, 0, 0, [], 0) {}
Traceback (most recent call last):
  File "C:\\stable-diffusion-webui\\modules\\call_queue.py", line 57, in f
    res = list(func(*args, **kwargs))
  File "C:\\stable-diffusion-webui\\modules\\processing.py", line 658, in process_images_inner
    samples_ddim = p.sample(conditioning=c, unconditional_conditioning=uc, seeds=seeds, subseeds=subseeds, subseed_strength=p.subseed_strength, prompts=prompts)
@@RuntimeError: CUDA out of memory. Tried to allocate 1.13 GiB (GPU 0; 6.00 GiB total capacity; 3.88 GiB already allocated; 0 bytes free; 4.91 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF
""")

add("forge-cuda-error-out-of-memory", "gpu-oom", """Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC v.1932 64 bit (AMD64)]
Version: f2.0.1v1.10.1-previous-519-g44eb4ea8
Launching Web UI with arguments: --cuda-malloc
Total VRAM 8192 MB, total RAM 32692 MB
pytorch version: 2.3.1+cu121
Set vram state to: NORMAL_VRAM
Device: cuda:0 NVIDIA GeForce RTX 2070 SUPER : native
[Memory Management] Target: KModel, Free GPU: 5612.53 MB, Model Require: 9570.62 MB, Inference Require: 1024.00 MB, Remaining: -4982.09 MB, CPU Swap Loaded (blocked method): 5304.00 MB, GPU Loaded: 4266.62 MB
Traceback (most recent call last):
  File "D:\\webui_forge\\webui\\modules_forge\\main_thread.py", line 30, in work
    self.result = self.func(*self.args, **self.kwargs)
@@RuntimeError: CUDA error: out of memory
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

CUDA error: out of memory
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""")

add("comfy-rocm-hip-oom", "gpu-oom", comfy_linux(gpu="AMD Radeon RX 7800 XT", vram=16368, torch="2.5.1+rocm6.2") + """Requested to load Flux
loaded partially 13212.4 13210.7 0
 10%|█         | 2/20 [00:11<01:40,  5.60s/it]
Traceback (most recent call last):
  File "/opt/ComfyUI/comfy/ldm/flux/layers.py", line 181, in forward
    attn = attention(q, k, v, pe=pe)
@@torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.22 GiB. GPU 0 has a total capacity of 15.98 GiB of which 896.00 MiB is free. Of the allocated memory 14.32 GiB is allocated by PyTorch, and 402.11 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.

Prompt executed in 19.88 seconds
""")

add("comfy-mac-mps-oom", "gpu-oom", """Total VRAM 24576 MB, total RAM 24576 MB
pytorch version: 2.6.0
Set vram state to: SHARED
Device: mps
Using sub quadratic optimization for attention, if you have memory or speed issues try using: --use-split-cross-attention
Starting server

To see the GUI go to: http://127.0.0.1:8188
got prompt
Requested to load Flux
loaded completely 9.5367431640625e+25 22700.0 True
  0%|          | 0/20 [00:00<?, ?it/s]
!!! Exception during processing !!! MPS backend out of memory (MPS allocated: 22.61 GB, other allocations: 1.27 GB, max allowed: 27.20 GB). Tried to allocate 4.50 GB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
Traceback (most recent call last):
  File "/Users/ren/ComfyUI/execution.py", line 327, in execute
@@RuntimeError: MPS backend out of memory (MPS allocated: 22.61 GB, other allocations: 1.27 GB, max allowed: 27.20 GB). Tried to allocate 4.50 GB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
""".replace("@@RuntimeError", "RuntimeError").replace("!!! Exception during processing !!! MPS", "@@!!! Exception during processing !!! MPS"))

add("comfy-directml-oom", "gpu-oom", """Using directml with device:
Total VRAM 1024 MB, total RAM 32700 MB
pytorch version: 2.4.1+cpu
Set vram state to: NORMAL_VRAM
Device: privateuseone
Starting server

To see the GUI go to: http://127.0.0.1:8188
got prompt
Requested to load SD1ClipModel
Requested to load BaseModel
 45%|████▌     | 9/20 [00:37<00:45,  4.16s/it]
Traceback (most recent call last):
  File "C:\\ComfyUI\\comfy\\ldm\\modules\\attention.py", line 296, in attention_split
    s1 = einsum('b i d, b j d -> b i j', q[:, i:end], k) * scale
@@RuntimeError: Could not allocate tensor with 1342177280 bytes. There is not enough GPU video memory available!
""")

add("comfy-intel-xpu-oom", "gpu-oom", """Total VRAM 16288 MB, total RAM 31865 MB
pytorch version: 2.6.0+xpu
Set vram state to: NORMAL_VRAM
Device: xpu:0 Intel(R) Arc(TM) A770 Graphics
Using pytorch attention
got prompt
Requested to load SDXL
 80%|████████  | 16/20 [00:20<00:05,  1.27s/it]
!!! Exception during processing !!! XPU out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 15.91 GiB. Of the allocated memory 13.20 GiB is allocated by PyTorch, and 1.04 GiB is reserved by PyTorch but unallocated.
Traceback (most recent call last):
@@torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 15.91 GiB. Of the allocated memory 13.20 GiB is allocated by PyTorch, and 1.04 GiB is reserved by PyTorch but unallocated.
""".replace("@@torch", "torch").replace("!!! Exception during processing !!! XPU", "@@!!! Exception during processing !!! XPU"))

add("comfy-zluda-oom", "gpu-oom", comfy_win(gpu="AMD Radeon RX 6700 XT [ZLUDA]", vram=12272, torch="2.3.0+cu118").replace("cudaMallocAsync", "native") + """Requested to load SDXL
loaded partially 9712.2 9711.0 0
  5%|▌         | 1/20 [00:30<09:31, 30.06s/it]
@@!!! Exception during processing !!! CUDA out of memory. Tried to allocate 3.16 GiB. GPU
Traceback (most recent call last):
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.16 GiB. GPU
""")

add("kohya-cublas-alloc-failed", "gpu-oom", """prepare optimizer, data loader etc.
use 8-bit AdamW optimizer | {}
running training / 学習開始
  num train images * repeats / 学習画像の数×繰り返し回数: 1200
  num epochs / epoch数: 10
steps:   0%|          | 0/3000 [00:00<?, ?it/s]
epoch 1/10
Traceback (most recent call last):
  File "/workspace/kohya_ss/sd-scripts/train_network.py", line 1033, in <module>
    trainer.train(args)
@@RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`
steps:   0%|          | 0/3000 [00:04<?, ?it/s]
Traceback (most recent call last):
  File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main
subprocess.CalledProcessError: Command '['/workspace/venv/bin/python', 'sd-scripts/train_network.py', '--config_file=/workspace/out/config_lora.toml']' returned non-zero exit status 1.
""")

add("invokeai-cuda-oom", "gpu-oom", """[2025-01-20 18:02:11,517]::[InvokeAI]::INFO --> Patchmatch initialized
[2025-01-20 18:02:12,004]::[InvokeAI]::INFO --> Using torch device: NVIDIA GeForce RTX 3070
[2025-01-20 18:02:12,640]::[uvicorn.error]::INFO --> Uvicorn running on http://127.0.0.1:9090 (Press CTRL+C to quit)
[2025-01-20 18:03:40,221]::[InvokeAI]::INFO --> Executing queue item 14, session 1b0f3e62-7a61-4fd1-9dc3-2b3c4d5e6f70
[2025-01-20 18:03:44,830]::[ModelManagerService]::INFO --> [MODEL CACHE] Loaded model 'sdxl-base:main:unet' (UNet2DConditionModel) onto cuda device in 3.61s. Total model size: 4897.05MB, VRAM: 4897.05MB (100.0%)
@@[2025-01-20 18:03:58,112]::[InvokeAI]::ERROR --> Error while invoking session 1b0f3e62-7a61-4fd1-9dc3-2b3c4d5e6f70, invocation 6f1d (denoise_latents): CUDA out of memory. Tried to allocate 2.25 GiB. GPU 0 has a total capacity of 7.78 GiB of which 1.02 GiB is free.
[2025-01-20 18:03:58,113]::[InvokeAI]::ERROR --> Traceback (most recent call last):
  File "/opt/invokeai/.venv/lib/python3.11/site-packages/invokeai/app/services/session_processor/session_processor_default.py", line 129, in run_node
    output = invocation.invoke_internal(context=context, services=self._services)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.25 GiB. GPU 0 has a total capacity of 7.78 GiB of which 1.02 GiB is free.
""")

add("fooocus-cuda-oom", "gpu-oom", """Fooocus version: 2.5.5
[Cleanup] Attempting to delete content of temp dir C:\\Users\\ana\\AppData\\Local\\Temp\\fooocus
Total VRAM 4096 MB, total RAM 16297 MB
Set vram state to: LOW_VRAM
Always offload VRAM
Device: cuda:0 NVIDIA GeForce GTX 1650 : native
VAE dtype: torch.float32
[Fooocus] Preparing Fooocus text #1 ...
[Fooocus] Encoding positive #1 ...
[Sampler] refiner_swap_method = joint
  0%|          | 0/30 [00:00<?, ?it/s]
Traceback (most recent call last):
  File "C:\\Fooocus\\modules\\async_worker.py", line 1471, in worker
    handler(task)
  File "C:\\Fooocus\\ldm_patched\\modules\\model_management.py", line 411, in load_models_gpu
@@torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB (GPU 0; 4.00 GiB total capacity; 3.37 GiB already allocated; 0 bytes free; 3.44 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.
Total time: 14.61 seconds
""")

# folded at 80 columns: the phrase is cut in two and nothing else on the lines names it
FOLD = "!!! Exception during processing !!! RuntimeError: sampler failed: CUDA out of memory. Tried to allocate 1.50 GiB while running KSampler node 3 of workflow flux_dev_fp8.json"
folded = "\n".join(FOLD[i:i+80] for i in range(0, len(FOLD), 80))
flines = folded.split("\n")
# the phrase must really be cut: neither half-line holds it whole
assert "CUDA out of memory" not in flines[0] and "CUDA out of memory" not in flines[1]
add("comfy-oom-folded-80-columns", "gpu-oom",
    comfy_win() + "Requested to load Flux\n@@" + "\n".join(flines) + "\n")

def glued():
    bar = "".join(f"\r {p:3d}%|{'█'*(p//10):<10}| {p//5}/20 [00:{p//5:02d}<00:10,  1.90it/s]" for p in range(0, 50, 5))
    text = comfy_linux() + "Requested to load SDXL\n" + "@@" + bar + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB. GPU 0 has a total capacity of 11.72 GiB of which 301.44 MiB is free.\n" + "Got an OOM, unloading all loaded models.\nPrompt executed in 9.13 seconds\n"
    add("comfy-oom-glued-to-tqdm-cr", "gpu-oom", text)
glued()

ESC = "\x1b"
add("comfy-oom-ansi-colours", "gpu-oom", comfy_linux().replace("Starting server", f"{ESC}[32mStarting server{ESC}[0m") + f"""{ESC}]0;ComfyUI{ESC}\\{ESC}[36mRequested to load SDXL{ESC}[0m
{ESC}[2K 60%|██████    | 12/20 [00:06<00:04,  1.92it/s]
@@{ESC}[31m{ESC}[1m!!! Exception during processing !!!{ESC}[0m {ESC}[31mCUDA{ESC}[0m out of memory. Tried to allocate 4.00 GiB.
{ESC}[31mTraceback (most recent call last):{ESC}[0m
{ESC}[31mtorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.{ESC}[0m
""".replace(f"{ESC}[31mCUDA{ESC}[0m out of memory", "CUDA out of memory"))

add("comfy-oom-powershell-utf16le-bom", "gpu-oom", comfy_win() + """Requested to load SDXL
loaded partially 3810.6 3810.2 0
@@!!! Exception during processing !!! CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free.
Traceback (most recent call last):
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free.
""", enc="utf-16le-bom", eol="\r\n")

add("comfy-oom-crlf", "gpu-oom", comfy_win() + """Requested to load SDXL
 50%|█████     | 10/20 [00:20<00:20,  2.01s/it]
Traceback (most recent call last):
@@torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free.
""", eol="\r\n")

add("sdcpp-vulkan-device-memory", "gpu-oom", """[INFO ] stable-diffusion.cpp:195  - loading model from 'models/sd3.5_large-q4_0.gguf'
[INFO ] model.cpp:912  - load models/sd3.5_large-q4_0.gguf using gguf format
ggml_vulkan: Found 1 Vulkan devices:
ggml_vulkan: 0 = AMD Radeon RX 6600 (RADV NAVI23) (radv) | uma: 0 | fp16: 1 | warp size: 64
[INFO ] stable-diffusion.cpp:560  - total params memory size = 6381.34MB (VRAM 6381.34MB, RAM 0.00MB)
@@ggml_vulkan: Device memory allocation of size 1610612736 failed.
ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory
[ERROR] ggml_extend.hpp:1070 - vae: failed to allocate the compute buffer
""")

add("llamacpp-style-cudamalloc-failed", "gpu-oom", """ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6, VMM: yes
[INFO ] stable-diffusion.cpp:206  - Using CUDA backend
[INFO ] model.cpp:1010 - load flux1-dev-q8_0.gguf using gguf format
@@ggml_backend_cuda_buffer_type_alloc_buffer: allocating 12282.75 MiB on device 0: cudaMalloc failed: out of memory
[ERROR] stable-diffusion.cpp:295  - flux params backend buffer allocation failed
""")

add("zh-launcher-vram", "gpu-oom", """[启动器] 正在启动 ComfyUI ...
Total VRAM 8188 MB, total RAM 32607 MB
pytorch version: 2.5.1+cu124
got prompt
Requested to load Flux
@@[启动器] 生成失败：显存不足，请降低分辨率或开启 --lowvram
Prompt executed in 12.07 seconds
""")

add("gpu-oom-then-killed-later", "gpu-oom", comfy_linux() + """Requested to load SDXL
@@torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.72 GiB of which 1.50 GiB is free.
Got an OOM, unloading all loaded models.
Prompt executed in 4.40 seconds
got prompt
Requested to load Flux
loaded partially 9000.1 8999.8 0
./run.sh: line 4: 31207 Killed                  python main.py --listen
""")

# ----------------------------------------------------------------------------- host-oom
add("comfy-win-1455-zh-gbk", "host-oom", comfy_win(torch="2.1.2+cu121").split("Total VRAM")[0] + """Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\main.py", line 90, in <module>
    import execution
  File "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\__init__.py", line 128, in <module>
    raise err
@@OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.

E:\\ComfyUI_windows_portable>pause
请按任意键继续. . .
""", enc="gbk", eol="\r\n")

add("comfy-win-1455-en", "host-oom", comfy_win() + """Requested to load FluxClipModel_
loaded completely 0.0 9319.23095703125 True
Requested to load Flux
Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\comfy\\utils.py", line 48, in load_torch_file
    sd = safetensors.torch.load_file(ckpt, device=device.type)
@@OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.
""")

add("safetensors-os-error-1455-zh-utf8", "host-oom", comfy_win() + """Requested to load HunyuanVideo
!!! Exception during processing !!! 页面文件太小，无法完成操作。 (os error 1455)
Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\safetensors\\torch.py", line 313, in load_file
    with safe_open(filename, framework="pt", device=device) as f:
@@OSError: 页面文件太小，无法完成操作。 (os error 1455)
""".replace("!!! Exception during processing !!! 页面", "@@!!! Exception during processing !!! 页面").replace("@@OSError", "OSError"))

add("comfy-win-1455-german", "host-oom", comfy_win() + """Requested to load SDXL
Traceback (most recent call last):
@@OSError: [WinError 1455] Die Auslagerungsdatei ist zu klein, um diesen Vorgang durchzuführen. Error loading "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll" or one of its dependencies.
""", enc="cp1252")

add("comfy-win-1455-russian-cp1251", "host-oom", comfy_win() + """Traceback (most recent call last):
@@OSError: [WinError 1455] Файл подкачки слишком мал для завершения операции. Error loading "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\lib\\shm.dll" or one of its dependencies.
""", enc="cp1251")

add("comfy-win-1455-japanese", "host-oom", comfy_win() + """Requested to load WanTEModel
Traceback (most recent call last):
@@OSError: ページング ファイルが小さすぎるため、この操作を完了できません。 (os error 1455)
""")

add("comfy-defaultcpuallocator", "host-oom", comfy_win() + """Requested to load WAN21
loaded partially 5120.0 5119.6 0
!!! Exception during processing !!! [enforce fail at alloc_cpu.cpp:115] data. DefaultCPUAllocator: not enough memory: you tried to allocate 3565158400 bytes.
Traceback (most recent call last):
@@RuntimeError: [enforce fail at alloc_cpu.cpp:115] data. DefaultCPUAllocator: not enough memory: you tried to allocate 3565158400 bytes.
""".replace("!!! Exception during processing !!! [enforce", "@@!!! Exception during processing !!! [enforce").replace("@@RuntimeError", "RuntimeError"))

add("a1111-memoryerror", "host-oom", """Loading weights [31e35c80fc] from C:\\sd\\models\\Stable-diffusion\\sd_xl_base_1.0.safetensors
Creating model from config: C:\\sd\\repositories\\generative-models\\configs\\inference\\sd_xl_base.yaml
Traceback (most recent call last):
  File "C:\\sd\\modules\\sd_models.py", line 620, in load_model
    sd_model = instantiate_from_config(sd_config.model)
  File "C:\\sd\\venv\\lib\\site-packages\\torch\\nn\\modules\\module.py", line 1145, in to
    return self._apply(convert)
@@MemoryError

Stable diffusion model failed to load
""")

add("kohya-std-bad-alloc", "host-oom", """loading model for process 0/1
load StableDiffusion checkpoint: /workspace/models/flux1-dev.safetensors
building U-Net
loading U-Net from checkpoint
@@terminate called after throwing an instance of 'std::bad_alloc'
  what():  std::bad_alloc
Aborted (core dumped)
""")

add("linux-errno12-dataloader", "host-oom", """epoch 3/10
steps:  24%|██▍       | 720/3000 [18:03<57:11,  1.50s/it, avr_loss=0.0913]
Traceback (most recent call last):
  File "/home/ji/kohya_ss/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1251, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "/usr/lib/python3.10/multiprocessing/popen_fork.py", line 66, in _launch
    self.pid = os.fork()
@@OSError: [Errno 12] Cannot allocate memory
""")

add("numpy-array-memoryerror", "host-oom", comfy_linux() + """Requested to load AutoencoderKL
!!! Exception during processing !!! Unable to allocate 5.93 GiB for an array with shape (81, 1280, 720, 3) and data type float64
Traceback (most recent call last):
  File "/home/mika/ComfyUI/custom_nodes/ComfyUI-VideoHelperSuite/videohelpersuite/nodes.py", line 422, in combine_video
    images = np.array(images)
@@numpy.core._exceptions._ArrayMemoryError: Unable to allocate 5.93 GiB for an array with shape (81, 1280, 720, 3) and data type float64
""".replace("!!! Exception during processing !!! Unable", "@@!!! Exception during processing !!! Unable").replace("@@numpy", "numpy"))

add("linux-mmap-cannot-allocate", "host-oom", comfy_linux() + """model weight dtype torch.bfloat16, manual cast: None
@@RuntimeError: unable to mmap 23802932552 bytes from file </home/mika/ComfyUI/models/unet/flux1-dev.safetensors>: Cannot allocate memory (12)
""")

add("win-winerror-8", "host-oom", comfy_win() + """Requested to load LTXV
Traceback (most recent call last):
@@OSError: [WinError 8] Not enough memory resources are available to process this command
""")

add("win-launcher-commitment-limit-exit", "host-oom", """[Launcher] Starting ComfyUI (portable) with --lowvram
[ComfyUI] got prompt
[ComfyUI] Requested to load WAN21
[ComfyUI] loaded partially 2048.0 2047.8 0
@@[Launcher] ComfyUI exited with code 3221225773
""")

add("zh-cn-glibc-enomem", "host-oom", """训练开始
steps:   3%|▎         | 90/3000 [02:11<1:10:45,  1.46s/it]
Traceback (most recent call last):
  File "/home/wang/sd-scripts/library/train_util.py", line 2380, in load_image
@@OSError: [Errno 12] 无法分配内存
""")

add("host-oom-ansi-crlf", "host-oom", comfy_win().replace("Starting server", f"{ESC}[32mStarting server{ESC}[0m") + f"""{ESC}[33mRequested to load Flux{ESC}[0m
@@{ESC}[31mRuntimeError: [enforce fail at alloc_cpu.cpp:115] data. DefaultCPUAllocator: not enough memory: you tried to allocate 9437184000 bytes.{ESC}[0m
""", eol="\r\n")

add("comfy-winerror8-zh-gbk", "host-oom", comfy_win() + """Requested to load SDXL
Traceback (most recent call last):
@@OSError: [WinError 8] 存储空间不足，无法处理此命令。
""", enc="gbk", eol="\r\n")

add("invokeai-cpu-allocator-old", "host-oom", """[2024-02-11 09:14:03,221]::[InvokeAI]::INFO --> Loading model /invokeai/models/sdxl/main/juggernautXL (sdxl main model)
@@[2024-02-11 09:14:09,880]::[InvokeAI]::ERROR --> Error while invoking: DefaultCPUAllocator: can't allocate memory: you tried to allocate 52428800 bytes. Error code 12 (Cannot allocate memory)
""")

add("fooocus-1455-utf16le-nobom", "host-oom", """Fooocus version: 2.5.5
Total VRAM 8192 MB, total RAM 8114 MB
Loading base model: C:\\Fooocus\\models\\checkpoints\\juggernautXL_v8Rundiffusion.safetensors
Traceback (most recent call last):
@@OSError: [WinError 1455] The paging file is too small for this operation to complete
""", enc="utf-16le", eol="\r\n")

add("host-oom-utf16be", "host-oom", """Total VRAM 8192 MB, total RAM 16000 MB
Requested to load SDXL
@@MemoryError: std::bad_alloc
""", enc="utf-16be-bom")

# ----------------------------------------------------------------------------- killed
add("linux-shell-job-killed", "killed", comfy_linux() + """Requested to load Flux
loaded completely 20000.0 11350.3 True
 15%|█▌        | 3/20 [00:19<01:50,  6.51s/it]
@@./launch.sh: line 12: 48213 Killed                  python main.py --listen 0.0.0.0
""")

add("linux-bare-killed", "killed", comfy_linux() + """Requested to load HunyuanVideo
loaded partially 10240.0 10239.4 0
 """ + "\r".join(f" {p}%|" for p in range(0, 30, 3)) + """
@@Killed
""")

add("docker-compose-exit-137", "killed", """comfyui-1  | Requested to load Flux
comfyui-1  | loaded partially 14000.0 13998.1 0
comfyui-1  |  25%|██▌       | 5/20 [00:41<02:04,  8.28s/it]
@@comfyui-1 exited with code 137
""")

add("kohya-subprocess-sigkill", "killed", """caching latents...
100%|██████████| 60/60 [00:21<00:00,  2.79it/s]
Traceback (most recent call last):
  File "/workspace/kohya_ss/kohya_gui/class_command_executor.py", line 72, in execute_command
@@subprocess.CalledProcessError: Command '['/workspace/kohya_ss/venv/bin/accelerate', 'launch', '--num_cpu_threads_per_process=2', 'sd-scripts/sdxl_train_network.py']' died with <Signals.SIGKILL: 9>.
""")

add("accelerate-exitcode-minus-9", "killed", """steps:   1%|▏         | 31/3000 [00:52<1:23:41,  1.69s/it, avr_loss=0.112]
@@W0302 14:22:07.113000 3098 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 3121 closing signal SIGTERM
E0302 14:22:07.440000 3098 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 0 (pid: 3121) of binary: /workspace/venv/bin/python3
""".replace("@@W0302", "W0302").replace("E0302 14:22:07.440000", "@@E0302 14:22:07.440000"))

add("dmesg-global-oom-killer", "killed", """[81234.118201] python3 invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[81234.118230] CPU: 5 PID: 48213 Comm: python3 Not tainted 6.1.0-18-amd64 #1  Debian 6.1.76-1
[81234.118300] Mem-Info:
[81234.118350] active_anon:3921841 inactive_anon:102011 isolated_anon:0
[81234.118420] Free swap  = 0kB
[81234.118421] Total swap = 2097148kB
[81234.118500] Tasks state (memory values in pages):
[81234.118501] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
[81234.118560] [  48213]  1000 48213  6011233  3903122 32129024   524100             0 python3
[81234.118600] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice/session-2.scope,task=python3,pid=48213,uid=1000
[81234.118650] Out of memory: Killed process 48213 (python3) total-vm:24044932kB, anon-rss:15612488kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:31376kB oom_score_adj:0
""".replace("[81234.118201] python3 invoked", "@@[81234.118201] python3 invoked"))

add("journal-systemd-oomd", "killed", """Mar 14 22:10:01 studio gnome-shell[1801]: Window manager warning: last_user_time (1234) is greater than comparison timestamp
@@Mar 14 22:10:19 studio systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/vte-spawn-7d1c.scope due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 71.52% > 50.00% for > 20s with reclaim activity
Mar 14 22:10:19 studio systemd[1588]: vte-spawn-7d1c.scope: systemd-oomd killed 3 process(es) in this unit.
""")

add("earlyoom-sigterm", "killed", """Mar 02 03:14:55 gpu-box earlyoom[655]: mem avail:   311 of 31998 MiB ( 0.97%), swap free:  204 of 2047 MiB ( 9.97%)
@@Mar 02 03:14:55 gpu-box earlyoom[655]: low memory! at or below SIGTERM limits: mem 10.00%, swap 10.00%
Mar 02 03:14:55 gpu-box earlyoom[655]: sending SIGTERM to process 48213 uid 1000 "python3": oom_score 912, VmRSS 28771 MiB, cmdline "python main.py --listen"
Mar 02 03:14:56 gpu-box earlyoom[655]: process exited after 0.4 seconds
""")

add("win-portable-press-any-key", "killed", comfy_win() + """model weight dtype torch.float16, manual cast: None
model_type FLOW
Requested to load FluxClipModel_
loaded completely 0.0 4777.53759765625 True
Requested to load Flux

E:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build
E:\\ComfyUI_windows_portable>pause
@@Press any key to continue . . .
""", eol="\r\n")

add("win-portable-press-any-key-zh-gbk", "killed", comfy_win() + """Requested to load WAN21
loaded partially 4821.1 4820.9 0
  0%|          | 0/30 [00:00<?, ?it/s]
E:\\ComfyUI_windows_portable>pause
@@请按任意键继续. . .
""", enc="gbk", eol="\r\n")

add("win-launcher-exit-access-violation", "killed", """[Launcher] Launching ComfyUI
[ComfyUI] got prompt
[ComfyUI] Requested to load SDXL
[ComfyUI] loaded partially 3200.0 3199.8 0
@@[Launcher] ComfyUI process exited with code 3221225477
""")

add("win-ide-exit-av-signed", "killed", """Requested to load Flux
 10%|█         | 2/20 [00:33<04:57, 16.53s/it]

@@Process finished with exit code -1073741819 (0xC0000005)
""")

add("k8s-oomkilled", "killed", """Name:             comfyui-7d9f8c6b5-xk2lp
Namespace:        gen
Containers:
  comfyui:
    State:          Running
      Started:      Fri, 14 Mar 2025 22:40:02 +0000
    Last State:     Terminated
@@      Reason:       OOMKilled
      Exit Code:    137
    Limits:
      memory:  16Gi
""")

add("docker-host-memcg-line", "killed", """[Wed Mar 12 10:02:14 2025] python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0
[Wed Mar 12 10:02:14 2025] memory: usage 16777216kB, limit 16777216kB, failcnt 2381
[Wed Mar 12 10:02:14 2025] swap: usage 0kB, limit 0kB, failcnt 0
[Wed Mar 12 10:02:14 2025] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=docker-3f2a.scope,mems_allowed=0,oom_memcg=/system.slice/docker-3f2a.scope,task_memcg=/system.slice/docker-3f2a.scope,task=python,pid=912,uid=0
[Wed Mar 12 10:02:14 2025] Memory cgroup out of memory: Killed process 912 (python) total-vm:21458412kB, anon-rss:16612004kB, file-rss:51200kB, shmem-rss:0kB, UID:0 pgtables:33104kB oom_score_adj:0
""".replace("[Wed Mar 12 10:02:14 2025] python invoked", "@@[Wed Mar 12 10:02:14 2025] python invoked"))

add("zh-linux-bash-killed", "killed", """Requested to load Flux
loaded partially 9800.0 9799.1 0
 20%|██        | 4/20 [00:28<01:53,  7.07s/it]
@@已杀死
""")

add("systemd-unit-oom-kill", "killed", """Mar 03 01:12:44 srv systemd[1]: Started comfyui.service - ComfyUI.
Mar 03 01:40:10 srv python[2211]: got prompt
@@Mar 03 01:41:57 srv systemd[1]: comfyui.service: A process of this unit has been killed by the OOM killer.
Mar 03 01:41:57 srv systemd[1]: comfyui.service: Main process exited, code=killed, status=9/KILL
Mar 03 01:41:57 srv systemd[1]: comfyui.service: Failed with result 'oom-kill'.
""")

add("macos-killed-9", "killed", """Requested to load Flux
loaded completely 9.5e+25 22700.0 True
@@zsh: killed     python main.py
""")

add("stability-matrix-exit-av-hex", "killed", """2025-03-14 21:02:11.5581|INFO|ComfyUI|got prompt
2025-03-14 21:02:40.1177|INFO|ComfyUI|Requested to load SDXL
@@2025-03-14 21:02:55.0420|ERROR|PackageManager|Process exited with exit code 0xC0000005
""")

# ---------------------------------------------------------------------- low-virtual-memory
add("win-event-2004-export", "low-virtual-memory", """Log Name:      System
@@Source:        Microsoft-Windows-Resource-Exhaustion-Detector
Date:          2025-03-14 21:40:11
Event ID:      2004
Level:         Warning
Description:   Windows successfully diagnosed a low virtual memory condition. The following programs consumed the most virtual memory: python.exe (11234) consumed 21474836480 bytes, msedge.exe (8812) consumed 1342177280 bytes, and explorer.exe (5012) consumed 402653184 bytes.
""")

add("win-popup-low-on-virtual-memory", "low-virtual-memory", """[Launcher] ComfyUI running (pid 11234)
[Launcher] Windows reported: Windows - Virtual Memory Minimum Too Low
@@[Launcher] Your system is low on virtual memory. Windows is increasing the size of your virtual memory paging file. During this process, memory requests for some applications may be denied.
[ComfyUI] Requested to load WAN21
""".replace("[Launcher] Windows reported: Windows - Virtual Memory Minimum Too Low", "@@[Launcher] Windows reported: Windows - Virtual Memory Minimum Too Low").replace("@@[Launcher] Your", "[Launcher] Your"))

add("win-event-2004-zh", "low-virtual-memory", """日志名称:      System
来源:          Microsoft-Windows-Resource-Exhaustion-Detector
事件 ID:       2004
@@描述:   Windows 已成功诊断出虚拟内存不足的情况。下列程序占用的虚拟内存最多: python.exe (11234) 占用了 21474836480 字节
""".replace("来源:          Microsoft-Windows-Resource-Exhaustion-Detector", "@@来源:          Microsoft-Windows-Resource-Exhaustion-Detector").replace("@@描述", "描述"))

add("lowvm-then-1455", "low-virtual-memory", """[Launcher] ComfyUI running (pid 8876)
@@[Launcher] System warning: Your computer is low on memory. To restore enough memory for programs to work correctly, save your files and then close or restart all open programs.
[ComfyUI] Requested to load HunyuanVideo
[ComfyUI] OSError: [WinError 1455] The paging file is too small for this operation to complete
""")

# ------------------------------------------------------------------------------ not-memory
add("comfy-illegal-memory-access", "not-memory", comfy_linux() + """Requested to load SDXL
 30%|███       | 6/20 [00:03<00:07,  1.93it/s]
!!! Exception during processing !!! CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
""".replace("!!! Exception during processing !!! CUDA error: an illegal", "@@!!! Exception during processing !!! CUDA error: an illegal"))

add("comfy-device-side-assert", "not-memory", comfy_linux() + """Requested to load SD1ClipModel
@@/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1369: indexSelectLargeIndex: block: [211,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.
Traceback (most recent call last):
RuntimeError: CUDA error: device-side assert triggered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
""")

add("win-tdr-launch-timeout", "not-memory", comfy_win() + """Requested to load SDXL
 95%|█████████▌| 19/20 [00:41<00:02,  2.18s/it]
Traceback (most recent call last):
@@RuntimeError: CUDA error: the launch timed out and was terminated
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""")

add("linux-segfault", "not-memory", comfy_linux() + """Requested to load SDXL
@@Fatal Python error: Segmentation fault

Current thread 0x00007f3a1bfff640 (most recent call first):
  File "/home/mika/ComfyUI/custom_nodes/some_node/ops.py", line 88 in forward
Segmentation fault (core dumped)
""")

add("win-faulthandler-access-violation", "not-memory", comfy_win() + """Requested to load SDXL
@@Windows fatal exception: access violation

Thread 0x00002a44 (most recent call first):
  File "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\insightface\\model_zoo\\retinaface.py", line 224 in detect
""", eol="\r\n")

add("rocm-memory-access-fault", "not-memory", comfy_linux(gpu="AMD Radeon RX 6800", torch="2.4.1+rocm6.1") + """Requested to load SDXL
  0%|          | 0/20 [00:00<?, ?it/s]
@@Memory access fault by GPU node-1 (Agent handle: 0x55d7c1e2b0a0) on address 0x7f2b4c000000. Reason: Page not present or supervisor privilege.
Aborted (core dumped)
""")

add("no-kernel-image", "not-memory", comfy_win(gpu="NVIDIA GeForce GTX 970", vram=4096) + """Requested to load SD1ClipModel
Traceback (most recent call last):
@@RuntimeError: CUDA error: no kernel image is available for execution on the device
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""")

add("glibc-heap-corruption", "not-memory", """Requested to load SDXL
@@malloc(): corrupted top size
Aborted (core dumped)
""")

add("nvidia-xid-79", "not-memory", """[ 9123.110212] NVRM: GPU at PCI:0000:01:00: GPU-7f0c1d2e-aaaa-bbbb-cccc-0123456789ab
@@[ 9123.110230] NVRM: Xid (PCI:0000:01:00): 79, pid=2211, name=python3, GPU has fallen off the bus.
[ 9123.110300] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.
""")

add("win-event-nvlddmkm", "not-memory", """Log Name:      System
Source:        Display
Event ID:      4101
@@Description:   Display driver nvlddmkm stopped responding and has successfully recovered.
""")

# -------------------------------------------------------------------------------- unknown
add("clean-run", "unknown", comfy_win() + """model weight dtype torch.float16, manual cast: None
Requested to load SDXL
loaded completely 9122.8 4897.0 True
""" + SAMPLING + """Requested to load AutoencoderKL
Prompt executed in 19.20 seconds
[ComfyUI-Manager] All startup tasks have been completed.
FETCH DATA from: E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ComfyUI-Manager\\extension-node-map.json [DONE]
""")

add("module-not-found-then-pause", "not-memory", comfy_win().split("Total VRAM")[0] + """Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\main.py", line 136, in <module>
    import execution
@@ModuleNotFoundError: No module named 'aiohttp'

E:\\ComfyUI_windows_portable>pause
Press any key to continue . . .
""", eol="\r\n")

add("prose-mentions-memory", "unknown", """# Notes from the workflow author
This workflow was killed off in v2 and replaced; the old killed-nodes list is below.
Memory tips: the sampler tries to allocate little; see the memory management docs.
Set vram state to: LOW_VRAM
[Memory Management] Current Free GPU Memory: 3012.11 MB
Prompt executed in 41.02 seconds
""")

add("empty", "unknown", "")

# ============================================================================================
# Issue 11 classes. Each case is written by the team in the shape of a public report that was
# read and checked (the URL is noted in SOURCES next to the case); no user's log is copied.
sources = {}
def src(name, url):
    sources[name] = url

PROGRESS = "".join(" %2d%%|%-10s| %d/20 [00:%02d<00:%02d,  1.16it/s]\r" % (p * 5, "#" * (p // 2), p, p, 20 - p) for p in range(0, 10))

# --- GPU: short form, other back-ends, wrappers
add("comfy-allocation-on-device", "gpu-oom", comfy_linux() + """2024-12-16 17:10:50,120 - root - INFO - Requested to load Flux
@@2024-12-16 17:10:56,767 - root - ERROR - !!! Exception during processing !!! Allocation on device 
2024-12-16 17:10:56,770 - root - ERROR - Traceback (most recent call last):
  File "/root/ComfyUI/execution.py", line 317, in execute
    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)
torch.OutOfMemoryError: Allocation on device 

2024-12-16 17:10:56,901 - root - ERROR - Got an OOM, unloading all loaded models.
2024-12-16 17:10:56,950 - root - INFO - Prompt executed in 6.20 seconds
""")
src("comfy-allocation-on-device", "https://github.com/Comfy-Org/ComfyUI/issues/6073 (also #4852, #4934)")

add("tensorflow-oom-allocating-tensor", "gpu-oom", """2024-05-02 10:11:12.000 I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 7423 MB memory
Epoch 1/10
@@tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[64,256,128,128] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc
""")
src("tensorflow-oom-allocating-tensor", "TensorFlow's ResourceExhaustedError wording (tensorflow/core/common_runtime/bfc_allocator.cc)")

add("sdcpp-hip-cudamalloc-then-av", "gpu-oom", """[INFO ] stable-diffusion.cpp:2921 - generating image: 1/1 - seed 42
@@[ERROR] ggml_extend.hpp:75   - ggml_backend_cuda_buffer_type_alloc_buffer: allocating 25929092.46 MiB on device 0: cudaMalloc failed: out of memory
[ERROR] ggml_extend.hpp:75   - ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 27188624053504
[ERROR] ggml_extend.hpp:1649 - unet: failed to allocate the compute buffer
Exception Code: 0xC0000005
""")
src("sdcpp-hip-cudamalloc-then-av", "https://github.com/leejet/stable-diffusion.cpp/pull/1003")

add("custom-node-wrapper-oom-gpu", "gpu-oom", comfy_win() + """Requested to load WanTEModel
@@[VideoHelperSuite] OOM detected on GPU while decoding frames, aborting batch
Prompt executed in 12.01 seconds
""")
src("custom-node-wrapper-oom-gpu", "issue 11 (custom-node wrappers that report a GPU OOM in their own words)")

# --- recovered, or only mentioned: warnings, look-alikes
add("comfy-vae-tiled-retry-recovered", "unknown", comfy_win() + """Requested to load SDXL
""" + PROGRESS + """100%|##########| 20/20 [00:17<00:00,  1.16it/s]
Requested to load AutoencoderKL
Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.
Prompt executed in 25.00 seconds
""")
src("comfy-vae-tiled-retry-recovered", "https://github.com/Acly/krita-ai-diffusion/issues/556 (the warning, quoted by the maintainer)")

add("fooocus-vae-retry-then-oom", "gpu-oom", """[Fooocus] Sampling
 97%|##########| 29/30 [01:16<00:02,  2.61s/it]
100%|##########| 30/30 [01:18<00:00,  2.61s/it]
Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.
Traceback (most recent call last):
  File "C:\\AI\\Fooocus\\backend\\headless\\fcbh\\sd.py", line 205, in decode
    pixel_samples[x:x+batch_number] = torch.clamp(self.first_stage_model.decode(samples))
@@torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB (GPU 0; 6.00 GiB total capacity; 4.96 GiB already allocated)
""")
src("fooocus-vae-retry-then-oom", "https://github.com/lllyasviel/Fooocus/issues/700")

add("comfy-cleared-cuda-cache-notice", "unknown", comfy_win() + """Requested to load SDXL
[SomeMemoryNode] Cleared CUDA cache to avoid out of memory errors
Prompt executed in 9.80 seconds
""")
src("comfy-cleared-cuda-cache-notice", "issue 11 (the wording it quotes)")

add("diffusers-oom-retry-slices", "unknown", """Loading pipeline components...: 100%|##########| 7/7 [00:03<00:00,  2.10it/s]
Out of memory, retrying with slices
100%|##########| 30/30 [00:41<00:00,  1.38s/it]
Saved output.png
""")
src("diffusers-oom-retry-slices", "issue 11 (\"out of memory, retrying with slices/tiles\" notices the run survives)")

add("llamacpp-mlock-cannot-allocate", "not-memory", """llama_model_load_internal: total VRAM used: 8106 MB
@@warning: failed to mlock 139264000-byte buffer (after previously locking 0 bytes): Cannot allocate memory
Try increasing RLIMIT_MLOCK ('ulimit -l' as root).
llama_new_context_with_model: kv self size  = 1024.00 MB
""")
src("llamacpp-mlock-cannot-allocate", "https://github.com/h2oai/h2ogpt/issues/812 (also abetlen/llama-cpp-python#254)")

# --- host: libraries, Rust, native asserts, heap reservation
add("rust-alloc-failed-glued-aborted", "host-oom", """info: installing component 'rustc'
@@ 42.0 MiB /  60.2 MiB ( 70 %)   8.0 MiB/s in  5s ETA:  2smemory allocation of 166442784 bytes failedsh: line 371: 18018 Aborted
""")
src("rust-alloc-failed-glued-aborted", "https://github.com/rust-lang/rust/issues/73202")

add("pyo3-alloc-failed-core-dumped", "host-oom", """Loading tokenizer...
@@memory allocation of 8192 bytes failed
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
Aborted (core dumped)
""")
src("pyo3-alloc-failed-core-dumped", "https://github.com/dtolnay/cargo-tally/pull/100 (Rust's allocation-failure message)")

add("pyo3-panic-os-outofmemory", "host-oom", """Encoding prompts...
@@thread '<unnamed>' panicked at src/lib.rs:42:10: called `Result::unwrap()` on an `Err` value: Os { code: 12, kind: OutOfMemory, message: "Cannot allocate memory" }
pyo3_runtime.PanicException: called `Result::unwrap()` on an `Err` value: Os { code: 12, kind: OutOfMemory, message: "Cannot allocate memory" }
""")
src("pyo3-panic-os-outofmemory", "issue 11 (allocation failures inside a Rust/pyo3 panic); Rust's io::ErrorKind::OutOfMemory debug form")

add("opencv-insufficient-memory", "host-oom", """Processing frame 812/2400
@@cv2.error: OpenCV(4.8.0) D:\\a\\opencv-python\\opencv\\modules\\core\\src\\alloc.cpp:73: error: (-4:Insufficient memory) Failed to allocate 2147483648 bytes in function 'OutOfMemoryError'
""")
src("opencv-insufficient-memory", "OpenCV's allocation error (modules/core/src/alloc.cpp, CV_Error(CV_StsNoMem))")

add("sdcpp-ggml-mem-buffer-assert", "host-oom", """[INFO ] stable-diffusion.cpp:668  - total params memory size = 1501.38MB (VRAM 0.00MB, RAM 1501.38MB)
[INFO ] stable-diffusion.cpp:721  - running in eps-prediction mode
@@C:\\Users\\someone\\stable-diffusion.cpp\\ggml\\src\\ggml.c:1516: GGML_ASSERT(ctx->mem_buffer != NULL) failed
""")
src("sdcpp-ggml-mem-buffer-assert", "https://github.com/leejet/stable-diffusion.cpp/issues/879")

add("java-heap-reserve-failed", "host-oom", """Starting the tile server...
Error occurred during initialization of VM
@@Could not reserve enough space for 16777216KB object heap
""")
src("java-heap-reserve-failed", "HotSpot's start-up message when the heap cannot be reserved (issue 11: a server that cannot reserve its heap)")

# --- killed: glued, job control, oomd old and new, the pause prompt in other languages
def killed_glued(data):
    return data.replace(b"@@KILL", b"Killed")
add("comfy-killed-glued-to-progress", "killed", comfy_linux() + """Requested to load SDXL
@@""" + PROGRESS.replace("\r", "\r", 9) + """ 45%|####5     | 9/20 [00:10<00:12,  1.16it/s]Killed
""")
src("comfy-killed-glued-to-progress", "issue 11 (Killed glued to a progress bar); tqdm bar shape from https://github.com/mmartial/ComfyUI-Nvidia-Docker/issues/56")

add("zsh-job-killed-lowercase", "killed", comfy_linux() + """Requested to load Flux
@@[1]  + 9301 killed     python main.py --listen
""")
src("zsh-job-killed-lowercase", "issue 11 (zsh's job notice)")

add("bash-killed-command-line", "killed", comfy_linux() + """Requested to load Flux
@@Killed                  python main.py --listen
""")
src("bash-killed-command-line", "issue 11 (bash's notice)")

add("systemd-oomd-memory-and-swap-used", "killed", """Aug 02 10:11:12 koji systemd-oomd[2261673]: Considered 12 cgroups for killing, top candidates were:
@@Aug 02 10:11:12 koji systemd-oomd[2261673]: Killed /system.slice/comfyui.service due to memory used (32305733632) / total (33046405120) and swap used (8589930496) / total (8589930496) being more than 90.00%
""")
src("systemd-oomd-memory-and-swap-used", "https://github.com/systemd/systemd/issues/24185")

add("systemd-oomd-swap-used-old", "killed", """May 03 09:00:01 host systemd-oomd[812]: Swap used (8530104320) / total (8589930496) is more than 90.00%
@@May 03 09:00:01 host systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/vte-spawn-1.scope due to swap used (8530104320) / total (8589930496) being more than 90.00%
""")
src("systemd-oomd-swap-used-old", "systemd v248 oomd-manager.c log wording; the terminal scope as in https://github.com/systemd/systemd/issues/32304")

add("systemd-unit-oomd-killed-processes", "killed", """Jun 01 12:00:00 host systemd[1020]: Started comfyui.service.
@@Jun 01 12:31:07 host systemd[1020]: comfyui.service: systemd-oomd killed 14 process(es) in this unit.
Jun 01 12:31:07 host systemd[1020]: comfyui.service: Failed with result 'oom-kill'.
""")
src("systemd-unit-oomd-killed-processes", "systemd v250+ unit message (src/core/unit.c) and issue 11 (newer systemd-oomd wordings)")

PAUSE = {
    "de": "Drücken Sie eine beliebige Taste . . .",
    "fr": "Appuyez sur une touche pour continuer...",
    "es": "Presione una tecla para continuar . . .",
    "ru": "Для продолжения нажмите любую клавишу . . .",
    "ja": "続行するには何かキーを押してください . . .",
    "ko": "계속하려면 아무 키나 누르십시오 . . .",
    "zh-tw": "請按任意鍵繼續 . . .",
}
for lang, line in PAUSE.items():
    name = "win-portable-pause-" + lang
    add(name, "killed", comfy_win() + """model_type FLOW
Requested to load Flux

E:\\ComfyUI_windows_portable>pause
@@""" + line + "\n", eol="\r\n")
    src(name, "the portable launcher ends with `pause` (https://github.com/Comfy-Org/ComfyUI/issues/5225 shows run_nvidia_gpu.bat); Windows' pause prompt in that display language")

# --- a silent stop with nothing after it
add("comfy-silent-stop-mid-sampling", "killed", comfy_linux() + """Requested to load SDXL
loaded completely 9122.8 4897.0 True
@@ 45%|####5     | 9/20 [00:10<00:12,  1.16it/s]
""")
src("comfy-silent-stop-mid-sampling", "seed S2.1 (a console that stops mid-sampling); shape as in https://github.com/Comfy-Org/ComfyUI/issues/6934")

# --- low virtual memory: application warnings, English and Chinese
add("simplesdxl-virtual-memory-too-small", "low-virtual-memory", """Checking ...
[SimpleAI] GPU: NVIDIA GeForce RTX 4070, RAM: 32477MB, SWAP: 5632MB, VRAM: 12282MB, DiskFree: 383415MB
@@The total virtual memory capacity of the system is too small, which will affect the loading and computing efficiency of the model. Please expand the total virtual memory capacity of the system to be greater than 40G.
All done.
""")
src("simplesdxl-virtual-memory-too-small", "https://github.com/metercai/SimpleSDXL/issues/59")

add("simplesdxl-virtual-memory-too-small-zh", "low-virtual-memory", """Checking ...
@@系统虚拟内存总容量过小，会影响模型的加载与计算效率，请扩充系统虚拟内存总容量大于40G。
All done.
请按任意键继续. . .
""", eol="\r\n")
src("simplesdxl-virtual-memory-too-small-zh", "https://github.com/metercai/SimpleSDXL/issues/59 (the Chinese line)")

# --- not memory: exception final lines, CUDA errors, asserts, native crashes
add("comfy-header-too-large", "not-memory", """2024-09-06 17:10:08,400 - root - INFO - got prompt
@@2024-09-06 17:10:08,480 - root - ERROR - !!! Exception during processing !!! Error while deserializing header: HeaderTooLarge
Traceback (most recent call last):
  File "/home/someone/ComfyUI/comfy/utils.py", line 34, in load_torch_file
    sd = safetensors.torch.load_file(ckpt, device=device.type)
safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge

2024-09-06 17:10:08,492 - root - INFO - Prompt executed in 0.03 seconds
""")
src("comfy-header-too-large", "https://github.com/Comfy-Org/ComfyUI/issues/4807 (also #5826)")

add("comfy-device-mismatch", "not-memory", comfy_win() + """Requested to load SDXL
!!! Exception during processing !!! Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
Traceback (most recent call last):
  File "E:\\ComfyUI_windows_portable\\ComfyUI\\execution.py", line 327, in execute
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
Prompt executed in 1.02 seconds
""".replace("!!! Exception during processing !!! Expected", "@@!!! Exception during processing !!! Expected", 1))
src("comfy-device-mismatch", "issue 11 (device mismatch); PyTorch's wording")

add("python-exception-final-line", "not-memory", comfy_linux() + """Requested to load SDXL
Traceback (most recent call last):
  File "/home/mika/ComfyUI/custom_nodes/some-node/nodes.py", line 88, in run
    raise ValueError("unsupported sampler for this model")
@@ValueError: unsupported sampler for this model
""")
src("python-exception-final-line", "issue 11 (a Python exception's final line is the evidence)")

add("cuda-error-invalid-argument", "not-memory", comfy_linux() + """Requested to load Flux
@@RuntimeError: CUDA error: invalid argument
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""")
src("cuda-error-invalid-argument", "issue 11 (CUDA errors that are not exhaustion)")

add("comfy-mallocasync-internal-assert", "not-memory", """- **Exception Type:** RuntimeError
@@- **Exception Message:** free_upper_bound + pytorch_used_bytes[device] <= device_total INTERNAL ASSERT FAILED at "C:\\\\actions-runner\\\\_work\\\\pytorch\\\\pytorch\\\\builder\\\\windows\\\\pytorch\\\\c10\\\\cuda\\\\CUDAMallocAsyncAllocator.cpp":540, please report a bug to PyTorch.
""")
src("comfy-mallocasync-internal-assert", "https://github.com/XLabs-AI/x-flux-comfyui/issues/161")

add("caching-allocator-assert-glued", "not-memory", """Traceback (most recent call last):
  File "/home/someone/caching-allocator.py", line 26, in <module>
    module.my_fun()
@@RuntimeError: p.block != nullptr && p.block->ptr != nullptrINTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":991, please report a bug to PyTorch.
""")
src("caching-allocator-assert-glued", "https://github.com/pytorch/pytorch/pull/57571")

add("native-abort-no-memory-cause", "not-memory", """Loading model...
@@python: src/ops.cpp:120: void run_op(): Assertion `n > 0' failed.
Aborted (core dumped)
""")
src("native-abort-no-memory-cause", "issue 11 (assertions and aborts without a memory cause); glibc's assert wording")

add("win-crash-dump-access-violation", "not-memory", comfy_win() + """Requested to load SDXL
Windows fatal exception: access violation

Current thread 0x00003a2c (most recent call first):
@@  File "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\nn\\modules\\conv.py", line 454 in _conv_forward
""".replace('@@  File', '  File').replace("Windows fatal exception: access violation", "@@Windows fatal exception: access violation"))
src("win-crash-dump-access-violation", "Python faulthandler's crash report; issue 11 (access violations without a memory cause)")

# --- 8-bit Windows code pages, decoded whole (core/base/codepage.h)
add("simplesdxl-virtual-memory-too-small-gbk", "low-virtual-memory", """D:\\AI绘画\\SimpleSDXL>run_SimpleSDXL.bat
Checking ...
@@系统虚拟内存总容量过小，会影响模型的加载与计算效率，请扩充系统虚拟内存总容量大于40G。
All done.
请按任意键继续. . .
""", enc="gbk", eol="\r\n")
src("simplesdxl-virtual-memory-too-small-gbk", "https://github.com/metercai/SimpleSDXL/issues/59 (as a Chinese console writes it, GBK)")

add("comfy-win-1455-german-cp1252", "host-oom", comfy_win() + """Requested to load Flux
@@OSError: [WinError 1455] Die Auslagerungsdatei ist zu klein, um diesen Vorgang durchzuführen. Fehler beim Laden von "E:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\lib\\cudnn_adv64_9.dll" oder einer seiner Abhängigkeiten.
""", enc="cp1252", eol="\r\n")
src("comfy-win-1455-german-cp1252", "Windows' German text of error 1455, as a Western console (CP1252) writes it; issue 11 (CP1252)")

with open(os.path.join(OUT, "SOURCES"), "w", encoding="utf-8") as f:
    f.write("# case  public source it is modelled on (read and checked; no log copied)\n")
    for k in sorted(sources):
        f.write(f"{k}  {sources[k]}\n")


rng = random.Random(1455)
def junk(data):
    return bytes(rng.randrange(256) for _ in range(6000)) + b"\x00" * 300
# binary data is refused as not text (exit 65), not judged
add("binary-junk", "not-text", "", post=junk)

# junk with a real error in the middle: still found
def junk_around(data):
    return bytes(rng.randrange(256) for _ in range(3000)).replace(b"\n", b" ") + b"\n" + data + bytes(rng.randrange(256) for _ in range(3000))
add("binary-junk-around-oom", "gpu-oom", "@@torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n", post=None)
# rewrite with junk: the key line becomes line 2 after the junk line
with open(os.path.join(OUT, "binary-junk-around-oom.log"), "wb") as f:
    f.write(junk_around(b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n"))
cases[-1] = ("binary-junk-around-oom", "gpu-oom", 2)

# a long line (40 kB of progress output with no newline, cut into windows by the decoder)
# with the error at its end
def long_line(data):
    bar = b"".join(b" %3d%%|##########| %d/100000 [01:00<00:00, 9.9it/s]" % (i % 100, i) for i in range(800))
    return bar + b" torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB.\n"
add("long-line-40kb-oom-at-end", "gpu-oom", "@@x", post=long_line)

with open(os.path.join(OUT, "MANIFEST"), "w") as f:
    f.write("# case cause key-line  (generated by make_corpus.py; key-line 0 = no evidence line)\n")
    for name, cause, line in cases:
        f.write(f"{name} {cause} {line}\n")
print(len(cases), "cases")
