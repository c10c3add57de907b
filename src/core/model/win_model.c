/* Raw Win32 answers -> snapshot. OS-free: the same code runs for the live machine, for a
 * recording replayed on Linux, and under Wine. See win_model.h. */
#include "core/model/win_model.h"

#include "core/base/i18n.h"
#include "core/model/swap_target.h"

#include "core/model/pagingfiles.h"
#include "core/model/procs.h"
#include "core/base/size.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define VENDOR_NVIDIA              0x10deu
#define VENDOR_AMD                 0x1002u
#define VENDOR_INTEL               0x8086u
#define DXGI_ADAPTER_FLAG_SOFTWARE 2u
#define BUS_USB                    7u
#define GUID_POWER_SAVER           "a1841308-3541-4fab-bc81-f71556f20b4a"

static void code_text_in(hr_lang lang, uint32_t code, char *out, size_t n)
{
    const char *what = NULL;
    switch (code) {
    case 2: what = hr_tr_lang(lang, "not found"); break;
    case 5: what = hr_tr_lang(lang, "access denied"); break;
    case 50: what = hr_tr_lang(lang, "not supported"); break;
    case 87: what = hr_tr_lang(lang, "invalid parameter"); break;
    case 120: what = hr_tr_lang(lang, "not implemented"); break;
    case 126: what = hr_tr_lang(lang, "DLL not found"); break;
    case 1630: what = hr_tr_lang(lang, "unsupported value type"); break;
    case 0xC0000002u: what = hr_tr_lang(lang, "not implemented"); break;
    case 0xC0000003u: what = hr_tr_lang(lang, "information class not implemented"); break;
    case 0xC0000022u: what = hr_tr_lang(lang, "access denied"); break;
    case 0xC0000061u: what = hr_tr_lang(lang, "privilege not held"); break;
    case 0x80004001u: what = hr_tr_lang(lang, "not implemented"); break;
    case 0x80070005u: what = hr_tr_lang(lang, "access denied"); break;
    case 0x887A0002u: what = hr_tr_lang(lang, "not found"); break;
    case 0x887A0004u: what = hr_tr_lang(lang, "unsupported (no display device)"); break;
    default: break;
    }
    bool hex = code >= 0x80000000u; /* NTSTATUS / HRESULT read best in hex */
    if (what && hex)
        snprintf(out, n, hr_tr_lang(lang, "%s (0x%08X)"), what, (unsigned)code);
    else if (what)
        snprintf(out, n, hr_tr_lang(lang, "%s (%u)"), what, (unsigned)code);
    else if (hex)
        snprintf(out, n, hr_tr_lang(lang, "error 0x%08X"), (unsigned)code);
    else
        snprintf(out, n, hr_tr_lang(lang, "error %u"), (unsigned)code);
}

/* "EnumPageFilesW: not implemented on this system" */
static void call_why_in(hr_lang lang, char *out, size_t n, const char *call, const hr_win_call *c)
{
    char code[96] = "";
    if (c->code)
        code_text_in(lang, c->code, code, sizeof code);
    switch (c->state) {
    case HR_WIN_NOT_ASKED: snprintf(out, n, hr_tr_lang(lang, "%s: not recorded"), call); break;
    case HR_WIN_OK: snprintf(out, n, "%s: ok", call); break;
    case HR_WIN_FAILED:
        snprintf(out, n, hr_tr_lang(lang, "%s failed: %s"), call, c->code ? code : hr_tr_lang(lang, "no error code"));
        break;
    case HR_WIN_UNSUPPORTED:
        if (c->code)
            snprintf(out, n, hr_tr_lang(lang, "%s is not implemented on this system (%s)"), call, code);
        else
            snprintf(out, n, hr_tr_lang(lang, "%s is not implemented on this system"), call);
        break;
    case HR_WIN_ABSENT: snprintf(out, n, hr_tr_lang(lang, "%s: not present"), call); break;
    case HR_WIN_DENIED: snprintf(out, n, hr_tr_lang(lang, "%s needs administrator rights"), call); break;
    }
}

/* The same, worded in every language and added to w after prefix (a name, "" for none);
 * call is a name or an English msgid ("bus type query"). */
