/* Unit tests of the pure parsers of kernel text: /proc/meminfo, /proc/swaps, mountinfo,
 * /proc/<pid>/cgroup, and the text helpers under them. Inputs are written in the kernel's
 * exact formats (tabs and padding included). */
#include "test.h"

#include "core/model/cgroup_parse.h"
#include "core/model/meminfo.h"
#include "core/model/mountinfo.h"
#include "core/model/snapshot.h"
#include "core/model/swaps.h"
#include "core/base/text.h"
#include "core/scan/model_scan.h"
#include "core/scan/tensors.h"
#include "core/status/status_render.h"

#include <stdlib.h>

#define S(lit) lit, sizeof(lit) - 1

/* One hex digit's value, the one home of the JSON \u escapes, chunked HTTP sizes, swap
 * UUIDs, recorded registry bytes and Windows' saved PagingFiles bytes: both cases, and
 * nothing next to the ranges (the characters just before and after each, a high byte). */
static void test_hex_digit(void)
{
    const char *digits = "0123456789abcdef";
    const char *upper = "ABCDEF";
    for (int i = 0; i < 16; i++)
        CHECK_EQ_I64(hr_hex_digit(digits[i]), i);
    for (int i = 0; i < 6; i++)
        CHECK_EQ_I64(hr_hex_digit(upper[i]), 10 + i);
    const char *not_hex = "/:@`gG Gx \n";
    for (const char *p = not_hex; *p; p++)
        CHECK_EQ_I64(hr_hex_digit(*p), -1);
    CHECK_EQ_I64(hr_hex_digit('\0'), -1);
    CHECK_EQ_I64(hr_hex_digit((char)0xe4), -1);
    CHECK_EQ_I64(hr_hex_digit(0xe4), -1);
}

static void test_parse_u64(void)
{
    uint64_t v = 0;
    CHECK(hr_parse_u64(S("0"), &v) && v == 0);
    CHECK(hr_parse_u64(S("  42\n"), &v) && v == 42);
    CHECK(hr_parse_u64(S("18446744073709551615"), &v) && v == UINT64_MAX);
    CHECK(!hr_parse_u64(S("18446744073709551616"), &v)); /* overflow by one */
    CHECK(!hr_parse_u64(S("99999999999999999999999"), &v));
    CHECK(!hr_parse_u64(S(""), &v));
    CHECK(!hr_parse_u64(S("   "), &v));
    CHECK(!hr_parse_u64(S("-1"), &v));
    CHECK(!hr_parse_u64(S("+1"), &v));
    CHECK(!hr_parse_u64(S("4 2"), &v));
    CHECK(!hr_parse_u64(S("12x"), &v));
    CHECK(!hr_parse_u64(S("0x10"), &v));
    /* Length-bounded: the digits after n are not read. */
    CHECK(hr_parse_u64("123456", 3, &v) && v == 123);

    int64_t i = 0;
    CHECK(hr_parse_i64(S("-2"), &i) && i == -2);
    CHECK(hr_parse_i64(S(" 100 "), &i) && i == 100);
    CHECK(hr_parse_i64(S("-9223372036854775808"), &i) && i == INT64_MIN);
    CHECK(hr_parse_i64(S("9223372036854775807"), &i) && i == INT64_MAX);
    CHECK(!hr_parse_i64(S("9223372036854775808"), &i));
    CHECK(!hr_parse_i64(S("-9223372036854775809"), &i));
    CHECK(!hr_parse_i64(S("-"), &i));
    CHECK(!hr_parse_i64(S("--1"), &i));
}

static void test_parse_limit(void)
{
    uint64_t v = 0;
    CHECK(hr_parse_limit(S("max\n"), &v) && v == HR_UNLIMITED);
    CHECK(hr_parse_limit(S("8589934592\n"), &v) && v == 8589934592ull);
    CHECK(hr_parse_limit(S("0\n"), &v) && v == 0);
    /* cgroup v1 "no limit": LONG_MAX rounded down to the page size. */
    CHECK(hr_parse_limit(S("9223372036854771712\n"), &v) && v == HR_UNLIMITED);
    CHECK(hr_parse_limit(S("9223372036854775807"), &v) && v == HR_UNLIMITED);
    /* A real limit of 1 TiB is a limit. */
    CHECK(hr_parse_limit(S("1099511627776"), &v) && v == 1099511627776ull);
    CHECK(!hr_parse_limit(S("-1"), &v));
    CHECK(!hr_parse_limit(S("maximum"), &v));
    CHECK(!hr_parse_limit(S(""), &v));
    CHECK(!hr_parse_limit(S("18446744073709551616"), &v));
}

