#!/usr/bin/env python3
"""Plant small bugs in the rule code one at a time and see whether the fast tests catch them.

usage: tools/mutation.py [--build DIR] [--full] [--only SUBSTR] [--list] [--check] [-j N]

Each mutation is a file, a source snippet that must occur once in it (its tokens in order;
whitespace between them may differ, so formatting does not make it stale), and its
replacement, so it still applies when line numbers move; a snippet that is no longer found
(or found twice) is reported as "stale", never skipped in silence.

The bugs are planted in a copy of the tree, DIR/tree (default DIR: build-mutation), never in
the working tree: the copy is brought up to date at the start (only changed files are
copied, so the build in DIR/obj stays incremental). For each mutation: plant it in the copy,
build what the tests run, run the fast tests of the mutated area (or all fast tests with
--full), restore the file. The file is restored in a finally block and on SIGINT/SIGTERM; the
original text is also written to DIR/planted.json first, so a run killed outright is undone
by the next run (or by --restore) before anything else happens.

The fast tests are `ctest -LE 'root|wine|slow|system'`: no test that needs root, runs under
Wine, takes minutes, or holds the machine-wide swap lock (tests/CMakeLists.txt says what each
label means). With HR_SYSTEM_LOCK=FILE the area's `system` tests that need no root (they read
the machine's swap list) run too, under `flock FILE`. Not part of CI: it builds and tests once
per mutation.

A mutation caught by no test is listed as a survivor with its note; EQUIVALENT lists the
ones that cannot change behaviour (with why), which are counted apart, not as caught.
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST = "root|wine|slow|system"
SLOW_ROOT_WINE = "root|wine|slow"

# The fast tests that exercise each area (a ctest -R regex); --full runs them all.
AREA_TESTS = {
    "plan": r"^unit\.test_(plan_|check|model_rules|boundaries|win_status)|^cli\.plan_check|"
            r"^status\.fixture\.linux\.plan-|^fuzz\.plan|^cli\.export",
    "check": r"^unit\.test_(plan_|check|model_rules|boundaries|win_status|estimate_bounds)|^cli\.plan_check|"
             r"^status\.fixture\.linux\.plan-|^fuzz\.plan|^cli\.export",
    "model": r"^unit\.|^status\.fixture|^cli\.plan_check|^cli\.stress|^fuzz\.(plan|comfy_args)",
    "diagnose": r"^unit\.test_diag|^diagnose\.|^fuzz\.diagnose",
    "estimate": r"^unit\.test_(estimate|offload)|^cli\.estimate|^workflow\.|^models\.|^fuzz\.workflow|"
                r"^accuracy\.",
    "apply": r"^unit\.test_(apply|plan_apply_agree|pagingfiles)|^apply\.cli|^fuzz\.(apply_state|pagingfiles)",
    "parsers": r"^unit\.test_(parsers|pagingfiles|json_parse|fstab|procs|win_model|model_rules|drm)|"
               r"^status\.fixture|^models\.|^fuzz\.",
}

M = []


def mut(area, path, find, repl, note):
    M.append({"area": area, "file": path, "find": find, "repl": repl, "note": note})


# ---- plan: the S4.1/S4.2 table, the RAM rows and classes, the peak margin ----------------
S = "src/core/plan/plan_sizing.c"
mut("plan", S, "#define BIG_VRAM_BYTES ((uint64_t)23 << 29)", "#define BIG_VRAM_BYTES ((uint64_t)12 << 30)",
    "the big-VRAM edge moved from 11.5 to 12 GiB (a 12 GB card reads 11.99 GiB)")
mut("plan", S, "f->effective_vram_bytes >= BIG_VRAM_BYTES", "f->effective_vram_bytes > BIG_VRAM_BYTES",
    "big VRAM: >= becomes > (exactly 11.5 GiB)")
mut("plan", S, "if (ram_bytes < (uint64_t)12 << 30)", "if (ram_bytes <= (uint64_t)12 << 30)",
    "the 8 GB row's edge: < becomes <=")
mut("plan", S, "if (ram_bytes < (uint64_t)24 << 30)", "if (ram_bytes <= (uint64_t)24 << 30)",
    "the 16 GB row's edge: < becomes <=")
mut("plan", S, "if (ram_bytes < (uint64_t)48 << 30)", "if (ram_bytes < (uint64_t)32 << 30)",
    "the 32 GB row ends at 32 GB instead of 48")
mut("plan", S, "r->set_by_table = r->peak_sized_bytes <= r->table_bytes;",
    "r->set_by_table = r->peak_sized_bytes <= r->table_bytes / 2;",
    "a measured peak sizes below the table (the table's floor halved)")
mut("plan", S, "if (r->set_by_table && ram_part < p->facts.ram_bytes) {",
    "if (ram_part < p->facts.ram_bytes) {",
    "overcommit-never top-up also added on the peak basis (which already subtracts RAM's share)")
mut("plan", S, "r->initial_bytes = hr_size_round_up_gib(maximum / 2) * HR_GIB;",
    "r->initial_bytes = hr_size_round_up_gib(maximum / 4) * HR_GIB;", "--range initial a quarter")
RN = "src/core/model/run_need.c"
mut("plan", RN, "const uint64_t ram = ram_part == HR_UNKNOWN ? 0 : ram_part;",
    "const uint64_t ram = 0;\n    (void)ram_part;", "peak sizing forgets RAM's part of the commit limit")
mut("plan", S, "} else if (small_vram) {\n            hr_plan_line_tr(R(\"small-vram|S4.2\"",
    "} else if (small_vram && 0) {\n            hr_plan_line_tr(R(\"small-vram|S4.2\"", "the small-VRAM rule dropped")
mut("plan", S, "        } else if (f->lean_on_ram) {\n            R(\"lean-on-ram|S4.2\", HR_N(\"%s makes the run lean harder on RAM and the paging file: take the top",
    "        } else if (0) {\n            R(\"lean-on-ram|S4.2\", HR_N(\"%s makes the run lean harder on RAM and the paging file: take the top",
    "low-VRAM flags ignored in the 16/32 GB rows")
W = "src/core/plan/plan_workload.c"
mut("plan", W, "return usable >= size / 100 * 92 ? size : usable;", "return usable >= size / 100 * 96 ? size : usable;",
    "the RAM size class band narrowed from 8 % to 4 %")
mut("plan", W, "vram_bytes >= ((uint64_t)23 << 29);", "vram_bytes >= ((uint64_t)12 << 30);",
    "the need model's big-VRAM edge moved to 12 GiB")
mut("plan", W, "case HR_WORKLOAD_FLUX: return (uint64_t)(big_vram ? 40 : 48) << 30;",
    "case HR_WORKLOAD_FLUX: return (uint64_t)(big_vram ? 48 : 48) << 30;", "FLUX need ignores VRAM")
mut("plan", W, "case HR_WORKLOAD_VIDEO: return (uint64_t)80 << 30;", "case HR_WORKLOAD_VIDEO: return (uint64_t)64 << 30;",
    "video need lowered")
mut("plan", W, "return hr_workload_need_bytes(w, f->lean_on_ram ? 0 : f->effective_vram_bytes);",
    "return hr_workload_need_bytes(w, f->effective_vram_bytes);", "lean-on-RAM flags no longer raise the need")
mut("plan", "src/core/plan/plan.h", "#define HR_PLAN_PEAK_MARGIN_PERCENT 25", "#define HR_PLAN_PEAK_MARGIN_PERCENT 20",
    "peak margin 25 % → 20 %")

# ---- estimate: the commit verdict by the one rule ---------------------------------------------
EV = "src/core/estimate/estimate_verdicts.c"
mut("estimate", EV, "const uint64_t cap = enforced ? m->commit_limit_bytes : hr_sat_add(ram, m->swap_bytes);",
    "const uint64_t cap = enforced ? m->commit_limit_bytes : ram;", "Linux: RAM alone, the swap forgotten")
mut("estimate", EV, "const bool fails = rv == HR_NEED_WILL_FAIL;", "const bool fails = rv == HR_NEED_WILL_FAIL && enforced;",
    "Linux: a run the OOM killer ends is never CRASH")
mut("estimate", EV, "hr_size_gb(hr_run_paging_bytes(&n, ram_part), c, sizeof c);",
    "hr_size_gb(hr_run_paging_bytes(&n, 0), c, sizeof c);", "the fix's paging size forgets RAM's part")

# ---- diagnose: the machine a log describes ------------------------------------------------------
DM = "src/core/diagnose/diag_machine.c"
mut("diagnose", DM, "while (*i < n && digit(s[*i]) && k < 9) {", "while (*i < n && digit(s[*i]) && k < 12) {",
    "a RAM size of 10+ digits taken")
mut("diagnose", DM, "if (v[0] && sscanf(v, \"%d.%d.%d%n\", &a, &b, &c, &used) == 3 && v[used] == '\\0')",
    "if (v[0] && sscanf(v, \"%d.%d.%d%n\", &a, &b, &c, &used) >= 0)", "a version that is not three numbers taken")
mut("diagnose", DM, "        if (m->comfyui_date[0])\n            ADD(\" --comfyui-date %s\", m->comfyui_date);",
    "    }\n    if (m->comfyui_date[0]) {\n            ADD(\" --comfyui-date %s\", m->comfyui_date);",
    "the date given without the version estimate needs with it")

# ---- check: the verdict lines --------------------------------------------------------------
C = "src/core/check/check.c"
mut("check", RN, "if (capacity < n->fail_below)", "if (capacity <= n->fail_below)", "WILL FAIL line: < becomes <=")
mut("check", RN, "n->fail_below = hr_sat_add(low, n->others_low);",
    "n->fail_below = hr_sat_add(low / 4 * 3, n->others_low);", "WILL FAIL line moved from the low end to 75 % of it")
mut("check", RN, "n->fail_below = hr_sat_add(low, n->others_low);", "n->fail_below = hr_sat_add(low, n->others);",
    "a what-if machine WILL FAIL at the allowance, not only when a lean desktop fails too")
mut("check", RN, "if (n->must_back < busy)\n        n->must_back = busy;", "if (0)\n        n->must_back = busy;",
    "OK on a what-if machine without the high end on a busy desktop")
mut("check", RN, "n->others_high = HR_RUN_OTHERS_BUSY_BYTES > n->others ? HR_RUN_OTHERS_BUSY_BYTES : n->others;",
    "n->others_high = n->others;", "a what-if machine's others have no busy end")
mut("check", RN, "if (n->others_basis == HR_OTHERS_ALLOWANCE) {", "if (n->others_basis != HR_OTHERS_IN_PEAK) {",
    "measured others get the what-if spread too")
mut("check", RN, "if (capacity < n->must_back)\n        return HR_NEED_AT_RISK;",
    "if (capacity <= n->must_back)\n        return HR_NEED_AT_RISK;", "capacity exactly what it must back becomes AT RISK")
mut("check", RN, "return hr_sat_add(capacity, (uint64_t)64 << 20);",
    "return hr_sat_add(capacity, (uint64_t)1 << 30);", "the 64 MB tolerance widened to 1 GiB")
mut("check", RN, "return hr_sat_add(capacity, (uint64_t)64 << 20);", "return hr_sat_add(capacity, 0);",
    "the 64 MB tolerance dropped")
mut("check", "src/core/model/run_need.h", "#define HR_RUN_MARGIN_PERCENT 25", "#define HR_RUN_MARGIN_PERCENT 20",
    "the margin 20 % of the high end, not 25 %")
mut("check", RN, "n->must_back = hr_sat_add(hr_sat_add(high, n->others), n->margin);",
    "n->must_back = hr_sat_add(high, n->margin);", "other programs' commit left out of must back")
mut("check", C, "if (c->capacity_basis == HR_CAP_CGROUP && c->need.known && c->need.others_basis == HR_OTHERS_MEASURED)",
    "if (0)", "a cgroup's limit judged with the programs outside it")
mut("check", C, "f->ram_class_bytes > f->ram_bytes && c->capacity_basis != HR_CAP_CGROUP",
    "f->ram_class_bytes > f->ram_bytes", "a cgroup's limit also gets the RAM size-class gap")
mut("check", C, "c->charge_bytes >= cm->limit_bytes / 10 * 9;", "c->charge_bytes >= cm->limit_bytes / 20 * 19;",
    "commit-at-90 % rule moved to 95 %")
mut("check", C, "uint64_t grow = hr_sat_mul(ram, 3) > ((uint64_t)4 << 30) ? hr_sat_mul(ram, 3)",
    "uint64_t grow = hr_sat_mul(ram, 4) > ((uint64_t)4 << 30) ? hr_sat_mul(ram, 4)",
    "automatic paging file grows to 4 × RAM instead of 3")
mut("check", C, "if (drive != HR_UNKNOWN && grow > drive / 8)\n        grow = drive / 8;",
    "if (drive != HR_UNKNOWN && grow > drive / 4)\n        grow = drive / 4;",
    "automatic growth capped at a quarter of the drive instead of an eighth")
mut("check", C, "automatic_potential(x->st, x->p) >= x->need->fail_below;",
    "automatic_potential(x->st, x->p) >= x->need->fail_below / 2;",
    "automatic rescue from WILL FAIL at half the need")
mut("check", C, "f->disk_paging_bytes > paging)\n        paging = f->disk_paging_bytes;",
    "f->disk_paging_bytes < paging)\n        paging = f->disk_paging_bytes;", "after-plan capacity keeps the smaller swap")
mut("check", C, "const bool plan_changes = !x->p->nothing_to_change && !f->in_container && !f->cgroup_limited && !f->wsl2;",
    "const bool plan_changes = !x->p->nothing_to_change && !f->cgroup_limited && !f->wsl2;",
    "a container's OK is downgraded for a plan it cannot apply")
mut("check", C, "c->others_commit_bytes >= f->ram_bytes / 10))", "c->others_commit_bytes >= f->ram_bytes / 5))",
    "close-apps named from 20 % of RAM instead of 10 %")
mut("check", C, "if (held == HR_UNKNOWN || held < HR_CHECK_OTHER_MIN_BYTES)", "if (held == HR_UNKNOWN)",
    "small processes listed as other users")
mut("check", C, "return x->st && plan_changes;",
    "return x->st && plan_changes && 0;",
    "OK beside a plan that would change something")
mut("check", C, "e->initial_bytes >= e->maximum_bytes)\n            continue;", "e->initial_bytes > e->maximum_bytes)\n            continue;",
    "a fixed custom file (initial = maximum) counted as ranged")

ST = "src/core/status/status.c"
mut("check", ST, "if (s->volumes[i].is_system) {", "if (!s->volumes[i].is_system) {",
    "the report's system drive (the automatic file's room) taken from another volume")
mut("check", ST, "out->paging[i].size_bytes = p->size_bytes;", "out->paging[i].size_bytes = HR_UNKNOWN;",
    "the report loses the paging areas' sizes (a ranged file's growth never seen)")
mut("check", ST, "e->initial_bytes = cfg->entries[i].initial_bytes;", "e->initial_bytes = cfg->entries[i].maximum_bytes;",
    "the report reads configured ranged files as fixed")
mut("check", ST, "out->procs[i] = s->procs.proc[i];", "out->procs[i] = s->procs.proc[0];",
    "the report repeats the largest process for every one")

# ---- model: the shared rules (ceiling, overcommit, reserve, launcher flags) ----------------
CC = "src/core/model/commit_ceiling.c"
mut("model", CC, "return hr_sat_mul(m->commit.overcommit_kbytes, 1024);", "return hr_sat_mul(m->commit.overcommit_kbytes, 1000);",
    "vm.overcommit_kbytes × 1000 for × 1024")
mut("model", CC, "m->commit.overcommit_ratio : 50;", "m->commit.overcommit_ratio : 100;", "unknown overcommit_ratio taken as 100")
mut("model", CC, "if (m->commit.overcommit_kbytes != HR_UNKNOWN && m->commit.overcommit_kbytes)",
    "if (0)", "vm.overcommit_kbytes ignored")
mut("model", CC, "if (limited(m->cgroup_swap_max_bytes) && m->cgroup_swap_max_bytes < sw)",
    "if (limited(m->cgroup_swap_max_bytes) && m->cgroup_swap_max_bytes > sw)",
    "memory.swap.max compared the wrong way")
mut("model", CC, "if (limited(m->cgroup_memsw_max_bytes) && m->cgroup_memsw_max_bytes < cap)", "if (0)", "cgroup v1 memsw limit ignored")
mut("model", CC, "if (cap != HR_UNKNOWN && cap < out->bytes) {", "if (cap != HR_UNKNOWN && cap > out->bytes) {",
    "the cgroup cap taken when it is larger")
mut("model", CC, "m->commit.overcommit_mode == HR_OVERCOMMIT_NEVER));", "0));",
    "overcommit never not seen as enforced")
mut("model", CC, "if (out->enforced && !what_if && m && m->commit.limit_bytes != HR_UNKNOWN) {",
    "(void)what_if;\n    if (out->enforced && m && m->commit.limit_bytes != HR_UNKNOWN) {",
    "a what-if ignored where commit is enforced")
T = "src/core/model/swap_target.c"
mut("model", T, "return pct > HR_RESERVE_MIN_BYTES ? pct : HR_RESERVE_MIN_BYTES;", "return pct;", "the free-space reserve's minimum dropped")
mut("model", T, "return free_bytes >= hr_sat_add(file_bytes, hr_reserve_bytes(total_bytes));",
    "return free_bytes >= file_bytes;", "room check without the reserve")
mut("model", T, "return free_bytes > reserve ? (free_bytes - reserve) / HR_GIB * HR_GIB : 0;",
    "return free_bytes > reserve ? (free_bytes - reserve) : 0;", "largest room not rounded down to whole GiB")
SV = "src/core/model/swap_verdict.c"
mut("model", SV, "return strstr(row->names, spelled) != NULL;", "return false;",
    "a reason that writes out the file system's name (FAT32, overlay, btrfs) not taken to name it")
mut("model", SV, "return strcmp(v->fs, fs_type) == 0;", "return true;",
    "a reason with a file system parameter taken to name any file system")
mut("model", SV, "case 'k': s[k++] = v->disk; break;", "case 'k': s[k++] = v->fs; break;",
    "the disk's parameter shown as the file system")
mut("plan", "src/core/plan/plan_placement.c", "hr_swap_why_names_fs(&verdict, v->dev.fs_type) ? NULL",
    "v->dev.fs_type[0] && strstr(hr_swap_why_row_of(verdict.id)->text, v->dev.fs_type) ? NULL",
    "the fs line decided by searching the reason's template for the type")
mut("model", "src/core/model/comfy_args.c", "return a->lowvram || a->novram || a->cpu || a->disable_smart_memory;",
    "return a->lowvram || a->cpu || a->disable_smart_memory;", "--novram no longer leans on RAM")

# ---- diagnose: causes, confidence, ranking -------------------------------------------------
DR = "src/core/diagnose/diag_rules.c"
D = "src/core/diagnose/diag.c"
DE = "src/core/diagnose/diag_evidence.c"
DT = "src/core/diagnose/diag_time.c"
mut("diagnose", DR, "{\"paging file is too small\", HOST, H,", "{\"paging file is too small\", LOWVM, H,",
    "\"paging file is too small\" without 1455 classed as low virtual memory")
mut("diagnose", DR, "{\"error 1455\", HOST, H,", "{\"error 1455\", HOST, M,", "error 1455 lowered to medium")
mut("diagnose", DR, "{\"alloc_cpu.cpp\", HOST, M,", "{\"alloc_cpu.cpp\", HOST, H,", "alloc_cpu.cpp raised from medium to high")
mut("diagnose", DR, "{\"could not allocate tensor with\", GPU, M,", "{\"could not allocate tensor with\", GPU, H,",
    "DirectML's tensor line raised to high")
mut("diagnose", DR, "{\"killed process\", KILL, H, WB,", "{\"killed process\", KILL, M, WB,", "the OOM killer's line lowered to medium")
mut("diagnose", DR, "{\"memoryerror\", HOST, H, WB | WA,", "{\"memoryerror\", HOST, H, 0,", "MemoryError matched inside other words")
mut("diagnose", DR, "{\"enomem\", HOST, M, WB | WA,", "{\"enomem\", HOST, H, WB | WA,", "ENOMEM raised to high")
mut("diagnose", D, "*cause = HR_CAUSE_KILLED; *conf = HR_CONF_MEDIUM; *meaning = m_av; return true;",
    "*cause = HR_CAUSE_KILLED; *conf = HR_CONF_HIGH; *meaning = m_av; return true;",
    "exit code 0xC0000005 given high confidence")
mut("diagnose", D, "case 137: case -9:\n        *cause = HR_CAUSE_KILLED; *conf = HR_CONF_HIGH;",
    "case 137: case -9:\n        *cause = HR_CAUSE_KILLED; *conf = HR_CONF_MEDIUM;", "exit 137 lowered to medium")
mut("diagnose", D, "if (f->present && !taken && (!next || f->order < next->order))",
    "if (f->present && !taken && (!next || f->order > next->order))", "the rest ranked last sighting first")
mut("diagnose", D, "if (!winner || f->order < winner->order)", "if (!winner || f->order > winner->order)",
    "the winner is the last cause seen, not the first")
mut("diagnose", D, "(pass == 0 && f->conf < HR_CONF_MEDIUM))", "(pass == 0 && f->conf < HR_CONF_HIGH))",
    "a medium cause can no longer win over a later high one")
mut("diagnose", DE, "} else if (key < f->order) {\n        f->order = key;", "} else if (key > f->order) {\n        f->order = key;",
    "a cause's first sighting replaced by its last")
mut("diagnose", D, "    *conf = HR_CONF_LOW;\n", "    *conf = HR_CONF_MEDIUM;\n", "an unqualified out-of-memory raised to medium")
mut("diagnose", DT, "c->window_end = end ? end + 600 : 0;", "c->window_end = end ? end + 60 : 0;",
    "the OS-record window ends 1 min after the log instead of 10")

# ---- estimate: batch, latent, VAE ----------------------------------------------------------
EA = "src/core/estimate/estimate_arch.c"
E = "src/core/estimate/estimate_steps.c"
mut("estimate", EA, "*b = at_least1(g->batch);", "*b = 1;", "the latent ignores the batch")
mut("estimate", EA, "return b * hr_est_arch_info_of(a)->channels * t * h * w * 4.0;",
    "return b * hr_est_arch_info_of(a)->channels * t * h * w * 2.0;", "latent counted in fp16 on the CPU")
mut("estimate", EA, "double area = b * (batch_mult > 0 ? batch_mult : 1) * t * h * w;",
    "double area = b * (batch_mult > 0 ? 1 : 1) * t * h * w;",
    "sampling ignores the cond/uncond batch")
mut("estimate", EA, "*t = (double)(((uint32_t)frames - 1) / (uint32_t)ai->tdown + 1);",
    "*t = (double)((uint32_t)frames / (uint32_t)ai->tdown + 1);", "latent frames off by one")
mut("estimate", EA, "default: v = 2178.0 * h * w * 64 * d * r; break;", "default: v = 1767.0 * h * w * 64 * d * r; break;",
    "the KL VAE decode constant swapped for the encode one")
mut("estimate", EA, "*h = (double)(at_least1(g->height) / (uint32_t)ai->down);",
    "*h = (double)(at_least1(g->height) / (uint32_t)(ai->down * 2));", "latent height halved")
mut("estimate", E, "(op->geom.frames ? op->geom.frames : 1) * (op->geom.batch ? op->geom.batch : 1) * 3 * 4;\n    if (s->a->fp16_intermediates)\n        img *= 0.5;",
    "(op->geom.frames ? op->geom.frames : 1) * 3 * 4;\n    if (s->a->fp16_intermediates)\n        img *= 0.5;",
    "the decoded image ignores the batch")
mut("estimate", E, "(op->geom.frames ? op->geom.frames : 1) * (op->geom.batch ? op->geom.batch : 1) * 3 * 4;\n    double out_img",
    "(op->geom.frames ? op->geom.frames : 1) * 3 * 4;\n    double out_img", "the upscaled image ignores the batch")
mut("estimate", E, "if (!op->tiled && work > free_v - s->reserve) {", "if (!op->tiled && work > free_v) {",
    "the tiled retry ignores the VRAM reserve")
mut("estimate", E, "s->outputs += hr_est_latent_bytes(arch, &op->geom) * (s->a->fp16_intermediates ? 0.5 : 1.0);",
    "s->outputs += hr_est_latent_bytes(arch, &op->geom);", "the sampled latent ignores --fp16-intermediates")
mut("estimate", "src/core/estimate/estimate_workflow.c", "f.latent.batch = (uint32_t)(l->batch ? l->batch : 1);",
    "f.latent.batch = 1;", "a workflow's batch_size dropped")
EM = "src/core/estimate/estimate_modules.c"
mut("estimate", EM, "return r->cast_copy ? 4 : c->compute_bytes;", "return r->cast_copy ? 2 : c->compute_bytes;",
    "a text encoder counts no fp32 copy from 0.4.0 (PR #11171)")
mut("estimate", EM, "return c->date >= x->date;", "return false;",
    "a checkout's date ignored: the offload changes only by release")
mut("estimate", EM, "return c->utc >= x->utc;", "return c->date >= x->date;",
    "a checkout's time ignored: a date alone decides (P30 taken as after PR #11096)")
mut("estimate", EM, "if (c->date == x->date && *ambiguous == 0)", "if (false)",
    "a date alone on a merge's day said as certain")
mut("estimate", EM, "if (!r->bare_streams && !r->look_ahead)", "if (!r->look_ahead)",
    "PR #11069's bare streams ignored: a checkout of its day reserves the cost NUM_STREAMS + 1 times")
mut("estimate", "src/core/estimate/estimate_machine.c", "m->os == HR_OS_WINDOWS || m->wsl ? 0.5", "m->os == HR_OS_WINDOWS ? 0.5",
    "WSL2 counts Linux's VRAM default, not its Windows host's desktop")
mut("estimate", "src/core/estimate/estimate_machine.c",
    "m->vram_other_bytes = best->vram_used_bytes - best->python_vram_bytes, m->vram_other_read = true;",
    "m->vram_other_bytes = best->vram_used_bytes, m->vram_other_read = true;",
    "a running python's VRAM counted as other programs' though the driver gave it")
mut("estimate", "src/platform/linux/probe_gpu.c",
    "dup = f.client_known && seen[k].card == card && seen[k].id == f.client_id;", "dup = false;",
    "a DRM client open through two fds counted twice")
mut("estimate", "src/core/model/win_model.c",
    'if (x->luid_high == a->luid_high && x->luid_low == a->luid_low && kind && strcmp(kind, "python") == 0)',
    'if (x->luid_high == a->luid_high && x->luid_low == a->luid_low && (!kind || strcmp(kind, "chat") != 0))',
    "Windows: every process's VRAM counted as python's")
mut("parsers", "src/core/model/drm_fdinfo.c", "if (have_resident)\n        out->vram_bytes = resident;",
    "if (have_resident)\n        out->vram_bytes = resident + legacy;", "fdinfo: VRAM counted under both keys")
mut("estimate", "src/cli/cmd_estimate.c", "m->comfyui_commit = c->commit;", "(void)c->commit;",
    "--comfyui-date never reaches the estimate")
mut("estimate", "src/cli/cmd_estimate.c", "if (c->commit.date && !m.version_known) {", "if (c->commit.date && false) {",
    "--comfyui-date taken without a version")
mut("estimate", "src/core/estimate/estimate_machine.c", "bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);",
    "bool leap = y % 4 != 0;", "--comfyui-date: leap days refused in leap years")
mut("estimate", "src/core/estimate/estimate_machine.c", "int offset = sign * (oh * 3600 + om * 60);",
    "int offset = oh * 3600 + om * 60;", "--comfyui-date: a negative UTC offset taken as positive")
mut("estimate", EM, "return 384.0 * 384.0 * 27.0;", "return 384.0 * 384.0 * 9.0;",
    "the Wan 2.1 VAE's largest module taken as a 2-D convolution")
mut("estimate", EM, "{ 1280, 1280, 391 },", "{ 1280, 1280, 39 },",
    "SDXL's 1280 x 1280 projections mostly left out of the walk")
mut("estimate", EM, "if (done + size + pot < usable)", "if (done + size < usable)",
    "a module loads without room for the reserve")
mut("estimate", "src/core/estimate/estimate_machine.c",
    "return (double)m->vram_other_bytes < card ? (double)m->vram_other_bytes : card;",
    "return 0.1 * HR_EST_GIBD;", "--vram-used ignored")
mut("estimate", "src/core/estimate/estimate_machine.c", '&& !hr_procs_has_kind(&s->procs, "python")', "",
    "the card's VRAM in use taken as other programs' while a python (maybe ComfyUI) runs")
mut("parsers", "src/core/model/procs.c", 'out->python_unlisted = k && !strcmp(k, "python");',
    'out->python_unlisted = k && !strcmp(k, "chat");', "a python too small to be listed is forgotten")
mut("parsers", "src/core/model/procs.c", 'return name[i] == \'\\0\' || strcmp(name + i, ".exe") == 0',
    "return name[i] == 'x' || strcmp(name + i, \".exe\") == 0", "python3.N without .exe not python")
mut("estimate", "src/core/estimate/estimate_render.c",
    'hr_json_str(w, "text", hr_est_msg_text(&v->text, HR_LANG_EN, say, sizeof say));',
    'hr_json_str(w, "text", hr_est_msg_text(&v->text, hr_lang_get(), say, sizeof say));',
    "the estimate JSON's verdict in the user's language, not English")

# ---- languages: what a probe and a message say, English for JSON -------------------------
mut("model", "src/core/status/status_json.c", "return hr_words_in(w, HR_LANG_EN);",
    "return hr_words_in(w, hr_lang_get());", "status JSON gives the probe's words in the user's language")
mut("model", "src/core/model/win_model.c",
    "call_why_in(lang, why + at, sizeof why - at, hr_tr_lang(lang, call), c);",
    "call_why_in(hr_lang_get(), why + at, sizeof why - at, hr_tr_lang(lang, call), c);",
    "a Windows call's failure worded once, in the language of the moment, for both languages")
mut("model", "src/core/base/msg.c", "if (id != s) {", "if (id != s && 0) {",
    "a message's value that is a translation keeps the language it was made in")

# ---- apply: refusals and the state file ----------------------------------------------------
AS = "src/core/apply/apply_state.c"
AP = "src/core/apply/apply_plan.c"
mut("apply", AS, "if (i == HR_APPLY_MAX_AREAS || !path || path[0] != '/' || strlen(path) >= HR_SNAP_PATH_MAX)",
    "if (i == HR_APPLY_MAX_AREAS || !path || strlen(path) >= HR_SNAP_PATH_MAX)", "a relative area path accepted")
mut("apply", AS, "if (a->tmp[0] && a->tmp[0] != '/')", "if (0)", "a relative temporary path accepted")
mut("apply", AP, "if (!hr_room_ok(total, free, grow)) {", "if (!hr_room_ok(total, free, 0)) {", "a resize's room not checked")
mut("apply", AP, "if (in->priority < 0 || in->priority > 32767)", "if (in->priority < 0 || in->priority > 65535)",
    "swap priority above the kernel's 32767 accepted")
mut("apply", AP, "if (in->path[0] != '/')\n        return hr_error_set(err, HR_EINVAL, HR_T(\"swap file path",
    "if (0)\n        return hr_error_set(err, HR_EINVAL, HR_T(\"swap file path", "a relative swap file path accepted")
mut("apply", AP, "if (in->path_is_symlink)", "if (0)", "a symbolic link followed")
mut("apply", AP, "if (in->path_exists)\n        return hr_error_set(err, HR_EUNSAFE, HR_T(\"%s already exists",
    "if (0)\n        return hr_error_set(err, HR_EUNSAFE, HR_T(\"%s already exists", "an existing file overwritten")
mut("apply", AP, "hr_device_removable(&in->dev, &verdict) == HR_TRI_YES ||", "0 ||",
    "swap on removable media accepted")
mut("apply", AP, "if (in->state && strcmp(in->state->status, \"in-progress\") == 0)\n        return hr_error_set(err, HR_EUNSAFE, HR_T(\"an earlier apply stopped after step '%s'; run \"\n                            \"'headroom rollback --yes' first\"), in->state->last_step[0]",
    "if (0)\n        return hr_error_set(err, HR_EUNSAFE, HR_T(\"an earlier apply stopped after step '%s'; run \"\n                            \"'headroom rollback --yes' first\"), in->state->last_step[0]",
    "an interrupted apply not refused (Linux)")
mut("apply", AP, "if (hr_swap_pages(p->size_bytes, in->page_size) < HR_SWAP_MIN_GOOD_PAGES + 1)",
    "if (hr_swap_pages(p->size_bytes, in->page_size) < 1)", "a swap area below the kernel's minimum accepted")
mut("apply", "src/core/apply/pagingfiles_write.c", "out->initial_mb = e.initial_bytes / HR_PFW_MIB;",
    "out->initial_mb = e.initial_bytes / 1000000;", "PagingFiles MB as 10^6 bytes")

# ---- parsers: /proc text, headers, the registry value --------------------------------------
MI = "src/core/model/meminfo.c"
mut("parsers", MI, " || val > UINT64_MAX / 1024 / 2)", ")", "meminfo's overflow check dropped")
mut("parsers", MI, "*(uint64_t *)((char *)out + fields[i].off) = val * 1024;",
    "*(uint64_t *)((char *)out + fields[i].off) = val * 1000;", "meminfo kB as 1000 bytes")
mut("parsers", MI, "if (vn < 2 || memcmp(v + vn - 2, \"kB\", 2) != 0)", "if (vn < 2)", "meminfo's kB unit not checked")
SW = "src/core/model/swaps.c"
mut("parsers", SW, "a->size_bytes = size_kib * 1024;", "a->size_bytes = size_kib * 1000;", "/proc/swaps size as 1000-byte units")
mut("parsers", SW, "size_kib > UINT64_MAX / 1024 || used_kib > UINT64_MAX / 1024 ||", "",
    "/proc/swaps overflow check dropped")
mut("parsers", SW, "? HR_PAGING_ZRAM : HR_PAGING_PARTITION;", "? HR_PAGING_PARTITION : HR_PAGING_PARTITION;",
    "zram read as a disk partition")
ST = "src/core/scan/safetensors.c"
mut("parsers", ST, "if (x && tn.numel > UINT64_MAX / x)\n            over = true;", "(void)over;",
    "safetensors element-count overflow not checked")
mut("parsers", ST, "hr_json_as_u64(hr_json_at(offs, 1), &b) ||\n        b < a)", "hr_json_as_u64(hr_json_at(offs, 1), &b))",
    "safetensors offsets end before begin accepted")
mut("parsers", ST, "if (b > w->data_size) {", "if (b > w->data_size + 4096) {", "safetensors data past the file's end accepted")
mut("parsers", "src/core/base/text.c", "*out = v >= ((uint64_t)1 << 62) ? HR_UNLIMITED : v;", "*out = v;",
    "cgroup v1's LONG_MAX 'no limit' read as a limit")
PF = "src/core/model/pagingfiles.c"
mut("parsers", PF, "if (lo > hi)\n        hi = lo;", "if (0)\n        hi = lo;", "PagingFiles maximum below initial kept")
mut("parsers", PF, "e->initial_bytes = lo * MIB;", "e->initial_bytes = lo * 1000000;", "PagingFiles MB as 10^6 bytes")
mut("parsers", "src/core/model/cgroup_parse.c", "if (id == 0 && ctln == 0) {", "if (id == 0) {",
    "a v1 line with hierarchy id 0 taken for the v2 line")

# Mutations that cannot change behaviour, with why (counted apart from caught and survived).
EQUIVALENT = {
    "a fixed custom file (initial = maximum) counted as ranged":
        "a fixed file in use more than 1 MiB under its size sets restart_pending (plan_facts.c), "
        "which skips the ranged rescue; within that 1 MiB the growth cannot move a verdict",
}


def sh(cmd, **kw):
    return subprocess.run(cmd, **kw)


def sync_tree(tree):
    """Make tree a copy of the working tree's files (tracked and not ignored), copying only
    what differs so that unchanged files keep their times and the build stays incremental."""
    out = sh(["git", "-C", ROOT, "ls-files", "-z", "-c", "-o", "--exclude-standard"],
             capture_output=True, check=True).stdout
    want = {f.decode() for f in out.split(b"\0") if f}
    copied = 0
    for rel in sorted(want):
        src, dst = os.path.join(ROOT, rel), os.path.join(tree, rel)
        if os.path.islink(src):   # the recorded trees' relative links stay links
            target = os.readlink(src)
            if not os.path.islink(dst) or os.readlink(dst) != target:
                if os.path.lexists(dst):
                    os.unlink(dst)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                os.symlink(target, dst)
                copied += 1
            continue
        if not os.path.isfile(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        copied += 1
    for d, _, files in os.walk(tree):
        for fn in files:
            rel = os.path.relpath(os.path.join(d, fn), tree)
            if rel not in want:
                os.unlink(os.path.join(d, fn))
    return copied


def snippet_pattern(find):
    """A snippet matches whatever the formatter did to the whitespace between its tokens
    (.clang-format may re-wrap a line): tokens in order, any whitespace (or none) between."""
    toks = re.findall(r"\w+|\S", find)
    pat = r"\s*".join(re.escape(t) for t in toks)
    # a snippet's own indentation and line end belong to it, so its replacement keeps the
    # file's layout (-Wmisleading-indentation)
    if find[:1] in (" ", "\t"):
        pat = r"[ \t]*" + pat
    if find.endswith("\n"):
        pat += r"[ \t]*\n"
    return re.compile(pat)


def snippet_spans(text, find):
    return [m.span() for m in snippet_pattern(find).finditer(text)]


class Planted:
    """One file of the copy mutated; restored on exit from the with-block, whatever happens."""

    def __init__(self, tree, build, path, find, repl):
        self.journal = os.path.join(build, "planted.json")
        self.path = os.path.join(tree, path)
        self.find, self.repl = find, repl

    def __enter__(self):
        with open(self.path, encoding="utf-8") as f:
            self.orig = f.read()
        spans = snippet_spans(self.orig, self.find)
        if len(spans) != 1:
            raise LookupError(len(spans))
        with open(self.journal, "w", encoding="utf-8") as f:
            json.dump({"path": self.path, "text": self.orig}, f)
        with open(self.path, "w", encoding="utf-8") as f:
            b, e = spans[0]
            f.write(self.orig[:b] + self.repl + self.orig[e:])
        return self

    def __exit__(self, *exc):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.orig)
        if os.path.exists(self.journal):
            os.unlink(self.journal)
        return False


def restore_leftover(build):
    j = os.path.join(build, "planted.json")
    if os.path.exists(j):
        with open(j, encoding="utf-8") as f:
            d = json.load(f)
        with open(d["path"], "w", encoding="utf-8") as f:
            f.write(d["text"])
        os.unlink(j)
        print("restored %s from an interrupted run" % d["path"])


def tests_and_targets(build, regex, exclude):
    """The fast tests matching regex, and the build targets they run (so a mutation rebuilds
    only what its tests execute)."""
    cmd = ["ctest", "--test-dir", build, "--show-only=json-v1", "-LE", exclude]
    if regex:
        cmd += ["-R", regex]
    out = sh(cmd, capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    names, targets = [], {"headroom"}
    bdir = os.path.realpath(build)
    for t in doc.get("tests", []):
        names.append(t["name"])
        for a in t.get("command", []):
            ra = os.path.realpath(a) if os.path.isabs(a) else a
            if ra.startswith(bdir + os.sep) and os.access(ra, os.X_OK) and not os.path.isdir(ra):
                targets.add(os.path.basename(ra))
    return names, sorted(targets)


def names_sys(build, regex):
    """The fast tests labelled system (they read the machine's swap list, under its lock)."""
    cmd = ["ctest", "--test-dir", build, "--show-only=json-v1", "-L", "system", "-LE", SLOW_ROOT_WINE]
    if regex:
        cmd += ["-R", regex]
    doc = json.loads(sh(cmd, capture_output=True, text=True, check=True).stdout)
    return [t["name"] for t in doc.get("tests", [])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--full", action="store_true", help="run every fast test for each mutation")
    ap.add_argument("--only", help="only the mutations of these areas (an area's name selects that area alone), "
                    "or whose file or note contains one of these (comma-separated)")
    ap.add_argument("--list", action="store_true", help="list the mutations and stop")
    ap.add_argument("--check", action="store_true", help="report stale snippets and stop")
    ap.add_argument("--restore", action="store_true", help="undo an interrupted run and stop")
    ap.add_argument("--prepare", action="store_true", help="copy the tree, build it, and stop")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    top = os.path.abspath(a.build)
    tree, build = os.path.join(top, "tree"), os.path.join(top, "obj")
    # Tests labelled system (not root) run only under the machine-wide lock file named by
    # HR_SYSTEM_LOCK (flock), so that they never run beside a root test that changes swap.
    lock = os.environ.get("HR_SYSTEM_LOCK") if shutil.which("flock") else None
    os.makedirs(build, exist_ok=True)
    os.makedirs(tree, exist_ok=True)
    only = a.only.split(",") if a.only else []
    # An area's name selects that area only: "plan" or "check" also occur in other areas'
    # file names and notes (apply_plan.c, "room check ...").
    muts = [m for m in M if not only or any(o == m["area"] if o in AREA_TESTS else o in m["file"] or o in m["note"]
                                            for o in only)]
    for i, m in enumerate(muts):
        m["id"] = i + 1
    stale = []
    for m in muts:
        with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
            n = len(snippet_spans(f.read(), m["find"]))
        if n != 1:
            stale.append((m, n))
    if a.list or a.check:   # read-only: never touches a run in progress
        for m in muts:
            print("%3d %-9s %-40s %s" % (m["id"], m["area"], m["file"], m["note"]))
        for m, n in stale:
            print("STALE %d (%s): snippet found %d times in %s" % (m["id"], m["note"], n, m["file"]))
        print("%d mutations, %d stale" % (len(muts), len(stale)))
        return 1 if stale else 0

    # One run at a time on a build directory: a second one (or --restore) would undo the
    # first one's planted bug under it.
    lockf = open(os.path.join(top, "run.lock"), "w")
    try:
        fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print("another make mutation runs on %s" % top, file=sys.stderr)
        return 2
    restore_leftover(build)
    if a.restore:
        return 0

    def on_signal(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)

    t0 = time.time()
    print("copied %d changed files to %s" % (sync_tree(tree), tree), flush=True)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        sh(["cmake", "-S", tree, "-B", build, *gen, "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DHR_WERROR=ON"],
           check=True, stdout=subprocess.DEVNULL)
    print("building the unmutated tree in %s ..." % build, flush=True)
    if sh(["cmake", "--build", build, "-j", str(a.j)], stdout=subprocess.DEVNULL).returncode:
        print("the unmutated tree does not build", file=sys.stderr)
        return 2
    base = time.time() - t0
    print("baseline build: %.0f s" % base, flush=True)
    if a.prepare:
        return 0

    results = []   # (mutation, status, seconds)
    selection = {}   # area -> (its fast tests, the targets they run)
    try:
        for m in muts:
            if any(m is s for s, _ in stale):
                results.append((m, "stale", 0.0))
                print("[%d/%d] %-9s STALE     %s" % (m["id"], len(muts), m["area"], m["note"]), flush=True)
                continue
            t = time.time()
            regex = None if a.full else AREA_TESTS[m["area"]]
            if m["area"] not in selection:
                selection[m["area"]] = (tests_and_targets(build, regex, FAST)[0],
                                        tests_and_targets(build, regex, SLOW_ROOT_WINE if lock else FAST)[1])
            names, targets = selection[m["area"]]
            with Planted(tree, build, m["file"], m["find"], m["repl"]):
                b = sh(["cmake", "--build", build, "-j", str(a.j), "--target", *targets],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if b.returncode:
                    status = "no-build"
                else:
                    cmd = ["ctest", "--test-dir", build, "-j", str(a.j), "--stop-on-failure", "--timeout", "300"]
                    # The unit tests first: they take a second and catch most bugs; the CLI
                    # and fixture tests only when they pass.
                    unit = [n for n in names if n.startswith("unit.")]
                    rest = [n for n in names if not n.startswith("unit.")]
                    r = None
                    for part in (unit, rest):
                        if part and (r is None or not r.returncode):
                            r = sh(cmd + ["-LE", FAST, "-R", "^(" + "|".join(re.escape(n) for n in part) + ")$"],
                                   capture_output=True, text=True)
                    if r is None:
                        r = subprocess.CompletedProcess([], 0, "", "")
                    if not r.returncode and lock and names_sys(build, regex):
                        # the tests that read the machine's swap list, under the shared lock
                        r = sh(["flock", lock] + cmd + (["-R", regex] if regex else []) +
                               ["-L", "system", "-LE", SLOW_ROOT_WINE],
                               capture_output=True, text=True)
                    status = "caught" if r.returncode else "survived"
                    if status == "caught":
                        failed = re.findall(r"^\s*\d+ - (\S+) \(", r.stdout, re.M)
                        m["by"] = failed[:3]
            results.append((m, status, time.time() - t))
            print("[%d/%d] %-9s %-9s %5.0f s  %s%s" % (m["id"], len(muts), m["area"], status.upper(), time.time() - t,
                                                     m["note"], "  (" + ", ".join(m.get("by", [])) + ")"
                                                     if m.get("by") else ""), flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted: the planted bug was restored", file=sys.stderr)
    finally:
        # a second Ctrl-C must not cut the clean-up short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        restore_leftover(build)   # interrupted between writing the journal and the with-block
        # The tree is whole again; bring the build back to it for whoever runs next.
        sh(["cmake", "--build", build, "-j", str(a.j)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    print("\n== mutation score (%s tests, %d mutations, %.0f min)" %
          ("all fast" if a.full else "the area's fast", len(results), (time.time() - t0) / 60))
    areas = sorted({m["area"] for m, _, _ in results})
    tot_c = tot_n = 0
    for ar in areas:
        rs = [(m, s) for m, s, _ in results if m["area"] == ar]
        # a survivor that cannot change behaviour (EQUIVALENT) is neither caught nor missed
        judged = [s for m, s in rs if s == "caught" or (s == "survived" and m["note"] not in EQUIVALENT)]
        c = sum(1 for s in judged if s == "caught")
        tot_c += c
        tot_n += len(judged)
        st = sum(1 for _, s in rs if s == "stale")
        eq = sum(1 for m, s in rs if s == "survived" and m["note"] in EQUIVALENT)
        print("%-9s %3d of %3d caught (%3.0f %%)%s%s" % (ar, c, len(judged), 100.0 * c / max(1, len(judged)),
                                                       ", %d equivalent" % eq if eq else "",
                                                       ", %d stale" % st if st else ""))
    print("%-9s %3d of %3d caught (%3.0f %%)" % ("overall", tot_c, tot_n, 100.0 * tot_c / max(1, tot_n)))
    surv = [m for m, s, _ in results if s == "survived"]
    if surv:
        print("\nsurvivors:")
        for m in surv:
            print("  %3d %-9s %s: %s%s" % (m["id"], m["area"], m["file"], m["note"],
                                          "  [equivalent: %s]" % EQUIVALENT[m["note"]] if m["note"] in EQUIVALENT else ""))
    nb = [m for m, s, _ in results if s == "no-build"]
    if nb:
        print("\ndid not build (a broken mutation, not counted: fix its replacement):")
        for m in nb:
            print("  %3d %s" % (m["id"], m["note"]))
    for m, s, _ in results:
        if s == "stale":
            print("STALE %d %s: %s" % (m["id"], m["file"], m["note"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
