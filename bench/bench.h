/* bench.h — what every benchmark shares: clocks, repetitions (best and
 * median of N), and result lines with the ratio to a baseline measured in
 * the same run (never to a number remembered from another machine or day).
 *
 * Include it before any other header (it needs _POSIX_C_SOURCE for the
 * clocks). Everything is static inline, so a benchmark uses what it needs.
 *
 *     static void work(void *ctx) { ... }
 *     static void baseline(void *ctx) { ... }
 *     bench_result b = bench_run(baseline, &ctx, BENCH_CPU, 7, 0.05);
 *     bench_result r = bench_run(work, &ctx, BENCH_CPU, 7, 0.05);
 *     bench_print(stdout, "baseline", &b, NULL);
 *     bench_print(stdout, "work", &r, &b);
 * prints
 *     baseline                        best     1.2 us  median    1.25 us
 *     work                            best       3 us  median     3.1 us  2.50x baseline
 *
 * Clocks: BENCH_WALL is CLOCK_MONOTONIC; BENCH_CPU the CPU time of the
 * calling thread (steadier on a machine shared with other busy processes,
 * but blind to time spent in child processes or sleeping); BENCH_PROCESS_CPU
 * the CPU time of all threads of the process.
 */
#ifndef PROPER_BENCH_H
#define PROPER_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef enum bench_clock { BENCH_WALL, BENCH_CPU, BENCH_PROCESS_CPU } bench_clock;

/* Most repetitions bench_run keeps. */
#define BENCH_MAX_REPS 101

/* Seconds per call of one measured operation. */
typedef struct bench_result {
    double best, median, worst;
    int reps;   /* repetitions measured */
    long calls; /* calls per repetition */
} bench_result;

typedef void (*bench_fn)(void *ctx);

/* Seconds on the given clock. */
static inline double bench_now(bench_clock clock) {
    struct timespec t;
    clock_gettime(clock == BENCH_WALL ? CLOCK_MONOTONIC
                  : clock == BENCH_CPU ? CLOCK_THREAD_CPUTIME_ID
                                       : CLOCK_PROCESS_CPUTIME_ID,
                  &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Keeps a computed value alive, so that the compiler cannot drop the work
 * that produced it. */
static inline void bench_keep(double v) {
    static volatile double sink;
    sink = v;
    (void)sink;
}

/* Best, median (the mean of the two middle values for an even count) and
 * worst of n > 0 per-repetition times, each divided by `calls`. */
static inline bench_result bench_summarize(const double *seconds, int n, long calls) {
    double s[BENCH_MAX_REPS];
    bench_result r;
    int i, j;
    if (n > BENCH_MAX_REPS) n = BENCH_MAX_REPS;
    memcpy(s, seconds, (size_t)n * sizeof *s);
    for (i = 1; i < n; i++) { /* insertion sort: n is small */
        double x = s[i];
        for (j = i; j > 0 && s[j - 1] > x; j--) s[j] = s[j - 1];
        s[j] = x;
    }
    r.reps = n;
    r.calls = calls;
    r.best = s[0] / (double)calls;
    r.worst = s[n - 1] / (double)calls;
    r.median = (n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2])) / (double)calls;
    return r;
}

/* Times fn(ctx): first finds how many calls make one repetition last at
 * least min_seconds (doubling from 1), then measures `reps` repetitions of
 * that many calls (at most BENCH_MAX_REPS). */
static inline bench_result bench_run(bench_fn fn, void *ctx, bench_clock clock, int reps, double min_seconds) {
    double t[BENCH_MAX_REPS];
    long calls = 1, k;
    int i;
    if (reps < 1) reps = 1;
    if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
    for (;;) {
        double t0 = bench_now(clock), dt;
        for (k = 0; k < calls; k++) fn(ctx);
        dt = bench_now(clock) - t0;
        if (dt >= min_seconds || calls >= (1L << 30)) break;
        calls *= 2;
    }
    for (i = 0; i < reps; i++) {
        double t0 = bench_now(clock);
        for (k = 0; k < calls; k++) fn(ctx);
        t[i] = bench_now(clock) - t0;
    }
    return bench_summarize(t, reps, calls);
}

/* "12.3 us": seconds with a unit from ns to s, 3 significant digits. */
static inline char *bench_format_time(char *buf, size_t size, double seconds) {
    static const char *const units[] = {"ns", "us", "ms", "s"};
    double v = seconds * 1e9;
    int u = 0;
    while (u < 3 && v >= 999.5) {
        v /= 1e3;
        u++;
    }
    snprintf(buf, size, "%.3g %s", v, units[u]);
    return buf;
}

/* One result line: name, best and median per call and, with a baseline,
 * the ratio of the best times ("2.50x baseline": 2.5 times as long). The
 * best is the figure least disturbed by other load on the machine. */
static inline void bench_print(FILE *out, const char *name, const bench_result *r, const bench_result *baseline) {
    char best[32], median[32];
    fprintf(out, "%-30s  best %10s  median %10s", name, bench_format_time(best, sizeof best, r->best),
            bench_format_time(median, sizeof median, r->median));
    if (baseline && baseline->best > 0) fprintf(out, "  %.2fx baseline", r->best / baseline->best);
    fputc('\n', out);
}

#endif
