/* headroom — the exact steps, numbers filled in.
 *
 * Windows: the sysdm.cpl dialog in the seed's safe order (S3.1): the new file is set before
 * the old one is removed, so there is never a moment without a paging file; "Set" is pressed
 * for each drive (S5.1). Linux: the commands, the new swap switched on before any old one is
 * switched off. `plan` only prints them; it changes nothing. */
#include "core/plan/plan_stages.h"

#include "core/base/i18n.h"

#include "core/base/buf.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/model/fstab.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A step; fmt is an English msgid (HR_N), translated where the plan is shown. Returns the
 * step, or NULL when the list is full. */
HR_PRINTF(4, 5)
static hr_plan_step *step(hr_plan *p, const char *id_rule, const char *command, const char *fmt, ...)
{
    if (p->step_count >= HR_PLAN_MAX_STEPS)
        return NULL;
    hr_plan_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof *s);
    const char *bar = strchr(id_rule, '|');
    size_t n = bar ? (size_t)(bar - id_rule) : strlen(id_rule);
    if (n >= sizeof s->id)
        n = sizeof s->id - 1;
    memcpy(s->id, id_rule, n);
    if (bar)
        hr_strlcpy(s->rule, bar + 1, sizeof s->rule);
    va_list ap;
    va_start(ap, fmt);
    hr_msg_vset(&s->msg, fmt, ap);
    va_end(ap);
    if (command)
        hr_strlcpy(s->command, command, sizeof s->command);
    return s;
}

/* Value i of the step's template is an English msgid: translate it with the step. */
static void step_tr(hr_plan_step *s, int i)
{
    if (s)
        hr_msg_translate_arg(&s->msg, i);
}

static unsigned long long mib(uint64_t bytes)
{
    return (unsigned long long)(bytes / HR_MIB);
}

/* Windows: already a fixed file of at least this size on the target and nowhere else? */
static bool windows_already(const hr_snapshot *snap, const hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    if (!snap || !r->target_known || p->removal_count > 0 || !snap->paging_config.s.ok ||
        snap->paging_config.automatic != HR_TRI_NO)
        return false;
    /* One entry on the target, and at most the crash-dump file beside it (X.dump). */
    const hr_paging_config_entry *e = NULL;
    for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
        const hr_paging_config_entry *x = &snap->paging_config.entries[i];
        if (hr_same_drive(x->path, r->target) && !e)
            e = x;
        else if (!(p->dump_file[0] && hr_same_drive(x->path, p->dump_file)))
            return false;
    }
    return e && e->mode == HR_PAGING_MODE_CUSTOM && e->initial_bytes != HR_UNKNOWN && e->maximum_bytes != HR_UNKNOWN &&
           e->maximum_bytes >= r->maximum_bytes &&
           (r->fixed ? e->initial_bytes == e->maximum_bytes : e->initial_bytes >= r->initial_bytes);
}

