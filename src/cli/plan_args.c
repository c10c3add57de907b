#include "plan_args.h"

#include "cli_util.h"
#include "commands.h"

#include "core/base/size.h"

#include <stdlib.h>
#include <string.h>

void hr_plan_args_usage(FILE *f)
{
    fputs("what-if flags (each overrides what was read from the machine):\n"
          "  --ram SIZE          RAM, e.g. 16G (sizes: 16G = 16GB = 16GiB = 16384M; binary units)\n"
          "  --vram SIZE         dedicated VRAM of the GPU; 0 = integrated GPU only\n"
          "  --os windows|linux  plan for this OS (another OS than this one: a hypothetical machine)\n"
          "  --workload sd15|sdxl|flux|video\n"
          "  --comfy-args \"...\"  ComfyUI's launch flags (--lowvram, --novram, --highvram,\n"
          "                      --reserve-vram N, --disable-smart-memory, ...)\n"
          "  --peak-commit SIZE  a measured or estimated peak commit: size from it, not the table\n"
          "  --range             initial = half the maximum (when disk space is tight), not fixed\n"
          "machine:\n"
          "  --sysroot DIR       Linux: read /proc and /sys under DIR (recorded trees)\n"
          "  --replay FILE       Windows: replay recorded Win32 answers\n"
          "  --no-gpu            do not query GPUs\n"
          "  --json              one JSON object\n",
          f);
}

static int size_opt(const char *cmd, const char *flag, const char *v, uint64_t *out)
{
    hr_error err = {0};
    if (hr_size_parse(v, out, &err) < 0) {
        hr_cli_error("%s: %s: %s", cmd, flag, err.msg);
        return HR_EXIT_USAGE;
    }
    return 0;
}

int hr_plan_args_parse(const char *cmd, int argc, char **argv, hr_plan_cli *out)
{
    memset(out, 0, sizeof *out);
    hr_plan_inputs_init(&out->in);
    out->probe.sysroot = "/";
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int m;
        const char *a = argv[i];
        if (hr_cli_is_help(a)) {
            out->help = true;
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            out->json = true;
        } else if (strcmp(a, "--range") == 0) {
            out->in.range = true;
        } else if (strcmp(a, "--no-gpu") == 0) {
            out->probe.skip_gpu = true;
        } else {
            static const char *const with_value[] = {"--ram", "--vram", "--os", "--workload", "--comfy-args",
                                                     "--peak-commit", "--sysroot", "--replay"};
            size_t k = 0;
            m = 0;
            for (; k < sizeof with_value / sizeof with_value[0]; k++)
                if ((m = hr_cli_opt(argc, argv, &i, with_value[k], &v)) != 0)
                    break;
            if (m == 0) {
                hr_cli_error("%s: unknown option '%s' (try: headroom %s --help)", cmd, a, cmd);
                return HR_EXIT_USAGE;
            }
            const char *flag = with_value[k];
            if (m < 0) {
                hr_cli_error("%s: %s needs a value", cmd, flag);
                return HR_EXIT_USAGE;
            }
            int rc = 0;
            if (strcmp(flag, "--ram") == 0) {
                rc = size_opt(cmd, flag, v, &out->in.ram_bytes);
                if (!rc && out->in.ram_bytes < ((uint64_t)1 << 30)) {
                    hr_cli_error("%s: --ram %s: less than 1 GB is not a machine that runs ComfyUI", cmd, v);
                    rc = HR_EXIT_USAGE;
                }
            } else if (strcmp(flag, "--vram") == 0) {
                rc = size_opt(cmd, flag, v, &out->in.vram_bytes);
            } else if (strcmp(flag, "--peak-commit") == 0) {
                rc = size_opt(cmd, flag, v, &out->in.peak_commit_bytes);
            } else if (strcmp(flag, "--os") == 0) {
                if (strcmp(v, "windows") == 0)
                    out->in.os = HR_OS_WINDOWS;
                else if (strcmp(v, "linux") == 0)
                    out->in.os = HR_OS_LINUX;
                else {
                    hr_cli_error("%s: --os '%s': expected windows or linux", cmd, v);
                    rc = HR_EXIT_USAGE;
                }
            } else if (strcmp(flag, "--workload") == 0) {
                int w = hr_workload_parse(v);
                if (w < 0) {
                    hr_cli_error("%s: --workload '%s': expected sd15, sdxl, flux or video", cmd, v);
                    rc = HR_EXIT_USAGE;
                } else {
                    out->in.workload = (hr_workload)w;
                }
            } else if (strcmp(flag, "--comfy-args") == 0) {
                hr_error err = {0};
                if (hr_comfy_args_parse(v, strlen(v), &out->in.comfy, &err) < 0) {
                    hr_cli_error("%s: %s", cmd, err.msg);
                    rc = HR_EXIT_USAGE;
                }
                out->in.have_comfy_args = true;
            } else if (strcmp(flag, "--sysroot") == 0) {
                out->probe.sysroot = v;
            } else if (strcmp(flag, "--replay") == 0) {
                out->probe.replay = v;
            }
            if (rc)
                return rc;
        }
    }
    out->in.recorded = out->probe.replay || strcmp(out->probe.sysroot, "/") != 0;
    return 0;
}

int hr_plan_args_snapshot(const char *cmd, const hr_plan_cli *cli, hr_snapshot **snap)
{
    *snap = NULL;
    /* Another OS than this binary's: nothing here describes that machine. */
    if (cli->in.os >= 0 && (hr_os)cli->in.os != hr_platform_os() && !cli->probe.replay)
        return 0;
    hr_snapshot *s = malloc(sizeof *s);
    if (!s) {
        hr_cli_error("%s: out of memory", cmd);
        return HR_EXIT_FAILURE;
    }
    hr_error err = {0};
    int r = hr_platform_snapshot(&cli->probe, s, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        hr_cli_error("%s: %s", cmd, err.msg[0] ? err.msg : hr_strerror(r));
        free(s);
        return r == HR_EPARSE ? HR_EXIT_INPUT : r == HR_ENOENT ? HR_EXIT_NOINPUT : HR_EXIT_FAILURE;
    }
    *snap = s;
    return 0;
}

int hr_plan_args_start(const char *cmd, int argc, char **argv, void (*usage)(FILE *f),
                       hr_plan_cli *cli, hr_snapshot **snap)
{
    *snap = NULL;
    int rc = hr_plan_args_parse(cmd, argc, argv, cli);
    if (rc)
        return rc;
    if (cli->help) {
        usage(stdout);
        return HR_EXIT_OK;
    }
    rc = hr_plan_args_snapshot(cmd, cli, snap);
    return rc ? rc : HR_PLAN_ARGS_GO;
}

int hr_plan_args_compute(const char *cmd, const hr_snapshot *snap, const hr_plan_cli *cli, hr_plan *plan)
{
    hr_error err = {0};
    int r = hr_plan_compute(snap, &cli->in, plan, &err);
    if (r >= 0)
        return HR_PLAN_ARGS_GO;
    hr_cli_error("%s: %s", cmd, err.msg);
    return r == HR_ENOENT ? HR_EXIT_PARTIAL : HR_EXIT_FAILURE; /* a fact is missing: give it */
}