static void call_why(hr_words *w, const char *prefix, const char *call, const hr_win_call *c)
{
    for (int i = 0; i < 2; i++) {
        hr_lang lang = i ? HR_LANG_ZH : HR_LANG_EN;
        char why[HR_SNAP_WHY_MAX];
        size_t at = (size_t)snprintf(why, sizeof why, "%s", prefix);
        call_why_in(lang, why + at, sizeof why - at, hr_tr_lang(lang, call), c);
        hr_words_add_in(w, lang, why);
    }
}

static void fail_call(hr_section *s, const char *call, const hr_win_call *c)
{
    s->ok = false;
    call_why(&s->why, "", call, c);
}

static uint64_t mul(uint64_t a, uint64_t b)
{
    if (a == HR_UNKNOWN || b == HR_UNKNOWN)
        return HR_UNKNOWN;
    if (b && a > (HR_UNKNOWN - 2) / b)
        return HR_UNKNOWN;
    return a * b;
}

static char upper(char c)
{
    return (char)toupper((unsigned char)c);
}

static hr_volume *volume_of(hr_snapshot *s, const char *path)
{
    for (int i = 0; i < s->volume_count; i++)
        if (hr_same_drive(s->volumes[i].dev.mount_point, path))
            return &s->volumes[i];
    return NULL;
}

static void model_platform(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_platform_info *p = &s->platform;
    p->wsl2 = HR_TRI_NO;
    p->container = HR_TRI_NO;
    if (raw->os.state == HR_WIN_OK)
        hr_words_set(&p->os_name, "Windows %s%u.%u.%u",
                     raw->os_major == 10 && raw->os_build >= 22000 ? "11 "
                     : raw->os_major == 10                         ? "10 "
                                                                   : "",
                     (unsigned)raw->os_major, (unsigned)raw->os_minor, (unsigned)raw->os_build);
    else
        hr_words_set(&p->os_name, HR_N("Windows (version unknown)"));
    if (raw->perf.state == HR_WIN_OK)
        p->page_size = raw->page_size;
    const char *sd = raw->system_drive[0] ? raw->system_drive : "C:";
    snprintf(p->system_volume, sizeof p->system_volume, "%c:\\", upper(sd[0]));
}

static void model_memory(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_ram *ram = &s->ram;
    if (raw->mem.state == HR_WIN_OK) {
        hr_section_ok(&ram->s, "GlobalMemoryStatusEx");
        ram->total_bytes = raw->total_phys;
        ram->available_bytes = raw->avail_phys;
    } else if (raw->perf.state == HR_WIN_OK) {
        hr_section_ok(&ram->s, "GetPerformanceInfo");
        ram->total_bytes = mul(raw->physical_total_pages, raw->page_size);
        ram->available_bytes = mul(raw->physical_available_pages, raw->page_size);
    } else {
        fail_call(&ram->s, "GlobalMemoryStatusEx", &raw->mem);
        fail_call(&ram->s, "GetPerformanceInfo", &raw->perf);
    }
    if (ram->total_bytes != HR_UNKNOWN && ram->available_bytes != HR_UNKNOWN &&
        ram->available_bytes <= ram->total_bytes)
        ram->used_bytes = ram->total_bytes - ram->available_bytes;

    hr_commit *c = &s->commit;
    c->enforced = HR_TRI_YES; /* Windows never overcommits */
    c->overcommit_mode = HR_OVERCOMMIT_NONE;
    if (raw->perf.state == HR_WIN_OK) {
        hr_section_ok(&c->s, "GetPerformanceInfo");
        c->charge_bytes = mul(raw->commit_total_pages, raw->page_size);
        c->limit_bytes = mul(raw->commit_limit_pages, raw->page_size);
        /* CommitPeak is the largest CommitTotal since boot, so it cannot be below the
         * current charge; Wine leaves it 0. */
        if (raw->commit_peak_pages >= raw->commit_total_pages && raw->commit_peak_pages)
            c->peak_bytes = mul(raw->commit_peak_pages, raw->page_size);
        else
            hr_section_fail(&c->s,
                            HR_N("peak unknown: GetPerformanceInfo reported CommitPeak %llu "
                                 "pages, below the current charge (Wine does not track it)"),
                            (unsigned long long)raw->commit_peak_pages);
    } else if (raw->mem.state == HR_WIN_OK) {
        /* The process's view: the smaller of the system and job limits. */
        c->limit_bytes = raw->total_page_file;
        if (raw->avail_page_file <= raw->total_page_file)
            c->charge_bytes = raw->total_page_file - raw->avail_page_file;
        hr_words_name(&c->s.source, "GlobalMemoryStatusEx");
        fail_call(&c->s, "GetPerformanceInfo", &raw->perf);
        hr_section_fail(&c->s, HR_N("limit and charge from GlobalMemoryStatusEx (a job's limit if "
                                    "one applies), peak unknown"));
    } else {
        fail_call(&c->s, "GetPerformanceInfo", &raw->perf);
        fail_call(&c->s, "GlobalMemoryStatusEx", &raw->mem);
    }
}

