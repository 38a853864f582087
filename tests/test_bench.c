/* test_bench.c — bench/bench.h: order statistics against hand-sorted
 * samples, unit formatting, the ratio line, and a timed sleep measured on the
 * wall clock (it must take at least the time slept). */
#include "../bench/bench.h"

#include "test.h"

static void test_summarize(void) {
    double odd[] = {5, 1, 4, 2, 3}, even[] = {8, 2, 6, 4};
    bench_result r = bench_summarize(odd, 5, 1);
    CHECK(r.best == 1 && r.median == 3 && r.worst == 5 && r.reps == 5);
    r = bench_summarize(even, 4, 2); /* sorted 2 4 6 8, per call /2 */
    CHECK(r.best == 1 && r.median == 2.5 && r.worst == 4 && r.calls == 2);
    CHECK(odd[0] == 5); /* the samples are left alone */
}

static void test_format_time(void) {
    char b[32];
    CHECK_STR(bench_format_time(b, sizeof b, 12.3e-9), "12.3 ns");
    CHECK_STR(bench_format_time(b, sizeof b, 999.4e-9), "999 ns");
    CHECK_STR(bench_format_time(b, sizeof b, 999.6e-9), "1 us");
    CHECK_STR(bench_format_time(b, sizeof b, 2.5e-3), "2.5 ms");
    CHECK_STR(bench_format_time(b, sizeof b, 42.0), "42 s");
    CHECK_STR(bench_format_time(b, sizeof b, 4200.0), "4.2e+03 s");
}

static void test_print(void) {
    double base[] = {1.2e-6, 1.3e-6, 1.25e-6}, work[] = {3e-6, 3.1e-6, 3.2e-6};
    bench_result b = bench_summarize(base, 3, 1), r = bench_summarize(work, 3, 1);
    char text[256];
    size_t n;
    FILE *f = tmpfile();
    bench_print(f, "baseline", &b, NULL);
    bench_print(f, "work", &r, &b);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK_STR(text, "baseline                        best     1.2 us  median    1.25 us\n"
                    "work                            best       3 us  median     3.1 us  2.50x baseline\n");
}

static void sleep_1ms(void *ctx) {
    struct timespec t = {0, 1000000};
    (void)ctx;
    nanosleep(&t, NULL);
}

static void test_run_sleep(void) {
    bench_result r = bench_run(sleep_1ms, NULL, BENCH_WALL, 3, 0.004);
    CHECK(r.reps == 3);
    /* doubling from 1 call: 4 calls of at least 1 ms each reach 4 ms, so the
     * calibration stops at 1, 2 or 4 (earlier when the machine is busy) */
    CHECK(r.calls == 1 || r.calls == 2 || r.calls == 4);
    CHECK(r.best >= 0.001 && r.best <= r.median && r.median <= r.worst);
}

int main(void) {
    RUN(test_summarize);
    RUN(test_format_time);
    RUN(test_print);
    RUN(test_run_sleep);
    return test_summary();
}
