/* The phrases, by cause. Principles:
 *  - match the stable core of a message, never a whole sentence: PyTorch rewords its OOM
 *    message every few releases ("RuntimeError: CUDA out of memory. Tried to allocate ... (GPU
 *    0; 8.00 GiB total capacity; ...)" in 1.x, "torch.cuda.OutOfMemoryError" in 2.0,
 *    "torch.OutOfMemoryError ... GPU 0 has a total capacity of" in 2.4), so each message has
 *    several independent anchors (the "X out of memory" core, the exception class, the
 *    allocator's status code) and any one is enough;
 *  - numbers are locale-proof: Windows translates "The paging file is too small for this
 *    operation to complete" into every language, but the error number 1455 stays;
 *  - things that look like memory and are not (illegal memory access, device-side assert)
 *    are phrases of their own, so they are never mistaken for an out-of-memory. */
#include "core/diagnose/diag_rules.h"

#include "core/diagnose/diag.h"
#include "core/base/i18n.h"

#include <string.h>

#define GPU    HR_CAUSE_GPU_OOM
#define HOST   HR_CAUSE_HOST_OOM
#define KILL   HR_CAUSE_KILLED
#define LOWVM  HR_CAUSE_LOW_VM
#define NOTMEM HR_CAUSE_NOT_MEMORY
#define MARK   HR_RULE_NO_CAUSE
#define H      HR_CONF_HIGH
#define M      HR_CONF_MEDIUM
#define L      HR_CONF_LOW
#define WB     HR_RF_WORD_BEFORE
#define WA     HR_RF_WORD_AFTER
#define GEN    HR_RF_GENERIC
#define IB     HR_RF_IN_BEFORE
#define IA     HR_RF_IN_AFTER

#define m_mps      HR_N("The Apple GPU (MPS) ran out of the unified memory PyTorch may use for it.")
#define m_directml HR_N("The GPU ran out of video memory under DirectML (AMD/Intel on Windows).")
#define m_1455                                                                                                         \
    HR_N("Windows refused memory because the commit limit (RAM + paging file) was reached: the "                       \
         "paging file is too small for this workload (error 1455, any language).")
#define m_winerr8                                                                                                      \
    HR_N("Windows could not give the program memory (not enough memory resources): RAM and the "                       \
         "paging file are exhausted.")
#define m_cpu_alloc                                                                                                    \
    HR_N("PyTorch could not get system RAM for a tensor (CPU allocator): the commit limit "                            \
         "(RAM + paging file / swap) was reached.")
#define m_memerr                                                                                                       \
    HR_N("Python raised MemoryError: an allocation of system RAM failed because RAM + paging "                         \
         "file / swap were exhausted.")
#define m_enomem HR_N("The OS refused a memory allocation (ENOMEM): RAM + swap, or the commit limit, ran out.")
#define m_mmap                                                                                                         \
    HR_N("Mapping a model file into memory failed: on Windows a mapping is charged to the commit "                     \
         "limit, so the paging file is usually too small.")
#define m_commit HR_N("STATUS_COMMITMENT_LIMIT: the process hit the system commit limit (RAM + paging file).")
/* ptxas, nvlink and the driver's JIT print "fatal   : Memory allocation failure" when their own
 * host allocation fails: NVIDIA/gvdb-voxels #26 saw the process pass 40 GB on 32 GB of RAM and
 * 16 GB of paging file before it. */
#define m_ptxas                                                                                                        \
    HR_N("NVIDIA's CUDA compiler (ptxas, or the driver compiling kernels as they load) could not get system "          \
         "memory: RAM and the paging file / swap ran out while kernels were built.")
#define m_oomkill HR_N("The Linux kernel's OOM killer ended a process because RAM + swap ran out.")
#define m_oomd                                                                                                         \
    HR_N("systemd-oomd ended a whole cgroup (app or service) because memory pressure or swap use "                     \
         "stayed above its limit.")
#define m_earlyoom HR_N("earlyoom ended a process because available RAM and swap fell below its thresholds.")
#define m_sigkill                                                                                                      \
    HR_N("The process received SIGKILL (exit 137 = 128 + 9): on a machine short of memory that "                       \
         "is the OOM killer's signal.")
