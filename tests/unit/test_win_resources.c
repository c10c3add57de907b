/* Windows: headroom.exe carries its version resource and its application manifest, read back
 * the way Explorer and the loader read them: GetFileVersionInfoW / VerQueryValueW for the
 * version (the fixed part and the strings), FindResourceW(RT_MANIFEST) for the manifest
 * (asInvoker, the UTF-8 code page, long paths, Windows 10/11). Real Win32 calls, under Wine
 * in the cross build; SKIP (77) elsewhere. */
#ifdef _WIN32
#include "test.h"

#include <windows.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <wchar.h>

#ifndef HR_EXPECT_VERSION
#error "HR_EXPECT_VERSION (the project's version) must be defined by the build"
#endif

/* headroom.exe beside the tests: ..\src\headroom.exe */
static bool headroom_path(wchar_t *exe, size_t n)
{
    DWORD k = GetModuleFileNameW(NULL, exe, (DWORD)n);
    wchar_t *slash = k ? wcsrchr(exe, L'\\') : NULL;
    if (!slash)
        return false;
    *slash = 0;
    slash = wcsrchr(exe, L'\\');
    if (!slash)
        return false;
    *slash = 0;
    wcscat(exe, L"\\src\\headroom.exe");
    return true;
}

static void utf8(const wchar_t *w, char *out, int n)
{
    if (!WideCharToMultiByte(CP_UTF8, 0, w, -1, out, n, NULL, NULL))
        out[0] = 0;
}

static void version_string(const void *info, const wchar_t *name, const char *want)
{
    wchar_t q[128];
    swprintf(q, 128, L"\\StringFileInfo\\040904B0\\%ls", name);
    wchar_t *v = NULL;
    UINT len = 0;
    char got[256] = "";
    if (VerQueryValueW(info, q, (void **)&v, &len) && v && len)
        utf8(v, got, sizeof got);
    else
        fprintf(stderr, "no %ls in the version resource\n", name);
    if (want)
        CHECK_STR(got, want);
    else
        CHECK(got[0] != 0);
}

int main(void)
{
    wchar_t exe[MAX_PATH];
    CHECK(headroom_path(exe, MAX_PATH));

    /* the version resource */
    DWORD handle = 0;
    DWORD size = GetFileVersionInfoSizeW(exe, &handle);
    CHECK(size > 0);
    void *info = size ? malloc(size) : NULL;
    if (info && GetFileVersionInfoW(exe, 0, size, info)) {
        VS_FIXEDFILEINFO *fixed = NULL;
        UINT flen = 0;
        CHECK(VerQueryValueW(info, L"\\", (void **)&fixed, &flen) && fixed);
        if (fixed) {
            CHECK_EQ_U64(fixed->dwSignature, 0xFEEF04BD);
            unsigned a = 0, b = 0, c = 0;
            CHECK(sscanf(HR_EXPECT_VERSION, "%u.%u.%u", &a, &b, &c) == 3);
            CHECK_EQ_U64(fixed->dwFileVersionMS, ((uint64_t)a << 16) | b);
            CHECK_EQ_U64(fixed->dwFileVersionLS, (uint64_t)c << 16);
            CHECK_EQ_U64(fixed->dwProductVersionMS, ((uint64_t)a << 16) | b);
            CHECK_EQ_U64(fixed->dwFileType, VFT_APP);
        }
        version_string(info, L"FileVersion", HR_EXPECT_VERSION);
        version_string(info, L"ProductVersion", HR_EXPECT_VERSION);
        version_string(info, L"ProductName", "headroom");
        version_string(info, L"OriginalFilename", "headroom.exe");
        version_string(info, L"FileDescription", NULL);
        version_string(info, L"LegalCopyright", NULL);
    } else {
        CHECK(!"GetFileVersionInfoW read the version resource");
    }
    free(info);

    /* the manifest, as the loader finds it: resource 1 of type RT_MANIFEST */
    HMODULE m = LoadLibraryExW(exe, NULL, LOAD_LIBRARY_AS_DATAFILE | LOAD_LIBRARY_AS_IMAGE_RESOURCE);
    CHECK(m != NULL);
    HRSRC r = m ? FindResourceW(m, MAKEINTRESOURCEW(1), RT_MANIFEST) : NULL;
    CHECK(r != NULL);
    HGLOBAL g = r ? LoadResource(m, r) : NULL;
    const char *x = g ? (const char *)LockResource(g) : NULL;
    DWORD xlen = r ? SizeofResource(m, r) : 0;
    char *text = x && xlen ? calloc(1, (size_t)xlen + 1) : NULL;
    if (text) {
        memcpy(text, x, xlen);
        CHECK_CONTAINS(text, "<requestedExecutionLevel level=\"asInvoker\"");
        CHECK_CONTAINS(text, ">UTF-8</activeCodePage>");
        CHECK_CONTAINS(
            text,
            "<longPathAware xmlns=\"http://schemas.microsoft.com/SMI/2016/WindowsSettings\">true</longPathAware>");
        CHECK_CONTAINS(text, "<supportedOS Id=\"{8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a}\"/>");
        CHECK_CONTAINS(text, "version=\"" HR_EXPECT_VERSION ".0\"");
    } else {
        CHECK(!"the RT_MANIFEST resource was read");
    }
    free(text);
    if (m)
        FreeLibrary(m);
    printf("%d checks, %d failed\n", hr_test_checks, hr_test_failures);
    return hr_test_failures ? 1 : 0;
}
#else
#include <stdio.h>
int main(void)
{
    puts("SKIP: Windows only (the resources of headroom.exe)");
    return 77;
}
#endif
