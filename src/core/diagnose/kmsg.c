#include "core/diagnose/kmsg.h"

#include "core/base/error.h"

#include <string.h>

static bool num(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t start = *i;
    uint64_t x = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(s[*i] - '0');
        (*i)++;
    }
    *v = x;
    return *i > start;
}

/* Text up to the end of the first line, without a trailing \r. */
static void set_text(hr_klog_record *out, const char *s, size_t n, size_t i)
{
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) : n;
    if (e > i && s[e - 1] == '\r')
        e--;
    out->text = s + i;
    out->len = e - i;
}

int hr_kmsg_parse(const char *s, size_t n, hr_klog_record *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    uint64_t prio, seq, usec;
    if (!num(s, n, &i, &prio) || i >= n || s[i++] != ',')
        return HR_EPARSE;
    if (!num(s, n, &i, &seq) || i >= n || s[i++] != ',')
        return HR_EPARSE;
    if (!num(s, n, &i, &usec) || i >= n || s[i++] != ',')
        return HR_EPARSE;
    /* flags, and any fields a newer kernel adds, up to ';' */
    while (i < n && s[i] != ';' && s[i] != '\n')
        i++;
    if (i >= n || s[i] != ';')
        return HR_EPARSE;
    out->prio = prio > 0x7fffffff ? -1 : (int)prio;
    out->seq = seq;
    out->usec = usec;
    set_text(out, s, n, i + 1);
    return 0;
}

int hr_dmesg_parse(const char *s, size_t n, hr_klog_record *out)
{
    memset(out, 0, sizeof *out);
    out->prio = -1;
    size_t i = 0;
    /* dmesg -r adds "<6>" before the time */
    if (i < n && s[i] == '<') {
        uint64_t p;
        i++;
        if (!num(s, n, &i, &p) || i >= n || s[i++] != '>')
            return HR_EPARSE;
        out->prio = p > 0x7fffffff ? -1 : (int)p;
    }
    if (i >= n || s[i++] != '[')
        return HR_EPARSE;
    while (i < n && s[i] == ' ')
        i++;
    uint64_t sec, frac = 0;
    if (!num(s, n, &i, &sec))
        return HR_EPARSE;
    size_t fd = 0;
    if (i < n && s[i] == '.') {
        i++;
        size_t b = i;
        if (!num(s, n, &i, &frac))
            return HR_EPARSE;
        fd = i - b;
    }
    if (i >= n || s[i++] != ']')
        return HR_EPARSE;
    if (sec > UINT64_MAX / 1000000 - 1)
        return HR_EPARSE;
    while (fd < 6) {
        frac *= 10;
        fd++;
    }
    while (fd > 6) {
        frac /= 10;
        fd--;
    }
    out->usec = sec * 1000000 + frac;
    if (i < n && s[i] == ' ')
        i++;
    set_text(out, s, n, i);
    return 0;
}

int hr_journal_parse(const char *s, size_t n, hr_klog_record *out)
{
    memset(out, 0, sizeof *out);
    out->prio = -1;
    size_t i = 0;
    uint64_t sec, frac;
    if (!num(s, n, &i, &sec) || sec > (uint64_t)INT64_MAX)
        return HR_EPARSE;
    if (i < n && s[i] == '.') {
        i++;
        if (!num(s, n, &i, &frac))
            return HR_EPARSE;
    }
    if (i >= n || s[i] != ' ')
        return HR_EPARSE;
    out->unix_time = (int64_t)sec;
    set_text(out, s, n, i + 1);
    return 0;
}
