/* The stress report: a head before the first step, a line per step as it happens, an end;
 * or one JSON document (schema headroom.stress/1, docs/stress.md). */
#include "core/stress/stress.h"

#include "core/base/i18n.h"
#include "core/base/size.h"
#include "core/base/text.h"

#include <stdio.h>
#include <string.h>

static void sz(uint64_t v, char *out, size_t n)
{
    if (v == HR_UNKNOWN)
        snprintf(out, n, "%s", HR_T("unknown"));
    else
        hr_size_format(v, out, n);
}

void hr_stress_text_head(const hr_stress_report *r, hr_buf *out)
{
    const hr_stress_req *q = r->req;
    const hr_stress_gate *g = r->gate;
    char a[32], b[32], c[32];
    sz(q->commit_bytes, a, sizeof a);
    sz(g->step_bytes, b, sizeof b);
    hr_buf_printf(out, HR_T("headroom stress: commit %s in steps of %s"), a, b);
    if (q->touch)
        hr_buf_printf(out, ", %s", HR_T("touching every page"));
    if (q->cgroup_bytes) {
        sz(q->cgroup_bytes, c, sizeof c);
        hr_buf_printf(out,
                      r->os == HR_OS_WINDOWS ? HR_T(", inside a job limited to %s of commit")
                                             : HR_T(", inside a memory cgroup of %s"),
                      c);
    }
    hr_buf_puts(out, "\n");
    sz(g->charge_bytes, a, sizeof a);
    sz(g->limit_bytes, b, sizeof b);
    hr_buf_printf(out, HR_T("before: commit charge %s of the commit limit %s (%s)\n"), a, b,
                  g->enforced ? HR_T("enforced: allocations fail at the limit")
                              : HR_T("not enforced: past RAM + swap the OOM killer acts"));
    switch (g->why_kind) {
    case HR_STRESS_WHY_NOT_ENFORCED:
        hr_buf_printf(out, "%s\n",
                      HR_T("note: Linux does not refuse commit in overcommit mode 0 or 1: this only "
                           "raises the commit charge. Add --touch (best inside --cgroup SIZE) to "
                           "make the memory real."));
        break;
    case HR_STRESS_WHY_UNKNOWN:
        hr_buf_printf(out, "%s\n",
                      HR_T("the commit charge and limit (or available RAM and swap) could not be "
                           "read, so no safety margin can be kept; --force goes on anyway"));
        break;
    case HR_STRESS_WHY_TOO_BIG:
        sz(g->want_bytes, a, sizeof a);
        sz(g->safe_bytes, b, sizeof b);
        sz(g->margin_bytes, c, sizeof c);
        hr_buf_printf(out,
                      HR_T("%s is more than the %s this machine can give without going under the "
                           "%s safety margin [X.margin]; --force goes on to the first "
                           "failure\n"),
                      a, b, c);
        break;
    case HR_STRESS_WHY_NONE:
        if (g->safe_bytes != HR_UNKNOWN) {
            sz(g->safe_bytes, a, sizeof a);
            sz(g->margin_bytes, b, sizeof b);
            hr_buf_printf(out,
                          HR_T("safe without --force: up to %s (a %s margin is kept) "
                               "[X.margin]\n"),
                          a, b);
        }
        break;
    }
    if (!g->allowed) {
        hr_buf_printf(out, "%s\n", HR_T("REFUSED: nothing was allocated."));
        return;
    }
    if (g->forced)
        hr_buf_printf(out, "%s\n", HR_T("--force: going on to the first failure."));
}

/* The steps' column heads, with the first step: a test that cannot start (no cgroup, no
 * job) shows no empty table. */
static void step_heads(const hr_stress_report *r, hr_buf *out)
{
    const hr_stress_req *q = r->req;
    hr_buf_printf(out, "\n  %4s  %10s  %23s%s\n", HR_T("step"), HR_T("committed"), HR_T("commit charge / limit"),
                  !q->cgroup_bytes         ? ""
                  : r->os == HR_OS_WINDOWS ? HR_T("   in the job")
                                           : HR_T("   in the cgroup"));
}

void hr_stress_text_step(const hr_stress_report *r, int i, hr_buf *out)
{
    const hr_stress_step *s = &r->res->steps[i];
    char a[32], b[32], c[32], d[32];
    if (i == 0)
        step_heads(r, out);
    sz(s->committed_bytes, a, sizeof a);
    sz(s->charge_bytes, b, sizeof b);
    sz(s->limit_bytes, c, sizeof c);
    if (s->cgroup_bytes != HR_UNKNOWN) {
        sz(s->cgroup_bytes, d, sizeof d);
        hr_buf_printf(out, "  %4d  %10s  %10s / %-10s   %s", i + 1, a, b, c, d);
    } else {
        hr_buf_printf(out, "  %4d  %10s  %10s / %s", i + 1, a, b, c);
    }
    hr_buf_putc(out, '\n');
}

