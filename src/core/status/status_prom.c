/* headroom — the `status` snapshot as Prometheus metrics (docs/export.md), for
 * node_exporter's and windows_exporter's textfile collectors.
 *
 * Naming follows Prometheus' conventions (and the exporters' own, where they measure the same
 * thing): a headroom_ prefix, base units in the name (_bytes, _seconds, _ratio), _total only
 * on counters, one family per quantity with labels for the instances (a paging file's path,
 * a GPU's index). A value that is unknown is left out, never written as 0; which sources
 * could not be read is itself a metric (headroom_source_up). */
#include "core/status/status_render.h"

#include "core/base/prom.h"

#include <stdio.h>

#define G "gauge"

static void known(hr_prom *p, const char *name, const char *help, const char *const *labels, uint64_t v)
{
    if (v != HR_UNKNOWN && v != HR_UNLIMITED)
        hr_prom_u64(p, name, G, help, labels, v);
}

static void source_up(hr_prom *p, const char *section, const hr_section *s)
{
    const char *l[] = { "section", section, NULL };
    hr_prom_u64(p, "headroom_source_up", G,
                "1 when headroom read this source of the snapshot, 0 when some of it is unknown.", l, s->ok ? 1 : 0);
}

static void ratio(hr_prom *p, const char *name, const char *help, const char *window, uint32_t centi)
{
    char v[24];
    snprintf(v, sizeof v, "%u.%04u", centi / 10000, centi % 10000);
    const char *l[] = { "window", window, NULL };
    hr_prom_sample(p, name, G, help, l, v);
}

