#include "options.h"

#include "cli_util.h"
#include "exit_status.h"

#include "core/base/duration.h"
#include "core/base/i18n.h"
#include "core/base/wrap.h"
#include "core/base/size.h"
#include "core/base/text.h"
#include "core/base/hot.h"

#include <string.h>

enum { OPT_HELP = -100, OPT_LANG = -101 };

static const char *const lang_choices[] = { "en", "zh", NULL };

const hr_opt hr_global_opts[] = {
    { OPT_LANG, "--lang", HR_ARG_CHOICE, "LANG",
      HR_N("language of messages: en or zh (default: from LANG, or the Windows display language)"), lang_choices, 0 },
    { OPT_HELP, "--help", HR_ARG_NONE, NULL, HR_N("show this help (also -h; /? on Windows)"), NULL, 0 },
    { 0, NULL, HR_ARG_NONE, NULL, NULL, NULL, 0 },
};

HR_START void hr_optparse_init(hr_optparse *p, const hr_cmd_spec *spec, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
}

const char *hr_opt_metavar(const hr_opt *o)
{
    if (o->metavar)
        return o->metavar;
    switch (o->arg) {
    case HR_ARG_FILE: return "FILE";
    case HR_ARG_DIR: return "DIR";
    case HR_ARG_SIZE: return "SIZE";
    case HR_ARG_NUMBER: return "N";
    case HR_ARG_DURATION: return "TIME";
    case HR_ARG_CHOICE: return "WHICH";
    case HR_ARG_STRING: return "TEXT";
    case HR_ARG_NONE: break;
    }
    return "";
}

HR_START static int stop(hr_optparse *p, int status)
{
    p->status = status;
    return HR_OPT_STOP;
}

/* The option named by arg (exactly, before any '='), in the command's tables, then the
 * global ones. */
HR_START static const hr_opt *find(const hr_cmd_spec *spec, const char *arg, size_t n)
{
    for (int g = 0; spec && g < HR_OPT_GROUPS && spec->groups[g]; g++)
        for (const hr_opt *o = spec->groups[g]; o->name; o++)
            if (strlen(o->name) == n && strncmp(o->name, arg, n) == 0)
                return o;
    for (const hr_opt *o = hr_global_opts; o->name; o++)
        if (strlen(o->name) == n && strncmp(o->name, arg, n) == 0)
            return o;
    return NULL;
}

static void choices_text(const hr_opt *o, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *const *c = o->choices; c && *c; c++) {
        if (c != o->choices)
            hr_strlcpy(out + strlen(out), "|", n - strlen(out));
        hr_strlcpy(out + strlen(out), *c, n - strlen(out));
    }
}

int hr_opt_bad_value(const hr_optparse *p, const char *value, const char *why)
{
    hr_cli_error("%s: %s %s: %s", p->spec->name, p->opt ? p->opt->name : "", value ? value : "", why);
    return HR_EXIT_USAGE;
}

/* Check and convert a value of the option's kind; 0, or HR_OPT_STOP after the error. */
HR_START static int take_value(hr_optparse *p, const hr_opt *o, const char **value)
{
    const char *v = *value;
    const char *cmd = p->spec->name;
    if (!*v && (o->flags & HR_OPT_NONEMPTY || o->arg != HR_ARG_STRING)) {
        hr_cli_error(HR_T("%s: %s needs %s"), cmd, o->name, hr_opt_metavar(o));
        return stop(p, HR_EXIT_USAGE);
    }
    hr_error err = { 0 };
    switch (o->arg) {
    case HR_ARG_SIZE:
        if (hr_size_parse(v, &p->size, &err) < 0) {
            hr_cli_error("%s: %s: %s", cmd, o->name, err.msg);
            return stop(p, HR_EXIT_USAGE);
        }
        if (!(o->flags & HR_OPT_SMALL_OK))
            hr_opt_size_note(cmd, o->name, v, p->size);
        break;
    case HR_ARG_NUMBER:
        if (!hr_parse_u64(v, strlen(v), &p->number)) {
            hr_cli_error(HR_T("%s: %s '%s': a whole number expected"), cmd, o->name, v);
            return stop(p, HR_EXIT_USAGE);
        }
        break;
    case HR_ARG_DURATION:
        if (hr_duration_parse(v, &p->seconds, &err) < 0) {
            hr_cli_error("%s: %s: %s", cmd, o->name, err.msg);
            return stop(p, HR_EXIT_USAGE);
        }
        break;
    case HR_ARG_CHOICE: {
        for (const char *const *c = o->choices; c && *c; c++)
            if (hr_str_ieq(v, *c)) {
                *value = *c;
                return 0;
            }
        char list[256];
        choices_text(o, list, sizeof list);
        hr_cli_error(HR_T("%s: %s '%s': expected one of %s"), cmd, o->name, v, list);
        return stop(p, HR_EXIT_USAGE);
    }
    case HR_ARG_NONE:
    case HR_ARG_STRING:
    case HR_ARG_FILE:
    case HR_ARG_DIR: break;
    }
    return 0;
}

