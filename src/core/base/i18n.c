#include "core/base/i18n.h"
#include "core/base/hot.h"

#include <stdint.h>
#include <string.h>

static hr_lang current = HR_LANG_EN;

HR_START void hr_lang_set(hr_lang lang)
{
    current = lang;
}

HR_HOT hr_lang hr_lang_get(void)
{
    return current;
}

HR_START const char *hr_lang_code(hr_lang lang)
{
    return lang == HR_LANG_ZH ? "zh" : "en";
}

HR_START bool hr_lang_from_name(const char *name, hr_lang *out)
{
    *out = HR_LANG_EN;
    if (!name || !*name)
        return false;
    /* Only the language part counts: zh_CN.UTF-8, zh-Hans, zh_TW, zh → Chinese (the one
     * Chinese catalogue is Simplified; Traditional readers read it better than English). */
    if ((name[0] == 'z' || name[0] == 'Z') && (name[1] == 'h' || name[1] == 'H') &&
        (name[2] == '\0' || name[2] == '_' || name[2] == '-' || name[2] == '.' || name[2] == '@'))
        *out = HR_LANG_ZH;
    return true;
}

/* The gettext .mo layout (GNU gettext manual, "The Format of GNU MO Files"): a header of
 * 32-bit words — magic, revision, count, offset of the original strings' table, offset of
 * the translations' table — and two tables of (length, offset) pairs, the originals sorted
 * by bytes, so a message is found by binary search. Every offset is checked against the
 * image even though the image is our own build's output. */
#define MO_MAGIC 0x950412deU

HR_HOT static uint32_t word_at(const unsigned char *p, size_t off)
{
    /* msgfmt writes the building machine's byte order; every supported target is
     * little-endian, and a big-endian image is refused by the magic check below. */
    return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;
}

HR_HOT static const char *mo_string(const unsigned char *mo, size_t len, size_t table, uint32_t i, size_t *n)
{
    size_t entry = table + (size_t)i * 8;
    if (entry > len || len - entry < 8)
        return NULL;
    uint32_t slen = word_at(mo, entry), soff = word_at(mo, entry + 4);
    if (soff > len || len - soff <= slen || mo[soff + slen] != '\0')
        return NULL;
    *n = slen;
    return (const char *)mo + soff;
}

HR_HOT static const char *mo_lookup(const unsigned char *mo, size_t len, const char *msgid)
{
    if (len < 28 || word_at(mo, 0) != MO_MAGIC)
        return NULL;
    uint32_t count = word_at(mo, 8);
    size_t orig = word_at(mo, 12), trans = word_at(mo, 16);
    size_t idn = strlen(msgid);
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t n;
        const char *s = mo_string(mo, len, orig, mid, &n);
        if (!s)
            return NULL;
        int c = memcmp(s, msgid, n < idn ? n : idn);
        if (c == 0)
            c = n < idn ? -1 : n > idn ? 1 : 0;
        if (c == 0) {
            const char *t = mo_string(mo, len, trans, mid, &n);
            return t && n ? t : NULL;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

HR_HOT const char *hr_tr_lang(hr_lang lang, const char *msgid)
{
    if (lang != HR_LANG_ZH || !msgid || !*msgid)
        return msgid;
    const char *t = mo_lookup(hr_catalog_zh, hr_catalog_zh_len, msgid);
    return t ? t : msgid;
}

HR_HOT const char *hr_tr(const char *msgid)
{
    return hr_tr_lang(current, msgid);
}

const char *hr_tr_msgid(const char *text)
{
    const unsigned char *mo = hr_catalog_zh;
    size_t len = hr_catalog_zh_len;
    /* only a pointer into the catalogue is a translation; anything else is its own English */
    if (!text || (const unsigned char *)text < mo || (const unsigned char *)text >= mo + len || len < 28 ||
        word_at(mo, 0) != MO_MAGIC)
        return text;
    uint32_t count = word_at(mo, 8);
    size_t orig = word_at(mo, 12), trans = word_at(mo, 16);
    for (uint32_t i = 0; i < count; i++) {
        size_t n;
        const char *t = mo_string(mo, len, trans, i, &n);
        if (t == text) {
            const char *id = mo_string(mo, len, orig, i, &n);
            return id ? id : text;
        }
    }
    return text;
}
