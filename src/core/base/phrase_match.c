#include "core/base/phrase_match.h"

#include "core/base/i18n.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ABSENT    0xffffu
/* An entry of the scan's table: the next state's row offset, and two flags. */
#define NEXT_TERM 0x80000000u /* a phrase ends at the next state */
#define NEXT_DEEP 0x40000000u /* the next state stands for two bytes or more */
#define NEXT_GOTO 0x20000000u /* a trie edge: the next state is this one's string + the byte */
#define NEXT_OUT  0x10000000u /* a phrase is exactly the next state's string */
#define NEXT_OFF  0x00ffffffu /* row offsets stay below 65535 states * 255 classes < 2^24 */

static unsigned char fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

void hr_acm_free(hr_acm *m)
{
    free(m->delta);
    free(m->next);
    free(m->term);
    free(m->out);
    free(m->dict);
    free(m->depth);
    free(m->start2);
    free(m->pair01);
    free(m->pair0);
    free(m->start3);
    free(m->lower);
    free(m->poff);
    free(m->bucket);
    free(m->blist);
    free(m->len);
    memset(m, 0, sizeof *m);
}

/* A hash of the three bytes at p[j] by their classes (the same in either case). */
#define TRIPLE(cls, p, j)                                                                                              \
    ((((unsigned)(cls)[(p)[j]] * 61u + (cls)[(p)[(j) + 1]]) * 61u + (cls)[(p)[(j) + 2]]) & 0xffffu)

