/* hr_wrap: prose folded by display width in both languages — every cause's meaning and fix,
 * as diagnose shows them, at every width from 24 to 100 columns. */
#include "test.h"

#include "core/base/buf.h"
#include "core/base/i18n.h"
#include "core/base/utf8.h"
#include "core/base/wrap.h"
#include "core/diagnose/diag.h"

#include <stdbool.h>

static const char *const closers[] = { "，", "。", "：", "；", "）", "、", "！", "？", "”", ",", ".", ")" };
static const char *const units[] = { "GB", "MB", "GiB", "MiB", "KB", "TB", "%", "帧", "个", "次", "天", "秒" };

static bool starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* s wrapped at width with indent: every line fits unless it is one unbreakable word, the
 * text comes back whole when the lines are joined, no line starts with closing punctuation,
 * no line ends in a number whose unit starts the next. Returns the number of lines. */
static int check_wrap(const char *s, const char *indent, size_t width)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_wrap(&b, indent, s, width);
    CHECK(!hr_buf_error(&b) && b.data);
    if (!b.data)
        return 0;
    char joined[8192] = "";
    size_t jn = 0;
    int lines = 0;
    const char *p = b.data;
    char prev_last = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        CHECK(nl != NULL);
        if (!nl)
            break;
        char line[4096];
        size_t n = (size_t)(nl - p);
        CHECK(n < sizeof line);
        memcpy(line, p, n);
        line[n] = '\0';
        CHECK(starts_with(line, indent));
        const char *body = line + strlen(indent);
        size_t w = hr_utf8_width(line);
        if (w > width && strchr(body, ' ')) {
            /* Only a line with no space may be too long, and only if it has no Chinese to
             * break between. */
            fprintf(stderr, "too wide (%zu > %zu): [%s]\n", w, width, line);
            CHECK(w <= width);
        }
        if (lines > 0) {
            for (size_t i = 0; i < sizeof closers / sizeof closers[0]; i++)
                if (starts_with(body, closers[i])) {
                    fprintf(stderr, "line starts with %s at width %zu: [%s]\n", closers[i], width, line);
                    CHECK(!starts_with(body, closers[i]));
                }
            if (prev_last >= '0' && prev_last <= '9')
                for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
                    if (starts_with(body, units[i])) {
                        fprintf(stderr, "number and unit split at width %zu: [%s]\n", width, line);
                        CHECK(!starts_with(body, units[i]));
                    }
        }
        prev_last = n ? line[n - 1] : 0;
        size_t bn = strlen(body);
        CHECK(jn + bn + 1 < sizeof joined);
        memcpy(joined + jn, body, bn);
        jn += bn;
        joined[jn] = '\0';
        lines++;
        p = nl + 1;
    }
    /* Joined back (a break ate the spaces it was at) the text is the same but for spaces. */
    char a[8192], c[8192];
    size_t an = 0, cn = 0;
    for (const char *q = s; *q && an + 1 < sizeof a; q++)
        if (*q != ' ')
            a[an++] = *q;
    a[an] = '\0';
    for (const char *q = joined; *q && cn + 1 < sizeof c; q++)
        if (*q != ' ')
            c[cn++] = *q;
    c[cn] = '\0';
    CHECK(strcmp(a, c) == 0);
    hr_buf_free(&b);
    return lines;
}

int main(void)
{
    int texts = 0;
    for (int lang = 0; lang < 2; lang++) {
        hr_lang_set(lang ? HR_LANG_ZH : HR_LANG_EN);
        for (int cause = 0; cause < HR_CAUSE_COUNT; cause++) {
            const char *msgs[4] = { hr_cause_meaning((hr_cause)cause), hr_cause_fix((hr_cause)cause),
                                    hr_cause_fix_os((hr_cause)cause, true), hr_cause_fix_os((hr_cause)cause, false) };
            for (int m = 0; m < 4; m++) {
                if (!msgs[m] || !msgs[m][0])
                    continue;
                texts++;
                for (size_t width = 24; width <= 100; width += 3)
                    check_wrap(hr_tr(msgs[m]), "    ", width);
            }
        }
    }
    CHECK(texts > 20);

    /* Chinese with no space at all still folds, between characters, and fills its lines. */
    hr_lang_set(HR_LANG_ZH);
    const char *zh = "已达到提交限制，Windows 拒绝分配内存：页面文件对这项工作来说太小，请把页面文件增大到"
                     "规则给出的大小，初始大小等于最大值，放在空间充足且不是系统盘的固态硬盘上，然后重启。";
    CHECK(check_wrap(zh, "  ", 30) >= 6);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_wrap(&b, "  ", "一二三四五六七八九十一二三四五六七八九十", 12);
    CHECK(b.data && strcmp(b.data, "  一二三四五\n  六七八九十\n  一二三四五\n  六七八九十\n") == 0);
    hr_buf_reset(&b);
    /* A number keeps its unit, Chinese measure words included. */
    hr_wrap(&b, "", "内存 16 GB 视频 81 帧", 10);
    CHECK(b.data && strstr(b.data, "16 GB") && strstr(b.data, "81 帧"));
    hr_buf_reset(&b);
    /* English still breaks at spaces only. */
    hr_wrap(&b, "", "the paging file is too small", 12);
    CHECK(b.data && strcmp(b.data, "the paging\nfile is too\nsmall\n") == 0);
    hr_buf_free(&b);

    printf("wrap: %d messages in 2 languages at 26 widths, %d checks, %d failed\n", texts, hr_test_checks,
           hr_test_failures);
    return hr_test_failures ? 1 : 0;
}
