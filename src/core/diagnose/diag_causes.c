/* The causes: their ids, titles, meanings and fixes (per OS), and the confidence names. */
#include "core/diagnose/diag_causes.h"

#include "core/diagnose/diag.h"
#include "core/diagnose/diag_rules.h"
#include "core/base/i18n.h"

#include <stddef.h>

static const struct {
    const char *id, *title, *meaning, *fix;
} causes[HR_CAUSE_COUNT] = {
    [HR_CAUSE_GPU_OOM] = { "gpu-oom", HR_N("GPU out of memory (VRAM)"),
                           HR_N("The GPU ran out of its own memory (VRAM) while loading or running a model; system "
                                "RAM and the paging file were not the limit."),
                           HR_N("Lower the VRAM need, not the paging file (changing it does nothing here, S2.1): start "
                                "ComfyUI with --lowvram (or --novram; A1111/Forge: --medvram/--lowvram), use lighter "
                                "or fp8/GGUF-quantised models, decode with the tiled VAE node, lower the resolution or "
                                "batch size. Low-VRAM modes move weights into RAM, so keep the paging file / swap at "
                                "the size `headroom plan` gives (S1.2c, S4.2).") },
    [HR_CAUSE_HOST_OOM] = { "host-oom", HR_N("System memory exhausted (RAM + paging file / swap)"),
                            HR_N("A request for system memory failed: the commit limit (RAM + paging file on Windows, "
                                 "RAM + swap on Linux) was reached."),
                            HR_N(
                                "Enlarge the paging file (Windows) or swap (Linux) to the size `headroom plan` gives — "
                                "for 16 GB RAM and SDXL/FLUX 32–64 GB, 64 GB for video workflows (S4.1, S4.2) — on a "
                                "roomy SSD (S3.3); close browsers and other large programs (S5.2).") },
    [HR_CAUSE_KILLED] = { "killed", HR_N("Killed by the operating system"),
                          HR_N("The OS ended the process without an error message of its own, which is what happens "
                               "when RAM + paging file / swap run out."),
                          HR_N("Check RAM and paging file / swap with `headroom status`, close other programs, and "
                               "set the paging file / swap to the size `headroom plan` gives (S2.1, S4.1); in a "
                               "container or a systemd slice the limit that was hit is the cgroup's memory limit — "
                               "raise it or give the run less to hold at once.") },
    [HR_CAUSE_LOW_VM] = { "low-virtual-memory", HR_N("Windows low on virtual memory"),
                          HR_N("Windows warned that the commit limit (RAM + paging file) was nearly used up: the "
                               "paging file is too small for what was running."),
                          HR_N("Enlarge the paging file to the size `headroom plan` gives (S4.1), fixed initial = "
                               "maximum on a roomy SSD (S3.2, S3.3); press Set, then OK, then reboot (S5.1); close "
                               "other programs during long queues or video workflows (S5.2).") },
    [HR_CAUSE_NOT_MEMORY] = { "not-memory", HR_N("Not a memory problem"),
                              HR_N(
                                  "The failure looks like a memory problem but is not: a crash in code, a driver reset "
                                  "or a GPU kernel error."),
                              HR_N(
                                  "Fix the driver or the code, not memory settings: update or reinstall the GPU driver, "
                                  "undo overclocks, update or remove the custom node / extension that failed, check that "
                                  "the model matches the workflow; set CUDA_LAUNCH_BLOCKING=1 to find the failing "
                                  "operation. Paging file, swap and low-VRAM flags will not help.") },
    [HR_CAUSE_UNKNOWN] = { "unknown", HR_N("No known failure found"),
                           HR_N("Nothing in the input matches a known memory failure or a known look-alike."),
                           HR_N("If the program vanished without a message, run `headroom diagnose` without "
                                "--no-system so the OS's own records are read, or save the whole console output to a "
                                "file next time (e.g. `run_nvidia_gpu.bat > comfyui.log 2>&1`).") },
};

const char *hr_cause_id(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].id : "unknown";
}

const char *hr_cause_title(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].title : causes[HR_CAUSE_UNKNOWN].title;
}

const char *hr_cause_meaning(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].meaning : causes[HR_CAUSE_UNKNOWN].meaning;
}

const char *hr_cause_fix(hr_cause c)
{
    return (unsigned)c < HR_CAUSE_COUNT ? causes[c].fix : causes[HR_CAUSE_UNKNOWN].fix;
}

static const char *const fix_killed_windows =
    HR_N("Check RAM and the paging file with `headroom status`, close other programs, and set the "
         "paging file to the size `headroom plan` gives (S2.1, S4.1): initial = maximum on a roomy "
         "SSD, press Set before OK, reboot (S3.2, S5.1).");