int hr_acm_build(hr_acm *m, const char *const *phrases, size_t n, hr_error *err)
{
    memset(m, 0, sizeof *m);
    size_t total = 1;
    m->nclasses = 1; /* class 0: bytes no phrase uses */
    m->nphrases = n;
    m->len = malloc(n ? n : 1);
    if (!m->len)
        return hr_error_set(err, HR_ENOMEM, HR_T("phrase matcher: out of memory"));
    bool long3 = true;
    for (size_t i = 0; i < n; i++) {
        size_t len = phrases[i] ? strlen(phrases[i]) : 0;
        if (len == 0 || len > 255) {
            hr_acm_free(m);
            return hr_error_set(err, HR_EINVAL, HR_T("phrase %u: empty or longer than 255 bytes"), (unsigned)i);
        }
        m->len[i] = (unsigned char)len;
        if (len > m->maxlen)
            m->maxlen = len;
        long3 &= len >= 3;
        total += len;
        for (size_t k = 0; k < len; k++) {
            unsigned char c = fold((unsigned char)phrases[i][k]);
            if (m->cls[c] == 0)
                m->cls[c] = (unsigned char)m->nclasses++;
            if (m->nclasses > 255) {
                hr_acm_free(m);
                return hr_error_set(err, HR_ERANGE, HR_T("phrases use more than 254 distinct bytes"));
            }
        }
    }
    for (unsigned c = 'A'; c <= 'Z'; c++)
        m->cls[c] = m->cls[c + 32];
    if (total >= ABSENT) {
        hr_acm_free(m);
        return hr_error_set(err, HR_ERANGE, HR_T("phrases need more than 65534 states"));
    }
    /* hr_acm_find's pair sets: 8 KiB each, they stay in the first-level cache */
    if (long3) {
        m->pair01 = calloc(8192, 1);
        m->pair0 = calloc(8192, 1);
        m->start3 = calloc(8192, 1);
        m->lower = malloc(total);
        m->poff = malloc(n * sizeof *m->poff);
        m->bucket = calloc(HR_ACM_BUCKETS + 1, sizeof *m->bucket);
        m->blist = malloc(n * sizeof *m->blist);
        if (!m->pair01 || !m->pair0 || !m->start3 || !m->lower || !m->poff || !m->bucket || !m->blist) {
            hr_acm_free(m);
            return hr_error_set(err, HR_ENOMEM, HR_T("phrase matcher: out of memory"));
        }
        /* the phrases in lower case, one after the other, listed by the bucket of their
         * first three bytes (a counting sort: bucket[b] is where bucket b's list begins) */
        for (size_t i = 0, o = 0; i < n; i++) {
            m->poff[i] = (uint32_t)o;
            for (size_t k = 0; k < m->len[i]; k++)
                m->lower[o++] = (char)fold((unsigned char)phrases[i][k]);
            unsigned h = TRIPLE(m->cls, (const unsigned char *)phrases[i], 0);
            m->bucket[h % HR_ACM_BUCKETS + 1]++;
        }
        for (size_t b = 0; b < HR_ACM_BUCKETS; b++)
            m->bucket[b + 1] += m->bucket[b];
        for (size_t i = 0; i < n; i++) {
            unsigned h = TRIPLE(m->cls, (const unsigned char *)phrases[i], 0);
            m->blist[m->bucket[h % HR_ACM_BUCKETS]++] = (uint16_t)i;
        }
        for (size_t b = HR_ACM_BUCKETS; b > 0; b--) /* back to where each list begins */
            m->bucket[b] = m->bucket[b - 1];
        m->bucket[0] = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned h = TRIPLE(m->cls, (const unsigned char *)phrases[i], 0);
            m->start3[h >> 3] |= (unsigned char)(1u << (h & 7));
            for (unsigned o = 0; o < 2; o++) {
                unsigned a = fold((unsigned char)phrases[i][o]);
                unsigned b = fold((unsigned char)phrases[i][o + 1]);
                unsigned au = a >= 'a' && a <= 'z' ? a - 32 : a, bu = b >= 'a' && b <= 'z' ? b - 32 : b;
                unsigned x[4] = { a | b << 8, au | b << 8, a | bu << 8, au | bu << 8 };
                for (unsigned k = 0; k < 4; k++) {
                    m->pair01[x[k] >> 3] |= (unsigned char)(1u << (x[k] & 7));
                    if (o == 0)
                        m->pair0[x[k] >> 3] |= (unsigned char)(1u << (x[k] & 7));
                }
            }
        }
    }
    /* The prefilter's pairs: the first two bytes of each phrase, in either case. */
    bool pairs = true;
    for (size_t i = 0; i < n; i++)
        pairs &= phrases[i][1] != '\0';
    m->start2 = pairs ? calloc(65536, 1) : NULL;
    if (pairs && !m->start2) {
        hr_acm_free(m);
        return hr_error_set(err, HR_ENOMEM, HR_T("phrase matcher: out of memory"));
    }
    for (size_t i = 0; pairs && i < n; i++) {
        unsigned a = fold((unsigned char)phrases[i][0]), b = fold((unsigned char)phrases[i][1]);
        unsigned au = a >= 'a' && a <= 'z' ? a - 32 : a, bu = b >= 'a' && b <= 'z' ? b - 32 : b;
        m->start2[a | b << 8] = m->start2[au | b << 8] = 1;
        m->start2[a | bu << 8] = m->start2[au | bu << 8] = 1;
    }

    size_t nc = m->nclasses;
    m->delta = malloc(total * nc * sizeof *m->delta);
    m->term = calloc(total, 1);
    m->out = malloc(total * sizeof *m->out);
    m->dict = calloc(total, sizeof *m->dict);
    m->depth = calloc(total, sizeof *m->depth);
    uint16_t *fail = calloc(total, sizeof *fail);
    uint16_t *queue = malloc(total * sizeof *queue);
    if (!m->delta || !m->term || !m->out || !m->dict || !m->depth || !fail || !queue) {
        free(fail);
        free(queue);
        hr_acm_free(m);
        return hr_error_set(err, HR_ENOMEM, HR_T("phrase matcher: out of memory"));
    }
    for (size_t i = 0; i < total * nc; i++)
        m->delta[i] = ABSENT;
    for (size_t i = 0; i < total; i++)
        m->out[i] = -1;

    /* The trie. */
    m->nstates = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned s = 0;
        for (const char *p = phrases[i]; *p; p++) {
            unsigned c = m->cls[fold((unsigned char)*p)];
            if (m->delta[s * nc + c] == ABSENT) {
                m->depth[m->nstates] = (uint16_t)(m->depth[s] + 1);
                m->delta[s * nc + c] = (uint16_t)m->nstates++;
            }
            s = m->delta[s * nc + c];
        }
        if (m->out[s] >= 0) {
            free(fail);
            free(queue);
            hr_acm_free(m);
            return hr_error_set(err, HR_EINVAL, HR_T("phrase %u '%s' is a duplicate"), (unsigned)i, phrases[i]);
        }
        m->out[s] = (int32_t)i;
    }

    /* Breadth first: failure links, suffix-output links, and the missing transitions filled
     * in so that scanning is one lookup per byte. A state's own trie edges are exactly the
     * entries still present when it is taken from the queue. */
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        unsigned s = queue[head++];
        for (size_t c = 0; c < nc; c++) {
            uint16_t t = m->delta[s * nc + c];
            if (t != ABSENT) {
                unsigned f = s == 0 ? 0 : m->delta[fail[s] * nc + c];
                fail[t] = (uint16_t)f;
                m->dict[t] = m->out[f] >= 0 ? (uint16_t)f : m->dict[f];
                m->term[t] = m->out[t] >= 0 || m->dict[t] != 0;
                queue[tail++] = t;
            } else {
                m->delta[s * nc + c] = s == 0 ? 0 : m->delta[fail[s] * nc + c];
            }
        }
    }
    free(fail);
    free(queue);
    /* The scan's table: row offsets instead of state numbers (no multiply per byte) and
     * the "a phrase ends here" flag in the top bit (no second load per byte). */
    m->next = malloc(m->nstates * nc * sizeof *m->next);
    if (!m->next) {
        hr_acm_free(m);
        return hr_error_set(err, HR_ENOMEM, HR_T("phrase matcher: out of memory"));
    }
    /* state by state (no division per entry: this runs at every start) */
    for (size_t st = 0, i = 0; st < m->nstates; st++) {
        unsigned goto_depth = m->depth[st] + 1u;
        for (size_t c = 0; c < nc; c++, i++) {
            uint32_t t = m->delta[i];
            m->next[i] = (uint32_t)(t * nc) | (m->term[t] ? NEXT_TERM : 0) | (m->depth[t] >= 2 ? NEXT_DEEP : 0) |
                         (m->depth[t] == goto_depth ? NEXT_GOTO : 0) | (m->out[t] >= 0 ? NEXT_OUT : 0);
        }
    }
    return 0;
}