static const char *bus_name(uint32_t b)
{
    static const char *const names[] = { "unknown", "SCSI",  "ATAPI",   "ATA",
                                         "1394",    "SSA",   "Fibre",   "USB",
                                         "RAID",    "iSCSI", "SAS",     "SATA",
                                         "SD",      "MMC",   "Virtual", "FileBackedVirtual",
                                         "Spaces",  "NVMe",  "SCM",     "UFS" };
    return b < sizeof names / sizeof names[0] ? names[b] : "other";
}

static void model_volumes(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_section_ok(&s->volumes_s, "GetDiskFreeSpaceExW, IOCTL_STORAGE_QUERY_PROPERTY");
    for (int i = 0; i < raw->volume_count && s->volume_count < HR_MAX_VOLUMES; i++) {
        const hr_win_volume *w = &raw->volumes[i];
        /* Not candidates: no root, CD/DVD. Network drives and RAM disks are listed with
         * the reason they cannot hold a paging file. */
        if (w->drive_type == 0 || w->drive_type == 1 || w->drive_type == 5)
            continue;
        hr_volume *v = &s->volumes[s->volume_count++];
        hr_device *d = &v->dev;
        snprintf(d->name, sizeof d->name, "%c:", upper(w->root[0]));
        snprintf(d->mount_point, sizeof d->mount_point, "%c:\\", upper(w->root[0]));
        v->is_system = hr_same_drive(d->mount_point, s->platform.system_volume);
        if (w->space.state == HR_WIN_OK) {
            d->fs_total_bytes = w->total;
            d->fs_free_bytes = w->free_to_caller; /* honours quotas: what we could use */
        } else {
            char pre[HR_SNAP_NAME_MAX + 4];
            snprintf(pre, sizeof pre, "%s: ", d->name);
            call_why(&d->why, pre, "GetDiskFreeSpaceExW", &w->space);
            if (w->drive_type == 3) {
                s->volumes_s.ok = false;
                call_why(&s->volumes_s.why, pre, "GetDiskFreeSpaceExW", &w->space);
            }
        }
        if (w->info.state == HR_WIN_OK)
            hr_strlcpy(d->fs_type, w->fs, sizeof d->fs_type);
        if (w->device.state == HR_WIN_OK) {
            hr_strlcpy(d->bus, bus_name(w->bus_type), sizeof d->bus);
            d->usb = w->bus_type == BUS_USB ? HR_TRI_YES : HR_TRI_NO;
            d->removable = w->removable_media ? HR_TRI_YES : HR_TRI_NO;
        } else {
            call_why(&d->why, "", HR_N("bus type query"), &w->device);
        }
        if (w->drive_type == 2)
            d->removable = HR_TRI_YES;
        if (w->seek.state == HR_WIN_OK) {
            d->rotational = w->incurs_seek_penalty ? HR_TRI_YES : HR_TRI_NO;
        } else if (w->device.state == HR_WIN_OK && w->bus_type == 17) {
            d->rotational = HR_TRI_NO; /* NVMe is solid state */
        } else {
            call_why(&d->why, "", HR_N("SSD/HDD (seek penalty) query"), &w->seek);
        }
        if (w->bitlocker.state == HR_WIN_OK) {
            switch (w->bitlocker_protection) {
            case 1:
            case 3:
            case 4:
            case 5:
            case 6:
                d->encrypted = HR_TRI_YES;
                hr_strlcpy(d->encryption,
                           w->bitlocker_protection == 3   ? "BitLocker (encrypting)"
                           : w->bitlocker_protection == 4 ? "BitLocker (decrypting)"
                           : w->bitlocker_protection == 5 ? "BitLocker (suspended)"
                           : w->bitlocker_protection == 6 ? "BitLocker (locked)"
                                                          : "BitLocker",
                           sizeof d->encryption);
                break;
            case 2: d->encrypted = HR_TRI_NO; break;
            default: hr_words_add(&d->why, HR_N("BitLocker: status value %d not known"), (int)w->bitlocker_protection);
            }
        } else {
            call_why(&d->why, "", HR_N("BitLocker status"), &w->bitlocker);
        }
        switch (w->drive_type) {
        case 3: v->can_hold_swap = HR_TRI_YES; break;
        case 2:
            v->can_hold_swap = HR_TRI_NO;
            v->why_not.id = HR_SW_DRIVE_REMOVABLE;
            break;
        case 4:
            v->can_hold_swap = HR_TRI_NO;
            v->why_not.id = HR_SW_DRIVE_NETWORK;
            break;
        case 6:
            v->can_hold_swap = HR_TRI_NO;
            v->why_not.id = HR_SW_DRIVE_RAM_DISK;
            break;
        default: break;
        }
        /* A fixed drive still needs a file system that can hold the file: the one rule
         * plan placement and apply use (core/model/swap_target.h). */
        if (v->can_hold_swap == HR_TRI_YES)
            v->can_hold_swap = hr_swap_fs_capable(HR_OS_WINDOWS, d->fs_type, 0, false, &v->why_not);
    }
}

