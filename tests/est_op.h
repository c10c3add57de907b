/* The estimate tests' one way to add a workflow step to an input: an op of a kind, on up to
 * two models (-1: none), with its latent's geometry; "Tiled" in the class makes it tiled. */
#ifndef HR_TEST_EST_OP_H
#define HR_TEST_EST_OP_H

#include "test.h"

#include "core/estimate/estimate.h"

#include <stdio.h>
#include <string.h>

static inline void hr_test_add_op(hr_est_input *in, const char *id, const char *type, hr_est_op_kind kind, int m0,
                                  int m1, uint32_t w, uint32_t h, uint32_t frames, uint32_t batch, bool cfg)
{
    hr_est_op o;
    memset(&o, 0, sizeof o);
    snprintf(o.node_id, sizeof o.node_id, "%s", id);
    snprintf(o.class_type, sizeof o.class_type, "%s", type);
    o.kind = kind;
    if (m0 >= 0)
        o.models[o.model_count++] = m0;
    if (m1 >= 0)
        o.models[o.model_count++] = m1;
    o.geom.width = w, o.geom.height = h, o.geom.frames = frames, o.geom.batch = batch;
    o.cfg = cfg;
    o.tiled = strstr(type, "Tiled") != NULL;
    CHECK(hr_est_add_op(in, &o) >= 0);
}

#endif
