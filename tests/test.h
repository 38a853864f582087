/* test.h — proper's minimal test harness.
 *
 * A test program defines functions `static void test_x(void)` and calls
 * RUN(test_x) for each from main, then returns test_summary(). Each RUN
 * prints one line: "ok NAME", "FAIL NAME: ..." or "SKIP NAME: reason"; the
 * runner (tests/run.sh) counts those lines.
 *
 * Checks never abort the test; every failing check prints where and why.
 */
#ifndef PROPER_TEST_H
#define PROPER_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test__checks_failed;   /* failed checks in the running test */
static int test__tests_failed;    /* tests with at least one failed check */
static const char *test__skip_reason;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            test__checks_failed++;                                                    \
            printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
        }                                                                             \
    } while (0)

/* |a - b| <= tol */
#define CHECK_ABS(a, b, tol)                                                          \
    do {                                                                              \
        double test__a = (a), test__b = (b), test__t = (tol);                         \
        if (!(fabs(test__a - test__b) <= test__t)) {                                  \
            test__checks_failed++;                                                    \
            printf("  %s:%d: %s = %.17g, expected %.17g (abs tol %g, diff %g)\n",      \
                   __FILE__, __LINE__, #a, test__a, test__b, test__t,                 \
                   fabs(test__a - test__b));                                          \
        }                                                                             \
    } while (0)

/* |a - b| <= tol * max(|b|, tiny) */
#define CHECK_REL(a, b, tol)                                                          \
    do {                                                                              \
        double test__a = (a), test__b = (b), test__t = (tol);                         \
        double test__s = fabs(test__b) > 1e-300 ? fabs(test__b) : 1e-300;             \
        if (!(fabs(test__a - test__b) <= test__t * test__s)) {                        \
            test__checks_failed++;                                                    \
            printf("  %s:%d: %s = %.17g, expected %.17g (rel tol %g, rel diff %g)\n", \
                   __FILE__, __LINE__, #a, test__a, test__b, test__t,                 \
                   fabs(test__a - test__b) / test__s);                                \
        }                                                                             \
    } while (0)

#define CHECK_INT(a, b)                                                               \
    do {                                                                              \
        long long test__a = (long long)(a), test__b = (long long)(b);                 \
        if (test__a != test__b) {                                                     \
            test__checks_failed++;                                                    \
            printf("  %s:%d: %s = %lld, expected %lld\n", __FILE__, __LINE__, #a,      \
                   test__a, test__b);                                                 \
        }                                                                             \
    } while (0)

#define CHECK_STR(a, b)                                                               \
    do {                                                                              \
        const char *test__a = (a), *test__b = (b);                                    \
        if (!test__a || !test__b || strcmp(test__a, test__b) != 0) {                  \
            test__checks_failed++;                                                    \
            printf("  %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,  \
                   test__a ? test__a : "(null)", test__b ? test__b : "(null)");       \
        }                                                                             \
    } while (0)

/* The string a contains b. */
#define CHECK_CONTAINS(a, b)                                                          \
    do {                                                                              \
        const char *test__a = (a), *test__b = (b);                                    \
        if (!test__a || !strstr(test__a, test__b)) {                                  \
            test__checks_failed++;                                                    \
            printf("  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__,    \
                   test__a ? test__a : "(null)", test__b);                            \
        }                                                                             \
    } while (0)

/* Call inside a test to mark it skipped (e.g. an optional tool is missing). */
#define SKIP(reason) do { test__skip_reason = (reason); return; } while (0)

#define RUN(fn)                                                                       \
    do {                                                                              \
        test__checks_failed = 0;                                                      \
        test__skip_reason = NULL;                                                     \
        fn();                                                                         \
        if (test__skip_reason)                                                        \
            printf("SKIP %s: %s\n", #fn, test__skip_reason);                          \
        else if (test__checks_failed) {                                               \
            printf("FAIL %s: %d check(s) failed\n", #fn, test__checks_failed);        \
            test__tests_failed++;                                                     \
        } else                                                                        \
            printf("ok %s\n", #fn);                                                   \
        fflush(stdout);                                                               \
    } while (0)

static int test_summary(void) { return test__tests_failed ? 1 : 0; }

#endif
