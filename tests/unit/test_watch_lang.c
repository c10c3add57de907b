/* watch's and run's ComfyUI events: headroom's own words about one (how a prompt ended, the
 * estimate's note) are data, so the recording's and --json's node line is English whatever
 * the language of the moment, and the screen says them in the user's language. */
#include "test.h"

#include "core/base/i18n.h"
#include "core/watch/comfy.h"

#include <string.h>

static void test_prompt_end_words(void)
{
    hr_comfy_event e;
    memset(&e, 0, sizeof e);
    e.kind = HR_CEV_PROMPT_END;
    e.source = "websocket";
    snprintf(e.prompt_id, sizeof e.prompt_id, "%s", "0123456789abcdef");
    hr_msg_set(&e.said, HR_N("interrupted at node %s %s"), "7", "KSampler");

    char en[400], zh[400];
    hr_comfy_event_words(&e, HR_LANG_EN, en, sizeof en);
    hr_comfy_event_words(&e, HR_LANG_ZH, zh, sizeof zh);
    CHECK_STR(en, "interrupted at node 7 KSampler");
    CHECK(strcmp(en, zh) != 0); /* the catalogue translates it */
    CHECK_CONTAINS(zh, "KSampler");

    hr_buf line_en, line_zh;
    hr_buf_init(&line_en, 0);
    hr_buf_init(&line_zh, 0);
    hr_lang_set(HR_LANG_EN);
    hr_rec_node_line(&line_en, 0, 1000, 1700000000000LL, &e);
    hr_lang_set(HR_LANG_ZH);
    hr_rec_node_line(&line_zh, 0, 1000, 1700000000000LL, &e);
    hr_lang_set(HR_LANG_EN);
    CHECK_STR(hr_buf_str(&line_zh), hr_buf_str(&line_en));
    CHECK_CONTAINS(hr_buf_str(&line_zh), "\"text\":\"interrupted at node 7 KSampler\"");
    CHECK(strstr(hr_buf_str(&line_zh), zh) == NULL);
    hr_buf_free(&line_en);
    hr_buf_free(&line_zh);

    /* a line as read (ComfyUI's own word) is kept as it is, in every language */
    memset(&e.said, 0, sizeof e.said);
    snprintf(e.text, sizeof e.text, "%s", "success");
    hr_comfy_event_words(&e, HR_LANG_ZH, zh, sizeof zh);
    CHECK_STR(zh, "success");
}

int main(void)
{
    test_prompt_end_words();
    return TEST_DONE();
}
