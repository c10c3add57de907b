/* headroom — a minimal unit-test harness: each test file is one executable, each failed
 * check prints file:line and the values, and main() returns non-zero if any failed. */
#ifndef HR_TEST_H
#define HR_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int hr_test_failures;
static int hr_test_checks;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        hr_test_checks++;                                                               \
        if (!(cond)) {                                                                  \
            hr_test_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                               \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                              \
    do {                                                                                \
        unsigned long long hr_a_ = (unsigned long long)(a), hr_b_ = (unsigned long long)(b); \
        hr_test_checks++;                                                               \
        if (hr_a_ != hr_b_) {                                                           \
            hr_test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == %s failed: %llu != %llu\n", __FILE__, __LINE__, \
                    #a, #b, hr_a_, hr_b_);                                              \
        }                                                                               \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                              \
    do {                                                                                \
        long long hr_a_ = (long long)(a), hr_b_ = (long long)(b);                       \
        hr_test_checks++;                                                               \
        if (hr_a_ != hr_b_) {                                                           \
            hr_test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, \
                    #a, #b, hr_a_, hr_b_);                                              \
        }                                                                               \
    } while (0)

#define CHECK_STR(a, b)                                                                 \
    do {                                                                                \
        const char *hr_a_ = (a), *hr_b_ = (b);                                          \
        hr_test_checks++;                                                               \
        if (!hr_a_ || !hr_b_ || strcmp(hr_a_, hr_b_) != 0) {                            \
            hr_test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__,     \
                    __LINE__, #a, #b, hr_a_ ? hr_a_ : "(null)", hr_b_ ? hr_b_ : "(null)"); \
        }                                                                               \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                     \
    do {                                                                                \
        const char *hr_h_ = (hay), *hr_n_ = (needle);                                   \
        hr_test_checks++;                                                               \
        if (!hr_h_ || !strstr(hr_h_, hr_n_)) {                                          \
            hr_test_failures++;                                                         \
            fprintf(stderr, "%s:%d: expected \"%s\" in: %.2000s\n", __FILE__, __LINE__, \
                    hr_n_, hr_h_ ? hr_h_ : "(null)");                                   \
        }                                                                               \
    } while (0)

/* Print the plain closing line and return the exit status for main(). */
#define TEST_DONE()                                                                     \
    (printf("%d checks: %d passed, %d failed\n", hr_test_checks,                        \
            hr_test_checks - hr_test_failures, hr_test_failures),                       \
     hr_test_failures ? 1 : 0)

#endif
