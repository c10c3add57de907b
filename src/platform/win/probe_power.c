/* Mains or battery, battery saver, the active power plan. */
#include "win_probes.h"

#include <powrprof.h>

#include <stdio.h>

void hr_win_probe_power(hr_win_raw *raw)
{
    SYSTEM_POWER_STATUS ps;
    if (GetSystemPowerStatus(&ps)) {
        raw->power.state = HR_WIN_OK;
        raw->ac_line = ps.ACLineStatus;
        raw->battery_flag = ps.BatteryFlag;
        raw->battery_percent = ps.BatteryLifePercent;
        /* Windows 10 named this byte SystemStatusFlag (1 = battery saver on); older
         * headers call it Reserved1. */
        raw->system_status_flag = ((const BYTE *)&ps)[3];
    } else {
        hr_win_set_error(&raw->power, GetLastError());
        if (raw->power.state == HR_WIN_OK)
            raw->power.state = HR_WIN_FAILED;
    }
    GUID *g = NULL;
    DWORD e = PowerGetActiveScheme(NULL, &g);
    hr_win_set_error(&raw->scheme, e);
    if (e == ERROR_SUCCESS && g) {
        snprintf(raw->scheme_guid, sizeof raw->scheme_guid, "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                 (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2], g->Data4[3],
                 g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
    }
    if (g)
        LocalFree(g);
}
