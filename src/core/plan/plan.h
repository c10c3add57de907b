/* headroom — the rules engine behind `headroom plan` and `headroom check`.
 *
 * The seed's rules (S1.2, S3, S4, S5, S6) are applied to a snapshot — live, replayed, or
 * hypothetical — plus what-if overrides, and give: how much paging file / swap, where, fixed
 * or as a range, what to remove, what else to change, each line with its reason and the rule
 * it comes from. Pure: no OS calls, no I/O; the same inputs give the same plan on any OS.
 *
 * Split by concept: plan.c runs the stages in order (plan_stages.h, internal): plan_facts.c
 * (what the inputs and the snapshot say), plan_sizing.c (S4.1/S4.2 table and peak-commit
 * sizing), plan_placement.c (S3.3/S4.3/S5.4 ranking), plan_warnings.c, plan_steps.c (S3.1
 * safe order, Linux commands); plan_render.c writes it; plan_workload.c and plan_lines.c are
 * the small tables and lists the stages share. The stages never call back into plan.c. */
#ifndef HR_PLAN_H
#define HR_PLAN_H

#include "core/base/buf.h"
#include "core/base/error.h"
#include "core/base/i18n.h"
#include "core/base/json_writer.h"
#include "core/base/msg.h"
#include "core/base/render.h"
#include "core/estimate/estimate.h"
#include "core/model/comfy_args.h"
#include "core/model/run_need.h"
#include "core/model/snapshot.h"

#include <stdbool.h>
#include <stdint.h>

#define HR_PLAN_SCHEMA "headroom.plan/1"

#define HR_PLAN_TEXT_MAX     480
#define HR_PLAN_CMD_MAX      2048
#define HR_PLAN_MAX_REASONS  10
#define HR_PLAN_MAX_WARNINGS 24
#define HR_PLAN_MAX_STEPS    16
#define HR_PLAN_MAX_REMOVALS 16
#define HR_PLAN_CAND_REASONS 8

/* The free space the plan leaves on a volume is the one reserve apply keeps too:
 * hr_reserve_bytes() in core/model/swap_target.h. */
/* Margin over a known peak commit (docs/plan.md): S4.1 says ControlNet, LoRAs and upscale
 * nodes push the peak higher than the one measured, so size for 25 % more. */
#define HR_PLAN_PEAK_MARGIN_PERCENT 25
/* Windows: the small custom file on the system drive kept for crash dumps (X.dump) is
 * hr_dump_file_stays()'s (core/model/swap_target.h), the rule apply keeps to too. */
/* The smallest paging file / swap the plan recommends: S4.1's "32 GB as a backstop". */
#define HR_PLAN_BACKSTOP_BYTES      ((uint64_t)32 << 30)
/* The smallest file the plan puts on an SSD short of room rather than go to an HDD (S3.3). */
#define HR_PLAN_SSD_MIN_BYTES       ((uint64_t)4 << 30)
/* Linux: the swap file's name in the chosen directory — the name `headroom apply` gives it
 * (and the one it moves to when resizing its own). */
#define HR_PLAN_SWAP_NAME           "headroom.swap"
#define HR_PLAN_SWAP_NAME_2         "headroom-2.swap"

typedef enum hr_workload {
    HR_WORKLOAD_NONE = 0, /* not declared */
    HR_WORKLOAD_SD15,
    HR_WORKLOAD_SDXL,
    HR_WORKLOAD_FLUX,
    HR_WORKLOAD_VIDEO
} hr_workload;

/* "sd15" → HR_WORKLOAD_SD15; returns -1 for anything else. */
int hr_workload_parse(const char *s);
const char *hr_workload_name(hr_workload w);  /* "sd15", ..., "none" */
const char *hr_workload_label(hr_workload w); /* "SD 1.5", "SDXL", "FLUX", "video" */
/* The same label as an English msgid, for a message that translates it where it is shown. */
const char *hr_workload_label_msgid(hr_workload w);