static void add_paging(hr_snapshot *s, const hr_win_pagefile *f, uint64_t page)
{
    if (s->paging_count >= HR_MAX_PAGING)
        return;
    hr_paging *p = &s->paging[s->paging_count++];
    hr_strlcpy(p->path, f->name, sizeof p->path);
    hr_win_path_from_nt(p->path);
    p->kind = HR_PAGING_PAGEFILE;
    p->size_bytes = mul(f->total_pages, page);
    p->used_bytes = mul(f->in_use_pages, page);
    p->peak_bytes = mul(f->peak_pages, page);
    p->priority = HR_UNKNOWN_I64;
    hr_volume *v = volume_of(s, p->path);
    if (v) {
        p->has_device = true;
        p->device = v->dev;
        v->holds_paging = true;
    }
}

static void first_string(void *ctx, int index, const char *utf8)
{
    if (index == 0)
        hr_strlcpy(ctx, utf8, HR_SNAP_PATH_MAX);
}

/* CrashControl (X.dump): is a crash dump written through the system drive's paging file?
 * Only what the values say; a value not read leaves it unknown (the plan then keeps to what
 * is configured). */
void hr_win_crash_control(const hr_win_raw *raw, hr_paging_config *cfg)
{
    const hr_win_regval *ce = &raw->crash_dump_enabled, *dd = &raw->dedicated_dump_file;
    if (dd->q.state == HR_WIN_OK &&
        (dd->type == HR_REG_SZ || dd->type == HR_REG_EXPAND_SZ || dd->type == HR_REG_MULTI_SZ))
        hr_reg_strings(dd->data, dd->len, dd->type, first_string, cfg->dedicated_dump_file);
    if (ce->q.state != HR_WIN_OK || ce->type != HR_REG_DWORD || ce->len < 4)
        return;
    uint32_t v =
        (uint32_t)ce->data[0] | (uint32_t)ce->data[1] << 8 | (uint32_t)ce->data[2] << 16 | (uint32_t)ce->data[3] << 24;
    cfg->crash_dump_enabled = v;
    cfg->dump_needs_system_paging = v == 0 || cfg->dedicated_dump_file[0] ? HR_TRI_NO : HR_TRI_YES;
}

