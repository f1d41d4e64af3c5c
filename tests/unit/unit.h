/*
 * tests/unit/unit.h — a few macros for unit tests of lang/ pieces.  A test
 * program runs its checks, prints each failure with file:line, and returns
 * unit_done(): 0 when all passed.
 */
#ifndef TKC_UNIT_H
#define TKC_UNIT_H
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int unit_failures, unit_checks;

#define CHECK(cond)                                                            \
    do {                                                                       \
        unit_checks++;                                                         \
        if (!(cond)) {                                                         \
            unit_failures++;                                                   \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                      \
    } while (0)

#define CHECK_STR(got, want)                                                   \
    do {                                                                       \
        const char *g_ = (got), *w_ = (want);                                  \
        unit_checks++;                                                         \
        if (!g_ || strcmp(g_, w_) != 0) {                                      \
            unit_failures++;                                                   \
            printf("%s:%d: %s\n    got:  \"%s\"\n    want: \"%s\"\n", __FILE__,  \
                   __LINE__, #got, g_ ? g_ : "(null)", w_);                    \
        }                                                                      \
    } while (0)

#define CHECK_INT(got, want)                                                   \
    do {                                                                       \
        int64_t g_ = (int64_t)(got), w_ = (int64_t)(want);                     \
        unit_checks++;                                                         \
        if (g_ != w_) {                                                        \
            unit_failures++;                                                   \
            printf("%s:%d: %s = %" PRId64 ", expected %" PRId64 "\n", __FILE__, \
                   __LINE__, #got, g_, w_);                                    \
        }                                                                      \
    } while (0)

static int unit_done(const char *name)
{
    if (unit_failures) {
        printf("%s: %d of %d checks failed\n", name, unit_failures, unit_checks);
        return 1;
    }
    printf("%s: %d checks ok\n", name, unit_checks);
    return 0;
}
#endif