/* The peak commit a workload needs, system-wide, when nothing was measured (docs/check.md):
 * SDXL 40 GB — the seed's worked example (S4.1: "past 40 GB"); 32 GB with 12 GB+ VRAM, where
 * offload is rare (S4.2); FLUX 48 / 40 GB (bigger weights, S1.1); video 80 GB (S4.2: roughly
 * double); SD 1.5 16 GB (the light row of S4.1). No workload declared: SDXL is assumed. */
uint64_t hr_workload_need_bytes(hr_workload w, uint64_t vram_bytes);

/* The size class of installed RAM: usable RAM rounded up to the module size it came from
 * (a "16 GB" machine reports 15.6-15.8 GiB, a "64 GB" one 63.7). RAM far under any size (an
 * integrated GPU took a large share) stays as it is. The table's rows and check's verdict use
 * it, so the 0.1-0.4 GB the firmware keeps never flips a verdict (docs/check.md). */
uint64_t hr_ram_class_bytes(uint64_t usable_bytes);

/* What-if overrides: any fact given here wins over the snapshot. */
/* Where a peak estimated from a workflow comes from, kept as data and worded when shown
 * (hr_peak_basis_text): the version's words are a message of their own inside the sentence,
 * so the parts are kept rather than one message. */
typedef enum hr_peak_from {
    HR_PEAK_GIVEN = 0, /* --peak-commit, or nothing: no sentence */
    HR_PEAK_SAMPLE,    /* the typical workflow of a workload (check/plan --workload) */
    HR_PEAK_WORKFLOW,  /* --workflow FILE */
    HR_PEAK_SERVER,    /* the heaviest prompt in the running ComfyUI's /history */
    HR_PEAK_SAVED,     /* the heaviest workflow saved in ComfyUI */
} hr_peak_from;

typedef struct hr_peak_basis {
    hr_peak_from from;
    hr_workload sample;             /* HR_PEAK_SAMPLE: the workload */
    char workflow[HR_EST_NAME_MAX]; /* the file; a sample's label (msgid); a prompt's id */
    char node_id[HR_EST_ID_MAX];    /* the step at the peak (not for a sample) */
    char class_type[HR_EST_TYPE_MAX];
    bool version_known; /* ComfyUI's version, else the one whose manager gave the high end */
    int version[3];
    char version_date[32]; /* a checkout between releases: its commit's date ("": a release) */
    char high_version[16];
} hr_peak_basis;

/* Fill b from the estimate e the peak was taken from. */
void hr_peak_basis_of(hr_peak_basis *b, hr_peak_from from, hr_workload sample, const hr_estimate *e);
/* The sentence in lang into buf (always NUL-terminated; "" for HR_PEAK_GIVEN); returns buf. */
const char *hr_peak_basis_text(const hr_peak_basis *b, hr_lang lang, char *buf, size_t cap);

typedef struct hr_plan_inputs {
    uint64_t ram_bytes;  /* HR_UNKNOWN: from the snapshot */
    uint64_t vram_bytes; /* HR_UNKNOWN: from the snapshot; 0 = integrated GPU / none */
    int os;              /* -1: the snapshot's OS; else hr_os */
    hr_workload workload;
    bool have_comfy_args;
    hr_comfy_args comfy;
    uint64_t peak_commit_bytes; /* HR_UNKNOWN: none known */
    hr_peak_basis peak_basis;   /* where the peak comes from ("the estimate of x.json: ..."); GIVEN = --peak-commit */
    char peak_label[64];        /* the workflow the peak is of ("" = none) */
    /* The run's need as a range (core/model/run_need.h): a workflow's estimate gives low – high
     * (peak_commit_bytes is the high end) and is the run's own, other programs come on top; a
     * measured --peak-commit is system-wide (low = high, the others are in it). */
    uint64_t need_low_bytes;      /* HR_UNKNOWN: = peak_commit_bytes */
    bool peak_is_run;             /* the peak is the run's own (an estimate), not system-wide */
    bool version_known;           /* ComfyUI's version was given or read (else the range covers all) */
    char high_version[16];        /* version unknown: the version whose manager gave the high end */
    hr_workload implied_workload; /* what the workflow implies (video, FLUX ...): its table row */
    uint64_t estimate_vram_bytes; /* the VRAM the estimate assumed, none being read; HR_UNKNOWN:
                                     it was read or given */
    uint64_t paging_bytes;        /* --paging: the what-if machine's paging file / swap now; HR_UNKNOWN */
    bool range;                   /* --range: initial < maximum (S3.2 compromise) */
    bool recorded;                /* the snapshot is a recording (--sysroot, --replay): say so */
} hr_plan_inputs;