static void test_text_helpers(void)
{
    /* Lines: the last one may lack its newline; an empty buffer has none. */
    const char *buf = "a\n\nbc", *cur = buf, *end = buf + 5, *line;
    size_t n;
    CHECK(hr_next_line(&cur, end, &line, &n) && n == 1 && line[0] == 'a');
    CHECK(hr_next_line(&cur, end, &line, &n) && n == 0);
    CHECK(hr_next_line(&cur, end, &line, &n) && n == 2 && line[0] == 'b');
    CHECK(!hr_next_line(&cur, end, &line, &n));
    cur = buf;
    CHECK(!hr_next_line(&cur, buf, &line, &n));

    /* Key-value files: "oom" must not match the "oom_kill" line. */
    const char *ev = "low 0\nhigh 5\nmax 7\noom_kill 3\noom 1\noom_group_kill 0\n";
    uint64_t v = 0;
    CHECK(hr_kv_u64(ev, strlen(ev), "oom", ' ', &v) && v == 1);
    CHECK(hr_kv_u64(ev, strlen(ev), "oom_kill", ' ', &v) && v == 3);
    CHECK(hr_kv_u64(ev, strlen(ev), "high", ' ', &v) && v == 5);
    CHECK(!hr_kv_u64(ev, strlen(ev), "oom_kil", ' ', &v));
    CHECK(!hr_kv_u64(ev, strlen(ev), "absent", ' ', &v));
    const char *oc = "oom_kill_disable 0\nunder_oom 0\noom_kill\t12\n";
    CHECK(hr_kv_u64(oc, strlen(oc), "oom_kill", ' ', &v) && v == 12);
    const char *ue = "MAJOR=8\nMINOR=2\nDEVNAME=sda2\nDEVTYPE=partition\n";
    char out[16];
    CHECK(hr_kv_find(ue, strlen(ue), "DEVNAME", '=', out, sizeof out));
    CHECK_STR(out, "sda2");
    CHECK(hr_kv_find(ue, strlen(ue), "DEVTYPE", '=', out, 5));
    CHECK_STR(out, "part"); /* truncated to the buffer */
    const char *bad = "count abc\n";
    CHECK(!hr_kv_u64(bad, strlen(bad), "count", ' ', &v));

    char t[32] = " \t hello world \r\n";
    CHECK_STR(hr_trim(t), "hello world");
    char e[8] = "";
    CHECK_STR(hr_trim(e), "");

    /* The kernel's octal escapes (space, tab, newline, backslash). */
    char u[64];
    hr_unescape_octal(S("/media/a\\040b\\011c\\012d\\134e"), u, sizeof u);
    CHECK_STR(u, "/media/a b\tc\nd\\e");
    hr_unescape_octal(S("/x\\04"), u, sizeof u); /* incomplete escape kept as is */
    CHECK_STR(u, "/x\\04");
    hr_unescape_octal(S("/x\\400"), u, sizeof u); /* not a byte: kept */
    CHECK_STR(u, "/x\\400");
    hr_unescape_octal(S("abcdefgh"), u, 4); /* truncated, terminated */
    CHECK_STR(u, "abc");

    /* A server's text made one harmless line: C0, DEL, C1 (CSI), bidi controls, bad UTF-8
     * become '?'; Chinese and other text stays. */
    char o[80] = "p1\nheadroom: x\x1b[2J\x7f\xc2\x9b"
                 "1m\xe2\x80\xae\xe2\x81\xa6\xff\xc3";
    CHECK_EQ_U64(hr_text_one_line(o), 8);
    CHECK_STR(o, "p1?headroom: x?[2J??1m????");
    char z[40] = "\xe6\x98\xbe\xe5\xad\x98 caf\xc3\xa9 \xe2\x80\x94 ok";
    CHECK_EQ_U64(hr_text_one_line(z), 0);
    CHECK_STR(z, "\xe6\x98\xbe\xe5\xad\x98 caf\xc3\xa9 \xe2\x80\x94 ok");

    /* A name the system gave, shown reversibly: controls as the kernel's \\ooo, C1 and bidi
     * controls as \\u{XXXX}, bad bytes as \\ooo; backslashes and Chinese are kept. */
    char sh[128];
    CHECK_STR(hr_text_shown("/sw\nap\x1b[2J\x7f\xc2\x9b"
                            "1m\xe2\x80\xae\xe2\x81\xa6\xff",
                            sh, sizeof sh),
              "/sw\\012ap\\033[2J\\177\\u{009B}1m\\u{202E}\\u{2066}\\377");
    CHECK_STR(hr_text_shown("C:\\pagefile.sys \xe6\x98\xbe\xe5\xad\x98", sh, sizeof sh),
              "C:\\pagefile.sys \xe6\x98\xbe\xe5\xad\x98");
    CHECK_STR(hr_text_shown("ab\ncd", sh, 6), "ab"); /* never half an escape */

    char alg[32];
    hr_bracketed_choice("lzo lzo-rle lz4 lz4hc 842 [zstd]", alg, sizeof alg);
    CHECK_STR(alg, "zstd");
    hr_bracketed_choice("[lzo-rle] lzo lz4 ", alg, sizeof alg);
    CHECK_STR(alg, "lzo-rle");
    hr_bracketed_choice("zstd\n", alg, sizeof alg);
    CHECK_STR(alg, "zstd");
    hr_bracketed_choice("lz4 [unclosed", alg, sizeof alg);
    CHECK_STR(alg, "lz4 [unclosed");
    hr_bracketed_choice("[averyveryverylongname]", alg, 5);
    CHECK_STR(alg, "aver");
}

