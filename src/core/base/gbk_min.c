#include "core/base/gbk_min.h"

#include <stddef.h>

/* Sorted by GBK code. Only the characters of the phrases in diag_rules.c (and the
 * punctuation around them); see the header. */
static const struct {
    uint16_t gbk;
    uint16_t ucs;
} map[] = {
    {0xA1A3, 0x3002}, /* 。 */
    {0xA3AC, 0xFF0C}, /* ， */
    {0xB0B4, 0x6309}, /* 按 */
    {0xB2BB, 0x4E0D}, /* 不 */
    {0xB2D9, 0x64CD}, /* 操 */
    {0xB3C9, 0x6210}, /* 成 */
    {0xB3CC, 0x7A0B}, /* 程 */
    {0xB3F6, 0x51FA}, /* 出 */
    {0xB4A2, 0x50A8}, /* 储 */
    {0xB4A6, 0x5904}, /* 处 */
    {0xB4CB, 0x6B64}, /* 此 */
    {0xB4E6, 0x5B58}, /* 存 */
    {0xB4ED, 0x9519}, /* 错 */
    {0xB5C4, 0x7684}, /* 的 */
    {0xB5CD, 0x4F4E}, /* 低 */
    {0xB6CE, 0x6BB5}, /* 段 */
    {0xB7A8, 0x6CD5}, /* 法 */
    {0xB7D6, 0x5206}, /* 分 */
    {0xBBFA, 0x673A}, /* 机 */
    {0xBCC6, 0x8BA1}, /* 计 */
    {0xBCCC, 0x7EE7}, /* 继 */
    {0xBCE4, 0x95F4}, /* 间 */
    {0xBCFC, 0x952E}, /* 键 */
    {0xBCFE, 0x4EF6}, /* 件 */
    {0xBDF8, 0x8FDB}, /* 进 */
    {0xBFD5, 0x7A7A}, /* 空 */
    {0xC0ED, 0x7406}, /* 理 */
    {0xC1CB, 0x4E86}, /* 了 */
    {0xC1EE, 0x4EE4}, /* 令 */
    {0xC2F0, 0x5417}, /* 吗 */
    {0xC3E6, 0x9762}, /* 面 */
    {0xC3FC, 0x547D}, /* 命 */
    {0xC4DA, 0x5185}, /* 内 */
    {0xC4E2, 0x62DF}, /* 拟 */
    {0xC4E3, 0x4F60}, /* 你 */
    {0xC4FA, 0x60A8}, /* 您 */
    {0xC5E4, 0x914D}, /* 配 */
    {0xC5FA, 0x6279}, /* 批 */
    {0xC7EB, 0x8BF7}, /* 请 */
    {0xC8CE, 0x4EFB}, /* 任 */
    {0xC9B1, 0x6740}, /* 杀 */
    {0xCBC0, 0x6B7B}, /* 死 */
    {0xCBE3, 0x7B97}, /* 算 */
    {0xCCAB, 0x592A}, /* 太 */
    {0xCDEA, 0x5B8C}, /* 完 */
    {0xCEC4, 0x6587}, /* 文 */
    {0xCEDE, 0x65E0}, /* 无 */
    {0xCEF3, 0x8BEF}, /* 误 */
    {0xCFD4, 0x663E}, /* 显 */
    {0xCFD6, 0x73B0}, /* 现 */
    {0xD0A1, 0x5C0F}, /* 小 */
    {0xD0E9, 0x865A}, /* 虚 */
    {0xD0F2, 0x5E8F}, /* 序 */
    {0xD0F8, 0x7EED}, /* 续 */
    {0xD2B3, 0x9875}, /* 页 */
    {0xD2D1, 0x5DF2}, /* 已 */
    {0xD2E2, 0x610F}, /* 意 */
    {0xD3C3, 0x7528}, /* 用 */
    {0xD6B9, 0x6B62}, /* 止 */
    {0xD6D5, 0x7EC8}, /* 终 */
    {0xD7E3, 0x8DB3}, /* 足 */
    {0xD7F7, 0x4F5C}, /* 作 */
};

uint32_t hr_gbk_min_lookup(unsigned lead, unsigned trail)
{
    unsigned code = (lead & 0xffu) << 8 | (trail & 0xffu);
    size_t lo = 0, hi = sizeof map / sizeof map[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (map[mid].gbk == code)
            return map[mid].ucs;
        if (map[mid].gbk < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0xFFFD;
}