void hr_plan_inputs_init(hr_plan_inputs *in);

/* A workflow's estimate as the run's need: its commit range (the run's own; other programs
 * come on top), whether ComfyUI's version was known, and the table row the workflow implies. */
void hr_plan_inputs_take_estimate(hr_plan_inputs *in, const hr_estimate *e);
/* The workload a workflow implies (S4.2): video from a video model or frames; FLUX and the
 * other large DiTs from the architecture; NONE when nothing says. */
hr_workload hr_workload_of_estimate(const hr_estimate *e);

/* The plan's warnings, one row each: X(id, the id in JSON — a contract scripts key on —, the
 * rule, the template's parameters in order (s: a string, u: unsigned long long), the message
 * template). The code says which ones apply (plan_warnings.c); check and tests find them by id. */
#define HR_PLAN_WARNINGS(X)                                                                                                            \
    X(HR_PW_NO_CRASH_DUMP, "no-crash-dump", "X.dump", "ss",                                                                            \
      HR_N(                                                                                                                            \
          "with no paging file left on %.2s Windows cannot write a kernel crash dump after a blue screen. To keep "                    \
          "one, leave a small paging file on %.2s (Custom size, 4096 MB initial and maximum, or System managed) next to the new one, " \
          "or set a dedicated dump file (CrashControl\\DedicatedDumpFile)"))                                                           \
    X(HR_PW_SHRINK, "shrink", "S6", "sss",                                                                                             \
      HR_N("removing the old files lowers the paging file configured from %s to %s (%s less), which the rules "                        \
           "allow here; 'headroom apply' never lowers it unless told to: add --allow-shrink to apply this plan"))                      \
    X(HR_PW_AUTO_FULL_SYSTEM, "auto-full-system", "S1.2", "s",                                                                         \
      HR_N("the paging file is managed automatically and the system drive has only %s free: Windows "                                  \
           "silently shrinks it (seen below 1 GB) and big models cannot even load — set a fixed size on another "                    \
           "drive"))                                                                                                                   \
    X(HR_PW_AUTO_MANAGED, "auto-managed", "S1.2", "s",                                                                                 \
      HR_N("the paging file is managed automatically: its ceiling is usually too low for a workflow's peak "                           \
           "commit, and it grows only after commit passes 90 %% of the limit — set a fixed %s"))                                       \
    X(HR_PW_TEMP_PAGE_FILE, "temp-page-file", "S5.1", "",                                                                              \
      HR_N("Windows could not create the configured paging file at the last boot and runs on a temporary one: "                        \
           "check the drive and the sizes, then restart"))                                                                             \
    X(HR_PW_COMPRESSION_OFF, "compression-off", "S5.3", "",                                                                            \
      HR_N("memory compression is turned off: it keeps rarely used pages compressed in RAM and reduces paging. "                       \
           "Leave it at the default (PowerShell as administrator: Enable-MMAgent -MemoryCompression)"))                                \
    X(HR_PW_COMPRESSION_NOT_VM, "compression-not-vm", "S5.3", "u",                                                                     \
      HR_N("RAM is %llu %% used with memory compression at work: high \"used\" with a smooth run is partly "                           \
           "compression, which is not virtual memory — when RAM is full, only the paging file takes more"))                            \
    X(HR_PW_WSL2, "wsl2", "X.wsl2", "",                                                                                                \
      HR_N("this is WSL 2: its memory and swap are set on Windows in %%UserProfile%%\\.wslconfig ([wsl2] swap=), "                     \
           "not inside Linux, and Windows' own paging file backs the whole VM — size that one too "                                  \
           "(headroom plan --os windows)"))                                                                                            \
    X(HR_PW_CGROUP_LIMIT, "cgroup-limit", "X.cgroup", "sss",                                                                           \
      HR_N(                                                                                                                            \
          "this runs under a memory limit of %s (cgroup %s): it is killed at that limit plus the swap the cgroup may use — "         \
          "raise the limit, or give it swap where it may use it%s"))                                                                   \
    X(HR_PW_CONTAINER, "container", "X.cgroup", "",                                                                                    \
      HR_N("inside a container: swap is made and switched on by the host, not here (no swapon without "                                \
           "CAP_SYS_ADMIN) — run the plan on the host"))                                                                               \
    X(HR_PW_OVERCOMMIT_NEVER, "overcommit-never", "X.overcommit", "su",                                                                \
      HR_N("vm.overcommit_memory=2: allocations fail (MemoryError) at the commit limit, now %s = RAM × %llu %% + "                    \
           "swap — the Linux twin of a too-small paging file; the swap size here counts only that share of RAM"))                      \
    X(HR_PW_ZRAM_NOT_BACKSTOP, "zram-not-backstop", "X.zram", "",                                                                      \
      HR_N("zram is compression in RAM, not a disk backstop: it stretches RAM, but when RAM is full zram is full "                     \
           "too — keep it and add the swap file"))                                                                                     \
    X(HR_PW_ZSWAP_NO_SWAP, "zswap-no-swap", "X.zram", "",                                                                              \
      HR_N("zswap is on but there is no disk swap behind it, so it does nothing"))                                                     \
    X(HR_PW_UPGRADE_RAM, "upgrade-ram", "S4.1", "s",                                                                                   \
      HR_N("%s of RAM: upgrade to at least 16 GB first — the paging file keeps a run alive, but slowly"))                              \
    X(HR_PW_INTEGRATED_GPU, "integrated-gpu", "S4.3", "s",                                                                             \
      HR_N("an integrated GPU takes part of RAM as shared video memory (up to %s): an 8 GB laptop may have "                           \
           "only about 6 GB usable"))                                                                                                  \
    X(HR_PW_PAGING_DRIVE_FULL, "paging-drive-full", "S3.3", "ssss",                                                                    \
      HR_N("%s holds %s and has only %s free, under the %s the plan keeps free there: writes fail and an SSD "                         \
           "slows as it fills — free space on it"))                                                                                    \
    X(HR_PW_LOW_VRAM_FLAGS, "low-vram-flags", "S1.2", "s",                                                                             \
      HR_N("%s only moves pressure from VRAM to RAM: launcher options and virtual memory add up, they do not "                         \
           "replace the paging file"))                                                                                                 \
    X(HR_PW_ON_BATTERY, "on-battery", "S4.3", "",                                                                                      \
      HR_N("running on battery: power saving throttles CPU, GPU and paging — plug in for a run"))                                      \
    X(HR_PW_POWER_SAVER, "power-saver", "S4.3", "",                                                                                    \
      HR_N("a power saving mode is on: it throttles CPU, GPU and paging — switch to a "                                              \
           "balanced or performance mode for a run"))                                                                                  \
    X(HR_PW_NO_TARGET, "no-target", "S3.3", "s",                                                                                       \
      HR_N("no drive here can take a %s file (see the candidates): free space on an SSD, or add one"))                                 \
    X(HR_PW_HDD_ONLY, "hdd-only", "S3.3", "",                                                                                          \
      HR_N("only rotational drives (HDD) can take it: add RAM first — paging on an HDD can be slower than none"))                      \
    X(HR_PW_HDD_LAST_RESORT, "hdd-last-resort", "S3.3", "s",                                                                           \
      HR_N("%s is an HDD, the last resort: no SSD here has room for even a small file. Make room on an SSD "                           \
           "(free space, or shrink a volume in Disk Management to make a partition for it — S4.3) and "                              \
           "move it there"))                                                                                                           \
    X(HR_PW_PAGING_ON_REMOVABLE, "paging-on-removable", "S5.4", "s",                                                                   \
      HR_N("%s is on removable media: unplugging it leaves the system without it (errors, or no desktop)"))