static void model_paging(const hr_win_raw *raw, hr_snapshot *s)
{
    uint64_t page = raw->perf.state == HR_WIN_OK ? raw->page_size : 4096;
    if (raw->enum_pf.state == HR_WIN_OK) {
        hr_section_ok(&s->paging_s, "EnumPageFilesW");
        for (int i = 0; i < raw->enum_count; i++)
            add_paging(s, &raw->enum_files[i], page);
    } else if (raw->nt_pf.state == HR_WIN_OK) {
        hr_section_ok(&s->paging_s, raw->nt_pf_class == 144 ? "NtQuerySystemInformation(SystemPageFileInformationEx)"
                                                            : "NtQuerySystemInformation(SystemPageFileInformation)");
        /* A first entry of size 0 means there are no paging files. */
        for (int i = 0; i < raw->nt_count && raw->nt_files[0].total_pages; i++)
            add_paging(s, &raw->nt_files[i], page);
    } else {
        fail_call(&s->paging_s, "EnumPageFilesW", &raw->enum_pf);
        fail_call(&s->paging_s, "NtQuerySystemInformation(SystemPageFileInformation)", &raw->nt_pf);
    }

    hr_paging_config *cfg = &s->paging_config;
    hr_section_ok(&cfg->s, "registry Memory Management\\PagingFiles");
    const hr_win_regval *pf = &raw->paging_files;
    if (pf->q.state == HR_WIN_OK) {
        hr_error err = { 0 };
        if (hr_pagingfiles_parse(pf->data, pf->len, pf->type, cfg, &err) != 0)
            hr_section_fail_error(&cfg->s, &err);
    } else if (pf->q.state == HR_WIN_ABSENT) {
        /* No value: smss creates no paging file. */
        cfg->present = false;
        cfg->count = 0;
        cfg->automatic = HR_TRI_NO;
    } else {
        fail_call(&cfg->s, "registry PagingFiles", &pf->q);
    }
    const hr_win_regval *ex = &raw->existing_page_files;
    if (ex->q.state == HR_WIN_OK) {
        hr_error err = { 0 };
        if (hr_existing_pagefiles_parse(ex->data, ex->len, ex->type, cfg, &err) != 0)
            hr_section_fail_error(&cfg->s, &err);
    } else if (ex->q.state != HR_WIN_ABSENT) {
        fail_call(&cfg->s, "registry ExistingPageFiles", &ex->q);
    }
    const hr_win_regval *tp = &raw->temp_page_file;
    if (tp->q.state == HR_WIN_OK && tp->type == HR_REG_DWORD && tp->len >= 4) {
        uint32_t v = (uint32_t)tp->data[0] | (uint32_t)tp->data[1] << 8 | (uint32_t)tp->data[2] << 16 |
                     (uint32_t)tp->data[3] << 24;
        cfg->temp_page_file = v ? HR_TRI_YES : HR_TRI_NO;
    } else if (tp->q.state == HR_WIN_ABSENT) {
        cfg->temp_page_file = HR_TRI_NO;
    } else if (tp->q.state == HR_WIN_OK) {
        hr_section_fail(&cfg->s, HR_N("registry TempPageFile: type %u, not a DWORD"), (unsigned)tp->type);
    } else {
        fail_call(&cfg->s, "registry TempPageFile", &tp->q);
    }
    hr_win_crash_control(raw, cfg);
    /* Where the in-use list is unknown, ExistingPageFiles says which drives hold one. */
    if (!s->paging_s.ok)
        for (int i = 0; i < cfg->existing_count; i++) {
            hr_volume *v = volume_of(s, cfg->existing[i]);
            if (v)
                v->holds_paging = true;
        }
}

static void model_compression(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_compression *c = &s->compression;
    if (raw->store.state == HR_WIN_OK && raw->store_working_set) {
        hr_section_ok(&c->s, "NtQuerySystemInformation(SystemStoreInformation)");
        c->windows_compression = HR_TRI_YES;
        c->windows_store_bytes = raw->store_working_set;
    } else if (raw->procs.state == HR_WIN_OK) {
        hr_section_ok(&c->s, HR_N("process list (Memory Compression)"));
        c->windows_compression = raw->compression_process ? HR_TRI_YES : HR_TRI_NO;
        c->windows_store_bytes = raw->compression_process ? raw->compression_working_set : 0;
    } else {
        fail_call(&c->s, HR_N("process list"), &raw->procs);
        fail_call(&c->s, "SystemStoreInformation", &raw->store);
    }
    if (c->windows_compression == HR_TRI_YES)
        s->ram.compressed_bytes = c->windows_store_bytes;
    else if (c->windows_compression == HR_TRI_NO)
        s->ram.compressed_bytes = 0;
}

static const char *vendor_name(uint32_t id)
{
    switch (id) {
    case VENDOR_NVIDIA: return "NVIDIA";
    case VENDOR_AMD: return "AMD";
    case VENDOR_INTEL: return "Intel";
    case 0x1414: return "Microsoft";
    case 0x5143: return "Qualcomm";
    default: return "other";
    }
}