#define m_shell_killed HR_N("The shell reports the program was killed with SIGKILL, the signal the OOM killer uses.")
#define m_container    HR_N("The container was OOM-killed: it reached its memory limit.")
#define m_av_exit                                                                                                      \
    HR_N("The process stopped with an access violation (0xC0000005) and no Python error: on "                          \
         "Windows this is what a sudden stop looks like when an allocation failed because RAM + "                      \
         "paging file ran out.")
#define m_lowvm                                                                                                        \
    HR_N("Windows warned that virtual memory (the commit limit = RAM + paging file) is nearly "                        \
         "exhausted.")
#define m_illegal                                                                                                      \
    HR_N("A GPU kernel touched memory it does not own: a bug in code, a custom node or the "                           \
         "driver, not a lack of memory.")
#define m_assert                                                                                                       \
    HR_N("A GPU kernel's own check failed (often an index out of range): a code or model "                             \
         "mismatch, not a lack of memory.")
#define m_tdr                                                                                                          \
    HR_N("The GPU driver stopped responding and was reset by Windows (TDR) or the kernel: a "                          \
         "driver / hardware / overclock problem, not a lack of memory.")
#define m_segv                                                                                                         \
    HR_N("A segmentation fault / access violation inside native code: a crash in a library or "                        \
         "extension, not a lack of memory.")
#define m_heap HR_N("Heap corruption detected by the C library: a bug in native code, not a lack of memory.")
#define m_driver                                                                                                       \
    HR_N("The CUDA driver, the GPU and the PyTorch build do not fit together: a setup problem, "                       \
         "not a lack of memory.")
#define m_cublas                                                                                                       \
    HR_N("A cuBLAS/cuDNN operation failed for a reason other than memory (unsupported or failed "                      \
         "kernel): a driver or library problem.")

#define m_gpu_other                                                                                                    \
    HR_N("The GPU ran out of memory under another back-end, loader or a custom node's wrapper "                        \
         "(TensorFlow, JAX, ONNX Runtime, Metal, ggml).")
#define m_lib_alloc                                                                                                    \
    HR_N("A numeric, image or video library (numpy, OpenCV, PIL, PyAV, a Rust/pyo3 extension, "                        \
         "ggml) could not get system RAM: RAM + paging file / swap ran out.")
#define m_heap_reserve                                                                                                 \
    HR_N("A program could not reserve or commit its heap: the commit limit (RAM + paging file) "                       \
         "leaves no room for it.")
#define m_lowvm_app                                                                                                    \
    HR_N("A program warned that the system's virtual memory (the paging file) is too small for "                       \
         "what it needs.")
#define m_mismatch                                                                                                     \
    HR_N("Tensors on different devices or of different types met in one operation: a workflow, "                       \
         "node or model mismatch, not a lack of memory.")
#define m_model_file                                                                                                   \
    HR_N("A model file is damaged, incomplete or not a model (bad header, truncated download, a "                      \
         "Git LFS pointer): download it again; memory is not the problem.")
#define m_cuda_other                                                                                                   \
    HR_N("A CUDA / HIP error that is not exhaustion (invalid argument, unsupported operation, "                        \
         "launch failure): a driver, code or setup problem.")
#define m_internal_assert                                                                                              \
    HR_N("PyTorch's own consistency check failed (INTERNAL ASSERT), even inside the caching "                          \
         "allocator: a bug in PyTorch or an extension, not memory running out.")
#define m_assertion                                                                                                    \
    HR_N("An assertion in code failed: a bug or an input the code does not expect, not a lack of "                     \
         "memory.")
#define m_native_crash                                                                                                 \
    HR_N("Native code crashed (abort, panic, crash dump) with no failed allocation before it: a "                      \
         "bug in a library or extension, not a lack of memory.")
#define m_import HR_N("A Python module is missing or failed to import: an installation problem, not memory.")
#define m_driver_crash                                                                                                 \
    HR_N("A graphics driver's own module crashed (named in the crash report, in any language): "                       \
         "a driver problem — update or reinstall it, undo overclocks; memory settings will not help.")