typedef enum hr_plan_warning {
    HR_PW_NONE = 0, /* a line that is not a warning */
#define HR_PW_ENUM(id, json_id, rule, params, text) id,
    HR_PLAN_WARNINGS(HR_PW_ENUM)
#undef HR_PW_ENUM
        HR_PW_COUNT
} hr_plan_warning;

/* A warning's row: its JSON id, rule, parameters and (English) template; NULL for HR_PW_NONE
 * or out of range. */
typedef struct hr_plan_warning_info {
    const char *id, *rule, *params, *text;
} hr_plan_warning_info;
const hr_plan_warning_info *hr_plan_warning_row(hr_plan_warning w);

/* One line of output: which rule (seed "S4.2" or headroom's own "X.dump", see docs/plan.md),
 * a stable id for scripts and tests, and the text — kept as data (an English template and
 * its values), so one plan is shown in the user's language and as English JSON alike. */
typedef struct hr_plan_line {
    hr_plan_warning warning; /* which warning (HR_PW_NONE in the other lists) */
    char id[32];
    char rule[16];
    hr_msg msg; /* read it with hr_plan_line_text() */
    /* Shown before the message and ": " ("" none): a file system's name before a reason that
     * does not name it; lead_tr: the lead is a msgid ("this file system"). */
    char lead[32];
    bool lead_tr;
} hr_plan_line;

