/* Power: on battery or mains (S4.3: power saving throttles CPU, GPU and paging). */
#include "linux_probes.h"
#include "core/base/i18n.h"
#include "lx_read.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

void hr_lx_probe_power(const char *sysroot, hr_snapshot *s)
{
    hr_power *pw = &s->power;
    char dir[4096];
    hr_lx_path(sysroot, "/sys/class/power_supply", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d && !hr_lx_exists(sysroot, "/sys/class")) {
        hr_section_fail(&pw->s, HR_N("/sys/class: not readable"));
        return;
    }
    if (!d) {
        /* A kernel without the power_supply class has no battery to report. */
        hr_section_ok(&pw->s, HR_N("/sys/class (no power_supply class: no battery)"));
        pw->has_battery = HR_TRI_NO;
        pw->on_battery = HR_TRI_NO;
        return;
    }
    hr_section_ok(&pw->s, "/sys/class/power_supply");
    bool battery = false, discharging = false, mains_seen = false, mains_online = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char p[512], type[32] = "", v[64];
        snprintf(p, sizeof p, "/sys/class/power_supply/%s/type", e->d_name);
        if (!hr_lx_read_str(sysroot, p, type, sizeof type))
            continue;
        if (strcmp(type, "Battery") == 0) {
            /* Peripheral batteries (mice, headsets) report scope Device. */
            snprintf(p, sizeof p, "/sys/class/power_supply/%s/scope", e->d_name);
            if (hr_lx_read_str(sysroot, p, v, sizeof v) && strcmp(v, "Device") == 0)
                continue;
            battery = true;
            snprintf(p, sizeof p, "/sys/class/power_supply/%s/status", e->d_name);
            if (hr_lx_read_str(sysroot, p, v, sizeof v) && strcmp(v, "Discharging") == 0)
                discharging = true;
            unsigned long long cap;
            snprintf(p, sizeof p, "/sys/class/power_supply/%s/capacity", e->d_name);
            if (hr_lx_read_u64(sysroot, p, &cap) && cap <= 100 && pw->battery_percent == HR_UNKNOWN)
                pw->battery_percent = cap;
        } else if (strcmp(type, "Mains") == 0 || strcmp(type, "USB") == 0) {
            unsigned long long on;
            snprintf(p, sizeof p, "/sys/class/power_supply/%s/online", e->d_name);
            if (hr_lx_read_u64(sysroot, p, &on)) {
                mains_seen = true;
                if (on)
                    mains_online = true;
            }
        }
    }
    closedir(d);
    pw->has_battery = battery ? HR_TRI_YES : HR_TRI_NO;
    if (!battery)
        pw->on_battery = HR_TRI_NO;
    else if (mains_seen)
        pw->on_battery = mains_online ? HR_TRI_NO : HR_TRI_YES;
    else
        pw->on_battery = discharging ? HR_TRI_YES : HR_TRI_NO;
    char prof[64];
    if (hr_lx_read_str(sysroot, "/sys/firmware/acpi/platform_profile", prof, sizeof prof))
        pw->power_saver = (strcmp(prof, "low-power") == 0 || strcmp(prof, "quiet") == 0) ? HR_TRI_YES : HR_TRI_NO;
}
