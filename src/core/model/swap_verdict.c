#include "core/model/swap_verdict.h"

#include "core/base/i18n.h"

#include <stdio.h>
#include <string.h>

static const hr_swap_why_row rows[HR_SW_COUNT] = {
#define HR_SW_ROW(id, name, rule, params, text, phrase, names) [id] = { name, rule, params, text, phrase, names },
    HR_SWAP_WHYS(HR_SW_ROW)
#undef HR_SW_ROW
};

const hr_swap_why_row *hr_swap_why_row_of(hr_swap_why id)
{
    return id > HR_SW_NONE && id < HR_SW_COUNT ? &rows[id] : NULL;
}

void hr_swap_why_msg(const hr_swap_verdict *v, hr_msg *m)
{
    memset(m, 0, sizeof *m);
    const hr_swap_why_row *row = hr_swap_why_row_of(v->id);
    if (!row)
        return;
    /* The values in the order the row's parameters name them; at most three. Which of them
     * are words of their own (a phrase, "unknown") is marked to be translated with it. */
    const char *s[3] = { "", "", "" };
    bool tr[3] = { false, false, false };
    int k = 0, number = 0;
    for (const char *p = row->params; *p && k < 3; p++) {
        switch (*p) {
        case 'f':
            tr[k] = !v->fs[0];
            s[k++] = v->fs[0] ? v->fs : HR_N("unknown");
            break;
        case 'n': number = v->devices; break;
        case 'p': s[k++] = v->dir; break;
        case 'w':
            tr[k] = row->phrase != NULL;
            s[k++] = row->phrase ? row->phrase : "";
            break;
        case 'g': s[k++] = v->disk[0] ? " " : ""; break;
        case 'k': s[k++] = v->disk; break;
        default: break;
        }
    }
    /* The template is the table's: test_swap_verdict holds every one (and its translation)
     * to the row's parameters, which is what the compiler cannot check here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
    if (strchr(row->params, 'n')) {
        hr_msg_set(m, row->text, number);
        return;
    }
    hr_msg_set(m, row->text, s[0], s[1], s[2]);
#pragma GCC diagnostic pop
    for (int i = 0; i < k; i++)
        if (tr[i])
            hr_msg_translate_arg(m, i);
}

int hr_swap_why_text(const hr_swap_verdict *v, char *out, size_t n)
{
    return hr_swap_why_text_lang(v, hr_lang_get(), out, n);
}

int hr_swap_why_text_lang(const hr_swap_verdict *v, hr_lang lang, char *out, size_t n)
{
    hr_msg m;
    hr_swap_why_msg(v, &m);
    return (int)hr_msg_format(&m, lang, out, n);
}

bool hr_swap_why_names_fs(const hr_swap_verdict *v, const char *fs_type)
{
    const hr_swap_why_row *row = hr_swap_why_row_of(v->id);
    if (!row || !fs_type || !fs_type[0])
        return false;
    if (strchr(row->params, 'f'))
        return strcmp(v->fs, fs_type) == 0;
    char spelled[40];
    if (strlen(fs_type) + 3 > sizeof spelled)
        return false;
    snprintf(spelled, sizeof spelled, "|%s|", fs_type);
    return strstr(row->names, spelled) != NULL;
}

int hr_swap_why_id(const hr_swap_verdict *v, char *out, size_t n)
{
    const hr_swap_why_row *row = hr_swap_why_row_of(v->id);
    int len = snprintf(out, n, "%s", row ? row->name : "");
    for (char *c = out; *c; c++)
        if (*c == '-')
            *c = '_';
    return len;
}