/* A step: what to do, and the exact command or dialog values when there is one. */
typedef struct hr_plan_step {
    char id[32];
    char rule[16];
    hr_msg msg;                    /* what to do: hr_plan_step_text() */
    char command[HR_PLAN_CMD_MAX]; /* "" when the step is done in a dialog; a command, not prose */
} hr_plan_step;

/* The text of a line or a step in lang, into buf; returns buf. At most HR_PLAN_TEXT_MAX - 1
 * bytes, the length a line has always had. Text and HTML pass the user's language
 * (hr_lang_get()), JSON HR_LANG_EN. */
const char *hr_plan_line_text(const hr_plan_line *l, hr_lang lang, char *buf, size_t cap);
const char *hr_plan_step_text(const hr_plan_step *s, hr_lang lang, char *buf, size_t cap);

typedef enum hr_ram_row { HR_ROW_8 = 8, HR_ROW_16 = 16, HR_ROW_32 = 32, HR_ROW_64 = 64 } hr_ram_row;

/* The facts the rules read, after overrides, each with where it came from. */
typedef struct hr_plan_facts {
    hr_os os;
    const char *os_source;    /* "--os", "this machine" */
    bool hypothetical;        /* the machine is not the one the snapshot describes */
    bool recorded;            /* the snapshot is a recording, not this machine */
    uint64_t ram_bytes;       /* HR_UNKNOWN when neither given nor known */
    uint64_t ram_class_bytes; /* hr_ram_class_bytes(ram_bytes): the size as sold */
    const char *ram_source;
    uint64_t vram_bytes; /* largest dedicated VRAM; 0 = integrated only / none */
    const char *vram_source;
    uint64_t estimate_vram_bytes; /* vram_bytes unknown: what the estimate assumed (HR_UNKNOWN) */
    /* The machine's largest dedicated GPU, as read (whatever --vram says): check names it. */
    bool vram_gpu;
    char vram_gpu_name[HR_SNAP_NAME_MAX];
    uint64_t vram_gpu_used_bytes;     /* HR_UNKNOWN */
    uint64_t effective_vram_bytes;    /* minus --reserve-vram */
    bool integrated_gpu;              /* an integrated GPU takes shared RAM (S4.3) */
    uint64_t integrated_shared_bytes; /* HR_UNKNOWN when not known */
    hr_workload workload;
    bool workload_implied; /* not declared: what the workflow implies */
    bool version_known;    /* ComfyUI's version was given or read */
    char high_version[16]; /* not known: the version whose manager gave the need's high end */
    hr_comfy_args comfy;
    bool lean_on_ram;   /* low-VRAM flags (S4.2) */
    hr_ram_row row;     /* the S4.1 table row */
    bool volumes_known; /* placement has a list of drives / file systems */
    bool in_container;
    bool cgroup_limited;
    bool wsl2;
    uint64_t disk_paging_bytes; /* current disk paging / swap; HR_UNKNOWN if unknown */
    /* A change waits for a restart (S5.1): Windows' registry names other paging files than
     * those in use; Linux /etc/fstab names a swap file that is not active. */
    bool restart_pending;
    uint64_t configured_paging_bytes; /* the paging / swap configured (maximum); HR_UNKNOWN */
} hr_plan_facts;

