/* Fuzz /proc/pressure/memory parsing: no crash, no read past the input; an accepted line has
 * averages within 0-100.00 %, a rejected input has a message. */
#include "core/model/psi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hr_psi_line some, full;
    hr_error err = {0};
    if (hr_parse_psi((const char *)data, size, "/proc/pressure/memory", &some, &full, &err) != 0) {
        if (!err.msg[0] || !memchr(err.msg, '\0', sizeof err.msg))
            abort();
        return 0;
    }
    const hr_psi_line *l[2] = {&some, &full};
    if (!some.present && !full.present)
        abort();
    for (int i = 0; i < 2; i++)
        if (l[i]->present && (l[i]->avg10_centi > 10000 || l[i]->avg60_centi > 10000 ||
                              l[i]->avg300_centi > 10000))
            abort();
    return 0;
}
