/* Fuzz recorded Windows answers end to end: JSON -> hr_win_raw -> snapshot -> both
 * renderers. Any input either loads or fails with a message; a loaded one always
 * converts and renders. */
#include "core/base/json_writer.h"
#include "core/status/status_render.h"
#include "core/model/win_model.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hr_snapshot snap;
    hr_error err = {0};
    int r = hr_win_replay((const char *)data, size, &snap, &err);
    if (r < 0 && r != HR_EPARTIAL) {
        if (err.msg[0] == '\0')
            abort();
        return 0;
    }
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render_opts ro = {.color = false};
    if (hr_status_text(&snap, &out, &ro) != 0)
        abort();
    hr_buf_reset(&out);
    hr_json_writer w;
    hr_json_init(&w, &out, false);
    hr_status_json(&snap, &w, NULL);
    if (hr_json_finish(&w) != 0)
        abort();
    hr_buf_free(&out);
    return 0;
}