static void seconds_total(hr_prom *p, const char *name, const char *help, uint64_t us)
{
    char v[32];
    snprintf(v, sizeof v, "%llu.%06llu", (unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
    hr_prom_sample(p, name, "counter", help, NULL, v);
}

static void pressure(hr_prom *p, const hr_pressure *ps)
{
    static const char *const windows[] = { "10s", "60s", "300s" };
    const hr_psi_line *l[2] = { &ps->some, &ps->full };
    static const char *const avg_name[2] = { "headroom_pressure_memory_some_ratio",
                                             "headroom_pressure_memory_full_ratio" };
    static const char *const avg_help[2] = {
        "Share of time at least one task waited for memory, averaged over the window (PSI some).",
        "Share of time all non-idle tasks waited for memory at once, averaged over the window (PSI full)."
    };
    for (int i = 0; i < 2; i++) {
        if (!l[i]->present)
            continue;
        uint32_t v[3] = { l[i]->avg10_centi, l[i]->avg60_centi, l[i]->avg300_centi };
        for (int w = 0; w < 3; w++)
            ratio(p, avg_name[i], avg_help[i], windows[w], v[w]);
    }
    if (ps->some.present)
        seconds_total(p, "headroom_pressure_memory_waiting_seconds_total",
                      "Total time at least one task waited for memory (PSI some), as node_exporter's "
                      "node_pressure_memory_waiting_seconds_total.",
                      ps->some.total_us);
    if (ps->full.present)
        seconds_total(p, "headroom_pressure_memory_stalled_seconds_total",
                      "Total time all non-idle tasks waited for memory at once (PSI full).", ps->full.total_us);
}

void hr_status_report_prom(const hr_status *st, hr_buf *out)
{
    const hr_snapshot *s = st->snap;
    hr_prom p;
    hr_prom_init(&p, out);
    const char *os = s->platform.os == HR_OS_WINDOWS ? "windows" : "linux";
    {
        const char *l[] = { "os", os, NULL };
        hr_prom_u64(&p, "headroom_snapshot_info", G, "Always 1; the labels say which OS the snapshot describes.", l, 1);
    }
    source_up(&p, "ram", &s->ram.s);
    source_up(&p, "commit", &s->commit.s);
    source_up(&p, "paging", &s->paging_s);
    source_up(&p, "paging_config", &s->paging_config.s);
    source_up(&p, "volumes", &s->volumes_s);
    source_up(&p, "compression", &s->compression.s);
    if (s->platform.os == HR_OS_LINUX) /* Windows has neither */
        source_up(&p, "cgroup", &s->cgroup.s);
    source_up(&p, "gpus", &s->gpus.s);
    source_up(&p, "power", &s->power.s);
    if (s->platform.os == HR_OS_LINUX)
        source_up(&p, "pressure", &s->pressure.s);

    known(&p, "headroom_ram_total_bytes", "Physical memory (RAM) installed and usable.", NULL, s->ram.total_bytes);
    known(&p, "headroom_ram_available_bytes",
          "RAM available for new work without paging (MemAvailable / available physical).", NULL,
          s->ram.available_bytes);
    known(&p, "headroom_ram_compressed_bytes",
          "RAM taken by compressed memory (Windows compression store, Linux zswap pool).", NULL,
          s->ram.compressed_bytes);

    known(&p, "headroom_commit_charge_bytes",
          "Commit charge: memory promised to processes (Committed_AS / CommitTotal).", NULL, s->commit.charge_bytes);
    known(&p, "headroom_commit_limit_bytes", "Commit limit: RAM plus paging files / swap (CommitLimit).", NULL,
          s->commit.limit_bytes);
    known(&p, "headroom_commit_peak_bytes", "Highest commit charge since boot (Windows only).", NULL,
          s->commit.peak_bytes);
    if (s->commit.enforced != HR_TRI_UNKNOWN)
        hr_prom_u64(&p, "headroom_commit_enforced", G,
                    "1 when allocations fail at the commit limit (Windows; Linux overcommit mode 2), "
                    "0 when the OOM killer decides instead.",
                    NULL, s->commit.enforced == HR_TRI_YES ? 1 : 0);
    if (s->commit.oom_kills != HR_UNKNOWN)
        hr_prom_u64(&p, "headroom_oom_kills_total", "counter",
                    "Processes the kernel's OOM killer ended since boot, machine-wide (Linux "
                    "/proc/vmstat oom_kill).",
                    NULL, s->commit.oom_kills);
    known(&p, "headroom_ceiling_bytes",
          "The real ceiling: what this machine can back before a run is killed or an allocation "
          "fails (commit limit, or RAM plus disk swap, capped by a memory cgroup).",
          NULL, st->ceiling.bytes);

    /* One family at a time: every paging area's size, then every one's use, then peaks. */
    static const char *const fam[3] = { "headroom_paging_size_bytes", "headroom_paging_used_bytes",
                                        "headroom_paging_peak_bytes" };
    static const char *const help[3] = { "Size of a paging file / swap area in use.",
                                         "Part of a paging file / swap area in use now.",
                                         "Highest use of a paging file since boot (Windows only)." };
    for (int f = 0; f < 3; f++) {
        for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++) {
            const hr_paging *pg = &s->paging[i];
            const char *l[] = { "path", pg->path, "kind", hr_paging_kind_name(pg->kind), NULL };
            uint64_t v = f == 0 ? pg->size_bytes : f == 1 ? pg->used_bytes : pg->peak_bytes;
            known(&p, fam[f], help[f], l, v);
        }
    }
    /* The file system under each paging file / swap file (a swap partition has none): a
     * paging drive filling up stops the file from growing and the system that writes to it. */
    static const char *const vfam[2] = { "headroom_paging_volume_size_bytes", "headroom_paging_volume_free_bytes" };
    static const char *const vhelp[2] = {
        "Size of the file system that holds a paging file / swap file.",
        "Free space (available to users) on the file system that holds a paging file / swap file."
    };
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < s->paging_count && i < HR_MAX_PAGING; i++) {
            const hr_paging *pg = &s->paging[i];
            if (!pg->has_device)
                continue;
            const char *l[] = {
                "path", pg->path, "kind", hr_paging_kind_name(pg->kind), "mount", pg->device.mount_point, NULL
            };
            known(&p, vfam[f], vhelp[f], l, f == 0 ? pg->device.fs_total_bytes : pg->device.fs_free_bytes);
        }
    }
    if (s->paging_s.ok)
        hr_prom_u64(&p, "headroom_paging_disk_bytes", G,
                    "Paging files / swap on disk in use, together (zram not counted: it is RAM).", NULL,
                    st->disk_paging_bytes);

    if (s->cgroup.s.ok && s->cgroup.memory_version != HR_CGROUP_NONE) {
        known(&p, "headroom_cgroup_memory_max_bytes", "The memory cgroup's limit on RAM (absent when there is none).",
              NULL, s->cgroup.memory_max_bytes);
        known(&p, "headroom_cgroup_swap_max_bytes", "The memory cgroup's limit on swap (absent when there is none).",
              NULL, s->cgroup.swap_max_bytes);
        known(&p, "headroom_cgroup_memory_current_bytes", "Memory the cgroup uses now.", NULL,
              s->cgroup.memory_current_bytes);
        if (s->cgroup.oom_kills != HR_UNKNOWN)
            hr_prom_u64(&p, "headroom_cgroup_oom_kills_total", "counter",
                        "Processes the OOM killer ended in this cgroup.", NULL, s->cgroup.oom_kills);
    }

    static const char *const gfam[4] = { "headroom_gpu_vram_total_bytes", "headroom_gpu_vram_used_bytes",
                                         "headroom_gpu_shared_total_bytes", "headroom_gpu_shared_used_bytes" };
    static const char *const ghelp[4] = { "Dedicated GPU memory (VRAM).", "Dedicated GPU memory in use.",
                                          "System RAM the GPU may borrow (shared GPU memory / GTT).",
                                          "System RAM the GPU has borrowed." };
    for (int f = 0; f < 4; f++) {
        for (int i = 0; i < s->gpus.count && i < HR_MAX_GPUS; i++) {
            const hr_gpu *g = &s->gpus.gpu[i];
            char idx[8];
            snprintf(idx, sizeof idx, "%d", i);
            const char *l[] = { "gpu", idx, "name", g->name, "vendor", g->vendor, NULL };
            uint64_t v = f == 0   ? g->vram_total_bytes
                         : f == 1 ? g->vram_used_bytes
                         : f == 2 ? g->shared_total_bytes
                                  : g->shared_used_bytes;
            known(&p, gfam[f], ghelp[f], l, v);
        }
    }

    if (s->pressure.s.ok)
        pressure(&p, &s->pressure);
}
