/* A tqdm progress bar's redraw: the bytes it is made of (see diag_bars.h). */
#include "core/diagnose/diag_bars.h"

#include "core/diagnose/diag_rules.h"
#include "core/diagnose/diag_text.h"

#include <string.h>

/* The bytes of a tqdm bar: ASCII but letters, the i, t, s of it/s and s/it, and the UTF-8
 * bytes of the block characters ▏..█ (U+2588..U+258F: E2 96 88..8F). */
void hr_diag_bar_setup(hr_diag_ctx *c)
{
    memset(c->bar_bytes, 0, sizeof c->bar_bytes);
    /* every ASCII byte but the letters (digits, blank, punctuation: hr_diag_bar_redraw tests them
     * eight at a time; the decoder leaves no control byte in a segment), the i, t, s of the
     * bar phrases, and the block characters */
    for (unsigned b = 0; b < 0x80; b++)
        c->bar_bytes[b] = !((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    for (const char *p = "its"; *p; p++)
        c->bar_bytes[(unsigned char)*p] = 1;
    c->bar_bytes[0xe2] = c->bar_bytes[0x96] = 1;
    for (unsigned b = 0x88; b <= 0x8f; b++)
        c->bar_bytes[b] = 1;
    c->bar_rule[0] = c->bar_rule[1] = -1;
    bool other = false;
    for (size_t i = 0; i < hr_diag_nrules; i++) {
        const hr_diag_rule *r = &hr_diag_rules[i];
        if (strcmp(r->phrase, "it/s]") == 0 || strcmp(r->phrase, "s/it]") == 0) {
            c->bar_rule[r->phrase[0] == 's'] = (int)i;
            continue;
        }
        /* could this phrase be matched (case-insensitively) in text of bar bytes only? */
        bool spelled = true;
        for (const char *p = r->phrase; *p && spelled; p++) {
            unsigned char ch = hr_diag_lower((unsigned char)*p);
            spelled = c->bar_bytes[ch] || (ch >= 'a' && ch <= 'z' && c->bar_bytes[ch - 32]);
        }
        other |= spelled;
    }
    if (other || c->bar_rule[0] < 0 || c->bar_rule[1] < 0 || hr_diag_rules[c->bar_rule[0]].kind != HR_RK_BUSY ||
        hr_diag_rules[c->bar_rule[1]].kind != HR_RK_BUSY || hr_diag_rules[c->bar_rule[0]].flags != HR_RF_IN_BEFORE ||
        hr_diag_rules[c->bar_rule[1]].flags != HR_RF_IN_BEFORE)
        c->bar_rule[0] = c->bar_rule[1] = -1;
}