#define m_page_alloc                                                                                                   \
    HR_N("The kernel could not find free pages (page allocation failure): RAM + swap ran out, "                        \
         "and the OOM killer ends a process next.")
#define m_kernel_assert                                                                                                \
    HR_N("A GPU kernel's own check failed (an index out of range in a CUDA kernel): a code, "                          \
         "model or input mismatch, not a lack of memory.")
#define m_header_event                                                                                                 \
    HR_N("A crash report (Fatal Python error, an unhandled exception, a crash reporter's reason) "                     \
         "with no memory failure in it: a crash in code, a driver or a damaged file.")
#define m_mlock                                                                                                        \
    HR_N("mlock failed: the limit on locked memory (ulimit -l, RLIMIT_MEMLOCK) is low; the run goes "                  \
         "on, RAM did not run out.")

const hr_diag_rule hr_diag_rules[] = {
    /* --- GPU memory (VRAM) ------------------------------------------------------------ */
    { "cuda out of memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "hip out of memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "xpu out of memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "mps backend out of memory", GPU, H, 0, HR_RK_PLAIN, m_mps },
    { "outofmemoryerror", GPU, M, IB, HR_RK_PLAIN, NULL },
    { "cuda error: out of memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "hip error: out of memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cuda_error_out_of_memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cudaerrormemoryallocation", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "hiperroroutofmemory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cublas_status_alloc_failed", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cudnn_status_alloc_failed", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cufft_alloc_failed", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "cusolver_status_alloc_failed", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "would exceed allowed memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "not enough gpu video memory", GPU, H, 0, HR_RK_PLAIN, m_directml },
    { "could not allocate tensor with", GPU, M, 0, HR_RK_PLAIN, m_directml },
    { "out_of_device_memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "out of device memory", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "outofdevicememory", GPU, H, IB, HR_RK_PLAIN, NULL },
    { "device memory allocation of size", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "cudamalloc failed", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "got an oom, unloading all loaded models", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "reserved in total by pytorch", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "is reserved by pytorch but unallocated", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "has a total capacity of", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "out of vram", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "allocation on device", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "out of memory on device", GPU, H, 0, HR_RK_PLAIN, NULL },
    { "oom when allocating tensor", GPU, H, 0, HR_RK_PLAIN, m_gpu_other },
    { "resourceexhaustederror", GPU, M, IB, HR_RK_PLAIN, m_gpu_other },
    { "resource_exhausted: out of memory", GPU, M, 0, HR_RK_PLAIN, m_gpu_other },
    { "failed to allocate memory for requested buffer", GPU, M, 0, HR_RK_PLAIN, m_gpu_other },
    { "kiogpucommandbuffercallbackerroroutofmemory", GPU, H, 0, HR_RK_PLAIN, m_gpu_other },
    { "cuda_buffer_type_alloc_buffer", GPU, M, IB, HR_RK_PLAIN, m_gpu_other },
    { "not enough vram", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "insufficient vram", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "显存溢出", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "显存不够", GPU, M, 0, HR_RK_PLAIN, NULL },
    { "显存不足", GPU, M, 0, HR_RK_PLAIN, NULL },
    /* TensorFlow / JAX (XLA): "Allocator (GPU_0_bfc) ran out of memory trying to allocate" */
    { "_bfc) ran out of memory", GPU, H, IB, HR_RK_PLAIN, m_gpu_other },

    /* --- host memory: RAM allocation / commit limit ------------------------------------- */
    { "error 1455", HOST, H, WA | IB, HR_RK_PLAIN, m_1455 },
    { "code 1455", HOST, H, WA, HR_RK_PLAIN, m_1455 },
    { "code: 1455", HOST, H, WA, HR_RK_PLAIN, m_1455 },
    { "paging file is too small", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "页面文件太小", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "分頁檔太小", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "auslagerungsdatei ist zu klein", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "fichier de pagination est insuffisant", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "archivo de paginaci", HOST, M, 0, HR_RK_PLAIN, m_1455 },
    { "arquivo de pagina", HOST, M, 0, HR_RK_PLAIN, m_1455 },
    { "file di paging", HOST, M, 0, HR_RK_PLAIN, m_1455 },
    { "ページング ファイルが小さすぎ", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "айл подкачки слишком мал", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "페이징 파일이 너무 작", HOST, H, 0, HR_RK_PLAIN, m_1455 },
    { "plik stronicowania", HOST, M, 0, HR_RK_PLAIN, m_1455 },
    { "status_commitment_limit", HOST, H, 0, HR_RK_PLAIN, m_commit },
    { "c000012d", HOST, H, 0, HR_RK_PLAIN, m_commit },
    { "not enough virtual memory or paging file quota", HOST, H, 0, HR_RK_PLAIN, m_commit },
    { "status_no_memory", HOST, H, 0, HR_RK_PLAIN, m_commit },
    { "c0000017", HOST, H, 0, HR_RK_PLAIN, m_commit },
    { "not enough memory resources are available", HOST, H, 0, HR_RK_PLAIN, m_winerr8 },
    { "not enough storage is available", HOST, H, 0, HR_RK_PLAIN, m_winerr8 },
    { "winerror 8]", HOST, H, 0, HR_RK_PLAIN, m_winerr8 },
    { "存储空间不足", HOST, H, 0, HR_RK_PLAIN, m_winerr8 },
    { "defaultcpuallocator", HOST, H, 0, HR_RK_PLAIN, m_cpu_alloc },
    { "you tried to allocate", HOST, H, 0, HR_RK_PLAIN, m_cpu_alloc },
    { "alloc_cpu.cpp", HOST, M, 0, HR_RK_PLAIN, m_cpu_alloc },
    { "memoryerror", HOST, H, WB | WA, HR_RK_PLAIN, m_memerr },
    { "_arraymemoryerror", HOST, H, 0, HR_RK_PLAIN, m_memerr },
    { "for an array with shape", HOST, M, 0, HR_RK_PLAIN, m_memerr },
    { "bad_alloc", HOST, H, 0, HR_RK_PLAIN, m_enomem },
    { "fatal   : memory allocation failure", HOST, M, 0, HR_RK_PLAIN, m_ptxas },
    { "cannot allocate memory", HOST, H, 0, HR_RK_PLAIN, m_enomem },
    { "errno 12]", HOST, H, 0, HR_RK_PLAIN, m_enomem },
    { "enomem", HOST, M, WB | WA, HR_RK_PLAIN, m_enomem },
    { "无法分配内存", HOST, H, 0, HR_RK_PLAIN, m_enomem },
    { "out_of_host_memory", HOST, H, 0, HR_RK_PLAIN, m_enomem },
    { "outofmemoryexception", HOST, H, IB, HR_RK_PLAIN, m_enomem },
    { "malloc failed", HOST, M, 0, HR_RK_PLAIN, m_enomem },
    { "mmap failed", HOST, M, 0, HR_RK_PLAIN, m_mmap },
    { "failed to mmap", HOST, M, 0, HR_RK_PLAIN, m_mmap },
    { "unable to mmap", HOST, M, 0, HR_RK_PLAIN, m_mmap },
    { "could not mmap", HOST, M, 0, HR_RK_PLAIN, m_mmap },
    { "bytes failed", HOST, H, IA, HR_RK_PLAIN, m_lib_alloc },
    { "kind: outofmemory", HOST, H, 0, HR_RK_PLAIN, m_lib_alloc },
    { "-4:insufficient memory", HOST, H, 0, HR_RK_PLAIN, m_lib_alloc },
    { "cpu_buffer_type_alloc_buffer: failed", HOST, H, IB, HR_RK_PLAIN, m_lib_alloc },
    { "buf != null", HOST, H, 0, HR_RK_PLAIN, m_lib_alloc },
    { "mem_buffer != null", HOST, H, 0, HR_RK_PLAIN, m_lib_alloc },
    { "could not reserve enough space for", HOST, H, 0, HR_RK_PLAIN, m_heap_reserve },
    { "insufficient memory for the java runtime", HOST, H, 0, HR_RK_PLAIN, m_heap_reserve },
    { "native memory allocation", HOST, H, 0, HR_RK_PLAIN, m_heap_reserve },
    { "errno=1455", HOST, H, IB | WA, HR_RK_PLAIN, m_1455 },
    { "failed to reserve", HOST, M, 0, HR_RK_PLAIN, m_heap_reserve },
    /* 1455 in hex, as a Win32 error (0x5AF) or an HRESULT (0x800705AF) */
    { "error 0x5af", HOST, H, IB | WA, HR_RK_PLAIN, m_1455 },
    { "0x800705af", HOST, H, WA, HR_RK_PLAIN, m_1455 },
    { "0x5af", HOST, M, WB | WA, HR_RK_PLAIN, m_1455 },
    /* a program's own words that RAM was short */
    { "insufficient ram", HOST, M, 0, HR_RK_PLAIN, NULL },
    { "unsufficient ram", HOST, M, 0, HR_RK_PLAIN, NULL },
    { "not enough ram", HOST, M, 0, HR_RK_PLAIN, NULL },

    /* --- Windows low virtual memory ----------------------------------------------------- */
    { "low on virtual memory", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "low virtual memory condition", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "your computer is low on memory", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "resource-exhaustion-detector", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "virtual memory minimum too low", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "虚拟内存不足", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "计算机内存不足", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "计算机的内存不足", LOWVM, H, 0, HR_RK_PLAIN, m_lowvm },
    { "virtual memory is too small", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "total virtual memory capacity", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "虚拟内存总容量过小", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "虚拟内存容量过小", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "virtual memory too small", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "virtual memory is too low", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "increase your virtual memory", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "increase the virtual memory", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "increase virtual memory", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "虚拟内存太小", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "虚拟内存过小", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "增加虚拟内存", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "增大虚拟内存", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    { "调大虚拟内存", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },
    /* a program's own words that the page file is too small, off or to blame (at start-up,
     * or when the GPU will not initialise): the page file named, and a word of shortage on
     * the same line (hr_diag_pagefile_blame); judged after the specific phrases (the OS's
     * own 1455 message is host-oom) and before a bare "OOM" on the same line */
    { "pagefile", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "page file", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "paging file", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "swap file", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "virtual memory", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "auslagerungsdatei", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "virtueller speicher", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "fichier d'échange", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "mémoire virtuelle", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "файл подкачки", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "虚拟内存", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "ページング ファイル", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "仮想メモリ", LOWVM, M, GEN, HR_RK_PAGEFILE, m_lowvm_app },
    { "system is low on memory", LOWVM, M, 0, HR_RK_PLAIN, m_lowvm_app },

    /* --- killed by the OS --------------------------------------------------------------- */
    { "killed process", KILL, H, WB, HR_RK_KILLED_PROCESS, m_oomkill },
    { "invoked oom-killer", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "oom-kill:constraint", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "oom_reaper: reaped process", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "out of memory and no killable processes", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "due to memory pressure", KILL, H, 0, HR_RK_PLAIN, m_oomd },
    { "due to memory used", KILL, H, 0, HR_RK_PLAIN, m_oomd },
    { "due to swap used", KILL, H, 0, HR_RK_PLAIN, m_oomd },
    { "systemd-oomd killed", KILL, H, 0, HR_RK_PLAIN, m_oomd },
    /* systemd 247-248's oomd said why, then killed by pgscan: "Memory pressure for %s is greater
     * than %lu for more than %s seconds and there was reclaim activity" (src/oom/oomd-manager.c;
     * systemd/systemd #19142) */
    { "and there was reclaim activity", KILL, M, 0, HR_RK_PLAIN, m_oomd },
    { "killed by the oom killer", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "result 'oom-kill'", KILL, H, 0, HR_RK_PLAIN, m_oomkill },
    { "oomkilled", KILL, H, 0, HR_RK_PLAIN, m_container },
    { "page allocation failure", KILL, M, 0, HR_RK_PLAIN, m_page_alloc },
    { "signal: killed", KILL, M, 0, HR_RK_PLAIN, m_sigkill },
    { "sending sigterm to process", KILL, M, 0, HR_RK_PLAIN, m_earlyoom },
    { "sending sigkill to process", KILL, H, 0, HR_RK_PLAIN, m_earlyoom },
    { "low memory! at or below", KILL, M, 0, HR_RK_PLAIN, m_earlyoom },
    { "escalating to sigkill", KILL, M, 0, HR_RK_PLAIN, m_earlyoom },
    { "signals.sigkill", KILL, H, 0, HR_RK_PLAIN, m_sigkill },
    { "signal 9 (sigkill)", KILL, H, 0, HR_RK_PLAIN, m_sigkill },
    { "status=9/kill", KILL, H, 0, HR_RK_PLAIN, m_sigkill },
    { "sigkill", KILL, M, GEN, HR_RK_PLAIN, m_sigkill },
    { "killed", KILL, M, WB | WA, HR_RK_SHELL_KILLED, m_shell_killed },
    { "已杀死", KILL, M, 0, HR_RK_SHELL_KILLED, m_shell_killed },
    { "c0000005", KILL, M, 0, HR_RK_PLAIN, m_av_exit },
    { "exit code", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "exit status", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "exitcode", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "exit_code", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "return code", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "returncode", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "exited with code", KILL, M, 0, HR_RK_EXIT_CODE, NULL },
    { "error code", KILL, M, IB, HR_RK_EXIT_CODE, NULL },
    { "press any key to continue", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "按任意键继续", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "按任意鍵繼續", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "eine beliebige taste", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "appuyez sur une touche", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "presione una tecla", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "pulse una tecla", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "premere un tasto", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "pressione qualquer tecla", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "нажмите любую клавишу", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "何かキーを押してください", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "아무 키나 누르십시오", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },
    { "dowolny klawisz", KILL, M, 0, HR_RK_PRESS_ANY_KEY, NULL },

    /* --- looks like memory, is not ------------------------------------------------------ */
    { "illegal memory access", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "cudaerrorillegaladdress", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "hiperrorillegaladdress", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "misaligned address", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "memory access fault by gpu", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "page not present or supervisor privilege", NOTMEM, H, 0, HR_RK_PLAIN, m_illegal },
    { "device-side assert triggered", NOTMEM, H, 0, HR_RK_PLAIN, m_assert },
    /* a CUDA kernel's assert: "thread: [79,0,0] Assertion `srcIndex < srcSelectDimSize` failed" */
    { "] assertion `", NOTMEM, H, IB, HR_RK_PLAIN, m_kernel_assert },
    { "unspecified launch failure", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "launch timed out", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "cudaerrorlaunchtimeout", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "nvlddmkm", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "stopped responding and has successfully recovered", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    /* a module named by file, as the faulting module of a crash report (Windows Error
     * Reporting, event 1000, a crash dump's frames) whatever language its field names are
     * in: judged by its name (a graphics driver's user-mode module, hr_diag_driver_module) */
    { ".dll", NOTMEM, M, IB, HR_RK_MODULE, m_driver_crash },
    { "dxgi_error_device_removed", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "dxgi_error_device_hung", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "dxgi_error_device_reset", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "fallen off the bus", NOTMEM, H, 0, HR_RK_PLAIN, m_tdr },
    { "nvrm: xid", NOTMEM, M, 0, HR_RK_PLAIN, m_tdr },
    { "tdr", NOTMEM, L, WB | WA | GEN, HR_RK_PLAIN, m_tdr },
    { "segmentation fault", NOTMEM, H, 0, HR_RK_PLAIN, m_segv },
    { "sigsegv", NOTMEM, M, WB | WA, HR_RK_PLAIN, m_segv },
    { "段错误", NOTMEM, H, 0, HR_RK_PLAIN, m_segv },
    { "windows fatal exception: access violation", NOTMEM, M, 0, HR_RK_PLAIN, m_segv },
    { "access violation reading", NOTMEM, M, 0, HR_RK_PLAIN, m_segv },
    { "access violation writing", NOTMEM, M, 0, HR_RK_PLAIN, m_segv },
    { "illegal instruction", NOTMEM, H, 0, HR_RK_PLAIN, m_segv },
    { "bus error", NOTMEM, M, WB | WA, HR_RK_PLAIN, m_segv },
    { "malloc(): corrupted", NOTMEM, H, 0, HR_RK_PLAIN, m_heap },
    { "double free or corruption", NOTMEM, H, 0, HR_RK_PLAIN, m_heap },
    { "free(): invalid", NOTMEM, H, 0, HR_RK_PLAIN, m_heap },
    { "corrupted size vs. prev_size", NOTMEM, H, 0, HR_RK_PLAIN, m_heap },
    { "c0000374", NOTMEM, H, 0, HR_RK_PLAIN, m_heap },
    { "no kernel image is available", NOTMEM, H, 0, HR_RK_PLAIN, m_driver },
    { "cuda driver version is insufficient", NOTMEM, H, 0, HR_RK_PLAIN, m_driver },
    { "cublas_status_execution_failed", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "cublas_status_not_supported", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "cublas_status_invalid_value", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "cudnn_status_execution_failed", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "cudnn_status_not_supported", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "cudnn_status_mapping_error", NOTMEM, H, 0, HR_RK_PLAIN, m_cublas },
    { "expected all tensors to be on the same device", NOTMEM, H, 0, HR_RK_PLAIN, m_mismatch },
    { "expected scalar type", NOTMEM, H, 0, HR_RK_PLAIN, m_mismatch },
    { "and weight type", NOTMEM, H, 0, HR_RK_PLAIN, m_mismatch },
    { "shapes cannot be multiplied", NOTMEM, H, 0, HR_RK_PLAIN, m_mismatch },
    { "error while deserializing header", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "headertoolarge", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "header too large", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "git-lfs.github.com/spec", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "metadataincompletebuffer", NOTMEM, H, IB, HR_RK_PLAIN, m_model_file },
    { "invalid load key", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "pytorchstreamreader failed", NOTMEM, H, 0, HR_RK_PLAIN, m_model_file },
    { "cuda error: invalid argument", NOTMEM, H, 0, HR_RK_PLAIN, m_cuda_other },
    { "cuda error: operation not supported", NOTMEM, H, 0, HR_RK_PLAIN, m_cuda_other },
    { "cuda error:", NOTMEM, M, GEN, HR_RK_PLAIN, m_cuda_other },
    { "hip error:", NOTMEM, M, GEN, HR_RK_PLAIN, m_cuda_other },
    { "internal assert failed", NOTMEM, H, IB, HR_RK_PLAIN, m_internal_assert },
    { "assertion failed", NOTMEM, M, GEN, HR_RK_PLAIN, m_assertion },
    { ": assertion `", NOTMEM, M, GEN, HR_RK_PLAIN, m_assertion },
    { "assertionerror", NOTMEM, M, GEN | IB, HR_RK_PLAIN, m_assertion },
    { "ggml_assert", NOTMEM, M, GEN, HR_RK_PLAIN, m_assertion },
    { "exception_access_violation", NOTMEM, M, 0, HR_RK_PLAIN, m_segv },
    { "access violation", NOTMEM, M, GEN, HR_RK_PLAIN, m_segv },
    { "aborted (core dumped)", NOTMEM, M, GEN, HR_RK_PLAIN, m_native_crash },
    { "panicked at", NOTMEM, M, GEN, HR_RK_PLAIN, m_native_crash },
    { "sigabrt", NOTMEM, M, WB | WA | GEN, HR_RK_PLAIN, m_native_crash },
    { "panicexception", NOTMEM, M, GEN | IB, HR_RK_PLAIN, m_native_crash },
    { "minidump", NOTMEM, M, GEN, HR_RK_PLAIN, m_native_crash },
    { "capacity overflow", NOTMEM, M, 0, HR_RK_PLAIN, m_native_crash },
    { "decompressionbomb", NOTMEM, M, IB | IA, HR_RK_PLAIN, m_model_file },
    { "modulenotfounderror", NOTMEM, L, GEN | IB, HR_RK_PLAIN, m_import },

    /* --- unqualified "out of memory": the words around it decide -------------------------- */
    { "out of memory", HOST, L, GEN, HR_RK_GENERIC_OOM, NULL },
    { "内存不足", HOST, M, GEN, HR_RK_GENERIC_OOM, NULL },
    { "failed to allocate", HOST, L, GEN, HR_RK_GENERIC_OOM, NULL },
    { "unable to allocate", HOST, L, GEN, HR_RK_GENERIC_OOM, NULL },
    { "insufficient memory", HOST, L, GEN, HR_RK_GENERIC_OOM, NULL },
    { "cannot allocate", HOST, L, GEN, HR_RK_GENERIC_OOM, NULL },
    { "oom", HOST, 0, WB | WA | GEN, HR_RK_GENERIC_OOM, NULL },

    /* --- survived or only mentioned: warnings and notices --------------------------------- */
    { "retrying with tiled", GPU, M, 0, HR_RK_WARNING, NULL },
    { "ran out of memory when regular vae", GPU, M, 0, HR_RK_WARNING, NULL },
    { "retrying with slices", GPU, M, 0, HR_RK_WARNING, NULL },
    { "retrying with tiles", GPU, M, 0, HR_RK_WARNING, NULL },
    { "retrying with smaller", GPU, M, 0, HR_RK_WARNING, NULL },
    { "to avoid out of memory", MARK, 0, 0, HR_RK_NOTICE, NULL },
    { "failed to mlock", MARK, 0, 0, HR_RK_NOTICE, m_mlock },
    { "mlock failed", MARK, 0, 0, HR_RK_NOTICE, m_mlock },
    { "rlimit_memlock", MARK, 0, 0, HR_RK_NOTICE, m_mlock },
    { "rlimit_mlock", MARK, 0, 0, HR_RK_NOTICE, m_mlock },

    /* --- the run's state: busy, done ------------------------------------------------------- */
    { "got prompt", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "requested to load", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "loaded partially", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "loaded completely", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "model_type", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "model weight dtype", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "loading model", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "loading weights", MARK, 0, 0, HR_RK_BUSY, NULL },
    { "it/s]", MARK, 0, IB, HR_RK_BUSY, NULL },
    { "s/it]", MARK, 0, IB, HR_RK_BUSY, NULL },
    { "prompt executed in", MARK, 0, 0, HR_RK_DONE, NULL },

    /* --- markers: the run did not end in silence ------------------------------------------ */
    { "traceback (most recent call last)", MARK, 0, 0, HR_RK_TRACEBACK, NULL },
    { "exception during processing", MARK, 0, 0, HR_RK_MARKER, NULL },
    { "error occurred when executing", MARK, 0, 0, HR_RK_MARKER, NULL },
    /* --- the terminal-event finder's candidates (diag_event.h) ---------------------------- */
    { "error:", NOTMEM, L, IB, HR_RK_EVENT, NULL },
    { "exception:", NOTMEM, L, IB, HR_RK_EVENT, NULL },
    { "level=error", NOTMEM, L, 0, HR_RK_EVENT, NULL },
    { "failed to load model", NOTMEM, M, 0, HR_RK_EVENT, NULL },
    { "fatal python error", NOTMEM, M, 0, HR_RK_EVENT, m_header_event },
    { "stack (most recent call first)", NOTMEM, M, 0, HR_RK_EVENT, m_header_event },
    { "### reason ###", NOTMEM, M, HR_RF_NEXT, HR_RK_EVENT, m_header_event },
    { "exception info:", NOTMEM, M, 0, HR_RK_EVENT, m_header_event },
    { "unhandled exception", NOTMEM, M, 0, HR_RK_EVENT, m_header_event },
    { "aborted", NOTMEM, L, WB | WA, HR_RK_EVENT, m_native_crash },
    { "keyboardinterrupt", MARK, 0, 0, HR_RK_MARKER, NULL },
    { "terminate batch job", MARK, 0, 0, HR_RK_MARKER, NULL },
    { "终止批处理操作吗", MARK, 0, 0, HR_RK_MARKER, NULL },
};

const size_t hr_diag_nrules = sizeof hr_diag_rules / sizeof hr_diag_rules[0];

bool hr_diag_meaning_windows(const char *meaning)
{
    /* messages only Windows prints: error 1455, WinError 8, STATUS_COMMITMENT_LIMIT */
    static const char *const win[] = { m_1455, m_winerr8, m_commit, m_lowvm, m_lowvm_app, m_directml };
    for (size_t i = 0; meaning && i < sizeof win / sizeof win[0]; i++)
        if (meaning == win[i] || strcmp(meaning, win[i]) == 0)
            return true;
    return false;
}
