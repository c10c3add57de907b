/* fstab editor: every unrelated byte kept; hostile inputs (comments, tabs, UUID=, no final
 * newline, spaces and non-ASCII in paths); add/remove round trips to the original bytes. */
#include "test.h"

#include "core/model/fstab.h"

#include <stdlib.h>

static char *render(const hr_fstab *f)
{
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_fstab_render(f, &b);
    char *s = malloc(b.len + 1);
    memcpy(s, hr_buf_str(&b), b.len + 1);
    hr_buf_free(&b);
    return s;
}

static void roundtrip(const char *text, const char *path, int expect_nl)
{
    hr_fstab f;
    hr_error err = { 0 };
    CHECK(hr_fstab_parse(&f, text, strlen(text), "t", &err) == 0);
    char *s = render(&f);
    CHECK_STR(s, text);
    free(s);
    bool added = false;
    CHECK(hr_fstab_add_swap(&f, path, 10, &added, &err) == 0);
    CHECK(added == (expect_nl != 0));
    CHECK(hr_fstab_find_swap(&f, path) >= 0);
    s = render(&f);
    /* What we wrote parses again and decodes to the same path. */
    hr_fstab g;
    CHECK(hr_fstab_parse(&g, s, strlen(s), "t2", &err) == 0);
    long gi = hr_fstab_find_swap(&g, path);
    CHECK(gi >= 0);
    if (gi >= 0)
        CHECK_EQ_I64(hr_fstab_opt_priority(g.lines[gi].opts), 10);
    hr_fstab_free(&g);
    free(s);
    CHECK(hr_fstab_add_swap(&f, path, 10, NULL, &err) == HR_EEXIST);
    CHECK(hr_fstab_remove_swap(&f, path, added) == 0);
    s = render(&f);
    CHECK_STR(s, text);
    free(s);
    hr_fstab_free(&f);
}

int main(void)
{
    hr_error err = { 0 };
    const char *real = "# /etc/fstab: static file system information.\n"
                       "#\n"
                       "# <file system> <mount point>   <type>  <options>       <dump>  <pass>\n"
                       "UUID=0a3407de-014b-458b-b5c1-848e92a327a3 /               ext4    errors=remount-ro 0       1\n"
                       "\n"
                       "/dev/sr0\t/media/cdrom0\tudf,iso9660 user,noauto     0       0\n"
                       "   \t  \n"
                       "LABEL=data /mnt/my\\040data xfs defaults,nofail\n"
                       "/swapfile none swap sw 0 0\n";
    roundtrip(real, "/mnt/my data/headroom.swap", 0);
    /* No trailing newline: apply adds one, rollback takes it away again. */
    roundtrip("UUID=abc / ext4 defaults 0 1", "/swap/headroom.swap", 1);
    /* Empty file, CRLF line, comment-only file. */
    roundtrip("", "/headroom.swap", 0);
    roundtrip("# only a comment", "/headroom.swap", 1);
    roundtrip("/dev/sda1 / ext4 defaults 0 1\r\n", "/headroom.swap", 0);
    /* Non-ASCII, tab and backslash in the path. */
    roundtrip("/dev/sda1 / ext4 defaults 0 1\n", "/数据/交换 文件\t\\x.swap", 0);

    /* Decoding of escapes, and what we write for a space. */
    hr_fstab f;
    const char *t = "/a\\040b\\011c none swap pri=5 0 0\n";
    CHECK(hr_fstab_parse(&f, t, strlen(t), "t", &err) == 0);
    CHECK_STR(f.lines[0].spec, "/a b\tc");
    CHECK(hr_fstab_is_swap(&f.lines[0]));
    CHECK_EQ_I64(hr_fstab_opt_priority(f.lines[0].opts), 5);
    hr_fstab_free(&f);
    hr_buf b;
    hr_buf_init(&b, 0);
    hr_fstab_escape("/x y\\z", &b);
    CHECK_STR(hr_buf_str(&b), "/x\\040y\\134z");
    hr_buf_free(&b);

    /* Options. */
    CHECK_EQ_I64(hr_fstab_opt_priority("defaults,pri=-3"), -3);
    CHECK(hr_fstab_opt_priority("defaults") == INT64_MIN);
    CHECK(hr_fstab_opt_priority("pri=") == INT64_MIN);
    CHECK(hr_fstab_opt_has("sw,noauto", "noauto"));
    CHECK(!hr_fstab_opt_has("sw,noautox", "noauto"));

    /* Lines we do not understand are refused, with the line number. */
    const char *bad = "# ok\n/dev/sda1 /\n";
    CHECK(hr_fstab_parse(&f, bad, strlen(bad), "/etc/fstab", &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/etc/fstab: line 2");
    const char *bad2 = "a b c d 0 0 extra\n";
    CHECK(hr_fstab_parse(&f, bad2, strlen(bad2), "x", &err) == HR_EPARSE);
    const char *bad3 = "a b c d x 0\n";
    CHECK(hr_fstab_parse(&f, bad3, strlen(bad3), "x", &err) == HR_EPARSE);
    const char nul[] = "a b c\0d\n";
    CHECK(hr_fstab_parse(&f, nul, sizeof nul - 1, "x", &err) == HR_EPARSE);
    CHECK_CONTAINS(err.msg, "NUL");
    /* Relative paths are not added. */
    CHECK(hr_fstab_parse(&f, "", 0, "x", &err) == 0);
    CHECK(hr_fstab_add_swap(&f, "swapfile", 1, NULL, &err) == HR_EINVAL);
    CHECK(hr_fstab_remove_swap(&f, "/nope", false) == HR_ENOENT);
    hr_fstab_free(&f);
    return TEST_DONE();
}