static hr_gpu *new_gpu(hr_gpus *g)
{
    if (g->count >= HR_MAX_GPUS)
        return NULL;
    hr_gpu *x = &g->gpu[g->count++];
    memset(x, 0, sizeof *x);
    x->vram_total_bytes = x->vram_used_bytes = HR_UNKNOWN;
    x->shared_total_bytes = x->shared_used_bytes = HR_UNKNOWN;
    x->python_vram_bytes = HR_UNKNOWN;
    x->integrated = HR_TRI_UNKNOWN;
    return x;
}

/* The GPU counters' figures for adapter a (matched by LUID), or NULL. */
static const hr_win_gpu_use *gpu_use_of(const hr_win_raw *raw, const hr_win_adapter *a)
{
    if (raw->gpu_pdh.state != HR_WIN_OK || (a->luid_high == 0 && a->luid_low == 0))
        return NULL;
    for (int i = 0; i < raw->gpu_use_count && i < HR_WIN_MAX_ADAPTERS; i++)
        if (raw->gpu_use[i].luid_high == a->luid_high && raw->gpu_use[i].luid_low == a->luid_low)
            return &raw->gpu_use[i];
    return NULL;
}

/* The dedicated VRAM python processes (maybe ComfyUI) hold on adapter a, from the per-process
 * counter; HR_UNKNOWN when it was not read in full. */
static uint64_t python_vram_on(const hr_win_raw *raw, const hr_win_adapter *a)
{
    if (!gpu_use_of(raw, a) || !raw->gpu_procs_listed)
        return HR_UNKNOWN;
    uint64_t sum = 0;
    for (int i = 0; i < raw->gpu_proc_count && i < HR_WIN_MAX_GPU_PROCS; i++) {
        const hr_win_gpu_proc *x = &raw->gpu_procs[i];
        const char *kind = hr_proc_kind(x->name);
        if (x->luid_high == a->luid_high && x->luid_low == a->luid_low && kind && strcmp(kind, "python") == 0)
            sum = x->dedicated_used > HR_UNKNOWN - 1 - sum ? HR_UNKNOWN - 1 : sum + x->dedicated_used;
    }
    return sum;
}