static const char MEMINFO[] = "MemTotal:       16318412 kB\n"
                              "MemFree:         2104356 kB\n"
                              "MemAvailable:    9731220 kB\n"
                              "Buffers:          123456 kB\n"
                              "Cached:          7506864 kB\n"
                              "SwapCached:        16384 kB\n"
                              "Active(anon):    2952596 kB\n"
                              "SwapTotal:       8388604 kB\n"
                              "SwapFree:        8126460 kB\n"
                              "Zswap:             81234 kB\n"
                              "Zswapped:         262144 kB\n"
                              "Shmem:            234560 kB\n"
                              "CommitLimit:    16547808 kB\n"
                              "Committed_AS:   14532876 kB\n"
                              "VmallocTotal:   34359738367 kB\n"
                              "HugePages_Total:       0\n"
                              "Hugepagesize:       2048 kB\n"
                              "Hugetlb:               0 kB\n";

static void test_meminfo(void)
{
    hr_meminfo mi;
    hr_error err = { 0 };
    CHECK_EQ_I64(hr_parse_meminfo(S(MEMINFO), "/proc/meminfo", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, 16318412ull * 1024);
    CHECK_EQ_U64(mi.mem_free, 2104356ull * 1024);
    CHECK_EQ_U64(mi.mem_available, 9731220ull * 1024);
    CHECK_EQ_U64(mi.buffers, 123456ull * 1024);
    CHECK_EQ_U64(mi.cached, 7506864ull * 1024);
    CHECK_EQ_U64(mi.swap_cached, 16384ull * 1024);
    CHECK_EQ_U64(mi.swap_total, 8388604ull * 1024);
    CHECK_EQ_U64(mi.swap_free, 8126460ull * 1024);
    CHECK_EQ_U64(mi.zswap, 81234ull * 1024);
    CHECK_EQ_U64(mi.zswapped, 262144ull * 1024);
    CHECK_EQ_U64(mi.shmem, 234560ull * 1024);
    CHECK_EQ_U64(mi.commit_limit, 16547808ull * 1024);
    CHECK_EQ_U64(mi.committed_as, 14532876ull * 1024);
    CHECK_EQ_U64(mi.hugetlb, 0);

    /* Missing fields are unknown, never 0 (kernels without zswap, before 3.14). */
    const char old[] = "MemTotal:       32778468 kB\nMemFree:         6105632 kB\n"
                       "SwapTotal:             0 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(old), "m", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, 32778468ull * 1024);
    CHECK_EQ_U64(mi.swap_total, 0);
    CHECK_EQ_U64(mi.mem_available, HR_UNKNOWN);
    CHECK_EQ_U64(mi.zswap, HR_UNKNOWN);
    CHECK_EQ_U64(mi.commit_limit, HR_UNKNOWN);

    /* Empty file: success, everything unknown. */
    CHECK_EQ_I64(hr_parse_meminfo("", 0, "m", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, HR_UNKNOWN);

    /* CRLF and lines without a colon are tolerated; unknown fields are ignored. */
    const char crlf[] = "junk line\r\nMemTotal: 1024 kB\r\nFooBar: x y z\r\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(crlf), "m", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, 1024ull * 1024);

    /* Malformed values of fields we use fail, naming the file, the line and the field. */
    const char cut[] = "MemTotal:       16318412 kB\nMemFree:         2104356 kB\nMemAvailable:    97312";
    CHECK_EQ_I64(hr_parse_meminfo(S(cut), "/proc/meminfo", &mi, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/proc/meminfo: line 3");
    CHECK_CONTAINS(err.msg, "MemAvailable");
    const char garbage[] = "MemTotal:       12x34 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(garbage), "/proc/meminfo", &mi, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "MemTotal");
    const char empty_val[] = "MemTotal:\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(empty_val), "m", &mi, &err), HR_EPARSE);
    const char only_unit[] = "MemTotal: kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(only_unit), "m", &mi, &err), HR_EPARSE);
    const char neg[] = "SwapFree:          -4 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(neg), "m", &mi, &err), HR_EPARSE);
    const char huge[] = "MemTotal:       99999999999999999999999 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(huge), "m", &mi, &err), HR_EPARSE);
    /* The largest value that still fits in bytes with room to add. */
    const char big[] = "MemTotal:       9007199254740991 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(big), "m", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, 9007199254740991ull * 1024);
    /* One past it: a value that hr_parse_u64 takes but that times 1024 wraps. 2^54 + 1 kB is
     * 2^64 + 1024 bytes, which would read as 1 KiB of RAM without the check. */
    const char wraps[] = "MemTotal:       18014398509481985 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(wraps), "/proc/meminfo", &mi, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/proc/meminfo: line 1: bad value for MemTotal");
    const char next[] = "SwapTotal:      9007199254740992 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(S(next), "m", &mi, &err), HR_EPARSE);
    /* A NUL inside a line does not end the buffer early. */
    const char nul[] = "\0junk: 1 kB\nMemTotal:  2048 kB\n";
    CHECK_EQ_I64(hr_parse_meminfo(nul, sizeof nul - 1, "m", &mi, &err), 0);
    CHECK_EQ_U64(mi.mem_total, 2048ull * 1024);
}

/* /proc/swaps exactly as swap_show() prints it: the path, padding to 40 columns, the type
 * ("file" gets an extra tab), and an extra tab after numbers under 10000000. */
static const char SWAPS[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                            "/dev/sda2                               partition\t8388604\t\t262144\t\t-2\n"
                            "/media/alice/Backup\\040Drive/swapfile   file\t\t16777212\t0\t\t-3\n"
                            "/dev/zram0                              partition\t8388604\t\t1048576\t\t100\n"
                            "/swap\\011tab\\134file                      file\t\t65532\t\t0\t\t7\n";

/* /proc/swaps spells a newline in a path \\012; the parser decodes it (the path must be
 * opened) and status must print it escaped again, never as a line of its own. */
static void test_swaps_shown(void)
{
    static const char sw[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                             "/swap\\012headroom:\\040fake\tfile\t\t1024\t\t0\t\t-2\n";
    hr_swap_area a[2];
    int n = 0;
    hr_error err = { 0 };
    CHECK_EQ_I64(hr_parse_swaps(sw, sizeof sw - 1, "/proc/swaps", a, 2, &n, &err), 0);
    CHECK_EQ_I64(n, 1);
    CHECK_STR(a[0].path, "/swap\nheadroom: fake");
    hr_snapshot *snap = calloc(1, sizeof *snap);
    CHECK(snap != NULL);
    if (!snap)
        return;
    hr_snapshot_init(snap, HR_OS_LINUX);
    snap->paging_s.ok = true;
    snap->paging_count = 1;
    hr_strlcpy(snap->paging[0].path, a[0].path, sizeof snap->paging[0].path);
    snap->paging[0].kind = a[0].kind;
    snap->paging[0].size_bytes = a[0].size_bytes;
    hr_buf out = { 0 };
    hr_render_opts o = { 0 };
    CHECK_EQ_I64(hr_status_text(snap, &out, &o), 0);
    CHECK(out.data && strstr(out.data, "  /swap\\012headroom: fake\n") != NULL);
    CHECK(out.data && strstr(out.data, "\nheadroom: fake") == NULL);
    hr_buf_free(&out);
    free(snap);
}

static void test_swaps(void)
{
    hr_swap_area a[8];
    int n = -1;
    hr_error err = { 0 };
    CHECK_EQ_I64(hr_parse_swaps(S(SWAPS), "/proc/swaps", a, 8, &n, &err), 0);
    CHECK_EQ_I64(n, 4);
    CHECK_STR(a[0].path, "/dev/sda2");
    CHECK_EQ_I64(a[0].kind, HR_PAGING_PARTITION);
    CHECK_EQ_U64(a[0].size_bytes, 8388604ull * 1024);
    CHECK_EQ_U64(a[0].used_bytes, 262144ull * 1024);
    CHECK_EQ_I64(a[0].priority, -2);
    CHECK_STR(a[1].path, "/media/alice/Backup Drive/swapfile");
    CHECK_EQ_I64(a[1].kind, HR_PAGING_FILE);
    CHECK_EQ_U64(a[1].size_bytes, 16777212ull * 1024);
    CHECK_EQ_U64(a[1].used_bytes, 0);
    CHECK_EQ_I64(a[1].priority, -3);
    CHECK_STR(a[2].path, "/dev/zram0");
    CHECK_EQ_I64(a[2].kind, HR_PAGING_ZRAM);
    CHECK_EQ_I64(a[2].priority, 100);
    CHECK_STR(a[3].path, "/swap\ttab\\file");
    CHECK_EQ_I64(a[3].kind, HR_PAGING_FILE);
    CHECK_EQ_U64(a[3].size_bytes, 65532ull * 1024);
    CHECK_EQ_I64(a[3].priority, 7);

    /* No swap at all: the header alone. */
    const char none[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
    CHECK_EQ_I64(hr_parse_swaps(S(none), "s", a, 8, &n, &err), 0);
    CHECK_EQ_I64(n, 0);
    /* A path longer than 40 columns gets one blank; blank lines are skipped. */
    const char longp[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n\n"
                         "/a/very/long/path/to/a/swap/file/on/some/disk/swapfile file\t\t1024\t\t0\t\t-2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(longp), "s", a, 8, &n, &err), 0);
    CHECK_EQ_I64(n, 1);
    CHECK_STR(a[0].path, "/a/very/long/path/to/a/swap/file/on/some/disk/swapfile");
    /* A type we do not know is "other", not a guess. */
    const char odd[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/x\tweird\t1\t0\t-2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(odd), "s", a, 8, &n, &err), 0);
    CHECK_EQ_I64(a[0].kind, HR_PAGING_OTHER);
    /* A partition named like zram but elsewhere is not zram. */
    const char zr[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/zramish/x\tfile\t1\t0\t-2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(zr), "s", a, 8, &n, &err), 0);
    CHECK_EQ_I64(a[0].kind, HR_PAGING_FILE);

    /* Malformed input fails with the file and line. */
    const char nohdr[] = "/dev/sda2                               partition\t8388604\t\t0\t\t-2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(nohdr), "/proc/swaps", a, 8, &n, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/proc/swaps");
    CHECK_EQ_I64(hr_parse_swaps("", 0, "/proc/swaps", a, 8, &n, &err), HR_EPARSE);
    const char four[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/sda2 partition 1024 0\n";
    CHECK_EQ_I64(hr_parse_swaps(S(four), "/proc/swaps", a, 8, &n, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "line 2");
    const char six[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/sda2 partition 1024 0 -2 extra\n";
    CHECK_EQ_I64(hr_parse_swaps(S(six), "s", a, 8, &n, &err), HR_EPARSE);
    const char letters[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/sda2 partition 1k 0 -2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(letters), "s", a, 8, &n, &err), HR_EPARSE);
    const char badprio[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/sda2 partition 1 0 high\n";
    CHECK_EQ_I64(hr_parse_swaps(S(badprio), "s", a, 8, &n, &err), HR_EPARSE);
    const char ovf[] = "Filename\tType\tSize\tUsed\tPriority\n/dev/sda2 partition 18446744073709551615 0 -2\n";
    CHECK_EQ_I64(hr_parse_swaps(S(ovf), "s", a, 8, &n, &err), HR_EPARSE);
    /* More areas than room: an error, not a silent cut. */
    CHECK_EQ_I64(hr_parse_swaps(S(SWAPS), "/proc/swaps", a, 2, &n, &err), HR_ETOOBIG);
}

static const char MOUNTINFO[] =
    "22 29 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
    "29 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
    "33 22 0:28 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 master:2 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
    "41 29 0:25 /@home /home rw,noatime shared:55 - btrfs /dev/nvme0n1p3 rw,ssd,subvolid=257,subvol=/@home\n"
    "45 41 8:17 / /home/alice/data rw,relatime - ext4 /dev/sdb1 rw\n"
    "1467 29 253:0 / /media/alice/Backup\\040Drive rw,nosuid,nodev,relatime shared:759 - ext4 /dev/mapper/luks-4f6d rw\n"
    "80 29 0:61 / /mnt/c rw,noatime - 9p C:\\134 rw,dirsync,aname=drvfs;path=C:\\;uid=1000\n"
    "90 29 0:70 / /home/alice/data rw,relatime - tmpfs tmpfs rw\n";

static void test_mountinfo(void)
{
    const char *cur = MOUNTINFO, *end = MOUNTINFO + sizeof MOUNTINFO - 1;
    unsigned lineno = 0;
    hr_mount m;
    hr_error err = { 0 };
    CHECK_EQ_I64(hr_mountinfo_next(&cur, end, "mi", &lineno, &m, &err), 1);
    CHECK_EQ_U64(m.major, 0);
    CHECK_EQ_U64(m.minor, 21);
    CHECK_STR(m.mount_point, "/sys");
    CHECK_STR(m.fs_type, "sysfs");
    CHECK_EQ_I64(hr_mountinfo_next(&cur, end, "mi", &lineno, &m, &err), 1);
    CHECK_EQ_U64(m.major, 259);
    CHECK_EQ_U64(m.minor, 2);
    CHECK_STR(m.root, "/");
    CHECK_STR(m.mount_opts, "rw,relatime");
    CHECK_STR(m.source, "/dev/nvme0n1p2");
    CHECK_STR(m.super_opts, "rw,errors=remount-ro");
    /* Two optional fields before the separator. */
    CHECK_EQ_I64(hr_mountinfo_next(&cur, end, "mi", &lineno, &m, &err), 1);
    CHECK_STR(m.fs_type, "cgroup2");
    CHECK(hr_opt_has(m.super_opts, "nsdelegate"));
    CHECK(!hr_opt_has(m.super_opts, "memory")); /* not memory_recursiveprot */
    CHECK_EQ_I64(hr_mountinfo_next(&cur, end, "mi", &lineno, &m, &err), 1);
    CHECK_STR(m.root, "/@home");
    int r;
    while ((r = hr_mountinfo_next(&cur, end, "mi", &lineno, &m, &err)) == 1)
        ;
    CHECK_EQ_I64(r, 0);
    CHECK_EQ_U64(lineno, 8);

    /* Longest mount-point prefix, at a component boundary; the last of stacked mounts. */
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/home/alice/data/swapfile", &m, &err), 0);
    CHECK_STR(m.fs_type, "tmpfs");
    CHECK_STR(m.mount_point, "/home/alice/data");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/home/alice/x", &m, &err), 0);
    CHECK_STR(m.mount_point, "/home");
    CHECK_STR(m.fs_type, "btrfs");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/homework/x", &m, &err), 0);
    CHECK_STR(m.mount_point, "/");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/home", &m, &err), 0);
    CHECK_STR(m.mount_point, "/home");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/media/alice/Backup Drive/swapfile", &m, &err), 0);
    CHECK_STR(m.mount_point, "/media/alice/Backup Drive");
    CHECK_EQ_U64(m.major, 253);
    CHECK_STR(m.source, "/dev/mapper/luks-4f6d");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/mnt/c/pagefile.sys", &m, &err), 0);
    CHECK_STR(m.source, "C:\\");
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "/sys/fs/cgroup/memory.max", &m, &err), 0);
    CHECK_STR(m.fs_type, "cgroup2");
    /* A relative path is held by no mount. */
    CHECK_EQ_I64(hr_mountinfo_find(S(MOUNTINFO), "mi", "swapfile", &m, &err), HR_ENOENT);
    CHECK_EQ_I64(hr_mountinfo_find("", 0, "mi", "/", &m, &err), HR_ENOENT);

    /* Malformed lines fail with the file and line. */
    const char nosep[] = "29 1 259:2 / / rw,relatime shared:1 - ext4 /dev/x rw\n"
                         "31 29 0:41 / /mnt rw,relatime shared:20 tmpfs tmpfs rw\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(nosep), "/proc/self/mountinfo", "/mnt/x", &m, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/proc/self/mountinfo: line 2");
    const char badnum[] = "29 1 259-2 / / rw - ext4 /dev/x rw\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(badnum), "mi", "/", &m, &err), HR_EPARSE);
    const char bigmaj[] = "29 1 4294967296:0 / / rw - ext4 /dev/x rw\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(bigmaj), "mi", "/", &m, &err), HR_EPARSE);
    const char shortl[] = "29 1 8:1 / /\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(shortl), "mi", "/", &m, &err), HR_EPARSE);
    const char nofs[] = "29 1 8:1 / / rw -\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(nofs), "mi", "/", &m, &err), HR_EPARSE);
    /* Missing source and super options (not printed by some file systems) are tolerated. */
    const char nosrc[] = "29 1 8:1 / / rw - ext4\r\n";
    CHECK_EQ_I64(hr_mountinfo_find(S(nosrc), "mi", "/", &m, &err), 0);
    CHECK_STR(m.fs_type, "ext4");
    CHECK_STR(m.source, "");

    CHECK(hr_opt_has("rw,memory", "memory"));
    CHECK(hr_opt_has("memory", "memory"));
    CHECK(!hr_opt_has("rw,memory_recursiveprot", "memory"));
    CHECK(!hr_opt_has("", "memory"));
}

static void test_proc_cgroup(void)
{
    hr_proc_cgroup pc;
    hr_error err = { 0 };
    /* cgroup v2 only. */
    const char v2[] = "0::/user.slice/user-1000.slice/session-2.scope\n";
    CHECK_EQ_I64(hr_parse_proc_cgroup(S(v2), "c", &pc, &err), 0);
    CHECK(pc.has_v2 && !pc.has_v1_memory);
    CHECK_EQ_I64(pc.v1_lines, 0);
    CHECK_STR(pc.v2_path, "/user.slice/user-1000.slice/session-2.scope");
    /* Inside a cgroup namespace. */
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("0::/\n"), "c", &pc, &err), 0);
    CHECK_STR(pc.v2_path, "/");

    /* cgroup v1 only (CentOS 7), controllers joined on one hierarchy. */
    const char v1[] = "11:cpuset:/\n9:pids:/system.slice/comfyui.service\n"
                      "8:memory:/system.slice/comfyui.service\n7:net_prio,net_cls:/\n"
                      "1:name=systemd:/system.slice/comfyui.service\n";
    CHECK_EQ_I64(hr_parse_proc_cgroup(S(v1), "c", &pc, &err), 0);
    CHECK(pc.has_v1_memory && !pc.has_v2);
    CHECK_STR(pc.v1_memory_path, "/system.slice/comfyui.service");
    CHECK_EQ_I64(pc.v1_lines, 5);
    const char joined[] = "4:cpu,memory,cpuacct:/docker/5a1c\n";
    CHECK_EQ_I64(hr_parse_proc_cgroup(S(joined), "c", &pc, &err), 0);
    CHECK(pc.has_v1_memory);
    CHECK_STR(pc.v1_memory_path, "/docker/5a1c");

    /* Only "0::" (id 0, no controllers) is the v2 line: a v1 hierarchy numbered 0 is v1. */
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("0:memory:/jobs/7\n"), "c", &pc, &err), 0);
    CHECK(pc.has_v1_memory && !pc.has_v2);
    CHECK_STR(pc.v1_memory_path, "/jobs/7");

    /* Hybrid: v1 controllers (memory among them) and the 0:: line. */
    const char hyb[] = "9:name=systemd:/\n4:memory:/sessions/job-1\n1:cpu:/\n0::/\n";
    CHECK_EQ_I64(hr_parse_proc_cgroup(S(hyb), "c", &pc, &err), 0);
    CHECK(pc.has_v1_memory && pc.has_v2);
    CHECK_STR(pc.v1_memory_path, "/sessions/job-1");
    CHECK_EQ_I64(pc.v1_lines, 3);
    /* Hybrid with memory on v2: no v1 memory line. */
    const char hyb2[] = "1:name=systemd:/user.slice\n0::/user.slice\n";
    CHECK_EQ_I64(hr_parse_proc_cgroup(S(hyb2), "c", &pc, &err), 0);
    CHECK(!pc.has_v1_memory && pc.has_v2 && pc.v1_lines == 1);
    /* "memory" must be a whole controller name. */
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("3:memory_pressure:/x\n"), "c", &pc, &err), 0);
    CHECK(!pc.has_v1_memory);
    /* Paths may hold colons and escapes; blank lines and CRLF are tolerated. */
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("\n0::/a:b/c\\040d\r\n"), "c", &pc, &err), 0);
    CHECK_STR(pc.v2_path, "/a:b/c d");
    /* Empty: no controller. */
    CHECK_EQ_I64(hr_parse_proc_cgroup("", 0, "c", &pc, &err), 0);
    CHECK(!pc.has_v1_memory && !pc.has_v2);

    /* Malformed lines. */
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("garbage\n"), "/proc/self/cgroup", &pc, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "/proc/self/cgroup: line 1");
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("0::/\nx:memory:/\n"), "c", &pc, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "line 2");
    CHECK_EQ_I64(hr_parse_proc_cgroup(S("4:memory\n"), "c", &pc, &err), HR_EPARSE);
}

