/* ComfyUI launch flags: the ones that move memory are found in a full launcher line; bad
 * values are refused with the flag named. */
#include "core/model/comfy_args.h"
#include "core/base/size.h"
#include "test.h"

static int parse(const char *s, hr_comfy_args *a, hr_error *err)
{
    return hr_comfy_args_parse(s, strlen(s), a, err);
}

int main(void)
{
    hr_comfy_args a;
    hr_error err = { 0 };
    char d[128];

    CHECK(parse("", &a, &err) == 0);
    CHECK(!hr_comfy_args_lean_on_ram(&a));
    CHECK_EQ_I64(a.flags_seen, 0);

    /* A real portable-package launcher line. */
    CHECK(parse(".\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --lowvram "
                "--listen 0.0.0.0 --port 8188",
                &a, &err) == 0);
    CHECK(a.lowvram && !a.novram && !a.highvram);
    CHECK(hr_comfy_args_lean_on_ram(&a));
    CHECK_EQ_I64(a.flags_seen, 4);
    CHECK_EQ_I64(a.flags_known, 1);

    CHECK(parse("--novram --disable-smart-memory --reserve-vram 1.5", &a, &err) == 0);
    CHECK(a.novram && a.disable_smart_memory && a.reserve_vram_given);
    CHECK_EQ_U64(a.reserve_vram_bytes, HR_GIB + HR_GIB / 2);
    hr_comfy_args_describe(&a, d, sizeof d);
    CHECK_STR(d, "--novram --disable-smart-memory --reserve-vram");

    CHECK(parse("--reserve-vram=2 --highvram", &a, &err) == 0);
    CHECK_EQ_U64(a.reserve_vram_bytes, 2 * HR_GIB);
    CHECK(a.highvram && !hr_comfy_args_lean_on_ram(&a));

    CHECK(parse("\"--gpu-only\" '--cpu'", &a, &err) == 0);
    CHECK(a.gpu_only && a.cpu);
    CHECK(hr_comfy_args_lean_on_ram(&a));

    /* Flags are exact: --lowvramx and -lowvram are not --lowvram. */
    CHECK(parse("--lowvramx -lowvram --lowvram-extra", &a, &err) == 0);
    CHECK(!a.lowvram);

    CHECK(parse("--reserve-vram", &a, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "--reserve-vram needs a number");
    CHECK(parse("--reserve-vram lots", &a, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "'lots'");
    CHECK(parse("--reserve-vram=1.5GB", &a, &err) == HR_EPARSE);
    CHECK(parse("--reserve-vram 99999999", &a, &err) == HR_ERANGE);
    CHECK(parse("--lowvram \"unclosed", &a, &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "quote");

    /* --async-offload takes an optional stream count (2 when left out) */
    CHECK(parse("--async-offload --lowvram", &a, &err) == 0);
    CHECK(a.async_offload_given && a.async_offload_streams == 2 && a.lowvram && a.flags_known == 2);
    CHECK(parse("--async-offload 3 --listen", &a, &err) == 0);
    CHECK(a.async_offload_streams == 3 && a.flags_known == 1);
    CHECK(parse("--async-offload=1", &a, &err) == 0);
    CHECK(a.async_offload_streams == 1);
    CHECK(parse("--async-offload 12", &a, &err) == 0);
    CHECK(a.async_offload_streams == 12);
    (void)parse("--async-offload 3x", &a, &err); /* "3x" is not a count: the default stands */
    CHECK(a.async_offload_streams == 2);
    CHECK(parse("--disable-async-offload", &a, &err) == 0);
    CHECK(a.disable_async_offload && !a.async_offload_given);

    char big[HR_COMFY_ARGS_MAX_TEXT + 2];
    memset(big, ' ', sizeof big);
    CHECK(hr_comfy_args_parse(big, sizeof big, &a, &err) == HR_ETOOBIG);
    /* No NUL needed: length bounds the read. */
    CHECK(hr_comfy_args_parse("--lowvram--novram", 9, &a, &err) == 0);
    CHECK(a.lowvram && !a.novram);
    return TEST_DONE();
}