void hr_opt_size_note(const char *cmd, const char *name, const char *text, uint64_t bytes)
{
    if (bytes == 0 || bytes >= HR_GIB)
        return;
    hr_cli_error(HR_T("%s: warning: %s %s is under 1 GB: that cannot help a ComfyUI run (the plan speaks "
                      "in tens of GB: 32G, 65536M)"),
                 cmd, name, text);
}

HR_START static bool is_help(const char *a)
{
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
        return true;
#ifdef _WIN32
    if (strcmp(a, "/?") == 0)
        return true;
#endif
    return false;
}

/* A --lang value the parser will accept: set that language. */
HR_START static void lang_from_value(const char *v, hr_lang *chosen, bool *found)
{
    for (const char *const *c = lang_choices; *c; c++)
        if (hr_str_ieq(v, *c) && hr_lang_from_name(*c, chosen)) {
            *found = true;
            return;
        }
}

HR_START void hr_optparse_scan_lang(const hr_cmd_spec *spec, int argc, char **argv, bool stop_at_operand)
{
    hr_lang chosen = HR_LANG_EN;
    bool found = false;
    for (int i = 1; i < argc && argv[i]; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] != '-' || a[1] == '\0' || is_help(a)) {
            if (stop_at_operand && !is_help(a))
                break;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t n = eq ? (size_t)(eq - a) : strlen(a);
        const hr_opt *o = find(spec, a, n);
        if (!o || o->arg == HR_ARG_NONE || eq) {
            if (o && o->id == OPT_LANG && eq)
                lang_from_value(eq + 1, &chosen, &found);
            continue;
        }
        if (i + 1 >= argc || !argv[i + 1])
            break;
        i++; /* the value: never an option of its own, whatever it looks like */
        if (o->id == OPT_LANG)
            lang_from_value(argv[i], &chosen, &found);
    }
    if (found)
        hr_lang_set(chosen);
}