static void windows_steps(const hr_snapshot *snap, hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    char mx[32];
    hr_size_gb(r->maximum_bytes, mx, sizeof mx);
    if (p->dump_file_min_bytes && windows_already(snap, p)) {
        /* the target is right, the dump file too small: that one change */
        char df[3] = { hr_drive_letter(p->dump_file), ':', '\0' };
        step(p, "open|S2.2", "sysdm.cpl",
             HR_N("press Win+R, type sysdm.cpl, Enter; then Advanced → Performance: Settings… → Advanced → "
                  "Virtual memory: Change…"));
        step(p, "dump-size|X.dump", NULL,
             HR_N("select %s → Custom size → Initial size (MB): %llu, Maximum size (MB): %llu → press Set: the crash "
                  "dump file must hold a dump"),
             df, mib(p->dump_file_min_bytes), mib(p->dump_file_min_bytes));
        step(p, "reboot|S5.1", NULL, HR_N("press OK, OK, and restart"));
        return;
    }
    if (windows_already(snap, p) && p->facts.restart_pending) {
        /* Set already, not yet in effect: the one step left is the restart (S5.1). */
        step(p, "restart|S5.1", NULL,
             HR_N("restart Windows: Start → Power → Restart, not Shut down — with Fast Startup, Shut down keeps the "
                  "old session and the paging file in use. %s is already set to %s; it takes effect at the restart"),
             r->target, mx);
        step(p, "verify|S2.2", "Get-CimInstance Win32_PageFileUsage",
             HR_N("after the restart check the new file is in use (PowerShell), or run headroom status"));
        return;
    }
    if (windows_already(snap, p)) {
        p->nothing_to_change = true;
        if (p->dump_file[0])
            step(p, "already|S6", NULL,
                 HR_N("nothing to change: %s already has a fixed paging file of at least %s, "
                      "and %s stays for crash dumps"),
                 r->target, mx, p->dump_file);
        else
            step(p, "already|S3.2", NULL, HR_N("nothing to change: %s already has a fixed paging file of at least %s"),
                 r->target, mx);
        step(p, "verify|S2.2", "Get-CimInstance Win32_PageFileUsage",
             HR_N("check what is in use (PowerShell), or run headroom status"));
        return;
    }
    const char *sys = snap && snap->platform.system_volume[0] ? snap->platform.system_volume : "C:\\";
    char sysd[3] = { (char)toupper((unsigned char)sys[0]), ':', '\0' };
    const char *where = r->target_known ? r->target : HR_N("the non-system SSD you chose (such as D:)");

    step(p, "open|S2.2", "sysdm.cpl",
         HR_N("press Win+R, type sysdm.cpl, Enter; then Advanced → Performance: Settings… → Advanced → "
              "Virtual memory: Change…"));
    if (snap && snap->paging_config.automatic == HR_TRI_NO)
        step(p, "untick-auto|S3.1", NULL,
             HR_N("check that \"Automatically manage paging file size for all drives\" is unticked"));
    else
        step(p, "untick-auto|S3.1", NULL,
             HR_N("untick \"Automatically manage paging file size for all drives\" (do not remove the old file yet)"));
    hr_plan_step *set_new = step(p, "set-new|S3.1", NULL,
                                 HR_N("select %s → Custom size → Initial size (MB): %llu, Maximum size (MB): %llu → "
                                      "press Set (OK alone does not save it — S5.1)"),
                                 where, mib(r->initial_bytes), mib(r->maximum_bytes));
    if (!r->target_known)
        step_tr(set_new, 0);

    if (p->dump_file_min_bytes) {
        char df[3] = { hr_drive_letter(p->dump_file), ':', '\0' };
        step(p, "dump-size|X.dump", NULL,
             HR_N("select %s → Custom size → Initial size (MB): %llu, Maximum size (MB): %llu → press Set: the crash "
                  "dump file must hold a dump"),
             df, mib(p->dump_file_min_bytes), mib(p->dump_file_min_bytes));
    }
    /* Remove the old files only now (S3.1). */
    bool removed_system = false;
    for (int i = 0; i < p->removal_count; i++) {
        char d[3] = { hr_drive_letter(p->removal_paths[i]), ':', '\0' };
        if (!d[0])
            continue;
        if (hr_same_drive(d, sysd))
            removed_system = true;
        /* X.dump: CrashControl says dumps need no paging file here, or the plan warns. */
        bool dumps_elsewhere = snap && snap->paging_config.dump_needs_system_paging == HR_TRI_NO;
        step_tr(step(p, "remove-old|S3.1", NULL, HR_N("only now select %s → No paging file → press Set%s"), d,
                     !hr_same_drive(d, sysd) ? ""
                     : dumps_elsewhere
                         ? HR_N(" (Windows warns about crash dumps; on this machine they need no paging file on it: "
                                "answer Yes)")
                         : HR_N(" (Windows warns about crash dumps: see the warning)")),
                1);
    }
    bool target_is_system = r->target_known && hr_same_drive(r->target, sysd);
    /* Without a list of the paging files in use, say it for the system drive, where Windows
     * puts one by default. */
    bool paging_known = snap && (snap->paging_s.ok || snap->paging_config.s.ok);
    /* Nor where PagingFiles leaves the system drive a file that no removal names: automatic
     * ("?:\pagefile.sys" names no drive; unticking it leaves C: system managed) or an entry
     * on it, unless it is the crash-dump file that stays (X.dump) — else the warning says C:
     * is left with none and no step makes it so. */
    bool dump_on_system = p->dump_file[0] && hr_same_drive(p->dump_file, sysd);
    bool system_configured = false;
    if (snap && snap->paging_config.s.ok) {
        system_configured = snap->paging_config.automatic == HR_TRI_YES;
        for (int i = 0; i < snap->paging_config.count && i < HR_MAX_PAGING_CONFIG; i++) {
            const char *ep = snap->paging_config.entries[i].path;
            system_configured |= ep[0] == '?' || hr_same_drive(ep, sysd);
        }
    }
    if (!removed_system && !target_is_system && !dump_on_system && (!paging_known || system_configured))
        step(p, "remove-system|S3.1", NULL,
             HR_N("only now select %s → No paging file → press Set (skip this if %s has no paging file; Windows warns "
                  "about crash dumps: see the warning)"),
             sysd, sysd);
    step(p, "reboot|S5.1", NULL,
         HR_N("press OK, OK, and restart. The first boot after moving the file can be slow or show an error while "
              "Windows removes the old file and makes the new one; the second is normal"));
    step(p, "verify|S2.2", "Get-CimInstance Win32_PageFileUsage",
         HR_N("after the restart check the new file is in use (PowerShell), or run headroom status"));
    step(p, "cleaners|S5.4", NULL, HR_N("exclude pagefile.sys from \"cleaner\" tools that might delete it"));
}