void hr_stress_text_end(const hr_stress_report *r, hr_buf *out)
{
    const hr_stress_result *s = r->res;
    if (!s)
        return;
    char a[32], b[32];
    sz(s->reached_bytes, a, sizeof a);
    sz(s->failed_step_bytes, b, sizeof b);
    hr_buf_putc(out, '\n');
    switch (s->outcome) {
    case HR_STRESS_REFUSED: break;
    case HR_STRESS_REACHED:
        hr_buf_printf(out,
                      r->req->touch ? HR_T("REACHED %s: every step committed and touched.\n")
                                    : HR_T("REACHED %s: every step committed.\n"),
                      a);
        break;
    case HR_STRESS_ALLOC_FAILED:
        hr_buf_printf(out, HR_T("FAILED at step %d: after %s, the next %s could not be committed: %s\n"),
                      s->step_count + 1, a, b, s->failure);
        if (r->req->cgroup_bytes && r->os == HR_OS_WINDOWS) {
            sz(r->req->cgroup_bytes, b, sizeof b);
            hr_buf_printf(out,
                          HR_T("The job's commit limit of %s stopped it: that is the ceiling of the "
                               "smaller machine rehearsed, not this one's.\n"),
                          b);
        } else if (s->failed_step_bytes > ((uint64_t)1 << 30)) {
            /* one big mapping refused says only that the ceiling lies below it */
            char c[32];
            sz(hr_sat_add(s->reached_bytes, s->failed_step_bytes), c, sizeof c);
            hr_buf_printf(out,
                          HR_T("Only that %s step was refused: the ceiling now lies between %s and %s "
                               "more than what was in use before (a smaller --step narrows it).\n"),
                          b, a, c);
        } else {
            hr_buf_printf(out, HR_T("That is the ceiling now: %s more than what was in use before.\n"), a);
        }
        break;
    case HR_STRESS_KILLED:
        hr_buf_printf(out,
                      HR_T("KILLED at step %d: after %s, the process holding the memory was "
                           "ended (%s)%s.\n"),
                      s->step_count + 1, a, s->failure, s->oom_kill_seen ? HR_T(" by the OOM killer") : "");
        break;
    case HR_STRESS_ERROR: hr_buf_printf(out, HR_T("The test could not go on: %s\n"), s->failure); break;
    }
    if (s->cgroup_where[0])
        hr_buf_printf(out, HR_T("ran in %s (removed afterwards)\n"), s->cgroup_where);
    hr_buf_printf(out, "%s\n",
                  s->released ? HR_T("Everything was released.") : HR_T("WARNING: not everything could be released."));
}

static void json(const hr_stress_report *r, hr_json_writer *w)
{
    const hr_stress_req *q = r->req;
    const hr_stress_gate *g = r->gate;
    const hr_stress_result *s = r->res;
    hr_json_begin_object(w, NULL);
    hr_json_str(w, "schema", HR_STRESS_SCHEMA);
    hr_json_begin_object(w, "request");
    hr_json_u64(w, "commit_bytes", q->commit_bytes);
    hr_json_u64(w, "step_bytes", g->step_bytes);
    hr_json_bool(w, "touch", q->touch);
    hr_json_bool(w, "force", q->force);
    hr_json_size(w, "cgroup_bytes", q->cgroup_bytes ? q->cgroup_bytes : HR_UNKNOWN);
    hr_json_end_object(w);
    hr_json_begin_object(w, "gate");
    hr_json_bool(w, "allowed", g->allowed);
    hr_json_bool(w, "forced", g->forced);
    hr_json_bool(w, "enforced", g->enforced);
    hr_json_size(w, "charge_bytes", g->charge_bytes);
    hr_json_size(w, "limit_bytes", g->limit_bytes);
    hr_json_size(w, "safe_bytes", g->safe_bytes);
    hr_json_u64(w, "margin_bytes", g->margin_bytes);
    /* JSON is English whatever the user's language */
    char basis[400], why[600];
    hr_msg_format(&g->basis, HR_LANG_EN, basis, sizeof basis);
    hr_msg_format(&g->why, HR_LANG_EN, why, sizeof why);
    hr_json_str(w, "basis", basis[0] ? basis : NULL);
    hr_json_str(w, "reason", why[0] ? why : NULL);
    hr_json_end_object(w);
    hr_json_str(w, "outcome", hr_stress_outcome_name(s ? s->outcome : HR_STRESS_REFUSED));
    hr_json_u64(w, "reached_bytes", s ? s->reached_bytes : 0);
    hr_json_size(w, "failed_step_bytes", s && s->failed_step_bytes ? s->failed_step_bytes : HR_UNKNOWN);
    hr_json_str(w, "failure", s && s->failure[0] ? s->failure : NULL);
    hr_json_bool(w, "oom_kill_seen", s && s->oom_kill_seen);
    hr_json_bool(w, "released", s ? s->released : true);
    hr_json_str(w, "cgroup", s && s->cgroup_where[0] ? s->cgroup_where : NULL);
    hr_json_begin_array(w, "steps");
    for (int i = 0; s && i < s->step_count && i < HR_STRESS_MAX_STEPS; i++) {
        const hr_stress_step *t = &s->steps[i];
        hr_json_begin_object(w, NULL);
        hr_json_u64(w, "committed_bytes", t->committed_bytes);
        hr_json_size(w, "charge_bytes", t->charge_bytes);
        hr_json_size(w, "limit_bytes", t->limit_bytes);
        hr_json_size(w, "cgroup_bytes", t->cgroup_bytes);
        hr_json_end_object(w);
    }
    hr_json_end_array(w);
    hr_json_end_object(w);
}

void hr_stress_render(const hr_stress_report *rep, hr_render *r)
{
    switch (r->format) {
    case HR_FORMAT_TEXT:
        hr_stress_text_head(rep, r->out);
        for (int i = 0; rep->res && i < rep->res->step_count; i++)
            hr_stress_text_step(rep, i, r->out);
        hr_stress_text_end(rep, r->out);
        break;
    case HR_FORMAT_JSON: json(rep, &r->json); break;
    case HR_FORMAT_HTML:
    case HR_FORMAT_PROMETHEUS: hr_render_unsupported(r); break;
    }
}