HR_START int hr_optparse_next(hr_optparse *p, const char **value)
{
    *value = NULL;
    p->opt = NULL;
    if (!p->lang_scanned) {
        p->lang_scanned = true;
        hr_optparse_scan_lang(p->spec, p->argc, p->argv, p->stop_at_operand);
    }
    if (p->i >= p->argc)
        return HR_OPT_END;
    const char *a = p->argv[p->i];
    if (p->operands_only || a[0] != '-' || a[1] == '\0') {
        if (!p->operands_only && is_help(a))
            goto help;
        if (!p->spec->operands) {
            hr_cli_error(HR_T("%s: unexpected argument '%s' (try: headroom %s --help)"), p->spec->name, a,
                         p->spec->name);
            return stop(p, HR_EXIT_USAGE);
        }
        if (p->stop_at_operand)
            return HR_OPT_END;
        p->i++;
        *value = a;
        return HR_OPT_OPERAND;
    }
    if (strcmp(a, "--") == 0) {
        p->i++;
        p->operands_only = true;
        if (p->stop_at_operand)
            return HR_OPT_END;
        return hr_optparse_next(p, value);
    }
    if (is_help(a))
        goto help;
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const hr_opt *o = find(p->spec, a, n);
    if (!o) {
        hr_cli_error(HR_T("%s: unknown option '%.*s' (try: headroom %s --help)"), p->spec->name, (int)n, a,
                     p->spec->name);
        return stop(p, HR_EXIT_USAGE);
    }
    p->i++;
    p->opt = o;
    if (o->arg == HR_ARG_NONE) {
        if (eq) {
            hr_cli_error(HR_T("%s: %s takes no value"), p->spec->name, o->name);
            return stop(p, HR_EXIT_USAGE);
        }
    } else {
        if (eq) {
            *value = eq + 1;
        } else if (p->i < p->argc) {
            *value = p->argv[p->i++];
        } else {
            hr_cli_error(HR_T("%s: %s needs %s"), p->spec->name, o->name, hr_opt_metavar(o));
            return stop(p, HR_EXIT_USAGE);
        }
        if (take_value(p, o, value) != 0)
            return HR_OPT_STOP;
    }
    if (o->id == OPT_LANG) /* already set, before the first option was parsed */
        return hr_optparse_next(p, value);
    if (o->id == OPT_HELP)
        goto help;
    return o->id;
help:
    return stop(p, hr_cmd_help(p->spec, stdout));
}

HR_START char **hr_optparse_rest(hr_optparse *p, int *argc)
{
    *argc = p->i < p->argc ? p->argc - p->i : 0;
    return p->argv + (p->i < p->argc ? p->i : p->argc);
}

static void print_opt(const hr_opt *o, hr_buf *b)
{
    if (o->flags & HR_OPT_HIDDEN)
        return;
    char head[96];
    if (o->arg == HR_ARG_NONE)
        snprintf(head, sizeof head, "%s", o->name);
    else if (o->arg == HR_ARG_CHOICE && o->choices) {
        char list[64];
        choices_text(o, list, sizeof list);
        snprintf(head, sizeof head, "%s %s", o->name, list);
    } else
        snprintf(head, sizeof head, "%s %s", o->name, hr_opt_metavar(o));
    if (strlen(head) > 22)
        hr_buf_printf(b, "  %s\n  %-22s %s\n", head, "", hr_tr(o->help));
    else
        hr_buf_printf(b, "  %-22s %s\n", head, hr_tr(o->help));
}

static void help_page(const hr_cmd_spec *spec, hr_buf *b)
{
    hr_buf_printf(b, "%s%sheadroom %s %s\n\n%s\n", hr_tr("usage"), HR_T(": "), spec->name,
                  spec->synopsis ? spec->synopsis : "[options]", hr_tr(spec->summary));
    if (spec->operands)
        hr_buf_printf(b, "\n%s\n  %s\n", hr_tr("operands:"), hr_tr(spec->operands));
    hr_buf_printf(b, "\n%s\n", hr_tr("options:"));
    for (int g = 0; g < HR_OPT_GROUPS && spec->groups[g]; g++)
        for (const hr_opt *o = spec->groups[g]; o->name; o++)
            print_opt(o, b);
    for (const hr_opt *o = hr_global_opts; o->name; o++)
        print_opt(o, b);
    if (spec->examples && spec->examples[0]) {
        hr_buf_printf(b, "\n%s\n", hr_tr("examples:"));
        for (const char *const *e = spec->examples; *e; e++)
            hr_buf_printf(b, "  %s\n", *e);
    }
    if (spec->exits)
        hr_buf_printf(b, "\n%s%s%s\n", hr_tr("exit status:"), hr_label_gap(hr_tr("exit status:")), hr_tr(spec->exits));
    if (spec->doc)
        hr_buf_printf(b, "%s%s%s\n", hr_tr("more:"), hr_label_gap(hr_tr("more:")), spec->doc);
}

int hr_cmd_help(const hr_cmd_spec *spec, FILE *f)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    help_page(spec, &b);
    return hr_cli_put_page(f, &b, true);
}
