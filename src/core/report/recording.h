/* headroom — reading a watch/run recording (docs/recording.md, "headroom.recording/1").
 *
 * A recording is outside data: a file the user hands to `headroom report`, possibly cut
 * short by the death it recorded, possibly edited or hostile. The reader is bounded: lines
 * are at most HR_REC_MAX_LINE bytes and parsed one at a time by the strict JSON parser with
 * small limits; the samples kept are at most HR_REC_MAX_SAMPLES (a longer recording is
 * thinned by merging neighbours, keeping each one's highest values, so a peak is never lost);
 * warnings, node markers and evidence have fixed slots, the rest is counted. Unknown line
 * types and unknown keys are skipped (the format grows by adding). A line that is not JSON,
 * or a known key with the wrong type, is an error naming the line, except a last line
 * without its newline: that is where the recording was cut short, and it is dropped. */
#ifndef HR_RECORDING_H
#define HR_RECORDING_H

#include "core/base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_REC_SCHEMA       "headroom.recording/1"
#define HR_REC_MAX_LINE     ((size_t)64 << 10)
#define HR_REC_MAX_SAMPLES  2048
#define HR_REC_MAX_WARNINGS 64
#define HR_REC_MAX_NODES    256
#define HR_REC_MAX_EVIDENCE 8
#define HR_REC_TEXT         240

/* The series of a sample, in this order; a value the OS did not give is NaN. */
typedef enum hr_rec_field {
    HR_RF_RAM_TOTAL = 0,
    HR_RF_RAM_USED,
    HR_RF_RAM_AVAILABLE,
    HR_RF_SWAP_TOTAL,
    HR_RF_SWAP_USED,
    HR_RF_COMMIT,
    HR_RF_COMMIT_LIMIT,
    HR_RF_CGROUP_CURRENT,
    HR_RF_CGROUP_MAX,
    HR_RF_PAGES_IN,
    HR_RF_PAGES_OUT,
    HR_RF_PSI_SOME,
    HR_RF_PSI_FULL,
    HR_RF_DISK_BUSY,
    HR_RF_PROC_RSS,
    HR_RF_PROC_SWAP,
    HR_RF_VRAM_USED,
    HR_RF_VRAM_TOTAL,
    HR_RF_COUNT
} hr_rec_field;

/* The JSON key of a field ("ram_used"). */
const char *hr_rec_field_key(hr_rec_field f);

typedef struct hr_rec_sample {
    double t_ms;
    double v[HR_RF_COUNT];
} hr_rec_sample;

typedef struct hr_rec_warning {
    double t_ms;
    char rule[24];
    char level[12];
    char message[HR_REC_TEXT];  /* English, as watch wrote it */
    double value, limit, eta_s; /* NaN: not given */
    double disk_busy_pct, psi_full_avg10;
    char limit_name[16]; /* "commit", "RAM + swap", "cgroup"; "" not given */
} hr_rec_warning;

typedef struct hr_rec_node {
    double t_ms;
    char event[16]; /* start, end, prompt-start, prompt-end, model-load */
    char node[24];
    char class_type[64];
    double ram_growth; /* end: NaN when not given */
    double peak_rss;
} hr_rec_node;

typedef struct hr_rec_evidence {
    char source[64];
    char text[HR_REC_TEXT];
} hr_rec_evidence;

typedef struct hr_recording {
    /* header */
    char version[24];
    char os[12];       /* linux, windows */
    char mode[12];     /* watch, run */
    double started_ms; /* Unix ms; NaN when not given */
    double interval_ms;
    char command[256]; /* run: the child's argv joined by spaces */
    /* samples: at most HR_REC_MAX_SAMPLES; each kept sample stands for `stride` recorded ones */
    size_t nsamples;
    size_t stride;
    size_t pending; /* recorded samples merged into the last kept one */
    uint64_t samples_seen;
    hr_rec_sample samples[HR_REC_MAX_SAMPLES];
    size_t nwarnings;
    uint64_t warnings_seen;
    hr_rec_warning warnings[HR_REC_MAX_WARNINGS];
    size_t nnodes;
    uint64_t nodes_seen;
    hr_rec_node nodes[HR_REC_MAX_NODES];
    uint64_t actions_seen;
    /* exit (run) */
    bool have_exit;
    double exit_code; /* NaN: killed by a signal */
    double exit_signal;
    double cgroup_oom_kill;
    /* the last line: verdict (run) or end (watch) */
    bool have_verdict;
    char cause[24];
    char confidence[12];
    size_t nevidence;
    hr_rec_evidence evidence[HR_REC_MAX_EVIDENCE];
    double peak[HR_RF_COUNT]; /* from the verdict's / end's "peaks"; NaN when not given */
    char end_node[64];        /* class_type running at the end */
    bool warned_before;
    double commit_needed; /* advice; NaN */
    char advice[480];
    bool have_end;
    bool truncated; /* no verdict / end line: the recording was cut short */
    bool cut_line;  /* the last line had no newline and was dropped */
    uint64_t lines;
    uint64_t skipped; /* lines of a type this reader does not know */
} hr_recording;

void hr_rec_init(hr_recording *r);

/* A recording read in pieces of any size, so that one of any length costs the same memory:
 * r (its samples thinned as they come) and one line. hr_rec_feed the bytes in order, then
 * hr_rec_finish once. Each returns 0, or HR_EPARSE / HR_ETOOBIG with err saying "line N: ..."
 * (the caller adds the file name); after an error the reader takes nothing more, and r holds
 * what was read before it. */
typedef struct hr_rec_reader {
    hr_recording *r;
    char line[HR_REC_MAX_LINE + 1]; /* the line being read: no longer line is parsed */
    size_t n;                       /* its bytes so far (counted past what line holds) */
    bool blank, blank_but_last;     /* only spaces and tabs so far (before the last byte) */
    char last;
    bool done;
    int rc;
} hr_rec_reader;

void hr_rec_reader_init(hr_rec_reader *rd, hr_recording *r);
int hr_rec_feed(hr_rec_reader *rd, const char *data, size_t len, hr_error *err);
int hr_rec_finish(hr_rec_reader *rd, hr_error *err);

/* Read a whole recording in data[0..len) (feed and finish). */
int hr_rec_parse(const char *data, size_t len, hr_recording *r, hr_error *err);

/* The largest value of a field in the samples (NaN when never given). */
double hr_rec_max(const hr_recording *r, hr_rec_field f);

#endif