static void model_gpus(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_gpus *g = &s->gpus;
    if (raw->nvml.state == HR_WIN_NOT_ASKED && raw->dxgi.state == HR_WIN_NOT_ASKED) {
        hr_words_set(&g->notes, HR_N("GPUs not queried"));
        return;
    }
    if (raw->nvml.state != HR_WIN_OK && raw->dxgi.state != HR_WIN_OK) {
        fail_call(&g->s, raw->nvml.state == HR_WIN_ABSENT ? "NVML (nvml.dll)" : "NVML", &raw->nvml);
        fail_call(&g->s, "DXGI", &raw->dxgi);
        return;
    }
    hr_section_ok(&g->s, raw->nvml.state == HR_WIN_OK && raw->dxgi.state == HR_WIN_OK ? "NVML, DXGI"
                         : raw->nvml.state == HR_WIN_OK                               ? "NVML"
                                                                                      : "DXGI");
    int first_nvml = g->count;
    if (raw->nvml.state == HR_WIN_OK) {
        for (int i = 0; i < raw->nvml_count; i++) {
            hr_gpu *x = new_gpu(g);
            if (!x)
                break;
            hr_strlcpy(x->name, raw->nvml_gpus[i].name, sizeof x->name);
            hr_strlcpy(x->vendor, "NVIDIA", sizeof x->vendor);
            hr_strlcpy(x->source, "NVML", sizeof x->source);
            x->vram_total_bytes = raw->nvml_gpus[i].total;
            x->vram_used_bytes = raw->nvml_gpus[i].used;
            x->integrated = HR_TRI_NO;
            hr_strlcpy(x->driver, raw->nvml_driver, sizeof x->driver);
        }
    } else {
        call_why(&g->notes, "", raw->nvml.state == HR_WIN_ABSENT ? "NVML (nvml.dll)" : "NVML", &raw->nvml);
    }
    int nvml_end = g->count, next_nvml = first_nvml;
    if (raw->dxgi.state == HR_WIN_OK) {
        for (int i = 0; i < raw->adapter_count; i++) {
            const hr_win_adapter *a = &raw->adapters[i];
            if (a->flags & DXGI_ADAPTER_FLAG_SOFTWARE)
                continue; /* Microsoft Basic Render Driver */
            /* NVIDIA adapters already seen through NVML: add DXGI's shared figure. DXGI
             * lists them in the same order NVML does in practice; a mismatch only costs
             * the shared-memory figure, never a wrong VRAM number. */
            const hr_win_gpu_use *u = gpu_use_of(raw, a);
            if (a->vendor_id == VENDOR_NVIDIA && next_nvml < nvml_end) {
                g->gpu[next_nvml].python_vram_bytes = python_vram_on(raw, a);
                g->gpu[next_nvml++].shared_total_bytes = a->shared_system;
                continue;
            }
            hr_gpu *x = new_gpu(g);
            if (!x)
                break;
            hr_strlcpy(x->name, a->description, sizeof x->name);
            hr_strlcpy(x->vendor, vendor_name(a->vendor_id), sizeof x->vendor);
            hr_strlcpy(x->source, "DXGI", sizeof x->source);
            x->vram_total_bytes = a->dedicated_video;
            x->shared_total_bytes = a->shared_system;
            if (u) { /* DXGI gives use per process only: the GPU counters give the adapter's */
                x->vram_used_bytes = u->dedicated_used;
                x->python_vram_bytes = python_vram_on(raw, a);
            }
            /* DXGI has no "integrated" flag: a small dedicated carve-out from Intel/AMD is
             * the usual sign of a GPU that lives in system RAM (S4.3). A hint. */
            if ((a->vendor_id == VENDOR_INTEL || a->vendor_id == VENDOR_AMD) &&
                a->dedicated_video <= ((uint64_t)512 << 20))
                x->integrated = HR_TRI_YES;
            else if (a->vendor_id == VENDOR_NVIDIA || a->dedicated_video > ((uint64_t)2 << 30))
                x->integrated = HR_TRI_NO;
        }
        if (raw->nvml.state != HR_WIN_OK && raw->gpu_pdh.state != HR_WIN_OK)
            hr_words_add(&g->notes, HR_N("VRAM in use is per process in DXGI: not shown"));
    } else {
        call_why(&g->notes, "", "DXGI", &raw->dxgi);
    }
    if (g->count == 0)
        hr_words_add(&g->notes, HR_N("no GPU found"));
}

static void model_power(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_power *p = &s->power;
    if (raw->power.state != HR_WIN_OK) {
        fail_call(&p->s, "GetSystemPowerStatus", &raw->power);
        return;
    }
    hr_section_ok(&p->s, "GetSystemPowerStatus");
    p->on_battery = raw->ac_line == 0 ? HR_TRI_YES : raw->ac_line == 1 ? HR_TRI_NO : HR_TRI_UNKNOWN;
    p->has_battery = raw->battery_flag == 128 ? HR_TRI_NO : raw->battery_flag == 255 ? HR_TRI_UNKNOWN : HR_TRI_YES;
    if (p->has_battery == HR_TRI_YES && raw->battery_percent <= 100)
        p->battery_percent = raw->battery_percent;
    /* SystemStatusFlag 1 = battery saver on (Windows 10+); the Power saver plan too. */
    p->power_saver = raw->system_status_flag == 1 ? HR_TRI_YES : HR_TRI_NO;
    if (raw->scheme.state == HR_WIN_OK) {
        char g[40];
        size_t i = 0;
        for (; raw->scheme_guid[i] && i < sizeof g - 1; i++)
            g[i] = (char)tolower((unsigned char)raw->scheme_guid[i]);
        g[i] = '\0';
        if (strcmp(g, GUID_POWER_SAVER) == 0)
            p->power_saver = HR_TRI_YES;
    }
}

/* Facts worth flagging that need the whole snapshot to see, each with its rule. (What a
 * single field already says — automatic management, USB or HDD paging, battery — the
 * renderers say next to the field.) */