#define PAIR(p, j) ((unsigned)(p)[j] | (unsigned)(p)[(j) + 1] << 8)

/* The state after a byte depends only on the bytes since the longest phrase prefix that ends
 * there began. While the automaton is in the root or a one-byte state ("shallow"), the next
 * state can become deep (two bytes or more, the only states where phrases end) only at a
 * byte pair that begins a phrase: so the scan looks for such pairs with the prefilter table,
 * one independent lookup per byte, and walks the automaton only from there until it is
 * shallow again. At any byte j the prefilter passes over, the state is the root's transition
 * on p[j], so the hits and the end state are exactly those of walking every byte. */
size_t hr_acm_scan(const hr_acm *m, unsigned *state, const char *s, size_t n, hr_acm_hit *hits, size_t max)
{
    const uint32_t *next = m->next;
    const unsigned char *cls = m->cls;
    const unsigned char *start2 = m->start2;
    const unsigned char *p = (const unsigned char *)s;
    size_t nc = m->nclasses, found = 0, i = 0;
    uint32_t off = (uint32_t)(*state * nc);
    /* a state carried in is stepped at least once: its bytes are not in s */
    bool deep = *state != 0 || !start2;
    while (i < n) {
        if (!deep) {
            /* the state after p[i-1] is shallow (or i == 0 and the state is the root) */
            size_t j = i ? i - 1 : 0;
            /* eight pairs at a time, one branch */
            while (j + 9 <= n &&
                   !(start2[PAIR(p, j)] | start2[PAIR(p, j + 1)] | start2[PAIR(p, j + 2)] | start2[PAIR(p, j + 3)] |
                     start2[PAIR(p, j + 4)] | start2[PAIR(p, j + 5)] | start2[PAIR(p, j + 6)] | start2[PAIR(p, j + 7)]))
                j += 8;
            while (j + 1 < n && !start2[PAIR(p, j)])
                j++;
            off = next[cls[p[j]]] & NEXT_OFF;
            if (j + 1 >= n)
                break;
            i = j + 1;
        }
        uint32_t v = next[off + cls[p[i]]];
        off = v & NEXT_OFF;
        deep = (v & NEXT_DEEP) != 0 || !start2;
        if (v & NEXT_TERM) {
            unsigned st = (unsigned)(off / nc);
            for (unsigned t = m->out[st] >= 0 ? st : m->dict[st]; t; t = m->dict[t]) {
                if (found < max) {
                    hits[found].phrase = (uint32_t)m->out[t];
                    hits[found].end = i + 1;
                }
                found++;
            }
        }
        i++;
    }
    *state = (unsigned)(off / nc);
    return found;
}

