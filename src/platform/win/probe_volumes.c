/* Drives that hold or could hold a paging file: space, file system, bus, SSD/HDD,
 * BitLocker (S3.3, S5.4). Network and optical drives are not probed (a disconnected
 * network drive can block for a long time). */
#define COBJMACROS
#include "win_probes.h"

#include <propsys.h>
#include <shobjidl.h>
#include <winioctl.h>

#include <string.h>

static void storage_facts(const wchar_t *letter, hr_win_volume *v)
{
    wchar_t dev[8] = L"\\\\.\\X:";
    dev[4] = letter[0];
    /* Zero access: metadata queries need no rights (IOCTL_STORAGE_QUERY_PROPERTY is
     * FILE_ANY_ACCESS), so this works unelevated. */
    HANDLE h = CreateFileW(dev, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        hr_win_set_error(&v->seek, e);
        /* A zero-access open needs no rights: a refusal here is not about admin. */
        if (v->seek.state == HR_WIN_DENIED)
            v->seek.state = HR_WIN_FAILED;
        v->device = v->seek;
        return;
    }
    STORAGE_PROPERTY_QUERY q;
    ZeroMemory(&q, sizeof q);
    q.PropertyId = StorageDeviceSeekPenaltyProperty;
    q.QueryType = PropertyStandardQuery;
    DEVICE_SEEK_PENALTY_DESCRIPTOR sp;
    ZeroMemory(&sp, sizeof sp);
    DWORD got = 0;
    if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &sp, sizeof sp, &got, NULL) &&
        got >= sizeof sp) {
        v->seek.state = HR_WIN_OK;
        v->incurs_seek_penalty = sp.IncursSeekPenalty ? 1 : 0;
    } else {
        hr_win_set_error(&v->seek, GetLastError());
        if (v->seek.state == HR_WIN_OK)
            v->seek.state = HR_WIN_FAILED;
    }
    q.PropertyId = StorageDeviceProperty;
    union {
        STORAGE_DEVICE_DESCRIPTOR d;
        BYTE raw[1024];
    } buf;
    ZeroMemory(&buf, sizeof buf);
    if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &buf, sizeof buf, &got, NULL) &&
        got >= offsetof(STORAGE_DEVICE_DESCRIPTOR, BusType) + sizeof buf.d.BusType) {
        v->device.state = HR_WIN_OK;
        v->bus_type = (uint32_t)buf.d.BusType;
        v->removable_media = buf.d.RemovableMedia ? 1 : 0;
    } else {
        hr_win_set_error(&v->device, GetLastError());
        if (v->device.state == HR_WIN_OK)
            v->device.state = HR_WIN_FAILED;
    }
    CloseHandle(h);
}

static void bitlocker(const wchar_t *root, hr_win_volume *v)
{
    /* The shell property Explorer draws its padlock from; readable without admin
     * (manage-bde and Win32_EncryptableVolume need it). */
    IPropertyStore *ps = NULL;
    PROPERTYKEY key;
    HRESULT hr = PSGetPropertyKeyFromName(L"System.Volume.BitLockerProtection", &key);
    if (SUCCEEDED(hr))
        hr = SHGetPropertyStoreFromParsingName(root, NULL, GPS_DEFAULT, &IID_IPropertyStore, (void **)&ps);
    if (FAILED(hr)) {
        hr_win_set_hresult(&v->bitlocker, hr);
        return;
    }
    PROPVARIANT pv;
    PropVariantInit(&pv);
    hr = IPropertyStore_GetValue(ps, &key, &pv);
    if (FAILED(hr)) {
        hr_win_set_hresult(&v->bitlocker, hr);
    } else if (pv.vt == VT_I4 || pv.vt == VT_UI4 || pv.vt == VT_INT || pv.vt == VT_UINT) {
        v->bitlocker.state = HR_WIN_OK;
        v->bitlocker.code = 0;
        v->bitlocker_protection = pv.lVal;
    } else {
        v->bitlocker.state = HR_WIN_ABSENT; /* no BitLocker on this edition / volume */
        v->bitlocker.code = 0;
    }
    PropVariantClear(&pv);
    IPropertyStore_Release(ps);
}

void hr_win_probe_volumes(hr_win_raw *raw)
{
    /* No "insert a disk" dialogs for empty card readers. */
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    HRESULT co = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
    DWORD drives = GetLogicalDrives();
    raw->volume_count = 0;
    for (int i = 0; i < 26 && raw->volume_count < HR_WIN_MAX_VOLUMES; i++) {
        if (!(drives & (1u << i)))
            continue;
        wchar_t root[4] = { (wchar_t)(L'A' + i), L':', L'\\', 0 };
        UINT type = GetDriveTypeW(root);
        if (type != DRIVE_FIXED && type != DRIVE_REMOVABLE && type != DRIVE_RAMDISK)
            continue;
        hr_win_volume *v = &raw->volumes[raw->volume_count++];
        memset(v, 0, sizeof *v);
        v->root[0] = (char)('A' + i);
        v->root[1] = ':';
        v->root[2] = '\\';
        v->drive_type = type;
        ULARGE_INTEGER caller, total, total_free;
        if (GetDiskFreeSpaceExW(root, &caller, &total, &total_free)) {
            v->space.state = HR_WIN_OK;
            v->free_to_caller = caller.QuadPart;
            v->total = total.QuadPart;
            v->total_free = total_free.QuadPart;
        } else {
            hr_win_set_error(&v->space, GetLastError());
            if (v->space.state == HR_WIN_OK)
                v->space.state = HR_WIN_FAILED;
            if (type == DRIVE_REMOVABLE)
                continue; /* no medium: nothing more to learn */
        }
        wchar_t fs[MAX_PATH + 1];
        DWORD serial, maxlen, flags;
        if (GetVolumeInformationW(root, NULL, 0, &serial, &maxlen, &flags, fs, MAX_PATH + 1)) {
            v->info.state = HR_WIN_OK;
            hr_win_utf8(fs, v->fs, sizeof v->fs);
        } else {
            hr_win_set_error(&v->info, GetLastError());
        }
        storage_facts(root, v);
        if (SUCCEEDED(co))
            bitlocker(root, v);
        else
            hr_win_set_hresult(&v->bitlocker, co);
    }
    if (SUCCEEDED(co))
        CoUninitialize();
    SetErrorMode(old_mode);
}
