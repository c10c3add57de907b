/* Fuzz what a ComfyUI server (or anything on its port) sends watch --comfyui: the answers of
 * /system_stats, /queue and /history/<id>, and websocket messages, each parsed from the same
 * bytes; then the attribution fed those events. No crash, strings always terminated and
 * one line, counts inside their arrays. */
#include "core/watch/comfy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const char *s, size_t cap)
{
    if (memchr(s, '\0', cap) == NULL)
        abort();
    for (; *s; s++)
        if ((unsigned char)*s < 0x20)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *t = (const char *)data;
    hr_error err = {0};
    hr_comfy_stats st;
    if (hr_comfy_parse_stats(t, size, &st, &err) == 0) {
        if (st.ndev < 0 || st.ndev > HR_COMFY_DEVICES_MAX)
            abort();
        one_line(st.version, sizeof st.version);
        for (int i = 0; i < st.ndev; i++)
            one_line(st.dev[i].name, sizeof st.dev[i].name);
    }
    static hr_comfy_queue q;
    if (hr_comfy_parse_queue(t, size, &q, &err) == 0) {
        if (q.n_nodes > HR_COMFY_NODES_MAX)
            abort();
        one_line(q.prompt_id, sizeof q.prompt_id);
        for (size_t i = 0; i < q.n_nodes; i++)
            one_line(q.nodes[i].class_type, sizeof q.nodes[i].class_type);
    }
    hr_comfy_history h;
    if (hr_comfy_parse_history(t, size, q.prompt_id[0] ? q.prompt_id : "p", &h, &err) == 0)
        one_line(h.exception, sizeof h.exception);
    hr_comfy_msg m;
    hr_wsample s;
    hr_wsample_init(&s);
    s.t_ms = 1000;
    s.ram_used = 1 << 30;
    hr_comfy_track tr;
    hr_comfy_track_init(&tr);
    hr_comfy_event ev[2];
    if (hr_comfy_parse_msg(t, size, &m, &err) == 0) {
        one_line(m.node, sizeof m.node);
        one_line(m.type_name, sizeof m.type_name);
        int k = hr_comfy_prompt_start(&tr, &s, m.prompt_id[0] ? m.prompt_id : "p", "websocket", ev);
        k += hr_comfy_node_start(&tr, &s, m.prompt_id, m.node, m.node_type, "websocket", ev);
        s.t_ms += 500;
        s.ram_used += 4096;
        k += hr_comfy_prompt_end(&tr, &s, m.prompt_id, "websocket", m.exception, ev);
        char text[400];
        hr_comfy_event_text(&ev[0], text, sizeof text);
        hr_buf b;
        hr_buf_init(&b, 1 << 16);
        hr_rec_node_line(&b, 0, s.t_ms, 0, &ev[0]);
        hr_buf_free(&b);
        (void)k;
    }
    /* console lines */
    hr_comfy_track_init(&tr);
    (void)hr_comfy_console(&tr, &s, t, size, ev);
    (void)hr_comfy_console(&tr, &s, "loaded partially 1 2 3", 22, ev);
    return 0;
}