#define HAS(set, x) ((set)[(x) >> 3] >> ((x)&7) & 1u)

/* Does a phrase begin with p[0..len) (len >= 3, either case)? Those of the bucket of its first
 * three bytes are compared with it (walk_bucket). */
static bool begins_phrase(const hr_acm *m, const unsigned char *p, size_t len)
{
    unsigned h = TRIPLE(m->cls, p, 0);
    if (!(m->start3[h >> 3] >> (h & 7) & 1u))
        return false;
    for (unsigned b = m->bucket[h % HR_ACM_BUCKETS]; b < m->bucket[h % HR_ACM_BUCKETS + 1]; b++) {
        unsigned ph = m->blist[b];
        if (m->len[ph] < len)
            continue;
        const unsigned char *w = (const unsigned char *)m->lower + m->poff[ph];
        size_t k = 0;
        while (k < len && fold(p[k]) == w[k])
            k++;
        if (k == len)
            return true;
    }
    return false;
}

unsigned hr_acm_end_state(const hr_acm *m, const char *s, size_t n)
{
    /* The state stands for the longest suffix of the text that begins a phrase: it is no
     * longer than the longest phrase, so the bytes before do not change it. */
    if (n > m->maxlen) {
        s += n - m->maxlen;
        n = m->maxlen;
    }
    unsigned st = 0;
    if (!m->pair01) {
        hr_acm_scan(m, &st, s, n, NULL, 0);
        return st;
    }
    /* That suffix found directly, the longest first: most places fail the pair test (a bit
     * set of 8 KiB), and only the one found is walked in the automaton's large table. (Walking
     * it over every byte waited on that table most of the time.) */
    const unsigned char *p = (const unsigned char *)s;
    size_t j = 0;
    for (; j < n; j++) {
        size_t len = n - j;
        if (len >= 3   ? HAS(m->pair0, PAIR(p, j)) && begins_phrase(m, p + j, len)
            : len == 2 ? m->start2[PAIR(p, j)] != 0
                       : (m->next[m->cls[p[j]]] & NEXT_GOTO) != 0)
            break;
    }
    /* the trie's edges from the root along p[j..n) */
    uint32_t off = 0;
    for (; j < n; j++)
        off = m->next[off + m->cls[p[j]]] & NEXT_OFF;
    return (unsigned)(off / m->nclasses);
}

/* Keep the hit (phrase ph ending at end) among the first max of hr_acm_scan's order: by end,
 * the longer phrase first at the same end (two phrases of one length cannot end at one
 * place: they would be duplicates). hits[0..*kept) stays sorted. */