/* A safetensors file: the 8-byte little-endian header length, the header, data_bytes of data
 * (not held: the parser reads the head only). */
static int st_parse(const char *header, uint64_t data_bytes, hr_model_info *m, hr_error *err)
{
    unsigned char buf[512];
    size_t hlen = strlen(header);
    for (int i = 0; i < 8; i++)
        buf[i] = (unsigned char)((uint64_t)hlen >> (8 * i));
    memcpy(buf + 8, header, hlen);
    hr_tensor_set t;
    hr_tensor_set_init(&t);
    memset(m, 0, sizeof *m);
    int r = hr_safetensors_parse("x.safetensors", buf, 8 + hlen, 8 + hlen + data_bytes, &t, m, err);
    hr_tensor_set_free(&t);
    return r;
}

static void test_safetensors_numel(void)
{
    hr_model_info m;
    hr_error err = { 0 };
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"U8\",\"shape\":[2,3],\"data_offsets\":[0,6]}}", 6, &m, &err), 0);
    CHECK_EQ_U64(m.params, 6);
    /* 2^32 × 2^32 elements wrap to 0 in 64 bits: without the overflow check the tensor would
     * match its empty data and count as 0 parameters. */
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"U8\",\"shape\":[4294967296,4294967296],"
                          "\"data_offsets\":[0,0]}}",
                          0, &m, &err),
                 HR_EPARSE);
    CHECK_CONTAINS(err.msg, "x.safetensors: tensor \"w\"");
    /* Offsets: the end before the begin, and data past the file's end, are lies. */
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[6,0]}}", 6, &m, &err), HR_EPARSE);
    /* a dtype this version does not know has no size check to catch it: the order must */
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"X9\",\"shape\":[1],\"data_offsets\":[6,0]}}", 6, &m, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "begin <= end");
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"U8\",\"shape\":[2,3],\"data_offsets\":[0,6]}}", 5, &m, &err), HR_EPARSE);
    CHECK_CONTAINS(err.msg, "past the end of the file");
    /* The same in three sizes, the wrap at the last one. */
    CHECK_EQ_I64(st_parse("{\"w\":{\"dtype\":\"U8\",\"shape\":[65536,65536,4294967296],"
                          "\"data_offsets\":[0,0]}}",
                          0, &m, &err),
                 HR_EPARSE);
}

/* The typo distance behind "did you mean" (headroom chek): edits, swaps, case, the cap. */
static void test_edit_distance(void)
{
    CHECK(hr_edit_distance("check", "check", 2) == 0);
    CHECK(hr_edit_distance("chek", "check", 2) == 1);
    CHECK(hr_edit_distance("plna", "plan", 2) == 1); /* two neighbours swapped: one edit */
    CHECK(hr_edit_distance("STATUS", "status", 2) == 0);
    CHECK(hr_edit_distance("", "plan", 9) == 4 && hr_edit_distance("plan", "", 9) == 4);
    CHECK(hr_edit_distance("xyz", "watch", 2) == 3);                           /* above the cap: cap + 1 */
    CHECK(hr_edit_distance("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a", 2) == 3); /* 33 bytes: not compared */
}

int main(void)
{
    test_edit_distance();
    test_hex_digit();
    test_parse_u64();
    test_parse_limit();
    test_text_helpers();
    test_meminfo();
    test_swaps();
    test_swaps_shown();
    test_mountinfo();
    test_proc_cgroup();
    test_safetensors_numel();
    return TEST_DONE();
}