static const char *const fix_host_oom_windows =
    HR_N("Enlarge the paging file to the size `headroom plan` gives — for 16 GB RAM and SDXL/FLUX "
         "32–64 GB, 64 GB for video workflows (S4.1, S4.2) — with initial = maximum on a roomy SSD "
         "that is not the system drive (S3.2, S3.3); press Set before OK and reboot (S5.1); close "
         "browsers and other large programs (S5.2).");
static const char *const fix_host_oom_linux =
    HR_N("Add swap to the size `headroom plan` gives — for 16 GB RAM and SDXL/FLUX 32–64 GB, 64 GB "
         "for video workflows (S4.1, S4.2) — as a swap file on a roomy SSD (S3.3): `sudo headroom "
         "apply --from-plan` makes it and switches it on at once, no restart; close browsers and "
         "other large programs (S5.2).");
static const char *const fix_unknown_no_system =
    HR_N("Run `headroom diagnose` again without --no-system so the OS's own records are read, or "
         "save the whole console output to a file next time (e.g. `run_nvidia_gpu.bat > "
         "comfyui.log 2>&1`).");
static const char *const fix_unknown_windows_manual =
    HR_N("The event log could not be read here: open Event Viewer → Windows Logs → Application and "
         "look for Error events 1000 (Application Error) and 1023 (.NET Runtime) of python.exe at "
         "the time the run stopped (S2.1), or in PowerShell: Get-WinEvent -FilterHashtable "
         "@{LogName='Application'; Id=1000,1023} -MaxEvents 20 | Format-List TimeCreated,Id,Message. "
         "Next time save the whole console output (`run_nvidia_gpu.bat > comfyui.log 2>&1`).");
static const char *const fix_unknown_windows =
    HR_N("Windows recorded no crash of the run either (Application 1000 / 1023). Save the whole "
         "console output next time (`run_nvidia_gpu.bat > comfyui.log 2>&1`) and run `headroom "
         "diagnose` on it.");
/* not-memory on weak evidence (a stack trace with no error named): the same advice, not
 * ruling memory out */
static const char *const fix_not_memory_weak =
    HR_N("Most likely the code or the driver, not memory: update or reinstall the GPU driver, update or remove the "
         "custom node / extension that failed, check that the model matches the workflow; set "
         "CUDA_LAUNCH_BLOCKING=1 to find the failing operation. The evidence is weak (no error is named): if the "
         "log also shows memory running short, size the paging file or swap with `headroom check` too.");
static const char *const fix_unknown_linux_read =
    HR_N("The kernel log and the journal recorded no kill of the run either. Save the whole console "
         "output next time (`python main.py 2>&1 | tee comfyui.log`) and run `headroom diagnose` on "
         "it.");

const char *hr_cause_fix_os(hr_cause cause, bool windows)
{
    if (cause == HR_CAUSE_KILLED && windows)
        return fix_killed_windows;
    if (cause == HR_CAUSE_HOST_OOM)
        return windows ? fix_host_oom_windows : fix_host_oom_linux;
    return hr_cause_fix(cause);
}

const char *hr_diag_fix(const hr_diag_ctx *c, hr_cause cause)
{
    /* the advice of the OS the run died on: this machine's, or a Windows-only message's */
    bool windows = c->log_os ? c->log_os == 2
                             : c->windows || ((unsigned)cause < HR_CAUSE_COUNT && c->findings[cause].present &&
                                              hr_diag_meaning_windows(c->findings[cause].meaning));
    if (cause == HR_CAUSE_NOT_MEMORY && c->findings[cause].present && c->findings[cause].conf == HR_CONF_LOW)
        return fix_not_memory_weak;
    if (cause != HR_CAUSE_UNKNOWN)
        return hr_cause_fix_os(cause, windows);
    if (!c->system_checked)
        return fix_unknown_no_system;
    bool all_read = true;
    for (size_t i = 0; i < c->nsources; i++)
        all_read &= c->sources[i].ok;
    if (c->windows)
        return all_read && c->nsources ? fix_unknown_windows : fix_unknown_windows_manual;
    return fix_unknown_linux_read;
}

const char *hr_confidence_name(hr_confidence conf)
{
    switch (conf) {
    case HR_CONF_HIGH: return HR_N("high");
    case HR_CONF_MEDIUM: return HR_N("medium");
    case HR_CONF_LOW: return HR_N("low");
    default: return HR_N("none");
    }
}
