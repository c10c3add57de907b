/* Fuzz the watch/run recording reader and the report page drawn from it: no crash, no read
 * past the input, bounded memory (at most HR_REC_MAX_SAMPLES kept, fixed slots), a rejected
 * input has a one-line message, the same bytes read in two slices give the same recording
 * and answer, and an accepted one renders to a complete page in which no text from the input
 * became markup. */
#include "core/base/buf.h"
#include "core/base/render.h"
#include "core/report/report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hr_recording rec, rec2;
    static hr_rec_reader reader;
    hr_error err = {0}, err2 = {0};
    hr_rec_init(&rec);
    int rc = hr_rec_parse((const char *)data, size, &rec, &err);
    /* read in two slices, split where the input says: the same recording and answer */
    size_t cut = size ? (size_t)data[0] * size / 256 : 0;
    hr_rec_init(&rec2);
    hr_rec_reader_init(&reader, &rec2);
    int rc2 = hr_rec_feed(&reader, (const char *)data, cut, &err2);
    if (rc2 == 0)
        rc2 = hr_rec_feed(&reader, (const char *)data + cut, size - cut, &err2);
    if (rc2 == 0)
        rc2 = hr_rec_finish(&reader, &err2);
    if (rc2 != rc || strcmp(err.msg, err2.msg) != 0 || memcmp(&rec, &rec2, sizeof rec) != 0)
        abort();
    if (rc != 0) {
        if (!err.msg[0] || !memchr(err.msg, '\0', sizeof err.msg) || strchr(err.msg, '\n'))
            abort();
        return 0;
    }
    if (rec.nsamples > HR_REC_MAX_SAMPLES || rec.nwarnings > HR_REC_MAX_WARNINGS ||
        rec.nnodes > HR_REC_MAX_NODES || rec.nevidence > HR_REC_MAX_EVIDENCE)
        abort();
    hr_buf out;
    hr_buf_init(&out, 0);
    hr_render r;
    hr_render_init(&r, HR_FORMAT_HTML, &out, false);
    hr_report_render(&rec, "<fuzz>", &r);
    if (hr_render_finish(&r) != 0)
        abort();
    const char *s = hr_buf_str(&out);
    /* The page is ours from <!DOCTYPE to </html>; the only elements are the ones we write. */
    if (strncmp(s, "<!DOCTYPE html>", 15) != 0 || !strstr(s, "</html>\n") ||
        strstr(s, "<script") || strstr(s, "<fuzz>"))
        abort();
    hr_buf_free(&out);
    return 0;
}