static void keep_hit(const hr_acm *m, hr_acm_hit *hits, size_t max, size_t *kept, uint32_t ph, size_t end)
{
    unsigned len = m->len[ph];
#define BEFORE(h) (end < (h).end || (end == (h).end && len > m->len[(h).phrase]))
    size_t k = *kept;
    if (k == max) {
        if (max == 0 || !BEFORE(hits[max - 1]))
            return;
        k = max - 1;
    } else {
        (*kept)++;
    }
    while (k > 0 && BEFORE(hits[k - 1])) {
        hits[k] = hits[k - 1];
        k--;
    }
#undef BEFORE
    hits[k].phrase = ph;
    hits[k].end = end;
}

/* Every phrase that begins at p[j], given that the hash h of its first three bytes is in
 * start3: those of the bucket of h, compared with the text. (Not the trie's edges from the
 * root: a step there is a load from a table far larger than the caches, and most of its time
 * was spent waiting for it; the phrases in lower case are a few KiB.) keep_hit orders the
 * hits, so the order they are found in does not matter. */
static size_t walk_bucket(const hr_acm *m, const unsigned char *p, size_t j, size_t n, unsigned h, hr_acm_hit *hits,
                          size_t max, size_t *kept)
{
    size_t found = 0;
    for (unsigned b = m->bucket[h % HR_ACM_BUCKETS]; b < m->bucket[h % HR_ACM_BUCKETS + 1]; b++) {
        unsigned ph = m->blist[b], len = m->len[ph];
        if (len > n - j)
            continue;
        const unsigned char *w = (const unsigned char *)m->lower + m->poff[ph];
        unsigned k = 0;
        while (k < len && fold(p[j + k]) == w[k])
            k++;
        if (k == len) {
            keep_hit(m, hits, max, kept, ph, j + len);
            found++;
        }
    }
    return found;
}

/* Every phrase that begins at p[j]: most places fail the three-byte test here, inline, with
 * no call. */
#define WALK_FROM(j)                                                                                                   \
    do {                                                                                                               \
        size_t j_ = (j);                                                                                               \
        if (j_ + 3 <= n) { /* every phrase has three bytes or more */                                                  \
            unsigned h_ = TRIPLE(m->cls, p, j_);                                                                       \
            if (HAS(m->start3, h_))                                                                                    \
                found += walk_bucket(m, p, j_, n, h_, hits, max, &kept);                                               \
        }                                                                                                              \
    } while (0)

#define ANY(k) HAS(any, PAIR(p, k))

size_t hr_acm_find(const hr_acm *m, const char *s, size_t n, hr_acm_hit *hits, size_t max)
{
    if (!m->pair01) {
        unsigned st = 0;
        return hr_acm_scan(m, &st, s, n, hits, max);
    }
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *any = m->pair01, *first = m->pair0;
    size_t found = 0, kept = 0, k = 0;
    /* k even: a phrase beginning at an even j has its first pair at k = j, one beginning at
     * an odd j its second pair at k = j + 1 (every phrase has three bytes or more) */
    while (k + 16 <= n) {
        /* eight pairs at a time: which of them may be part of a phrase */
        unsigned bits = ANY(k) | ANY(k + 2) << 1 | ANY(k + 4) << 2 | ANY(k + 6) << 3 | ANY(k + 8) << 4 |
                        ANY(k + 10) << 5 | ANY(k + 12) << 6 | ANY(k + 14) << 7;
        while (bits) {
            size_t e = k + 2 * (size_t)__builtin_ctz(bits);
            bits &= bits - 1;
            if (e > 0 && HAS(first, PAIR(p, e - 1)))
                WALK_FROM(e - 1);
            if (HAS(first, PAIR(p, e)))
                WALK_FROM(e);
        }
        k += 16;
    }
    for (; k + 1 < n; k += 2) {
        if (ANY(k)) {
            if (k > 0 && HAS(first, PAIR(p, k - 1)))
                WALK_FROM(k - 1);
            if (HAS(first, PAIR(p, k)))
                WALK_FROM(k);
        }
    }
    return found;
}
