/* headroom — the machine a ComfyUI log describes (internal to the diagnosis, and its report).
 *
 * ComfyUI says at start what it runs on ("Total VRAM 4096 MB, total RAM 32439 MB", "pytorch
 * version: ...", "Set vram state to: ...", "Device: cuda:0 ...", "ComfyUI version: ..."), and
 * ComfyUI-Manager the checkout's date ("### ComfyUI Revision: 2648 [c7427375] | Released on
 * '2024-09-04'"). A log read elsewhere (a forum post, a friend's crash) then gives the what-if
 * flags that size the paging file or swap for that machine: plan and estimate take them.
 * Bounded: fixed fields, each line looked at once, the latest start wins. Pure core. */
#ifndef HR_DIAG_MACHINE_H
#define HR_DIAG_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hr_diag_log_machine {
    uint64_t ram_bytes;       /* "total RAM N MB" (MiB, psutil's total); 0 = not said */
    uint64_t vram_bytes;      /* "Total VRAM N MB" (MiB, torch's total); 0 = not said */
    char pytorch[40];         /* "2.2.2+cu118" */
    char vram_state[16];      /* "NORMAL_VRAM" */
    char device[96];          /* "cuda:0 NVIDIA GeForce RTX 3050 Ti Laptop GPU" */
    char comfyui_version[16]; /* "0.3.40" */
    char comfyui_date[11];    /* "2024-09-04", ComfyUI-Manager's "Released on" */
    int input;                /* where "Total VRAM" was read; -1 = nowhere */
    uint64_t line;
} hr_diag_log_machine;

void hr_diag_log_machine_init(hr_diag_log_machine *m);
/* One log line (not NUL-terminated), with or without a log's time prefix ("[2025-03-14
 * 20:41:07.118] ", "2025-05-12T01:43:58.893107 - "). */
void hr_diag_log_machine_line(hr_diag_log_machine *m, int input, uint64_t line, const char *s, size_t n);
/* Anything read at all. */
bool hr_diag_log_machine_known(const hr_diag_log_machine *m);
/* The GPU's maker from the device name: "nvidia", "amd", "intel" or NULL. */
const char *hr_diag_log_machine_vendor(const hr_diag_log_machine *m);
/* The what-if flags for that machine ("--os windows --ram 32439M --vram 4096M --gpu nvidia
 * --comfyui-version 0.3.40"), os_id "windows" / "linux" / NULL; "" when nothing is known. */
void hr_diag_log_machine_flags(const hr_diag_log_machine *m, const char *os_id, char *out, size_t cap);

#endif
