/* hr_msg: a message kept as data gives, in each language, exactly what printf would have
 * given with the translated template — for every conversion the rules use — and never a
 * wrong value when a template and its values disagree. */
#include "test.h"

#include "core/base/i18n.h"
#include "core/base/msg.h"
#include "core/base/words.h"

#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static const char *fmt_en(const hr_msg *m, hr_lang lang)
{
    static char buf[1024];
    hr_msg_format(m, lang, buf, sizeof buf);
    return buf;
}

/* An error made in the user's language keeps its English beside it (for JSON), through the
 * catalogue's way back from a translation to its msgid; words keep both. */
static void test_error_english(void)
{
    const char *id = "'%s' does not start with a drive letter";
    const char *zh = hr_tr_lang(HR_LANG_ZH, id);
    CHECK(strcmp(zh, id) != 0);
    CHECK(hr_tr_msgid(zh) == id || strcmp(hr_tr_msgid(zh), id) == 0);
    CHECK(hr_tr_msgid(id) == id); /* not a translation: itself */
    hr_lang_set(HR_LANG_ZH);
    hr_error e = { 0 };
    hr_error_set(&e, HR_EPARSE, HR_T("'%s' does not start with a drive letter"), "x\npagefile.sys");
    /* a value that is itself a translation, in a template that is not a msgid */
    hr_error nested = { 0 };
    hr_error_set(&nested, HR_EIO, "%s: %s", "/proc/swaps", hr_strerror(HR_EIO));
    hr_error none = { 0 };
    hr_error_set(&none, HR_ENOENT, NULL);
    hr_lang_set(HR_LANG_EN);
    CHECK_STR(e.msg_en, "'x pagefile.sys' does not start with a drive letter"); /* one line */
    char want[256];
    snprintf(want, sizeof want, zh, "x pagefile.sys");
    CHECK_STR(e.msg, want);
    CHECK_STR(nested.msg_en, "/proc/swaps: input/output error");
    snprintf(want, sizeof want, "/proc/swaps: %s", hr_tr_lang(HR_LANG_ZH, "input/output error"));
    CHECK_STR(nested.msg, want);
    CHECK_STR(none.msg_en, "not found");
    CHECK_STR(none.msg, hr_tr_lang(HR_LANG_ZH, "not found"));
    hr_words w = { 0 };
    hr_words_add_error(&w, &e);
    hr_words_add(&w, "%s: not found", "C:");
    CHECK_STR(hr_words_in(&w, HR_LANG_EN), "'x pagefile.sys' does not start with a drive letter; C:: not found");
    snprintf(want, sizeof want, "%s%s", e.msg, hr_tr_lang(HR_LANG_ZH, "; "));
    CHECK(strncmp(hr_words_in(&w, HR_LANG_ZH), want, strlen(want)) == 0);
}

/* A value worded in both languages (a drive's reason as the probe gave it) is shown in each. */
static void test_value_in_both(void)
{
    hr_msg m;
    hr_msg_set(&m, "whether %c: is removable (%s), %d", 'D', "bus type query failed", 7);
    CHECK(hr_msg_arg_zh(&m, 1, "总线类型查询失败"));
    CHECK(!hr_msg_arg_zh(&m, 0, "x")); /* %c: not a string */
    CHECK(!hr_msg_arg_zh(&m, 2, "x"));
    char out[200];
    hr_msg_format(&m, HR_LANG_EN, out, sizeof out);
    CHECK_STR(out, "whether D: is removable (bus type query failed), 7");
    hr_msg_format(&m, HR_LANG_ZH, out, sizeof out);
    CHECK_STR(out, "whether D: is removable (总线类型查询失败), 7");
    /* a second value after it keeps its own text */
    hr_msg_set(&m, "%s / %s", "a", "b");
    CHECK(hr_msg_arg_zh(&m, 0, "甲"));
    CHECK(hr_msg_arg_zh(&m, 1, "乙"));
    hr_msg_format(&m, HR_LANG_ZH, out, sizeof out);
    CHECK_STR(out, "甲 / 乙");
    hr_msg_format(&m, HR_LANG_EN, out, sizeof out);
    CHECK_STR(out, "a / b");
    /* a full store: the Chinese is cut at a character, never past the store */
    char big[HR_MSG_STR_BYTES];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    hr_msg_set(&m, "%s|%s", "short", "y");
    hr_msg_arg_zh(&m, 0, big);
    hr_msg_format(&m, HR_LANG_ZH, out, sizeof out);
    CHECK(strlen(out) == sizeof out - 1);
    hr_msg_format(&m, HR_LANG_EN, out, sizeof out);
    CHECK_STR(out, "short|y");
}