static void model_notes(const hr_win_raw *raw, hr_snapshot *s)
{
    const hr_paging_config *cfg = &s->paging_config;
    char a[32], b[32], c[32];
    /* A system-managed (or automatic) file on a nearly full system drive: Windows shrinks
     * it when space is short, and it can grow only into free space (S1.2 b). Nearly full:
     * past 95 % (S3.3), or less free space than the file's own system-managed ceiling
     * (3 x RAM or 4 GB, at most 1/8 of the volume — docs/rules.md, sources: page file sizing). */
    hr_volume *sys = volume_of(s, s->platform.system_volume);
    bool managed_on_sys = false;
    for (int i = 0; i < cfg->count; i++) {
        const hr_paging_config_entry *e = &cfg->entries[i];
        if (e->mode == HR_PAGING_MODE_AUTOMATIC ||
            (e->mode == HR_PAGING_MODE_SYSTEM_MANAGED && hr_same_drive(e->path, s->platform.system_volume)))
            managed_on_sys = true;
    }
    if (managed_on_sys && sys && sys->dev.fs_total_bytes != HR_UNKNOWN && sys->dev.fs_free_bytes != HR_UNKNOWN &&
        sys->dev.fs_total_bytes) {
        uint64_t total = sys->dev.fs_total_bytes, free_b = sys->dev.fs_free_bytes;
        uint64_t ram = s->ram.total_bytes != HR_UNKNOWN ? s->ram.total_bytes : 0;
        uint64_t ceiling = 3 * ram > ((uint64_t)4 << 30) ? 3 * ram : ((uint64_t)4 << 30);
        if (ceiling > total / 8)
            ceiling = total / 8;
        uint64_t current = 0;
        for (int i = 0; i < s->paging_count; i++)
            if (hr_same_drive(s->paging[i].path, sys->dev.mount_point) && s->paging[i].size_bytes != HR_UNKNOWN)
                current += s->paging[i].size_bytes;
        bool full95 = free_b < total / 20;
        bool cramped = current < ceiling && free_b < ceiling - current;
        if (full95 || cramped) {
            hr_size_format(free_b, a, sizeof a);
            hr_size_format(total, b, sizeof b);
            hr_size_format(ceiling, c, sizeof c);
            hr_snapshot_note(s, "S1.2",
                             HR_N("%s is nearly full (%s free of %s) and holds a "
                                  "system-managed paging file: Windows shrinks it when space is short "
                                  "and it cannot grow to its ceiling of %s"),
                             sys->dev.name, a, b, c);
        }
    }

    /* Configured on a drive where nothing is in use: not in effect until a restart (S5.1). */
    if (s->paging_s.ok)
        for (int i = 0; i < cfg->count; i++) {
            const hr_paging_config_entry *e = &cfg->entries[i];
            if (e->mode == HR_PAGING_MODE_AUTOMATIC)
                continue;
            bool in_use = false;
            for (int j = 0; j < s->paging_count; j++)
                if (hr_same_drive(s->paging[j].path, e->path))
                    in_use = true;
            if (!in_use) {
                char shown[HR_SNAP_PATH_MAX * 4];
                hr_snapshot_note(s, "S5.1",
                                 HR_N("%s is configured but not in use: changes take effect "
                                      "after a restart"),
                                 hr_win_path_shown(e->path, shown, sizeof shown));
            }
        }
    /* In use but no longer configured: it goes away at the next restart. */
    if (s->paging_s.ok && s->paging_config.s.ok && cfg->automatic != HR_TRI_YES)
        for (int j = 0; j < s->paging_count; j++) {
            bool configured = false;
            for (int i = 0; i < cfg->count; i++)
                if (hr_same_drive(s->paging[j].path, cfg->entries[i].path))
                    configured = true;
            if (!configured) {
                char shown[HR_SNAP_PATH_MAX * 4];
                hr_snapshot_note(s, "S5.1",
                                 HR_N("%s is in use but no longer configured: it goes away "
                                      "after a restart"),
                                 hr_win_path_shown(s->paging[j].path, shown, sizeof shown));
            }
        }
    (void)raw;
}

int hr_win_model_snapshot(const hr_win_raw *raw, hr_snapshot *s)
{
    hr_snapshot_init(s, HR_OS_WINDOWS);
    model_platform(raw, s);
    model_memory(raw, s);
    model_volumes(raw, s);
    model_paging(raw, s);
    model_compression(raw, s);
    model_gpus(raw, s);
    model_power(raw, s);
    model_notes(raw, s);
    return hr_snapshot_partial(s) ? HR_EPARTIAL : 0;
}