/* A place the file could go, with the verdict and its reasons. */
/* What the run needs at its peak, the one estimate plan and check share: the measured peak
 * when given, else hr_workload_need_bytes() for the workload (SDXL when none is declared) —
 * with low-VRAM launcher flags the card counts as a small one, since they move the weights
 * to RAM (S1.2c, S4.2). */
uint64_t hr_plan_need_bytes(const hr_plan_facts *f, const hr_plan_inputs *in);

typedef struct hr_plan_candidate {
    char target[HR_SNAP_PATH_MAX]; /* "D:" or the mount point "/data" */
    char path[HR_SNAP_PATH_MAX];   /* "D:\\pagefile.sys" or "/data/swapfile" */
    char fs_type[32];
    bool eligible;   /* can hold it at all */
    bool fits_fixed; /* room for initial = maximum, keeping the reserve */
    bool fits_range; /* room for the range's initial size only */
    bool ssd_short;  /* an SSD short of room, chosen over an HDD with room (S3.3) */
    hr_tri ssd;      /* YES solid state, NO rotational */
    bool is_system;
    bool fixed_known;    /* known to be a fixed, local disk (not unknown: Wine's Z:, a
                                      * network drive, a device that could not be asked) */
    uint64_t free_bytes; /* now, plus any paging file there that will be replaced */
    uint64_t total_bytes;
    uint64_t reserve_bytes;  /* what must stay free */
    uint64_t existing_bytes; /* paging/swap already on it */
    int rank;                /* 1 = best; 0 = not eligible */
    int reason_count;
    hr_plan_line reasons[HR_PLAN_CAND_REASONS];
} hr_plan_candidate;

typedef enum hr_plan_basis { HR_BASIS_TABLE = 0, HR_BASIS_PEAK = 1 } hr_plan_basis;

typedef struct hr_plan_recommended {
    uint64_t initial_bytes;
    uint64_t maximum_bytes;
    bool fixed; /* initial == maximum (S3.2) */
    hr_plan_basis basis;
    uint64_t table_bytes;      /* what the S4.1/S4.2 table gives */
    uint64_t peak_bytes;       /* HR_UNKNOWN unless --peak-commit */
    uint64_t peak_sized_bytes; /* what the peak needs, HR_UNKNOWN unless known */
    hr_run_need need;          /* the one rule's parts: the run, others, margin, must back */
    uint64_t estimate_bytes;   /* the paging file the need asks for (must back − RAM's part);
                                      * HR_UNKNOWN when no need is known */
    bool set_by_table;         /* the table, not the estimate, set the size */
    bool upgrade_ram_first;    /* S4.1 8 GB row */
    bool target_known;
    char target[HR_SNAP_PATH_MAX]; /* "D:" / "/data"; "" when unknown */
    char target_path[HR_SNAP_PATH_MAX];
    hr_msg target_advice;               /* when no target: what kind of drive to pick (hr_plan_advice_text) */
    uint64_t advice_free_bytes;         /* the free space that advice asks of the drive */
    uint64_t add_bytes;                 /* Linux: size of the new swap file (recommended − swap kept) */
    bool room_capped;                   /* less than the rules ask: the chosen drive has no room for more */
    uint64_t wanted_bytes;              /* what the rules ask before the cap (= maximum when not capped) */
    char last_resort[HR_SNAP_PATH_MAX]; /* an HDD with room, passed over for a smaller file on an SSD */
    int reason_count;
    hr_plan_line reasons[HR_PLAN_MAX_REASONS]; /* why this size */
} hr_plan_recommended;

