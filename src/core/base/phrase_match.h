/* headroom — many-phrase matcher (Aho–Corasick automaton, ASCII case-insensitive).
 *
 * The diagnosis looks for ~200 phrases in every line of logs that can be gigabytes long; one
 * pass over each byte with a table lookup finds all of them at once. Bytes are first mapped
 * to classes (one per distinct byte the phrases use, plus "other"), which keeps the
 * transition table small enough to stay in cache. Phrases are matched byte-wise, so UTF-8
 * phrases (Chinese) work as they are; A–Z fold to a–z. */
#ifndef HR_PHRASE_MATCH_H
#define HR_PHRASE_MATCH_H

#include "core/base/error.h"

#include <stddef.h>
#include <stdint.h>

#define HR_ACM_BUCKETS 1024

typedef struct hr_acm {
    size_t nstates;
    size_t nclasses;
    unsigned char cls[256];
    uint16_t *delta;     /* nstates * nclasses transitions */
    uint32_t *next;      /* the same, as the next state's row offset, bit 31 = term */
    unsigned char *term; /* a phrase ends at this state (itself or through a suffix) */
    int32_t *out;        /* phrase ending exactly here, or -1 */
    uint16_t *dict;      /* nearest proper suffix state with a phrase, 0 = none */
    uint16_t *depth;     /* length of the string this state stands for */
    /* The prefilter: start2[a | b << 8] is 1 when the bytes a, b (either case) begin a
     * phrase. Text without such a pair cannot hold the start of a phrase, so the scan skips
     * it without walking the automaton (see hr_acm_scan). NULL when a phrase is one byte. */
    unsigned char *start2;
    /* The fast search (hr_acm_find): bit sets of 65536 byte pairs, in either case. pair01
     * holds the pairs at offsets 0 and 1 of every phrase, pair0 those at offset 0. A phrase
     * of three bytes or more covers a pair of pair01 at an even offset of the text, so
     * checking every second byte finds every place where one can begin. NULL when a phrase
     * is shorter than three bytes (hr_acm_find then walks the automaton). */
    unsigned char *pair01;
    unsigned char *pair0;
    /* With them: a bit set of the phrases' first three bytes, hashed by their classes (so
     * in either case). A place whose three bytes are not in it begins no phrase, and the
     * automaton's table (far larger than the first-level cache) is not looked at for it. */
    unsigned char *start3;
    /* And to find the phrases that begin at such a place: all phrases in lower case, one
     * after the other (lower + poff[i]), and by the bucket of their first three bytes' hash
     * (h % HR_ACM_BUCKETS): bucket b's phrases are blist[bucket[b] .. bucket[b + 1]). */
    char *lower;
    uint32_t *poff;
    uint16_t *bucket;
    uint16_t *blist;
    unsigned char *len; /* each phrase's length in bytes */
    size_t nphrases;
    size_t maxlen; /* the longest phrase */
} hr_acm;

typedef struct hr_acm_hit {
    uint32_t phrase; /* index into the phrase list given to hr_acm_build */
    size_t end;      /* offset just past the match in the scanned text */
} hr_acm_hit;

/* Build from n phrases (non-empty, at most 255 bytes, no duplicates after case folding).
 * HR_EINVAL on a bad phrase list, HR_ENOMEM, HR_ERANGE past 65535 states. */
int hr_acm_build(hr_acm *m, const char *const *phrases, size_t n, hr_error *err);
void hr_acm_free(hr_acm *m);

/* Scan s[0..n) starting in *state (0 = fresh); record up to max hits, return how many hits
 * there were in all (may exceed max), leave the end state in *state so that a caller can
 * continue across a line break. A hit's end may be smaller than its phrase's length when
 * the match began in text scanned before (carried in through *state). */
size_t hr_acm_scan(const hr_acm *m, unsigned *state, const char *s, size_t n, hr_acm_hit *hits, size_t max);

/* The same hits, in the same order (by end, the longer phrase first at the same end), and
 * the same count as hr_acm_scan from state 0, without the end state: found by checking every
 * second byte for a pair a phrase begins with, and following the trie from there. */
size_t hr_acm_find(const hr_acm *m, const char *s, size_t n, hr_acm_hit *hits, size_t max);

/* The state hr_acm_scan would leave after s[0..n) from state 0: the automaton walked over
 * the last bytes only (as many as the longest phrase). */
unsigned hr_acm_end_state(const hr_acm *m, const char *s, size_t n);

#endif
