/* hr_shell_quote: a path in a command headroom shows for pasting reaches the program as one
 * word, whatever it holds — checked against a real POSIX shell where there is one. */
#include "test.h"

#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

#ifndef _WIN32
/* What sh hands printf for the quoted word: must be the original text. */
static void through_sh(const char *word)
{
    char q[512], cmd[600], got[512] = "";
    CHECK(hr_shell_quote(word, q, sizeof q));
    snprintf(cmd, sizeof cmd, "printf '%%s|' %s", q);
    FILE *f = popen(cmd, "r");
    if (!f) {
        printf("SKIP: no shell to run\n");
        return;
    }
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    pclose(f);
    char want[520];
    snprintf(want, sizeof want, "%s|", word);
    CHECK_STR(got, want);
}
#endif

int main(void)
{
    char out[128];
    /* a plain path is shown as it is (the usual case reads as before) */
    CHECK(hr_shell_quote("/srv/headroom.swap", out, sizeof out));
    CHECK_STR(out, "/srv/headroom.swap");
    CHECK(hr_shell_quote("/media/alice/Backup Drive/swapfile", out, sizeof out));
    CHECK_STR(out, "'/media/alice/Backup Drive/swapfile'");
    CHECK(hr_shell_quote("/mnt/it's/swap", out, sizeof out));
    CHECK_STR(out, "'/mnt/it'\\''s/swap'");
    CHECK(hr_shell_quote("", out, sizeof out));
    CHECK_STR(out, "''");
    /* too long: nothing half-written */
    char small[8];
    CHECK(!hr_shell_quote("/a b/cdefgh", small, sizeof small));
    CHECK_STR(small, "");
#ifndef _WIN32
    const char *nasty[] = {
        "/media/alice/Backup Drive/swapfile", "/mnt/it's/swap",      "/x/$(reboot)/`id`/\"q\"", "/tab\there/swap",
        "/semi;colon&amp|pipe>out",           "/star*/?/[ab]/~user", "/新卷/交换文件"
    };
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++)
        through_sh(nasty[i]);
#endif
    return TEST_DONE();
}