typedef struct hr_plan {
    hr_plan_facts facts;
    hr_plan_recommended recommended;
    int candidate_count;
    hr_plan_candidate candidates[HR_MAX_VOLUMES]; /* best first */
    int removal_count;
    hr_plan_line removals[HR_PLAN_MAX_REMOVALS];                /* paging files / swap areas to remove */
    char removal_paths[HR_PLAN_MAX_REMOVALS][HR_SNAP_PATH_MAX]; /* the file each removal names */
    int warning_count;
    hr_plan_line warnings[HR_PLAN_MAX_WARNINGS];
    int step_count;
    hr_plan_step steps[HR_PLAN_MAX_STEPS]; /* in the order to do them */
    bool nothing_to_change;                /* the machine already matches the plan */
    char dump_file[HR_SNAP_PATH_MAX];      /* Windows: a small system-drive file kept for
                                                     * crash dumps (X.dump), or "" */
    uint64_t dump_file_min_bytes;          /* X.dump: the least the dump file must hold
                                                       for the dump kind (hr_dump_min_bytes); 0 =
                                                       no dump file, or not known */
} hr_plan;

/* Build the plan. snap may be NULL (nothing known: a purely hypothetical machine). Fails only
 * when the facts the sizing needs are missing (HR_EPARTIAL: RAM unknown and not given), with a
 * message saying which flag gives it. */
int hr_plan_compute(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *out, hr_error *err);

/* The plan in r->format (text, JSON); the one entry point commands use. */
void hr_plan_render(const hr_plan *p, hr_render *r);
/* The same as text, into out; 0 or the buffer's sticky error. */
int hr_plan_text(const hr_plan *p, hr_buf *out);
/* With key == NULL a complete document with "schema"; with a key, a member of an open object
 * (check embeds the plan). */
void hr_plan_json(const hr_plan *p, hr_json_writer *w, const char *key);

/* The one rule's parts (recommended.need) as an object: low, high, others and their basis,
 * margin, the bounds (plan's and check's JSON). */
void hr_plan_need_json(const hr_plan *p, hr_json_writer *w, const char *key);
void hr_plan_need_members(const hr_plan *p, hr_json_writer *w); /* the same, into an open object */
/* The need's ComfyUI-version members alone (check gives its own judged need beside them). */
void hr_plan_need_version_members(const hr_plan *p, hr_json_writer *w);

/* recommended.target_advice in lang, into buf (as hr_plan_line_text); "" when there is none. */
const char *hr_plan_advice_text(const hr_plan_recommended *r, hr_lang lang, char *buf, size_t cap);

/* Lookups for tests and check: the warning w, or NULL. */
const hr_plan_line *hr_plan_find_warning(const hr_plan *p, hr_plan_warning w);

/* Add warning w with its template and the parameters its row names, in order. The
 * _alt form words the same warning differently (a fact changes the advice): same id, rule;
 * its fmt is an English msgid (HR_N). Both return the line, or NULL when the list is full. */
hr_plan_line *hr_plan_warn_add(hr_plan *p, hr_plan_warning w, ...);
HR_PRINTF(3, 4)
hr_plan_line *hr_plan_warn_alt(hr_plan *p, hr_plan_warning w, const char *fmt, ...);

/* Append a line (silently dropped when the list is full: lists are sized for every rule) and
 * return it, or NULL. id_rule is "id|rule", e.g. "upgrade-ram|S4.1". fmt is an English msgid
 * of static storage (HR_N("...")), translated when the line is shown; a %s value that is a
 * msgid of its own is marked with hr_plan_line_tr(). */
HR_PRINTF(5, 6)
hr_plan_line *hr_plan_line_add(hr_plan_line *list, int *count, int max, const char *id_rule, const char *fmt, ...);
/* Value i (from 0) of l's template is an English msgid: translate it with the line. l may be
 * NULL (a full list). */
void hr_plan_line_tr(hr_plan_line *l, int i);

#endif