static void linux_steps(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    const hr_plan_recommended *r = &p->recommended;
    const hr_plan_facts *f = &p->facts;
    char cmd[HR_PLAN_CMD_MAX];
    unsigned long long add_g = (unsigned long long)(r->add_bytes / HR_GIB);
    unsigned long long max_g = (unsigned long long)(r->maximum_bytes / HR_GIB);

    if (f->wsl2) {
        snprintf(cmd, sizeof cmd, "[wsl2]\nswap=%lluGB", max_g);
        step(
            p, "wslconfig|X.wsl2", cmd,
            HR_N(
                "on Windows, open %%UserProfile%%\\.wslconfig in a text editor (create it if missing) and set the swap "
                "size under [wsl2]"));
        step(p, "wsl-shutdown|X.wsl2", "wsl --shutdown",
             HR_N("from Windows (PowerShell or cmd), stop WSL so that the new size takes effect; start it again"));
        step(p, "verify|S2.2", "swapon --show", HR_N("inside WSL, check the swap size, or run headroom status"));
        return;
    }
    if (f->cgroup_limited || f->in_container) {
        step(p, "host|X.cgroup", NULL,
             HR_N("swap is set on the host: run headroom plan there and follow its steps; a container cannot swapon"));
        if (f->cgroup_limited) {
            /* The limit the workload needs (docs/check.md), and swap allowed (-1: no swap cap). */
            uint64_t need = hr_plan_need_bytes(f, in);
            snprintf(cmd, sizeof cmd, "docker update --memory %llug --memory-swap -1 <container>",
                     (unsigned long long)hr_size_round_up_gib(need));
            step_tr(step(p, "raise-limit|X.cgroup", cmd,
                         HR_N("raise the container's memory limit to what %s needs at its peak and let it use the "
                              "host's swap (Docker shown; a systemd unit: MemoryMax= and MemorySwapMax=; Kubernetes: "
                              "the pod's memory limit)"),
                         hr_workload_label_msgid(f->workload == HR_WORKLOAD_NONE ? HR_WORKLOAD_SDXL : f->workload)),
                    0);
        }
        return;
    }
    if (r->add_bytes == 0 && p->removal_count == 0 && f->restart_pending) {
        /* Made and named in /etc/fstab, not switched on yet: that one step (S5.1). */
        step(p, "swapon-all|S5.1", "sudo swapon -a",
             HR_N("switch on the swap /etc/fstab names but nothing has switched on yet (or restart): it already "
                  "covers %llu GB"),
             max_g);
        step(p, "verify|S2.2", "swapon --show", HR_N("check the swap in use, or run headroom status"));
        return;
    }
    if (r->add_bytes == 0 && p->removal_count == 0) {
        p->nothing_to_change = true;
        step(p, "already|S4.1", NULL, HR_N("nothing to change: the swap in use already covers %llu GB"), max_g);
        step(p, "verify|S2.2", "swapon --show", HR_N("check what is in use, or run headroom status"));
        return;
    }
    const char *path = r->target_known ? r->target_path : "/path/to/headroom.swap";
    char fs[32] = "";
    for (int i = 0; i < p->candidate_count; i++)
        if (r->target_known && strcmp(p->candidates[i].path, path) == 0)
            hr_strlcpy(fs, p->candidates[i].fs_type, sizeof fs);
    if (!r->target_known) {
        /* The kind of drive the plan advises (recommended.target_advice), as one sentence. */
        char need[32];
        hr_size_gb(r->advice_free_bytes, need, sizeof need);
        step(p, "choose|S3.3", NULL,
             HR_N("choose where: a swap file on an SSD-backed ext4 or xfs file system (btrfs with NOCOW) with at least "
                  "%s free; not tmpfs, overlay or NFS, never a USB or removable disk"),
             need);
    }

    if (r->add_bytes > 0) {
        /* the commands are pasted into a shell: a path with a space stays one word */
        char qpath[HR_SNAP_PATH_MAX * 4 + 8];
        hr_shell_quote(path, qpath, sizeof qpath);
        if (hr_str_ieq(fs, "btrfs")) {
            snprintf(cmd, sizeof cmd, "sudo btrfs filesystem mkswapfile --size %llug %s", add_g, qpath);
            step(p, "create|X.btrfs", cmd,
                 HR_N("make a NOCOW swap file of %llu GB (btrfs-progs 6.1+; older: truncate -s 0, chattr +C, then "
                      "fallocate)"),
                 add_g);
        } else if (hr_str_ieq(fs, "ext4") || hr_str_ieq(fs, "xfs")) {
            snprintf(cmd, sizeof cmd, "sudo fallocate -l %lluG %s && sudo chmod 600 %s && sudo mkswap %s", add_g, qpath,
                     qpath, qpath);
            step(p, "create|S4.1", cmd, HR_N("make a %llu GB swap file (fallocate leaves no holes on %s)"), add_g, fs);
        } else {
            snprintf(cmd, sizeof cmd,
                     "sudo dd if=/dev/zero of=%s bs=1M count=%llu status=progress && sudo chmod 600 %s && "
                     "sudo mkswap %s",
                     qpath, add_g * 1024, qpath, qpath);
            step(p, "create|S4.1", cmd,
                 HR_N("make a %llu GB swap file, written out in full (swapon refuses files with "
                      "holes)"),
                 add_g);
        }
        snprintf(cmd, sizeof cmd, "sudo swapon --priority 10 %s", qpath);
        step(p, "swapon|S3.1", cmd, HR_N("switch it on before touching any old swap"));
        /* the line apply writes (fstab's escapes: a space is \040), as one word for echo */
        hr_buf line;
        hr_buf_init(&line, 0);
        hr_fstab_swap_line(path, 10, &line);
        char qline[HR_SNAP_PATH_MAX * 4 + 64];
        hr_shell_quote(hr_buf_error(&line) || !line.data ? "" : line.data, qline, sizeof qline);
        hr_buf_free(&line);
        snprintf(cmd, sizeof cmd, "echo %s | sudo tee -a /etc/fstab", qline);
        step(p, "fstab|S3.1", cmd, HR_N("keep it after a reboot"));
    }
    for (int i = 0; i < p->removal_count; i++) {
        const char *old = p->removal_paths[i];
        char qold[HR_SNAP_PATH_MAX * 4 + 8];
        hr_shell_quote(old, qold, sizeof qold);
        snprintf(cmd, sizeof cmd, "sudo swapoff %s", qold);
        step(p, "swapoff-old|S3.1", cmd, HR_N("only now switch off %.*s, and delete its line in /etc/fstab"),
             (int)strlen(old), old);
    }
    step(p, "verify|S2.2", "swapon --show", HR_N("check the swap in use, or run headroom status"));
    (void)snap;
}

void hr_plan_write_steps(const hr_snapshot *snap, const hr_plan_inputs *in, hr_plan *p)
{
    if (p->facts.os == HR_OS_WINDOWS)
        windows_steps(snap, p);
    else
        linux_steps(snap, in, p);
}
