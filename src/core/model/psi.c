#include "core/model/psi.h"
#include "core/base/i18n.h"

#include "core/base/text.h"

#include <string.h>

/* "12.34" → 1234; the kernel prints LOAD_INT.LOAD_FRAC with two decimals, at most 100.00. */
static bool parse_centi(const char *s, size_t n, uint32_t *out)
{
    const char *dot = memchr(s, '.', n);
    uint64_t whole, frac = 0;
    size_t wn = dot ? (size_t)(dot - s) : n;
    if (!hr_parse_u64(s, wn, &whole) || whole > 100)
        return false;
    if (dot) {
        size_t fn = n - wn - 1;
        if (fn != 2 || !hr_parse_u64(dot + 1, fn, &frac))
            return false;
    }
    uint64_t v = whole * 100 + frac;
    if (v > 10000)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "avg10=0.00 avg60=0.00 avg300=0.00 total=204" */
static bool parse_fields(const char *s, size_t n, hr_psi_line *l)
{
    bool a10 = false, a60 = false, a300 = false, tot = false;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            i++;
        if (i == start)
            break;
        const char *tok = s + start;
        size_t tn = i - start;
        const char *eq = memchr(tok, '=', tn);
        if (!eq)
            return false;
        size_t kn = (size_t)(eq - tok), vn = tn - kn - 1;
        const char *v = eq + 1;
        if (kn == 5 && memcmp(tok, "avg10", 5) == 0)
            a10 = parse_centi(v, vn, &l->avg10_centi);
        else if (kn == 5 && memcmp(tok, "avg60", 5) == 0)
            a60 = parse_centi(v, vn, &l->avg60_centi);
        else if (kn == 6 && memcmp(tok, "avg300", 6) == 0)
            a300 = parse_centi(v, vn, &l->avg300_centi);
        else if (kn == 5 && memcmp(tok, "total", 5) == 0)
            tot = hr_parse_u64(v, vn, &l->total_us);
        /* another key: a newer kernel's; ignored */
    }
    return a10 && a60 && a300 && tot;
}

int hr_parse_psi(const char *buf, size_t len, const char *what, hr_psi_line *some, hr_psi_line *full, hr_error *err)
{
    memset(some, 0, sizeof *some);
    memset(full, 0, sizeof *full);
    const char *cur = buf, *end = buf + len, *line;
    size_t n;
    unsigned lineno = 0;
    while (hr_next_line(&cur, end, &line, &n)) {
        lineno++;
        hr_psi_line *l = NULL;
        if (n >= 5 && memcmp(line, "some ", 5) == 0)
            l = some;
        else if (n >= 5 && memcmp(line, "full ", 5) == 0)
            l = full;
        if (!l)
            continue;
        if (l->present)
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: \"%.4s\" given twice"), what, lineno, line);
        if (!parse_fields(line + 5, n - 5, l))
            return hr_error_set(err, HR_EPARSE, HR_T("%s: line %u: expected avg10=N.NN avg60=N.NN avg300=N.NN total=N"),
                                what, lineno);
        l->present = true;
    }
    if (!some->present && !full->present)
        return hr_error_set(err, HR_EPARSE, HR_T("%s: no \"some\" or \"full\" line"), what);
    return 0;
}