int main(void)
{
    char want[1024];
    hr_msg m;

    test_error_english();
    test_value_in_both();

    /* every kind of value, with widths and precisions, against printf itself */
    hr_msg_set(&m, "%s %u: %s crashed in %s, exception code 0x%08lx", "app.exe", 4242u, "python.exe", "c10.dll",
               0xC0000005ul);
    snprintf(want, sizeof want, "%s %u: %s crashed in %s, exception code 0x%08lx", "app.exe", 4242u, "python.exe",
             "c10.dll", 0xC0000005ul);
    CHECK_STR(fmt_en(&m, HR_LANG_EN), want);
    /* the same values in the Chinese template (a real catalogue entry) */
    snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, "%s %u: %s crashed in %s, exception code 0x%08lx"), "app.exe",
             4242u, "python.exe", "c10.dll", 0xC0000005ul);
    CHECK_STR(fmt_en(&m, HR_LANG_ZH), want);
    char en[256];
    hr_msg_format(&m, HR_LANG_EN, en, sizeof en);
    CHECK(strcmp(fmt_en(&m, HR_LANG_ZH), en) != 0);

    hr_msg_set(&m, "a%-6d|%+.2f|%5.1f%%|%lld|%llu|%zu|%x|%c|%.3s|%*d|%-*.*f|%g", -12, 3.14159, 99.96, -5000000000LL,
               18000000000000000000ULL, (size_t)77, 255u, 'Z', "abcdef", 4, 7, 8, 2, 1.005, 1e-7);
    snprintf(want, sizeof want, "a%-6d|%+.2f|%5.1f%%|%lld|%llu|%zu|%x|%c|%.3s|%*d|%-*.*f|%g", -12, 3.14159, 99.96,
             -5000000000LL, 18000000000000000000ULL, (size_t)77, 255u, 'Z', "abcdef", 4, 7, 8, 2, 1.005, 1e-7);
    CHECK_STR(fmt_en(&m, HR_LANG_EN), want);
    CHECK_EQ_I64(m.nargs, 15);

    /* an argument that is a msgid of its own is translated with the template */
    hr_msg_set(&m, "%s (%u)", "RAM", 3u);
    hr_msg_translate_arg(&m, 0);
    CHECK_STR(fmt_en(&m, HR_LANG_EN), "RAM (3)");
    snprintf(want, sizeof want, hr_tr_lang(HR_LANG_ZH, "%s (%u)"), hr_tr_lang(HR_LANG_ZH, "RAM"), 3u);
    CHECK_STR(fmt_en(&m, HR_LANG_ZH), want);
    CHECK_CONTAINS(fmt_en(&m, HR_LANG_ZH), "内存");
    /* ...and one that is not stays as given (a path is never translated) */
    hr_msg_set(&m, "%s (%u)", "RAM", 3u);
    CHECK(strstr(fmt_en(&m, HR_LANG_ZH), "内存") == NULL);
    /* the index counts values, not * widths */
    hr_msg_set(&m, "%*s and %s", 6, "RAM", "RAM");
    hr_msg_translate_arg(&m, 1);
    CHECK_STR(fmt_en(&m, HR_LANG_EN), "   RAM and RAM");
    CHECK_CONTAINS(fmt_en(&m, HR_LANG_ZH), "RAM and 内存");

    /* a short buffer: cut, terminated, and the full length returned as snprintf does */
    hr_msg_set(&m, "%s is %d GB", "swapfile", 16);
    char small[8];
    size_t need = hr_msg_format(&m, HR_LANG_EN, small, sizeof small);
    CHECK_EQ_U64(need, strlen("swapfile is 16 GB"));
    CHECK_STR(small, "swapfil");
    CHECK_EQ_U64(hr_msg_format(&m, HR_LANG_EN, NULL, 0), need);

    /* a cut never splits a character: "页" is three bytes, a 5-byte buffer holds one of them */
    hr_msg_set(&m, "%s", "页页页");
    char five[5];
    CHECK_EQ_U64(hr_msg_format(&m, HR_LANG_EN, five, sizeof five), 9);
    CHECK_STR(five, "页");

    /* copied strings: the caller's buffer may change after the rule returns */
    char path[32] = "D:\\pagefile.sys";
    hr_msg_set(&m, "%s", path);
    strcpy(path, "changed");
    CHECK_STR(fmt_en(&m, HR_LANG_EN), "D:\\pagefile.sys");

    /* a string past the store is cut at a character boundary and flagged */
    char longs[1000];
    for (size_t i = 0; i + 3 < sizeof longs; i += 3)
        memcpy(longs + i, "页", 3);
    longs[999 / 3 * 3] = '\0';
    hr_msg_set(&m, "<%s>", longs);
    CHECK(m.truncated);
    const char *t = fmt_en(&m, HR_LANG_EN);
    CHECK(t[0] == '<' && t[strlen(t) - 1] == '>');
    CHECK_EQ_U64((strlen(t) - 2) % 3, 0);

    /* no message, and a template msg cannot hold: the text as written, no value guessed */
    CHECK_STR(fmt_en(NULL, HR_LANG_EN), "");
    memset(&m, 0, sizeof m);
    CHECK_STR(fmt_en(&m, HR_LANG_ZH), "");
    int x = 0;
    hr_msg_set(&m, "at %p", (void *)&x);
    CHECK_STR(fmt_en(&m, HR_LANG_EN), "at %p");
    /* a template whose values disagree with what is held falls back to English, whole */
    hr_msg_set(&m, "%s (%u)", "RAM", 3u);
    m.args[1].kind = HR_MSG_ARG_STR;
    CHECK_STR(fmt_en(&m, HR_LANG_ZH), "%s (%u)");

    /* ...and so does one that would leave a value unused */
    hr_msg_set(&m, "%s (%u)", "RAM", 3u);
    m.args[m.nargs++].kind = HR_MSG_ARG_UINT;
    CHECK_STR(fmt_en(&m, HR_LANG_EN), "%s (%u)");

    return TEST_DONE();
}
